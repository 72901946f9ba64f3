/*
 * The JSON API: each request routed to its handler by the resource files' route tables
 * (api_route.h), the answers every handler shares, and requests that wait for the engine.
 */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../util/version.h"
#include "analysis_stream.h"
#include "api_route.h"
#include "events.h"
#include "game_json.h"
#include "metrics.h"
#include "util.h"

/* ---- Answers -------------------------------------------------------------------------------- */

unsigned api_account_status(AccountStatus status)
{
    switch (status) {
    case ACCOUNT_OK:
        return MHD_HTTP_OK;
    case ACCOUNT_BAD_INPUT:
        return MHD_HTTP_BAD_REQUEST;
    case ACCOUNT_TAKEN:
        return MHD_HTTP_CONFLICT;
    case ACCOUNT_DENIED:
        return MHD_HTTP_UNAUTHORIZED;
    case ACCOUNT_THROTTLED:
        return MHD_HTTP_TOO_MANY_REQUESTS;
    case ACCOUNT_NOT_FOUND:
        return MHD_HTTP_NOT_FOUND;
    case ACCOUNT_FAILED:
        break;
    }
    return MHD_HTTP_SERVICE_UNAVAILABLE;
}

/* game_init and game_from_pgn name what is wrong with the text, or that memory ran out. */
int api_init_failure_status(const char *why)
{
    return util_out_of_memory(why) ? 503 : 400;
}

unsigned api_status(GameStatus status)
{
    switch (status) {
    case GAME_OK:
        return MHD_HTTP_OK;
    case GAME_BAD_ACTION:
        return MHD_HTTP_BAD_REQUEST;
    case GAME_NOT_FOUND:
        return MHD_HTTP_NOT_FOUND;
    case GAME_NOT_A_PLAYER:
        return MHD_HTTP_FORBIDDEN;
    case GAME_OWN_GAME:
    case GAME_NO_CLAIM: /* lichess's answer to a failed claim */
        return MHD_HTTP_BAD_REQUEST;
    case GAME_SEAT_TAKEN:
    case GAME_NOT_ABORTABLE:
    case GAME_NO_BERSERK:
        return MHD_HTTP_CONFLICT;
    case GAME_NOT_YOUR_TURN:
    case GAME_ILLEGAL_MOVE:
    case GAME_OVER:
    case GAME_NO_DRAW_OFFER:
    case GAME_NO_OFFER:
    case GAME_NO_TAKEBACK:
    case GAME_NOT_OVER:
    case GAME_CONFLICT:
        return MHD_HTTP_CONFLICT;
    case GAME_STORE_FAILED: /* a full disk, a read-only database: nothing changed, try later */
    case GAME_NO_MEMORY:
        return MHD_HTTP_SERVICE_UNAVAILABLE;
    case GAME_ENGINE_DECIDES: /* never answered: the engine is asked first */
    case GAME_BAD_RECORD:
    case GAME_NO_RANDOM:
        break;
    }
    return MHD_HTTP_INTERNAL_SERVER_ERROR;
}

bool api_read_state(void *ctx, LiveGame *g, int you)
{
    struct MHD_Response **r = ctx;
    if (*r) /* a draw offer's answer made before the engine's */
        MHD_destroy_response(*r);
    *r = http_json_response(game_json(g, you));
    return *r != NULL;
}

bool api_read_ok(void *ctx, LiveGame *g, int you)
{
    (void)g, (void)you;
    struct MHD_Response **r = ctx;
    if (*r)
        MHD_destroy_response(*r);
    *r = http_json_response(json_pack("{s:b}", "ok", true));
    return *r != NULL;
}

enum MHD_Result api_answer(struct MHD_Connection *c, GameStatus status, GameCall *call, unsigned ok_status)
{
    struct MHD_Response **r = call->ctx, *made = *r;
    *r = NULL;
    if (status == GAME_OK)
        return http_send(c, ok_status, made);
    if (made) /* made before a change that the store then refused */
        MHD_destroy_response(made);
    return http_error(c, api_status(status), "%s", call->message);
}

int api_body(const ApiRequest *rq, json_t **out, char *err)
{
    const char *type = MHD_lookup_connection_value(rq->c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
    if (type && strncasecmp(type, "application/x-www-form-urlencoded", 33) == 0)
        return parse_form(rq->body, rq->len, out, err);
    if (rq->len == 0 && rq->who.via != AUTH_NONE) { /* an account's request without a body: {} */
        *out = json_object();
        if (*out)
            return 0;
        snprintf(err, ERR_MAX, "out of memory");
        return 503;
    }
    return parse_body(rq->body, rq->len, out, err);
}

const char *api_query(const ApiRequest *rq, const char *key)
{
    return MHD_lookup_connection_value(rq->c, MHD_GET_ARGUMENT_KIND, key);
}

/* ---- Requests that wait for the engine --------------------------------------------------- */

void api_request_done(void *state)
{
    Waiting *w = state;
    if (w)
        w->done(w);
}

void api_on_answer(void *ctx, bool ok)
{
    Waiting *w = ctx;
    w->ok = ok;
    MHD_resume_connection(w->c);
}

enum MHD_Result api_wait_again(Waiting *w)
{
    MHD_suspend_connection(w->c); /* before asking: the answer may come at once */
    if (w->ask(w) != ENGINE_ASKED) {
        w->ok = false;
        MHD_resume_connection(w->c);
    }
    return MHD_YES;
}

enum MHD_Result api_wait_for_engine(ApiRequest *rq, Waiting *w)
{
    w->c = rq->c;
    *rq->state = w;
    return api_wait_again(w);
}

enum MHD_Result api_no_answer(Waiting *w)
{
    return http_error(w->c, MHD_HTTP_SERVICE_UNAVAILABLE, "%s",
                      events_closed() ? "the server is shutting down" : "out of memory");
}

/* ---- Routing -------------------------------------------------------------------------------- */

/* What the server holds: cheap enough to poll. */
static enum MHD_Result get_health(ApiRequest *rq)
{
    return http_json(rq->c, 200,
                     json_pack("{s:s, s:i, s:i, s:i}", "version", version_number(), "games_in_memory", service_count(),
                               "event_streams", events_count(), "analysis_streams", analysis_streams_count()));
}

static const ApiRoute api_own_routes[] = {
    {"GET", "/health", get_health, false},
    {NULL, NULL, NULL, false},
};

/* The users' routes first: /games/user/NAME before the games' /games/ID/... */
static const ApiRoute *const route_tables[] = {api_user_routes,    api_game_routes,    api_analysis_routes,
                                               api_learn_routes,   api_account_routes, api_challenge_routes,
                                               api_board_routes,   api_seek_routes,    api_bot_routes,
                                               api_tournament_routes, api_tv_routes, api_own_routes};
static const size_t route_table_count = sizeof route_tables / sizeof route_tables[0];

void api_routes_to_metrics(void)
{
    char label[96];
    for (size_t t = 0; t < route_table_count; t++)
        for (const ApiRoute *r = route_tables[t]; r->path; r++) {
            snprintf(label, sizeof label, "/api%s", r->path);
            metrics_add_route(label, r->stream);
        }
}

bool api_start(void)
{
    api_routes_to_metrics();
    return api_learn_start();
}

/* Does `path` (under /api) match the route's?  Its {name} segments go to rq->arg. */
static bool path_matches(const char *pattern, const char *path, ApiRequest *rq)
{
    int args = 0;
    while (*pattern && *path) {
        if (*pattern != '/' || *path != '/')
            return false;
        pattern++, path++;
        size_t plen = strcspn(pattern, "/"), len = strcspn(path, "/");
        if (plen >= 2 && pattern[0] == '{' && pattern[plen - 1] == '}') {
            if (len > API_ARG_MAX || args == API_ARGS_MAX)
                return false;
            memcpy(rq->arg[args], path, len);
            rq->arg[args++][len] = 0;
        } else if (plen != len || memcmp(pattern, path, len) != 0) {
            return false;
        }
        pattern += plen, path += len;
    }
    return !*pattern && !*path;
}

/* The methods that `path` has routes for (for 405's Allow), in allow. */
static void methods_of(const char *path, ApiRequest *rq, char *allow, size_t len)
{
    allow[0] = 0;
    for (size_t t = 0; t < route_table_count; t++)
        for (const ApiRoute *r = route_tables[t]; r->path; r++) {
            if (!path_matches(r->path, path, rq) || strstr(allow, r->method))
                continue;
            bool get = strcmp(r->method, "GET") == 0;
            snprintf(allow + strlen(allow), len - strlen(allow), "%s%s%s", allow[0] ? ", " : "", r->method,
                     get ? ", HEAD" : "");
        }
}

/* ---- Who asks: one authentication step per request --------------------------------------- */

static bool changes_state(const char *method)
{
    return strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0 || strcmp(method, "DELETE") == 0 ||
           strcmp(method, "PATCH") == 0;
}

/* The bearer token of an Authorization header ("Bearer TOKEN"), or NULL. */
static const char *bearer_of(const char *authorization)
{
    if (!authorization || strncasecmp(authorization, "Bearer ", 7) != 0)
        return NULL;
    const char *token = authorization + 7;
    while (*token == ' ')
        token++;
    return token;
}

/* Is `origin` this server's own: the request's scheme, and host and port as its Host says? */
static bool own_origin(const ApiRequest *rq, const char *origin)
{
    const char *host = MHD_lookup_connection_value(rq->c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    const char *scheme = rq->https ? "https://" : "http://";
    size_t n = strlen(scheme);
    return host && *host && strncasecmp(origin, scheme, n) == 0 && strcasecmp(origin + n, host) == 0;
}

/*
 * Finds who the request acts for (the principal: a session cookie or a bearer token; a game
 * token is the game service's to judge) and refuses cross-site requests: a request that
 * changes something and names another site as its Origin, or that the session cookie
 * authenticates without an Origin, gets 403 (bearer tokens are not sent by browsers on their
 * own, so they need no Origin).  True when the request may go on, else false with the
 * answer made in *ret.
 */
static bool authenticate(ApiRequest *rq, enum MHD_Result *ret)
{
    struct MHD_Connection *c = rq->c;
    const char *authorization = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    const char *bearer = bearer_of(authorization);
    if (authorization && !bearer) {
        *ret = http_error(c, 401, "the Authorization header must be 'Bearer TOKEN'");
        return false;
    }
    AccountReply reply = {0};
    AccountStatus status = account_authenticate(MHD_lookup_connection_value(c, MHD_COOKIE_KIND, API_SESSION_COOKIE),
                                                bearer, &rq->who, &reply);
    if (status != ACCOUNT_OK) {
        *ret = http_error(c, api_account_status(status), "%s", reply.message);
        return false;
    }
    if (bearer || !changes_state(rq->method))
        return true;
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    if (origin && !own_origin(rq, origin)) {
        *ret = http_error(c, 403, "cross-site request refused: Origin '%.100s' is not this server's", origin);
        return false;
    }
    if (!origin && rq->who.via == AUTH_SESSION) {
        *ret = http_error(c, 403, "cross-site request refused: a request with the session cookie needs an Origin");
        return false;
    }
    return true;
}

enum MHD_Result api_handle(struct MHD_Connection *c, const struct sockaddr *client, bool https, const char *method,
                           const char *url, const char *body, size_t len, void **state)
{
    if (*state) { /* resumed: the engine has answered */
        Waiting *w = *state;
        return w->resumed(w);
    }
    ApiRequest rq = {.c = c, .client = client, .method = method, .url = url, .body = body, .len = len,
                     .state = state, .https = https};
    enum MHD_Result ret;
    if (!authenticate(&rq, &ret))
        return ret;
    const char *path = url + 4; /* after "/api" */
    const char *as = strcmp(method, "HEAD") == 0 ? "GET" : method;
    for (size_t t = 0; t < route_table_count; t++)
        for (const ApiRoute *r = route_tables[t]; r->path; r++)
            if (strcmp(r->method, as) == 0 && path_matches(r->path, path, &rq))
                return r->handler(&rq);
    char allow[64];
    methods_of(path, &rq, allow, sizeof allow);
    if (!allow[0])
        return http_error(c, 404, "no such endpoint: %.100s", url);
    return http_method_not_allowed(c, allow);
}
