/* The API's accounts: signing up, logging in and out (the session cookie), the account itself,
 * its password, its closing and its personal API tokens. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../variants/registry.h"
#include "account_events.h"
#include "api_route.h"
#include "bot_service.h"
#include "limits.h"
#include "stream.h"
#include "util.h"

#define COOKIE_MAX_AGE_S (365 * 24 * 3600) /* the browser keeps it; the server ends it unused after 30 days */

/* The answer to a failed account call. */
static enum MHD_Result refused(struct MHD_Connection *c, AccountStatus status, const AccountReply *reply)
{
    if (status == ACCOUNT_THROTTLED)
        return http_too_many(c, reply->retry_s, "%s", reply->message);
    return http_error(c, api_account_status(status), "%s", reply->message);
}

/* The Set-Cookie value for a new session (secret) or for ending one (secret NULL). */
static void session_cookie(const ApiRequest *rq, const char *secret, char *out, size_t len)
{
    snprintf(out, len, "%s=%s; HttpOnly; SameSite=Lax; Path=/; Max-Age=%d%s", API_SESSION_COOKIE, secret ? secret : "",
             secret ? COOKIE_MAX_AGE_S : 0, rq->https ? "; Secure" : "");
}

/* A response (JSON body, or none: 204) that sets or clears the session cookie. */
static enum MHD_Result with_cookie(ApiRequest *rq, unsigned status, json_t *body, const char *secret)
{
    char cookie[160];
    session_cookie(rq, secret, cookie, sizeof cookie);
    struct MHD_Response *r = body ? http_json_response(body) : http_empty_response();
    return http_send(rq->c, status, http_with_header(r, MHD_HTTP_HEADER_SET_COOKIE, cookie));
}

/* An account endpoint whose body holds string fields (`keys`, each required): `act` does the
 * account's work with them (the principal in *p, which it may set), `answer` makes the
 * response to a success with ok_status. */
typedef struct FieldsCall {
    const char *keys[2];
    int n;
    AccountStatus (*act)(ApiRequest *rq, const char *const *field, Principal *p, AccountReply *reply);
    enum MHD_Result (*answer)(ApiRequest *rq, unsigned ok_status, const Principal *p, const AccountReply *reply);
    unsigned ok_status;
} FieldsCall;

static enum MHD_Result call_with_fields(ApiRequest *rq, const FieldsCall *f)
{
    char err[ERR_MAX];
    json_t *o;
    const char *field[2];
    int bad = api_body(rq, &o, err);
    for (int i = 0; !bad && i < f->n; i++)
        bad = req_string(o, f->keys[i], &field[i], err);
    if (bad) {
        json_decref(o);
        return http_error(rq->c, (unsigned)bad, "%s", err);
    }
    AccountReply reply = {0};
    Principal p = rq->who;
    AccountStatus status = f->act(rq, field, &p, &reply);
    json_decref(o);
    return status == ACCOUNT_OK ? f->answer(rq, f->ok_status, &p, &reply) : refused(rq->c, status, &reply);
}

/* Answers: the new session's cookie and {username}; nothing (204); the cookie cleared. */
static enum MHD_Result answer_session(ApiRequest *rq, unsigned ok_status, const Principal *p,
                                      const AccountReply *reply)
{
    return with_cookie(rq, ok_status, json_pack("{s:s}", "username", p->username), reply->secret);
}

static enum MHD_Result answer_empty(ApiRequest *rq, unsigned ok_status, const Principal *p, const AccountReply *reply)
{
    (void)p, (void)reply;
    return http_send(rq->c, ok_status, http_empty_response());
}

static enum MHD_Result answer_ended(ApiRequest *rq, unsigned ok_status, const Principal *p, const AccountReply *reply)
{
    (void)p, (void)reply;
    return with_cookie(rq, ok_status, NULL, NULL);
}

/* ---- Signing up, logging in and out --------------------------------------------------------- */

static AccountStatus act_signup(ApiRequest *rq, const char *const *field, Principal *p, AccountReply *reply)
{
    (void)rq;
    return account_signup(field[0], field[1], p, reply);
}

/* The client's address as text, for the login throttle. */
static void address_of(const struct sockaddr *a, char *out, size_t len)
{
    const void *bytes = !a ? NULL
                        : a->sa_family == AF_INET6 ? (const void *)&((const struct sockaddr_in6 *)a)->sin6_addr
                                                   : (const void *)&((const struct sockaddr_in *)a)->sin_addr;
    if (!bytes || !inet_ntop(a->sa_family, bytes, out, (socklen_t)len))
        snprintf(out, len, "unknown");
}

static AccountStatus act_login(ApiRequest *rq, const char *const *field, Principal *p, AccountReply *reply)
{
    char address[INET6_ADDRSTRLEN];
    address_of(rq->client, address, sizeof address);
    return account_login(field[0], field[1], address, p, reply);
}

/* Every attempt counts against the address's allowance (`--max-signups-per-hour`), made or
 * refused: names are not to be tried at leisure. */
static enum MHD_Result post_signup(ApiRequest *rq)
{
    static const FieldsCall call = {{"username", "password"}, 2, act_signup, answer_session, 201};
    int retry_s;
    if (!limits_signup(rq->client, &retry_s))
        return http_too_many(rq->c, retry_s, "too many accounts created from this address (at most %d an hour)",
                             limits_signups());
    return call_with_fields(rq, &call);
}

static enum MHD_Result post_login(ApiRequest *rq)
{
    static const FieldsCall call = {{"username", "password"}, 2, act_login, answer_session, 200};
    return call_with_fields(rq, &call);
}

static enum MHD_Result post_logout(ApiRequest *rq)
{
    AccountReply reply = {0};
    AccountStatus status = account_logout(&rq->who, &reply);
    return status == ACCOUNT_OK ? with_cookie(rq, 204, NULL, NULL) : refused(rq->c, status, &reply);
}

/* ---- The account ---------------------------------------------------------------------------- */

json_t *api_perfs_json(const PerfRow *perfs)
{
    json_t *out = json_object();
    bool ok = true;
    for (int i = 0; out && i < variant_count(); i++) {
        const Glicko *g = &perfs[i].glicko;
        util_json_put(out, perfs[i].variant,
                      json_pack("{s:i, s:i, s:i, s:b}", "rating", (int)(g->rating + 0.5), "rd", (int)(g->rd + 0.5),
                                "games", perfs[i].games, "prov", glicko_provisional(*g)),
                      &ok);
    }
    if (!ok) {
        json_decref(out);
        return NULL;
    }
    return out;
}

json_t *api_user_json(const UserRow *u, const PerfRow *perfs)
{
    json_t *out = json_pack("{s:s, s:s, s:I, s:o}", "id", u->id, "username", u->username, "createdAt",
                            (json_int_t)u->created_ms, "perfs", api_perfs_json(perfs));
    bool ok = out != NULL;
    if (u->bot)
        util_json_put(out, "title", json_string("BOT"), &ok);
    if (u->bot == BOT_HOUSE)
        util_json_put(out, "house", json_true(), &ok);
    const char *bio = bot_house_bio(u->id);
    if (bio)
        util_json_put(out, "profile", json_pack("{s:s}", "bio", bio), &ok);
    if (u->online_ms)
        util_json_put(out, "seenAt", json_integer(u->online_ms), &ok);
    if (!ok) {
        json_decref(out);
        return NULL;
    }
    return out;
}

static enum MHD_Result get_account(ApiRequest *rq)
{
    AccountReply reply = {0};
    UserRow u;
    PerfRow perfs[VARIANTS_MAX];
    AccountStatus status = rq->who.via == AUTH_NONE ? ACCOUNT_DENIED : account_find(rq->who.user_id, &u, &reply);
    if (status == ACCOUNT_OK)
        status = account_perfs(u.id, perfs, &reply);
    if (status == ACCOUNT_DENIED)
        return http_error(rq->c, 401, "log in first (a session or a bearer token)");
    if (status != ACCOUNT_OK)
        return refused(rq->c, status, &reply);
    return http_json(rq->c, 200, api_user_json(&u, perfs));
}

static AccountStatus act_password(ApiRequest *rq, const char *const *field, Principal *p, AccountReply *reply)
{
    (void)rq;
    return account_change_password(p, field[0], field[1], reply);
}

static enum MHD_Result post_password(ApiRequest *rq)
{
    static const FieldsCall call = {{"old", "new"}, 2, act_password, answer_empty, 204};
    return call_with_fields(rq, &call);
}

/* Closing: the account's games in memory show it closed. */
static AccountStatus act_close(ApiRequest *rq, const char *const *field, Principal *p, AccountReply *reply)
{
    (void)rq;
    AccountStatus status = account_close(p, field[0], reply);
    if (status == ACCOUNT_OK)
        service_account_closed(p->user_id);
    return status;
}

static enum MHD_Result post_close(ApiRequest *rq)
{
    static const FieldsCall call = {{"password"}, 1, act_close, answer_ended, 204};
    return call_with_fields(rq, &call);
}

/* ---- Personal API tokens -------------------------------------------------------------------- */

static AccountStatus act_token(ApiRequest *rq, const char *const *field, Principal *p, AccountReply *reply)
{
    (void)rq;
    return account_token_create(p, field[0], reply);
}

static enum MHD_Result answer_token(ApiRequest *rq, unsigned ok_status, const Principal *p, const AccountReply *reply)
{
    (void)p;
    return http_json(rq->c, ok_status, json_pack("{s:s, s:s}", "id", reply->token_id, "token", reply->secret));
}

static enum MHD_Result post_token(ApiRequest *rq)
{
    static const FieldsCall call = {{"description"}, 1, act_token, answer_token, 201};
    return call_with_fields(rq, &call);
}

static json_t *time_or_null(int64_t ms)
{
    return ms ? json_integer((json_int_t)ms) : json_null();
}

static enum MHD_Result get_tokens(ApiRequest *rq)
{
    AccountReply reply = {0};
    TokenRow *rows = NULL;
    int n = 0;
    AccountStatus status = account_tokens(&rq->who, &rows, &n, &reply);
    if (status != ACCOUNT_OK)
        return refused(rq->c, status, &reply);
    json_t *list = json_array();
    bool ok = list != NULL;
    for (int i = 0; i < n; i++)
        util_json_append(list,
                         json_pack("{s:s, s:s, s:I, s:o}", "id", rows[i].id, "description", rows[i].description,
                                   "createdAt", (json_int_t)rows[i].created_ms, "lastUsedAt",
                                   time_or_null(rows[i].used_ms)),
                         &ok);
    free(rows);
    if (!ok) {
        json_decref(list);
        list = NULL;
    }
    return http_json(rq->c, 200, list);
}

static enum MHD_Result delete_token(ApiRequest *rq)
{
    AccountReply reply = {0};
    AccountStatus status = account_token_revoke(&rq->who, rq->arg[0], &reply);
    return status == ACCOUNT_OK ? http_send(rq->c, 204, http_empty_response()) : refused(rq->c, status, &reply);
}

/* GET /api/stream/event: the account's events, NDJSON (account_events.c). */
static enum MHD_Result get_event_stream(ApiRequest *rq)
{
    if (stream_closed())
        return http_error(rq->c, 503, "the server is shutting down");
    unsigned status;
    char err[ERR_MAX];
    struct MHD_Response *r = account_events_open(&rq->who, rq->c, &status, err, sizeof err);
    if (r)
        bot_seen(rq->who.user_id); /* online at once, not at the next round of presence */
    return r ? http_send(rq->c, MHD_HTTP_OK, r) : http_error(rq->c, status, "%s", err);
}

const ApiRoute api_account_routes[] = {
    {"POST", "/auth/signup", post_signup, false},
    {"POST", "/auth/login", post_login, false},
    {"POST", "/auth/logout", post_logout, false},
    {"GET", "/account", get_account, false},
    {"POST", "/account/password", post_password, false},
    {"POST", "/account/close", post_close, false},
    {"GET", "/account/tokens", get_tokens, false},
    {"POST", "/account/tokens", post_token, false},
    {"DELETE", "/account/tokens/{id}", delete_token, false},
    {"GET", "/stream/event", get_event_stream, true},
    {NULL, NULL, NULL, false},
};
