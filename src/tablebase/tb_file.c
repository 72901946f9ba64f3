/*
 * Table files, the registry of loaded tables, and the probe.
 *
 * File format (version 1, little-endian; docs/tablebases.md has the full description):
 *
 *   offset size  field
 *        0    8  magic "SFTBSTAR"
 *        8    4  version (1)
 *       12    4  header size (96)
 *       16   32  signature, e.g. "KQvKR", NUL-padded
 *       48    1  men (kings included)
 *       49    1  symmetries used (2: left-right; 4: also top-bottom and the half turn)
 *       50    1  bytes per DTM entry (1 or 2)
 *       51    1  bytes per DTZ entry (1 or 2)
 *       52    4  number of king pairs
 *       56    8  entries per side to move
 *       64    4  longest DTM stored (plies)
 *       68    4  longest DTZ stored (plies)
 *       72    8  payload size in bytes
 *       80    4  CRC-32 of the payload
 *       84    8  reserved (zero)
 *       92    4  CRC-32 of bytes 0..91
 *       96       payload: DTM with White to move, DTM with Black to move, DTZ White to move,
 *                DTZ Black to move; each `entries per side` entries.
 *
 * A DTM entry: 0 draw; dtm + 1 for a decided position (dtm odd: the side to move wins;
 * even: it loses, 0 = checkmated); the top value (255 or 65535) marks an invalid entry and
 * the one below it (254 or 65534) a dead draw.  A DTZ entry is the DTZ in plies (0 for draws).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>

#include "../util/bytes.h"
#include "tb_internal.h"

#define HEADER_SIZE 96
#define VERSION 1
static const char MAGIC[8] = {'S', 'F', 'T', 'B', 'S', 'T', 'A', 'R'};

void tb_parallel(int threads, void *(*fn)(void *), void *arg)
{
    pthread_t th[16];
    int started = 0;
    for (int i = 1; i < threads && started < 16; i++)
        if (pthread_create(&th[started], NULL, fn, arg) == 0)
            started++;
    fn(arg);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
}

long tb_peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* CRC-32 (IEEE 802.3), zlib's. */
uint32_t tb_crc32(uint32_t crc, const void *data, size_t n)
{
    return (uint32_t)crc32_z(crc, data, n);
}

/* ---- entries ---- */

int tb_table_value(const TbTable *t, int side, uint64_t idx)
{
    unsigned v, top;
    if (t->wdtm == 1) {
        v = t->dtm[side][idx];
        top = 255;
    } else {
        const uint8_t *p = t->dtm[side] + 2 * idx;
        v = p[0] | (unsigned)p[1] << 8;
        top = 65535;
    }
    if (v == 0)
        return TBV_DRAW;
    if (v == top)
        return TBV_INVALID;
    if (v == top - 1)
        return TBV_DEAD;
    return (int)v - 1;
}

int tb_table_dtz(const TbTable *t, int side, uint64_t idx)
{
    if (t->wdtz == 1)
        return t->dtz[side][idx];
    const uint8_t *p = t->dtz[side] + 2 * idx;
    return p[0] | p[1] << 8;
}

void tb_each_entry(const TbTable *t, TbEntryFn fn, void *ctx)
{
    for (int s = 0; s < 2; s++)
        for (uint64_t i = 0; i < t->L.per_side; i++) {
            int v = tb_table_value(t, s, i);
            if (v == TBV_INVALID)
                continue;
            TbPos p;
            Position pos;
            tb_entry_position(&t->L, s, i, &p, &pos);
            fn(t, s, i, v, &pos, ctx);
        }
}

/* ---- files ---- */

void tb_file_name(const char *dir, const TbSig *sig, char *buf, size_t len)
{
    char name[32];
    tb_sig_name(sig, name);
    snprintf(buf, len, "%s/%s.stb", dir, name);
}

static void make_header(const TbTable *t, uint8_t *h)
{
    memset(h, 0, HEADER_SIZE);
    memcpy(h, MAGIC, 8);
    le_put32(h + 8, VERSION);
    le_put32(h + 12, HEADER_SIZE);
    memcpy(h + 16, t->L.name, strlen(t->L.name));
    h[48] = (uint8_t)t->L.men;
    h[49] = (uint8_t)t->L.nsym;
    h[50] = (uint8_t)t->wdtm;
    h[51] = (uint8_t)t->wdtz;
    le_put32(h + 52, (uint32_t)tb_geo()->nkk[t->L.kkset]);
    le_put64(h + 56, t->L.per_side);
    le_put32(h + 64, (uint32_t)t->max_dtm);
    le_put32(h + 68, (uint32_t)t->max_dtz);
    le_put64(h + 72, t->payload_size);
    le_put32(h + 80, tb_crc32(0, t->payload, t->payload_size));
    le_put32(h + 92, tb_crc32(0, h, 92));
}

bool tb_write_table(const char *path, const TbTable *t, char *err, size_t errlen)
{
    uint8_t h[HEADER_SIZE];
    make_header(t, h);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        return false;
    }
    bool ok = fwrite(h, 1, HEADER_SIZE, f) == HEADER_SIZE &&
              fwrite(t->payload, 1, t->payload_size, f) == t->payload_size;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        remove(tmp);
        return false;
    }
    return true;
}

static void set_pointers(TbTable *t)
{
    uint64_t n = t->L.per_side;
    t->dtm[0] = t->payload;
    t->dtm[1] = t->payload + n * (uint64_t)t->wdtm;
    t->dtz[0] = t->payload + 2 * n * (uint64_t)t->wdtm;
    t->dtz[1] = t->dtz[0] + n * (uint64_t)t->wdtz;
}

bool tb_read_table(const char *path, const TbSig *expect, TbTable *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return false;
    }
    uint8_t h[HEADER_SIZE];
    size_t got = fread(h, 1, HEADER_SIZE, f);
    if (got < HEADER_SIZE) {
        snprintf(err, errlen, "%s: truncated file (%zu bytes, shorter than the %d-byte header)", path, got,
                 HEADER_SIZE);
        fclose(f);
        return false;
    }
    if (memcmp(h, MAGIC, 8) != 0) {
        snprintf(err, errlen, "%s: not a starfish Starchess tablebase file (bad magic)", path);
        fclose(f);
        return false;
    }
    if (le_get32(h + 8) != VERSION || le_get32(h + 12) != HEADER_SIZE) {
        snprintf(err, errlen, "%s: unsupported format version %u", path, le_get32(h + 8));
        fclose(f);
        return false;
    }
    if (tb_crc32(0, h, 92) != le_get32(h + 92)) {
        snprintf(err, errlen, "%s: header checksum mismatch (the file is corrupted)", path);
        fclose(f);
        return false;
    }
    char name[33];
    memcpy(name, h + 16, 32);
    name[32] = 0;
    TbSig sig;
    if (!tb_sig_parse(name, &sig) || !tb_sig_canonical(&sig) || (expect && !tb_sig_equal(&sig, expect))) {
        snprintf(err, errlen, "%s: holds signature '%s', not the one expected", path, name);
        fclose(f);
        return false;
    }
    tb_layout_init(&t->L, &sig);
    t->wdtm = h[50];
    t->wdtz = h[51];
    t->max_dtm = (int)le_get32(h + 64);
    t->max_dtz = (int)le_get32(h + 68);
    uint64_t per_side = le_get64(h + 56), size = le_get64(h + 72);
    if (h[48] != t->L.men || h[49] != t->L.nsym || (t->wdtm != 1 && t->wdtm != 2) ||
        (t->wdtz != 1 && t->wdtz != 2) || le_get32(h + 52) != (uint32_t)tb_geo()->nkk[t->L.kkset] ||
        per_side != t->L.per_side || size != 2 * per_side * (uint64_t)(t->wdtm + t->wdtz)) {
        snprintf(err, errlen, "%s: header sizes do not match signature %s (made by another index version?)", path,
                 name);
        fclose(f);
        return false;
    }
    /* The file's length against the header's before the payload is allocated: a cut file is
     * refused without taking the memory its header claims. */
    struct stat st;
    uint64_t have = fstat(fileno(f), &st) == 0 && st.st_size >= HEADER_SIZE ? (uint64_t)st.st_size - HEADER_SIZE : 0;
    if (have != size) {
        if (have < size)
            snprintf(err, errlen, "%s: truncated file (payload %llu of %llu bytes)", path, (unsigned long long)have,
                     (unsigned long long)size);
        else
            snprintf(err, errlen, "%s: trailing bytes after the payload (the file is corrupted)", path);
        fclose(f);
        return false;
    }
    t->payload = malloc(size ? size : 1);
    if (!t->payload) {
        snprintf(err, errlen, "%s: out of memory (%llu bytes)", path, (unsigned long long)size);
        fclose(f);
        return false;
    }
    got = fread(t->payload, 1, size, f);
    fclose(f);
    if (got != size) { /* cut while it was read */
        snprintf(err, errlen, "%s: truncated file (payload %zu of %llu bytes)", path, got, (unsigned long long)size);
        tb_table_free(t);
        return false;
    }
    if (tb_crc32(0, t->payload, size) != le_get32(h + 80)) {
        snprintf(err, errlen, "%s: payload checksum mismatch (the file is corrupted)", path);
        tb_table_free(t);
        return false;
    }
    t->payload_size = size;
    set_pointers(t);
    return true;
}

void tb_table_free(TbTable *t)
{
    free(t->payload);
    t->payload = NULL;
}

/* ---- the registry ---- */

/*
 * Tables in memory, by signature: open addressing over REG_SLOTS entries.  A table is read
 * (and its checksums verified) outside the lock, by the first thread that wants it or, for
 * tb_find_table, by a background thread, so that a search never waits for a file.  A folder
 * change bumps the generation: a load begun before it is thrown away when it ends.
 */
#define REG_SLOTS 2048

typedef struct {
    bool used, loading;
    TbSig sig;
    TbTable *table; /* NULL once loaded: missing or rejected */
} RegEntry;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t reg_loaded = PTHREAD_COND_INITIALIZER;
static RegEntry reg[REG_SLOTS];
static unsigned reg_generation;
static char tb_dir[4096] = "tb";
static _Thread_local char last_error[512];
static _Thread_local bool last_error_printed;

bool tb_last_error_printed(void)
{
    return last_error_printed;
}

void tb_set_error(const char *fmt, ...)
{
    last_error_printed = false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
}

const char *tb_last_error(void)
{
    return last_error;
}

const char *tb_get_dir(void)
{
    return tb_dir;
}

static void reg_clear(void)
{
    for (int i = 0; i < REG_SLOTS; i++) {
        if (reg[i].used && reg[i].table) {
            tb_table_free(reg[i].table);
            free(reg[i].table);
        }
        reg[i].used = reg[i].loading = false;
        reg[i].table = NULL;
    }
}

void tb_set_dir(const char *dir)
{
    pthread_mutex_lock(&reg_lock);
    snprintf(tb_dir, sizeof tb_dir, "%s", dir);
    reg_clear();
    reg_generation++;
    pthread_cond_broadcast(&reg_loaded);
    pthread_mutex_unlock(&reg_lock);
}

static RegEntry *reg_find(const TbSig *sig)
{
    uint32_t h = tb_sig_code(sig) % REG_SLOTS;
    for (int i = 0; i < REG_SLOTS; i++) {
        RegEntry *e = &reg[(h + (uint32_t)i) % REG_SLOTS];
        if (!e->used || tb_sig_equal(&e->sig, sig))
            return e;
    }
    return NULL;
}

/* What one load needs, copied under the lock. */
typedef struct {
    TbSig sig;
    unsigned generation;
    char path[4200];
} LoadJob;

/* Reads a table file (no lock held): the table, or NULL with the error set. */
static TbTable *read_table(const LoadJob *job)
{
    FILE *f = fopen(job->path, "rb");
    if (!f) {
        tb_set_error("no table %s", job->path);
        return NULL;
    }
    fclose(f);
    char err[512];
    TbTable *t = malloc(sizeof *t);
    if (!t || !tb_read_table(job->path, &job->sig, t, err, sizeof err)) {
        fprintf(stderr, "tablebase: rejected %s\n", t ? err : "(out of memory)");
        tb_set_error("%s", t ? err : "out of memory");
        last_error_printed = true;
        free(t);
        return NULL;
    }
    return t;
}

/* Files a finished load; false (the table freed) when the folder changed meanwhile. */
static bool file_load(const LoadJob *job, TbTable *t)
{
    pthread_mutex_lock(&reg_lock);
    RegEntry *e = job->generation == reg_generation ? reg_find(&job->sig) : NULL;
    bool kept = e && e->used && e->loading;
    if (kept) {
        e->loading = false;
        e->table = t;
    } else if (t) {
        tb_table_free(t);
        free(t);
    }
    pthread_cond_broadcast(&reg_loaded);
    pthread_mutex_unlock(&reg_lock);
    return kept;
}

static void *background_load(void *arg)
{
    LoadJob *job = arg;
    file_load(job, read_table(job));
    free(job);
    return NULL;
}

static void start_background_load(const LoadJob *job)
{
    LoadJob *copy = malloc(sizeof *copy);
    pthread_t th;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (copy) {
        *copy = *job;
        if (pthread_create(&th, &attr, background_load, copy) != 0) {
            file_load(copy, NULL); /* no thread: the table counts as missing */
            free(copy);
        }
    }
    pthread_attr_destroy(&attr);
}

/* The table of a signature; with wait false, only one already in memory (a first request
 * starts loading it in the background). */
static const TbTable *get_table(const TbSig *sig, bool wait)
{
    pthread_mutex_lock(&reg_lock);
    RegEntry *e = reg_find(sig);
    while (wait && e && e->used && e->loading) {
        pthread_cond_wait(&reg_loaded, &reg_lock);
        e = reg_find(sig);
    }
    const TbTable *t = NULL;
    LoadJob job;
    bool load = false;
    if (!tb_dir[0]) {
        tb_set_error("the tables are turned off (no folder set)");
    } else if (!e) {
        tb_set_error("too many tables");
    } else if (e->used && e->loading) {
        tb_set_error("the table is being loaded");
    } else if (e->used) {
        t = e->table;
        if (!t)
            tb_set_error("no usable table for this material in %s", tb_dir);
    } else {
        e->used = e->loading = true;
        e->sig = *sig;
        job.sig = *sig;
        job.generation = reg_generation;
        tb_file_name(tb_dir, sig, job.path, sizeof job.path);
        load = true;
    }
    pthread_mutex_unlock(&reg_lock);
    if (load && !wait) {
        start_background_load(&job);
        tb_set_error("the table is being loaded");
    } else if (load) {
        TbTable *read = read_table(&job);
        t = file_load(&job, read) ? read : NULL;
    }
    return t;
}

const TbTable *tb_get_table(const TbSig *sig)
{
    return get_table(sig, true);
}

void tb_registry_add(TbTable *t)
{
    pthread_mutex_lock(&reg_lock);
    RegEntry *e = reg_find(&t->L.sig);
    if (e) {
        if (e->used && e->table && e->table != t) {
            tb_table_free(e->table);
            free(e->table);
        }
        e->used = true;
        e->loading = false;
        e->sig = t->L.sig;
        e->table = t;
    }
    pthread_mutex_unlock(&reg_lock);
}

void tb_registry_evict(bool (*keep)(const TbSig *sig, void *ctx), void *ctx)
{
    pthread_mutex_lock(&reg_lock);
    for (int i = 0; i < REG_SLOTS; i++)
        if (reg[i].used && reg[i].table && !keep(&reg[i].sig, ctx)) {
            tb_table_free(reg[i].table);
            free(reg[i].table);
            reg[i].table = NULL;
            reg[i].used = false; /* a later probe loads it again */
        }
    /* Open addressing: re-insert the survivors so that no probe chain is broken. */
    RegEntry copy[REG_SLOTS];
    memcpy(copy, reg, sizeof copy);
    memset(reg, 0, sizeof reg);
    for (int i = 0; i < REG_SLOTS; i++)
        if (copy[i].used) {
            RegEntry *e = reg_find(&copy[i].sig);
            *e = copy[i];
        }
    pthread_mutex_unlock(&reg_lock);
}

/* ---- probing ---- */

static int probe_value(const Position *pos, bool wait, int *dtz, bool *ok)
{
    TbSig sig;
    TbPos p;
    *ok = false;
    if (!tb_encode(pos, &sig, &p, NULL)) {
        tb_set_error("more than %d men", TB_MAX_MEN);
        return TBV_INVALID;
    }
    const TbTable *t = get_table(&sig, wait);
    if (!t)
        return TBV_INVALID;
    if (!tb_canon(&t->L, &p)) {
        tb_set_error("men overlap");
        return TBV_INVALID;
    }
    uint64_t idx = tb_index(&t->L, &p);
    if (idx == UINT64_MAX) {
        tb_set_error("the kings stand side by side");
        return TBV_INVALID;
    }
    int v = tb_table_value(t, p.side, idx);
    if (v == TBV_INVALID) {
        tb_set_error("the table marks this position invalid");
        return v;
    }
    if (dtz)
        *dtz = tb_table_dtz(t, p.side, idx);
    *ok = true;
    return v;
}

int tb_probe_value(const Position *pos, int *dtz, bool *ok)
{
    return probe_value(pos, true, dtz, ok);
}

static bool probe(const Position *pos, bool wait, TbResult *out)
{
    tb_set_error("%s", "");
    if (strcmp(pos->v->def->name, "starchess") != 0) {
        tb_set_error("the tables are for the variant starchess only");
        return false;
    }
    if (pos->hand_total[0] || pos->hand_total[1]) {
        tb_set_error("pieces in hand (the setup phase)");
        return false;
    }
    if (pos->pcount[0] + pos->pcount[1] > TB_MAX_MEN) {
        tb_set_error("more than %d men", TB_MAX_MEN);
        return false;
    }
    bool ok;
    int dtz = 0;
    int v = probe_value(pos, wait, &dtz, &ok);
    if (!ok)
        return false;
    memset(out, 0, sizeof *out);
    if (v >= 0) {
        out->wdl = v % 2 ? TB_WIN : TB_LOSS;
        out->dtm = v;
        out->dtz = dtz;
    } else {
        out->wdl = TB_DRAW;
        out->dead = v == TBV_DEAD;
    }
    return true;
}

bool tb_probe(const Position *pos, TbResult *out)
{
    return probe(pos, true, out);
}

bool tb_probe_loaded(const Position *pos, TbResult *out)
{
    return probe(pos, false, out);
}

/* The search asks at every node: a position with too many men is answered at once. */
static bool probe_endgame(const Position *pos, bool wait, TbResult *out)
{
    return pos->pcount[WHITE] + pos->pcount[BLACK] <= TB_MAX_MEN && probe(pos, wait, out);
}

void tb_install(void)
{
    static const EndgameTables tables = {tb_derived_dead, tb_derived_fifty_exception, probe_endgame};
    variant_install_tables("starchess", &tables);
}
