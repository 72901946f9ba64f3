/* The web app: `starfish serve` (HTTP + Server-Sent Events, JSON API, SQLite or PostgreSQL store). */
#ifndef STARFISH_SERVER_H
#define STARFISH_SERVER_H

#include <stdint.h>

#include "../util/options.h"
#include "store.h"

/* `starfish serve [--port N] [--db FILE] [--web DIR] [--host ADDR] [--evict-after SECONDS]
 * [--timeout SECONDS] [--max-connections-per-ip N] [--max-new-games-per-minute N]
 * [--trusted-proxy ADDR] [--db-pool N]`: its
 * options, and what runs it (argv[0] is "serve"); returns the exit status. */
extern const Command serve_command;
int server_main(int argc, char **argv);

/* Gives every service that keeps games, accounts, seeks, tournaments or presence the store, and
 * starts hearing the other instances' streams through it (the server and the API's fuzz target
 * start them alike); NULL, or what failed. */
const char *server_use_store(Store *store, int64_t claim_after_ms);

#endif
