/* The API's accounts: signing up, logging in and out (the session cookie), the account itself,
 * its password, its closing and its personal API tokens. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../variants/registry.h"
#include "api_route.h"
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

/* The body's string fields named in keys (each required), in out. */
static bool read_fields(ApiRequest *rq, json_t **o, const char *const *keys, const char **out, int n,
                        enum MHD_Result *ret)
{
    char err[ERR_MAX];
    int status = parse_body(rq->body, rq->len, o, err);
    for (int i = 0; !status && i < n; i++)
        status = req_string(*o, keys[i], &out[i], err);
    if (!status)
        return true;
    json_decref(*o);
    *o = NULL;
    *ret = http_error(rq->c, (unsigned)status, "%s", err);
    return false;
}

/* ---- Signing up, logging in and out --------------------------------------------------------- */

static enum MHD_Result post_signup(ApiRequest *rq)
{
    static const char *const keys[] = {"username", "password"};
    const char *field[2];
    json_t *o;
    enum MHD_Result ret;
    if (!read_fields(rq, &o, keys, field, 2, &ret))
        return ret;
    AccountReply reply = {0};
    Principal p;
    AccountStatus status = account_signup(field[0], field[1], &p, &reply);
    json_decref(o);
    if (status != ACCOUNT_OK)
        return refused(rq->c, status, &reply);
    return with_cookie(rq, 201, json_pack("{s:s}", "username", p.username), reply.secret);
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

static enum MHD_Result post_login(ApiRequest *rq)
{
    static const char *const keys[] = {"username", "password"};
    const char *field[2];
    json_t *o;
    enum MHD_Result ret;
    if (!read_fields(rq, &o, keys, field, 2, &ret))
        return ret;
    char address[INET6_ADDRSTRLEN];
    address_of(rq->client, address, sizeof address);
    AccountReply reply = {0};
    Principal p;
    AccountStatus status = account_login(field[0], field[1], address, &p, &reply);
    json_decref(o);
    if (status != ACCOUNT_OK)
        return refused(rq->c, status, &reply);
    return with_cookie(rq, 200, json_pack("{s:s}", "username", p.username), reply.secret);
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
    return http_json(rq->c, 200,
                     json_pack("{s:s, s:s, s:I, s:o}", "id", u.id, "username", u.username, "createdAt",
                               (json_int_t)u.created_ms, "perfs", api_perfs_json(perfs)));
}

static enum MHD_Result post_password(ApiRequest *rq)
{
    static const char *const keys[] = {"old", "new"};
    const char *field[2];
    json_t *o;
    enum MHD_Result ret;
    if (!read_fields(rq, &o, keys, field, 2, &ret))
        return ret;
    AccountReply reply = {0};
    AccountStatus status = account_change_password(&rq->who, field[0], field[1], &reply);
    json_decref(o);
    return status == ACCOUNT_OK ? http_send(rq->c, 204, http_empty_response()) : refused(rq->c, status, &reply);
}

static enum MHD_Result post_close(ApiRequest *rq)
{
    static const char *const keys[] = {"password"};
    const char *field[1];
    json_t *o;
    enum MHD_Result ret;
    if (!read_fields(rq, &o, keys, field, 1, &ret))
        return ret;
    AccountReply reply = {0};
    AccountStatus status = account_close(&rq->who, field[0], &reply);
    json_decref(o);
    if (status != ACCOUNT_OK)
        return refused(rq->c, status, &reply);
    service_account_closed(rq->who.user_id);
    return with_cookie(rq, 204, NULL, NULL);
}

/* ---- Personal API tokens -------------------------------------------------------------------- */

static enum MHD_Result post_token(ApiRequest *rq)
{
    static const char *const keys[] = {"description"};
    const char *field[1];
    json_t *o;
    enum MHD_Result ret;
    if (!read_fields(rq, &o, keys, field, 1, &ret))
        return ret;
    AccountReply reply = {0};
    AccountStatus status = account_token_create(&rq->who, field[0], &reply);
    json_decref(o);
    if (status != ACCOUNT_OK)
        return refused(rq->c, status, &reply);
    return http_json(rq->c, 201, json_pack("{s:s, s:s}", "id", reply.token_id, "token", reply.secret));
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

const ApiRoute api_account_routes[] = {
    {"POST", "/auth/signup", post_signup},
    {"POST", "/auth/login", post_login},
    {"POST", "/auth/logout", post_logout},
    {"GET", "/account", get_account},
    {"POST", "/account/password", post_password},
    {"POST", "/account/close", post_close},
    {"GET", "/account/tokens", get_tokens},
    {"POST", "/account/tokens", post_token},
    {"DELETE", "/account/tokens/{}", delete_token},
    {NULL, NULL, NULL},
};
