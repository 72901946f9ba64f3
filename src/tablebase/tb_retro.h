/*
 * The retrograde analysis of one table (tb_retro.c), for the generator (tb_gen.c): its working
 * state and the coding of its working values.
 */
#ifndef STARFISH_TABLEBASE_TB_RETRO_H
#define STARFISH_TABLEBASE_TB_RETRO_H

#include <pthread.h>
#include <stdatomic.h>

#include "tb_internal.h"

/* Working values. */
#define V_UNKNOWN 0
#define V_INVALID 0xFFFF
#define V_DEADV 0xFFFE
/* Decided: the distance + 1, with LOSSBIT for a loss of the side to move.  In the DTM pass
 * the parity of the distance says the same; DTZ distances have no such parity. */
#define LOSSBIT 0x4000
#define WIN(d) ((uint16_t)((d) + 1))
#define LOSS(d) ((uint16_t)(((d) + 1) | LOSSBIT))
#define TENT(e) ((uint16_t)(0x8000 | (e))) /* a win through an exit, pending until its level */
#define IS_DEC(v) ((v) != 0 && (v) < 0x8000)
#define IS_LOSS(v) (IS_DEC(v) && ((v)&LOSSBIT))
#define DIST(v) ((int)((v)&0x3FFF) - 1)
#define NOLOSS 0x8000
#define MAX_DIST 0x3FF0

enum { PASS_DTM, PASS_DTZ };
enum { SCAN_ALL, SCAN_LEVEL, SCAN_ALIVE };

typedef struct Sub {
    TbSig sig;
    const TbTable *t;
} Sub;

typedef struct Gen {
    const TbLayout *L;
    int threads;
    bool quiet;
    uint64_t n; /* entries per side */
    int pass;
    int scan; /* which entries par_for visits */
    uint16_t *val[2], *cnt[2], *aux[2];
    uint16_t *fdtm[2]; /* the DTM pass's result (V_INVALID, V_DEADV, 0 draw, WIN/LOSS) */
    uint8_t *alive[2];
    Sub subs[96];
    int nsubs;
    atomic_int maxdist;
    int level;
    atomic_int failed;
    /* parallel loops */
    pthread_t main_thread; /* the one that reports progress */
    atomic_ullong next_chunk;
    atomic_ullong done;
    uint64_t nchunks;
    void (*fn)(struct Gen *g, int side, uint64_t idx, Position *scratch, void *ctx);
    void *ctx;
    const char *phase;
    double t_start, t_print;
    atomic_ullong found; /* per-loop counter of changes */
} Gen;

/* The DTM pass (g->pass PASS_DTM) or the DTZ pass (PASS_DTZ, after the DTM pass's result is in
 * g->fdtm): g->val holds the values, g->failed says whether it failed (a message written). */
void retro_solve(Gen *g);
/* After the DTM pass: the draws from which no mate can be reached become V_DEADV in g->fdtm
 * (g->alive is working memory). */
void retro_find_dead(Gen *g);

#endif
