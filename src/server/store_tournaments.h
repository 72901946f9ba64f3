/*
 * Tournaments in the store (store_tournaments.c), on any backend: arenas and round robins,
 * their players (who joined, withdrew), the games they played (the standings are computed
 * from them, never stored), and the leases by which one instance at a time pairs them.
 */
#ifndef STARFISH_SERVER_STORE_TOURNAMENTS_H
#define STARFISH_SERVER_STORE_TOURNAMENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "store.h"

#define TOURNAMENT_NAME_MAX 60
#define TOURNAMENT_DESCRIPTION_MAX 400
#define TOURNAMENT_SCHEDULE_MAX 60

typedef struct TournamentRow {
    char id[STORE_ID_MAX + 1];
    char name[TOURNAMENT_NAME_MAX + 1];
    char system[8]; /* "arena" or "robin" */
    char variant[32];
    int limit_s, increment_s;
    int minutes; /* an arena's length; 0 for a round robin */
    bool rated, berserkable, bots_allowed;
    int min_rating, max_rating, min_rated_games; /* entry conditions; 0: none */
    char description[TOURNAMENT_DESCRIPTION_MAX + 1];
    char created_by[USER_ID_MAX + 1]; /* "": the server's schedule */
    char schedule[TOURNAMENT_SCHEDULE_MAX + 1];
    int64_t created_ms, starts_ms, finishes_ms; /* finishes_ms 0: not known yet (a round robin) */
    char status[12]; /* "created", "started", "finished" */
    int round;       /* a round robin's round in play */
    int players;     /* how many joined (read with it) */
} TournamentRow;

/* A player of a tournament. */
typedef struct EntrantRow {
    char user[USER_ID_MAX + 1];
    char name[USER_ID_MAX + 1];
    BotKind bot;
    int seat; /* a round robin's number; the order of joining */
    int64_t joined_ms;
    bool withdrawn;
    int64_t online_ms; /* the account's presence (users.online_ms) */
    int rating;        /* in the tournament's variant, as stored (1500 before a rated game) */
    int rated_games;   /* in that variant */
} EntrantRow;

/* A game of a tournament, as its standings need it. */
typedef struct TourGameRow {
    char id[STORE_ID_MAX + 1];
    char user[2][USER_ID_MAX + 1];
    char result[8]; /* "*" while it goes on */
    int plies;
    bool berserk[2];
    int rating[2]; /* the accounts' when they came to the game */
    int64_t created_ms, ended_ms;
} TourGameRow;

/* A new tournament and, for a round robin, its players (user ids, n of them, seats in that
 * order); STORE_CONFLICT when the id, or the schedule's entry at that start, exists. */
StoreResult store_tournament_insert(Store *s, const TournamentRow *t, const char *const *players, int n);
/* The tournament with that id: 1 found, 0 not, -1 error. */
int store_tournament_get(Store *s, const char *id, TournamentRow *t);
/* Tournaments of a status, soonest start first for "created" and "started", latest first for
 * "finished"; at most `limit` (*rows malloc'ed). */
bool store_tournaments_list(Store *s, const char *status, int limit, TournamentRow **rows, int *n);
/* The tournament's players, by seat (*rows malloc'ed). */
bool store_tournament_entrants(Store *s, const char *id, EntrantRow **rows, int *n);
/* The tournament's games, those finished first (by their end), then those going on. */
bool store_tournament_games(Store *s, const char *id, TourGameRow **rows, int *n);
/* Account user joins (again: no longer withdrawn), at the next seat. */
StoreResult store_tournament_join(Store *s, const char *id, const char *user, int64_t now);
/* Account user withdraws: STORE_CONFLICT when it had not joined. */
StoreResult store_tournament_withdraw(Store *s, const char *id, const char *user);
/* Moves a tournament on, from status `from` and round `round` (as read) to `to`, `next_round`
 * and (finishes_ms > 0) its end: STORE_CONFLICT when someone moved it first. */
StoreResult store_tournament_advance(Store *s, const char *id, const char *from, int round, const char *to,
                                     int next_round, int64_t finishes_ms);

/* Takes or renews the lease on job `name` for `holder` until `until` (when it is free: no
 * holder, or one whose lease ran out before `now`): 1 held, 0 another holds it, -1 error. */
int store_lease(Store *s, const char *name, const char *holder, int64_t now, int64_t until);

#endif
