/* The Starchess tablebases the unit tests check (test_tablebase*.c): built once, on first use,
 * into a temporary folder that is removed when the test program ends. */
#ifndef STARFISH_TB_FIXTURE_H
#define STARFISH_TB_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "../../src/tablebase/tb_internal.h"

/* Builds the tables of up to 3 men and KQvKR once; false (and a failure) if that failed. */
bool tb_test_tables(void);
/* The folder they are in. */
const char *tb_test_folder(void);
/* A table of the folder by name ("KQvK"); NULL, with a failure recorded, if absent. */
const TbTable *tb_test_table(const char *name);
/* The tables the random samples are drawn from. */
extern const char *const tb_sample_tables[];
extern const size_t tb_sample_count;
/* Position text from a list of men: "K7 Q10 k1", a limping pawn "P12~"; side 'w' or 'b'. */
const char *star(const char *men, char side);

#endif
