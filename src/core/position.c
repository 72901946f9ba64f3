/* Position state, Zobrist keys, make/unmake and attack detection. */
#include "position.h"

#include <pthread.h>
#include <string.h>

#include "../util/rng.h"
#include "movegen.h"

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

/* Board and piece-list updates without the key (make/unmake handle the key themselves). */
static inline void add_piece(Position *pos, uint8_t code, Cell c)
{
    int side = PIECE_COLOUR(code);
    pos->board[c] = code;
    pos->pindex[c] = pos->pcount[side];
    pos->plist[side][pos->pcount[side]++] = c;
    if (pos->v->is_royal[code])
        pos->royal[side] = c;
}

static inline void remove_piece(Position *pos, Cell c)
{
    uint8_t code = pos->board[c];
    int side = PIECE_COLOUR(code);
    Cell last = pos->plist[side][--pos->pcount[side]];
    pos->plist[side][pos->pindex[c]] = last;
    pos->pindex[last] = pos->pindex[c];
    pos->board[c] = 0;
    if (pos->royal[side] == c)
        pos->royal[side] = NO_CELL;
}

static inline void move_piece(Position *pos, Cell from, Cell to)
{
    uint8_t code = pos->board[from];
    int side = PIECE_COLOUR(code);
    pos->board[to] = code;
    pos->board[from] = 0;
    pos->pindex[to] = pos->pindex[from];
    pos->plist[side][pos->pindex[to]] = to;
    if (pos->royal[side] == from)
        pos->royal[side] = to;
}

void pos_put(Position *pos, uint8_t code, Cell c)
{
    add_piece(pos, code, c);
    pos->key ^= zobrist_piece[code][c];
}

void pos_take(Position *pos, Cell c)
{
    pos->key ^= zobrist_piece[pos->board[c]][c];
    remove_piece(pos, c);
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

/* The cell halfway between two cells of a double step. */
static Cell passed_cell(const Geometry *g, Cell from, Cell to)
{
    return geo_cell_at(g, (g->q[from] + g->q[to]) / 2, (g->r[from] + g->r[to]) / 2, g->level[from]);
}

static void make_placement(Position *pos, Move m)
{
    int side = pos->side;
    uint8_t code = MAKE_PIECE(side, MOVE_PIECE(m));
    int type = MOVE_PIECE(m);
    pos->key ^= zobrist_hand[code][pos->hand[side][type]];
    pos->hand[side][type]--;
    pos->hand_total[side]--;
    pos->key ^= zobrist_hand[code][pos->hand[side][type]];
    add_piece(pos, code, MOVE_TO(m));
    pos->key ^= zobrist_piece[code][MOVE_TO(m)];
}

static void make_castling(Position *pos, Move m)
{
    const Variant *v = pos->v;
    int i = castle_index(v, pos->side, MOVE_FROM(m), MOVE_TO(m));
    Cell kf = v->castle[i].king_from, kt = v->castle[i].king_to;
    Cell rf = v->castle[i].rook_from, rt = v->castle[i].rook_to;
    uint8_t king = pos->board[kf], rook = pos->board[rf];
    remove_piece(pos, kf);
    remove_piece(pos, rf);
    add_piece(pos, king, kt);
    add_piece(pos, rook, rt);
    pos->key ^= zobrist_piece[king][kf] ^ zobrist_piece[king][kt] ^ zobrist_piece[rook][rf] ^ zobrist_piece[rook][rt];
    pos->halfmove++;
}

static void make_ordinary(Position *pos, Move m, Undo *u)
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
        pos->key ^= zobrist_piece[captured][capture_cell];
        remove_piece(pos, capture_cell);
    }
    pos->key ^= zobrist_piece[code][from];
    move_piece(pos, from, to);
    if (MOVE_PIECE(m)) {
        uint8_t promoted = MAKE_PIECE(pos->side, MOVE_PIECE(m));
        remove_piece(pos, to);
        add_piece(pos, promoted, to);
        pos->key ^= zobrist_piece[promoted][to];
    } else {
        pos->key ^= zobrist_piece[code][to];
    }
    pos->halfmove = captured || v->is_pawn[code] ? 0 : pos->halfmove + 1;
    if (v->def->limping) {
        u->limp_from = pos->limping[from];
        u->limp_to = pos->limping[to];
        bool limps = v->is_pawn[code] && !MOVE_PIECE(m) && v->start_cell[pos->side][to];
        if (u->limp_from)
            pos->key ^= zobrist_limp[from];
        if (u->limp_to != limps)
            pos->key ^= zobrist_limp[to];
        pos->limping[from] = false;
        pos->limping[to] = limps;
    }
    if (kind == MK_DOUBLE && !v->def->no_en_passant) {
        pos->ep = passed_cell(v->geo, from, to);
        pos->ep_victim = to;
    }
}

void pos_make(Position *pos, Move m, Undo *u)
{
    const Variant *v = pos->v;
    MoveKind kind = MOVE_KIND(m);
    u->key = pos->key;
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
        bool dies = v->def->moved_piece_survives && !v->def->moved_piece_survives(pos, m);
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
        if (dies) {
            Cell to = MOVE_TO(m);
            u->removed = pos->board[to];
            pos->key ^= zobrist_piece[u->removed][to];
            remove_piece(pos, to);
        }
        if (pos->side == BLACK)
            pos->fullmove++;
    }
    pos->side ^= 1;
    pos->key ^= zobrist_side;
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
        int type = MOVE_PIECE(m);
        remove_piece(pos, to);
        pos->hand[pos->side][type]++;
        pos->hand_total[pos->side]++;
    } else {
        if (pos->side == BLACK)
            pos->fullmove--;
        if (kind == MK_CASTLE) {
            int i = castle_index(v, pos->side, from, to);
            uint8_t king = pos->board[to], rook = pos->board[v->castle[i].rook_to];
            remove_piece(pos, to);
            remove_piece(pos, v->castle[i].rook_to);
            add_piece(pos, king, from);
            add_piece(pos, rook, v->castle[i].rook_from);
        } else {
            if (MOVE_PIECE(m)) { /* the promoted piece turns back into the pawn */
                remove_piece(pos, to);
                add_piece(pos, MAKE_PIECE(pos->side, v->pawn_type), to);
            }
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
}

bool pos_attacked(const Position *pos, Cell x, int by)
{
    return pos_attacked_by(pos, x, by, 0xffff);
}

bool pos_attacked_by(const Position *pos, Cell x, int by, unsigned patterns)
{
    const Variant *v = pos->v;
    const uint8_t *board = pos->board;
    const uint16_t(*mask_of)[MAX_CELLS] = v->side_mask[by];
    const uint8_t *p = v->atk + v->atk_at[by][x];
    if (*p == A_LEAPS) {
        const uint8_t *e = p + 2, *end = e + 3 * p[1];
        for (; e < end; e += 3)
            if (mask_of[board[e[0]]][e[0]] & (e[1] | (unsigned)e[2] << 8) & patterns)
                return true;
        p = end;
    }
    for (; *p; p += 4 + p[3]) {
        unsigned mask = (p[1] | (unsigned)p[2] << 8) & patterns;
        const uint8_t *cells = p + 4, *end = cells + p[3];
        if (!mask)
            continue;
        while (cells < end && !board[*cells])
            cells++;
        if (cells < end && *p == A_HOP) /* jump the screen */
            for (cells++; cells < end && !board[*cells]; cells++)
                ;
        if (cells < end && (mask_of[board[*cells]][*cells] & mask))
            return true;
    }
    return false;
}

int board_attackers(const Variant *v, const uint8_t *board, Cell x, int by, Cell *out)
{
    const uint16_t(*mask_of)[MAX_CELLS] = v->side_mask[by];
    const uint8_t *p = v->atk + v->atk_at[by][x];
    int n = 0;
    if (*p == A_LEAPS) { /* entries (cell, mask low, mask high) */
        const uint8_t *e = p + 2, *end = e + 3 * p[1];
        for (; e < end; e += 3)
            if (mask_of[board[e[0]]][e[0]] & (e[1] | (unsigned)e[2] << 8))
                out[n++] = e[0];
        p = end;
    }
    for (; *p; p += 4 + p[3]) { /* rays: [kind, mask low, mask high, count, cells...] */
        unsigned mask = p[1] | (unsigned)p[2] << 8;
        const uint8_t *cells = p + 4, *end = cells + p[3];
        while (cells < end && !board[*cells])
            cells++;
        if (cells < end && *p == A_HOP) /* jump the screen */
            for (cells++; cells < end && !board[*cells]; cells++)
                ;
        if (cells < end && (mask_of[board[*cells]][*cells] & mask) && !memchr(out, *cells, (size_t)n))
            out[n++] = *cells;
    }
    return n;
}

bool pos_in_check(const Position *pos)
{
    Cell k = pos->royal[pos->side];
    return k != NO_CELL && pos_attacked(pos, k, pos->side ^ 1);
}

bool pos_mover_safe(const Position *pos)
{
    int mover = pos->side ^ 1;
    Cell k = pos->royal[mover];
    if (k == NO_CELL) /* safe only if it was never on the board: still in hand */
        return !pos->v->has_royal || pos->hand[mover][pos->v->royal_type];
    /* A royal piece that has just double stepped can also be taken en passant. */
    if (k == pos->ep_victim && pos_attacked_by(pos, pos->ep, pos->side, pos->v->pawn_capture_bits))
        return false;
    return !pos_attacked(pos, k, pos->side);
}

int pos_moved_type(const Position *pos, Move m)
{
    return MOVE_KIND(m) == MK_PLACE ? MOVE_PIECE(m) : PIECE_TYPE(pos->board[MOVE_FROM(m)]);
}

bool pos_is_capture(const Position *pos, Move m)
{
    MoveKind k = MOVE_KIND(m);
    return k == MK_EP || (k != MK_PLACE && k != MK_CASTLE && pos->board[MOVE_TO(m)] != 0);
}

bool pos_has_legal_ep(Position *pos)
{
    if (pos->ep == NO_CELL)
        return false;
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    for (int i = 0; i < n; i++)
        if (MOVE_KIND(moves[i]) == MK_EP)
            return true;
    return false;
}

uint64_t pos_repetition_key(Position *pos)
{
    return pos->key ^ (pos_has_legal_ep(pos) ? zobrist_ep[pos->ep] : 0);
}

bool pos_only_royals(const Position *pos)
{
    return pos->pcount[WHITE] == 1 && pos->pcount[BLACK] == 1 && !pos->hand_total[WHITE] && !pos->hand_total[BLACK] &&
           pos->royal[WHITE] != NO_CELL && pos->royal[BLACK] != NO_CELL;
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

bool pos_next_to_pawn(const Position *pos, Cell c)
{
    const Geometry *g = pos->v->geo;
    for (int d = 0; d < g->ndirs; d++) {
        Cell n = g->step[c][d];
        if (n != NO_CELL && pos->board[n] && pos->v->is_pawn[pos->board[n]])
            return true;
    }
    return false;
}
