/*
 * The Starchess hexagram: 37 flat-topped hex cells, the union of two opposite triangles of
 * side 7.  Axial coordinates (q = column -4..4, r along the column); (q, r) is on the board
 * iff max(q, r, -q-r) <= 2 or min(q, r, -q-r) >= -2.  Cells are numbered 1..37 column by
 * column, left to right, bottom to top, which is also the position-text order.
 */
#include "geometry.h"

#include <pthread.h>
#include <stdio.h>

static Geometry hexstar;

static int max3(int a, int b, int c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }
static int min3(int a, int b, int c) { return a < b ? (a < c ? a : c) : (b < c ? b : c); }

static bool on_star(int q, int r, int level)
{
    (void)level;
    return max3(q, r, -q - r) <= 2 || min3(q, r, -q - r) >= -2;
}

/* Cells are numbered in the order they are added. */
static void star_name(const Geometry *g, int q, int r, int level, char *out)
{
    (void)q, (void)r, (void)level;
    snprintf(out, CELL_NAME_MAX, "%u", (unsigned char)(g->ncells + 1));
}

static void build(void)
{
    static const Vec dirs[] = {{0, 1, 0}, {0, -1, 0}, {1, 0, 0}, {1, -1, 0}, {-1, 1, 0}, {-1, 0, 0}};
    static const char *const names[] = {"N", "S", "NE", "SE", "NW", "SW"};
    Geometry *g = &hexstar;
    geo_init(g, "hexstar", 1, MIRROR_HEX);
    /* One drawing column per q; y = 2r + q runs from -6 (bottom) to +6 (top). */
    for (int q = -4; q <= 4; q++)
        geo_add_hex_column(g, q, 0, 4, 6, on_star, star_name);
    g->draw_w = 9;
    g->draw_h = 13;
    geo_set_dirs(g, dirs, names, 6);
    geo_finish(g);
}

const Geometry *geo_hexstar(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build);
    return &hexstar;
}
