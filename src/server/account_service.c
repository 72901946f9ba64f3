#include "account_service.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../variants/registry.h"
#include "util.h"

#define SESSION_TOUCH_MS (3600LL * 1000) /* a session's last use is written at most this often */
#define SWEEP_EVERY_MS (3600LL * 1000)

static Store *store;
static _Atomic int64_t next_sweep;

bool account_start(Store *s)
{
    store = s;
    return secret_start();
}

void account_sweep(int64_t now)
{
    int64_t due = atomic_load(&next_sweep);
    if (now < due || !atomic_compare_exchange_strong(&next_sweep, &due, now + SWEEP_EVERY_MS))
        return;
    store_sessions_expire(store, now - SESSION_IDLE_MS);
    store_login_forget(store, now - LOGIN_WINDOW_MS);
}

static AccountStatus fail(AccountReply *reply, AccountStatus status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static AccountStatus fail(AccountReply *reply, AccountStatus status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reply->message, sizeof reply->message, fmt, ap);
    va_end(ap);
    return status;
}

/* The store failed: nothing changed. */
static AccountStatus store_failed(AccountReply *reply)
{
    return fail(reply, ACCOUNT_FAILED, "the accounts cannot be reached (the store failed): try again");
}

bool account_name_ok(const char *name, char id[USER_ID_MAX + 1], const char **why)
{
    size_t len = strlen(name);
    if (len < USER_NAME_MIN || len > USER_ID_MAX) {
        *why = "a username has 3 to 20 characters";
        return false;
    }
    if (strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") != len) {
        *why = "a username has only letters A-Z and a-z, digits, '_' and '-'";
        return false;
    }
    for (size_t i = 0; i <= len; i++)
        id[i] = (char)tolower((unsigned char)name[i]);
    return true;
}

/* Characters (code points) of a UTF-8 text. */
static size_t characters(const char *text)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        n += (*p & 0xC0) != 0x80;
    return n;
}

/* Does the password keep the rules (8-128 characters, not the name)? */
static AccountStatus check_password(const char *password, const char *id, AccountReply *reply)
{
    size_t n = characters(password);
    if (n < PASSWORD_MIN || n > PASSWORD_MAX)
        return fail(reply, ACCOUNT_BAD_INPUT, "a password has %d to %d characters", PASSWORD_MIN, PASSWORD_MAX);
    if (strlen(password) == strlen(id) && strcasecmp(password, id) == 0)
        return fail(reply, ACCOUNT_BAD_INPUT, "the password must not be the username");
    return ACCOUNT_OK;
}

/* A new session for the account: reply->secret, its digest in p. */
static AccountStatus open_session(const char *user_id, const char *username, Principal *p, AccountReply *reply)
{
    char secret[SECRET_LEN + 1];
    if (!secret_new(secret))
        return fail(reply, ACCOUNT_FAILED, "no random numbers");
    *p = (Principal){.via = AUTH_SESSION};
    snprintf(p->user_id, sizeof p->user_id, "%s", user_id);
    snprintf(p->username, sizeof p->username, "%s", username);
    secret_digest(secret, p->digest);
    if (store_session_insert(store, p->digest, user_id, util_now_ms()) != STORE_OK)
        return store_failed(reply);
    snprintf(reply->secret, sizeof reply->secret, "%s", secret);
    return ACCOUNT_OK;
}

/* A new account, its password hashed. */
static AccountStatus make_account(const char *name, const char *password, UserRow *u, AccountReply *reply)
{
    const char *why;
    memset(u, 0, sizeof *u);
    if (!account_name_ok(name, u->id, &why))
        return fail(reply, ACCOUNT_BAD_INPUT, "%s", why);
    AccountStatus status = check_password(password, u->id, reply);
    if (status != ACCOUNT_OK)
        return status;
    snprintf(u->username, sizeof u->username, "%s", name);
    u->created_ms = util_now_ms();
    if (!secret_hash_password(password, u->password))
        return fail(reply, ACCOUNT_FAILED, "out of memory");
    StoreResult stored = store_user_insert(store, u);
    if (stored == STORE_CONFLICT)
        return fail(reply, ACCOUNT_TAKEN, "the username '%s' is taken", name);
    return stored == STORE_OK ? ACCOUNT_OK : store_failed(reply);
}

AccountStatus account_signup(const char *name, const char *password, Principal *p, AccountReply *reply)
{
    UserRow u;
    AccountStatus status = make_account(name, password, &u, reply);
    return status == ACCOUNT_OK ? open_session(u.id, u.username, p, reply) : status;
}

AccountStatus account_create(const char *name, const char *password, AccountReply *reply)
{
    UserRow u;
    return make_account(name, password, &u, reply);
}

/* Has the name or the address failed too often lately?  Then *retry_s says for how long. */
static AccountStatus throttled(const char *id, const char *address, int64_t now, AccountReply *reply)
{
    int64_t since = now - LOGIN_WINDOW_MS;
    int64_t by_name = store_nth_failure(store, false, id, LOGIN_FAILURES_PER_NAME, since);
    int64_t by_address = store_nth_failure(store, true, address, LOGIN_FAILURES_PER_ADDRESS, since);
    if (by_name < 0 || by_address < 0)
        return store_failed(reply);
    int64_t until = (by_name > by_address ? by_name : by_address) + LOGIN_WINDOW_MS;
    if (!by_name && !by_address)
        return ACCOUNT_OK;
    reply->retry_s = (int)((until - now + 999) / 1000);
    if (reply->retry_s < 1)
        reply->retry_s = 1;
    return fail(reply, ACCOUNT_THROTTLED, "too many failed logins %s: try again in %d s",
                by_name ? "for this username" : "from this address", reply->retry_s);
}

AccountStatus account_login(const char *name, const char *password, const char *address, Principal *p,
                            AccountReply *reply)
{
    char id[USER_ID_MAX + 1];
    const char *why;
    bool well_formed = account_name_ok(name, id, &why);
    if (!well_formed) { /* no account has such a name: counted under the name as given, cut */
        size_t i = 0;
        for (; i < USER_ID_MAX && name[i]; i++)
            id[i] = (char)tolower((unsigned char)name[i]);
        id[i] = 0;
    }
    int64_t now = util_now_ms();
    AccountStatus status = throttled(id, address, now, reply);
    if (status != ACCOUNT_OK)
        return status;
    UserRow u;
    int found = well_formed ? store_user_get(store, id, &u) : 0;
    if (found < 0)
        return store_failed(reply);
    bool open = found && !u.closed_ms;
    if (!secret_check_password(open ? u.password : NULL, password)) {
        if (store_login_failed(store, id, address, now) != STORE_OK)
            return store_failed(reply);
        return fail(reply, ACCOUNT_DENIED, "wrong username or password");
    }
    char rehashed[SECRET_HASH_MAX]; /* made with older parameters: made again with today's */
    if (secret_needs_rehash(u.password) && secret_hash_password(password, rehashed))
        store_user_set_password(store, u.id, rehashed, NULL);
    return open_session(u.id, u.username, p, reply);
}

/* The principal of a session or token found in the store; its use noted (at most hourly). */
static void hold(Principal *p, AuthVia via, const Holder *h, const char *digest,
                 StoreResult (*touch)(Store *, const char *, int64_t))
{
    int64_t now = util_now_ms();
    if (now - h->used_ms >= SESSION_TOUCH_MS)
        touch(store, digest, now);
    *p = (Principal){.via = via};
    snprintf(p->user_id, sizeof p->user_id, "%s", h->user_id);
    snprintf(p->username, sizeof p->username, "%s", h->username);
    p->bot = h->bot;
    snprintf(p->digest, sizeof p->digest, "%s", digest);
}

/* The holder of a token. */
static AccountStatus authenticate_token(const char *bearer, Principal *p, AccountReply *reply)
{
    char digest[SECRET_DIGEST_LEN + 1];
    secret_digest(bearer, digest);
    Holder h;
    int found = store_token_get(store, digest, &h);
    if (found < 0)
        return store_failed(reply);
    if (!found)
        return fail(reply, ACCOUNT_DENIED, "the token is not valid (revoked, or its account closed)");
    hold(p, AUTH_TOKEN, &h, digest, store_token_touch);
    return ACCOUNT_OK;
}

AccountStatus account_authenticate(const char *session, const char *bearer, Principal *p, AccountReply *reply)
{
    *p = (Principal){.via = AUTH_NONE};
    if (bearer)
        return authenticate_token(bearer, p, reply);
    if (!session || strlen(session) != SECRET_LEN)
        return ACCOUNT_OK;
    char digest[SECRET_DIGEST_LEN + 1];
    secret_digest(session, digest);
    Holder h;
    int found = store_session_get(store, digest, &h);
    if (found < 0)
        return store_failed(reply);
    if (!found || util_now_ms() - h.used_ms > SESSION_IDLE_MS)
        return ACCOUNT_OK; /* ended, expired or forged: no one */
    hold(p, AUTH_SESSION, &h, digest, store_session_touch);
    return ACCOUNT_OK;
}

/* The principal must be an account. */
static AccountStatus need_account(const Principal *p, AccountReply *reply)
{
    return p->via == AUTH_NONE ? fail(reply, ACCOUNT_DENIED, "log in first (a session or a bearer token)")
                               : ACCOUNT_OK;
}

AccountStatus account_logout(const Principal *p, AccountReply *reply)
{
    if (p->via != AUTH_SESSION)
        return fail(reply, ACCOUNT_DENIED, "no session to log out of (a token is revoked, not logged out)");
    StoreResult result = store_session_delete(store, p->digest);
    return result == STORE_OK || result == STORE_CONFLICT ? ACCOUNT_OK : store_failed(reply);
}

/* The principal's account, its password checked. */
static AccountStatus check_own_password(const Principal *p, const char *password, UserRow *u, AccountReply *reply)
{
    AccountStatus status = need_account(p, reply);
    if (status != ACCOUNT_OK)
        return status;
    int found = store_user_get(store, p->user_id, u);
    if (found < 0)
        return store_failed(reply);
    if (!found || u->closed_ms || !secret_check_password(u->password, password))
        return fail(reply, ACCOUNT_DENIED, "wrong password");
    return ACCOUNT_OK;
}

/* Sets a new password, ending every session of the account but `keep` ("": all). */
static AccountStatus set_password(const char *id, const char *password, const char *keep, AccountReply *reply)
{
    AccountStatus status = check_password(password, id, reply);
    if (status != ACCOUNT_OK)
        return status;
    char hash[SECRET_HASH_MAX];
    if (!secret_hash_password(password, hash))
        return fail(reply, ACCOUNT_FAILED, "out of memory");
    StoreResult result = store_user_set_password(store, id, hash, keep);
    if (result == STORE_CONFLICT)
        return fail(reply, ACCOUNT_NOT_FOUND, "no open account '%s'", id);
    return result == STORE_OK ? ACCOUNT_OK : store_failed(reply);
}

AccountStatus account_change_password(const Principal *p, const char *old, const char *new_password,
                                      AccountReply *reply)
{
    UserRow u;
    AccountStatus status = check_own_password(p, old, &u, reply);
    if (status != ACCOUNT_OK)
        return status;
    return set_password(u.id, new_password, p->via == AUTH_SESSION ? p->digest : "", reply);
}

AccountStatus account_reset_password(const char *name, const char *password, AccountReply *reply)
{
    UserRow u;
    AccountStatus status = account_find(name, &u, reply);
    return status == ACCOUNT_OK ? set_password(u.id, password, "", reply) : status;
}

/* Closes account id: sessions and tokens end. */
static AccountStatus close_account(const char *id, AccountReply *reply)
{
    StoreResult result = store_user_close(store, id, util_now_ms());
    if (result == STORE_CONFLICT)
        return fail(reply, ACCOUNT_NOT_FOUND, "no open account '%s'", id);
    return result == STORE_OK ? ACCOUNT_OK : store_failed(reply);
}

AccountStatus account_close(const Principal *p, const char *password, AccountReply *reply)
{
    UserRow u;
    AccountStatus status = check_own_password(p, password, &u, reply);
    return status == ACCOUNT_OK ? close_account(u.id, reply) : status;
}

AccountStatus account_close_by_name(const char *name, AccountReply *reply)
{
    UserRow u;
    AccountStatus status = account_find(name, &u, reply);
    return status == ACCOUNT_OK ? close_account(u.id, reply) : status;
}

AccountStatus account_token_create(const Principal *p, const char *description, AccountReply *reply)
{
    AccountStatus status = need_account(p, reply);
    if (status != ACCOUNT_OK)
        return status;
    if (strlen(description) > TOKEN_DESCRIPTION_MAX)
        return fail(reply, ACCOUNT_BAD_INPUT, "a token's description has at most %d bytes", TOKEN_DESCRIPTION_MAX);
    char secret[SECRET_LEN + 1], digest[SECRET_DIGEST_LEN + 1];
    if (!secret_new(secret) || !util_random_string(reply->token_id, TOKEN_ID_LEN, ID_ALPHABET))
        return fail(reply, ACCOUNT_FAILED, "no random numbers");
    snprintf(reply->secret, sizeof reply->secret, TOKEN_PREFIX "%s", secret);
    secret_digest(reply->secret, digest);
    if (store_token_insert(store, reply->token_id, digest, p->user_id, description, util_now_ms()) != STORE_OK) {
        reply->secret[0] = 0;
        return store_failed(reply);
    }
    return ACCOUNT_OK;
}

AccountStatus account_tokens(const Principal *p, TokenRow **rows, int *n, AccountReply *reply)
{
    AccountStatus status = need_account(p, reply);
    if (status != ACCOUNT_OK)
        return status;
    return store_tokens_of(store, p->user_id, rows, n) ? ACCOUNT_OK : store_failed(reply);
}

AccountStatus account_token_revoke(const Principal *p, const char *id, AccountReply *reply)
{
    AccountStatus status = need_account(p, reply);
    if (status != ACCOUNT_OK)
        return status;
    StoreResult result = store_token_delete(store, p->user_id, id);
    if (result == STORE_CONFLICT)
        return fail(reply, ACCOUNT_NOT_FOUND, "you have no token '%.20s'", id);
    return result == STORE_OK ? ACCOUNT_OK : store_failed(reply);
}

AccountStatus account_find(const char *name, UserRow *u, AccountReply *reply)
{
    char id[USER_ID_MAX + 1];
    const char *why;
    int found = account_name_ok(name, id, &why) ? store_user_get(store, id, u) : 0;
    if (found < 0)
        return store_failed(reply);
    return found ? ACCOUNT_OK : fail(reply, ACCOUNT_NOT_FOUND, "no account '%.40s'", name);
}

AccountStatus account_perfs(const char *user_id, PerfRow *rows, AccountReply *reply)
{
    PerfRow *stored;
    int n;
    if (!store_perfs(store, user_id, &stored, &n))
        return store_failed(reply);
    int64_t now = util_now_ms();
    for (int i = 0; i < variant_count(); i++) {
        PerfRow *p = &rows[i];
        *p = (PerfRow){.glicko = glicko_start()};
        snprintf(p->variant, sizeof p->variant, "%s", variant_at(i)->def->name);
        for (int k = 0; k < n; k++)
            if (strcmp(stored[k].variant, p->variant) == 0) {
                *p = stored[k];
                p->glicko = perf_now(&stored[k], now);
            }
    }
    free(stored);
    return ACCOUNT_OK;
}

bool account_counts(const char *user_id, UserCounts *c, AccountReply *reply)
{
    return store_user_counts(store, user_id, c) || (store_failed(reply), false);
}

bool account_rating_points(const char *user_id, RatingPoint **rows, int *n, AccountReply *reply)
{
    return store_rating_points(store, user_id, rows, n) || (store_failed(reply), false);
}

AccountStatus account_top(const char *variant, int limit, TopRow **rows, int *n, AccountReply *reply)
{
    if (!store_top(store, variant, GLICKO_PROVISIONAL_RD, rows, n))
        return store_failed(reply);
    int64_t now = util_now_ms();
    int kept = 0; /* the stored deviations grown to today's: some are provisional again */
    for (int i = 0; i < *n && kept < limit; i++) {
        Glicko g = perf_now(&(*rows)[i].perf, now);
        if (glicko_provisional(g))
            continue;
        (*rows)[kept] = (*rows)[i];
        (*rows)[kept++].perf.glicko = g;
    }
    *n = kept;
    return ACCOUNT_OK;
}

AccountStatus account_rate_seat(SeatRow *seat, const char *variant, AccountReply *reply)
{
    PerfRow perfs[VARIANTS_MAX];
    AccountStatus status = account_perfs(seat->user, perfs, reply);
    for (int i = 0; status == ACCOUNT_OK && i < variant_count(); i++)
        if (strcmp(perfs[i].variant, variant) == 0) {
            seat->rating = (int)lround(perfs[i].glicko.rating);
            seat->prov = glicko_provisional(perfs[i].glicko);
        }
    seat->has_diff = false;
    seat->diff = 0;
    return status;
}

AccountStatus account_seat(const Principal *p, const char *variant, SeatRow *seat, AccountReply *reply)
{
    *seat = (SeatRow){0};
    snprintf(seat->user, sizeof seat->user, "%s", p->user_id);
    snprintf(seat->name, sizeof seat->name, "%s", p->username);
    seat->bot = p->bot;
    return account_rate_seat(seat, variant, reply);
}
