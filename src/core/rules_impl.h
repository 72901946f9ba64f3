/*
 * The rules on cell sets of SET_W words: attack tests, the royal piece's lines (checks and
 * pins), move generation and mobility.  Written once, instantiated once per width: rules_w1.c
 * (SET_W 1: chess, Starvation, square-says, Starchess) and rules_w3.c (SET_W 3: Megastar),
 * each of which defines SET_W and RULES_OPS (the name of its RulesOps) and includes this file;
 * rules_w1_pext.c instantiates SET_W 1 once more with BMI2, for the CPUs that have it fast.
 *
 * Legal generation decides most moves by masks, without making them.  From the royal piece's
 * cell, the attack tables' reverse sets and lines give the checkers, the cells that answer
 * every check (the line to a slider or rose, a leaper's own cell), and the pinned pieces with
 * the line each must stay on; a royal move is legal when its target is not attacked with the
 * royal lifted off the board; a placement, unless it leaves a check unanswered or puts the
 * royal on an attacked cell.  What no mask decides is made and tested: en passant, castling,
 * placements where there are hoppers, a royal double step (en passant may answer it), moves
 * on a hopper's line to the royal (a hop needs exactly one screen, so a piece arriving or
 * leaving can open it) and every move while a hopper gives check; and for the removal event,
 * a removed piece empties its from and to cells, which can expose the royal only when one of
 * them is one of the (at most two) pieces between the royal and an enemy slider.  rules_stats
 * counts how often.
 */
#include <assert.h>
#include <string.h>

/* One-word boards built with BMI2 (rules_w1_pext.c, or a build for a CPU level that has it)
 * read a slider's attacks from the PEXT tables in one look-up. */
#if SET_W == 1 && defined(__BMI2__)
#define SLIDE_BY_PEXT 1
#include <immintrin.h>
#else
#define SLIDE_BY_PEXT 0
#endif

#include "movegen.h"
#include "rules.h"
#include "setw.h"

#define PINS_MAX MAX_PIECES
/* Up to this many cells a royal piece may step to are tested for attacks one by one; more
 * are looked up in every cell the opponent attacks (attacks_of). */
#define DANGER_QUESTIONS 1
/* Inlined whatever gcc judges: generate() grows past its inlining limits, and these called out
 * of line cost perft 3-4% more instructions (callgrind). */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

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

const RulesOps RULES_OPS = {attacked, attackers, mover_safe, legal_by_making, make_if_legal, pseudo, legal, piece_moves,
                            next_to_pawns, SLIDE_BY_PEXT};
