/*
 * Tournaments in lichess's shapes (its OpenAPI specification's arena schemas): a tournament
 * as lists show it (ArenaTournament), in full with its standings (ArenaTournamentFull: the
 * page of standings with rank, score, rating and sheet, the duels in play, the podium once
 * over), and its results (a line a player).  A round robin is a tournament of "system":
 * "robin" with a "crossTable", our extension.
 */
#ifndef STARFISH_SERVER_TOURNAMENT_JSON_H
#define STARFISH_SERVER_TOURNAMENT_JSON_H

#include <jansson.h>

#include "tournament_standings.h"

#define STANDING_PAGE 10 /* players a page of the standings */

/* ArenaTournament; NULL when memory runs out. */
json_t *tournament_json(const TournamentRow *t, int64_t now);
/* ArenaTournamentFull with standing page `page` (1 first); NULL when memory runs out. */
json_t *tournament_full_json(const Standings *s, int page, int64_t now);
/* The results: a player a line, best first. */
json_t *tournament_results_json(const Standings *s);
/* The games, in the order they ended (those in play last): {id, result, plies, createdAt,
 * lastMoveAt, players: {white: {user: {id, name}, rating, berserk}, black}, winner?}. */
json_t *tournament_games_json(const Standings *s);

#endif
