/*
 * libFuzzer target: PGN import.
 *
 * The first byte of the input picks a variant (fuzz_variant in check.h); the rest is read as a
 * PGN text (its first game, as an import or an opening book reads it) with no fallback variant
 * and, when it has no Variant tag, with the variant picked as the fallback.  An import that fails must
 * say why; one that succeeds must export (game_pgn) to a text that imports again to the same
 * moves and the same position, and its game must be judged (game_status) without harm.
 *
 *   make build/fuzz/fuzz-pgn && build/fuzz/fuzz-pgn CORPUS tests/fuzz/seeds/pgn
 */
#include <string.h>

#include "../../src/core/pgn.h"
#include "../../src/core/variant.h"
#include "../../src/variants/registry.h"
#include "check.h"

/* The export of g imports again to the same game. */
static void check_round_trip(Game *g, const char *input)
{
    Text out = {0};
    if (!game_pgn(g, NULL, &out))
        fuzz_fail("game_pgn failed (out of memory?)", g->v, input, NULL);
    Game again = {0};
    char err[300] = "", fen[FEN_MAX], fen_again[FEN_MAX];
    if (!game_from_pgn(&again, text_str(&out), NULL, variant_by_name, err, sizeof err))
        fuzz_fail("the exported PGN does not import", g->v, text_str(&out), err);
    pos_fen(&g->pos, fen, sizeof fen);
    pos_fen(&again.pos, fen_again, sizeof fen_again);
    if (again.v != g->v || again.n != g->n || memcmp(again.moves, g->moves, sizeof *g->moves * (size_t)g->n) != 0 ||
        strcmp(fen, fen_again) != 0)
        fuzz_fail("the exported PGN imports to another game", g->v, text_str(&out), fen_again);
    game_free(&again);
    text_free(&out);
}

static void import(const char *input, const Variant *fallback)
{
    Game g = {0};
    char err[300] = "";
    if (game_from_pgn(&g, input, fallback, variant_by_name, err, sizeof err)) {
        game_status(&g);
        check_round_trip(&g, input);
        check_key(&g.pos, "key after a PGN import");
    } else if (!err[0]) {
        fuzz_fail("game_from_pgn failed without a message", fallback, input, NULL);
    }
    game_free(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char input[INPUT_MAX + 1];
    if (!size)
        return 0;
    fuzz_text(data + 1, size - 1, input);
    bool movetext;
    char tag[64];
    pgn_game_length(input, &movetext);
    import(input, NULL);
    if (!pgn_tag_value(input, "Variant", tag, sizeof tag))
        import(input, fuzz_variant(data[0]));
    return 0;
}
