/*
 * The accounts: signing up and logging in (Argon2id, the login throttle), sessions and
 * personal API tokens, who a request's credentials name (its principal), passwords changed,
 * accounts closed, and each account's ratings.  It answers in domain terms (AccountStatus and
 * a message); the HTTP layer (api_account.c) turns those into status codes.  Everything lives
 * in the store, read afresh on every request, so that several instances agree at once: a
 * session ended on one is ended on all.
 */
#ifndef STARFISH_SERVER_ACCOUNT_SERVICE_H
#define STARFISH_SERVER_ACCOUNT_SERVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "store_accounts.h"

#define USER_NAME_MIN 3
#define PASSWORD_MIN 8   /* characters */
#define PASSWORD_MAX 128 /* characters */
#define SESSION_IDLE_MS (30LL * 24 * 3600 * 1000) /* a session unused this long has ended */
#define LOGIN_WINDOW_MS (15LL * 60 * 1000)
#define LOGIN_FAILURES_PER_NAME 5     /* within the window: then every attempt gets 429 */
#define LOGIN_FAILURES_PER_ADDRESS 20
#define TOKEN_PREFIX "sfp_"           /* a personal token: the prefix and a secret */
#define TOKEN_TEXT_MAX (sizeof TOKEN_PREFIX - 1 + SECRET_LEN)
#define ACCOUNT_MESSAGE_MAX 200

typedef enum AccountStatus {
    ACCOUNT_OK,
    ACCOUNT_BAD_INPUT, /* a name or password that the rules refuse */
    ACCOUNT_TAKEN,     /* the name (in any case) is someone's */
    ACCOUNT_DENIED,    /* wrong credentials, or none where they are needed */
    ACCOUNT_THROTTLED, /* too many failed logins: retry_s says when to try again */
    ACCOUNT_NOT_FOUND, /* no such account, or no such token of the account's */
    ACCOUNT_FAILED,    /* the store failed, or memory or randomness ran out: nothing changed */
} AccountStatus;

/* How a request proved who it is. */
typedef enum AuthVia {
    AUTH_NONE,
    AUTH_SESSION,
    AUTH_TOKEN,
    AUTH_HOUSE, /* the server itself, for one of its house bots (bot_service.h) */
} AuthVia;

/* The account a request acts for, if any. */
typedef struct Principal {
    AuthVia via;
    char user_id[USER_ID_MAX + 1];
    char username[USER_ID_MAX + 1];
    BotKind bot;
    char digest[SECRET_DIGEST_LEN + 1]; /* the session's or token's */
} Principal;

/* What an account call answers besides its status. */
typedef struct AccountReply {
    char message[ACCOUNT_MESSAGE_MAX]; /* what went wrong */
    int retry_s;                        /* ACCOUNT_THROTTLED: seconds to wait */
    char secret[TOKEN_TEXT_MAX + 1];    /* a new session id or token, to hand over once */
    char token_id[TOKEN_ID_LEN + 1];    /* a new token's id */
} AccountReply;

/* Starts the service on a store (which it uses, not owns); false when libsodium cannot start. */
bool account_start(Store *store);
/* For the clock thread: sessions idle past SESSION_IDLE_MS and old failed logins go (at
 * most once an hour). */
void account_sweep(int64_t now);

/* A name's account id (the name in lower case) in id; false when the name breaks the rules
 * (3-20 of A-Za-z0-9_-), the reason in *why. */
bool account_name_ok(const char *name, char id[USER_ID_MAX + 1], const char **why);

/* A new account and a session for it (reply->secret: the session id). */
AccountStatus account_signup(const char *name, const char *password, Principal *p, AccountReply *reply);
/* Logs in from `address` (for the throttle): a new session (reply->secret).  A wrong password
 * and an unknown name get the same answer and take the same time. */
AccountStatus account_login(const char *name, const char *password, const char *address, Principal *p,
                            AccountReply *reply);
/* The principal of a request's credentials: a session id (from the cookie) and a bearer token,
 * either NULL.  A token that names no open account is ACCOUNT_DENIED; a session that does not
 * is no principal (AUTH_NONE). */
AccountStatus account_authenticate(const char *session, const char *bearer, Principal *p, AccountReply *reply);
/* Ends the principal's session (a token is not a session: ACCOUNT_DENIED). */
AccountStatus account_logout(const Principal *p, AccountReply *reply);
/* A new password, the old one given: every other session of the account ends. */
AccountStatus account_change_password(const Principal *p, const char *old, const char *new_password,
                                      AccountReply *reply);
/* Closes the account, its password given: sessions and tokens end, the name stays taken. */
AccountStatus account_close(const Principal *p, const char *password, AccountReply *reply);

/* A personal API token (reply->secret, reply->token_id); the account's tokens (no secrets);
 * one revoked. */
AccountStatus account_token_create(const Principal *p, const char *description, AccountReply *reply);
AccountStatus account_tokens(const Principal *p, TokenRow **rows, int *n, AccountReply *reply);
AccountStatus account_token_revoke(const Principal *p, const char *id, AccountReply *reply);

/* The account named `name` (any case): ACCOUNT_NOT_FOUND when there is none. */
AccountStatus account_find(const char *name, UserRow *u, AccountReply *reply);
/* The account's rating in every variant as it stands now (variant_count() rows, in the
 * registry's order; 1500 / 350 / 0.06 where it has played no rated game). */
AccountStatus account_perfs(const char *user_id, PerfRow *rows, AccountReply *reply);
/* The account's games counted (all but aborted ones, rated, won, lost, drawn) and one it is
 * playing; false with reply->message set when the store fails. */
bool account_counts(const char *user_id, UserCounts *c, AccountReply *reply);
/* The ratings after each of the account's rated games, oldest first (*rows malloc'ed). */
bool account_rating_points(const char *user_id, RatingPoint **rows, int *n, AccountReply *reply);
/* The variant's best `limit` ratings that are not provisional now, best first (*rows
 * malloc'ed, their deviations grown for idle days). */
AccountStatus account_top(const char *variant, int limit, TopRow **rows, int *n, AccountReply *reply);

/* The account's seat at a new game of the variant: its id and name, its rating now. */
AccountStatus account_seat(const Principal *p, const char *variant, SeatRow *seat, AccountReply *reply);
/* A seat's account's rating in the variant now (a rematch's seats), no change yet. */
AccountStatus account_rate_seat(SeatRow *seat, const char *variant, AccountReply *reply);

/* For the operator (`starfish user`): an account made without a session; a new password set
 * (every session ended); an account closed. */
AccountStatus account_create(const char *name, const char *password, AccountReply *reply);
AccountStatus account_reset_password(const char *name, const char *password, AccountReply *reply);
AccountStatus account_close_by_name(const char *name, AccountReply *reply);

#endif
