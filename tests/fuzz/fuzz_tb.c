/*
 * libFuzzer target: the tablebase file reader on corrupted files.
 *
 * Each input is a table file, read twice through tb_read_table (from a memory file):
 *   - as it is: nearly always refused (the checksums), and then with a message;
 *   - with both checksums made right for the bytes it holds, so that the header's other
 *     fields and the payload reach the reader's size checks and, past them, the probe: a table
 *     that is accepted is read (the stored values at both ends and some between), registered, probed
 *     through tb_probe at a spread of its positions, and a few entries are verified against
 *     the rules core (wrong values must be reported, never crash anything).
 * The seeds are small tables written by `tb generate`, cut and changed.
 *
 *   make build/fuzz/fuzz-tb && build/fuzz/fuzz-tb CORPUS tests/fuzz/seeds/tb
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../src/tablebase/tb.h"
#include "../../src/tablebase/tb_internal.h"
#include "check.h"

#define FILE_MAX (1 << 20)
#define HEADER 96
/* Stored values read per side: at each end of the side's array (where a size the reader got
 * wrong would read outside it), and spread between.  The first 4096 read in a row cost 40 % of
 * the target's time and never reached the end of a larger table. */
#define WALK_ENDS 32
#define WALK_SPREAD 64
#define PROBES 8 /* positions probed, and entries verified */

static int memory_file = -1;
static char path[64];

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The bytes as the file at `path`. */
static void write_file(const uint8_t *data, size_t size)
{
    if (ftruncate(memory_file, 0) != 0 || pwrite(memory_file, data, size, 0) != (ssize_t)size) {
        perror("fuzz-tb: memory file");
        abort();
    }
}

static void read_entry(const TbTable *t, int side, uint64_t i)
{
    tb_table_value(t, side, i);
    tb_table_dtz(t, side, i);
}

/* What a table that passed every check must bear: its values read, probes, verification. */
static void use_table(TbTable *t)
{
    uint64_t n = t->L.per_side;
    for (int side = 0; side < 2; side++) {
        for (uint64_t k = 0; k < n && k < WALK_ENDS; k++) {
            read_entry(t, side, k);
            read_entry(t, side, n - 1 - k);
        }
        for (uint64_t k = 0; k < WALK_SPREAD && n; k++)
            read_entry(t, side, n * k / WALK_SPREAD);
    }
    TbTable *kept = malloc(sizeof *kept);
    *kept = *t;
    tb_registry_add(kept); /* the registry frees it (with the next table of this signature) */
    for (int k = 0; k < PROBES && n; k++) {
        int side = k & 1;
        uint64_t idx = n * (uint64_t)k / PROBES;
        TbPos p;
        Position pos;
        TbResult r;
        char err[300];
        if (!tb_entry_position(&kept->L, side, idx, &p, &pos))
            continue;
        tb_probe(&pos, &r);
        tb_verify_entry(kept, side, idx, err, sizeof err);
    }
}

static void read_as_file(const uint8_t *data, size_t size)
{
    write_file(data, size);
    TbTable t;
    char err[600] = "";
    if (tb_read_table(path, NULL, &t, err, sizeof err))
        use_table(&t);
    else if (!err[0])
        fuzz_fail("tb_read_table refused a file without a message", NULL, path, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t fixed[FILE_MAX];
    if (memory_file < 0) {
        memory_file = memfd_create("fuzz-tb", 0);
        snprintf(path, sizeof path, "/proc/self/fd/%d", memory_file);
        tb_set_dir("/nonexistent/starfish-fuzz-tb"); /* the tables probed are the registered ones */
    }
    if (size > FILE_MAX)
        return 0;
    read_as_file(data, size);
    if (size < HEADER)
        return 0;
    memcpy(fixed, data, size);
    put32(fixed + 80, tb_crc32(0, fixed + HEADER, size - HEADER));
    put32(fixed + 92, tb_crc32(0, fixed, 92));
    read_as_file(fixed, size);
    return 0;
}
