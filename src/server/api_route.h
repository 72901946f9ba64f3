/*
 * What the API's resource files share (api_games.c, api_analysis.c, api_learn.c, ...): the
 * request as a handler sees it, the route tables, the answers to the game service's results
 * and the requests that wait for the engine.  api.c routes each request to one handler.
 */
#ifndef STARFISH_SERVER_API_ROUTE_H
#define STARFISH_SERVER_API_ROUTE_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "account_service.h"
#include "api_fields.h"
#include "engine_worker.h"
#include "game_service.h"
#include "response.h"

#define API_SESSION_COOKIE "sid"
#define API_ARGS_MAX 3 /* the {name} segments of a route's path */
#define API_ARG_MAX 64 /* the longest such segment (longer: no route) */

/* A request to the API, as its handler sees it. */
typedef struct ApiRequest {
    struct MHD_Connection *c;
    const struct sockaddr *client; /* for the per-address limits; NULL when not known */
    const char *method;            /* HEAD is answered as GET */
    const char *url;
    const char *body; /* NUL-terminated, len bytes */
    size_t len;
    void **state; /* a waiting request's (see Waiting) */
    bool https;   /* a trusted proxy says the client came over TLS */
    Principal who; /* the account the credentials name (via AUTH_NONE: none) */
    char arg[API_ARGS_MAX][API_ARG_MAX + 1]; /* the path's {name} segments, in order */
} ApiRequest;

typedef enum MHD_Result (*ApiHandler)(ApiRequest *rq);

/* A route: a method and a path under /api, whose {name} segments match any one segment. */
typedef struct ApiRoute {
    const char *method;
    const char *path;
    ApiHandler handler;
    bool stream; /* answers with an event stream (the metrics count it, and do not time it) */
} ApiRoute;

/* Each resource file's routes, ended by a route with a NULL path. */
extern const ApiRoute api_game_routes[];
extern const ApiRoute api_analysis_routes[];
extern const ApiRoute api_learn_routes[];
extern const ApiRoute api_account_routes[];
extern const ApiRoute api_user_routes[];
extern const ApiRoute api_challenge_routes[];
extern const ApiRoute api_board_routes[];
extern const ApiRoute api_seek_routes[];
extern const ApiRoute api_bot_routes[];
extern const ApiRoute api_tournament_routes[];
extern const ApiRoute api_tv_routes[];

/* Prepares what never changes (the variants' descriptions); false when memory runs out. */
bool api_learn_start(void);

/* An account's perfs (account_perfs' rows) as {VARIANT: {rating, rd, games, prov}}; NULL
 * when memory runs out. */
json_t *api_perfs_json(const PerfRow *perfs);
/* An account as lichess shows a user: {id, username, createdAt, perfs}, and "title": "BOT" for a
 * bot, "house": true and "profile": {"bio"} for a house bot, "seenAt" when it was last online;
 * NULL when memory runs out. */
json_t *api_user_json(const UserRow *u, const PerfRow *perfs);

/* Answers with the games of the query, newest first: a JSON array of their summaries, or NDJSON
 * when the client's Accept asks for application/x-ndjson. */
enum MHD_Result api_send_list(ApiRequest *rq, const ListQuery *q);

/* A JSON array (taken over) as NDJSON text: an element a line (malloc'ed; NULL when memory runs
 * out). */
char *api_ndjson_text(json_t *list);
/* lichess's rule: a bot account plays through the Bot API only, and a person's account never
 * does.  False after answering 403 (*ret) when the request's account may not use the API
 * (bot_api: the Bot API; else the Board API, the seeks and the web's game actions). */
bool api_player_api_ok(ApiRequest *rq, bool bot_api, enum MHD_Result *ret);

/* The request's body as a JSON object in *out: JSON, or a form (application/x-www-form-
 * urlencoded, each field a string); an account's request may have none ({}).  0, or the
 * status to answer (400, 503) with err set (ERR_MAX bytes). */
int api_body(const ApiRequest *rq, json_t **out, char *err);
/* The game of the request's path (its first argument), with a reference, or NULL after the
 * error answer in *ret. */
LiveGame *api_find_game(ApiRequest *rq, enum MHD_Result *ret);
/* An action in game g by the request's account or game token: `arg` is the move, or the
 * offer's action ("offer", "accept", "decline"); `read` makes the answer to a success
 * (api_read_state: the game; api_read_ok: {"ok": true}).  A draw offer to the engine waits for
 * its answer. */
typedef enum { ACT_MOVE, ACT_RESIGN, ACT_DRAW, ACT_TAKEBACK, ACT_REMATCH, ACT_ABORT, ACT_BERSERK, ACT_CLAIM_VICTORY,
               ACT_CLAIM_DRAW } GameAction;
enum MHD_Result api_game_act(ApiRequest *rq, LiveGame *g, GameAction act, const char *arg, const char *token,
                             bool (*read)(void *ctx, LiveGame *g, int you));
/* A GameCall's read that answers {"ok": true} (lichess's answer to an action). */
bool api_read_ok(void *ctx, LiveGame *g, int you);

/* A query argument of the request (NULL when absent). */
const char *api_query(const ApiRequest *rq, const char *key);

/* The status for a failure of game_init or game_from_pgn: 503 when its message says that
 * memory ran out, else 400. */
int api_init_failure_status(const char *why);
/* The HTTP status for a domain result: only the API speaks HTTP. */
unsigned api_status(GameStatus status);
unsigned api_account_status(AccountStatus status);
/* A GameCall's read: the answer, the game as JSON, made ready to send under the game's lock
 * (before a change is stored: if memory runs out the change is not made).  ctx: a
 * struct MHD_Response *. */
bool api_read_state(void *ctx, LiveGame *g, int you);
/* The answer to an action: the response its read made (with ok_status), or the error. */
enum MHD_Result api_answer(struct MHD_Connection *c, GameStatus status, GameCall *call, unsigned ok_status);

/*
 * A request waiting for the engine's answer: its connection suspended meanwhile, this kept as
 * the request's state (the first member of a larger struct of the handler's own).  `ask` puts
 * the question, `resumed` answers once the engine has, `done` frees what the request holds
 * (and the struct) when the request ends.
 */
typedef struct Waiting {
    struct MHD_Connection *c;
    EngineAsk (*ask)(struct Waiting *w);
    enum MHD_Result (*resumed)(struct Waiting *w);
    void (*done)(struct Waiting *w);
    bool ok; /* the engine answered */
} Waiting;

/* Suspends the request until the engine answers its question (or, if it cannot be asked,
 * at once), keeping w as its state. */
enum MHD_Result api_wait_for_engine(ApiRequest *rq, Waiting *w);
/* Suspends a request already waiting again, for the next question. */
enum MHD_Result api_wait_again(Waiting *w);
/* The engine's answer (on its thread): the request goes on.  An Answered for engine_ask_*. */
void api_on_answer(void *ctx, bool ok);
/* The answer when the engine gave none: why. */
enum MHD_Result api_no_answer(Waiting *w);

#endif
