/* Position state, Zobrist keys and score sums, make/unmake. */
#include "position.h"

#include <assert.h>
#include <pthread.h>
#include <string.h>

#include "../util/rng.h"

/* make and unmake assert pos_is_ok after every move in builds without NDEBUG (the ASan build
 * and its unit tests).  The fuzz build checks one position in POS_CHECK_ONE_IN, those whose
 * key it divides, so that an input always checks the same ones (Makefile): rebuilding the
 * whole state after every move took up to a sixth of a fuzz target's time. */
#ifndef POS_CHECK_ONE_IN
#define POS_CHECK_ONE_IN 1
#endif
#define POS_CHECKED(pos) ((pos)->key % POS_CHECK_ONE_IN != 0 || pos_is_ok(pos))

uint64_t zobrist_piece[MAX_CODES][MAX_CELLS];
uint64_t zobrist_ep[MAX_CELLS];
uint64_t zobrist_limp[MAX_CELLS];
uint64_t zobrist_castling[16];
uint64_t zobrist_hand[MAX_CODES][MAX_PIECES];
uint64_t zobrist_side;

/* A fixed seed makes keys, and so search node counts, reproducible. */
static void zobrist_build(void)
{
    uint64_t s = 0x5354415246495348ULL; /* "STARFISH" */
    for (int p = 0; p < MAX_CODES; p++)
        for (int c = 0; c < MAX_CELLS; c++)
            zobrist_piece[p][c] = rng_next(&s);
    for (int c = 0; c < MAX_CELLS; c++) {
        zobrist_ep[c] = rng_next(&s);
        zobrist_limp[c] = rng_next(&s);
    }
    for (int i = 0; i < 16; i++)
        zobrist_castling[i] = rng_next(&s);
    for (int p = 0; p < MAX_CODES; p++)
        for (int n = 0; n < MAX_PIECES; n++)
            zobrist_hand[p][n] = rng_next(&s);
    zobrist_side = rng_next(&s);
}

void zobrist_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, zobrist_build);
}

void pos_clear(Position *pos, const Variant *v)
{
    zobrist_init();
    memset(pos, 0, sizeof *pos);
    pos->v = v;
    pos->royal[WHITE] = pos->royal[BLACK] = NO_CELL;
    pos->ep = pos->ep_victim = NO_CELL;
    pos->fullmove = 1;
}

/* A piece comes to or leaves cell c: its bit in every set it belongs to flips. */
static inline void flip_sets(Position *pos, uint8_t code, Cell c)
{
    int side = PIECE_COLOUR(code), w = c >> 6;
    uint64_t bit = 1ull << (c & 63);
    pos->by_side[side].w[w] ^= bit;
    pos->by_type[PIECE_TYPE(code)].w[w] ^= bit;
    for (unsigned p = pos->v->pattern_mask[code][c]; p; p &= p - 1)
        pos->by_pattern[side][__builtin_ctz(p)].w[w] ^= bit;
}

/* Board, sets, counts and royal cell, without the key and the scores (make updates those
 * itself, unmake restores them). */
static inline void add_piece(Position *pos, uint8_t code, Cell c)
{
    int side = PIECE_COLOUR(code);
    pos->board[c] = code;
    flip_sets(pos, code, c);
    pos->count[code]++;
    pos->pcount[side]++;
    if (pos->v->is_royal[code])
        pos->royal[side] = c;
}

static inline void remove_piece(Position *pos, Cell c)
{
    uint8_t code = pos->board[c];
    int side = PIECE_COLOUR(code);
    flip_sets(pos, code, c);
    pos->board[c] = 0;
    pos->count[code]--;
    pos->pcount[side]--;
    if (pos->royal[side] == c)
        pos->royal[side] = NO_CELL;
}

static inline void move_piece(Position *pos, Cell from, Cell to)
{
    uint8_t code = pos->board[from];
    int side = PIECE_COLOUR(code), w = from >> 6;
    unsigned patterns = pos->v->pattern_mask[code][from];
    if (w == to >> 6 && patterns == pos->v->pattern_mask[code][to]) { /* both bits of one word flip */
        uint64_t bits = 1ull << (from & 63) | 1ull << (to & 63);
        pos->by_side[side].w[w] ^= bits;
        pos->by_type[PIECE_TYPE(code)].w[w] ^= bits;
        for (; patterns; patterns &= patterns - 1)
            pos->by_pattern[side][__builtin_ctz(patterns)].w[w] ^= bits;
    } else {
        flip_sets(pos, code, from);
        flip_sets(pos, code, to);
    }
    pos->board[to] = code;
    pos->board[from] = 0;
    if (pos->royal[side] == from)
        pos->royal[side] = to;
}

/* The key and the scores of a piece coming to or leaving c. */
static inline void hash_piece(Position *pos, uint8_t code, Cell c, int sign)
{
    pos->key ^= zobrist_piece[code][c];
    if (pos->score_table) {
        const PieceScore *s = &(*pos->score_table)[code][c];
        pos->scores.mg += sign * s->mg;
        pos->scores.eg += sign * s->eg;
        pos->scores.phase += sign * s->phase;
    }
}

void pos_put(Position *pos, uint8_t code, Cell c)
{
    add_piece(pos, code, c);
    hash_piece(pos, code, c, 1);
}

void pos_take(Position *pos, Cell c)
{
    hash_piece(pos, pos->board[c], c, -1);
    remove_piece(pos, c);
}

ScoreSum pos_score_sum(const Position *pos, const ScoreTable *t)
{
    ScoreSum sum = {0, 0, 0};
    for (Cell c = 0; c < pos->v->geo->ncells; c++)
        if (pos->board[c]) {
            const PieceScore *s = &(*t)[pos->board[c]][c];
            sum.mg += s->mg;
            sum.eg += s->eg;
            sum.phase += s->phase;
        }
    return sum;
}

void pos_attach_scores(Position *pos, const ScoreTable *t)
{
    pos->score_table = t;
    pos->scores = t ? pos_score_sum(pos, t) : (ScoreSum){0, 0, 0};
}

uint64_t pos_compute_key(const Position *pos)
{
    uint64_t k = 0;
    for (Cell c = 0; c < pos->v->geo->ncells; c++) {
        if (pos->board[c])
            k ^= zobrist_piece[pos->board[c]][c];
        if (pos->limping[c])
            k ^= zobrist_limp[c];
    }
    for (int side = 0; side < 2; side++)
        for (int t = 1; t <= pos->v->ntypes; t++)
            k ^= zobrist_hand[MAKE_PIECE(side, t)][pos->hand[side][t]];
    k ^= zobrist_castling[pos->castling];
    if (pos->side == BLACK)
        k ^= zobrist_side;
    return k;
}

static int castle_index(const Variant *v, int side, Cell from, Cell to)
{
    for (int i = 0; i < v->ncastling; i++)
        if (v->castle[i].colour == side && v->castle[i].king_from == from && v->castle[i].king_to == to)
            return i;
    return -1;
}

int pos_move_cells(const Position *pos, Move m, Cell out[4])
{
    int n = 0;
    if (MOVE_KIND(m) == MK_CASTLE) {
        const Variant *v = pos->v;
        int i = castle_index(v, pos->side, MOVE_FROM(m), MOVE_TO(m));
        Cell cells[4] = {v->castle[i].king_from, v->castle[i].king_to, v->castle[i].rook_from, v->castle[i].rook_to};
        for (int k = 0; k < 4; k++) {
            bool seen = false;
            for (int j = 0; j < n; j++)
                seen |= out[j] == cells[k];
            if (!seen)
                out[n++] = cells[k];
        }
        return n;
    }
    if (MOVE_KIND(m) != MK_PLACE)
        out[n++] = MOVE_FROM(m);
    out[n++] = MOVE_TO(m);
    if (MOVE_KIND(m) == MK_EP)
        out[n++] = pos->ep_victim;
    return n;
}

/* The rare moves are kept out of line, so that the ordinary move's code stays small (make and
 * unmake are a fifth of perft's time). */
#define RARE static __attribute__((noinline, cold))

RARE void make_placement(Position *pos, Move m)
{
    int side = pos->side;
    uint8_t code = MAKE_PIECE(side, MOVE_PIECE(m));
    int type = MOVE_PIECE(m);
    pos->key ^= zobrist_hand[code][pos->hand[side][type]];
    pos->hand[side][type]--;
    pos->hand_total[side]--;
    pos->key ^= zobrist_hand[code][pos->hand[side][type]];
    add_piece(pos, code, MOVE_TO(m));
    hash_piece(pos, code, MOVE_TO(m), 1);
}

RARE void make_castling(Position *pos, Move m)
{
    const Variant *v = pos->v;
    int i = castle_index(v, pos->side, MOVE_FROM(m), MOVE_TO(m));
    Cell kf = v->castle[i].king_from, kt = v->castle[i].king_to;
    Cell rf = v->castle[i].rook_from, rt = v->castle[i].rook_to;
    uint8_t king = pos->board[kf], rook = pos->board[rf];
    pos_take(pos, kf);
    pos_take(pos, rf);
    pos_put(pos, king, kt);
    pos_put(pos, rook, rt);
    pos->halfmove++;
}

/* The pawn that has just arrived on `to` becomes the piece of type `type`. */
RARE void promote(Position *pos, Cell to, int type)
{
    uint8_t pawn = pos->board[to], promoted = MAKE_PIECE(pos->side, type);
    hash_piece(pos, pawn, to, -1);
    remove_piece(pos, to);
    add_piece(pos, promoted, to);
    hash_piece(pos, promoted, to, 1);
}

/* Limping pawns: a pawn that moves onto one of its side's start cells (not promoted) limps;
 * whatever limped on the move's cells does no longer. */
static inline void make_limping(Position *pos, Move m, uint8_t code, Undo *u)
{
    const Variant *v = pos->v;
    Cell from = MOVE_FROM(m), to = MOVE_TO(m);
    bool limps = v->is_pawn[code] && !MOVE_PIECE(m) && v->start_cell[pos->side][to];
    u->limp_from = pos->limping[from];
    u->limp_to = pos->limping[to];
    if (u->limp_from)
        pos->key ^= zobrist_limp[from];
    if (u->limp_to != limps)
        pos->key ^= zobrist_limp[to];
    pos->limping[from] = false;
    pos->limping[to] = limps;
}

static inline void make_ordinary(Position *pos, Move m, Undo *u)
{
    const Variant *v = pos->v;
    Cell from = MOVE_FROM(m), to = MOVE_TO(m);
    MoveKind kind = MOVE_KIND(m);
    uint8_t code = pos->board[from];
    Cell capture_cell = kind == MK_EP ? u->ep_victim : to;
    uint8_t captured = pos->board[capture_cell];
    if (captured) {
        u->captured = captured;
        u->captured_cell = capture_cell;
        pos_take(pos, capture_cell);
    }
    pos->key ^= zobrist_piece[code][from] ^ zobrist_piece[code][to];
    if (pos->score_table) {
        const PieceScore *a = &(*pos->score_table)[code][from], *b = &(*pos->score_table)[code][to];
        pos->scores.mg += b->mg - a->mg;
        pos->scores.eg += b->eg - a->eg;
        pos->scores.phase += b->phase - a->phase;
    }
    move_piece(pos, from, to);
    if (MOVE_PIECE(m))
        promote(pos, to, MOVE_PIECE(m));
    pos->halfmove = captured || v->is_pawn[code] ? 0 : pos->halfmove + 1;
    if (v->def->limping)
        make_limping(pos, m, code, u);
    if (kind == MK_DOUBLE && !v->def->no_en_passant) {
        pos->ep = v->passed[pos->side][from];
        pos->ep_victim = to;
    }
}

void pos_make(Position *pos, Move m, Undo *u)
{
    const Variant *v = pos->v;
    MoveKind kind = MOVE_KIND(m);
    u->key = pos->key;
    u->scores = pos->scores;
    u->captured = 0;
    u->removed = 0;
    u->castling = pos->castling;
    u->ep = pos->ep;
    u->ep_victim = pos->ep_victim;
    u->halfmove = pos->halfmove;
    pos->ep = pos->ep_victim = NO_CELL;
    if (kind == MK_PLACE) {
        make_placement(pos, m);
    } else {
        bool removed = v->def->removal_unless_near_pawn && pos_move_removes(pos, m);
        if (kind == MK_CASTLE)
            make_castling(pos, m);
        else
            make_ordinary(pos, m, u);
        /* A move from or to a king's or rook's start cell ends the castling it served. */
        uint8_t keep = v->castle_keep[MOVE_FROM(m)] & v->castle_keep[MOVE_TO(m)];
        if (pos->castling & ~keep) {
            pos->key ^= zobrist_castling[pos->castling] ^ zobrist_castling[pos->castling & keep];
            pos->castling &= keep;
        }
        if (removed) {
            u->removed = pos->board[MOVE_TO(m)];
            pos_take(pos, MOVE_TO(m));
        }
        if (pos->side == BLACK)
            pos->fullmove++;
    }
    pos->side ^= 1;
    pos->key ^= zobrist_side;
    assert(POS_CHECKED(pos));
}

RARE void unmake_placement(Position *pos, Move m)
{
    int type = MOVE_PIECE(m);
    remove_piece(pos, MOVE_TO(m));
    pos->hand[pos->side][type]++;
    pos->hand_total[pos->side]++;
}

RARE void unmake_castling(Position *pos, Cell from, Cell to)
{
    const Variant *v = pos->v;
    int i = castle_index(v, pos->side, from, to);
    uint8_t king = pos->board[to], rook = pos->board[v->castle[i].rook_to];
    remove_piece(pos, to);
    remove_piece(pos, v->castle[i].rook_to);
    add_piece(pos, king, from);
    add_piece(pos, rook, v->castle[i].rook_from);
}

/* The promoted piece on `to` turns back into the pawn. */
RARE void unpromote(Position *pos, Cell to)
{
    remove_piece(pos, to);
    add_piece(pos, MAKE_PIECE(pos->side, pos->v->pawn_type), to);
}

void pos_unmake(Position *pos, Move m, const Undo *u)
{
    const Variant *v = pos->v;
    Cell from = MOVE_FROM(m), to = MOVE_TO(m);
    MoveKind kind = MOVE_KIND(m);
    pos->side ^= 1;
    if (u->removed)
        add_piece(pos, u->removed, to);
    if (kind == MK_PLACE) {
        unmake_placement(pos, m);
    } else {
        if (pos->side == BLACK)
            pos->fullmove--;
        if (kind == MK_CASTLE) {
            unmake_castling(pos, from, to);
        } else {
            if (MOVE_PIECE(m))
                unpromote(pos, to);
            move_piece(pos, to, from);
            if (u->captured)
                add_piece(pos, u->captured, u->captured_cell);
            if (v->def->limping) {
                pos->limping[from] = u->limp_from;
                pos->limping[to] = u->limp_to;
            }
        }
    }
    pos->castling = u->castling;
    pos->ep = u->ep;
    pos->ep_victim = u->ep_victim;
    pos->halfmove = u->halfmove;
    pos->key = u->key;
    pos->scores = u->scores;
    assert(POS_CHECKED(pos));
}

void pos_make_null(Position *pos, Undo *u)
{
    u->key = pos->key;
    u->ep = pos->ep;
    u->ep_victim = pos->ep_victim;
    u->halfmove = pos->halfmove;
    pos->ep = pos->ep_victim = NO_CELL;
    pos->halfmove++;
    pos->side ^= 1;
    pos->key ^= zobrist_side;
}

void pos_unmake_null(Position *pos, const Undo *u)
{
    pos->side ^= 1;
    pos->ep = u->ep;
    pos->ep_victim = u->ep_victim;
    pos->halfmove = u->halfmove;
    pos->key = u->key;
}

int pos_moved_type(const Position *pos, Move m)
{
    return MOVE_KIND(m) == MK_PLACE ? MOVE_PIECE(m) : PIECE_TYPE(pos->board[MOVE_FROM(m)]);
}

bool pos_next_to_pawn(const Position *pos, Cell c)
{
    const Variant *v = pos->v;
    const uint64_t *near = v->adjacent + (size_t)c * (size_t)v->words;
    const CellSet *pawns = &pos->by_type[v->pawn_type];
    for (int k = 0; k < v->words; k++)
        if (near[k] & pawns->w[k])
            return true;
    return false;
}

/*
 * Judged on the board before the move, which gives the same answer as the board after it
 * (where the rules judge): the only pawns that can differ are the mover (it survives) and a
 * captured one (it survives), and neither is a neighbour of itself.  En passant moves a pawn;
 * castling moves the royal piece from and to MOVE_FROM and MOVE_TO.
 */
bool pos_move_removes(const Position *pos, Move m)
{
    const Variant *v = pos->v;
    uint8_t moved = pos->board[MOVE_FROM(m)], captured = pos->board[MOVE_TO(m)];
    return !(v->is_pawn[moved] || (captured && v->is_pawn[captured]) || pos_next_to_pawn(pos, MOVE_FROM(m)) ||
             pos_next_to_pawn(pos, MOVE_TO(m)));
}

bool pos_only_royals(const Position *pos)
{
    return pos->pcount[WHITE] == 1 && pos->pcount[BLACK] == 1 && !pos->hand_total[WHITE] && !pos->hand_total[BLACK] &&
           pos->royal[WHITE] != NO_CELL && pos->royal[BLACK] != NO_CELL;
}

/* The sets, counts and royal cells a mailbox implies. */
static bool sets_agree(const Position *pos)
{
    const Variant *v = pos->v;
    Position fresh;
    pos_clear(&fresh, v);
    for (Cell c = 0; c < v->geo->ncells; c++)
        if (pos->board[c])
            add_piece(&fresh, pos->board[c], c);
    return memcmp(fresh.by_side, pos->by_side, sizeof pos->by_side) == 0 &&
           memcmp(fresh.by_type, pos->by_type, sizeof pos->by_type) == 0 &&
           memcmp(fresh.by_pattern, pos->by_pattern, sizeof pos->by_pattern) == 0 &&
           memcmp(fresh.count, pos->count, sizeof pos->count) == 0 &&
           memcmp(fresh.pcount, pos->pcount, sizeof pos->pcount) == 0 && fresh.royal[WHITE] == pos->royal[WHITE] &&
           fresh.royal[BLACK] == pos->royal[BLACK];
}

bool pos_is_ok(const Position *pos)
{
    if (!sets_agree(pos) || pos->key != pos_compute_key(pos))
        return false;
    if (!pos->score_table)
        return true;
    ScoreSum s = pos_score_sum(pos, pos->score_table);
    return s.mg == pos->scores.mg && s.eg == pos->scores.eg && s.phase == pos->scores.phase;
}
