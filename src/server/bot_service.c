#include "bot_service.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "account_events.h"
#include "store_bots.h"
#include "util.h"

/* The house bots: names, the engine's skill (0-20, 20 full strength; see engine_worker.c and
 * the search's weakening of lower skills) and what their profiles say. */
typedef struct HouseBot {
    const char *name;
    int skill;
    const char *bio;
} HouseBot;

static const HouseBot house_bots[] = {
    {"Starfish-Level-1", 2, "The house engine at skill 2 of 20: it blunders now and then. For a first game."},
    {"Starfish-Level-2", 8, "The house engine at skill 8 of 20: a club player's opponent."},
    {"Starfish-Level-3", 14, "The house engine at skill 14 of 20: strong, with the odd inaccuracy."},
    {"Starfish-Level-4", 20, "The house engine at full strength."},
};
#define HOUSE_BOTS (int)(sizeof house_bots / sizeof house_bots[0])

static Store *store;
static _Atomic int64_t next_presence;
/* Which house bots this server has (a person may hold one's name). */
static bool house_ok[HOUSE_BOTS];

static AccountStatus fail(AccountReply *reply, AccountStatus status, const char *message)
{
    snprintf(reply->message, sizeof reply->message, "%s", message);
    return status;
}

static AccountStatus store_failed(AccountReply *reply)
{
    return fail(reply, ACCOUNT_FAILED, "the accounts cannot be reached (the store failed): try again");
}

/* The house bot of an account id, or NULL. */
static const HouseBot *house_bot(const char *user_id)
{
    for (int i = 0; i < HOUSE_BOTS; i++)
        if (house_ok[i] && strcasecmp(house_bots[i].name, user_id) == 0)
            return &house_bots[i];
    return NULL;
}

bool bot_start(Store *s)
{
    store = s;
    for (int i = 0; i < HOUSE_BOTS; i++) {
        UserRow u = {.created_ms = util_now_ms()};
        const char *why;
        if (!account_name_ok(house_bots[i].name, u.id, &why))
            return false;
        snprintf(u.username, sizeof u.username, "%s", house_bots[i].name);
        snprintf(u.password, sizeof u.password, "!"); /* no password: no one logs in as it */
        if (store_house_bot(store, &u) != STORE_OK)
            return false;
        house_ok[i] = u.bot == BOT_HOUSE;
        if (!house_ok[i])
            fprintf(stderr, "starfish: the house bot %s is not offered: an account has its name\n", u.username);
    }
    return true;
}

void bot_sweep(int64_t now)
{
    int64_t due = atomic_load(&next_presence);
    if (now < due || !atomic_compare_exchange_strong(&next_presence, &due, now + BOT_PRESENCE_EVERY_MS))
        return;
    UserIdText *ids;
    int n;
    if (!account_events_online(&ids, &n))
        return;
    const char **list = malloc((size_t)(n ? n : 1) * sizeof *list);
    for (int i = 0; list && i < n; i++)
        list[i] = ids[i];
    if (list && store_users_online(store, list, n, now) != STORE_OK)
        fprintf(stderr, "starfish: the accounts online were not noted (the store failed)\n");
    free(list);
    free(ids);
}

void bot_seen(const char *user_id)
{
    store_users_online(store, &user_id, 1, util_now_ms());
}

AccountStatus bot_upgrade(const Principal *p, AccountReply *reply)
{
    if (p->via == AUTH_NONE)
        return fail(reply, ACCOUNT_DENIED, "log in first (a bearer token, or a session)");
    StoreResult result = store_user_make_bot(store, p->user_id);
    if (result == STORE_CONFLICT)
        return fail(reply, ACCOUNT_BAD_INPUT, p->bot ? "this account is a bot already"
                                                     : "only an account that has never played a game becomes a bot");
    return result == STORE_OK ? ACCOUNT_OK : store_failed(reply);
}

AccountStatus bot_online(int limit, UserRow **rows, int *n, AccountReply *reply)
{
    return store_bots_online(store, util_now_ms() - BOT_ONLINE_MS, limit, rows, n) ? ACCOUNT_OK
                                                                                    : store_failed(reply);
}

bool bot_is_online(const UserRow *u, int64_t now)
{
    return u->bot == BOT_HOUSE ? house_bot(u->id) != NULL : u->online_ms && now - u->online_ms <= BOT_ONLINE_MS;
}

bool bot_account_online(const char *user_id)
{
    UserRow u;
    return account_events_listening(user_id) ||
           (store_user_get(store, user_id, &u) > 0 && bot_is_online(&u, util_now_ms()));
}

int bot_house_skill(const char *user_id)
{
    const HouseBot *b = house_bot(user_id);
    return b ? b->skill : -1;
}

const char *bot_house_bio(const char *user_id)
{
    const HouseBot *b = house_bot(user_id);
    return b ? b->bio : NULL;
}

Principal bot_house_principal(const UserRow *u)
{
    Principal p = {.via = AUTH_HOUSE, .bot = BOT_HOUSE};
    snprintf(p.user_id, sizeof p.user_id, "%s", u->id);
    snprintf(p.username, sizeof p.username, "%s", u->username);
    return p;
}
