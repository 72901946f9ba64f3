/*
 * Bots: an account that has never played becomes a bot (lichess's POST /api/bot/account/upgrade)
 * and from then on plays through the Bot API only; the house engine's bot accounts, made at
 * start, of several strengths, which accept every challenge at once (the server's engine
 * plays their moves, so that a game against the computer can be rated); and presence: which
 * accounts are online (an event stream open on some instance, renewed in the store every few
 * seconds), for the list of bots online and the challenges' "online".
 */
#ifndef STARFISH_SERVER_BOT_SERVICE_H
#define STARFISH_SERVER_BOT_SERVICE_H

#include "account_service.h"

#define BOT_PRESENCE_EVERY_MS 10000 /* each instance notes its accounts online this often */
#define BOT_ONLINE_MS 30000         /* an account noted online this recently is online */
#define BOT_ONLINE_MAX 300          /* the most bots listed at once */

/* Starts the service on a store: the house bots' accounts made if missing (a person who took
 * one's name first keeps it, and that house bot is not offered).  False when the store fails. */
bool bot_start(Store *store);
/* For the clock thread: the accounts with an event stream open here noted online (every
 * BOT_PRESENCE_EVERY_MS). */
void bot_sweep(int64_t now);

/* The account has just opened an event stream: noted online now. */
void bot_seen(const char *user_id);

/* Makes the principal's account a bot: ACCOUNT_BAD_INPUT when it has played or is one already. */
AccountStatus bot_upgrade(const Principal *p, AccountReply *reply);
/* The bots online, house bots first, at most `limit` (*rows malloc'ed). */
AccountStatus bot_online(int limit, UserRow **rows, int *n, AccountReply *reply);
/* Is the account online at `now` (a house bot always is)? */
bool bot_is_online(const UserRow *u, int64_t now);

/* Is the account online: a stream of its events open here, or on some instance lately (a
 * house bot always is)?  False when the store fails. */
bool bot_account_online(const char *user_id);
/* A house bot's engine skill (0-20), or -1 when user_id is not a house bot of this server. */
int bot_house_skill(const char *user_id);
/* A house bot's description for its profile, or NULL. */
const char *bot_house_bio(const char *user_id);
/* The principal that acts for house bot u (via AUTH_HOUSE). */
Principal bot_house_principal(const UserRow *u);

#endif
