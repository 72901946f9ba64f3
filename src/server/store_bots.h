/*
 * Bots and presence in the store (store_bots.c), on any backend: an account made a bot, the
 * house engine's bot accounts, when accounts were last online (an event stream open on some
 * instance), and the bots online.
 */
#ifndef STARFISH_SERVER_STORE_BOTS_H
#define STARFISH_SERVER_STORE_BOTS_H

#include <stdbool.h>
#include <stdint.h>

#include "store_accounts.h"

/* Makes the open account `id` a bot (BOT_ACCOUNT): STORE_CONFLICT when it is one already, is
 * closed, or has a game (lichess's rule: only an account that never played becomes a bot). */
StoreResult store_user_make_bot(Store *s, const char *id);
/* The house bot `u` (bot BOT_HOUSE), unless the name is taken; then *u is the account that has
 * it (a person who took the name first stays a person). */
StoreResult store_house_bot(Store *s, UserRow *u);
/* The accounts `ids` (n of them) are online at `now`; one transaction. */
StoreResult store_users_online(Store *s, const char *const *ids, int n, int64_t now);
/* The open bot accounts online since `since`, and the house bots always, house bots first,
 * then by name; at most `limit` (*rows malloc'ed). */
bool store_bots_online(Store *s, int64_t since, int limit, UserRow **rows, int *n);

#endif
