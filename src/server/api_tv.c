/* TV, in lichess's shape: the game in play of each variant whose best rated player is the
 * highest.  GET /api/tv/channels ({VARIANT: {user, rating, gameId, color}}, one channel a
 * variant that has a game in play) and GET /api/tv/{variant} (that channel alone; 404 while
 * none is in play).  The web's #/tv/VARIANT watches it and moves on when it ends. */
#include <stdio.h>
#include <string.h>

#include "../variants/registry.h"
#include "api_route.h"
#include "lichess_json.h"
#include "util.h"

#define TV_WITHIN_MS (6 * 3600 * 1000LL) /* a game made longer ago than this is not shown */

/* The channel of variant v: 1 with *out, 0 when no game is in play, -1 when the store fails. */
static int channel(const Variant *v, json_t **out)
{
    TvRow tv;
    int found = service_tv_game(v, util_now_ms() - TV_WITHIN_MS, &tv);
    if (found <= 0)
        return found;
    json_t *user = tv.seat.user[0] ? json_pack("{s:s, s:s}", "id", tv.seat.user, "name", tv.seat.name)
                                   : json_pack("{s:o, s:s}", "id", json_null(), "name", "Anonymous");
    if (user && tv.seat.bot)
        json_object_set_new(user, "title", json_string("BOT"));
    *out = json_pack("{s:o, s:i, s:s, s:s}", "user", user, "rating", tv.seat.rating, "gameId", tv.id, "color",
                     tv.side == WHITE ? "white" : "black");
    return *out ? 1 : -1;
}

static enum MHD_Result get_channels(ApiRequest *rq)
{
    json_t *out = json_object();
    bool ok = out != NULL;
    for (int i = 0; ok && i < variant_count(); i++) {
        json_t *one = NULL;
        int found = channel(variant_at(i), &one);
        if (found < 0)
            ok = false;
        else if (found)
            util_json_put(out, lichess_variant_key(variant_at(i)), one, &ok);
    }
    if (!ok) {
        json_decref(out);
        return http_error(rq->c, 503, "the games cannot be read (the store failed)");
    }
    return http_json(rq->c, 200, out);
}

static enum MHD_Result get_channel(ApiRequest *rq)
{
    const Variant *v = lichess_variant(rq->arg[0]);
    if (!v)
        return http_error(rq->c, 404, "no variant '%s'", rq->arg[0]);
    json_t *one = NULL;
    int found = channel(v, &one);
    if (found < 0)
        return http_error(rq->c, 503, "the games cannot be read (the store failed)");
    return found ? http_json(rq->c, 200, one) : http_error(rq->c, 404, "no game of %s in play", v->def->title);
}

const ApiRoute api_tv_routes[] = {
    {"GET", "/tv/channels", get_channels, false},
    {"GET", "/tv/{variant}", get_channel, false},
    {NULL, NULL, NULL, false},
};
