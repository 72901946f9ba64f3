/*
 * Part of rules_impl.h (included by it, in order, once per set width): placements, castling, and generation itself: pseudo-legal, captures, legal, and the pieces' mobility.
 */
/*
 * Of the free cells, those where a placement of a piece of `type` is legal, decided without
 * making it (*test false), or every free cell with *test set: each is then made and tested.
 * Without hoppers a placed piece can only close lines: it leaves the royal piece safe unless
 * that is in check now and the cell blocks nothing; the royal piece itself is safe on a cell
 * no enemy attacks.  With hoppers (a placed piece can become a screen) or a second royal
 * piece, the placement is made and tested.
 */
static Set placement_cells(const Gen *g, int type, Set free, bool *test)
{
    const Position *pos = g->pos;
    const Variant *v = g->v;
    Cell k = pos->royal[g->us];
    bool royal = v->is_royal[MAKE_PIECE(g->us, type)];
    Set occ = occupied(pos);
    *test = g->mode == GEN_LEGAL && (v->kind_patterns[PAT_HOP] || (royal && k != NO_CELL));
    if (g->mode != GEN_LEGAL || *test)
        return free;
    if (royal) {
        Set safe = set_none();
        for (Set cells = free; set_any(cells);) {
            Cell c = set_pop(&cells);
            if (!attacked_with(pos, c, g->them, 0xffff, occ))
                safe = set_or(safe, set_bit(c));
        }
        return safe;
    }
    if (k == NO_CELL) /* safe only while the royal piece is still in hand */
        return !v->has_royal || pos->hand[g->us][v->royal_type] ? free : set_none();
    if (!attacked_with(pos, k, g->them, 0xffff, occ))
        return free;
    Lines l;
    royal_lines(pos, k, occ, &l);
    return set_and(free, l.block);
}

static void gen_placements(Gen *g)
{
    const Variant *v = g->v;
    Set free = set_minus(set_load(&v->placement_set[g->us]), occupied(g->pos));
    for (int t = 1; t <= v->ntypes; t++) {
        if (!g->pos->hand[g->us][t])
            continue;
        bool test;
        Set cells = placement_cells(g, t, free, &test);
        if (!test && !g->out) {
            g->n += set_count(cells);
            continue;
        }
        while (set_any(cells)) {
            Cell c = set_pop(&cells);
            if (test) {
                rules_stats.tested++;
                if (!legal_by_making(g->pos, MOVE(NO_CELL, c, t, MK_PLACE)))
                    continue;
            }
            emit(g, NO_CELL, c, t, MK_PLACE);
        }
    }
}

static void gen_castling(Gen *g)
{
    const Variant *v = g->v;
    const Position *pos = g->pos;
    for (unsigned rights = pos->castling & v->castle_rights[g->us]; rights; rights &= rights - 1) {
        int i = __builtin_ctz(rights);
        /* A castling right lasts while its king and rook stay on their cells (castle_keep). */
        Cell kf = v->castle[i].king_from;
        assert(v->is_royal[pos->board[kf]] && pos->board[v->castle[i].rook_from] == v->castle[i].partner);
        bool ok = !set_any(set_and(set_load(&v->castle[i].empty), g->occ));
        /* The royal piece lifted changes attacks only on lines through its cell, which are
         * attacks on that cell itself: castling out of check is illegal either way. */
        for (int k = 0; k < v->castle[i].nsafe && ok; k++)
            ok = g->legal ? !in_danger(g, v->castle[i].safe[k], false)
                          : !attacked_with(pos, v->castle[i].safe[k], g->them, 0xffff, g->occ);
        if (!ok)
            continue;
        /* Only the royal piece is subject to the removal event, judged on its two cells. */
        if (g->removal && !set_has(g->near, kf) && !set_has(g->near, v->castle[i].king_to))
            continue;
        if (g->legal && !v->castle[i].proven)
            emit_tested(g, kf, set_bit(v->castle[i].king_to), MK_CASTLE, false);
        else
            emit(g, kf, v->castle[i].king_to, 0, MK_CASTLE);
    }
}

/* Reads the royal piece's lines and picks out the slow pieces. */
static void prepare_legal(Gen *g)
{
    const Variant *v = g->v;
    const Lines *l = &g->lines;
    royal_lines(g->pos, g->pos->royal[g->us], g->occ, &g->lines);
    g->allowed = l->block;
    g->risky = l->touchy;
    g->slow = set_or(l->pinned, set_and(g->ours, l->touchy));
    if (l->hop_check)
        g->slow = g->ours;
    g->removal = v->def->removal_unless_near_pawn;
    if (g->removal) {
        g->pawns = set_load(&g->pos->by_type[v->pawn_type]);
        g->near = near_pawns(g->pos);
        Set kept = set_or(g->near, g->pawns), removable = set_minus(g->ours, kept);
        if (!g->out && !set_any(l->checkers)) {
            /* Counting (no order to keep) out of check: a removable piece that is no screen
             * opens a line to the royal only by taking a screen (and being removed there),
             * which is made and tested; its other moves are legal. */
            removable = set_and(removable, l->screens);
            g->risky = set_or(g->risky, set_minus(set_and(g->theirs, l->screens), kept));
        }
        g->slow = set_or(g->slow, removable);
    }
}

static int generate(Position *pos, Move *out, int mode);

/* Every pseudo-legal move, each made and tested (no royal piece on the board to read lines
 * from). */
static int tested_moves(Position *pos, Move *out)
{
    Move list[MAX_MOVES];
    int n = generate(pos, list, GEN_PSEUDO), kept = 0;
    rules_stats.tested += (uint64_t)n;
    for (int i = 0; i < n; i++)
        if (legal_by_making(pos, list[i])) {
            if (out)
                out[kept] = list[i];
            kept++;
        }
    rules_stats.legal += (uint64_t)kept;
    return kept;
}

static int generate(Position *pos, Move *out, int mode)
{
    const Variant *v = pos->v;
    Gen g;
    g.pos = pos;
    g.v = v;
    g.mode = mode;
    g.us = pos->side;
    g.them = g.us ^ 1;
    g.out = out;
    g.n = 0;
    g.legal = mode == GEN_LEGAL;
    if (pos->hand_total[g.us]) { /* the setup phase: placements only */
        if (mode != GEN_CAPTURES)
            gen_placements(&g);
        if (g.legal)
            rules_stats.legal += (uint64_t)g.n;
        return g.n;
    }
    if (g.legal && pos->royal[g.us] == NO_CELL)
        return tested_moves(pos, out);
    g.ours = set_load(&pos->by_side[g.us]);
    g.theirs = set_load(&pos->by_side[g.them]);
    g.occ = set_or(g.ours, g.theirs);
    g.promo = set_load(&v->promotion_set[g.us]);
    g.quiet_to = mode == GEN_CAPTURES ? set_none() : set_minus(set_load(&v->all), g.occ);
    g.push_to = mode == GEN_CAPTURES ? set_minus(g.promo, g.occ) : g.quiet_to;
    g.allowed = set_load(&v->all);
    g.risky = g.slow = set_none();
    g.removal = g.danger_known = false;
    Set pieces = g.ours;
    if (g.legal) {
        prepare_legal(&g);
        pieces = set_minus(pieces, set_bit(pos->royal[g.us]));
        gen_royal(&g, pos->royal[g.us]);
        /* When no cell answers every check, only the royal piece moves (and en passant,
         * tested). */
        if (!set_any(g.allowed) && !g.lines.hop_check && pos->ep == NO_CELL)
            pieces = set_none();
    }
    Set one_by_one = g.slow;
    for (unsigned types = v->types_apart; types; types &= types - 1)
        one_by_one = set_or(one_by_one, set_load(&pos->by_type[__builtin_ctz(types)]));
    one_by_one = set_and(pieces, one_by_one);
    Set fast = set_minus(pieces, one_by_one);
    for (int p = 0; p < v->def->npatterns; p++) {
        Set h = set_and(holders(pos, g.us, p), fast);
        if (mode == GEN_CAPTURES)
            h = with_victims_in_reach(&g, p, h);
        if (set_any(h))
            gen_pattern(&g, p, v->def->patterns[p].kind, h);
    }
    while (set_any(one_by_one)) {
        Cell from = set_pop(&one_by_one);
        gen_piece(&g, from, set_has(g.slow, from));
    }
    if ((pos->castling & v->castle_rights[g.us]) && mode != GEN_CAPTURES)
        gen_castling(&g);
    if (mode == GEN_LEGAL)
        rules_stats.legal += (uint64_t)g.n;
    return g.n;
}

/* Pseudo-legal generation never changes the position. */
static int pseudo(const Position *pos, Move *out, bool captures_only)
{
    return generate((Position *)pos, out, captures_only ? GEN_CAPTURES : GEN_PSEUDO);
}

static int legal(Position *pos, Move *out)
{
    return generate(pos, out, GEN_LEGAL);
}

/* piece_moves's count so far, and per piece type (when threats are counted) the cells its
 * pieces reach. */
typedef struct {
    PieceMoves n;
    Set area;
    Set *seen;
} Walk;

ALWAYS_INLINE void walk_count(Walk *w, const Position *pos, Cell from, Set reach)
{
    w->n.moves += set_count(reach);
    w->n.zone_hits += set_count(set_and(reach, w->area));
    if (w->seen) {
        int type = PIECE_TYPE(pos->board[from]);
        w->seen[type] = set_or(w->seen[type], reach);
    }
}

/* The moves of the pieces in `pieces` (all of one side), counted pattern by pattern in one
 * pass over the patterns. */
static PieceMoves piece_moves(const Position *pos, const CellSet *pieces, const CellSet *zone,
                              const uint32_t threat_types[MAX_TYPES])
{
    const Variant *v = pos->v;
    Set mine = set_load(pieces), seen[MAX_TYPES];
    Walk w = {{0, 0, 0}, zone ? set_load(zone) : set_none(), threat_types ? seen : NULL};
    if (!set_any(mine))
        return w.n;
    if (threat_types)
        memset(seen, 0, sizeof seen);
    int side = PIECE_COLOUR(pos->board[set_lowest(mine)]);
    Set theirs = set_load(&pos->by_side[side ^ 1]), occ = set_or(set_load(&pos->by_side[side]), theirs);
    Set empty = set_minus(set_load(&v->all), occ), to = set_or(empty, theirs);
    for (int p = 0; p < v->def->npatterns; p++) {
        const PatternTable *t = &v->pat[p][side];
        Set h = set_and(holders(pos, side, p), mine);
        switch (set_any(h) ? v->def->patterns[p].kind : PAT_KINDS) {
        case PAT_STEP:
            while (set_any(h)) {
                Cell from = set_pop(&h);
                walk_count(&w, pos, from, set_and(set_at(t->to, from), to));
            }
            break;
        case PAT_SLIDE:
            while (set_any(h)) {
                Cell from = set_pop(&h);
                walk_count(&w, pos, from, set_and(slide(t->slide, from, occ), to));
            }
            break;
        case PAT_ROSE:
            while (set_any(h)) {
                Cell from = set_pop(&h);
                walk_count(&w, pos, from, set_and(rose(t->rose, from, occ), to));
            }
            break;
        case PAT_HOP:
            while (set_any(h)) {
                Cell from = set_pop(&h);
                Set quiet = set_none(), victims = set_none();
                hop(t->slide, from, occ, &quiet, &victims);
                walk_count(&w, pos, from, set_or(set_and(quiet, empty), set_and(victims, theirs)));
            }
            break;
        case PAT_PAWN: /* the single push and the captures */
            while (set_any(h)) {
                Cell from = set_pop(&h);
                Set reach = set_and(set_at(t->to, from), theirs);
                if (t->push[from] != NO_CELL && set_has(empty, t->push[from]))
                    reach = set_or(reach, set_bit(t->push[from]));
                walk_count(&w, pos, from, reach);
            }
            break;
        default:
            break;
        }
    }
    for (int type = 1; threat_types && type <= v->ntypes; type++) {
        if (!threat_types[type] || !set_any(seen[type]))
            continue;
        Set victims = set_none(); /* of either side: seen holds none of the side's own */
        for (unsigned bits = threat_types[type]; bits; bits &= bits - 1)
            victims = set_or(victims, set_load(&pos->by_type[__builtin_ctz(bits)]));
        w.n.threatened += set_count(set_and(seen[type], victims));
    }
    return w.n;
}
