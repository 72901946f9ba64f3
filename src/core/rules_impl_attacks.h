/*
 * Part of rules_impl.h (included by it, in order, once per set width): the attack tables' look-ups, the attack tests, and the royal piece's lines (checks and pins).
 */
/* ---- table lookups ---- */

static inline Set ray_of(const SliderTable *t, int d, Cell c)
{
    return set_at(t->ray, d * t->geo->ncells + c);
}

/* The cells beyond c along direction d of t. */
static inline Set beyond(const SliderTable *t, int d, Cell c)
{
    return set_at(t->line, d * t->geo->ncells + c);
}

/* The first cell of a set along direction d (the set lies on one of its rays). */
static inline Cell nearest(const SliderTable *t, int d, Set s)
{
    return t->grows[d] ? set_lowest(s) : set_highest(s);
}

/* The cells a slider reaches from c when the cells of occ hold pieces (the first piece on
 * each ray included). */
static inline Set slide(const SliderTable *t, Cell c, Set occ)
{
#if SLIDE_BY_PEXT
    Set r = {{t->attacks[t->offset[c] + _pext_u64(occ.w[0], t->mask[c])]}};
    return r;
#else
    Set attacks = set_none();
    for (int d = 0; d < t->nvec; d++) {
        Set ray = ray_of(t, d, c), blockers = set_and(ray, occ);
        if (set_any(blockers))
            ray = set_minus(ray, beyond(t, d, nearest(t, d, blockers)));
        attacks = set_or(attacks, ray);
    }
    return attacks;
#endif
}

/* A hopper's moves from c: the empty cells before the first piece (the screen) of each ray
 * into *quiet, and the first piece beyond the screen, of either side, into *victims. */
static inline void hop(const SliderTable *t, Cell c, Set occ, Set *quiet, Set *victims)
{
    for (int d = 0; d < t->nvec; d++) {
        Set ray = ray_of(t, d, c), blockers = set_and(ray, occ);
        if (!set_any(blockers)) {
            *quiet = set_or(*quiet, ray);
            continue;
        }
        Cell screen = nearest(t, d, blockers);
        Set behind = beyond(t, d, screen), far = set_and(behind, occ);
        *quiet = set_or(*quiet, set_minus(ray, set_or(behind, set_bit(screen))));
        if (set_any(far))
            *victims = set_or(*victims, set_bit(nearest(t, d, far)));
    }
}

static inline const Cell *rose_path(const RoseTable *r, Cell c, int k, int *len)
{
    *len = r->len[c * r->npaths + k];
    return r->cells + ((size_t)c * (size_t)r->npaths + (size_t)k) * MAX_ROSE_LEN;
}

/* The cells a rose reaches from c (the first piece on each path included). */
static inline Set rose(const RoseTable *r, Cell c, Set occ)
{
    Set reach = set_none();
    for (int k = 0; k < r->npaths; k++) {
        int len;
        const Cell *path = rose_path(r, c, k, &len);
        for (int i = 0; i < len; i++) {
            reach.w[path[i] >> 6] |= 1ull << (path[i] & 63);
            if (set_has(occ, path[i]))
                break;
        }
    }
    return reach;
}

/* ---- attacks ---- */

static inline Set holders(const Position *pos, int side, int p)
{
    return set_load(&pos->by_pattern[side][p]);
}

static inline Set occupied(const Position *pos)
{
    return set_or(set_load(&pos->by_side[WHITE]), set_load(&pos->by_side[BLACK]));
}

/* The pieces of h that attack x by sliding along the lines of t (t: the pattern's reverse
 * directions) when occ holds the pieces: on each line, the first piece if it is one of h. */
static inline Set slide_attackers(const SliderTable *t, Cell x, Set occ, Set h)
{
#if SLIDE_BY_PEXT
    return set_any(h) ? set_and(slide(t, x, occ), h) : set_none();
#else
    Set found = set_none();
    if (!set_any(set_and(set_at(t->reach, x), h)))
        return found;
    for (int d = 0; d < t->nvec; d++) {
        Set blockers = set_and(ray_of(t, d, x), occ);
        if (set_any(set_and(blockers, h)))
            found = set_or(found, set_and(set_bit(nearest(t, d, blockers)), h));
    }
    return found;
#endif
}

/* The pieces of h that attack x by hopping along the lines of t: on each line, the second
 * piece if it is one of h (the first is the screen). */
static inline Set hop_attackers(const SliderTable *t, Cell x, Set occ, Set h)
{
    Set found = set_none();
    if (!set_any(set_and(set_at(t->reach, x), h)))
        return found;
    for (int d = 0; d < t->nvec; d++) {
        Set blockers = set_and(ray_of(t, d, x), occ);
        if (!set_any(set_and(blockers, h)))
            continue;
        Set far = set_and(beyond(t, d, nearest(t, d, blockers)), occ);
        if (set_any(far))
            found = set_or(found, set_and(set_bit(nearest(t, d, far)), h));
    }
    return found;
}

/* The pieces of h that attack x along rose paths (walked backwards from x): on each path, the
 * first piece if it is one of h.  With `first`, stops at the first found. */
static inline Set rose_attackers(const RoseTable *r, Cell x, Set occ, Set h, bool first)
{
    Set found = set_none();
    if (!set_any(set_and(set_at(r->reach, x), h)))
        return found;
    for (int k = 0; k < r->npaths; k++) {
        if (!set_any(set_and(set_at(r->path, x * r->npaths + k), h)))
            continue;
        int len;
        const Cell *path = rose_path(r, x, k, &len);
        for (int i = 0; i < len; i++)
            if (set_has(occ, path[i])) {
                if (set_has(h, path[i]))
                    found = set_or(found, set_bit(path[i]));
                break;
            }
        if (first && set_any(found))
            break;
    }
    return found;
}

/* The pieces of side `by` (those using the given patterns) that attack x when occ holds the
 * pieces.  With `first` (a constant where it is called) the search stops at the first piece
 * found: the set is then only right about being empty or not. */
static inline Set attackers_with(const Position *pos, Cell x, int by, unsigned patterns, Set occ, bool first)
{
    const Variant *v = pos->v;
    Set found = set_none();
    unsigned bits;
    for (bits = patterns & (v->kind_patterns[PAT_STEP] | v->kind_patterns[PAT_PAWN]); bits; bits &= bits - 1) {
        int p = __builtin_ctz(bits);
        found = set_or(found, set_and(set_at(v->pat[p][by].from, x), holders(pos, by, p)));
        if (first && set_any(found))
            return found;
    }
    for (bits = patterns & v->kind_patterns[PAT_SLIDE]; bits; bits &= bits - 1) {
        int p = __builtin_ctz(bits);
        found = set_or(found, slide_attackers(v->pat[p][by].back, x, occ, holders(pos, by, p)));
        if (first && set_any(found))
            return found;
    }
    for (bits = patterns & v->kind_patterns[PAT_HOP]; bits; bits &= bits - 1) {
        int p = __builtin_ctz(bits);
        found = set_or(found, hop_attackers(v->pat[p][by].back, x, occ, holders(pos, by, p)));
        if (first && set_any(found))
            return found;
    }
    for (bits = patterns & v->kind_patterns[PAT_ROSE]; bits; bits &= bits - 1) {
        int p = __builtin_ctz(bits);
        found = set_or(found, rose_attackers(v->pat[p][by].rose, x, occ, holders(pos, by, p), first));
        if (first && set_any(found))
            return found;
    }
    return found;
}

/* Is x attacked by side `by` (pieces using the given patterns) when occ holds the pieces? */
static bool attacked_with(const Position *pos, Cell x, int by, unsigned patterns, Set occ)
{
    return set_any(attackers_with(pos, x, by, patterns, occ, true));
}

/* The pieces of side `by` attacking x when only the cells of *occ hold pieces: pieces taken
 * off the board (an exchange's capturers) are left out of *occ, and so are not attackers and
 * uncover the pieces behind them. */
static CellSet attackers(const Position *pos, Cell x, int by, const CellSet *occ)
{
    Set on = set_minus(set_load(occ), set_bit(x));
    return set_store(set_and(attackers_with(pos, x, by, 0xffff, on, false), on));
}

static bool attacked(const Position *pos, Cell x, int by, unsigned patterns)
{
    return attacked_with(pos, x, by, patterns, occupied(pos));
}

#if SET_W == 1
/* Shifts a one-word set by a change of cell number. */
static inline Set shifted(Set s, int by)
{
    s.w[0] = by >= 0 ? s.w[0] << by : s.w[0] >> -by;
    return s;
}
#endif

/* Every cell side `by` attacks when occ holds the pieces, for variants whose attacks are all
 * leaps, slides and pawn captures (a royal piece's targets and castling cells are then
 * checked against one set instead of one by one). */
static Set attacks_of(const Position *pos, int by, Set occ)
{
    const Variant *v = pos->v;
    Set attacks = set_none();
    unsigned bits;
    for (bits = v->kind_patterns[PAT_STEP] | v->kind_patterns[PAT_PAWN]; bits; bits &= bits - 1) {
        int p = __builtin_ctz(bits);
        const PatternTable *t = &v->pat[p][by];
        Set h = holders(pos, by, p);
#if SET_W == 1
        if (t->shift.usable) {
            for (int i = 0; i < t->shift.ncapture; i++)
                attacks = set_or(attacks, shifted(set_and(h, set_load(&t->shift.capture_from[i])), t->shift.capture[i]));
            continue;
        }
#endif
        while (set_any(h))
            attacks = set_or(attacks, set_at(t->to, set_pop(&h)));
    }
    for (bits = v->kind_patterns[PAT_SLIDE]; bits; bits &= bits - 1) {
        int p = __builtin_ctz(bits);
        for (Set h = holders(pos, by, p); set_any(h);)
            attacks = set_or(attacks, slide(v->pat[p][by].slide, set_pop(&h), occ));
    }
    return attacks;
}

/* The cells next to any cell of s (one step away in any direction). */
static Set cells_next_to(const Variant *v, Set s)
{
    Set near = set_none();
#if SET_W == 1
    if (v->adjacent_shift.usable) {
        for (int k = 0; k < v->geo->ndirs; k++)
            near = set_or(near, shifted(set_and(s, set_load(&v->adjacent_shift.from[k])), v->adjacent_shift.by[k]));
        return near;
    }
#endif
    while (set_any(s))
        near = set_or(near, set_at(v->adjacent, set_pop(&s)));
    return near;
}

/* The cells next to a pawn of either side.  The pawns change in few moves, so the last answer
 * is kept (per thread, per width) and given again while they stay. */
static Set near_pawns(const Position *pos)
{
    static _Thread_local struct {
        const Variant *v;
        Set pawns, near;
    } last;
    Set pawns = set_load(&pos->by_type[pos->v->pawn_type]);
    if (last.v != pos->v || memcmp(&last.pawns, &pawns, sizeof pawns) != 0) {
        last.v = pos->v;
        last.pawns = pawns;
        last.near = cells_next_to(pos->v, pawns);
    }
    return last.near;
}

static CellSet next_to_pawns(const Position *pos)
{
    return set_store(near_pawns(pos));
}

static bool mover_safe(const Position *pos)
{
    const Variant *v = pos->v;
    int mover = pos->side ^ 1;
    Cell k = pos->royal[mover];
    if (k == NO_CELL) /* safe only if it was never on the board: still in hand */
        return !v->has_royal || pos->hand[mover][v->royal_type];
    /* A royal piece that has just double stepped can also be taken en passant. */
    if (k == pos->ep_victim && attacked(pos, pos->ep, pos->side, v->kind_patterns[PAT_PAWN]))
        return false;
    return !attacked(pos, k, pos->side, 0xffff);
}

static bool legal_by_making(Position *pos, Move m)
{
    Undo u;
    pos_make(pos, m, &u);
    bool ok = mover_safe(pos);
    pos_unmake(pos, m, &u);
    return ok;
}

/* Of side `by`'s patterns `kinds` (bits), those with a piece on the board and a ray from k
 * (up to MAX_VECS of them: lines or rose paths) that passes one of the cells of s. */
static inline unsigned lines_through(const Position *pos, Cell k, int by, unsigned kinds, Set s)
{
    const Variant *v = pos->v;
    unsigned lines = 0;
    for (unsigned bits = kinds; bits; bits &= bits - 1) {
        int p = __builtin_ctz(bits);
        const PatternTable *t = &v->pat[p][by];
        const uint64_t *reach = v->kind_patterns[PAT_ROSE] >> p & 1 ? t->rose->reach : t->back->reach;
        if (set_any(set_and(set_at(reach, k), s)) && set_any(holders(pos, by, p)))
            lines |= 1u << p;
    }
    return lines;
}

/* The side to move is not in check: could a move that empties the cells of `vacated` and
 * puts a piece on `to` (when not vacated) let one of side `them`'s pieces reach the royal
 * piece on k?  Only sliders and roses through an emptied cell, and hoppers through either
 * (a piece arriving can be their screen): leaps, steps and pawn captures attack the same
 * cells after a move as before it. */
static inline bool exposes(const Position *pos, Cell k, int them, Set vacated, Cell to)
{
    const Variant *v = pos->v;
    unsigned lines = lines_through(pos, k, them, v->kind_patterns[PAT_SLIDE] | v->kind_patterns[PAT_ROSE], vacated);
    if (!v->kind_patterns[PAT_HOP])
        return lines && attacked_with(pos, k, them, lines, set_minus(occupied(pos), vacated));
    lines |= lines_through(pos, k, them, v->kind_patterns[PAT_HOP], set_or(vacated, set_bit(to)));
    return lines && attacked_with(pos, k, them, lines, set_minus(set_or(occupied(pos), set_bit(to)), vacated));
}

/* The side to move is in check: might a move of a piece other than the royal to `to` answer
 * it?  Not when several pieces give check, nor when `to` is neither the checker's cell nor
 * on one of its lines from k (the rays of its slider and rose patterns from k, up to the
 * first piece: a superset of the cells between). */
static inline bool may_answer_check(const Position *pos, Cell k, int them, Cell to)
{
    const Variant *v = pos->v;
    Set occ = occupied(pos), checkers = attackers_with(pos, k, them, 0xffff, occ, false);
    if (set_several(checkers))
        return false;
    if (set_has(checkers, to))
        return true;
    for (unsigned bits = v->kind_patterns[PAT_SLIDE] | v->kind_patterns[PAT_ROSE]; bits; bits &= bits - 1) {
        int p = __builtin_ctz(bits);
        const PatternTable *t = &v->pat[p][them];
        if (!set_any(set_and(checkers, holders(pos, them, p))))
            continue;
        if (set_has(v->kind_patterns[PAT_ROSE] >> p & 1 ? rose(t->rose, k, occ) : slide(t->back, k, occ), to))
            return true;
    }
    return false;
}

/*
 * Makes a pseudo-legal move when it is legal (true), else leaves the position as it was;
 * in_check: the side to move is in check now.  Masks decide without making the move where
 * they can: a royal move by its target with the royal lifted; another piece's move out of
 * check when the cells it empties open no enemy line to the royal, in check when it neither
 * captures the single checker nor lands on its line (illegal).  The rest is made and tested:
 * en passant, castling, placements, royal double steps, every move in check or with the
 * removal event while the opponent has hoppers, the removal event's moves of the royal piece,
 * and the moves the masks leave open.
 */
static bool make_if_legal(Position *pos, Move m, Undo *u, bool in_check)
{
    const Variant *v = pos->v;
    int them = pos->side ^ 1;
    Cell k = pos->royal[pos->side], from = MOVE_FROM(m), to = MOVE_TO(m);
    bool removal = v->def->removal_unless_near_pawn;
    assert(in_check == (k != NO_CELL && attacked(pos, k, them, 0xffff)));
    MoveKind kind = MOVE_KIND(m);
    /* With hoppers, a screen arriving or leaving may answer a check: made and tested. */
    bool masks = k != NO_CELL && (kind == MK_NORMAL || (kind == MK_DOUBLE && from != k)) &&
                 !(v->kind_patterns[PAT_HOP] && (in_check || removal));
    bool safe = false; /* legal without a test after the move */
    if (masks && from == k && !removal) {
        if (attacked_with(pos, to, them, 0xffff, set_minus(occupied(pos), set_bit(k))))
            return false;
        safe = true;
    } else if (masks && in_check) {
        if (from != k && !may_answer_check(pos, k, them, to))
            return false;
    } else if (masks && from != k) {
        safe = !exposes(pos, k, them, removal ? set_or(set_bit(from), set_bit(to)) : set_bit(from), to);
    }
    pos_make(pos, m, u);
    if (safe || mover_safe(pos))
        return true;
    pos_unmake(pos, m, u);
    return false;
}

/* ---- the royal piece's lines ---- */

typedef struct {
    Set checkers;
    Set block;    /* the cells where a move of another piece answers every check */
    Set pinned;   /* ours, alone between the royal and an attacker */
    Cell pin_cell[PINS_MAX];
    Set pin_line[PINS_MAX]; /* the cells the pinned piece may move to */
    int npins;
    Set screens;  /* either side's, one of at most two between the royal and an attacker */
    Set touchy;   /* on a hopper's line to the royal with at most two pieces between */
    bool hop_check;
} Lines;

static void add_pin(Lines *l, Cell c, Set line)
{
    for (int i = 0; i < l->npins; i++)
        if (l->pin_cell[i] == c) {
            l->pin_line[i] = set_and(l->pin_line[i], line);
            return;
        }
    if (l->npins == PINS_MAX)
        return;
    l->pinned = set_or(l->pinned, set_bit(c));
    l->pin_cell[l->npins] = c;
    l->pin_line[l->npins++] = line;
}

static Set pin_line(const Lines *l, Cell c)
{
    for (int i = 0;; i++)
        if (l->pin_cell[i] == c)
            return l->pin_line[i];
}

/* A line from the royal to an attacker (both ends included) with n pieces strictly between,
 * the first of them `first`. */
static void record_line(Lines *l, Set line, Cell attacker, int n, Set between, Cell first, Set ours)
{
    if (n == 0) {
        l->checkers = set_or(l->checkers, set_bit(attacker));
        l->block = set_and(l->block, line);
    } else if (n == 1) {
        if (set_has(ours, first))
            add_pin(l, first, line);
        l->screens = set_or(l->screens, between);
    } else if (n == 2) {
        l->screens = set_or(l->screens, between);
    }
}

static void slider_lines(const SliderTable *t, Set h, Cell royal, Set occ, Set ours, Lines *l)
{
    for (int d = 0; d < t->nvec; d++) {
        Set ray = ray_of(t, d, royal), found = set_and(ray, h);
        if (!set_any(found))
            continue;
        Cell attacker = nearest(t, d, found);
        Set line = set_minus(ray, beyond(t, d, attacker));
        Set between = set_and(set_minus(line, set_bit(attacker)), occ);
        int n = set_any(between) ? (set_several(between) ? set_count(between) : 1) : 0;
        record_line(l, line, attacker, n, between, n ? nearest(t, d, between) : NO_CELL, ours);
    }
}

/* Every hopper on a ray with at most two pieces before it makes the ray touchy. */
static void hopper_lines(const SliderTable *t, Set h, Cell royal, Set occ, Lines *l)
{
    for (int d = 0; d < t->nvec; d++) {
        Set ray = ray_of(t, d, royal), found = set_and(ray, h);
        while (set_any(found)) {
            Cell hopper = set_pop(&found);
            Set line = set_minus(ray, beyond(t, d, hopper));
            int n = set_count(set_and(set_minus(line, set_bit(hopper)), occ));
            if (n <= 2)
                l->touchy = set_or(l->touchy, line);
            if (n == 1) {
                l->checkers = set_or(l->checkers, set_bit(hopper));
                l->hop_check = true;
            }
        }
    }
}

static void rose_lines(const RoseTable *r, Set h, Cell royal, Set occ, Set ours, Lines *l)
{
    for (int k = 0; k < r->npaths; k++) {
        int len, n = 0;
        const Cell *path = rose_path(r, royal, k, &len);
        Set line = set_none(), between = set_none();
        Cell first = NO_CELL;
        for (int i = 0; i < len && n <= 2; i++) {
            line = set_or(line, set_bit(path[i]));
            if (!set_has(occ, path[i]))
                continue;
            if (set_has(h, path[i])) {
                record_line(l, line, path[i], n, between, first, ours);
                break;
            }
            if (n++ == 0)
                first = path[i];
            between = set_or(between, set_bit(path[i]));
        }
    }
}

/* Checks, pins, screens and hopper lines around the side to move's royal piece. */
static void royal_lines(const Position *pos, Cell royal, Set occ, Lines *l)
{
    const Variant *v = pos->v;
    int them = pos->side ^ 1;
    Set ours = set_load(&pos->by_side[pos->side]);
    l->checkers = l->pinned = l->screens = l->touchy = set_none();
    l->block = set_load(&v->all);
    l->npins = 0;
    l->hop_check = false;
    unsigned bits;
    for (bits = v->kind_patterns[PAT_STEP] | v->kind_patterns[PAT_PAWN]; bits; bits &= bits - 1) {
        int p = __builtin_ctz(bits);
        Set found = set_and(set_at(v->pat[p][them].from, royal), holders(pos, them, p));
        l->checkers = set_or(l->checkers, found);
        while (set_any(found))
            l->block = set_and(l->block, set_bit(set_pop(&found)));
    }
    for (bits = v->kind_patterns[PAT_SLIDE] | v->kind_patterns[PAT_HOP]; bits; bits &= bits - 1) {
        int p = __builtin_ctz(bits);
        const SliderTable *t = v->pat[p][them].back;
        Set h = holders(pos, them, p);
        if (!set_any(set_and(set_at(t->reach, royal), h)))
            continue;
        if (v->kind_patterns[PAT_HOP] >> p & 1)
            hopper_lines(t, h, royal, occ, l);
        else
            slider_lines(t, h, royal, occ, ours, l);
    }
    for (bits = v->kind_patterns[PAT_ROSE]; bits; bits &= bits - 1) {
        int p = __builtin_ctz(bits);
        const RoseTable *r = v->pat[p][them].rose;
        Set h = holders(pos, them, p);
        if (set_any(set_and(set_at(r->reach, royal), h)))
            rose_lines(r, h, royal, occ, ours, l);
    }
}
