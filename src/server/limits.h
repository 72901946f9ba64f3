/*
 * Per-address limits: how many connections one client address may hold open at once
 * (`--max-connections-per-ip`) and how many games it may create in a minute
 * (`--max-new-games-per-minute`, a bucket that refills evenly over the minute).  Each is off
 * at 0.  Past a limit the server answers 429 with a JSON error.
 */
#ifndef STARFISH_SERVER_LIMITS_H
#define STARFISH_SERVER_LIMITS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

/* Sets the limits (at start, before any connection). */
void limits_set(int connections_per_ip, int new_games_per_minute);
/* The limit on connections, and on new games (0: none). */
int limits_connections(void);
int limits_new_games(void);
/* A connection from addr opens: false when it is one too many (it is counted all the same,
 * and limits_disconnect uncounts it). */
bool limits_connect(const struct sockaddr *addr);
void limits_disconnect(const struct sockaddr *addr);
/* May addr create a game now?  If so, it is counted; if not, *retry_s says in how many
 * seconds it may. */
bool limits_new_game(const struct sockaddr *addr, int *retry_s);
/* Forgets the addresses that hold nothing any more (now and then). */
void limits_sweep(void);
/* Frees what is left (at shutdown). */
void limits_free(void);

#endif
