/*
 * Evaluation weights fitted per variant by `starfish tune` (src/engine/tune.c), which writes
 * this file: `starfish tune VARIANT GAMES.pgn --out src/engine/weights.c` replaces the
 * entry of VARIANT and keeps the others.  Variants without an entry use the defaults of
 * eval_default_params().  See the README's section on tuning.
 */
#include "eval.h"

const EvalWeights eval_weights[] = {
    /* variant: starvation */
    /* 600 games, 23395 positions; K 0.004610; error 0.16698 -> 0.15997, held out 0.15501 -> 0.15081 */
    {"starvation",
     {
         .piece_mg = {[1] = 158 /* P */, [2] = 234 /* N */, [3] = 257 /* B */, [4] = 346 /* R */, [5] = 936 /* Q */},
         .piece_eg = {[1] = 144 /* P */, [2] = 273 /* N */, [3] = 237 /* B */, [4] = 658 /* R */, [5] = 713 /* Q */},
         .centre_mg = 120,
         .centre_eg = 75,
         .pawn_advance_mg = -12,
         .pawn_advance_eg = 0,
         .pawn_near_promotion = 208,
         .royal_shelter_mg = 4,
         .royal_activity_eg = 217,
         .tempo = -1,
         .bonus_weight = 100,
         .mobility_mg = 54,
         .mobility_eg = 34,
         .royal_zone_mg = 207,
         .pawn_shield_mg = 29,
         .pawn_contact_mg = 2,
         .pawn_contact_eg = 62,
     }},
    /* variant: square-says */
    /* 600 games, 11667 positions; K 0.002736; error 0.18368 -> 0.16809, held out 0.16714 -> 0.14303 */
    {"square-says",
     {
         .piece_mg = {[1] = 175 /* M */},
         .piece_eg = {[1] = 393 /* M */},
         .centre_mg = 199,
         .centre_eg = 213,
         .pawn_advance_mg = 4,
         .pawn_advance_eg = 10,
         .pawn_near_promotion = 40,
         .royal_shelter_mg = -70,
         .royal_activity_eg = 237,
         .tempo = 29,
         .bonus_weight = 100,
         .mobility_mg = 16,
         .mobility_eg = 172,
         .royal_zone_mg = 424,
         .pawn_shield_mg = 0,
         .pawn_contact_mg = 0,
         .pawn_contact_eg = 0,
     }},
    /* variant: starchess */
    /* 800 games, 23240 positions; K 0.003502; error 0.06897 -> 0.05339, held out 0.08535 -> 0.06859 */
    {"starchess",
     {
         .piece_mg = {[1] = 93 /* P */, [2] = 588 /* N */, [3] = 646 /* B */, [4] = 131 /* R */, [5] = 856 /* Q */},
         .piece_eg = {[1] = 150 /* P */, [2] = 304 /* N */, [3] = 448 /* B */, [4] = 125 /* R */, [5] = 790 /* Q */},
         .centre_mg = 258,
         .centre_eg = 106,
         .pawn_advance_mg = 22,
         .pawn_advance_eg = -2,
         .pawn_near_promotion = 200,
         .royal_shelter_mg = 92,
         .royal_activity_eg = -55,
         .tempo = 4,
         .bonus_weight = 100,
         .mobility_mg = 160,
         .mobility_eg = -48,
         .royal_zone_mg = 160,
         .pawn_shield_mg = 7,
         .pawn_contact_mg = -15,
         .pawn_contact_eg = 17,
     }},
    /* variant: megastar */
    /* 360 games, 22100 positions; K 0.001270; error 0.13134 -> 0.12390, held out 0.12523 -> 0.12129 */
    {"megastar",
     {
         .piece_mg = {[1] = 12 /* P */, [3] = 338 /* R */, [4] = 294 /* N */, [5] = 812 /* C */, [6] = 450 /* F */, [7] = 368 /* T */, [8] = 308 /* B */, [9] = 348 /* S */, [10] = 138 /* L */},
         .piece_eg = {[1] = 148 /* P */, [3] = 498 /* R */, [4] = 138 /* N */, [5] = 772 /* C */, [6] = 562 /* F */, [7] = 188 /* T */, [8] = 412 /* B */, [9] = 312 /* S */, [10] = 138 /* L */},
         .centre_mg = 167,
         .centre_eg = 103,
         .pawn_advance_mg = 0,
         .pawn_advance_eg = 24,
         .pawn_near_promotion = 96,
         .royal_shelter_mg = -16,
         .royal_activity_eg = 53,
         .tempo = 24,
         .bonus_weight = 100,
         .mobility_mg = 0,
         .mobility_eg = 0,
         .royal_zone_mg = 0,
         .pawn_shield_mg = 0,
         .pawn_contact_mg = 0,
         .pawn_contact_eg = 0,
     }},
    /* variant: chess */
    {"chess",
     {
         .piece_mg = {[1] = 100 /* P */, [2] = 320 /* N */, [3] = 330 /* B */, [4] = 500 /* R */, [5] = 900 /* Q */},
         .piece_eg = {[1] = 100 /* P */, [2] = 320 /* N */, [3] = 330 /* B */, [4] = 500 /* R */, [5] = 900 /* Q */},
         .centre_mg = 125,
         .centre_eg = 83,
         .pawn_advance_mg = 4,
         .pawn_advance_eg = 10,
         .pawn_near_promotion = 40,
         .royal_shelter_mg = 12,
         .royal_activity_eg = 25,
         .tempo = 10,
         .bonus_weight = 100,
         .mobility_mg = 54,
         .mobility_eg = 34,
         .royal_zone_mg = 207,
         .royal_zone_sq_mg = 12,
         .pawn_shield_mg = 29,
         .pawn_contact_mg = 0,
         .pawn_contact_eg = 0,
         .passed_mg = 100,
         .passed_eg = 150,
         .piece_threat_mg = 40,
         .piece_threat_eg = 25,
         .pawn_threat_mg = 60,
         .pawn_threat_eg = 40,
     }},
    /* end of table */
    {NULL, {.tempo = 0}},
};
