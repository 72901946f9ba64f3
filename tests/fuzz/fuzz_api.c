/*
 * libFuzzer target: API requests through the server's handlers (api_handle), without sockets.
 *
 * An input is a request, its header lines first (each after "H "):
 *
 *   [H NAME: VALUE]...
 *   METHOD /api/PATH[?QUERY]
 *   BODY
 *
 * In it, "$0" ... "$9" name the id of one of the games the target keeps going (one per
 * variant, between two friends), and "$w" / "$b" the white and black tokens of the game named
 * last (game 0 when none is), so that moves, resignations and draw offers reach the games;
 * "$s" and "$t" are the session id and a personal token of an account the target keeps, and
 * "$o" the server's own origin (every request has the Host it names), so that the accounts'
 * endpoints and the cross-site check are reached too.
 * The handlers run against an SQLite store in a temporary folder, libmicrohttpd replaced by
 * fake_mhd.c, the engine workers stopped (a request for the engine is answered 503), new games
 * limited to 60 a minute from the fuzzer's address.  Every request must be answered, never
 * with 500; an answer of type JSON must be JSON, and an error's an object with "error".  A
 * kept game that ends is replaced.
 *
 *   make build/fuzz/fuzz-api && build/fuzz/fuzz-api CORPUS tests/fuzz/seeds/api
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/core/variant.h"
#include "../../src/variants/registry.h"
#include "../../src/server/analysis_stream.h"
#include "../../src/server/account_service.h"
#include "../../src/server/api.h"
#include "../../src/server/challenge_service.h"
#include "../../src/server/seek_service.h"
#include "../../src/server/server.h"
#include "../../src/server/engine_worker.h"
#include "../../src/server/events.h"
#include "../../src/server/game_service.h"
#include "../../src/server/limits.h"
#include "../../src/server/live_game.h"
#include "../../src/server/response.h"
#include "../../src/server/store_sqlite.h"
#include "../../src/server/util.h"
#include "check.h"
#include "fake_mhd.h"

#define KEPT_MAX 10
#define KEPT_PLIES_MAX 200           /* a kept game this long is resigned and replaced */
#define REQUEST_MAX (INPUT_MAX * 12) /* the input with its names filled in */
#define FUZZER_IP 0xC0000201u        /* 192.0.2.1 */
#define HOST "127.0.0.1:8080"        /* every request's Host, and "$o": http://HOST */

typedef struct {
    char id[GAME_ID_LEN + 1];
    char token[2][TOKEN_LEN + 1];
} Kept;

static Kept kept[KEPT_MAX];
static int nkept;
/* The account kept logged in: its session id and a token (made again when a request ends them). */
static char session[SECRET_LEN + 1], bearer[TOKEN_TEXT_MAX + 1];
static int accounts;
static char folder[64];

static void remove_store(void)
{
    const char *suffixes[] = {"", "-wal", "-shm", "-journal"};
    char path[128];
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/fuzz.db%s", folder, suffixes[i]);
        unlink(path);
    }
    rmdir(folder);
}

static bool copy_ids(void *ctx, LiveGame *g, int you)
{
    (void)you;
    Kept *k = ctx;
    memcpy(k->id, g->id, sizeof k->id);
    memcpy(k->token, g->token, sizeof k->token);
    return true;
}

/* A new game between two friends, kept as game i. */
static void start_kept(int i)
{
    const Variant *v = variant_at(i % variant_count());
    GameOptions opt = {.v = v, .creator = WHITE, .skill = -1};
    Game g = {0};
    char err[300];
    if (!game_init(&g, v, NULL, err, sizeof err))
        fuzz_fail("the start position does not parse", v, err, NULL);
    GameCall call = {.read = copy_ids, .ctx = &kept[i]};
    if (service_create(&opt, &g, &call) != GAME_OK)
        fuzz_fail("a kept game cannot be created", v, call.message, NULL);
}

/* A new account, kept logged in with a session and a token. */
static void start_account(void)
{
    char name[USER_ID_MAX + 1];
    snprintf(name, sizeof name, "fuzzer%d", ++accounts);
    AccountReply reply = {0};
    Principal p;
    if (account_signup(name, "fuzzing password", &p, &reply) != ACCOUNT_OK)
        fuzz_fail("the kept account cannot be made", NULL, name, reply.message);
    memcpy(session, reply.secret, sizeof session);
    if (account_token_create(&p, "fuzz", &reply) != ACCOUNT_OK)
        fuzz_fail("the kept account's token cannot be made", NULL, name, reply.message);
    memcpy(bearer, reply.secret, sizeof bearer);
}

/* A new account when a request has ended the kept one's session or token. */
static void renew_account(void)
{
    Principal p;
    AccountReply reply = {0};
    bool alive = account_authenticate(session, NULL, &p, &reply) == ACCOUNT_OK && p.via == AUTH_SESSION &&
                 account_authenticate(NULL, bearer, &p, &reply) == ACCOUNT_OK;
    if (!alive)
        start_account();
}

/* Replaces the kept games that ended (or grew long: those are resigned first). */
static void renew_kept(void)
{
    for (int i = 0; i < nkept; i++) {
        LiveGame *g;
        GameCall call = {0};
        if (service_find(kept[i].id, &g, &call) != GAME_OK) {
            start_kept(i);
            continue;
        }
        bool over = g->result != RESULT_NONE;
        if (!over && g->game.n > KEPT_PLIES_MAX) {
            GameCall resign = {.token = kept[i].token[WHITE]};
            service_resign(g, &resign);
            over = true;
        }
        service_release(g);
        if (over)
            start_kept(i);
    }
    service_evict(0); /* the games that ended, unless a request still holds one */
}

static void start(void)
{
    json_object_seed(1);
    util_json_memory_track();
    variant_at(0);
    snprintf(folder, sizeof folder, "%s/starfish-fuzz-api-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    char err[512], path[128];
    if (!mkdtemp(folder))
        fuzz_fail("no temporary folder", NULL, folder, NULL);
    atexit(remove_store);
    snprintf(path, sizeof path, "%s/fuzz.db", folder);
    Store *store = store_sqlite_open(path, err, sizeof err);
    if (!store)
        fuzz_fail("the store does not open", NULL, path, err);
    secret_set_cost(1, 8192); /* Argon2id at its least: a signup costs microseconds, not 30 ms */
    const char *failed = server_use_store(store, 30000);
    if (failed)
        fuzz_fail("the services do not start", NULL, failed, NULL);
    limits_set(0, 60, 0);
    /* The workers started and stopped: a question for the engine is refused at once. */
    if (!response_start() || !api_start() || !events_start() || !workers_start())
        fuzz_fail("the services do not start", NULL, NULL, NULL);
    workers_stop();
    analysis_streams_close_all();
    nkept = variant_count() < KEPT_MAX ? variant_count() : KEPT_MAX;
    for (int i = 0; i < nkept; i++)
        start_kept(i);
    start_account();
}

/* The input with "$0".."$9", "$w", "$b", "$s", "$t" and "$o" replaced. */
static void fill_names(const char *in, char *out)
{
    size_t n = 0;
    const Kept *named = &kept[0];
    for (; *in && n < REQUEST_MAX - TOKEN_LEN - 1; in++) {
        const char *name = NULL;
        if (in[0] == '$' && in[1] >= '0' && in[1] <= '9') {
            named = &kept[(in[1] - '0') % nkept];
            name = named->id;
        } else if (in[0] == '$' && (in[1] == 'w' || in[1] == 'b')) {
            name = named->token[in[1] == 'b'];
        } else if (in[0] == '$' && (in[1] == 's' || in[1] == 't' || in[1] == 'o')) {
            name = in[1] == 's' ? session : in[1] == 't' ? bearer : "http://" HOST;
        }
        if (name) {
            n += (size_t)sprintf(out + n, "%s", name);
            in++;
        } else {
            out[n++] = *in;
        }
    }
    out[n] = 0;
}

/* The answer's checks: a status the API gives, and JSON where JSON is said. */
static void check_answer(struct MHD_Connection *c, const char *request)
{
    unsigned status = fake_status(c);
    static const unsigned known[] = {200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 429, 503};
    bool ok = false;
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        ok = ok || status == known[i];
    char what[64];
    snprintf(what, sizeof what, "status %u", status);
    if (!ok)
        fuzz_fail("a request answered with a status the API does not give", NULL, request, what);
    size_t len;
    const char *body = fake_body(c, &len);
    if (status == 204 && len != 0)
        fuzz_fail("a 204 answer with a body", NULL, request, body);
    if (!body || status == 204 || strncmp(fake_content_type(c), "application/json", 16) != 0)
        return;
    json_error_t e;
    json_t *j = json_loadb(body, len, 0, &e);
    if (!j)
        fuzz_fail("an answer of type JSON is not JSON", NULL, request, e.text);
    if (status >= 400 && !json_is_string(json_object_get(j, "error")))
        fuzz_fail("an error answer without \"error\"", NULL, request, body);
    json_decref(j);
}

static void handle(const char *request)
{
    static char line[REQUEST_MAX], method[64], headers[REQUEST_MAX];
    size_t nheaders = snprintf(headers, sizeof headers, "Host: " HOST);
    while (strncmp(request, "H ", 2) == 0) { /* a header line */
        size_t len = strcspn(request + 2, "\n");
        if (nheaders + len + 2 < sizeof headers)
            nheaders += (size_t)snprintf(headers + nheaders, sizeof headers - nheaders, "\n%.*s", (int)len,
                                         request + 2);
        request += 2 + len + (request[2 + len] == '\n');
    }
    const char *nl = strchr(request, '\n');
    const char *body = nl ? nl + 1 : "";
    size_t head = nl ? (size_t)(nl - request) : strlen(request);
    snprintf(line, sizeof line, "%.*s", (int)head, request);
    char *space = strchr(line, ' ');
    if (!space || space - line >= (long)sizeof method)
        return;
    snprintf(method, sizeof method, "%.*s", (int)(space - line), line);
    char *url = space + 1, *query = strchr(url, '?');
    if (query)
        *query++ = 0;
    if (strncmp(url, "/api/", 5) != 0 && strcmp(url, "/api") != 0)
        return; /* http.c sends every other path to the static files */
    struct MHD_Connection *c = fake_request(query, headers, FUZZER_IP);
    void *state = NULL;
    api_handle(c, NULL, false, method, url, body, strlen(body), &state);
    while (!fake_status(c) && fake_take_resumed(c))
        api_handle(c, NULL, false, method, url, body, strlen(body), &state);
    if (fake_waiting(c) || !fake_status(c))
        fuzz_fail(fake_waiting(c) ? "a request waits with nobody to answer it" : "a request left unanswered",
                  NULL, request, NULL);
    check_answer(c, request);
    api_request_done(state);
    fake_request_end(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char input[INPUT_MAX + 1], request[REQUEST_MAX];
    if (!nkept)
        start();
    fuzz_text(data, size, input);
    fill_names(input, request);
    handle(request);
    renew_kept();
    renew_account();
    return 0;
}
