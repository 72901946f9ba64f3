/*
 * One game of the bot, on a thread of its own (bot_game.c): the game's stream read (gameFull,
 * then gameState after every change; opened again after it drops), and on the bot's turn its
 * engine asked for a move and the move sent, once.  The game ends when the stream says so, or
 * when the bot stops (the game then left to the server's clocks, or resigned or aborted, as
 * the config says).
 */
#ifndef STARFISH_BOT_GAME_H
#define STARFISH_BOT_GAME_H

#include "bot.h"
#include "bot_http.h"

/* Who the bot is, where, and how it plays: shared read-only by every thread. */
typedef struct Bot {
    BotConfig cfg;
    BotConn conn;
    char me_id[BOT_ID_MAX], me_name[BOT_ID_MAX]; /* the account of the token */
} Bot;

typedef struct BotGame BotGame;

/* A game to play (NULL when memory runs out); its thread runs bot_game_run. */
BotGame *bot_game_new(const Bot *b, const char *id);
void *bot_game_run(void *game);
/* The event stream said the game finished: the thread ends once its stream cannot tell more. */
void bot_game_finish_seen(BotGame *g);
/* True once the thread is about to end (it may then be joined). */
bool bot_game_done(BotGame *g);
void bot_game_free(BotGame *g);

#endif
