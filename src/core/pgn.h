/* Game records: PGN with a Variant tag (and a FEN tag for a non-initial start). */
#ifndef STARFISH_PGN_H
#define STARFISH_PGN_H

#include "../util/text.h"
#include "game.h"

/* What a caller knows of a game beyond its moves.  A NULL Event, White or Black is written
 * "?"; a NULL Date, Round or TimeControl is left out.  notes, when given, holds a comment
 * for each of the first nnotes moves ("" for none; no '}' in it), written after the move in
 * braces, as cutechess-cli writes an engine's score, depth and time: {+0.35/12 0.412s}. */
#define PGN_NOTE_MAX 48
typedef struct PgnTags {
    const char *event, *date, *round, *white, *black, *time_control;
    const char (*notes)[PGN_NOTE_MAX];
    int nnotes;
} PgnTags;

/*
 * Appends the game as PGN to out: the seven-tag roster, Variant, FEN (for a non-initial
 * start), Termination, TimeControl, then the movetext.  Movement moves are numbered 1., 2.,
 * ...; placements of a setup phase are numbered with Roman numerals I., II., ...  Tag values
 * are escaped.  False when memory runs out.
 */
bool game_pgn(Game *g, const PgnTags *tags, Text *out);

/* The variant of a name, or NULL: the registry's variant_by_name (the core knows no names). */
typedef const Variant *(*VariantLookup)(const char *name);

/*
 * Reads the first game of a PGN text into g (zeroed or an earlier game): the variant named by
 * the [Variant] tag, found with `find` (or `fallback` when there is no tag), the start from
 * [FEN], then the movetext (move numbers, Roman numerals, comments, variations, NAGs and the
 * result are skipped).  False with err set on an unknown variant, a bad FEN or an illegal
 * move (naming the move).
 */
bool game_from_pgn(Game *g, const char *pgn, const Variant *fallback, VariantLookup find, char *err, size_t errlen);
/* The length of the first game of a PGN text holding several: it ends where a tag line
 * follows movetext.  *movetext tells whether it has any (a file may end in tags alone). */
size_t pgn_game_length(const char *text, bool *movetext);
/* Copies the value of tag `name` ([Name "value"]) of a PGN text into out; false if absent. */
bool pgn_tag_value(const char *pgn, const char *name, char *out, size_t len);

#endif
