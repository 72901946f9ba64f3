/*
 * The generator: the tables a signature needs, in dependency order (a capture leads to a table
 * with fewer men, a promotion to one with fewer pawns), each built by the retrograde analysis
 * of tb_retro.c and written; on several ranks, a table is a task of the farm (cluster/farm.h).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../cluster/farm.h"
#include "../cluster/ranks.h"
#include "tb_retro.h"

/* ---- subtables ---- */

static void add_sub(Gen *g, TbSig s)
{
    if (!tb_sig_canonical(&s))
        s = tb_sig_flip(&s);
    if (tb_sig_equal(&s, &g->L->sig))
        return;
    for (int i = 0; i < g->nsubs; i++)
        if (tb_sig_equal(&g->subs[i].sig, &s))
            return;
    if (g->nsubs < 96) {
        g->subs[g->nsubs].sig = s;
        g->subs[g->nsubs].t = NULL;
        g->nsubs++;
    }
}

/* The signatures a move can lead to: one man captured, one pawn promoted, or both. */
static void list_children(const TbSig *sig, TbSig *out, int *n, int cap)
{
    *n = 0;
    for (int c = 0; c < 2; c++) {
        for (int k = 0; k < TB_NKINDS; k++) {
            if (!sig->n[c ^ 1][k])
                continue;
            TbSig s = *sig; /* side c captures a man of kind k */
            s.n[c ^ 1][k]--;
            if (*n < cap)
                out[(*n)++] = s;
            if (s.n[c][TBK_P])
                for (int pk = 0; pk < TBK_P; pk++) {
                    TbSig t = s;
                    t.n[c][TBK_P]--;
                    t.n[c][pk]++;
                    if (*n < cap)
                        out[(*n)++] = t;
                }
        }
        if (sig->n[c][TBK_P])
            for (int pk = 0; pk < TBK_P; pk++) {
                TbSig t = *sig;
                t.n[c][TBK_P]--;
                t.n[c][pk]++;
                if (*n < cap)
                    out[(*n)++] = t;
            }
    }
    for (int i = 0; i < *n; i++)
        if (!tb_sig_canonical(&out[i]))
            out[i] = tb_sig_flip(&out[i]);
}

/* ---- one table ---- */

static TbTable *build_table(const TbSig *sig, const TbGenOptions *o, double *seconds)
{
    double t0 = clock_seconds();
    TbLayout *L = malloc(sizeof *L);
    tb_layout_init(L, sig);
    Gen *g = calloc(1, sizeof *g);
    g->L = L;
    g->threads = o->threads < 1 ? 1 : o->threads;
    g->quiet = o->quiet;
    g->n = L->per_side;
    TbSig ch[128];
    int nch;
    list_children(sig, ch, &nch, 128);
    for (int i = 0; i < nch; i++)
        add_sub(g, ch[i]);
    for (int i = 0; i < g->nsubs; i++) {
        g->subs[i].t = tb_get_table(&g->subs[i].sig);
        if (!g->subs[i].t) {
            char name[32];
            tb_sig_name(&g->subs[i].sig, name);
            fprintf(stderr, "tablebase: %s needs %s: %s\n", L->name, name, tb_last_error());
            free(g);
            free(L);
            return NULL;
        }
    }
    bool oom = false;
    for (int s = 0; s < 2; s++) {
        g->val[s] = malloc(g->n * sizeof(uint16_t) + 1);
        g->cnt[s] = malloc(g->n * sizeof(uint16_t) + 1);
        g->aux[s] = malloc(g->n * sizeof(uint16_t) + 1);
        g->fdtm[s] = malloc(g->n * sizeof(uint16_t) + 1);
        oom |= !g->val[s] || !g->cnt[s] || !g->aux[s] || !g->fdtm[s];
    }
    TbTable *t = NULL;
    if (oom) {
        fprintf(stderr, "tablebase: %s: out of memory\n", L->name);
        goto done;
    }
    /* DTM */
    g->pass = PASS_DTM;
    atomic_store(&g->maxdist, 0);
    retro_solve(g);
    if (atomic_load(&g->failed))
        goto done;
    for (int s = 0; s < 2; s++)
        for (uint64_t i = 0; i < g->n; i++) {
            uint16_t v = g->val[s][i];
            if ((v & 0x8000) && v != V_INVALID) {
                fprintf(stderr, "\ntablebase: %s: an exit win was never settled\n", L->name);
                atomic_store(&g->failed, 1);
                goto done;
            }
            g->fdtm[s][i] = v;
        }
    /* Dead draws (the move counters' memory is reused). */
    for (int s = 0; s < 2; s++)
        g->alive[s] = (uint8_t *)g->cnt[s];
    retro_find_dead(g);
    if (atomic_load(&g->failed))
        goto done;
    /* DTZ */
    g->pass = PASS_DTZ;
    atomic_store(&g->maxdist, 0);
    retro_solve(g);
    if (atomic_load(&g->failed))
        goto done;
    /* The table. */
    t = calloc(1, sizeof *t);
    t->L = *L;
    int max_dtm = 0, max_dtz = 0;
    for (int s = 0; s < 2; s++)
        for (uint64_t i = 0; i < g->n; i++) {
            uint16_t f = g->fdtm[s][i], z = g->val[s][i];
            bool fdec = IS_DEC(f), zdec = IS_DEC(z);
            if (fdec != zdec || (fdec && IS_LOSS(f) != IS_LOSS(z)) || (f == V_INVALID) != (z == V_INVALID) ||
                (fdec && (DIST(f) % 2 == 0) != IS_LOSS(f))) {
                TbPos p;
                Position pos;
                char fen[FEN_MAX] = "?";
                if (tb_unindex(L, i, &p)) {
                    p.side = s;
                    tb_to_position(L, &p, &pos);
                    pos_fen(&pos, fen, sizeof fen);
                }
                fprintf(stderr,
                        "\ntablebase: %s: the DTZ pass disagrees with the DTM pass (side %d, entry %llu, %s: "
                        "DTM code %u, DTZ code %u)\n",
                        L->name, s, (unsigned long long)i, fen, f, z);
                atomic_store(&g->failed, 1);
                free(t);
                t = NULL;
                goto done;
            }
            if (fdec) {
                if (DIST(f) > max_dtm)
                    max_dtm = DIST(f);
                if (DIST(z) > max_dtz)
                    max_dtz = DIST(z);
            }
        }
    t->max_dtm = max_dtm;
    t->max_dtz = max_dtz;
    t->wdtm = max_dtm + 1 <= 253 ? 1 : 2;
    t->wdtz = max_dtz <= 255 ? 1 : 2;
    t->payload_size = 2 * g->n * (uint64_t)(t->wdtm + t->wdtz);
    t->payload = malloc(t->payload_size ? t->payload_size : 1);
    {
        uint64_t n = g->n;
        uint8_t *dtm[2] = {t->payload, t->payload + n * (uint64_t)t->wdtm};
        uint8_t *dtz[2] = {t->payload + 2 * n * (uint64_t)t->wdtm, NULL};
        dtz[1] = dtz[0] + n * (uint64_t)t->wdtz;
        unsigned top = t->wdtm == 1 ? 255 : 65535;
        for (int s = 0; s < 2; s++) {
            t->dtm[s] = dtm[s];
            t->dtz[s] = dtz[s];
            for (uint64_t i = 0; i < n; i++) {
                uint16_t f = g->fdtm[s][i], z = g->val[s][i];
                unsigned e = f == V_INVALID ? top : f == V_DEADV ? top - 1 : IS_DEC(f) ? (unsigned)DIST(f) + 1 : 0;
                unsigned zz = IS_DEC(f) ? (unsigned)DIST(z) : 0;
                if (t->wdtm == 1) {
                    dtm[s][i] = (uint8_t)e;
                } else {
                    dtm[s][2 * i] = (uint8_t)e;
                    dtm[s][2 * i + 1] = (uint8_t)(e >> 8);
                }
                if (t->wdtz == 1) {
                    dtz[s][i] = (uint8_t)zz;
                } else {
                    dtz[s][2 * i] = (uint8_t)zz;
                    dtz[s][2 * i + 1] = (uint8_t)(zz >> 8);
                }
            }
        }
    }
done:
    for (int s = 0; s < 2; s++) {
        free(g->val[s]);
        free(g->cnt[s]);
        free(g->aux[s]);
        free(g->fdtm[s]);
    }
    free(g);
    free(L);
    *seconds = clock_seconds() - t0;
    return t;
}

/* ---- the driver ---- */

static int sig_order(const TbSig *a, const TbSig *list, int n)
{
    for (int i = 0; i < n; i++)
        if (tb_sig_equal(a, &list[i]))
            return i;
    return -1;
}

/* The signatures `only` needs, itself last, in generation order. */
static int closure(const TbSig *only, TbSig *out, int cap)
{
    TbSig all[4096];
    int nall = tb_sig_list(tb_sig_men(only), all, 4096);
    bool need[4096] = {false};
    int at = sig_order(only, all, nall);
    if (at < 0)
        return 0;
    need[at] = true;
    for (int i = nall - 1; i >= 0; i--) {
        if (!need[i])
            continue;
        TbSig ch[128];
        int nch;
        list_children(&all[i], ch, &nch, 128);
        for (int k = 0; k < nch; k++) {
            int j = sig_order(&ch[k], all, nall);
            if (j >= 0)
                need[j] = true;
        }
    }
    int n = 0;
    for (int i = 0; i < nall; i++)
        if (need[i] && n < cap)
            out[n++] = all[i];
    return n;
}

typedef struct {
    const TbSig *list;
    int from, n;
} KeepCtx;

/* Is a table still needed: one of the signatures still to build, or a child of one? */
static bool still_needed(const TbSig *sig, void *arg)
{
    const KeepCtx *k = arg;
    for (int j = k->from; j < k->n; j++) {
        if (tb_sig_equal(sig, &k->list[j]))
            return true;
        TbSig ch[128];
        int nch;
        list_children(&k->list[j], ch, &nch, 128);
        for (int c = 0; c < nch; c++)
            if (tb_sig_equal(sig, &ch[c]))
                return true;
    }
    return false;
}

/* ---- the tables on the ranks (cluster/farm.h): a table is a task ---- */

typedef struct {
    const TbGenOptions *o;
    TbGenOptions build;  /* o, with the progress lines off when several ranks would mix them */
    TbSig list[4096];    /* generation order: every table after the tables it converts into */
    int n;
    int ranks;
    /* rank 0 */
    char state[4096];    /* per table: TABLE_WAITING, TABLE_GIVEN, TABLE_DONE */
    int status;          /* the exit status: the first failure's */
    int built;
    uint64_t total_bytes, total_entries;
} GenRun;

enum { TABLE_WAITING, TABLE_GIVEN, TABLE_DONE };

/* What a rank says of one table. */
typedef struct {
    int status; /* 0, or the exit status of a failure (said on the rank's stderr) */
    bool built; /* false: its file was there and was kept */
    uint64_t bytes, entries;
    char line[300]; /* for the output ("" when quiet) */
} TableResult;

/* Rank 0: may table i be built: is every table it converts into that is in the list done? */
static bool table_ready(const GenRun *run, int i)
{
    TbSig ch[128];
    int nch;
    list_children(&run->list[i], ch, &nch, 128);
    for (int k = 0; k < nch; k++) {
        int j = sig_order(&ch[k], run->list, run->n);
        if (j >= 0 && run->state[j] != TABLE_DONE)
            return false;
    }
    return true;
}

/* Rank 0: the first table of the list, not given yet, that may be built. */
static int pick_table(void *ctx, int rank)
{
    (void)rank;
    GenRun *run = ctx;
    bool waiting = false;
    for (int i = 0; i < run->n; i++) {
        if (run->state[i] != TABLE_WAITING)
            continue;
        if (table_ready(run, i)) {
            run->state[i] = TABLE_GIVEN;
            return i;
        }
        waiting = true;
    }
    return waiting ? FARM_WAIT : FARM_NONE;
}

/* Builds table i and writes its file, unless a good file is there (the table named by --only
 * is always built); r says how it went. */
static void make_table(GenRun *run, int i, TableResult *r)
{
    const TbGenOptions *o = run->o;
    char name[32], path[4200], err[512];
    memset(r, 0, sizeof *r);
    tb_sig_name(&run->list[i], name);
    tb_file_name(o->dir, &run->list[i], path, sizeof path);
    bool last = i == run->n - 1;
    if (!o->force && !(o->only && last)) {
        FILE *f = fopen(path, "rb");
        if (f) {
            fclose(f);
            if (tb_get_table(&run->list[i])) {
                if (!o->quiet)
                    snprintf(r->line, sizeof r->line, "%-10s present (%.250s)", name, path);
                return;
            }
        }
    }
    double secs;
    TbTable *t = build_table(&run->list[i], &run->build, &secs);
    if (!run->build.quiet)
        fprintf(stderr, "\r%*s\r", 78, "");
    if (!t) {
        fprintf(stderr, "starfish: building %s failed\n", name);
        r->status = 1;
        return;
    }
    if (!tb_write_table(path, t, err, sizeof err)) {
        fprintf(stderr, "starfish: %s\n", err);
        tb_table_free(t);
        free(t);
        r->status = 1;
        return;
    }
    r->built = true;
    r->bytes = t->payload_size + 96;
    r->entries = 2 * t->L.per_side;
    if (!o->quiet) {
        int n = snprintf(r->line, sizeof r->line,
                         "%-10s %11llu entries  max DTM %3d  max DTZ %3d  %8.2f s  %6.2f M entries/s  %9llu bytes  "
                         "peak %ld MB",
                         name, (unsigned long long)r->entries, t->max_dtm, t->max_dtz, secs,
                         secs > 0 ? (double)r->entries / secs / 1e6 : 0.0, (unsigned long long)r->bytes,
                         tb_peak_rss_kb() / 1024);
        if (run->ranks > 1 && n > 0 && (size_t)n < sizeof r->line)
            snprintf(r->line + n, sizeof r->line - (size_t)n, "  rank %d", ranks_rank());
    }
    tb_registry_add(t);
    KeepCtx keep = {run->list, i + 1, run->n};
    tb_registry_evict(still_needed, &keep);
}

/* A rank's one worker: tables until none is left (each table has threads of its own). */
static void make_tables(Farm *f, int worker, void *ctx)
{
    int i;
    while (farm_next(f, worker, &i)) {
        TableResult r;
        make_table(ctx, i, &r);
        farm_done(f, i, &r, sizeof r);
    }
}

/* Rank 0: a table done by some rank; a failure stops the generation. */
static void take_table(Farm *f, void *ctx, int rank, int i, const void *data, size_t len)
{
    (void)rank;
    GenRun *run = ctx;
    TableResult r;
    if (len != sizeof r)
        return;
    memcpy(&r, data, sizeof r);
    run->state[i] = TABLE_DONE;
    if (r.line[0]) {
        printf("%s\n", r.line);
        fflush(stdout);
    }
    run->built += r.built;
    run->total_bytes += r.bytes;
    run->total_entries += r.entries;
    if (r.status && !run->status) {
        run->status = r.status;
        farm_stop(f);
    }
}

int tb_generate(const TbGenOptions *o)
{
    static GenRun run;
    memset(&run, 0, sizeof run);
    run.o = o;
    run.build = *o;
    run.ranks = ranks_size();
    run.build.quiet = o->quiet || run.ranks > 1;
    TbSig *list = run.list;
    int n;
    if (o->only) {
        TbSig s;
        if (!tb_sig_parse(o->only, &s)) {
            fprintf(stderr, "starfish: bad signature '%s' (e.g. KQvKR)\n", o->only);
            return 2;
        }
        if (!tb_sig_canonical(&s))
            s = tb_sig_flip(&s);
        n = closure(&s, list, 4096);
    } else {
        n = tb_sig_list(o->max_men, list, 4096);
    }
    run.n = n;
    mkdir(o->dir, 0777);
    tb_set_dir(o->dir);
    double t0 = clock_seconds();
    FarmPlan plan = {.workers = 1, .work = make_tables, .pick = pick_table, .result = take_table, .ctx = &run};
    if (!farm_run(&plan)) {
        fprintf(stderr, "starfish: cannot start a thread\n");
        return 1;
    }
    if (!o->quiet && ranks_rank() == 0 && !run.status)
        printf("built %d table%s (%llu entries, %.1f MB) in %.2f s; peak memory %.1f MB\n", run.built,
               run.built == 1 ? "" : "s", (unsigned long long)run.total_entries, (double)run.total_bytes / 1e6,
               clock_seconds() - t0, (double)tb_peak_rss_kb() / 1024.0);
    return run.status;
}
