/*
 * variant_build(): from a VariantDef to the tables the rules core runs on: piece letters and
 * flags, which patterns each piece has on each cell (patterns_at lets a variant make that
 * depend on the cell), zones, castling, and the attack tables (attack.c).
 */
#include "variant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attack.h"
#include "fen.h"
#include "rules.h"

static uint32_t patterns_of(const Variant *v, int type, int colour, Cell c)
{
    const VariantDef *d = v->def;
    return d->patterns_at ? d->patterns_at(d, v->geo, type, colour, c) : d->pieces[type - 1].patterns;
}

static void build_pattern_masks(Variant *v)
{
    for (int colour = 0; colour < 2; colour++)
        for (int type = 1; type <= v->ntypes; type++)
            for (Cell c = 0; c < v->geo->ncells; c++)
                v->pattern_mask[MAKE_PIECE(colour, type)][c] = (uint16_t)patterns_of(v, type, colour, c);
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
        CellSet targets = variant_targets(v, code, c);
        CELLSET_EACH(t, &targets)
            if (!v->pawn_can_stand[colour][t] && !v->promotion_zone[colour][t]) {
                v->pawn_can_stand[colour][t] = true;
                queue[tail++] = t;
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

/*
 * Castling needs no making and testing when every attack is a leap or a slide, the rook lands
 * between the king's two cells (closing the row behind the king after it leaves) and nothing
 * lies beyond the rook's start cell on the row (nothing for its leaving to open): then the
 * king's cells not being attacked before the move is all there is to check.
 */
static bool castling_proven(const Variant *v, Cell kf, Cell kt, Cell rf, Cell rt)
{
    const Geometry *g = v->geo;
    if (v->kind_patterns[PAT_HOP] || v->kind_patterns[PAT_ROSE])
        return false;
    bool between = (g->q[rt] - g->q[kf]) * (g->q[rt] - g->q[kt]) < 0;
    int away = g->q[rf] > g->q[kt] ? 1 : -1;
    return between && geo_cell_at(g, g->q[rf] + away, g->r[rf], g->level[rf]) == NO_CELL;
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
        v->castle_rights[d->colour] |= (uint8_t)(1u << i);
        v->castle[i].king_from = kf;
        v->castle[i].king_to = kt;
        v->castle[i].rook_from = rf;
        v->castle[i].rook_to = rt;
        v->castle[i].partner = start->board[rf];
        v->castle[i].proven = castling_proven(v, kf, kt, rf, rt);
        Cell seg[MAX_CELLS];
        int n = row_segment(g, kf, kt, seg);
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
        for (int k = 0; k < n; k++)
            if (seg[k] != kf && seg[k] != rf)
                cellset_flip(&v->castle[i].empty, seg[k]);
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
    if (v->geo->ncells > SET_CELLS_MAX) {
        snprintf(err, errlen, "board %s has more than %d cells", v->geo->name, SET_CELLS_MAX);
        return false;
    }
    v->words = (v->geo->ncells + 63) / 64;
    v->ops = rules_ops_for(v->words);
    build_pattern_masks(v);
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
    for (int colour = 0; colour < 2; colour++)
        for (Cell c = 0; c < v->geo->ncells; c++)
            v->passed[colour][c] = v->start_cell[colour][c] ? geo_add(v->geo, c, v->forward[colour]) : NO_CELL;
    for (int colour = 0; colour < 2; colour++)
        for (Cell c = 0; c < v->geo->ncells; c++) {
            if (v->promotion_zone[colour][c] && v->npromotion_types)
                cellset_flip(&v->promotion_set[colour], c);
            if (v->placement_zone[colour][c])
                cellset_flip(&v->placement_set[colour], c);
        }
    if (!attack_build(v, err, errlen))
        return false;
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
