/*
 * Starchess endgame tablebases (src/tablebase), their files: a table file with a changed byte
 * or cut short is refused with the reason, and the derived rules compiled into the program
 * agree with the tables built here and refuse a damaged image.  The tables come from
 * tb_fixture.c.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/tablebase/tb_derived.h"
#include "../../src/tablebase/tb_internal.h"
#include "helpers.h"
#include "tb_fixture.h"
#include "test.h"

static bool copy_file(const char *from, const char *to, long truncate_at, long flip_at)
{
    FILE *f = fopen(from, "rb");
    if (!f)
        return false;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)len);
    bool ok = fread(buf, 1, (size_t)len, f) == (size_t)len;
    fclose(f);
    if (flip_at >= 0 && flip_at < len)
        buf[flip_at] ^= 0x5a;
    if (truncate_at >= 0 && truncate_at < len)
        len = truncate_at;
    f = fopen(to, "wb");
    ok = ok && f && fwrite(buf, 1, (size_t)len, f) == (size_t)len;
    if (f)
        fclose(f);
    free(buf);
    return ok;
}

TEST(tb_file_checksum_rejects_corruption)
{
    if (!tb_test_tables())
        return;
    char src[128], bad[160], dir[96];
    snprintf(src, sizeof src, "%s/KQvK.stb", tb_test_folder());
    snprintf(dir, sizeof dir, "%s/bad", tb_test_folder());
    mkdir(dir, 0777);
    snprintf(bad, sizeof bad, "%s/KQvK.stb", dir);
    TbSig sig;
    tb_sig_parse("KQvK", &sig);
    TbTable t;
    char err[600];
    /* Intact: accepted. */
    CHECK(tb_read_table(src, &sig, &t, err, sizeof err));
    tb_table_free(&t);
    /* One byte of the payload changed. */
    CHECK(copy_file(src, bad, -1, 96 + 5000));
    CHECK(!tb_read_table(bad, &sig, &t, err, sizeof err));
    CHECK(strstr(err, "payload checksum mismatch") != NULL);
    /* A probe through the registry refuses the table and says why. */
    tb_set_dir(dir);
    Position pos;
    TbResult r;
    if (setup(&pos, "starchess", star("K7 Q10 k1", 'w'))) {
        CHECK(!tb_probe(&pos, &r));
        CHECK(strstr(tb_last_error(), "checksum") != NULL);
    }
    /* One byte of the header changed. */
    CHECK(copy_file(src, bad, -1, 20));
    CHECK(!tb_read_table(bad, &sig, &t, err, sizeof err));
    CHECK(strstr(err, "header checksum mismatch") != NULL);
    /* Truncated: in the payload, and in the header. */
    CHECK(copy_file(src, bad, 96 + 100, -1));
    CHECK(!tb_read_table(bad, &sig, &t, err, sizeof err));
    CHECK(strstr(err, "truncated") != NULL);
    CHECK(copy_file(src, bad, 50, -1));
    CHECK(!tb_read_table(bad, &sig, &t, err, sizeof err));
    CHECK(strstr(err, "truncated") != NULL);
    /* Not a table at all. */
    FILE *f = fopen(bad, "wb");
    if (f) {
        for (int i = 0; i < 200; i++)
            fputc('x', f);
        fclose(f);
    }
    CHECK(!tb_read_table(bad, &sig, &t, err, sizeof err));
    CHECK(strstr(err, "bad magic") != NULL);
    remove(bad);
    rmdir(dir);
    tb_set_dir(tb_test_folder());
}

TEST(tb_derived_rules_match_tables)
{
    if (!tb_test_tables())
        return;
    /* The compiled derived data against the tables built here: a random sample of each. */
    for (size_t k = 0; k < tb_sample_count; k++) {
        const TbTable *t = tb_test_table(tb_sample_tables[k]);
        if (t && t->L.men <= tb_derived_max_men())
            CHECK_EQ_INT(tb_check_table(t, tb_verify_derived_entry, 4000, 99 + k, 2), 0);
    }
    Position pos;
    if (setup(&pos, "starchess", star("K19 k1", 'w')))
        CHECK(tb_derived_dead(&pos));
    if (setup(&pos, "starchess", star("K19 R18 k1", 'b')))
        CHECK(tb_derived_dead(&pos));
    if (setup(&pos, "starchess", star("K19 Q18 k1", 'b')))
        CHECK(!tb_derived_dead(&pos));
    if (setup(&pos, "starchess", star("K19 Q18 k1", 'b')))
        CHECK(!tb_derived_fifty_exception(&pos));
}

/* The compiled image passes its own check; one changed byte or a cut is refused. */
TEST(tb_derived_data_checksum_rejects_corruption)
{
    extern const uint8_t tb_derived_blob[], tb_derived_blob_end[];
    size_t size = (size_t)(tb_derived_blob_end - tb_derived_blob);
    char err[128];
    CHECK(tb_derived_check(tb_derived_blob, size, err, sizeof err));
    CHECK(tb_derived_max_men() >= 4);
    uint8_t *copy = malloc(size);
    memcpy(copy, tb_derived_blob, size);
    copy[size / 2] ^= 0x21;
    CHECK(!tb_derived_check(copy, size, err, sizeof err));
    CHECK_EQ_STR(err, "checksum mismatch (the data is corrupted)");
    copy[size / 2] ^= 0x21;
    CHECK(!tb_derived_check(copy, size - 1, err, sizeof err));
    CHECK(strstr(err, "size") != NULL);
    free(copy);
}
