/*
 * Nets: reading the file tools/nnue_train.py writes (docs/nnue.md), the nets built into the
 * program (the files data/nets/VARIANT.nnue, concatenated into build/nets.bin and assembled in by
 * nets_blob.S), and which net each variant is evaluated with.
 */
#include "nnue.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../variants/registry.h"
#include "../util/bytes.h"

#define NET_MAGIC "sfnnue\0\0"
/* Version 1: no king buckets; version 2: a table of them after the mirror table. */
#define NET_VERSION_MAX 2
#define NET_HEADER 52

/* The nets built in, one after another (each file's header gives its size). */
extern const uint8_t nnue_builtin_blob[], nnue_builtin_blob_end[];

__attribute__((format(printf, 3, 4))) static void *refuse(char *why, size_t why_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_len, fmt, ap);
    va_end(ap);
    return NULL;
}

/* The bytes of a net of these sizes, from the header to its last array. */
static size_t net_size(unsigned version, size_t cells, size_t features, size_t hidden)
{
    size_t tables = version >= 2 ? 2 * cells : cells;
    return NET_HEADER + tables + 2 * (features * hidden + hidden) + 2 * NNUE_L1 * 2 * hidden + 4 * NNUE_L1 +
           2 * NNUE_L1 + 4;
}

/* The number of king buckets of a version 2 table: one more than its highest; 0 when a
 * value is out of range. */
static int count_buckets(const uint8_t *table, int cells)
{
    int most = 0;
    for (int c = 0; c < cells; c++)
        most = table[c] > most ? table[c] : most;
    return most < NNUE_MAX_BUCKETS ? most + 1 : 0;
}

/* Copies n little-endian int16 values (the source need not be aligned). */
static const uint8_t *read16(int16_t *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++, p += 2)
        out[i] = (int16_t)le_get16(p);
    return p;
}

/* The layer's weights, stored [NNUE_L1][2 x hidden], read into the order nnue_layer walks:
 * for each pair of inputs, each output's two weights side by side. */
static const uint8_t *read_layer(int16_t *pairs, const uint8_t *p, int hidden)
{
    for (int o = 0; o < NNUE_L1; o++)
        for (int i = 0; i < 2 * hidden; i++, p += 2)
            pairs[((i / 2) * NNUE_L1 + o) * 2 + i % 2] = (int16_t)le_get16(p);
    return p;
}

static const uint8_t *read32(int32_t *out, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++, p += 4)
        out[i] = (int32_t)le_get32(p);
    return p;
}

/* Does the header fit a variant of ours, in the sizes this code computes with?  Its king
 * buckets (1 without a table) go to *buckets_out. */
static const Variant *check_header(const uint8_t *d, size_t size, int *buckets_out, char *why, size_t why_len)
{
    if (size < NET_HEADER || memcmp(d, NET_MAGIC, 8) != 0)
        return refuse(why, why_len, "not a starfish net (no 'sfnnue' header)");
    unsigned version = le_get16(d + 8);
    if (version < 1 || version > NET_VERSION_MAX)
        return refuse(why, why_len, "net version %u, this program reads versions 1 to %d", version, NET_VERSION_MAX);
    char name[25] = {0};
    memcpy(name, d + 28, 24);
    const Variant *v = variant_by_name(name);
    if (!v)
        return refuse(why, why_len, "a net for an unknown variant '%.24s'", name);
    uint32_t cells = le_get16(d + 10), types = le_get16(d + 12), hand = le_get16(d + 14);
    uint32_t features = le_get32(d + 16), hidden = le_get32(d + 20), l1 = le_get32(d + 24);
    uint32_t want_hand = v->def->fen_hand ? 2u * (uint32_t)v->ntypes : 0;
    if (cells != (uint32_t)v->geo->ncells || types != (uint32_t)v->ntypes || hand != want_hand)
        return refuse(why, why_len, "the net's board (%u cells, %u types, %u in hand) is not %s's", cells, types, hand,
                      v->def->name);
    if (size < NET_HEADER + (version >= 2 ? 2 : 1) * (size_t)cells)
        return refuse(why, why_len, "the file is cut short in its header");
    int buckets = version >= 2 ? count_buckets(d + NET_HEADER + cells, (int)cells) : 1;
    if (buckets == 0)
        return refuse(why, why_len, "a king bucket above %d", NNUE_MAX_BUCKETS - 1);
    if (features != (uint32_t)buckets * 2 * types * cells + hand)
        return refuse(why, why_len, "the net has %u features, %s with %d king bucket%s has %u", features, v->def->name,
                      buckets, buckets > 1 ? "s" : "", (uint32_t)buckets * 2 * types * cells + hand);
    if (hidden == 0 || hidden > NNUE_MAX_HIDDEN || hidden % 16 || l1 != NNUE_L1)
        return refuse(why, why_len, "layer widths %u and %u: this program computes 16 to %d (a multiple of 16) and %d",
                      hidden, l1, NNUE_MAX_HIDDEN, NNUE_L1);
    if (size != net_size(version, cells, features, hidden))
        return refuse(why, why_len, "the file has %zu bytes, its header says %zu (truncated or damaged)", size,
                      net_size(version, cells, features, hidden));
    Cell mirror[MAX_CELLS];
    if (!geo_mirror_cells(v->geo, mirror) || memcmp(mirror, d + NET_HEADER, cells) != 0)
        return refuse(why, why_len, "the net's mirror table is not %s's board's", v->def->name);
    *buckets_out = buckets;
    return v;
}

NnueNet *nnue_parse(const uint8_t *d, size_t size, const char *name, char *why, size_t why_len)
{
    int buckets;
    const Variant *v = check_header(d, size, &buckets, why, why_len);
    if (!v)
        return NULL;
    NnueNet *net = calloc(1, sizeof *net);
    if (!net)
        return refuse(why, why_len, "out of memory");
    snprintf(net->variant, sizeof net->variant, "%s", v->def->name);
    snprintf(net->name, sizeof net->name, "%s", name);
    net->bytes = size;
    net->cells = v->geo->ncells;
    net->types = v->ntypes;
    net->hand = (int)le_get16(d + 14);
    net->features = (int)le_get32(d + 16);
    net->hidden = (int)le_get32(d + 20);
    memcpy(net->mirror, d + NET_HEADER, (size_t)net->cells);
    bool bucketed = le_get16(d + 8) >= 2;
    if (bucketed)
        memcpy(net->bucket, d + NET_HEADER + net->cells, (size_t)net->cells);
    net->buckets = buckets;
    size_t h = (size_t)net->hidden, ft = (size_t)net->features * h, l1 = NNUE_L1 * 2 * h;
    size_t bytes = ((ft + h + l1) * sizeof(int16_t) + 63) / 64 * 64;
    int16_t *memory = aligned_alloc(64, bytes);
    if (!memory) {
        free(net);
        return refuse(why, why_len, "out of memory");
    }
    net->ft_weight = memory;
    net->ft_bias = memory + ft;
    net->l1_pairs = memory + ft + h;
    const uint8_t *p = d + NET_HEADER + (bucketed ? 2 : 1) * net->cells;
    p = read16(net->ft_weight, p, ft);
    p = read16(net->ft_bias, p, h);
    p = read_layer(net->l1_pairs, p, net->hidden);
    p = read32(net->l1_bias, p, NNUE_L1);
    p = read16(net->l2_weight, p, NNUE_L1);
    read32(&net->l2_bias, p, 1);
    return net;
}

void nnue_free(NnueNet *net)
{
    if (net)
        free(net->ft_weight);
    free(net);
}

/* ---- Which net a variant plays with ------------------------------------------------------ */

static pthread_mutex_t nets_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;
static const NnueNet *builtin[VARIANTS_MAX], *loaded[VARIANTS_MAX];
static const NnueNet *last_loaded; /* every loaded net, through their `older` */

static int variant_index(const char *name)
{
    for (int i = 0; i < variant_count(); i++)
        if (strcmp(variant_at(i)->def->name, name) == 0)
            return i;
    return -1;
}

/* Reads the built-in nets; a damaged one is said on stderr, and it and those after it are
 * left out. */
static void read_builtin(void)
{
    const uint8_t *p = nnue_builtin_blob;
    while (p + NET_HEADER <= nnue_builtin_blob_end) {
        size_t size = net_size(le_get16(p + 8), le_get16(p + 10), le_get32(p + 16), le_get32(p + 20));
        char why[160], name[64];
        snprintf(name, sizeof name, "%.24s.nnue", (const char *)p + 28);
        bool whole = size <= (size_t)(nnue_builtin_blob_end - p);
        NnueNet *net = whole ? nnue_parse(p, size, name, why, sizeof why) : NULL;
        if (!net) { /* the unit tests check every net in data/nets */
            fprintf(stderr, "starfish: the built-in %s is damaged: %s\n", name, whole ? why : "cut short");
            return;
        }
        builtin[variant_index(net->variant)] = net;
        p += size;
    }
}

/* The net a variant's own name gives: loaded for it, else built in, else NULL. */
static const NnueNet *own_net(const char *name)
{
    int i = variant_index(name);
    pthread_mutex_lock(&nets_lock);
    const NnueNet *net = i < 0 ? NULL : loaded[i] ? loaded[i] : builtin[i];
    pthread_mutex_unlock(&nets_lock);
    return net;
}

const NnueNet *nnue_net_for(const Variant *v)
{
    pthread_once(&builtin_once, read_builtin);
    const NnueNet *net = own_net(v->def->name);
    if (!net && v->def->net_from)
        net = own_net(v->def->net_from);
    /* A net's board must be this variant's (the data say so; checked, not trusted). */
    bool fits = net && net->cells == v->geo->ncells && net->types == v->ntypes &&
                net->hand == (v->def->fen_hand ? 2 * v->ntypes : 0);
    return fits ? net : NULL;
}

const NnueNet *nnue_load_file(const char *path, char *why, size_t why_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return refuse(why, why_len, "cannot open '%s'", path);
    uint8_t *data = NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    bool read = size >= 0 && size <= 64L << 20 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)size + 1)) &&
                fread(data, 1, (size_t)size, f) == (size_t)size;
    fclose(f);
    if (!read) {
        free(data);
        return refuse(why, why_len, size > 64L << 20 ? "'%s' is larger than 64 MiB" : "cannot read '%s'", path);
    }
    const char *base = strrchr(path, '/');
    NnueNet *net = nnue_parse(data, (size_t)size, base ? base + 1 : path, why, why_len);
    free(data);
    if (!net)
        return NULL;
    pthread_mutex_lock(&nets_lock);
    net->older = last_loaded;
    last_loaded = loaded[variant_index(net->variant)] = net;
    pthread_mutex_unlock(&nets_lock);
    return net;
}

void nnue_use_builtin(const Variant *v)
{
    int i = variant_index(v->def->name);
    pthread_mutex_lock(&nets_lock);
    if (i >= 0)
        loaded[i] = NULL;
    pthread_mutex_unlock(&nets_lock);
}

bool nnue_option_load(void *target, char **values, char *err, size_t err_len)
{
    (void)target;
    char why[200];
    if (nnue_load_file(values[0], why, sizeof why))
        return true;
    snprintf(err, err_len, "net '%s' refused: %s", values[0], why);
    return false;
}
