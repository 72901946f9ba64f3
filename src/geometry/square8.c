/* The 8x8 board: files a..h (q 0..7), ranks 1..8 (r 0..7), in FEN order (rank 8 first). */
#include "geometry.h"

#include <pthread.h>

static Geometry square8;

static void build(void)
{
    static const Vec dirs[] = {{0, 1, 0},  {0, -1, 0}, {1, 0, 0},  {-1, 0, 0},
                               {1, 1, 0},  {-1, 1, 0}, {1, -1, 0}, {-1, -1, 0}};
    static const char *const names[] = {"N", "S", "E", "W", "NE", "NW", "SE", "SW"};
    Geometry *g = &square8;
    geo_init(g, "square8", 1, MIRROR_SQUARE);
    for (int rank = 7; rank >= 0; rank--) {
        g->row_len[g->nrows++] = 8;
        for (int file = 0; file < 8; file++) {
            char name[3] = {(char)('a' + file), (char)('1' + rank), 0};
            Cell c = geo_add_cell(g, file, rank, 0, name);
            g->row_cells[c] = c;
            g->draw_x[c] = (int16_t)file;
            g->draw_y[c] = (int16_t)(7 - rank);
        }
    }
    g->draw_w = 8;
    g->draw_h = 8;
    geo_set_dirs(g, dirs, names, 8);
    geo_finish(g);
    g->file_rank_names = true;
}

const Geometry *geo_square8(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build);
    return &square8;
}
