/* Tablebase internals: signatures, the index, table files, the generator. */
#ifndef STARFISH_TB_INTERNAL_H
#define STARFISH_TB_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "../core/fen.h"
#include "../core/movegen.h"
#include "../util/clock.h"
#include "../variants/registry.h"
#include "tb.h"

#define TB_NCELLS 37
#define TB_MAX_SLOTS TB_MAX_MEN
#define TB_MAX_PSTATES 64

/* Non-royal kinds, in the order signatures list them. */
enum { TBK_Q, TBK_R, TBK_B, TBK_N, TBK_P, TB_NKINDS };
extern const char tb_kind_letter[TB_NKINDS]; /* "QRBNP" */

/* The board's symmetries, as cell maps: identity, left-right, top-bottom, half turn. */
enum { XF_ID, XF_LR, XF_TB, XF_ROT, XF_N };

typedef struct TbGeo {
    const Variant *v;
    int type_of_kind[TB_NKINDS], king_type;
    int kind_of_type[MAX_TYPES]; /* -1: the king or nothing */
    uint8_t xf[XF_N][TB_NCELLS];
    /* Pawn states per colour: each cell a pawn of that colour can stand on, then each start
     * cell again for a limping pawn there. */
    int npstate[2];
    uint8_t pstate_cell[2][TB_MAX_PSTATES];
    bool pstate_limp[2][TB_MAX_PSTATES];
    int8_t pstate_of[2][TB_NCELLS][2]; /* [colour][cell][limping] -> state or -1 */
    bool start[2][TB_NCELLS], can_stand[2][TB_NCELLS];
    /* King pairs (white, black) that are the least of their class under the symmetries:
     * set 0 for tables with pawns (left-right only), set 1 for pawnless tables (all four). */
    int nkk[2];
    int16_t kkidx[2][TB_NCELLS][TB_NCELLS];
    uint8_t kklist[2][TB_NCELLS * TB_NCELLS][2];
    bool adjacent[TB_NCELLS][TB_NCELLS];
    uint64_t binom[TB_MAX_PSTATES + 1][TB_MAX_SLOTS + 1];
} TbGeo;

const TbGeo *tb_geo(void);

/* A material signature: counts of each kind per colour, kings implied. */
typedef struct TbSig {
    uint8_t n[2][TB_NKINDS];
} TbSig;

int tb_sig_men(const TbSig *s);
int tb_sig_pawns(const TbSig *s);
bool tb_sig_equal(const TbSig *a, const TbSig *b);
/* The stored orientation: White's material is the larger (see docs/tablebases.md). */
bool tb_sig_canonical(const TbSig *s);
TbSig tb_sig_flip(const TbSig *s);
void tb_sig_name(const TbSig *s, char *buf); /* at least 32 bytes */
bool tb_sig_parse(const char *text, TbSig *s);
uint32_t tb_sig_code(const TbSig *s);
/* Every canonical signature with at most max_men men, in generation (dependency) order. */
int tb_sig_list(int max_men, TbSig *out, int cap);

/* A group of identical men (same colour and kind) and its part of the index. */
typedef struct TbGroup {
    int colour, kind, k, first_slot;
    int dsize;     /* states one man may take: 37 cells, or the pawn states */
    uint64_t size; /* C(dsize, k) */
} TbGroup;

typedef struct TbLayout {
    TbSig sig;
    char name[32];
    int men, nslots, ngroups;
    bool pawns;
    int nsym;  /* symmetries used: 2 (left-right) with pawns, 4 without */
    int kkset; /* 0 or 1: which king-pair set */
    TbGroup g[TB_MAX_SLOTS];
    int group_of[2][TB_NKINDS];
    /* Per slot: colour, kind (-1: king), group (-1: king). */
    int8_t slot_colour[TB_MAX_SLOTS], slot_kind[TB_MAX_SLOTS], slot_group[TB_MAX_SLOTS];
    uint64_t rest, per_side; /* per side to move: nkk * rest entries */
} TbLayout;

/* A position of a table: the side to move and each slot's state, slots 0 and 1 the kings'
 * cells, then each group's states in increasing order. */
typedef struct TbPos {
    int side;
    uint8_t s[TB_MAX_SLOTS];
} TbPos;

void tb_layout_init(TbLayout *L, const TbSig *sig);
/* Per slot: colour and kind (-1 for a king). */
void tb_slot_info(const TbLayout *L, int slot, int *colour, int *kind);
/* The cell of a slot. */
int tb_slot_cell(const TbLayout *L, const TbPos *p, int slot);
/* Brings p to its class's representative (the least key over the symmetries); returns the
 * number of symmetries that fix p (its stabiliser), or 0 if men overlap. */
int tb_canon(const TbLayout *L, TbPos *p);
/* Index of a canonical position (within its side), or UINT64_MAX when the kings are adjacent. */
uint64_t tb_index(const TbLayout *L, const TbPos *p);
/* The position at an index: false when it is no canonical position of distinct cells. */
bool tb_unindex(const TbLayout *L, uint64_t idx, TbPos *p);
/* Sets up a core position. */
void tb_to_position(const TbLayout *L, const TbPos *p, Position *pos);
/* The position of an entry (side to move, index): false (pos untouched) when the index
 * names no position. */
bool tb_entry_position(const TbLayout *L, int side, uint64_t idx, TbPos *p, Position *pos);
/*
 * Reads a core position's material and men: sig is the stored orientation, and p the position
 * in it (colours swapped and the board turned top to bottom when the material was the other
 * way round; *flipped says so).  p is not canonicalised.  False for more than TB_MAX_MEN men.
 */
bool tb_encode(const Position *pos, TbSig *sig, TbPos *p, bool *flipped);
/* tb_encode for a position known to be of layout L (same orientation). */
void tb_encode_in(const TbLayout *L, const Position *pos, TbPos *p);

/* Stored values, decoded: a distance to mate >= 0 (odd: the side to move wins), or: */
enum { TBV_DRAW = -1, TBV_DEAD = -2, TBV_INVALID = -3 };

/* A table in memory (loaded from a file, or just generated). */
typedef struct TbTable {
    TbLayout L;
    int wdtm, wdtz; /* bytes per entry: 1 or 2 */
    int max_dtm, max_dtz;
    uint8_t *payload;
    uint64_t payload_size;
    uint8_t *dtm[2], *dtz[2];
} TbTable;

int tb_table_value(const TbTable *t, int side, uint64_t idx);
int tb_table_dtz(const TbTable *t, int side, uint64_t idx);
/* Calls fn for every valid entry of a table, with its side, index, value and core position. */
typedef void (*TbEntryFn)(const TbTable *t, int side, uint64_t idx, int value, Position *pos, void *ctx);
void tb_each_entry(const TbTable *t, TbEntryFn fn, void *ctx);

/* Files. */
uint32_t tb_crc32(uint32_t crc, const void *data, size_t n);
void tb_file_name(const char *dir, const TbSig *sig, char *buf, size_t len);
bool tb_write_table(const char *path, const TbTable *t, char *err, size_t errlen);
/* Reads and checks a table file (header, sizes, checksums); the table owns its payload. */
bool tb_read_table(const char *path, const TbSig *expect, TbTable *t, char *err, size_t errlen);
void tb_table_free(TbTable *t);

/* The table registry the probes use (and the generator fills). */
const TbTable *tb_get_table(const TbSig *sig);
/* Adds a table the generator built (the registry takes it over). */
void tb_registry_add(TbTable *t);
/* Frees the loaded tables that keep() rejects (the generator's memory bound). */
void tb_registry_evict(bool (*keep)(const TbSig *sig, void *ctx), void *ctx);
const char *tb_get_dir(void);
void tb_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The last error was a rejected file, already reported on stderr. */
bool tb_last_error_printed(void);

/*
 * Value of a core position by the tables: TBV_* or a distance to mate; *dtz too if not NULL.
 */
int tb_probe_value(const Position *pos, int *dtz, bool *ok);

/* The generator. */
typedef struct TbGenOptions {
    int max_men;
    int threads;
    const char *dir;
    const char *only; /* one signature (and what it needs), or NULL */
    bool force;       /* rebuild tables whose files exist */
    bool quiet;
} TbGenOptions;
int tb_generate(const TbGenOptions *o);

/* Verification against the rules core (tb_verify.c). */
typedef bool (*TbEntryCheck)(const TbTable *t, int side, uint64_t idx, char *err, size_t errlen);
/* A stored value against the rules core and the successors' values. */
bool tb_verify_entry(const TbTable *t, int side, uint64_t idx, char *err, size_t errlen);
/* The compiled derived data (tb_derived_dead, tb_derived_fifty_exception) against an entry. */
bool tb_verify_derived_entry(const TbTable *t, int side, uint64_t idx, char *err, size_t errlen);
/* Runs check on `sample` entries drawn at random (every entry if sample is 0 or covers the
 * table) with T threads; returns the failures (the first ten are printed). */
int tb_check_table(const TbTable *t, TbEntryCheck check, uint64_t sample, uint64_t seed, int threads);

/* Per-signature statistics (tb_stats.c). */
typedef struct TbStats {
    uint64_t entries, valid[2];                 /* canonical entries */
    uint64_t positions[2];                      /* positions, symmetric images counted */
    uint64_t win[2], draw[2], dead[2], loss[2]; /* positions, by the side to move's result */
    uint64_t stalemate[2];                      /* of the dead draws */
    int longest_win[2];                         /* plies, over wins */
    int longest_dtz[2];                         /* plies, over wins and losses */
} TbStats;
void tb_table_stats(const TbTable *t, TbStats *st);

/* Runs fn(arg) on `threads` threads (this one and threads - 1 new ones, at most 16) and
 * waits for them all. */
void tb_parallel(int threads, void *(*fn)(void *), void *arg);

/* Memory (time: clock_seconds() of util/clock.h). */
long tb_peak_rss_kb(void);

#endif
