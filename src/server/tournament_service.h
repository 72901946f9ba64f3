/*
 * Tournaments: arenas (lichess's rules: players paired as they wait, by rank, for a fixed
 * time; points, fire and berserk as tournament_rules.h has them) and round robins (a fixed
 * list of players, Berger tables, each pair twice with colours swapped).  Created through the
 * API or from the server's schedule, joined and left by accounts; their games are ordinary
 * games with a tournament (gameStart on the players' event streams).  The director
 * (tournament_director.c) starts, pairs and finishes them, on one instance at a time.  Answers
 * in domain terms; the HTTP layer (api_tournaments.c) turns them into status codes.
 */
#ifndef STARFISH_SERVER_TOURNAMENT_SERVICE_H
#define STARFISH_SERVER_TOURNAMENT_SERVICE_H

#include "account_service.h"
#include "game_service.h"
#include "tournament_standings.h"

#define TOURNAMENT_MESSAGE_MAX 200
#define ROBIN_PLAYERS_MAX 20
#define TOURNAMENT_MINUTES_MAX 720

typedef enum TourStatus {
    TOUR_OK,
    TOUR_BAD,       /* options the rules refuse, or a condition not met (400) */
    TOUR_DENIED,    /* not logged in (401) */
    TOUR_NOT_FOUND, /* no such tournament or account (404) */
    TOUR_CLOSED,    /* finished, or a round robin's fixed list (409) */
    TOUR_FAILED,    /* the store failed, or memory ran out (503) */
} TourStatus;

/* What a new tournament is to be. */
typedef struct TourOptions {
    const char *name; /* NULL: "<variant> Arena" or "<variant> Round Robin" */
    bool robin;
    const Variant *v;
    int limit_s, increment_s;
    int minutes; /* an arena's length */
    bool rated, berserkable, bots_allowed;
    int min_rating, max_rating, min_rated_games; /* 0: none */
    const char *description;                     /* or NULL */
    int64_t starts_ms;
    const char *const *players; /* a round robin's usernames, in seat order */
    int nplayers;
} TourOptions;

/* Starts the service on a store. */
void tournament_start(Store *store);

/* A new tournament by p (NULL: the server's schedule, `schedule` naming the entry), in *t. */
TourStatus tournament_create(const Principal *p, const TourOptions *o, const char *schedule, TournamentRow *t,
                             char *message);
/* p joins (again, after withdrawing) or withdraws. */
TourStatus tournament_join(const Principal *p, const char *id, char *message);
TourStatus tournament_withdraw(const Principal *p, const char *id, char *message);
/* The tournament and its standings (standings_free them). */
TourStatus tournament_read(const char *id, Standings *s, char *message);
/* Tournaments of a status ("created", "started", "finished"). */
TourStatus tournament_list(const char *status, int limit, TournamentRow **rows, int *n, char *message);
/* A berserk in game g, which must be a game of a tournament that allows it. */
GameStatus tournament_berserk(LiveGame *g, GameCall *call);

#endif
