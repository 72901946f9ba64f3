/*
 * The Megastar of David board: two levels of flat-topped hex cells, each a triangle of side 13.
 * Axial coordinates (q = file, r along the file), level 0 = upper (U), level 1 = lower (L):
 *   U: max(q, r, -q-r) <= 4 (files a..m, q = -8..4)
 *   L: min(q, r, -q-r) >= -4 (files e..q, q = -4..8)
 * The Drum is where the two overlap (max(|q|, |r|, |q+r|) <= 4): 61 cells a level, and only
 * there does a cell have a vertical neighbour.  Cell names are level letter, file letter and
 * rank, where rank = r - rmin(q) + 1 with rmin(q) the lowest r of file q on either level.
 * Cells are numbered in position-text order: upper files a..m, then lower files e..q, each
 * from its lowest rank up.
 */
#include "geometry.h"

#include <pthread.h>
#include <stdio.h>

static Geometry megastar;

static int max3(int a, int b, int c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }
static int min3(int a, int b, int c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }

static bool on_level(int q, int r, int level)
{
    return level == 0 ? max3(q, r, -q - r) <= 4 : min3(q, r, -q - r) >= -4;
}

static int lowest_r(int q)
{
    for (int r = -12; r <= 12; r++)
        if (on_level(q, r, 0) || on_level(q, r, 1))
            return r;
    return 0;
}

static void cell_name(const Geometry *g, int q, int r, int level, char *out)
{
    (void)g;
    snprintf(out, CELL_NAME_MAX, "%c%c%u", level == 0 ? 'U' : 'L', 'a' + (q + 8), (unsigned char)(r - lowest_r(q) + 1));
}

static void add_level(Geometry *g, int level, int qmin, int qmax)
{
    /* The lower level (q -4..8) is drawn right of the upper one (q -8..4), three columns apart. */
    for (int q = qmin; q <= qmax; q++)
        geo_add_hex_column(g, q, level, level == 0 ? 8 : 20, 12, on_level, cell_name);
}

static void build(void)
{
    static const Vec dirs[] = {
        {0, 1, 0},  {0, -1, 0}, {1, 0, 0},   {1, -1, 0},  {-1, 1, 0},  {-1, 0, 0}, /* orthogonal */
        {1, 1, 0},  {2, -1, 0}, {1, -2, 0},  {-1, -1, 0}, {-2, 1, 0},  {-1, 2, 0}, /* diagonal */
        {0, 0, 1},  {0, 0, -1},                                                    /* vertical */
    };
    static const char *const names[] = {"N",   "S",   "NE",  "SE",  "NW",  "SW",   "DNE",
                                        "DE",  "DSE", "DSW", "DW",  "DNW", "DOWN", "UP"};
    Geometry *g = &megastar;
    geo_init(g, "megastar", 2, MIRROR_HEX);
    add_level(g, 0, -8, 4);
    add_level(g, 1, -4, 8);
    g->draw_w = 29;
    g->draw_h = 25;
    geo_set_dirs(g, dirs, names, 14);
    geo_finish(g);
}

const Geometry *geo_megastar(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build);
    return &megastar;
}

