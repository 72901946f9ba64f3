#include "game_json.h"

#include "../core/movegen.h"
#include "util.h"

/* Adds key: value to an object (taking value over); a failure (memory) clears *ok. */
static json_t *string_or_null(const char *text)
{
    return text ? json_string(text) : json_null();
}

static json_t *cell_or_null(const Geometry *geo, Cell c)
{
    return c == NO_CELL ? json_null() : json_string(geo->cell_name[c]);
}

/* Does the variant's event take the moved piece off the board after m (Starvation)? */
static bool removes_mover(Position *pos, Move m)
{
    Undo u;
    pos_make(pos, m, &u);
    bool removed = u.removed != 0;
    pos_unmake(pos, m, &u);
    return removed;
}

static json_t *legal_move(const Variant *v, Position *pos, Move m)
{
    char text[MOVE_TEXT_MAX];
    move_to_text(pos, m, text);
    bool place = MOVE_KIND(m) == MK_PLACE;
    char promo[2] = {0}, placed[2] = {0};
    if (MOVE_PIECE(m) && !place)
        promo[0] = v->letter[MAKE_PIECE(BLACK, MOVE_PIECE(m))];
    if (place)
        placed[0] = v->letter[MAKE_PIECE(WHITE, MOVE_PIECE(m))];
    return json_pack("{s:s, s:o, s:s, s:o, s:o, s:b, s:b}", "uci", text, "from",
                     place ? json_null() : json_string(v->geo->cell_name[MOVE_FROM(m)]), "to",
                     v->geo->cell_name[MOVE_TO(m)], "promotion", string_or_null(promo[0] ? promo : NULL), "place",
                     string_or_null(placed[0] ? placed : NULL), "castle", MOVE_KIND(m) == MK_CASTLE, "removed",
                     removes_mover(pos, m));
}

static json_t *legal_moves(const Variant *v, Game *game, bool over, bool *ok)
{
    json_t *list = json_array();
    if (!list || over)
        return list;
    Move moves[MAX_MOVES];
    int n = gen_legal(&game->pos, moves);
    for (int i = 0; i < n; i++)
        util_json_append(list, legal_move(v, &game->pos, moves[i]), ok);
    return list;
}

static json_t *played_moves(const LiveGame *g, bool *ok)
{
    json_t *list = json_array();
    for (int i = 0; list && i < g->game.n; i++)
        util_json_append(list, json_pack("{s:s, s:s, s:s?}", "uci", g->uci[i], "san", g->san[i], "fen", g->fen[i]), ok);
    return list;
}

static json_t *hand_of(const Variant *v, const Game *game, int side)
{
    char text[MAX_PIECES + 1];
    int k = 0;
    for (int t = 1; t <= v->ntypes; t++)
        for (int i = 0; i < game->pos.hand[side][t] && k < MAX_PIECES; i++)
            text[k++] = v->letter[MAKE_PIECE(side, t)];
    text[k] = 0;
    return json_string(text);
}

static json_t *last_move(const Variant *v, const Game *game)
{
    if (game->n == 0)
        return json_null();
    const Geometry *geo = v->geo;
    Move m = game->moves[game->n - 1];
    return json_pack("{s:o, s:s}", "from",
                     MOVE_KIND(m) == MK_PLACE ? json_null() : json_string(geo->cell_name[MOVE_FROM(m)]),
                     "to", geo->cell_name[MOVE_TO(m)]);
}

static json_t *clock_of(const LiveGame *g)
{
    if (!g->has_clock)
        return json_null();
    int64_t now = util_now_ms();
    return json_pack("{s:I, s:I, s:I, s:I, s:o, s:o, s:{s:b, s:b}}", "base_ms", (json_int_t)g->base_ms, "inc_ms",
                     (json_int_t)g->inc_ms, "white_ms", (json_int_t)live_time_left(g, WHITE, now), "black_ms",
                     (json_int_t)live_time_left(g, BLACK, now), "running",
                     g->result == RESULT_NONE ? json_string(side_name(g->game.pos.side)) : json_null(), "days",
                     g->days ? json_integer(g->days) : json_null(), "berserk", "white", g->berserk[WHITE], "black",
                     g->berserk[BLACK]);
}

/* Has each side come to the game (a player's first read; the engine has; the invite is done
 * with once the game is over, so an evicted and reloaded game reads the same). */
static json_t *joined_json(const LiveGame *g, bool over)
{
    return json_pack("{s:b, s:b}", "white", over || g->engine[WHITE] || g->joined[WHITE], "black",
                     over || g->engine[BLACK] || g->joined[BLACK]);
}

/* A seat as GAME's players.SIDE: the account's name, id, rating then and whether it was
 * provisional, whether the account is closed; null without an account. */
static json_t *seat_json(const SeatRow *s)
{
    if (!s->user[0])
        return json_null();
    return json_pack("{s:s, s:s, s:i, s:b, s:b}", "name", s->name, "id", s->user, "rating", s->rating, "prov", s->prov,
                     "closed", s->closed);
}

void game_json_players(json_t *object, bool rated, const SeatRow *seat, const bool *engine, bool *ok)
{
    util_json_put(object, "players", json_pack("{s:o, s:o}", "white", seat_json(&seat[WHITE]), "black",
                                               seat_json(&seat[BLACK])), ok);
    util_json_put(object, "player_kinds", json_pack("{s:s, s:s}", "white", engine[WHITE] ? "engine" : "human",
                                                    "black", engine[BLACK] ? "engine" : "human"), ok);
    util_json_put(object, "rated", json_boolean(rated), ok);
    if (seat[WHITE].has_diff && seat[BLACK].has_diff)
        util_json_put(object, "ratingDiff",
                      json_pack("{s:i, s:i}", "white", seat[WHITE].diff, "black", seat[BLACK].diff), ok);
}

void game_json_position(json_t *object, const Variant *v, Game *game, bool over, bool *ok)
{
    Position *pos = &game->pos;
    char fen[FEN_MAX];
    pos_fen(pos, fen, sizeof fen);
    util_json_put(object, "fen", json_string(fen), ok);
    util_json_put(object, "side", json_string(side_name(pos->side)), ok);
    util_json_put(object, "legal", legal_moves(v, game, over, ok), ok);
    util_json_put(object, "check", pos_in_check(pos) ? cell_or_null(v->geo, pos->royal[pos->side]) : json_null(), ok);
    util_json_put(object, "last", last_move(v, game), ok);
    util_json_put(object, "hand",
                  json_pack("{s:o, s:o}", "white", hand_of(v, game, WHITE), "black", hand_of(v, game, BLACK)), ok);
}

json_t *game_json(LiveGame *g, int you)
{
    bool over = g->result != RESULT_NONE, ok = true;
    char created[40];
    util_iso_time(g->created_ms, created, sizeof created);
    json_t *state = json_object();
    if (!state)
        return NULL;
    util_json_put(state, "id", json_string(g->id), &ok);
    util_json_put(state, "variant", json_string(g->v->def->name), &ok);
    util_json_put(state, "start_fen", json_string(g->game.start_fen), &ok);
    util_json_put(state, "moves", played_moves(g, &ok), &ok);
    game_json_position(state, g->v, &g->game, over, &ok);
    util_json_put(state, "status", json_string(over ? "over" : "ongoing"), &ok);
    util_json_put(state, "result", json_string(result_text(g->result)), &ok);
    util_json_put(state, "reason", string_or_null(over ? g->reason : NULL), &ok);
    util_json_put(state, "clock", clock_of(g), &ok);
    util_json_put(state, "draw_offer", string_or_null(g->draw_offer >= 0 ? side_name(g->draw_offer) : NULL), &ok);
    util_json_put(state, "joined", joined_json(g, over), &ok);
    util_json_put(state, "takeback_offer", string_or_null(g->takeback_offer >= 0 ? side_name(g->takeback_offer) : NULL),
                  &ok);
    util_json_put(state, "rematch",
                  json_pack("{s:o, s:o}", "offer",
                            string_or_null(g->rematch_offer >= 0 ? side_name(g->rematch_offer) : NULL), "game",
                            string_or_null(g->rematch_id[0] ? g->rematch_id : NULL)),
                  &ok);
    game_json_players(state, g->rated, g->seat, g->engine, &ok);
    util_json_put(state, "engine", g->skill >= 0 ? json_pack("{s:i}", "skill", g->skill) : json_null(), &ok);
    util_json_put(state, "tournament", g->tournament[0] ? json_string(g->tournament) : json_null(), &ok);
    util_json_put(state, "created", json_string(created), &ok);
    if (you >= 0)
        util_json_put(state, "you", json_string(side_name(you)), &ok);
    if (!ok) {
        json_decref(state);
        return NULL;
    }
    return state;
}

bool game_json_play_recorded(Game *g, Move mv, json_t *record)
{
    char uci[MOVE_TEXT_MAX], san[MOVE_TEXT_MAX], fen[FEN_MAX];
    move_to_text(&g->pos, mv, uci);
    move_to_san(&g->pos, mv, san);
    if (!game_play(g, mv))
        return false;
    pos_fen(&g->pos, fen, sizeof fen);
    return json_array_append_new(record, json_pack("{s:s, s:s, s:s}", "uci", uci, "san", san, "fen", fen)) == 0;
}
