/*
 * How the game service is asked and how it answers: the domain result of an action
 * (GameStatus), the caller's side of a call (GameCall) and a game copied out for the engine
 * (GameCopy).  Apart from game_service.h so that the service's inner header (game_change.h)
 * can name them without including the service's interface.
 */
#ifndef STARFISH_SERVER_GAME_CALL_H
#define STARFISH_SERVER_GAME_CALL_H

#include <stdbool.h>

#include "live_game.h"
#include "store.h"

#define GAME_MESSAGE_MAX 300

typedef enum GameStatus {
    GAME_OK,
    GAME_BAD_ACTION,     /* a draw action other than "offer", "accept" or "decline" */
    GAME_NOT_FOUND,      /* no game with that id */
    GAME_NOT_A_PLAYER,   /* no token, or none of this game's players'; another account */
    GAME_SEAT_TAKEN,     /* joining a side that another account holds */
    GAME_OWN_GAME,       /* joining one's own game's other side */
    GAME_NOT_ABORTABLE,  /* an abort after both sides have moved */
    GAME_NO_BERSERK,     /* a berserk after one's first move, a second one, or in a game without a clock */
    GAME_NO_CLAIM,       /* a claim against an opponent who has not left (long enough), or in a game without a clock */
    GAME_NOT_YOUR_TURN,  /* a move by the side not to move */
    GAME_ILLEGAL_MOVE,   /* an illegal move, or text naming no move */
    GAME_OVER,           /* an action on a finished game */
    GAME_NO_DRAW_OFFER,  /* accept or decline with no offer from the opponent standing */
    GAME_NO_OFFER,       /* a takeback or rematch answered with no offer from the opponent */
    GAME_NO_TAKEBACK,    /* nothing of the player's to take back, or the engine takes none back */
    GAME_NOT_OVER,       /* a rematch before the game has ended */
    GAME_ENGINE_DECIDES, /* a draw offer to the engine: ask it, then call service_draw_answer */
    GAME_STORE_FAILED,   /* the store failed (a change: nothing changed) */
    GAME_CONFLICT,       /* another server process changed the game first: nothing changed */
    GAME_BAD_RECORD,     /* a stored game that the rules refuse */
    GAME_NO_MEMORY,      /* memory ran out: nothing changed */
    GAME_NO_RANDOM,      /* the system's random source failed */
} GameStatus;

/* Who asks (a game token, or an account), what they want to read after the action, and the
 * answer's message. */
typedef struct GameCall {
    const char *token; /* a player's secret; NULL or "": a spectator, or an account */
    const char *user;  /* the account acting (its id), or NULL */
    /* Called under the game's lock with the game after the action and the side of the
     * token (-1 for a spectator), before a change is stored; false when memory ran out
     * (then the change is undone: GAME_NO_MEMORY).  May be NULL. */
    bool (*read)(void *ctx, LiveGame *g, int you);
    void *ctx;
    char message[GAME_MESSAGE_MAX]; /* what went wrong, when the status is not GAME_OK */
} GameCall;

/* A game's start and moves, copied under its lock to be searched outside it. */
typedef struct GameCopy {
    const Variant *v;
    char start_fen[FEN_MAX];
    Move *moves; /* malloc'ed */
    int n;
} GameCopy;

#endif
