/* The Starchess tablebases the unit tests check: see tb_fixture.h. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "tb_fixture.h"
#include "test.h"

static char tb_folder[64];
static int tables_state; /* 0 not tried, 1 built, -1 failed */

const char *const tb_sample_tables[] = {"KvK", "KQvK", "KRvK", "KBvK", "KNvK", "KPvK", "KQvKR"};
const size_t tb_sample_count = sizeof tb_sample_tables / sizeof *tb_sample_tables;

/* At exit: the table files, then the folder. */
static void remove_tables(void)
{
    TbSig list[64];
    int n = tb_sig_list(4, list, 64);
    for (int i = 0; i < n; i++) {
        char path[200];
        tb_file_name(tb_folder, &list[i], path, sizeof path);
        remove(path);
    }
    rmdir(tb_folder);
}

/* 3 men, then KQvKR (which needs only 3-man tables). */
bool tb_test_tables(void)
{
    if (tables_state)
        return tables_state > 0;
    tables_state = -1;
    snprintf(tb_folder, sizeof tb_folder, "/tmp/starfish-tb-test-XXXXXX");
    if (!mkdtemp(tb_folder)) {
        test_fail(__FILE__, __LINE__, "cannot make a temporary folder");
        return false;
    }
    atexit(remove_tables);
    TbGenOptions o = {.max_men = 3, .threads = 2, .dir = tb_folder, .quiet = true};
    if (tb_generate(&o) != 0) {
        test_fail(__FILE__, __LINE__, "generating the 3-man tables failed");
        return false;
    }
    o.only = "KQvKR";
    if (tb_generate(&o) != 0) {
        test_fail(__FILE__, __LINE__, "generating KQvKR failed");
        return false;
    }
    tables_state = 1;
    return true;
}

const char *tb_test_folder(void)
{
    return tb_folder;
}

const TbTable *tb_test_table(const char *name)
{
    if (!tb_test_tables())
        return NULL;
    TbSig sig;
    if (!tb_sig_parse(name, &sig)) {
        test_fail(__FILE__, __LINE__, "bad signature %s", name);
        return NULL;
    }
    if (strcmp(tb_get_dir(), tb_folder) != 0)
        tb_set_dir(tb_folder);
    const TbTable *t = tb_get_table(&sig);
    if (!t)
        test_fail(__FILE__, __LINE__, "no table %s: %s", name, tb_last_error());
    return t;
}

const char *star(const char *men, char side)
{
    return star_fen(men, "", side == 'w' ? "w 0 1" : "b 0 1");
}
