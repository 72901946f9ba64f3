/* The web app: `starfish serve` (HTTP + Server-Sent Events, JSON API, SQLite store). */
#ifndef STARFISH_SERVER_H
#define STARFISH_SERVER_H

/* Runs `starfish serve [--port N] [--db FILE] [--web DIR] [--host ADDR] [--evict-after SECONDS]`;
 * returns the exit status. */
int server_main(int argc, char **argv);

#endif
