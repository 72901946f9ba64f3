/*
 * variant_build(): from a VariantDef to the precomputed tables the rules core runs on.
 *
 * Move programs.  For every piece code and cell, the movement patterns are unrolled into a
 * list of entries, each a header (kind and whether it may move quietly and/or capture) and
 * the cells it passes, in order.  Generating moves is then a walk over these bytes.
 *
 * Attack programs.  For every side and cell X, the cells from which a piece of that side
 * could capture on X, grouped the same way, each entry tagged with the pattern bits a piece
 * there must have.  "Is X attacked by White?" walks the entries and checks, for the first
 * piece met on each ray, pattern_mask[piece][its cell].  Because the mask is per cell, pieces
 * whose movement depends on where they stand need no special code.
 */
#include "variant.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fen.h"

typedef struct {
    uint8_t *data;
    size_t len, cap;
} Buffer;

static void buf_put(Buffer *b, uint8_t byte)
{
    if (b->len == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 4096;
        b->data = realloc(b->data, b->cap);
        if (!b->data) {
            fprintf(stderr, "starfish: out of memory building variant tables\n");
            exit(1);
        }
    }
    b->data[b->len++] = byte;
}

static void emit_move_entry(Buffer *b, int header, const Cell *cells, int n)
{
    if (n == 0)
        return;
    buf_put(b, (uint8_t)header);
    buf_put(b, (uint8_t)n);
    for (int i = 0; i < n; i++)
        buf_put(b, cells[i]);
}

/*
 * The attacks on one cell, gathered from every pattern before they are written: all single
 * steps and leaps become one entry whose cells carry the pattern bits that reach from them,
 * and rays that pass the same cells in the same way are one ray with the bits of each.
 */
#define MAX_ATTACK_RAYS 96

typedef struct {
    uint16_t leap_mask[MAX_CELLS];
    Cell leap_cells[MAX_CELLS];
    int nleaps;
    struct {
        int kind, n;
        unsigned mask;
        Cell cells[32];
    } ray[MAX_ATTACK_RAYS];
    int nrays;
} AttackSet;

static void add_leap(AttackSet *a, Cell y, unsigned bit)
{
    if (!a->leap_mask[y])
        a->leap_cells[a->nleaps++] = y;
    a->leap_mask[y] |= (uint16_t)bit;
}

static void add_ray(AttackSet *a, int kind, unsigned bit, const Cell *cells, int n)
{
    if (n == 0)
        return;
    if (n > 32)
        n = 32; /* no board has a longer line */
    for (int i = 0; i < a->nrays; i++)
        if (a->ray[i].kind == kind && a->ray[i].n == n && memcmp(a->ray[i].cells, cells, (size_t)n) == 0) {
            a->ray[i].mask |= bit;
            return;
        }
    if (a->nrays == MAX_ATTACK_RAYS) {
        fprintf(stderr, "starfish: too many attack rays on one cell\n");
        exit(1);
    }
    a->ray[a->nrays].kind = kind;
    a->ray[a->nrays].n = n;
    a->ray[a->nrays].mask = bit;
    memcpy(a->ray[a->nrays].cells, cells, (size_t)n);
    a->nrays++;
}

/* Leaps first ([A_LEAPS, n, (cell, mask low, mask high) x n]), then the rays
 * ([kind, mask low, mask high, n, cells x n]), then A_END. */
static void emit_attack_set(Buffer *b, const AttackSet *a)
{
    if (a->nleaps) {
        buf_put(b, A_LEAPS);
        buf_put(b, (uint8_t)a->nleaps);
        for (int i = 0; i < a->nleaps; i++) {
            Cell y = a->leap_cells[i];
            buf_put(b, y);
            buf_put(b, (uint8_t)(a->leap_mask[y] & 255));
            buf_put(b, (uint8_t)(a->leap_mask[y] >> 8));
        }
    }
    for (int i = 0; i < a->nrays; i++) {
        buf_put(b, (uint8_t)a->ray[i].kind);
        buf_put(b, (uint8_t)(a->ray[i].mask & 255));
        buf_put(b, (uint8_t)(a->ray[i].mask >> 8));
        buf_put(b, (uint8_t)a->ray[i].n);
        for (int k = 0; k < a->ray[i].n; k++)
            buf_put(b, a->ray[i].cells[k]);
    }
    buf_put(b, A_END);
}

static Vec oriented(const Geometry *g, Vec v, int colour)
{
    return colour == WHITE ? v : geo_mirror(g, v);
}

static Vec negated(Vec v)
{
    Vec n = {(int8_t)-v.dq, (int8_t)-v.dr, (int8_t)-v.dl};
    return n;
}

static bool step_allowed(const Pattern *p, const Geometry *g, Cell from, Vec v)
{
    return geo_add(g, from, v) != NO_CELL && (!p->allow || p->allow(g, from, v));
}

/* The cells along v from c, at most max_len (0: unlimited). */
static int walk(const Geometry *g, Cell c, Vec v, int max_len, Cell *out)
{
    int n = 0;
    for (Cell s = geo_add(g, c, v); s != NO_CELL && (max_len == 0 || n < max_len); s = geo_add(g, s, v))
        out[n++] = s;
    return n;
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

static int pattern_header(const Pattern *p, int kind)
{
    int h = kind;
    if (!p->capture_only)
        h |= E_QUIET;
    if (!p->quiet_only)
        h |= E_CAPTURE;
    return h;
}

static void emit_pattern_moves(Buffer *b, const Variant *v, const Pattern *p, int colour, Cell c)
{
    const Geometry *g = v->geo;
    Cell cells[MAX_CELLS];
    int n = 0;
    switch (p->kind) {
    case PAT_STEP:
        for (int i = 0; i < p->nvec; i++) {
            Vec d = oriented(g, p->vec[i], colour);
            if (step_allowed(p, g, c, d))
                cells[n++] = geo_add(g, c, d);
        }
        emit_move_entry(b, pattern_header(p, E_LEAPS), cells, n);
        break;
    case PAT_SLIDE:
    case PAT_HOP:
        for (int i = 0; i < p->nvec; i++) {
            n = walk(g, c, oriented(g, p->vec[i], colour), p->max_len, cells);
            emit_move_entry(b, pattern_header(p, p->kind == PAT_SLIDE ? E_RAY : E_HOP), cells, n);
        }
        break;
    case PAT_ROSE:
        for (int i = 0; i < p->nvec; i++)
            for (int turn = -1; turn <= 1; turn += 2) {
                n = rose_path(g, p, c, i, turn, colour, cells);
                emit_move_entry(b, pattern_header(p, E_ROSE), cells, n);
            }
        break;
    case PAT_PAWN: {
        Vec fwd = oriented(g, p->vec[0], colour);
        if (step_allowed(p, g, c, fwd)) {
            cells[n++] = geo_add(g, c, fwd);
            if (v->start_cell[colour][c] && step_allowed(p, g, cells[0], fwd))
                cells[n++] = geo_add(g, cells[0], fwd);
        }
        emit_move_entry(b, E_PUSH | E_QUIET, cells, n);
        n = 0;
        for (int i = 0; i < p->ncapture; i++) {
            Vec d = oriented(g, p->capture[i], colour);
            if (step_allowed(p, g, c, d))
                cells[n++] = geo_add(g, c, d);
        }
        emit_move_entry(b, E_PAWN_CAPTURE | E_CAPTURE, cells, n);
        break;
    }
    }
}

static void gather_pattern_attacks(AttackSet *a, const Variant *v, const Pattern *p, unsigned bit, int colour, Cell x)
{
    const Geometry *g = v->geo;
    Cell cells[MAX_CELLS];
    int n = 0;
    if (p->quiet_only)
        return;
    switch (p->kind) {
    case PAT_STEP:
    case PAT_PAWN: {
        /* Every cell y from which this step lands on x. */
        const Vec *vecs = p->kind == PAT_STEP ? p->vec : p->capture;
        int nv = p->kind == PAT_STEP ? p->nvec : p->ncapture;
        for (int i = 0; i < nv; i++) {
            Vec d = oriented(g, vecs[i], colour);
            Cell y = geo_add(g, x, negated(d));
            if (y != NO_CELL && geo_add(g, y, d) == x && (!p->allow || p->allow(g, y, d)))
                add_leap(a, y, bit);
        }
        break;
    }
    case PAT_SLIDE:
    case PAT_HOP:
        for (int i = 0; i < p->nvec; i++) {
            n = walk(g, x, negated(oriented(g, p->vec[i], colour)), p->kind == PAT_SLIDE ? p->max_len : 0, cells);
            add_ray(a, p->kind == PAT_SLIDE ? A_RAY : A_HOP, bit, cells, n);
        }
        break;
    case PAT_ROSE:
        /* A rose path walked backwards is a rose path turning the other way. */
        for (int i = 0; i < p->nvec; i++)
            for (int turn = -1; turn <= 1; turn += 2) {
                n = rose_path(g, p, x, i, turn, colour, cells);
                add_ray(a, A_RAY, bit, cells, n);
            }
        break;
    }
}

static uint32_t patterns_of(const Variant *v, int type, int colour, Cell c)
{
    const VariantDef *d = v->def;
    return d->patterns_at ? d->patterns_at(d, v->geo, type, colour, c) : d->pieces[type - 1].patterns;
}

/* Marks pieces whose programs can reach one cell twice with a common mode. */
static bool program_has_duplicates(const uint8_t *p)
{
    uint8_t seen[MAX_CELLS] = {0};
    for (; *p; p += 2 + p[1]) {
        int modes = *p & (E_QUIET | E_CAPTURE);
        for (int i = 0; i < p[1]; i++) {
            if (seen[p[2 + i]] & modes)
                return true;
            seen[p[2 + i]] |= (uint8_t)modes;
        }
    }
    return false;
}

static void build_programs(Variant *v)
{
    Buffer moves = {0}, attacks = {0};
    buf_put(&moves, E_END); /* offset 0: the empty program */
    for (int colour = 0; colour < 2; colour++)
        for (int type = 1; type <= v->ntypes; type++) {
            int code = MAKE_PIECE(colour, type);
            for (Cell c = 0; c < v->geo->ncells; c++) {
                uint32_t pats = patterns_of(v, type, colour, c);
                v->prog_at[code][c] = (uint32_t)moves.len;
                for (int i = 0; i < v->def->npatterns; i++)
                    if (pats & (1u << i)) {
                        emit_pattern_moves(&moves, v, &v->def->patterns[i], colour, c);
                        if (!v->def->patterns[i].quiet_only)
                            v->pattern_mask[code][c] |= (uint16_t)(1u << i);
                        if (v->def->patterns[i].kind == PAT_PAWN)
                            v->pawn_capture_bits |= (uint16_t)(1u << i);
                    }
                buf_put(&moves, E_END);
            }
        }
    AttackSet *set = malloc(sizeof *set);
    if (!set) {
        fprintf(stderr, "starfish: out of memory building variant tables\n");
        exit(1);
    }
    for (int colour = 0; colour < 2; colour++)
        for (Cell x = 0; x < v->geo->ncells; x++) {
            memset(set, 0, sizeof *set);
            for (int i = 0; i < v->def->npatterns; i++)
                gather_pattern_attacks(set, v, &v->def->patterns[i], 1u << i, colour, x);
            v->atk_at[colour][x] = (uint32_t)attacks.len;
            emit_attack_set(&attacks, set);
        }
    free(set);
    /* The same masks, but zero for pieces of the other side and for empty cells. */
    for (int code = 0; code < MAX_CODES; code++)
        for (Cell c = 0; c < v->geo->ncells; c++)
            if (code)
                v->side_mask[PIECE_COLOUR(code)][code][c] = v->pattern_mask[code][c];
    v->prog = moves.data;
    v->atk = attacks.data;
    for (int code = 0; code < MAX_CODES; code++)
        for (Cell c = 0; c < v->geo->ncells && PIECE_TYPE(code) >= 1 && PIECE_TYPE(code) <= v->ntypes; c++)
            if (program_has_duplicates(v->prog + v->prog_at[code][c]))
                v->needs_dedup[code] = true;
}

static bool mark_cells(const Geometry *g, const char *names, bool *zone, char *err, size_t errlen)
{
    if (!names)
        return true;
    while (*names) {
        while (*names == ' ')
            names++;
        if (!*names)
            break;
        int len;
        Cell c = geo_parse_cell(g, names, &len);
        if (c == NO_CELL) {
            snprintf(err, errlen, "unknown cell '%s'", names);
            return false;
        }
        zone[c] = true;
        names += len;
    }
    return true;
}

/* Cells a pawn of `colour` can ever stand on: reachable from its start cells, outside the
 * promotion zone (a pawn arriving there is promoted at once). */
static void compute_pawn_cells(Variant *v, int colour)
{
    if (!v->pawn_type)
        return;
    int code = MAKE_PIECE(colour, v->pawn_type);
    Cell queue[MAX_CELLS];
    int head = 0, tail = 0;
    for (Cell c = 0; c < v->geo->ncells; c++)
        if (v->start_cell[colour][c]) {
            v->pawn_can_stand[colour][c] = true;
            queue[tail++] = c;
        }
    while (head < tail) {
        Cell c = queue[head++];
        for (const uint8_t *p = v->prog + v->prog_at[code][c]; *p; p += 2 + p[1])
            for (int i = 0; i < p[1]; i++) {
                Cell t = p[2 + i];
                if (!v->pawn_can_stand[colour][t] && !v->promotion_zone[colour][t]) {
                    v->pawn_can_stand[colour][t] = true;
                    queue[tail++] = t;
                }
            }
    }
}

/* Cells on the row between a and b (same level and r), both ends included. */
static int row_segment(const Geometry *g, Cell a, Cell b, Cell *out)
{
    int lo = g->q[a] < g->q[b] ? g->q[a] : g->q[b], hi = g->q[a] ^ g->q[b] ^ lo, n = 0;
    for (int q = lo; q <= hi; q++)
        out[n++] = geo_cell_at(g, q, g->r[a], g->level[a]);
    return n;
}

static bool build_castling(Variant *v, const FenBoard *start, char *err, size_t errlen)
{
    const Geometry *g = v->geo;
    memset(v->castle_keep, 0xff, sizeof v->castle_keep);
    v->ncastling = v->def->ncastling;
    for (int i = 0; i < v->ncastling; i++) {
        const CastleDef *d = &v->def->castling[i];
        Cell kf = geo_parse_cell(g, d->king_from, NULL), kt = geo_parse_cell(g, d->king_to, NULL);
        Cell rf = geo_parse_cell(g, d->rook_from, NULL), rt = geo_parse_cell(g, d->rook_to, NULL);
        if (kf == NO_CELL || kt == NO_CELL || rf == NO_CELL || rt == NO_CELL) {
            snprintf(err, errlen, "castling %d names an unknown cell", i);
            return false;
        }
        v->castle[i].colour = d->colour;
        v->castle[i].king_from = kf;
        v->castle[i].king_to = kt;
        v->castle[i].rook_from = rf;
        v->castle[i].rook_to = rt;
        v->castle[i].partner = start->board[rf];
        Cell seg[MAX_CELLS];
        int n = row_segment(g, kf, kt, seg), m;
        v->castle[i].nsafe = n;
        memcpy(v->castle[i].safe, seg, (size_t)n);
        /* Every cell either piece passes or lands on, but the two start cells, must be empty. */
        Cell ends[4] = {kf, kt, rf, rt};
        Cell lo = kf, hi = kf;
        for (int k = 0; k < 4; k++) {
            if (g->q[ends[k]] < g->q[lo])
                lo = ends[k];
            if (g->q[ends[k]] > g->q[hi])
                hi = ends[k];
        }
        n = row_segment(g, lo, hi, seg);
        m = 0;
        for (int k = 0; k < n; k++)
            if (seg[k] != kf && seg[k] != rf)
                v->castle[i].empty[m++] = seg[k];
        v->castle[i].nempty = m;
        v->castle_keep[kf] &= (uint8_t)~(1u << i);
        v->castle_keep[rf] &= (uint8_t)~(1u << i);
    }
    return true;
}

static bool build(Variant *v, const VariantDef *def, char *err, size_t errlen)
{
    v->def = def;
    v->geo = def->geometry();
    v->ntypes = def->npieces;
    for (int t = 1; t <= v->ntypes; t++) {
        const PieceDef *p = &def->pieces[t - 1];
        for (int colour = 0; colour < 2; colour++) {
            int code = MAKE_PIECE(colour, t);
            char letter = colour == WHITE ? p->letter : (char)(p->letter - 'A' + 'a');
            v->letter[code] = letter;
            v->code_of_letter[(int)letter] = (uint8_t)code;
            v->is_pawn[code] = p->pawn;
            v->is_royal[code] = p->royal;
        }
        v->has_royal |= p->royal;
        if (p->pawn)
            v->pawn_type = t;
        if (p->royal)
            v->royal_type = t;
    }
    v->simple_legality = true;
    for (int i = 0; i < def->npatterns; i++)
        if (def->patterns[i].kind == PAT_HOP)
            v->simple_legality = false;
    /* Pawn start cells come from the start position. */
    FenBoard start;
    if (!fen_read_board(v, def->start_fen, &start, err, errlen))
        return false;
    for (Cell c = 0; c < v->geo->ncells; c++)
        if (start.board[c] && v->is_pawn[start.board[c]] && !def->double_step_cells[0])
            v->start_cell[PIECE_COLOUR(start.board[c])][c] = true;
    for (int i = 0; i < def->npatterns; i++)
        if (def->patterns[i].kind == PAT_PAWN) {
            v->forward[WHITE] = def->patterns[i].vec[0];
            v->forward[BLACK] = geo_mirror(v->geo, def->patterns[i].vec[0]);
            break;
        }
    for (int colour = 0; colour < 2; colour++) {
        if (!mark_cells(v->geo, def->double_step_cells[colour], v->start_cell[colour], err, errlen))
            return false;
        if (!mark_cells(v->geo, def->promotion_cells[colour], v->promotion_zone[colour], err, errlen) ||
            !mark_cells(v->geo, def->placement_cells[colour], v->placement_zone[colour], err, errlen))
            return false;
    }
    for (const char *l = def->promotion_letters; l && *l; l++) {
        int t = variant_type_of_letter(v, *l);
        if (!t) {
            snprintf(err, errlen, "unknown promotion piece '%c'", *l);
            return false;
        }
        v->promotion_types[v->npromotion_types++] = (uint8_t)t;
    }
    build_programs(v);
    compute_pawn_cells(v, WHITE);
    compute_pawn_cells(v, BLACK);
    return build_castling(v, &start, err, errlen);
}

int variant_type_of_letter(const Variant *v, char upper)
{
    if (upper < 'A' || upper > 'Z')
        return 0;
    uint8_t code = v->code_of_letter[(int)upper];
    return code ? PIECE_TYPE(code) : 0;
}

const Variant *variant_build(const VariantDef *def)
{
    char err[160];
    Variant *v = calloc(1, sizeof *v);
    if (!v || !build(v, def, err, sizeof err)) {
        fprintf(stderr, "starfish: variant %s is defective: %s\n", def->name, v ? err : "out of memory");
        exit(1);
    }
    return v;
}
