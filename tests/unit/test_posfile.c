/* Training positions (src/nnue/posfile.c, docs/nnue.md): the board's mirror as a network's
 * Black view needs it, and a record's bytes as the documented layout says. */
#include <stdlib.h>

#include "../../src/core/game.h"
#include "../../src/nnue/posfile.h"
#include "../../src/variants/registry.h"
#include "test.h"

/* In every game Black's army starts as White's seen in the mirror: each White piece's image
 * holds a Black piece of its type (pieces in hand: none on the board, nothing to compare),
 * except the two pieces square-says-reversed swaps (its king and M stand on each other's
 * files); and the mirror undoes itself. */
TEST(mirror_maps_white_start_onto_black_start_in_every_variant)
{
    for (int i = 0; i < variant_count(); i++) {
        const Variant *v = variant_at(i);
        Cell mirror[MAX_CELLS];
        CHECK(geo_mirror_cells(v->geo, mirror));
        Game g = {0};
        char err[200];
        CHECK(game_init(&g, v, NULL, err, sizeof err));
        int pieces = 0, swapped = 0;
        for (int c = 0; c < v->geo->ncells; c++) {
            CHECK_EQ_INT(mirror[mirror[c]], c);
            uint8_t code = g.pos.board[c];
            if (code && code < MAKE_PIECE(BLACK, 0)) {
                pieces++;
                swapped += g.pos.board[mirror[c]] != MAKE_PIECE(BLACK, PIECE_TYPE(code));
            }
        }
        CHECK(pieces >= 5);
        CHECK_EQ_INT(swapped, strcmp(v->def->name, "square-says-reversed") == 0 ? 2 : 0);
        game_free(&g);
    }
}

TEST(record_bytes_follow_the_documented_layout)
{
    const Variant *v = variant_by_name("starchess");
    Game g = {0};
    char err[200];
    CHECK(game_init(&g, v, NULL, err, sizeof err));
    uint8_t rec[POSFILE_RECORD_MAX];
    int size = posfile_record_size(v);
    CHECK_EQ_INT(size, 6 + 2 * 6 + 37);
    CHECK_EQ_INT(posfile_data_offset(v), 64 + 37);
    posfile_encode(&g.pos, -300, -1, 7, rec);
    CHECK_EQ_INT((int16_t)(rec[0] | rec[1] << 8), -300);
    CHECK_EQ_INT((int8_t)rec[2], -1);
    CHECK_EQ_INT(rec[3], WHITE);
    CHECK_EQ_INT(rec[4] | rec[5] << 8, 7);
    for (int t = 1; t <= 6; t++) { /* K, Q, R, B, N in each hand; no pawn */
        CHECK_EQ_INT(rec[6 + t - 1], g.pos.hand[WHITE][t]);
        CHECK_EQ_INT(rec[6 + 6 + t - 1], g.pos.hand[BLACK][t]);
    }
    CHECK_EQ_INT(g.pos.hand_total[WHITE], 5);
    for (int c = 0; c < 37; c++)
        CHECK_EQ_INT(rec[6 + 12 + c], g.pos.board[c]);
    posfile_encode(&g.pos, 40000, 1, 70000, rec); /* clamped to the fields' ranges */
    CHECK_EQ_INT((int16_t)(rec[0] | rec[1] << 8), 32767);
    CHECK_EQ_INT(rec[4] | rec[5] << 8, 65535);
    game_free(&g);
}
