/*
 * Starchess endgame tablebases (variant `starchess`, movement phase: nothing in hand).
 *
 * A table holds every position of one material signature ("KQvKR": White king and queen
 * against Black king and rook) with both sides to move: win, draw or loss for the side to
 * move, the distance to mate (DTM, in plies, under DTM-optimal play) and the distance to the
 * next zeroing move (a capture or a pawn move) or mate (DTZ, in plies, under DTZ-optimal
 * play).  Draws from which no sequence of legal moves reaches checkmate for either side are
 * marked dead.  docs/tablebases.md describes the index, the file format and the generator.
 *
 * Library calls (thread-safe; tables are loaded on first use and kept):
 */
#ifndef STARFISH_TB_H
#define STARFISH_TB_H

#include <stdbool.h>

#include "../core/position.h"
#include "../util/options.h"

/* Values of TbResult.wdl, for the side to move. */
enum { TB_LOSS = -1, TB_DRAW = 0, TB_WIN = 1 };

/* The rules core's verdict type (core/variant.h): wdl, dtm, dtz, dead. */
typedef EndgameVerdict TbResult;

/* The folder the probes read (default "tb"; "" turns probing off); forgets the tables loaded. */
void tb_set_dir(const char *dir);
/* The largest number of men (kings included) the generator and the index support. */
#define TB_MAX_MEN 6
/*
 * Looks the position up.  False when it is not covered: another variant, pieces in hand,
 * more men than any table, or the table's file missing or rejected (tb_last_error() says why).
 */
bool tb_probe(const Position *pos, TbResult *out);
/* tb_probe without waiting for a file: false while the table is not in memory yet (the first
 * such call starts loading it on a thread of its own).  For searches under a clock. */
bool tb_probe_loaded(const Position *pos, TbResult *out);
/* Why the last failed probe of this thread failed ("" when the table simply is not there). */
const char *tb_last_error(void);
/* Gives the starchess variant what the tables know (its dead positions, its 50-move
 * exceptions, probes for the search): every program calls it once at start-up. */
void tb_install(void);

/* `starfish tb ...`: generate, probe, verify, stats, dump (see `starfish tb help`); argv[0] is
 * "tb". */
extern const Command tb_command;
int tb_main(int argc, char **argv);

/*
 * Rules derived from the tables (src/tablebase/derived_data.bin, written by `tb stats
 * --write-data` and compiled in), for the rules to read (tb_install).  Both need no table files.
 *   tb_derived_dead: the position (movement phase) is dead: no sequence of legal moves
 *     reaches checkmate for either side.  Only positions of the signatures analysed (up to
 *     tb_derived_max_men() men) are known; others return false.
 *   tb_derived_fifty_exception: the position's material is one whose longest forced win
 *     needs more than 100 plies without a capture or pawn move (a DTZ, of a win or of a
 *     loss, above 100).
 */
bool tb_derived_dead(const Position *pos);
bool tb_derived_fifty_exception(const Position *pos);
int tb_derived_max_men(void);

#endif
