/*
 * One game of the bot, on its own thread (bot_game.h).
 *
 * The thread loops until the game is over or the bot stops: it waits up to LOOP_MS for the
 * game's stream or its engine, takes the stream's events (gameFull, gameState, chatLine,
 * opponentGone), then acts (turn()): reads the engine, sends its move, calls off a search the
 * game overtook, or starts a search when it is the bot's turn.
 *
 * Never the same move twice, never a turn missed.  A turn is known by the number of moves
 * the server reports (sent_ply: the number of moves when the server took ours): a state that
 * comes late with that number (one sent before our move reached the server) asks nothing; a
 * takeback, which makes the number smaller, forgets it.  A move whose request got no answer
 * (the network) is sent again until the server answers or the game moves on; a move the
 * server refuses (400, or our server's 409) is asked of the engine once more, and a second
 * refusal resigns (while the game's stream is down, the engine is asked again only once it is
 * back: the refusal may be of a move the server took before its answer was lost).  After a
 * dropped stream, the stream is opened again and its gameFull (every move) says where the
 * game is.
 */
#include "bot_game.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/game.h"
#include "../core/notation.h"
#include "../util/clock.h"
#include "../variants/registry.h"
#include "bot_player.h"

#define LOOP_MS 100              /* the longest wait between looks at the game */
#define BACKOFF_MIN_S 1.0        /* the first wait before opening a dropped stream again */
#define BACKOFF_MAX_S 30.0
#define REFUSAL_WAIT_S 0.5       /* after a refused move, for the stream to catch up first */
#define RESEND_MAX_S 8.0         /* the longest wait before sending an unanswered move again */
#define THINK_MARGIN_S 10.0      /* past its time, how long a search's answer is waited for */
#define MOVE_TEXT_LIMIT 32

struct BotGame {
    const Bot *bot;
    char id[BOT_ID_MAX], what[BOT_ID_MAX + 8]; /* what: "game ID", for the log */
    atomic_bool finish_seen, done;
    /* From gameFull. */
    bool full;
    char variant[BOT_KEY_MAX];
    char *initial_fen;      /* NULL: the variant's start */
    int color, first_side;  /* the bot's side; the side to move at the start */
    bool real_clock;        /* a clock, not days a move and not unlimited */
    bool chess;             /* lichess's chess: its king-to-rook castling written for the engine */
    /* The last gameState. */
    char *moves;            /* as the server writes them, space-separated */
    int nmoves, max_moves;
    long long time_ms[2], inc_ms[2];
    double state_at;        /* clock_seconds() when it came */
    char status[32], winner[8];
    bool their_draw, their_takeback; /* the opponent offers */
    /* The bot's part. */
    int think_ply;          /* moves on the board when the running search started */
    int sent_ply;           /* moves on the board when the server took the bot's move (-1) */
    char pending[MOVE_TEXT_LIMIT]; /* a move to send ("" none), for pending_ply */
    int pending_ply;
    double resend_at, resend_wait;
    int refused_ply, refusals;
    double refused_at;
    int answered_draw, answered_takeback; /* moves on the board when the offer was answered */
    int low_scores;         /* moves in a row scored below resign.score */
    int engine_failures;
    double engine_retry_at;
    bool over, gave_up;
    Player player;
    /* The stream. */
    BotStream stream;
    double reconnect_at, backoff;
    bool reconnecting;      /* the stream dropped: the next gameFull is a reconnection */
};

BotGame *bot_game_new(const Bot *b, const char *id)
{
    BotGame *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->bot = b;
    snprintf(g->id, sizeof g->id, "%s", id);
    snprintf(g->what, sizeof g->what, "game %s", id);
    snprintf(g->player.what, sizeof g->player.what, "game %s", id);
    g->sent_ply = g->pending_ply = g->refused_ply = g->answered_draw = g->answered_takeback = -1;
    g->think_ply = -1;
    g->backoff = BACKOFF_MIN_S;
    g->stream.state = STREAM_ENDED;
    atomic_init(&g->finish_seen, false);
    atomic_init(&g->done, false);
    return g;
}

void bot_game_finish_seen(BotGame *g)
{
    atomic_store(&g->finish_seen, true);
}

bool bot_game_done(BotGame *g)
{
    return atomic_load(&g->done);
}

void bot_game_free(BotGame *g)
{
    if (!g)
        return;
    free(g->initial_fen);
    free(g->moves);
    free(g);
}

/* ---- Talking to the server ------------------------------------------------------------- */

/* POST /api/bot/game/ID/ACTION; the status (0: no answer), with what went wrong in why. */
static long post(BotGame *g, const char *action, char *why, size_t whylen)
{
    char path[256], err[256];
    Text body = {0};
    snprintf(path, sizeof path, "/api/bot/game/%s/%s", g->id, action);
    long status = http_call(&g->bot->conn, "POST", path, "", &body, err, sizeof err);
    if (status != 200)
        http_describe(status, &body, err, why, whylen);
    text_free(&body);
    return status;
}

/* An action whose answer only goes to the log when it fails. */
static bool act(BotGame *g, const char *action)
{
    char why[300];
    if (post(g, action, why, sizeof why) == 200)
        return true;
    bot_log("%s: %s failed: %s", g->what, action, why);
    return false;
}

/* Gives the game up: aborted where that can still be done, else resigned. */
static void give_up(BotGame *g, const char *why)
{
    if (g->gave_up || g->over)
        return;
    g->gave_up = true;
    bot_log("%s: giving the game up: %s", g->what, why);
    char ignored[300];
    if (post(g, "abort", ignored, sizeof ignored) != 200)
        act(g, "resign");
}

/* ---- The game's events ----------------------------------------------------------------- */

static const char *side_name(int side)
{
    return side == WHITE ? "white" : "black";
}

/* The side to move in a position text (its second field), WHITE when it says nothing. */
static int side_of_fen(const char *fen)
{
    const char *f = fen ? strchr(fen, ' ') : NULL;
    return f && f[1] == 'b' && (f[2] == ' ' || f[2] == 0) ? BLACK : WHITE;
}

/* "1+0", "3 days a move" or "unlimited", from gameFull. */
static void describe_clock(json_t *full, char *out, size_t len)
{
    json_t *clock = json_at(full, "clock");
    long long days = json_number(full, "daysPerTurn");
    if (json_is_object(clock))
        snprintf(out, len, "%g+%g", json_number(clock, "initial") / 60000.0, json_number(clock, "increment") / 1000.0);
    else if (days > 0)
        snprintf(out, len, "%lld day%s a move", days, days == 1 ? "" : "s");
    else
        snprintf(out, len, "unlimited");
}

/* A player of gameFull, for the log: "NAME (RATING)". */
static void describe_player(json_t *p, char *out, size_t len)
{
    const char *name = json_text(p, "name");
    json_t *rating = json_at(p, "rating");
    if (json_is_integer(rating))
        snprintf(out, len, "%s (%lld%s)", *name ? name : "?", (long long)json_integer_value(rating),
                 json_flag(p, "provisional") ? "?" : "");
    else
        snprintf(out, len, "%s", *name ? name : "?");
}

static bool read_full(BotGame *g, json_t *full)
{
    const char *white = json_text(full, "white.id"), *black = json_text(full, "black.id");
    const char *me = g->bot->me_id;
    if (strcasecmp(white, me) != 0 && strcasecmp(black, me) != 0) {
        bot_log("%s: the account %s plays neither side: left alone", g->what, g->bot->me_name);
        return false;
    }
    bool first = !g->full;
    g->full = true;
    g->color = strcasecmp(white, me) == 0 ? WHITE : BLACK;
    snprintf(g->variant, sizeof g->variant, "%s", json_text(full, "variant.key"));
    const char *fen = json_text(full, "initialFen");
    free(g->initial_fen);
    g->initial_fen = *fen && strcmp(fen, "startpos") != 0 ? strdup(fen) : NULL;
    g->first_side = side_of_fen(g->initial_fen);
    g->real_clock = json_is_object(json_at(full, "clock")) && !json_number(full, "daysPerTurn");
    g->chess = strcmp(g->variant, "standard") == 0 || strcmp(g->variant, "fromPosition") == 0 ||
               strcmp(g->variant, "chess") == 0;
    if (first) {
        char clock[48], opponent[128];
        describe_clock(full, clock, sizeof clock);
        describe_player(json_at(full, g->color == WHITE ? "black" : "white"), opponent, sizeof opponent);
        const char *tournament = json_text(full, "tournamentId");
        bot_log("%s: started: %s as %s against %s, %s, %s, %s%s%s", g->what, g->bot->me_name, side_name(g->color),
                opponent, g->variant, clock, json_flag(full, "rated") ? "rated" : "casual",
                *tournament ? ", tournament " : "", tournament);
    }
    return true;
}

/* The result, as PGN writes it, and the bot's part in it. */
static void log_end(BotGame *g)
{
    bool aborted = strcmp(g->status, "aborted") == 0;
    const char *result = aborted ? "*" : !strcmp(g->winner, "white") ? "1-0" : !strcmp(g->winner, "black") ? "0-1"
                                                                                                            : "1/2-1/2";
    const char *mine = aborted || !g->full ? "" : !g->winner[0] ? ", a draw"
                                                  : strcmp(g->winner, side_name(g->color)) == 0 ? ", won" : ", lost";
    bot_log("%s: ended: %s (%s)%s after %d moves", g->what, result, g->status, mine, g->nmoves);
}

/* The number of moves in a moves text. */
static int count_moves(const char *moves)
{
    int n = 0;
    for (const char *p = moves; *p;) {
        p += strspn(p, " ");
        if (*p)
            n++;
        p += strcspn(p, " ");
    }
    return n;
}

/* The opponent's offers answered as the config says, each once. */
static void answer_offers(BotGame *g)
{
    const BotConfig *c = &g->bot->cfg;
    if (g->their_draw && c->draws != OFFER_IGNORE && g->answered_draw != g->nmoves) {
        g->answered_draw = g->nmoves;
        act(g, c->draws == OFFER_ACCEPT ? "draw/yes" : "draw/no");
    }
    if (g->their_takeback && c->takebacks != OFFER_IGNORE && g->answered_takeback != g->nmoves) {
        g->answered_takeback = g->nmoves;
        act(g, c->takebacks == OFFER_ACCEPT ? "takeback/yes" : "takeback/no");
    }
}

static void read_state(BotGame *g, json_t *state)
{
    const char *moves = json_text(state, "moves");
    char *copy = strdup(moves);
    if (!copy) {
        bot_log("%s: out of memory for its moves", g->what);
        return;
    }
    free(g->moves);
    g->moves = copy;
    g->nmoves = count_moves(moves);
    if (g->nmoves < g->max_moves) /* a takeback: the turns counted from there again */
        g->sent_ply = g->refused_ply = -1;
    g->max_moves = g->nmoves;
    g->time_ms[WHITE] = json_number(state, "wtime"), g->time_ms[BLACK] = json_number(state, "btime");
    g->inc_ms[WHITE] = json_number(state, "winc"), g->inc_ms[BLACK] = json_number(state, "binc");
    g->state_at = clock_seconds();
    snprintf(g->status, sizeof g->status, "%s", json_text(state, "status"));
    snprintf(g->winner, sizeof g->winner, "%s", json_text(state, "winner"));
    int them = g->color ^ 1;
    g->their_draw = json_flag(state, them == WHITE ? "wdraw" : "bdraw");
    g->their_takeback = json_flag(state, them == WHITE ? "wtakeback" : "btakeback");
    if (strcmp(g->status, "started") != 0 && strcmp(g->status, "created") != 0) {
        g->over = true;
        log_end(g);
        return;
    }
    answer_offers(g);
}

/* A tournament's game on a clock, before the bot's first move: berserk (half the clock, no
 * increment), when the config says so.  The server refuses it where the tournament does not
 * allow it; the log says why. */
static void berserk(BotGame *g, json_t *full)
{
    int mine = g->color == g->first_side ? (g->nmoves + 1) / 2 : g->nmoves / 2;
    if (!g->bot->cfg.berserk || !g->real_clock || g->over || !*json_text(full, "tournamentId") || mine > 0)
        return;
    if (act(g, "berserk")) {
        g->time_ms[g->color] /= 2;
        g->inc_ms[g->color] = 0;
        bot_log("%s: berserk", g->what);
    }
}

static void on_event(BotGame *g, json_t *o)
{
    const char *type = json_text(o, "type");
    g->backoff = BACKOFF_MIN_S; /* the stream works */
    if (strcmp(type, "gameFull") == 0) {
        bool first = !g->full;
        if (!read_full(g, o)) {
            g->over = true;
            return;
        }
        read_state(g, json_at(o, "state"));
        if (first)
            berserk(g, o);
        if (g->reconnecting && !g->over)
            bot_log("%s: its stream is back (%d moves)", g->what, g->nmoves);
        g->reconnecting = false;
    } else if (strcmp(type, "gameState") == 0 && g->full) {
        read_state(g, o);
    } else if (strcmp(type, "chatLine") == 0) {
        bot_log("%s: chat (%s) %s: %.200s", g->what, json_text(o, "room"), json_text(o, "username"),
                json_text(o, "text"));
    } else if (strcmp(type, "opponentGone") == 0 && json_flag(o, "gone")) {
        bot_log("%s: the opponent is gone", g->what);
    }
}

/* The stream ended or failed before the game did: opened again after a wait, unless the
 * server says it never will be (no such game, not ours). */
static void stream_dropped(BotGame *g, StreamState st)
{
    long status = g->stream.status;
    char why[300];
    snprintf(why, sizeof why, "%s", st == STREAM_FAILED ? g->stream.err : "it ended before the game did");
    stream_close(&g->stream);
    if (g->over)
        return;
    if (st == STREAM_FAILED && (status == 401 || status == 403 || status == 404)) {
        bot_log("%s: its stream is refused (%s): left alone", g->what, why);
        g->over = true;
        return;
    }
    if (atomic_load(&g->finish_seen)) { /* the event stream said it is over */
        bot_log("%s: ended (the event stream says so; its stream: %s)", g->what, why);
        g->over = true;
        return;
    }
    double wait = status == 429 ? RATE_LIMIT_SECONDS : g->backoff;
    bot_log("%s: its stream dropped (%s): again in %.0f s", g->what, why, wait);
    g->reconnect_at = clock_seconds() + wait;
    g->backoff = g->backoff * 2 > BACKOFF_MAX_S ? BACKOFF_MAX_S : g->backoff * 2;
    g->reconnecting = true;
}

static void keep_stream(BotGame *g)
{
    if (stream_is_open(&g->stream) || clock_seconds() < g->reconnect_at)
        return;
    char path[128], err[256];
    snprintf(path, sizeof path, "/api/bot/game/stream/%s", g->id);
    if (!stream_open(&g->stream, &g->bot->conn, path, g->what, err, sizeof err)) {
        bot_log("%s: %s", g->what, err);
        g->reconnect_at = clock_seconds() + BACKOFF_MAX_S;
    }
}

/* ---- The bot's turn -------------------------------------------------------------------- */

static bool my_turn(const BotGame *g)
{
    return g->full && !g->over && (g->first_side ^ (g->nmoves & 1)) == g->color;
}

/* lichess writes castling king to rook (e1h1); an engine of chess wants the king's two steps
 * (e1g1).  The moves are played through the rules core and written back in its notation. */
static bool chess_moves(const BotGame *g, Text *out)
{
    Game game = {0};
    char err[200];
    bool ok = game_init(&game, variant_by_name("chess"), g->initial_fen, err, sizeof err);
    for (const char *p = g->moves; ok && *p;) {
        p += strspn(p, " ");
        size_t n = strcspn(p, " ");
        char text[MOVE_TEXT_LIMIT], mine[MOVE_TEXT_MAX];
        if (n == 0)
            break;
        snprintf(text, sizeof text, "%.*s", (int)n, p);
        p += n;
        Move m = parse_move(&game.pos, text, err, sizeof err);
        if (m == MOVE_NONE && strlen(text) == 4 && text[0] == 'e' && (text[2] == 'h' || text[2] == 'a') &&
            text[1] == text[3]) {
            text[2] = text[2] == 'h' ? 'g' : 'c'; /* e1h1 -> e1g1, e8a8 -> e8c8 */
            m = parse_move(&game.pos, text, err, sizeof err);
        }
        ok = m != MOVE_NONE;
        if (ok) {
            move_to_text(&game.pos, m, mine);
            ok = text_addf(out, "%s%s", out->len ? " " : "", mine) && game_play(&game, m);
        }
    }
    game_free(&game);
    return ok;
}

/* `position startpos|fen F [moves ...]` for the engine. */
static bool position_command(const BotGame *g, Text *out)
{
    Text moves = {0};
    bool ok = g->chess && chess_moves(g, &moves);
    if (!ok) { /* not chess, or moves the rules core does not read: as the server wrote them */
        text_clear(&moves);
        ok = text_add(&moves, g->moves ? g->moves : "");
    }
    ok = ok && (g->initial_fen ? text_addf(out, "position fen %s", g->initial_fen) : text_add(out, "position startpos"));
    ok = ok && (!moves.len || text_addf(out, " moves %s", moves.s));
    text_free(&moves);
    return ok;
}

/* `go ...` for the engine (the clocks as the last state gave them, the bot's own less the time
 * since and the move overhead), and how long its answer is waited for. */
static double go_command(const BotGame *g, char *go, size_t len)
{
    const BotConfig *c = &g->bot->cfg;
    int n;
    double wait;
    if (g->real_clock) {
        long long t[2] = {g->time_ms[WHITE], g->time_ms[BLACK]};
        t[g->color] -= (long long)((clock_seconds() - g->state_at) * 1000) + c->move_overhead_ms;
        if (t[g->color] < 1)
            t[g->color] = 1;
        n = snprintf(go, len, "go wtime %lld btime %lld winc %lld binc %lld", t[WHITE], t[BLACK], g->inc_ms[WHITE],
                     g->inc_ms[BLACK]);
        wait = t[g->color] / 1000.0 + THINK_MARGIN_S;
    } else {
        n = snprintf(go, len, "go movetime %d", c->movetime_ms);
        wait = c->movetime_ms / 1000.0 + THINK_MARGIN_S;
    }
    if (c->go_nodes)
        n += snprintf(go + n, len - (size_t)n, " nodes %ld", c->go_nodes);
    if (c->go_depth)
        snprintf(go + n, len - (size_t)n, " depth %d", c->go_depth);
    return wait;
}

/* The engine failed (it would not start, exited, or sent nothing in time): once it is started
 * again; twice, the game is given up. */
static void engine_failed(BotGame *g, const char *why)
{
    bot_log("%s: %s", g->what, why);
    if (++g->engine_failures >= 2)
        give_up(g, "the engine failed twice");
    else
        g->engine_retry_at = clock_seconds() + 1.0;
}

/* The game's engine, started as soon as the game is known (and again after it failed). */
static void keep_engine(BotGame *g)
{
    char why[300], message[600];
    if (!g->full || g->player.ready || g->gave_up || clock_seconds() < g->engine_retry_at)
        return;
    if (!player_start(&g->player, &g->bot->cfg, bot_uci_variant(g->variant), why, sizeof why)) {
        snprintf(message, sizeof message, "the engine '%.200s' %s", g->bot->cfg.engine, why);
        engine_failed(g, message);
    }
}

static void start_search(BotGame *g)
{
    char go[200];
    Text position = {0};
    double wait = go_command(g, go, sizeof go);
    if (!position_command(g, &position)) {
        text_free(&position);
        give_up(g, "out of memory");
        return;
    }
    if (player_go(&g->player, position.s, go, wait))
        g->think_ply = g->nmoves;
    else
        engine_failed(g, "the engine exited");
    text_free(&position);
}

/* Whether the engine's move may go into a URL's path as it is. */
static bool sendable(const char *move)
{
    size_t n = strlen(move);
    if (n == 0 || n >= MOVE_TEXT_LIMIT || strcmp(move, "0000") == 0 || strcmp(move, "(none)") == 0)
        return false;
    return strspn(move, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@+=-_.") == n;
}

/* A refused move: asked of the engine once more, after a moment; a second time resigns.  A
 * move sent again after a request that got no answer is not counted: the server may have taken
 * it the first time, and the game's stream will say so. */
static void refused(BotGame *g, const char *move, const char *why, bool sent_before)
{
    bot_log("%s: the server refused the engine's move %s at move %d: %s%s", g->what, move, g->nmoves + 1, why,
            sent_before ? " (sent before without an answer: perhaps taken then)" : "");
    if (sent_before) {
        g->refused_at = clock_seconds();
        g->refused_ply = g->nmoves;
        return;
    }
    g->refusals = g->refused_ply == g->nmoves ? g->refusals + 1 : 1;
    g->refused_ply = g->nmoves;
    g->refused_at = clock_seconds();
    if (g->refusals >= 2)
        give_up(g, "the server refused two of the engine's moves");
}

/* Sends the pending move: taken, refused, or kept to send again (no answer, a server error). */
static void send_move(BotGame *g)
{
    char action[64], why[300];
    snprintf(action, sizeof action, "move/%s", g->pending);
    long status = post(g, action, why, sizeof why);
    if (status == 200) {
        g->sent_ply = g->pending_ply;
        g->pending[0] = 0;
        g->resend_wait = 0;
    } else if (status == 400 || status == 409) {
        refused(g, g->pending, why, g->resend_wait > 0);
        g->pending[0] = 0;
        g->resend_wait = 0;
    } else if (status == 401 || status == 403 || status == 404) {
        bot_log("%s: the move %s is refused (%s): left alone", g->what, g->pending, why);
        g->over = true;
    } else if (status == 429) { /* lichess's rule: a whole minute before the next request */
        bot_log("%s: the move %s: too many requests (%s): sent again in %.0f s", g->what, g->pending, why,
                RATE_LIMIT_SECONDS);
        g->resend_wait = RATE_LIMIT_SECONDS;
        g->resend_at = clock_seconds() + RATE_LIMIT_SECONDS;
    } else {
        g->resend_wait = g->resend_wait ? (g->resend_wait * 2 > RESEND_MAX_S ? RESEND_MAX_S : g->resend_wait * 2) : 0.25;
        bot_log("%s: the move %s got no answer (%s): sent again in %.2f s", g->what, g->pending, why, g->resend_wait);
        g->resend_at = clock_seconds() + g->resend_wait;
    }
}

/* The engine's move: resigned on (resign.score, resign.moves), else made pending. */
static void take_bestmove(BotGame *g, const char *best)
{
    const BotConfig *c = &g->bot->cfg;
    if (c->resign_score_cp > 0 && g->player.scored) {
        g->low_scores = g->player.score <= -c->resign_score_cp ? g->low_scores + 1 : 0;
        if (g->low_scores >= c->resign_moves) {
            bot_log("%s: resigning: the engine scored %d moves in a row at -%d cp or worse", g->what, g->low_scores,
                    c->resign_score_cp);
            g->gave_up = act(g, "resign");
            return;
        }
    }
    if (!sendable(best)) {
        refused(g, best, "not a move that can be sent", false);
        return;
    }
    snprintf(g->pending, sizeof g->pending, "%.*s", (int)sizeof g->pending - 1, best);
    g->pending_ply = g->think_ply;
    g->resend_at = 0;
}

/* What the bot does now: read its engine, send its move, or think. */
static void turn(BotGame *g)
{
    char best[ENGINE_LINE_MAX];
    PlayerStatus ps = player_poll(&g->player, best, sizeof best);
    if (ps == PLAYER_MOVED && g->think_ply == g->nmoves && my_turn(g))
        take_bestmove(g, best);
    else if (ps == PLAYER_FAILED)
        engine_failed(g, g->player.why);
    if (g->player.thinking && (g->think_ply != g->nmoves || !my_turn(g)))
        player_cancel(&g->player); /* the game moved on under the search */
    if (g->pending[0] && (g->pending_ply != g->nmoves || !my_turn(g)))
        g->pending[0] = 0; /* the server took it after all, or the game moved on */
    if (g->pending[0] && clock_seconds() >= g->resend_at)
        send_move(g);
    keep_engine(g);
    bool busy = !g->player.ready || g->player.thinking || g->player.discarding || g->pending[0];
    if (!my_turn(g) || busy || g->gave_up || g->sent_ply == g->nmoves)
        return;
    /* after a refusal, the game as the server has it first: its stream back, or a moment */
    if (g->refused_ply == g->nmoves && (g->reconnecting || clock_seconds() - g->refused_at < REFUSAL_WAIT_S))
        return;
    start_search(g);
}

/* The bot stops while the game goes on: left to the clocks, resigned or aborted. */
static void on_stop(BotGame *g)
{
    StopPolicy p = g->bot->cfg.on_stop;
    char why[300];
    if (p == STOP_RESIGN)
        act(g, "resign");
    else if (p == STOP_ABORT && post(g, "abort", why, sizeof why) != 200)
        bot_log("%s: not aborted (%s): left to the clocks", g->what, why);
    else if (p == STOP_LEAVE)
        bot_log("%s: left to the clocks (the bot stops)", g->what);
}

void *bot_game_run(void *arg)
{
    BotGame *g = arg;
    while (!g->over) {
        if (bot_stopping()) {
            if (g->full)
                on_stop(g);
            break;
        }
        keep_stream(g);
        bool ready;
        StreamState st = stream_pump(&g->stream, player_fd(&g->player), LOOP_MS, &ready);
        json_t *o;
        while ((o = stream_next(&g->stream))) {
            if (!g->over)
                on_event(g, o);
            json_decref(o);
        }
        if (st != STREAM_OPEN && g->stream.multi)
            stream_dropped(g, st);
        if (!g->over)
            turn(g);
    }
    player_quit(&g->player);
    stream_close(&g->stream);
    atomic_store(&g->done, true);
    return NULL;
}
