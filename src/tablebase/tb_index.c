/*
 * The tablebase index: material signatures, the board's symmetries, and the map between
 * positions and entries.
 *
 * An entry index (per side to move) is
 *     kk * rest + mixed-radix(rank of group 1, rank of group 2, ...)
 * where kk numbers the king pairs (White's cell, Black's cell) that are the least of their
 * class under the symmetries used, and each group of identical men (same colour and kind)
 * is ranked as a combination of its states (colex order).  A state is a cell (0..36), or for
 * a pawn one of its colour's pawn states: each cell that colour's pawns can stand on, then
 * each start cell again for a limping pawn there.
 *
 * Symmetries: a left-right reflection keeps columns and pawn directions, so it is valid for
 * every table; a top-bottom reflection turns pawns round, so it is used only for pawnless
 * tables (with the half turn, their composition).  A position's representative is the image
 * with the least key (slot states in order, six bits each, the kings first).  Index entries
 * that are not representatives, or whose men overlap, are invalid.
 */
#include "tb_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

const char tb_kind_letter[TB_NKINDS] = {'Q', 'R', 'B', 'N', 'P'};

static TbGeo geo;

static void geo_build(void)
{
    const Variant *v = variant_by_name("starchess");
    if (!v || v->geo->ncells != TB_NCELLS) {
        fprintf(stderr, "tablebase: no starchess variant with %d cells\n", TB_NCELLS);
        abort();
    }
    const Geometry *g = v->geo;
    geo.v = v;
    for (int t = 0; t < MAX_TYPES; t++)
        geo.kind_of_type[t] = -1;
    for (int k = 0; k < TB_NKINDS; k++) {
        geo.type_of_kind[k] = variant_type_of_letter(v, tb_kind_letter[k]);
        geo.kind_of_type[geo.type_of_kind[k]] = k;
    }
    geo.king_type = variant_type_of_letter(v, 'K');
    for (int c = 0; c < TB_NCELLS; c++) {
        int q = g->q[c], r = g->r[c];
        geo.xf[XF_ID][c] = (uint8_t)c;
        geo.xf[XF_LR][c] = geo_cell_at(g, -q, q + r, 0);
        geo.xf[XF_TB][c] = geo_cell_at(g, q, -q - r, 0);
        geo.xf[XF_ROT][c] = geo_cell_at(g, -q, -r, 0);
        for (int t = 0; t < XF_N; t++)
            if (geo.xf[t][c] == NO_CELL) {
                fprintf(stderr, "tablebase: the board is not symmetric\n");
                abort();
            }
        for (int d = 0; d < g->ndirs; d++)
            if (g->step[c][d] != NO_CELL)
                geo.adjacent[c][g->step[c][d]] = true;
    }
    for (int col = 0; col < 2; col++) {
        int n = 0;
        memset(geo.pstate_of[col], -1, sizeof geo.pstate_of[col]);
        for (int c = 0; c < TB_NCELLS; c++) {
            geo.start[col][c] = v->start_cell[col][c];
            geo.can_stand[col][c] = v->pawn_can_stand[col][c];
            if (geo.can_stand[col][c]) {
                geo.pstate_cell[col][n] = (uint8_t)c;
                geo.pstate_limp[col][n] = false;
                geo.pstate_of[col][c][0] = (int8_t)n++;
            }
        }
        for (int c = 0; c < TB_NCELLS; c++)
            if (geo.start[col][c] && geo.can_stand[col][c]) {
                geo.pstate_cell[col][n] = (uint8_t)c;
                geo.pstate_limp[col][n] = true;
                geo.pstate_of[col][c][1] = (int8_t)n++;
            }
        geo.npstate[col] = n;
    }
    for (int set = 0; set < 2; set++) {
        int nt = set ? 4 : 2, n = 0;
        for (int a = 0; a < TB_NCELLS; a++)
            for (int b = 0; b < TB_NCELLS; b++) {
                geo.kkidx[set][a][b] = -1;
                if (a == b || geo.adjacent[a][b])
                    continue;
                bool least = true;
                for (int t = 1; t < nt; t++)
                    if (geo.xf[t][a] * 64 + geo.xf[t][b] < a * 64 + b)
                        least = false;
                if (!least)
                    continue;
                geo.kkidx[set][a][b] = (int16_t)n;
                geo.kklist[set][n][0] = (uint8_t)a;
                geo.kklist[set][n][1] = (uint8_t)b;
                n++;
            }
        geo.nkk[set] = n;
    }
    for (int n = 0; n <= TB_MAX_PSTATES; n++)
        for (int k = 0; k <= TB_MAX_SLOTS; k++)
            geo.binom[n][k] = k == 0 ? 1 : n == 0 ? 0 : geo.binom[n - 1][k - 1] + geo.binom[n - 1][k];
}

const TbGeo *tb_geo(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    static int ready;
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
        pthread_once(&once, geo_build);
        __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    }
    return &geo;
}

/* ---- signatures ---- */

int tb_sig_men(const TbSig *s)
{
    int n = 2;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_NKINDS; k++)
            n += s->n[c][k];
    return n;
}

int tb_sig_pawns(const TbSig *s)
{
    return s->n[0][TBK_P] + s->n[1][TBK_P];
}

bool tb_sig_equal(const TbSig *a, const TbSig *b)
{
    return memcmp(a->n, b->n, sizeof a->n) == 0;
}

/* One side's material as a number: more men first, then queens, rooks, ... */
static uint32_t side_key(const TbSig *s, int c)
{
    uint32_t total = 0, key = 0;
    for (int k = 0; k < TB_NKINDS; k++) {
        total += s->n[c][k];
        key = key << 4 | s->n[c][k];
    }
    return total << 20 | key;
}

bool tb_sig_canonical(const TbSig *s)
{
    return side_key(s, WHITE) >= side_key(s, BLACK);
}

TbSig tb_sig_flip(const TbSig *s)
{
    TbSig f;
    memcpy(f.n[0], s->n[1], sizeof f.n[0]);
    memcpy(f.n[1], s->n[0], sizeof f.n[1]);
    return f;
}

uint32_t tb_sig_code(const TbSig *s)
{
    return side_key(s, WHITE) << 4 ^ side_key(s, BLACK) * 2654435761u;
}

void tb_sig_name(const TbSig *s, char *buf)
{
    int at = 0;
    for (int c = 0; c < 2; c++) {
        if (c)
            buf[at++] = 'v';
        buf[at++] = 'K';
        for (int k = 0; k < TB_NKINDS; k++)
            for (int i = 0; i < s->n[c][k] && at < 28; i++)
                buf[at++] = tb_kind_letter[k];
    }
    buf[at] = 0;
}

bool tb_sig_parse(const char *text, TbSig *s)
{
    memset(s, 0, sizeof *s);
    int c = 0;
    const char *p = text;
    if (*p != 'K' && *p != 'k')
        return false;
    p++;
    for (; *p; p++) {
        char ch = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p);
        if (ch == 'V') {
            if (c == 1 || (p[1] != 'K' && p[1] != 'k'))
                return false;
            c = 1;
            p++;
            continue;
        }
        const char *k = memchr(tb_kind_letter, ch, TB_NKINDS);
        if (!k || ch == 0)
            return false;
        s->n[c][k - tb_kind_letter]++;
    }
    return c == 1 && tb_sig_men(s) <= TB_MAX_MEN;
}

static int compare_sig(const void *a, const void *b)
{
    const TbSig *x = a, *y = b;
    int d = tb_sig_men(x) - tb_sig_men(y);
    if (d)
        return d;
    d = tb_sig_pawns(x) - tb_sig_pawns(y);
    if (d)
        return d;
    uint64_t kx = (uint64_t)side_key(x, 0) << 32 | side_key(x, 1);
    uint64_t ky = (uint64_t)side_key(y, 0) << 32 | side_key(y, 1);
    return kx < ky ? -1 : kx > ky;
}

int tb_sig_list(int max_men, TbSig *out, int cap)
{
    int extra = max_men - 2, n = 0;
    if (extra < 0)
        return 0;
    /* Every count vector of one side with at most `extra` men. */
    uint8_t sides[512][TB_NKINDS];
    int nsides = 0;
    int c[TB_NKINDS];
    for (c[0] = 0; c[0] <= extra; c[0]++)
        for (c[1] = 0; c[0] + c[1] <= extra; c[1]++)
            for (c[2] = 0; c[0] + c[1] + c[2] <= extra; c[2]++)
                for (c[3] = 0; c[0] + c[1] + c[2] + c[3] <= extra; c[3]++)
                    for (c[4] = 0; c[0] + c[1] + c[2] + c[3] + c[4] <= extra; c[4]++)
                        if (nsides < 512) {
                            for (int k = 0; k < TB_NKINDS; k++)
                                sides[nsides][k] = (uint8_t)c[k];
                            nsides++;
                        }
    for (int a = 0; a < nsides; a++)
        for (int b = 0; b < nsides; b++) {
            TbSig s;
            memcpy(s.n[0], sides[a], TB_NKINDS);
            memcpy(s.n[1], sides[b], TB_NKINDS);
            if (tb_sig_men(&s) <= max_men && tb_sig_canonical(&s) && n < cap)
                out[n++] = s;
        }
    qsort(out, (size_t)n, sizeof *out, compare_sig);
    return n;
}

/* ---- layouts ---- */

void tb_layout_init(TbLayout *L, const TbSig *sig)
{
    const TbGeo *G = tb_geo();
    memset(L, 0, sizeof *L);
    L->sig = *sig;
    tb_sig_name(sig, L->name);
    L->men = tb_sig_men(sig);
    L->pawns = tb_sig_pawns(sig) > 0;
    L->nsym = L->pawns ? 2 : 4;
    L->kkset = L->pawns ? 0 : 1;
    L->slot_colour[0] = WHITE;
    L->slot_colour[1] = BLACK;
    L->slot_kind[0] = L->slot_kind[1] = -1;
    L->slot_group[0] = L->slot_group[1] = -1;
    int slot = 2;
    L->rest = 1;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_NKINDS; k++) {
            L->group_of[c][k] = -1;
            if (!sig->n[c][k])
                continue;
            TbGroup *g = &L->g[L->ngroups];
            g->colour = c;
            g->kind = k;
            g->k = sig->n[c][k];
            g->first_slot = slot;
            g->dsize = k == TBK_P ? G->npstate[c] : TB_NCELLS;
            g->size = G->binom[g->dsize][g->k];
            for (int i = 0; i < g->k; i++, slot++) {
                L->slot_colour[slot] = (int8_t)c;
                L->slot_kind[slot] = (int8_t)k;
                L->slot_group[slot] = (int8_t)L->ngroups;
            }
            L->group_of[c][k] = L->ngroups++;
            L->rest *= g->size;
        }
    L->nslots = slot;
    L->per_side = (uint64_t)G->nkk[L->kkset] * L->rest;
}

void tb_slot_info(const TbLayout *L, int slot, int *colour, int *kind)
{
    *colour = L->slot_colour[slot];
    *kind = L->slot_kind[slot];
}

int tb_slot_cell(const TbLayout *L, const TbPos *p, int slot)
{
    return L->slot_kind[slot] == TBK_P ? tb_geo()->pstate_cell[L->slot_colour[slot]][p->s[slot]] : p->s[slot];
}

static inline void sort_small(uint8_t *a, int n)
{
    for (int i = 1; i < n; i++) {
        uint8_t x = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > x) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = x;
    }
}

static inline uint64_t pos_key(const TbLayout *L, const TbPos *p)
{
    uint64_t k = 0;
    for (int i = 0; i < L->nslots; i++)
        k = k << 6 | p->s[i];
    return k;
}

static inline uint8_t xf_state(const TbGeo *G, int t, int colour, int kind, uint8_t s)
{
    if (kind != TBK_P)
        return G->xf[t][s];
    return (uint8_t)G->pstate_of[colour][G->xf[t][G->pstate_cell[colour][s]]][G->pstate_limp[colour][s]];
}

int tb_canon(const TbLayout *L, TbPos *p)
{
    const TbGeo *G = tb_geo();
    uint64_t used = 0;
    for (int i = 0; i < L->nslots; i++) {
        int c = tb_slot_cell(L, p, i);
        if (used >> c & 1)
            return 0;
        used |= 1ull << c;
    }
    for (int gi = 0; gi < L->ngroups; gi++)
        sort_small(p->s + L->g[gi].first_slot, L->g[gi].k);
    /* The key's top part is the king pair: only the symmetries that bring the kings to their
     * least pair need the whole key. */
    int kmin = p->s[0] * 64 + p->s[1], tie[XF_N], nt = 0;
    tie[nt++] = XF_ID;
    for (int t = 1; t < L->nsym; t++) {
        int k = G->xf[t][p->s[0]] * 64 + G->xf[t][p->s[1]];
        if (k < kmin) {
            kmin = k;
            nt = 0;
        }
        if (k == kmin)
            tie[nt++] = t;
    }
    if (nt == 1 && tie[0] == XF_ID)
        return 1;
    TbPos best;
    uint64_t best_key = UINT64_MAX;
    int stab = 0;
    for (int j = 0; j < nt; j++) {
        int t = tie[j];
        TbPos q;
        q.side = p->side;
        for (int i = 0; i < L->nslots; i++)
            q.s[i] = xf_state(G, t, L->slot_colour[i], L->slot_kind[i], p->s[i]);
        for (int gi = 0; gi < L->ngroups; gi++)
            sort_small(q.s + L->g[gi].first_slot, L->g[gi].k);
        uint64_t k = pos_key(L, &q);
        if (k < best_key) {
            best_key = k;
            best = q;
            stab = 1;
        } else if (k == best_key) {
            stab++;
        }
    }
    *p = best;
    return stab;
}

uint64_t tb_index(const TbLayout *L, const TbPos *p)
{
    const TbGeo *G = tb_geo();
    int kk = G->kkidx[L->kkset][p->s[0]][p->s[1]];
    if (kk < 0)
        return UINT64_MAX;
    uint64_t idx = (uint64_t)kk;
    for (int gi = 0; gi < L->ngroups; gi++) {
        const TbGroup *g = &L->g[gi];
        uint64_t r = 0;
        for (int i = 0; i < g->k; i++)
            r += G->binom[p->s[g->first_slot + i]][i + 1];
        idx = idx * g->size + r;
    }
    return idx;
}

bool tb_entry_position(const TbLayout *L, int side, uint64_t idx, TbPos *p, Position *pos)
{
    if (!tb_unindex(L, idx, p))
        return false;
    p->side = side;
    tb_to_position(L, p, pos);
    return true;
}

bool tb_unindex(const TbLayout *L, uint64_t idx, TbPos *p)
{
    const TbGeo *G = tb_geo();
    for (int gi = L->ngroups - 1; gi >= 0; gi--) {
        const TbGroup *g = &L->g[gi];
        uint64_t r = idx % g->size;
        idx /= g->size;
        int s = g->dsize - 1;
        for (int i = g->k - 1; i >= 0; i--) {
            while (G->binom[s][i + 1] > r)
                s--;
            p->s[g->first_slot + i] = (uint8_t)s;
            r -= G->binom[s][i + 1];
            s--;
        }
    }
    if (idx >= (uint64_t)G->nkk[L->kkset])
        return false;
    p->s[0] = G->kklist[L->kkset][idx][0];
    p->s[1] = G->kklist[L->kkset][idx][1];
    TbPos q = *p;
    if (!tb_canon(L, &q))
        return false;
    return pos_key(L, &q) == pos_key(L, p);
}

void tb_to_position(const TbLayout *L, const TbPos *p, Position *pos)
{
    const TbGeo *G = tb_geo();
    pos_clear(pos, G->v);
    for (int i = 0; i < L->nslots; i++) {
        int colour = L->slot_colour[i], kind = L->slot_kind[i];
        int type = kind < 0 ? G->king_type : G->type_of_kind[kind];
        int cell = tb_slot_cell(L, p, i);
        pos_put(pos, MAKE_PIECE(colour, type), (Cell)cell);
        if (kind == TBK_P && G->pstate_limp[colour][p->s[i]])
            pos->limping[cell] = true;
    }
    pos->side = p->side;
    pos->key = pos_compute_key(pos);
}

/* Collects the men of pos into slots, in the orientation given (flip: colours swapped and the
 * board turned top to bottom). */
static void fill_slots(const TbSig *sig, const Position *pos, bool flip, TbPos *p)
{
    const TbGeo *G = tb_geo();
    int next[2][TB_NKINDS];
    int slot = 2;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < TB_NKINDS; k++) {
            next[c][k] = slot;
            slot += sig->n[c][k];
        }
    for (int side = 0; side < 2; side++)
        CELLSET_EACH(cell, &pos->by_side[side]) {
            uint8_t code = pos->board[cell];
            int colour = PIECE_COLOUR(code) ^ flip;
            int cl = flip ? G->xf[XF_TB][cell] : cell;
            int kind = G->kind_of_type[PIECE_TYPE(code)];
            if (kind < 0) {
                p->s[colour] = (uint8_t)cl;
            } else if (kind == TBK_P) {
                int st = G->pstate_of[colour][cl][pos->limping[cell] ? 1 : 0];
                if (st < 0)
                    st = G->pstate_of[colour][cl][0];
                p->s[next[colour][kind]++] = (uint8_t)st;
            } else {
                p->s[next[colour][kind]++] = (uint8_t)cl;
            }
        }
    p->side = pos->side ^ flip;
}

bool tb_encode(const Position *pos, TbSig *sig, TbPos *p, bool *flipped)
{
    const TbGeo *G = tb_geo();
    if (pos->pcount[0] + pos->pcount[1] > TB_MAX_MEN || pos->royal[0] == NO_CELL || pos->royal[1] == NO_CELL)
        return false;
    TbSig s;
    memset(&s, 0, sizeof s);
    int kings = 0;
    for (int side = 0; side < 2; side++)
        CELLSET_EACH(cell, &pos->by_side[side]) {
            uint8_t code = pos->board[cell];
            int kind = G->kind_of_type[PIECE_TYPE(code)];
            if (kind < 0)
                kings++;
            else
                s.n[PIECE_COLOUR(code)][kind]++;
        }
    if (kings != 2)
        return false;
    bool flip = !tb_sig_canonical(&s);
    if (flip)
        s = tb_sig_flip(&s);
    fill_slots(&s, pos, flip, p);
    *sig = s;
    if (flipped)
        *flipped = flip;
    return true;
}

void tb_encode_in(const TbLayout *L, const Position *pos, TbPos *p)
{
    fill_slots(&L->sig, pos, false, p);
}
