/*
 * Part of rules_impl.h (included by it, in order, once per set width): the generator's state and the moves of each kind of piece (leaps, slides, pawns, patterns, the royal piece).
 */
/* ---- generation ---- */

enum { GEN_PSEUDO, GEN_CAPTURES, GEN_LEGAL };

typedef struct {
    Position *pos;
    const Variant *v;
    int mode, us, them;
    Move *out;    /* NULL: count the moves without listing them */
    int n;
    Set ours, theirs, occ;
    Set quiet_to; /* where quiet moves may go: the empty cells (none when only captures) */
    Set push_to;  /* where pawn pushes may go (when only captures: into the promotion zone) */
    Set promo;    /* the side to move's promotion zone (empty without promotion pieces) */
    bool legal;   /* filter by the royal's lines */
    Lines lines;
    Set allowed;  /* where pieces other than the royal may move (every cell without check) */
    Set risky;    /* targets on a hopper's line to the royal: made and tested */
    Set slow;     /* pieces whose moves need split(): pinned, on a hopper's line, removable */
    bool removal; /* the variant's removal event */
    Set near;     /* cells next to a pawn */
    Set pawns;
    bool danger_known; /* danger holds every cell the opponent attacks with the royal lifted */
    Set danger;
} Gen;

/* Is `to` attacked with the royal piece lifted off the board?  Asked cell by cell, unless
 * many questions are coming (`many`) in a variant whose attacks are all leaps, slides and pawn
 * captures: then every attacked cell is found at once, for this and the later questions. */
static inline bool in_danger(Gen *g, Cell to, bool many)
{
    const Variant *v = g->v;
    Set lifted = set_minus(g->occ, set_bit(g->pos->royal[g->us]));
    if (!g->danger_known && many && !(v->kind_patterns[PAT_HOP] | v->kind_patterns[PAT_ROSE])) {
        g->danger = attacks_of(g->pos, g->them, lifted);
        g->danger_known = true;
    }
    if (g->danger_known)
        return set_has(g->danger, to);
    return attacked_with(g->pos, to, g->them, 0xffff, lifted);
}

static inline void emit(Gen *g, Cell from, Cell to, int piece, MoveKind kind)
{
    if (g->out)
        g->out[g->n] = MOVE(from, to, piece, kind);
    g->n++;
}

static inline void emit_all(Gen *g, Cell from, Set targets, MoveKind kind)
{
    if (!g->out) {
        g->n += set_count(targets);
        return;
    }
    Move base = MOVE(from, 0, 0, kind);
    while (set_any(targets))
        g->out[g->n++] = base | (Move)set_pop(&targets) << 8;
}

/* Moves to `targets`; those into the promotion zone become each promotion piece in turn. */
static inline void emit_promoting(Gen *g, Cell from, Set targets, MoveKind kind, bool promotes)
{
    if (promotes) {
        Set zone = set_and(targets, g->promo);
        targets = set_minus(targets, zone);
        if (!g->out) {
            g->n += set_count(zone) * g->v->npromotion_types;
        } else {
            while (set_any(zone)) {
                Cell to = set_pop(&zone);
                for (int i = 0; i < g->v->npromotion_types; i++)
                    emit(g, from, to, g->v->promotion_types[i], kind);
            }
        }
    }
    emit_all(g, from, targets, kind);
}

/* Moves no mask decides: in legal generation each is made and tested (once for every
 * promotion piece: the royal's safety does not depend on it). */
static void emit_tested(Gen *g, Cell from, Set targets, MoveKind kind, bool promotes)
{
    while (set_any(targets)) {
        Cell to = set_pop(&targets);
        if (g->mode == GEN_LEGAL) {
            int piece = promotes && set_has(g->promo, to) ? g->v->promotion_types[0] : 0;
            rules_stats.tested++;
            if (!legal_by_making(g->pos, MOVE(from, to, piece, kind)))
                continue;
        }
        emit_promoting(g, from, set_bit(to), kind, promotes);
    }
}

/* Moves of a piece neither pinned nor removable: to the targets that answer every check;
 * those on a hopper's line to the royal are made and tested. */
static inline void emit_fast(Gen *g, Cell from, Set targets, MoveKind kind, bool promotes)
{
    targets = set_and(targets, g->allowed);
    Set risky = set_and(targets, g->risky);
    if (set_any(risky)) {
        emit_tested(g, from, risky, kind, promotes);
        targets = set_minus(targets, risky);
    }
    emit_promoting(g, from, targets, kind, promotes);
}

/* The targets of a piece's leaps, slides, hops and roses, quiet and captures together. */
ALWAYS_INLINE Set piece_targets(const Gen *g, uint8_t code, Cell from, Set quiet_to)
{
    const Variant *v = g->v;
    int colour = PIECE_COLOUR(code);
    unsigned pm = v->pattern_mask[code][from], bits;
    Set reach = set_at(v->leaps, code * v->geo->ncells + from);
    for (bits = pm & v->kind_patterns[PAT_SLIDE]; bits; bits &= bits - 1)
        reach = set_or(reach, slide(v->pat[__builtin_ctz(bits)][colour].slide, from, g->occ));
    for (bits = pm & v->kind_patterns[PAT_ROSE]; bits; bits &= bits - 1)
        reach = set_or(reach, rose(v->pat[__builtin_ctz(bits)][colour].rose, from, g->occ));
    Set targets = set_or(set_and(reach, quiet_to), set_and(reach, g->theirs));
    for (bits = pm & v->kind_patterns[PAT_HOP]; bits; bits &= bits - 1) {
        Set quiet = set_none(), victims = set_none();
        hop(v->pat[__builtin_ctz(bits)][colour].slide, from, g->occ, &quiet, &victims);
        targets = set_or(targets, set_or(set_and(quiet, quiet_to), set_and(victims, g->theirs)));
    }
    return targets;
}

/* A pawn pattern's moves from one cell: pushes and captures (*targets), the double step
 * (*twice) and whether it takes en passant. */
static inline void pawn_moves(const Gen *g, int p, Cell from, Set *targets, Set *twice, bool *ep)
{
    const PatternTable *t = &g->v->pat[p][PIECE_COLOUR(g->pos->board[from])];
    Cell one = t->push[from], two = t->push2[from];
    Set hits = set_at(t->to, from);
    *twice = set_none();
    if (one != NO_CELL && !set_has(g->occ, one)) {
        *targets = set_or(*targets, set_and(set_bit(one), g->push_to));
        if (two != NO_CELL && !set_has(g->occ, two) && !g->pos->limping[from] && g->mode != GEN_CAPTURES)
            *twice = set_bit(two);
    }
    *targets = set_or(*targets, set_and(hits, g->theirs));
    *ep = g->pos->ep != NO_CELL && set_has(hits, g->pos->ep);
}

static inline void emit_ep(Gen *g, Cell from)
{
    if (g->legal)
        emit_tested(g, from, set_bit(g->pos->ep), MK_EP, false);
    else
        emit(g, from, g->pos->ep, 0, MK_EP);
}

/* Splits a slow piece's targets into the moves legal outright (*direct) and those to make and
 * test (*tested); the rest are illegal.  `pawn`: the moved piece is a pawn (never removed). */
static void split(const Gen *g, Cell from, bool pawn, Set targets, Set *direct, Set *tested)
{
    const Lines *l = &g->lines;
    Set removed = set_none();
    if (g->removal && !pawn && !set_has(g->near, from)) {
        removed = set_minus(targets, set_or(g->near, set_and(g->pawns, g->theirs)));
        targets = set_minus(targets, removed);
    }
    Set keep = set_and(targets, g->allowed);
    if (set_has(l->pinned, from))
        keep = set_and(keep, pin_line(l, from));
    if (l->hop_check || set_has(l->touchy, from)) {
        *tested = keep;
        *direct = set_none();
    } else {
        *tested = set_and(keep, g->risky);
        *direct = set_minus(keep, g->risky);
    }
    if (!set_any(removed))
        return;
    /* A removed piece empties its from and to cells: it answers a check only by capturing. */
    if (set_any(l->checkers)) {
        *tested = set_or(*tested, l->hop_check ? removed : set_and(removed, l->checkers));
    } else if (set_has(l->pinned, from) || set_has(l->screens, from) || set_has(l->touchy, from)) {
        *tested = set_or(*tested, removed);
    } else {
        Set risky = set_or(l->screens, l->touchy);
        *tested = set_or(*tested, set_and(removed, risky));
        *direct = set_or(*direct, set_minus(removed, risky));
    }
}

static inline void emit_moves(Gen *g, Cell from, bool slow, bool pawn, Set targets, MoveKind kind, bool promotes)
{
    if (!slow) {
        emit_fast(g, from, targets, kind, promotes);
        return;
    }
    Set direct, tested;
    split(g, from, pawn, targets, &direct, &tested);
    emit_promoting(g, from, direct, kind, promotes);
    if (set_any(tested))
        emit_tested(g, from, tested, kind, promotes);
}

/* Every move of one piece, its patterns together (pieces generated one by one: slow ones, and
 * those whose patterns may reach one cell twice). */
static void gen_piece(Gen *g, Cell from, bool slow)
{
    const Variant *v = g->v;
    uint8_t code = g->pos->board[from];
    unsigned pawn_bits = v->pattern_mask[code][from] & v->kind_patterns[PAT_PAWN];
    bool pawn = v->is_pawn[code], promotes = pawn || pawn_bits;
    /* When only captures are wanted, a promoting piece's quiet moves promote or are left out. */
    Set targets = piece_targets(g, code, from, promotes ? g->push_to : g->quiet_to), twice = set_none();
    bool ep = false;
    if (pawn_bits)
        pawn_moves(g, __builtin_ctz(pawn_bits), from, &targets, &twice, &ep);
    emit_moves(g, from, slow, pawn, targets, MK_NORMAL, promotes);
    if (set_any(twice))
        emit_moves(g, from, slow, pawn, twice, MK_DOUBLE, promotes);
    if (ep)
        emit_ep(g, from);
}

#if SET_W == 1
/* Moves of several pieces at once, each to its target: from = to - by. */
static inline void emit_shifted(Gen *g, Set targets, int by, MoveKind kind)
{
    targets = set_and(targets, g->allowed);
    Set risky = set_and(targets, g->risky);
    targets = set_minus(targets, risky);
    if (!g->out) {
        g->n += set_count(targets) + set_count(set_and(targets, g->promo)) * (g->v->npromotion_types - 1);
    } else {
        while (set_any(targets)) {
            Cell to = set_pop(&targets);
            if (set_has(g->promo, to))
                emit_promoting(g, (Cell)(to - by), set_bit(to), kind, true);
            else
                g->out[g->n++] = MOVE(to - by, to, 0, kind);
        }
    }
    while (set_any(risky)) {
        Cell to = set_pop(&risky);
        emit_tested(g, (Cell)(to - by), set_bit(to), kind, true);
    }
}

/* The pushes and double steps of every pawn-pattern piece in h at once, where a push is one
 * fixed change of cell number. */
static inline void pawn_pushes_shifted(Gen *g, const PatternTable *t, Set h)
{
    int step = t->shift.push;
    Set empty = set_minus(set_load(&g->v->all), g->occ);
    Set one = set_and(shifted(set_and(h, set_load(&t->shift.push_from)), step), empty);
    if (g->mode != GEN_CAPTURES) {
        Set twice = set_and(shifted(set_and(one, set_load(&t->shift.push2_via)), step), empty);
        if (g->v->def->limping) /* a limping pawn no longer double steps */
            for (Set each = twice; set_any(each);) {
                Cell to = set_pop(&each);
                if (g->pos->limping[to - 2 * step])
                    twice = set_minus(twice, set_bit(to));
            }
        emit_shifted(g, twice, 2 * step, MK_DOUBLE);
    }
    emit_shifted(g, set_and(one, g->push_to), step, MK_NORMAL);
}

/* The pushes, captures and double steps of every pawn-pattern piece in h at once, where each
 * step is one fixed change of cell number (the 8x8 board). */
static void gen_pawns_shifted(Gen *g, const PatternTable *t, Set h)
{
    pawn_pushes_shifted(g, t, h);
    for (int i = 0; i < t->shift.ncapture; i++) {
        int by = t->shift.capture[i];
        Set reach = shifted(set_and(h, set_load(&t->shift.capture_from[i])), by);
        emit_shifted(g, set_and(reach, g->theirs), by, MK_NORMAL);
        if (g->pos->ep != NO_CELL && set_has(reach, g->pos->ep))
            emit_ep(g, (Cell)(g->pos->ep - by));
    }
}

/* Counting only (no order to keep): the pushes and double steps of every pawn in h at once,
 * where only pushes are a fixed change of cell number (the hexagram); captures pawn by pawn. */
static void count_pawns_with_shifted_pushes(Gen *g, const PatternTable *t, Set h)
{
    pawn_pushes_shifted(g, t, h);
    if (!set_any(g->risky) && g->pos->ep == NO_CELL) { /* the common case: only counts to add */
        Set targets = set_and(g->theirs, g->allowed), zone = set_and(targets, g->promo);
        int more = g->v->npromotion_types - 1; /* moves into the zone promote to each piece */
        while (set_any(h)) {
            Set hits = set_at(t->to, set_pop(&h));
            g->n += set_count(set_and(hits, targets)) + set_count(set_and(hits, zone)) * more;
        }
        return;
    }
    while (set_any(h)) {
        Cell from = set_pop(&h);
        Set hits = set_at(t->to, from);
        emit_fast(g, from, set_and(hits, g->theirs), MK_NORMAL, true);
        if (g->pos->ep != NO_CELL && set_has(hits, g->pos->ep))
            emit_ep(g, from);
    }
}
#endif

/* The pieces of h (holders of pattern p) that could take something by p: all of them for
 * steps and pawns, whose targets cost a lookup; for slides, hops and roses, those with an enemy
 * piece in their empty-board reach (pattern_reach), the others' lines or paths not worth
 * walking when only captures are wanted. */
static Set with_victims_in_reach(const Gen *g, int p, Set h)
{
    PatternKind kind = g->v->def->patterns[p].kind;
    if (kind == PAT_STEP || kind == PAT_PAWN)
        return h;
    const uint64_t *reach = pattern_reach(&g->v->pat[p][g->us]);
    Set kept = set_none();
    for (Set rest = h; set_any(rest);) {
        Cell from = set_pop(&rest);
        if (set_any(set_and(set_at(reach, from), g->theirs)))
            kept = set_or(kept, set_bit(from));
    }
    return kept;
}

/* The moves of h, some of pattern p's holders (those generated pattern by pattern). */
static void gen_pattern(Gen *g, int p, PatternKind kind, Set h)
{
    const PatternTable *t = &g->v->pat[p][g->us];
    Set to = set_or(g->quiet_to, g->theirs);
    switch (kind) {
    case PAT_STEP:
        while (set_any(h)) {
            Cell from = set_pop(&h);
            emit_fast(g, from, set_and(set_at(t->to, from), to), MK_NORMAL, false);
        }
        break;
    case PAT_SLIDE:
        while (set_any(h)) {
            Cell from = set_pop(&h);
            emit_fast(g, from, set_and(slide(t->slide, from, g->occ), to), MK_NORMAL, false);
        }
        break;
    case PAT_ROSE:
        while (set_any(h)) {
            Cell from = set_pop(&h);
            emit_fast(g, from, set_and(rose(t->rose, from, g->occ), to), MK_NORMAL, false);
        }
        break;
    case PAT_HOP:
        while (set_any(h)) {
            Cell from = set_pop(&h);
            Set quiet = set_none(), victims = set_none();
            hop(t->slide, from, g->occ, &quiet, &victims);
            emit_fast(g, from, set_or(set_and(quiet, g->quiet_to), set_and(victims, g->theirs)), MK_NORMAL, false);
        }
        break;
    case PAT_PAWN:
#if SET_W == 1
        if (t->shift.usable) {
            gen_pawns_shifted(g, t, h);
            break;
        }
        if (t->shift.push_usable && !g->out) {
            count_pawns_with_shifted_pushes(g, t, h);
            break;
        }
#endif
        while (set_any(h)) {
            Cell from = set_pop(&h);
            Set targets = set_none(), twice;
            bool ep;
            pawn_moves(g, p, from, &targets, &twice, &ep);
            emit_fast(g, from, targets, MK_NORMAL, true);
            if (set_any(twice))
                emit_fast(g, from, twice, MK_DOUBLE, true);
            if (ep)
                emit_ep(g, from);
        }
        break;
    default:
        break;
    }
}

/* The royal piece's moves in legal generation: each target is tested with the royal lifted
 * off the board; its en passant captures and double steps are made and tested. */
ALWAYS_INLINE void gen_royal(Gen *g, Cell from)
{
    const Variant *v = g->v;
    uint8_t code = g->pos->board[from];
    unsigned pawn_bits = v->pattern_mask[code][from] & v->kind_patterns[PAT_PAWN];
    Set targets = piece_targets(g, code, from, g->quiet_to), twice = set_none(), safe = set_none();
    bool ep = false;
    if (pawn_bits)
        pawn_moves(g, __builtin_ctz(pawn_bits), from, &targets, &twice, &ep);
    if (g->removal && !set_has(g->near, from)) /* a removed royal piece is an illegal move */
        targets = set_and(targets, set_or(g->near, set_and(g->pawns, g->theirs)));
    bool many = set_count(targets) > DANGER_QUESTIONS;
    while (set_any(targets)) {
        Cell to = set_pop(&targets);
        if (!in_danger(g, to, many))
            safe = set_or(safe, set_bit(to));
    }
    emit_promoting(g, from, safe, MK_NORMAL, pawn_bits != 0);
    if (set_any(twice))
        emit_tested(g, from, twice, MK_DOUBLE, pawn_bits != 0);
    if (ep)
        emit_tested(g, from, set_bit(g->pos->ep), MK_EP, false);
}
