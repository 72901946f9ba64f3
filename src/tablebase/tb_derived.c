/*
 * Reading the derived rules compiled into the program (derived_data.bin, by derived_blob.S):
 * dead positions and the 50-move exceptions.  The format is in tb_derived.h.  The image is
 * checked once, on first use; a damaged one is reported and then treated as empty.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "tb_derived.h"
#include "tb_internal.h"

extern const uint8_t tb_derived_blob[], tb_derived_blob_end[];

static uint32_t rd32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
    return rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

/* A set's counts and block offsets lie inside the image and its heads increase. */
static bool set_ok(const uint8_t *data, size_t size, uint32_t off)
{
    if (off > size || size - off < 8)
        return false;
    uint32_t count = rd32(data + off), nblocks = rd32(data + off + 4);
    if (nblocks != (count + TB_SET_BLOCK - 1) / TB_SET_BLOCK)
        return false;
    uint64_t heads = (uint64_t)off + 8, stream = heads + 8 * (uint64_t)nblocks;
    if (stream > size)
        return false;
    for (uint32_t b = 0; b < nblocks; b++) {
        const uint8_t *h = data + heads + 8 * (uint64_t)b;
        if (stream + rd32(h + 4) > size || (b && rd32(h) <= rd32(h - 8)))
            return false;
    }
    return true;
}

bool tb_derived_check(const uint8_t *data, size_t size, char *err, size_t errlen)
{
    if (size < TB_DERIVED_HEADER || memcmp(data, TB_DERIVED_MAGIC, 8) != 0) {
        snprintf(err, errlen, "bad magic");
        return false;
    }
    uint32_t nsigs = rd32(data + 12), nfifty = rd32(data + 16);
    if (rd32(data + 20) != size) {
        snprintf(err, errlen, "size %u recorded, %zu present", rd32(data + 20), size);
        return false;
    }
    if (rd32(data + 24) != tb_crc32(0, data + TB_DERIVED_HEADER, size - TB_DERIVED_HEADER)) {
        snprintf(err, errlen, "checksum mismatch (the data is corrupted)");
        return false;
    }
    uint64_t records = TB_DERIVED_HEADER + (uint64_t)nfifty * TB_DERIVED_NAME;
    if (records + (uint64_t)nsigs * TB_DERIVED_RECORD > size) {
        snprintf(err, errlen, "truncated");
        return false;
    }
    for (uint32_t i = 0; i < nsigs; i++) {
        const uint8_t *r = data + records + (uint64_t)i * TB_DERIVED_RECORD;
        if ((i && rd32(r + 16) <= rd32(r - TB_DERIVED_RECORD + 16)) || !set_ok(data, size, rd32(r + 40)) ||
            !set_ok(data, size, rd32(r + 44))) {
            snprintf(err, errlen, "record %u is malformed", i);
            return false;
        }
    }
    return true;
}

static struct {
    const uint8_t *data;
    size_t size;
    int max_men;
    uint32_t nsigs, nfifty;
    const uint8_t *fifty, *records;
    const Variant *starchess; /* the variant the tables are of */
} D;

static void load(void)
{
    const uint8_t *data = tb_derived_blob;
    size_t size = (size_t)(tb_derived_blob_end - tb_derived_blob);
    char err[128];
    if (!tb_derived_check(data, size, err, sizeof err)) {
        fprintf(stderr, "starfish: the compiled tablebase rules are unusable: %s\n", err);
        return;
    }
    D.starchess = variant_by_name("starchess");
    D.data = data;
    D.size = size;
    D.max_men = (int)rd32(data + 8);
    D.nsigs = rd32(data + 12);
    D.nfifty = rd32(data + 16);
    D.fifty = data + TB_DERIVED_HEADER;
    D.records = D.fifty + (size_t)D.nfifty * TB_DERIVED_NAME;
}

static void ensure_loaded(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, load);
}

int tb_derived_max_men(void)
{
    ensure_loaded();
    return D.max_men;
}

/* Is x in the set at offset off? */
static bool set_contains(uint32_t off, uint32_t x)
{
    const uint8_t *p = D.data + off, *end = D.data + D.size;
    uint32_t count = rd32(p), nblocks = rd32(p + 4);
    const uint8_t *heads = p + 8, *stream = heads + 8 * (size_t)nblocks;
    uint32_t lo = 0, hi = nblocks;
    while (lo < hi) { /* the first block whose first value exceeds x */
        uint32_t mid = lo + (hi - lo) / 2;
        if (rd32(heads + 8 * (size_t)mid) <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return false;
    uint32_t b = lo - 1, v = rd32(heads + 8 * (size_t)b);
    uint32_t n = b == nblocks - 1 ? count - b * TB_SET_BLOCK : TB_SET_BLOCK;
    const uint8_t *s = stream + rd32(heads + 8 * (size_t)b + 4);
    for (uint32_t i = 1; i < n && v < x; i++) {
        uint32_t delta = 0;
        for (int shift = 0; s < end && shift < 35; shift += 7) {
            uint8_t byte = *s++;
            delta |= (uint32_t)(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                break;
        }
        v += delta;
    }
    return v == x;
}

static const uint8_t *record_of(const TbSig *sig)
{
    uint32_t code = tb_sig_code(sig), lo = 0, hi = D.nsigs;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const uint8_t *r = D.records + (size_t)mid * TB_DERIVED_RECORD;
        uint32_t c = rd32(r + 16);
        if (c == code) {
            char name[32];
            tb_sig_name(sig, name);
            return strncmp((const char *)r, name, TB_DERIVED_NAME) == 0 ? r : NULL;
        }
        if (c < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* The position's signature and men in its stored orientation, if the data covers it. */
static bool covered(const Position *pos, TbSig *sig, TbPos *p)
{
    return pos->v == D.starchess && !pos->hand_total[0] && !pos->hand_total[1] &&
           pos->pcount[0] + pos->pcount[1] <= D.max_men && tb_encode(pos, sig, p, NULL);
}

/*
 * The search asks at every node of an ending, nearly always about the signature it asked
 * before: each thread keeps the last signature's record and index layout.
 */
typedef struct {
    bool valid;
    TbSig sig;
    const uint8_t *record; /* NULL: no dead position in this signature */
    TbLayout L;
} LastSignature;

static const LastSignature *signature_data(const TbSig *sig)
{
    static _Thread_local LastSignature last;
    if (last.valid && tb_sig_equal(&last.sig, sig))
        return &last;
    last.valid = true;
    last.sig = *sig;
    last.record = record_of(sig);
    tb_layout_init(&last.L, sig);
    if (last.record && (last.L.per_side != rd64(last.record + 24) || last.L.rest != rd64(last.record + 32)))
        last.record = NULL; /* made for another index: unusable */
    return &last;
}

bool tb_derived_dead(const Position *pos)
{
    ensure_loaded();
    TbSig sig;
    TbPos p;
    if (!covered(pos, &sig, &p))
        return false;
    const LastSignature *s = signature_data(&sig);
    if (!s->record || !tb_canon(&s->L, &p))
        return false;
    uint64_t idx = tb_index(&s->L, &p);
    if (idx == UINT64_MAX)
        return false;
    uint32_t group = (uint32_t)((uint64_t)p.side * s->L.rest + idx % s->L.rest);
    uint32_t entry = (uint32_t)((uint64_t)p.side * s->L.per_side + idx);
    return set_contains(rd32(s->record + 40), group) != set_contains(rd32(s->record + 44), entry);
}

bool tb_derived_fifty_exception(const Position *pos)
{
    ensure_loaded();
    TbSig sig;
    TbPos p;
    if (!covered(pos, &sig, &p))
        return false;
    char name[32];
    tb_sig_name(&sig, name);
    for (uint32_t i = 0; i < D.nfifty; i++)
        if (strncmp((const char *)D.fifty + (size_t)i * TB_DERIVED_NAME, name, TB_DERIVED_NAME) == 0)
            return true;
    return false;
}
