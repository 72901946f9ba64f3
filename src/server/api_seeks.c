/* The API's seeks and lobby: POST /api/board/seek in lichess's shape (a real-time seek's answer
 * streams until it is paired or its client leaves; a correspondence seek answers its id), the
 * lobby's seeks and their live stream, a seek taken in one click or canceled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/parse.h"
#include "../util/text.h"
#include "api_route.h"
#include "lichess_json.h"
#include "seek_service.h"
#include "stream.h"
#include "util.h"

#define SEEK_KEEPALIVE_MS 7000
#define LOBBY_KEEPALIVE_MS 15000

static unsigned status_of(SeekStatus s)
{
    static const unsigned codes[] = {[SEEK_OK] = 200, [SEEK_BAD] = 400, [SEEK_DENIED] = 401, [SEEK_NOT_FOUND] = 404,
                                     [SEEK_FAILED] = 503};
    return codes[s];
}

/* ---- A real-time seek's stream ---------------------------------------------------------- */

/* What a seek's stream holds: the seek, to drop when its client leaves. */
typedef struct SeekHold {
    char id[STORE_ID_MAX + 1];
    char user[USER_ID_MAX + 1];
} SeekHold;

static void seek_ended(void *owner)
{
    SeekHold *h = owner;
    seek_abandoned(h->id, h->user);
    free(h);
}

static const StreamKind seek_stream = {"application/x-ndjson", "\n", SEEK_KEEPALIVE_MS, seek_ended};

/* The answer of a real-time seek that waits: empty lines until it is paired (then it ends). */
static enum MHD_Result wait_for_pairing(ApiRequest *rq, const SeekRow *k)
{
    SeekHold *hold = calloc(1, sizeof *hold);
    char topic[STREAM_TOPIC_MAX];
    snprintf(topic, sizeof topic, "seek:%s", k->id);
    Stream *s = hold ? stream_new(&seek_stream, rq->c, topic, hold) : NULL;
    if (!s) {
        free(hold);
        seek_abandoned(k->id, k->user);
        return http_send(rq->c, 503, NULL);
    }
    snprintf(hold->id, sizeof hold->id, "%s", k->id);
    snprintf(hold->user, sizeof hold->user, "%s", k->user);
    stream_join(s);
    if (!seek_waits(k->id)) /* paired (or gone) before the stream joined: its end was not heard */
        stream_push(s, NULL);
    struct MHD_Response *r = stream_response(s); /* on failure, the stream ends (and the seek) */
    return http_send(rq->c, MHD_HTTP_OK, r);
}

/* ---- POST /api/board/seek ----------------------------------------------------------------- */

/* "1300-1700" into *lo, *hi. */
static bool parse_range(const char *text, int *lo, int *hi)
{
    char low[16];
    size_t dash = strcspn(text, "-");
    if (!text[dash] || dash >= sizeof low)
        return false;
    snprintf(low, sizeof low, "%.*s", (int)dash, text);
    return parse_int(low, 1, 5000, lo) && parse_int(text + dash + 1, 1, 5000, hi);
}

/* The body's options of a seek (lichess's fields): 0 or a status with err. */
static int read_seek(json_t *o, SeekOptions *k, char *err)
{
    const char *variant = NULL, *color = NULL, *range = NULL;
    long long increment, days;
    double minutes = -1;
    int status;
    if ((status = form_bool(o, "rated", false, &k->rated, err)) || (status = opt_string(o, "variant", &variant, err)) ||
        (status = opt_string(o, "color", &color, err)) || (status = opt_string(o, "ratingRange", &range, err)) ||
        (status = form_number(o, "time", 0, 180, -1, &minutes, err)) ||
        (status = form_int(o, "increment", 0, 180, -1, &increment, err)) ||
        (status = form_int(o, "days", 0, 100, 0, &days, err)))
        return status;
    k->v = lichess_variant(variant ? variant : "standard");
    if (!k->v) {
        snprintf(err, ERR_MAX, "unknown variant '%.40s'", variant);
        return 400;
    }
    if ((minutes < 0) != (increment < 0)) {
        snprintf(err, ERR_MAX, "a real-time seek needs both time (minutes) and increment (seconds)");
        return 400;
    }
    if (range && *range && !parse_range(range, &k->rating_min, &k->rating_max)) {
        snprintf(err, ERR_MAX, "\"ratingRange\" is LOW-HIGH, as 1300-1700");
        return 400;
    }
    k->has_clock = minutes >= 0;
    k->limit_s = k->has_clock ? (int)(minutes * 60 + 0.5) : 0;
    k->increment_s = k->has_clock ? (int)increment : 0;
    k->days = (int)days;
    k->color = color ? color : "random";
    return 0;
}

static enum MHD_Result post_seek(ApiRequest *rq)
{
    char err[ERR_MAX], message[SEEK_MESSAGE_MAX], game_id[STORE_ID_MAX + 1];
    enum MHD_Result ret;
    if (!api_player_api_ok(rq, false, &ret))
        return ret;
    json_t *o;
    SeekOptions options = {0};
    int bad = api_body(rq, &o, err);
    if (!bad)
        bad = read_seek(o, &options, err);
    if (bad) {
        json_decref(o);
        return http_error(rq->c, (unsigned)bad, "%s", err);
    }
    SeekRow k;
    bool paired;
    SeekStatus status = seek_create(&rq->who, &options, &k, &paired, game_id, message);
    json_decref(o);
    if (status != SEEK_OK)
        return http_error(rq->c, status_of(status), "%s", message);
    if (k.days) /* correspondence: its id at once */
        return http_json(rq->c, 200, json_pack("{s:s}", "id", k.id));
    if (paired) /* the game began at once: nothing to wait for */
        return http_text(rq->c, 200, "application/x-ndjson", strdup(""), NULL);
    return wait_for_pairing(rq, &k);
}

/* ---- The lobby ---------------------------------------------------------------------------- */

static enum MHD_Result get_lobby(ApiRequest *rq)
{
    json_t *list = seek_lobby_json();
    return list ? http_json(rq->c, 200, list) : http_error(rq->c, 503, "the seeks cannot be read");
}

static const StreamKind lobby_stream = {"text/event-stream; charset=utf-8", ": keep-alive\n\n", LOBBY_KEEPALIVE_MS,
                                        NULL};

/* GET /api/lobby/stream: Server-Sent Events, each `seeks` with the waiting seeks, at once and
 * after every change. */
static enum MHD_Result get_lobby_stream(ApiRequest *rq)
{
    if (stream_closed())
        return http_error(rq->c, 503, "the server is shutting down");
    Stream *s = stream_new(&lobby_stream, rq->c, "lobby", NULL);
    if (!s)
        return http_send(rq->c, 503, NULL);
    stream_join(s); /* first: a change from now on is not missed */
    char *json = util_json_text(seek_lobby_json());
    Text event = {0};
    bool ok = json && text_addf(&event, "event: seeks\ndata: %s\n\n", json);
    StreamMessage *m = ok ? stream_message(event.s, event.len) : NULL;
    stream_push(s, m); /* NULL: it ends; the page comes again */
    stream_unref(m);
    text_free(&event);
    free(json);
    return http_send(rq->c, MHD_HTTP_OK, stream_response(s));
}

static enum MHD_Result post_accept(ApiRequest *rq)
{
    char message[SEEK_MESSAGE_MAX], game_id[STORE_ID_MAX + 1];
    enum MHD_Result ret;
    if (!api_player_api_ok(rq, false, &ret))
        return ret;
    SeekStatus status = seek_accept(&rq->who, rq->arg[0], game_id, message);
    return status == SEEK_OK ? http_json(rq->c, 200, json_pack("{s:b, s:s}", "ok", true, "gameId", game_id))
                             : http_error(rq->c, status_of(status), "%s", message);
}

static enum MHD_Result delete_seek(ApiRequest *rq)
{
    char message[SEEK_MESSAGE_MAX];
    SeekStatus status = seek_cancel(&rq->who, rq->arg[0], message);
    return status == SEEK_OK ? http_json(rq->c, 200, json_pack("{s:b}", "ok", true))
                             : http_error(rq->c, status_of(status), "%s", message);
}

const ApiRoute api_seek_routes[] = {
    {"POST", "/board/seek", post_seek, true},
    {"GET", "/lobby/seeks", get_lobby, false},
    {"GET", "/lobby/stream", get_lobby_stream, true},
    {"POST", "/lobby/seeks/{id}/accept", post_accept, false},
    {"DELETE", "/lobby/seeks/{id}", delete_seek, false},
    {NULL, NULL, NULL, false},
};
