/*
 * Accounts in the store (store_accounts.c), on any backend: users, their sessions and API
 * tokens (kept as SHA-256 digests, never the secrets), failed logins (the throttle), ratings
 * per variant, and the reads of profiles and leaderboards.  Every change is one transaction.
 */
#ifndef STARFISH_SERVER_STORE_ACCOUNTS_H
#define STARFISH_SERVER_STORE_ACCOUNTS_H

#include <stdbool.h>
#include <stdint.h>

#include "glicko2.h"
#include "secret.h"
#include "store.h"

#define TOKEN_ID_LEN 8
#define TOKEN_DESCRIPTION_MAX 100

/* The columns of a UserRow, as store_read_user reads them. */
#define USER_COLUMNS "id, username, password, created_ms, closed_ms, bot, online_ms"

typedef struct UserRow {
    char id[USER_ID_MAX + 1]; /* the name in lower case */
    char username[USER_ID_MAX + 1];
    char password[SECRET_HASH_MAX];
    int64_t created_ms, closed_ms; /* closed_ms 0: open */
    BotKind bot;
    int64_t online_ms; /* when an event stream of the account was last seen open; 0: never */
} UserRow;

/* A session or token's account, as a request's authentication finds it. */
typedef struct Holder {
    char user_id[USER_ID_MAX + 1];
    char username[USER_ID_MAX + 1];
    BotKind bot;
    int64_t used_ms;
} Holder;

typedef struct TokenRow {
    char id[TOKEN_ID_LEN + 1];
    char description[TOKEN_DESCRIPTION_MAX + 1];
    int64_t created_ms, used_ms; /* used_ms 0: never used */
} TokenRow;

/* An account's rating in a variant, as stored (after its last rated game). */
typedef struct PerfRow {
    char variant[32];
    Glicko glicko;
    int games;
    int64_t rated_ms; /* the last rated game's end */
} PerfRow;

/* ---- Users ---- */
/* Reads a UserRow (void *: for store_read_rows) from the row's USER_COLUMNS. */
void store_read_user(const SqlRows *r, int row, void *out);
/* A new account: STORE_CONFLICT when the id (the name in any case) is taken. */
StoreResult store_user_insert(Store *s, const UserRow *u);
/* The account with that id: 1 found, 0 not, -1 error. */
int store_user_get(Store *s, const char *id, UserRow *u);
/* Every account, oldest first (*rows malloc'ed). */
bool store_user_list(Store *s, UserRow **rows, int *n);
/* A new password hash; every session of the account but `keep` (a session digest; "": every
 * one) ends in the same transaction.  With keep NULL no session ends (the same password
 * hashed again with today's parameters). */
StoreResult store_user_set_password(Store *s, const char *id, const char *hash, const char *keep);
/* Closes the account: its sessions and tokens end, its name stays taken. */
StoreResult store_user_close(Store *s, const char *id, int64_t now);

/* ---- Sessions and tokens (by the digest of their secret) ---- */
StoreResult store_session_insert(Store *s, const char *digest, const char *user_id, int64_t now);
/* The session's account (open accounts only): 1 found, 0 not, -1 error. */
int store_session_get(Store *s, const char *digest, Holder *h);
StoreResult store_session_touch(Store *s, const char *digest, int64_t now);
/* Ends a session (STORE_CONFLICT: there was none); and every session unused since `before`. */
StoreResult store_session_delete(Store *s, const char *digest);
StoreResult store_sessions_expire(Store *s, int64_t before);

StoreResult store_token_insert(Store *s, const char *id, const char *digest, const char *user_id,
                               const char *description, int64_t now);
/* The token's account (open accounts only), noting its use: 1 found, 0 not, -1 error. */
int store_token_get(Store *s, const char *digest, Holder *h);
StoreResult store_token_touch(Store *s, const char *digest, int64_t now);
/* The account's tokens, newest first (*rows malloc'ed). */
bool store_tokens_of(Store *s, const char *user_id, TokenRow **rows, int *n);
/* Revokes the account's token `id`: STORE_CONFLICT when it has none of that id. */
StoreResult store_token_delete(Store *s, const char *user_id, const char *id);

/* ---- The login throttle ---- */
/* Notes a failed login for the name tried and the address; forgets those before `before`. */
StoreResult store_login_failed(Store *s, const char *user_id, const char *address, int64_t now);
StoreResult store_login_forget(Store *s, int64_t before);
/* When the limit-th latest failure since `since` happened, for the name tried (by_address
 * false) or for the address: 0 when there are fewer; -1 on an error. */
int64_t store_nth_failure(Store *s, bool by_address, const char *value, int limit, int64_t since);

/* ---- Ratings ---- */
/* The account's stored ratings, one row per variant it has played rated (*rows malloc'ed). */
bool store_perfs(Store *s, const char *user_id, PerfRow **rows, int *n);
/* An account's rating in a leaderboard. */
typedef struct TopRow {
    char user_id[USER_ID_MAX + 1];
    char username[USER_ID_MAX + 1];
    PerfRow perf;
} TopRow;
/* The stored ratings of a variant's open accounts whose deviation is at most max_rd, best
 * first (*rows malloc'ed). */
bool store_top(Store *s, const char *variant, double max_rd, TopRow **rows, int *n);
/* Inside a game's change (store_games.c): the rated game's end applied to both accounts'
 * ratings (each first aged by the whole days since its last rated game), and the seats given
 * their ratings before it and the change. */
StoreResult store_rate_game(Sql *sql, const char *game_id, RatedEnd *r);
/* A stored rating as it stands at `now`: its deviation grown for the whole days since its last
 * rated game. */
Glicko perf_now(const PerfRow *p, int64_t now);

/* ---- Profiles ---- */
typedef struct UserCounts {
    int all, rated, win, loss, draw;
    char playing[STORE_ID_MAX + 1]; /* an unfinished game of the account's, or "" */
} UserCounts;
bool store_user_counts(Store *s, const char *user_id, UserCounts *c);
/* A point of a rating's history: the rating after a rated game that ended at at_ms. */
typedef struct RatingPoint {
    char variant[32];
    int64_t at_ms;
    int rating;
} RatingPoint;
/* The account's rated games' results, oldest first (*rows malloc'ed). */
bool store_rating_points(Store *s, const char *user_id, RatingPoint **rows, int *n);

#endif
