/*
 * Attack tables: from the geometry and each pattern's movement kind to cell sets.
 *
 *   PAT_STEP   per cell, the set of leap targets (after the pattern's `allow` filter), and
 *              reversed, the set of cells from which a leap lands on the cell;
 *   PAT_PAWN   per cell, the single and double step targets, and the capture targets as
 *              leaps (reversed too);
 *   PAT_SLIDE  a slider table of the pattern's directions (rays, whole lines, PEXT tables);
 *              attack tests read the table of the reverse directions from the attacked cell;
 *   PAT_HOP    a slider table too: a hop's screen and victim are the first and second piece
 *              along a ray;
 *   PAT_ROSE   the crooked paths from each cell, walked cell by cell.
 *
 * Slider tables depend only on the board and the directions, so variants on one board share
 * them (chess, Starvation and square-says use one rook table); they are built once, under a
 * lock, and kept for the life of the program.
 */
#include "attack.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

static void *zalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fprintf(stderr, "starfish: out of memory building attack tables\n");
        exit(1);
    }
    return p;
}

/* A table of n sets of `words` words each. */
static uint64_t *sets_alloc(int words, size_t n)
{
    return zalloc(n * (size_t)words * sizeof(uint64_t));
}

static void set_put(uint64_t *table, int words, size_t i, Cell c)
{
    table[i * (size_t)words + (c >> 6)] |= 1ull << (c & 63);
}

static int set_size(const uint64_t *table, int words, size_t i)
{
    int n = 0;
    for (int k = 0; k < words; k++)
        n += __builtin_popcountll(table[i * (size_t)words + (size_t)k]);
    return n;
}

static Vec oriented(const Geometry *g, Vec v, int colour)
{
    return colour == WHITE ? v : geo_mirror(g, v);
}

static Vec negated(Vec v)
{
    return (Vec){(int8_t)-v.dq, (int8_t)-v.dr, (int8_t)-v.dl};
}

static int vec_compare(const void *a, const void *b)
{
    const Vec *x = a, *y = b;
    if (x->dq != y->dq)
        return x->dq - y->dq;
    if (x->dr != y->dr)
        return x->dr - y->dr;
    return x->dl - y->dl;
}

/* ---- slider tables ---- */

#define MAX_SLIDER_TABLES 64

static struct {
    pthread_mutex_t lock;
    SliderTable *table[MAX_SLIDER_TABLES];
    int n;
} sliders = {PTHREAD_MUTEX_INITIALIZER, {0}, 0};

/* The cells from c along v, max_len at most (0: no limit). */
static int walk(const Geometry *g, Cell c, Vec v, int max_len, Cell *out)
{
    int n = 0;
    for (Cell s = geo_add(g, c, v); s != NO_CELL && (max_len == 0 || n < max_len); s = geo_add(g, s, v))
        out[n++] = s;
    return n;
}

/* The attacks along every ray of t from c when the cells of `occupied` (one word) hold
 * pieces: each ray up to its first piece. */
static uint64_t slide_on_one_word(const SliderTable *t, Cell c, uint64_t occupied)
{
    uint64_t attacks = 0;
    size_t n = (size_t)t->geo->ncells;
    for (int d = 0; d < t->nvec; d++) {
        uint64_t ray = t->ray[(size_t)d * n + c], blockers = ray & occupied;
        if (blockers)
            ray &= ~t->line[(size_t)d * n + (t->grows[d] ? __builtin_ctzll(blockers) : 63 - __builtin_clzll(blockers))];
        attacks |= ray;
    }
    return attacks;
}

/* One-word boards: every cell's attacks for every set of blockers, indexed by PEXT.  The
 * subsets of a mask come in increasing order from the carry-rippler `(sub - mask) & mask`, and
 * PEXT keeps the order of the bits it gathers, so the k-th subset's index is k: the tables are
 * built without the instruction, on any CPU. */
static void build_pext(SliderTable *t)
{
    const Geometry *g = t->geo;
    size_t total = 0;
    t->mask = sets_alloc(1, (size_t)g->ncells);
    t->offset = zalloc(sizeof(uint32_t) * (size_t)g->ncells);
    for (Cell c = 0; c < g->ncells; c++) {
        /* The last cell of a ray is attacked whatever stands on it. */
        for (int d = 0; d < t->nvec; d++) {
            uint64_t ray = t->ray[(size_t)d * g->ncells + c];
            if (ray)
                t->mask[c] |= ray & ~(t->grows[d] ? 1ull << (63 - __builtin_clzll(ray)) : ray & -ray);
        }
        t->offset[c] = (uint32_t)total;
        total += 1ull << __builtin_popcountll(t->mask[c]);
    }
    t->attacks = sets_alloc(1, total);
    for (Cell c = 0; c < g->ncells; c++) {
        uint64_t mask = t->mask[c], sub = 0, index = 0;
        do {
            t->attacks[t->offset[c] + index++] = slide_on_one_word(t, c, sub);
            sub = (sub - mask) & mask;
        } while (sub);
    }
}

static bool build_slider(SliderTable *t, char *err, size_t errlen)
{
    const Geometry *g = t->geo;
    size_t n = (size_t)g->ncells;
    Cell cells[MAX_CELLS];
    t->ray = sets_alloc(t->words, (size_t)t->nvec * n);
    t->line = sets_alloc(t->words, (size_t)t->nvec * n);
    t->reach = sets_alloc(t->words, n);
    for (int d = 0; d < t->nvec; d++) {
        int sign = 0;
        for (Cell c = 0; c < g->ncells; c++) {
            int len = walk(g, c, t->vec[d], 0, cells);
            for (int i = 0; i < len; i++) {
                /* First blockers are lowest or highest cells: the numbering must be monotone. */
                int step = (i ? cells[i - 1] : c) < cells[i] ? 1 : -1;
                if (sign && step != sign) {
                    snprintf(err, errlen, "board %s: cell numbers do not run one way along (%d,%d,%d)", g->name,
                             t->vec[d].dq, t->vec[d].dr, t->vec[d].dl);
                    return false;
                }
                sign = step;
                set_put(t->line, t->words, (size_t)d * n + c, cells[i]);
                if (t->max_len == 0 || i < t->max_len) {
                    set_put(t->ray, t->words, (size_t)d * n + c, cells[i]);
                    set_put(t->reach, t->words, c, cells[i]);
                }
            }
        }
        t->grows[d] = sign >= 0;
    }
    if (t->words == 1 && rules_ops_for(1)->pext)
        build_pext(t);
    return true;
}

/* The shared table of a board's directions (in any order, repeats ignored). */
static const SliderTable *slider_table(const Geometry *g, int words, const Vec *vecs, int nvec, int max_len,
                                       char *err, size_t errlen)
{
    SliderTable key = {.geo = g, .words = words, .max_len = max_len};
    memcpy(key.vec, vecs, sizeof(Vec) * (size_t)nvec);
    qsort(key.vec, (size_t)nvec, sizeof(Vec), vec_compare);
    for (int i = 0; i < nvec; i++)
        if (key.nvec == 0 || vec_compare(&key.vec[key.nvec - 1], &key.vec[i]) != 0)
            key.vec[key.nvec++] = key.vec[i];
    pthread_mutex_lock(&sliders.lock);
    SliderTable *found = NULL;
    for (int i = 0; i < sliders.n && !found; i++) {
        SliderTable *t = sliders.table[i];
        if (t->geo == g && t->words == words && t->max_len == max_len && t->nvec == key.nvec &&
            memcmp(t->vec, key.vec, sizeof(Vec) * (size_t)key.nvec) == 0)
            found = t;
    }
    if (!found && sliders.n == MAX_SLIDER_TABLES)
        snprintf(err, errlen, "more than %d slider tables", MAX_SLIDER_TABLES);
    else if (!found) {
        found = zalloc(sizeof *found);
        *found = key;
        if (build_slider(found, err, errlen))
            sliders.table[sliders.n++] = found;
        else
            found = NULL;
    }
    pthread_mutex_unlock(&sliders.lock);
    return found;
}

/* ---- per pattern ---- */

/* May a leap by v start at `from` (p NULL: any step on the board)? */
static bool leap_allowed(const Pattern *p, const Geometry *g, Cell from, Vec v)
{
    return geo_add(g, from, v) != NO_CELL && (!p || !p->allow || p->allow(g, from, v));
}

/* Leaps by each of vecs (oriented for the colour), forward into `to` and reversed into `from`. */
static void build_leaps(const Variant *v, const Pattern *p, const Vec *vecs, int nvec, int colour, PatternTable *t)
{
    const Geometry *g = v->geo;
    t->to = sets_alloc(v->words, (size_t)g->ncells);
    t->from = sets_alloc(v->words, (size_t)g->ncells);
    for (Cell c = 0; c < g->ncells; c++)
        for (int i = 0; i < nvec; i++) {
            Vec d = oriented(g, vecs[i], colour);
            if (leap_allowed(p, g, c, d)) {
                Cell target = geo_add(g, c, d);
                set_put(t->to, v->words, c, target);
                set_put(t->from, v->words, target, c);
            }
        }
}

/* The fixed change of cell number of a step by d from every cell of `from` that has one (with
 * the cells that have one), or false. */
static bool fixed_step(const Variant *v, const Pattern *p, Vec d, int *step, CellSet *from)
{
    const Geometry *g = v->geo;
    bool found = false;
    for (Cell c = 0; c < g->ncells; c++) {
        if (!leap_allowed(p, g, c, d))
            continue;
        int change = geo_add(g, c, d) - c;
        if (found && change != *step)
            return false;
        *step = change;
        found = true;
        cellset_flip(from, c);
    }
    return found;
}

static void build_shifts(const Variant *v, const Pattern *p, int colour, PatternTable *t)
{
    const Geometry *g = v->geo;
    if (v->words != 1)
        return;
    bool ok = fixed_step(v, p, oriented(g, p->vec[0], colour), &t->shift.push, &t->shift.push_from);
    t->shift.push_usable = ok;
    for (int i = 0; i < p->ncapture && ok; i++)
        ok = fixed_step(v, p, oriented(g, p->capture[i], colour), &t->shift.capture[i], &t->shift.capture_from[i]);
    t->shift.ncapture = p->ncapture;
    for (Cell c = 0; c < g->ncells; c++)
        if (t->push2[c] != NO_CELL)
            cellset_flip(&t->shift.push2_via, t->push[c]);
    t->shift.usable = ok;
}

static void build_pushes(const Variant *v, const Pattern *p, int colour, PatternTable *t)
{
    const Geometry *g = v->geo;
    Vec fwd = oriented(g, p->vec[0], colour);
    t->push = zalloc(sizeof(Cell) * MAX_CELLS);
    t->push2 = zalloc(sizeof(Cell) * MAX_CELLS);
    memset(t->push, NO_CELL, MAX_CELLS);
    memset(t->push2, NO_CELL, MAX_CELLS);
    for (Cell c = 0; c < g->ncells; c++) {
        if (!leap_allowed(p, g, c, fwd))
            continue;
        t->push[c] = geo_add(g, c, fwd);
        if (v->start_cell[colour][c] && leap_allowed(p, g, t->push[c], fwd))
            t->push2[c] = geo_add(g, t->push[c], fwd);
    }
}

/* One rose path: first step vec[first], then turning by `turn` (+1 or -1) each step. */
static int rose_path(const Geometry *g, const Pattern *p, Cell c, int first, int turn, int colour, Cell *out)
{
    int n = 0, i = first, max = p->max_len ? p->max_len : p->nvec;
    for (Cell s = c; n < max; i = (i + turn + p->nvec) % p->nvec) {
        s = geo_add(g, s, oriented(g, p->vec[i], colour));
        if (s == NO_CELL || s == c)
            break;
        out[n++] = s;
    }
    return n;
}

static bool build_rose(const Variant *v, const Pattern *p, int colour, PatternTable *t, char *err, size_t errlen)
{
    const Geometry *g = v->geo;
    if ((p->max_len ? p->max_len : p->nvec) > MAX_ROSE_LEN) {
        snprintf(err, errlen, "rose paths longer than %d cells", MAX_ROSE_LEN);
        return false;
    }
    RoseTable *r = zalloc(sizeof *r);
    r->npaths = 2 * p->nvec;
    r->len = zalloc((size_t)g->ncells * (size_t)r->npaths);
    r->cells = zalloc(sizeof(Cell) * (size_t)g->ncells * (size_t)r->npaths * MAX_ROSE_LEN);
    r->reach = sets_alloc(v->words, (size_t)g->ncells);
    r->path = sets_alloc(v->words, (size_t)g->ncells * (size_t)r->npaths);
    for (Cell c = 0; c < g->ncells; c++)
        for (int k = 0; k < r->npaths; k++) {
            Cell *cells = r->cells + ((size_t)c * (size_t)r->npaths + (size_t)k) * MAX_ROSE_LEN;
            int n = rose_path(g, p, c, k / 2, k % 2 ? 1 : -1, colour, cells);
            r->len[(size_t)c * (size_t)r->npaths + (size_t)k] = (uint8_t)n;
            for (int i = 0; i < n; i++) {
                set_put(r->reach, v->words, c, cells[i]);
                set_put(r->path, v->words, c * r->npaths + k, cells[i]);
            }
        }
    t->rose = r;
    return true;
}

static bool build_pattern(const Variant *v, const Pattern *p, int colour, PatternTable *t, char *err, size_t errlen)
{
    const Geometry *g = v->geo;
    Vec vecs[MAX_VECS], back[MAX_VECS];
    for (int i = 0; i < p->nvec; i++) {
        vecs[i] = oriented(g, p->vec[i], colour);
        back[i] = negated(vecs[i]);
    }
    switch (p->kind) {
    case PAT_STEP:
        build_leaps(v, p, p->vec, p->nvec, colour, t);
        return true;
    case PAT_PAWN:
        build_leaps(v, p, p->capture, p->ncapture, colour, t);
        build_pushes(v, p, colour, t);
        build_shifts(v, p, colour, t);
        return true;
    case PAT_HOP:
        if (p->max_len) {
            snprintf(err, errlen, "hop patterns have no max_len");
            return false;
        }
        /* fall through */
    case PAT_SLIDE:
        t->slide = slider_table(g, v->words, vecs, p->nvec, p->max_len, err, errlen);
        t->back = slider_table(g, v->words, back, p->nvec, p->max_len, err, errlen);
        return t->slide && t->back;
    case PAT_ROSE:
        return build_rose(v, p, colour, t, err, errlen);
    default:
        snprintf(err, errlen, "unknown pattern kind %d", p->kind);
        return false;
    }
}

/* Pieces whose patterns can reach one cell twice (Megastar's Cohen: both roses) are generated
 * piece by piece, the targets of all their patterns together; so are pawns with other
 * patterns (every move of a pawn may promote). */
static void mark_types_apart(Variant *v)
{
    const Geometry *g = v->geo;
    for (int code = 0; code < MAX_CODES; code++)
        for (Cell c = 0; c < g->ncells; c++) {
            unsigned pm = v->pattern_mask[code][c];
            int type = PIECE_TYPE(code);
            if (!pm)
                continue;
            if (v->is_pawn[code] && (pm & ~v->kind_patterns[PAT_PAWN]))
                v->types_apart |= (uint16_t)(1u << type);
            CellSet seen = {{0}};
            for (unsigned bits = pm; bits; bits &= bits - 1) {
                const PatternTable *t = &v->pat[__builtin_ctz(bits)][PIECE_COLOUR(code)];
                const uint64_t *reach = pattern_reach(t);
                for (int k = 0; k < v->words; k++) {
                    uint64_t w = reach[(size_t)c * (size_t)v->words + (size_t)k];
                    if (seen.w[k] & w)
                        v->types_apart |= (uint16_t)(1u << type);
                    seen.w[k] |= w;
                }
            }
        }
}

bool attack_build(Variant *v, char *err, size_t errlen)
{
    const Geometry *g = v->geo;
    const VariantDef *d = v->def;
    if (d->npatterns > MAX_PATTERNS) {
        snprintf(err, errlen, "more than %d patterns", MAX_PATTERNS);
        return false;
    }
    for (int i = 0; i < d->npatterns; i++) {
        v->kind_patterns[d->patterns[i].kind] |= (uint16_t)(1u << i);
        for (int colour = 0; colour < 2; colour++)
            if (!build_pattern(v, &d->patterns[i], colour, &v->pat[i][colour], err, errlen))
                return false;
    }
    v->leaps = sets_alloc(v->words, (size_t)MAX_CODES * (size_t)g->ncells);
    for (int code = 0; code < MAX_CODES; code++)
        for (Cell c = 0; c < g->ncells; c++) {
            unsigned steps = v->pattern_mask[code][c] & v->kind_patterns[PAT_STEP];
            for (; steps; steps &= steps - 1) {
                const uint64_t *to = v->pat[__builtin_ctz(steps)][PIECE_COLOUR(code)].to;
                for (int k = 0; k < v->words; k++)
                    v->leaps[((size_t)code * g->ncells + c) * (size_t)v->words + (size_t)k] |=
                        to[(size_t)c * (size_t)v->words + (size_t)k];
            }
        }
    mark_types_apart(v);
    v->adjacent = sets_alloc(v->words, (size_t)g->ncells);
    for (Cell c = 0; c < g->ncells; c++) {
        cellset_flip(&v->all, c);
        for (int k = 0; k < g->ndirs; k++)
            if (g->step[c][k] != NO_CELL)
                set_put(v->adjacent, v->words, c, g->step[c][k]);
    }
    /* The neighbours of a whole set at once, where every direction is a fixed shift. */
    v->adjacent_shift.usable = v->words == 1;
    for (int k = 0; k < g->ndirs && v->adjacent_shift.usable; k++)
        v->adjacent_shift.usable =
            fixed_step(v, NULL, g->dir[k], &v->adjacent_shift.by[k], &v->adjacent_shift.from[k]);
    return true;
}

int variant_reach(const Variant *v, int code, Cell c)
{
    const Geometry *g = v->geo;
    int n = 0, colour = PIECE_COLOUR(code);
    for (unsigned bits = v->pattern_mask[code][c]; bits; bits &= bits - 1) {
        int i = __builtin_ctz(bits);
        const PatternTable *t = &v->pat[i][colour];
        switch (v->def->patterns[i].kind) {
        case PAT_PAWN:
            n += (t->push[c] != NO_CELL) + (t->push2[c] != NO_CELL);
            /* fall through */
        case PAT_STEP:
            n += set_size(t->to, v->words, c);
            break;
        case PAT_SLIDE:
        case PAT_HOP:
            for (int d = 0; d < t->slide->nvec; d++)
                n += set_size(t->slide->ray, v->words, (size_t)d * (size_t)g->ncells + c);
            break;
        case PAT_ROSE:
            for (int k = 0; k < t->rose->npaths; k++)
                n += t->rose->len[(size_t)c * (size_t)t->rose->npaths + (size_t)k];
            break;
        default:
            break;
        }
    }
    return n;
}

Cell variant_push(const Variant *v, int code, Cell c, bool double_step)
{
    unsigned pawns = v->pattern_mask[code][c] & v->kind_patterns[PAT_PAWN];
    if (!pawns)
        return NO_CELL;
    const PatternTable *t = &v->pat[__builtin_ctz(pawns)][PIECE_COLOUR(code)];
    return double_step ? t->push2[c] : t->push[c];
}

CellSet variant_targets(const Variant *v, int code, Cell c)
{
    CellSet out = {{0}};
    int colour = PIECE_COLOUR(code);
    for (unsigned bits = v->pattern_mask[code][c]; bits; bits &= bits - 1) {
        int i = __builtin_ctz(bits);
        const PatternTable *t = &v->pat[i][colour];
        if (v->def->patterns[i].kind == PAT_PAWN) {
            if (t->push[c] != NO_CELL && !cellset_has(&out, t->push[c]))
                cellset_flip(&out, t->push[c]);
            if (t->push2[c] != NO_CELL && !cellset_has(&out, t->push2[c]))
                cellset_flip(&out, t->push2[c]);
        }
        const uint64_t *set = pattern_reach(t);
        for (int k = 0; k < v->words; k++)
            out.w[k] |= set[(size_t)c * (size_t)v->words + (size_t)k];
    }
    return out;
}
