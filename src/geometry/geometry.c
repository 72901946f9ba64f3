/* The shared part of every geometry: construction, lookup, names and rays. */
#include "geometry.h"

#include <stdio.h>
#include <string.h>

void geo_init(Geometry *g, const char *name, int nlevels, MirrorKind mirror)
{
    memset(g, 0, sizeof *g);
    g->name = name;
    g->nlevels = nlevels;
    g->mirror = mirror;
    memset(g->lookup, NO_CELL, sizeof g->lookup);
    memset(g->name_head, NO_CELL, sizeof g->name_head);
}

/* The chain of the names that begin with the bytes a and b (b is 0 for a one-character name). */
static unsigned name_bucket(char a, char b)
{
    return ((unsigned char)a * 31u + (unsigned char)b) % NAME_BUCKETS;
}

/* Cells are numbered in the order they are added: builders add them in position-text order. */
Cell geo_add_cell(Geometry *g, int q, int r, int level, const char *name)
{
    Cell c = (Cell)g->ncells++;
    g->q[c] = (int8_t)q;
    g->r[c] = (int8_t)r;
    g->level[c] = (int8_t)level;
    snprintf(g->cell_name[c], CELL_NAME_MAX, "%s", name);
    g->lookup[level][q + COORD_BIAS][r + COORD_BIAS] = c;
    g->name_len[c] = (uint8_t)strlen(g->cell_name[c]);
    unsigned b = name_bucket(g->cell_name[c][0], g->cell_name[c][1]);
    g->name_next[c] = g->name_head[b];
    g->name_head[b] = c;
    return c;
}

void geo_set_dirs(Geometry *g, const Vec *dirs, const char *const *names, int n)
{
    g->ndirs = n;
    for (int d = 0; d < n; d++) {
        g->dir[d] = dirs[d];
        g->dir_name[d] = names[d];
    }
}

void geo_add_hex_column(Geometry *g, int q, int level, int xoff, int top, bool (*on)(int q, int r, int level),
                        void (*name)(const Geometry *g, int q, int r, int level, char *out))
{
    int len = 0;
    for (int r = -COORD_BIAS; r < COORD_RANGE - COORD_BIAS; r++) {
        if (!on(q, r, level))
            continue;
        char text[CELL_NAME_MAX];
        name(g, q, r, level, text);
        Cell c = geo_add_cell(g, q, r, level, text);
        g->row_cells[c] = c;
        g->draw_x[c] = (int16_t)(q + xoff);
        g->draw_y[c] = (int16_t)(top - (2 * r + q));
        len++;
    }
    g->row_len[g->nrows++] = (uint8_t)len;
}

void geo_finish(Geometry *g)
{
    for (int c = 0; c < g->ncells; c++)
        for (int d = 0; d < MAX_DIRS; d++)
            g->step[c][d] = d < g->ndirs ? geo_add(g, (Cell)c, g->dir[d]) : NO_CELL;
    g->numeric_names = g->cell_name[0][0] >= '0' && g->cell_name[0][0] <= '9';
}

Cell geo_cell_at(const Geometry *g, int q, int r, int level)
{
    if (level < 0 || level >= g->nlevels)
        return NO_CELL;
    q += COORD_BIAS;
    r += COORD_BIAS;
    if (q < 0 || q >= COORD_RANGE || r < 0 || r >= COORD_RANGE)
        return NO_CELL;
    return g->lookup[level][q][r];
}

Cell geo_add(const Geometry *g, Cell c, Vec v)
{
    return geo_cell_at(g, g->q[c] + v.dq, g->r[c] + v.dr, g->level[c] + v.dl);
}

Vec geo_mirror(const Geometry *g, Vec v)
{
    Vec m = v;
    /* Square boards flip the rank; hex boards keep the column and negate y = 2r + q. */
    m.dr = (int8_t)(g->mirror == MIRROR_SQUARE ? -v.dr : -v.dr - v.dq);
    return m;
}

/* The coordinate a mirror negates: the rank, or y = 2r + q on hex boards. */
static int mirrored_axis(const Geometry *g, Cell c)
{
    return g->mirror == MIRROR_SQUARE ? g->r[c] : 2 * g->r[c] + g->q[c];
}

bool geo_mirror_cells(const Geometry *g, Cell out[MAX_CELLS])
{
    int lo[MAX_LEVELS] = {INT8_MAX, INT8_MAX}, hi[MAX_LEVELS] = {INT8_MIN, INT8_MIN};
    for (int c = 0; c < g->ncells; c++) {
        int l = g->level[c], y = mirrored_axis(g, (Cell)c);
        lo[l] = y < lo[l] ? y : lo[l];
        hi[l] = y > hi[l] ? y : hi[l];
    }
    for (int c = 0; c < g->ncells; c++) {
        int l = g->level[c], y = lo[l] + hi[l] - mirrored_axis(g, (Cell)c);
        int r = g->mirror == MIRROR_SQUARE ? y : (y - g->q[c]) / 2;
        if (g->mirror == MIRROR_HEX && (y - g->q[c]) % 2)
            return false;
        out[c] = geo_cell_at(g, g->q[c], r, l);
        if (out[c] == NO_CELL)
            return false;
    }
    return true;
}

int geo_dir_index(const Geometry *g, Vec v)
{
    for (int d = 0; d < g->ndirs; d++)
        if (g->dir[d].dq == v.dq && g->dir[d].dr == v.dr && g->dir[d].dl == v.dl)
            return d;
    return -1;
}

Cell geo_parse_cell(const Geometry *g, const char *s, int *len)
{
    Cell best = NO_CELL;
    int best_len = 0;
    /* A name that starts s begins with s[0] and either ends there or goes on with s[1]. */
    unsigned buckets[2] = {name_bucket(s[0], 0), name_bucket(s[0], s[0] ? s[1] : 0)};
    for (int k = 0; k < (buckets[1] == buckets[0] ? 1 : 2); k++)
        for (Cell c = g->name_head[buckets[k]]; c != NO_CELL; c = g->name_next[c]) {
            int n = g->name_len[c];
            if (n > best_len && strncmp(s, g->cell_name[c], (size_t)n) == 0) {
                best = c;
                best_len = n;
            }
        }
    /* "1" must not match the start of "12": a numeric name may not run on into a digit. */
    if (best != NO_CELL && g->numeric_names && s[best_len] >= '0' && s[best_len] <= '9')
        best = NO_CELL;
    if (len)
        *len = best == NO_CELL ? 0 : best_len;
    return best;
}

int geo_ray(const Geometry *g, Cell c, int dir, Cell *out)
{
    int n = 0;
    for (Cell s = g->step[c][dir]; s != NO_CELL; s = g->step[s][dir])
        out[n++] = s;
    return n;
}

bool geo_has_other_level(const Geometry *g, Cell c)
{
    for (int l = 0; l < g->nlevels; l++)
        if (l != g->level[c] && geo_cell_at(g, g->q[c], g->r[c], l) != NO_CELL)
            return true;
    return false;
}
