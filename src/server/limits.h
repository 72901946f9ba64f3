/*
 * Per-address limits: how many connections one client address may hold open at once
 * (`--max-connections-per-ip`), how many games it may create in a minute
 * (`--max-new-games-per-minute`) and how many accounts in an hour (`--max-signups-per-hour`),
 * each allowance a bucket that refills evenly over its period.  Each is off at 0.  Past a
 * limit the server answers 429 with a JSON error and Retry-After.  The counts are each
 * instance's own: behind a balancer of K instances an address may get up to K times as much.
 *
 * Behind a proxy (nginx), every connection comes from the proxy's address: the addresses of
 * trusted proxies (`--trusted-proxy`) are never limited themselves; a request through one
 * counts for the client that X-Forwarded-For names (its last address that is not a trusted
 * proxy's: the one the proxy itself appended), and its connection limit counts the requests
 * the client has open at once (an event stream is one for as long as it lasts), since the
 * proxy shares its connections between clients.  X-Forwarded-For from any other address is
 * not believed.
 */
#ifndef STARFISH_SERVER_LIMITS_H
#define STARFISH_SERVER_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Adds the trusted proxies of `list` (addresses, IPv4 or IPv6, separated by commas; at start);
 * false with err set on one that is not an address, or too many. */
bool limits_trust(const char *list, char *err, size_t errlen);
/* Is addr a trusted proxy? */
bool limits_trusted(const struct sockaddr *addr);
/* The client behind a trusted proxy `peer`, as its X-Forwarded-For header names it (NULL:
 * none), in *client; the peer's own address when the header names no address. */
void limits_forwarded(const struct sockaddr *peer, const char *forwarded_for, struct sockaddr_storage *client);

/* Sets the limits (at start, before any connection). */
void limits_set(int connections_per_ip, int new_games_per_minute, int signups_per_hour);
/* The limit on connections, on new games and on new accounts (0: none). */
int limits_connections(void);
int limits_new_games(void);
int limits_signups(void);
/* A connection from addr opens: false when it is one too many (it is counted all the same,
 * and limits_disconnect uncounts it). */
bool limits_connect(const struct sockaddr *addr);
void limits_disconnect(const struct sockaddr *addr);
/* May addr create a game now?  If so, it is counted; if not, *retry_s says in how many
 * seconds it may. */
bool limits_new_game(const struct sockaddr *addr, int *retry_s);
/* The same for an account created from addr. */
bool limits_signup(const struct sockaddr *addr, int *retry_s);
/* Forgets the addresses that hold nothing any more (now and then). */
void limits_sweep(void);
/* Frees what is left (at shutdown). */
void limits_free(void);

#endif
