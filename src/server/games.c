#include "games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/movegen.h"
#include "../core/pgn.h"
#include "engine_worker.h"
#include "events.h"
#include "util.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static LiveGame *registry;
static int registry_count; /* the games in the list */

static const char *side_name(int side)
{
    return side == WHITE ? "white" : "black";
}

/* Copies a string, cut to fit. */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = 0;
}

static LiveGame *live_new(void)
{
    LiveGame *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    pthread_mutex_init(&g->lock, NULL);
    g->draw_offer = -1;
    g->skill = -1;
    return g;
}

static void live_free(LiveGame *g)
{
    game_free(&g->game);
    for (int i = 0; i < g->names_cap; i++)
        free(g->fen[i]);
    free(g->uci);
    free(g->san);
    free(g->fen);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

static bool reserve_names(LiveGame *g, int n)
{
    if (n <= g->names_cap)
        return true;
    int cap = g->names_cap ? g->names_cap : 64;
    while (cap < n)
        cap *= 2;
    void *u = realloc(g->uci, sizeof *g->uci * (size_t)cap);
    if (u)
        g->uci = u;
    void *s = realloc(g->san, sizeof *g->san * (size_t)cap);
    if (s)
        g->san = s;
    char **f = realloc(g->fen, sizeof *g->fen * (size_t)cap);
    if (f) {
        memset(f + g->names_cap, 0, sizeof *f * (size_t)(cap - g->names_cap));
        g->fen = f;
    }
    if (!u || !s || !f)
        return false;
    g->names_cap = cap;
    return true;
}

/* Keeps the position text after ply `ply` (just played) for the move list. */
static void record_fen(LiveGame *g, int ply)
{
    char fen[FEN_MAX];
    pos_fen(&g->game.pos, fen, sizeof fen);
    free(g->fen[ply]);
    g->fen[ply] = strdup(fen);
}

static ResultKind result_of_text(const char *text)
{
    return strcmp(text, "1-0") == 0       ? RESULT_WHITE_WINS
           : strcmp(text, "0-1") == 0     ? RESULT_BLACK_WINS
           : strcmp(text, "1/2-1/2") == 0 ? RESULT_DRAW
                                          : RESULT_NONE;
}

static void set_result(LiveGame *g, GameResult r)
{
    g->result = r.kind;
    snprintf(g->reason, sizeof g->reason, "%s", r.kind != RESULT_NONE && r.reason ? r.reason : "");
}

/* What the side to move has left now (the game going on). */
static int64_t time_left(const LiveGame *g, int side, int64_t now)
{
    if (side != g->game.pos.side)
        return g->left[side];
    int64_t end = g->result != RESULT_NONE ? g->ended_ms : now;
    int64_t left = g->left[side] - (end - g->turn_start_ms);
    return left > 0 ? left : 0;
}

static GameState state_of(const LiveGame *g)
{
    GameState s = {result_text(g->result), g->result != RESULT_NONE ? g->reason : NULL,
                   g->result != RESULT_NONE ? g->ended_ms : 0, g->draw_offer};
    return s;
}

/* Sends the state to the subscribers (lock held). */
static void publish(LiveGame *g)
{
    if (!g->subs)
        return;
    json_t *state = games_state(g, -1);
    char *text = state ? json_dumps(state, JSON_COMPACT) : NULL;
    if (text)
        events_publish(g, text);
    free(text);
    json_decref(state);
}

static void want_engine_move(LiveGame *g)
{
    if (g->result == RESULT_NONE && g->engine[g->game.pos.side])
        workers_request(g);
}

static bool flag_fell(LiveGame *g, int64_t now);

/* ---- Loading ---------------------------------------------------------------------------- */

/* Builds a live game from its stored row and moves; NULL with err set on a bad record. */
static LiveGame *live_from_row(const GameRow *row, const MoveRow *moves, int n, char *err, size_t errlen)
{
    const Variant *v = variant_by_name(row->variant);
    if (!v) {
        snprintf(err, errlen, "unknown variant '%s'", row->variant);
        return NULL;
    }
    LiveGame *g = live_new();
    if (!g || !reserve_names(g, n + 1)) {
        snprintf(err, errlen, "out of memory");
        if (g)
            live_free(g);
        return NULL;
    }
    if (!game_init(&g->game, v, row->start_fen, err, errlen)) {
        live_free(g);
        return NULL;
    }
    g->v = v;
    copy_str(g->id, sizeof g->id, row->id);
    for (int s = 0; s < 2; s++) {
        copy_str(g->token[s], sizeof g->token[s], row->token[s]);
        g->engine[s] = row->engine[s];
    }
    g->skill = row->skill;
    g->has_clock = row->has_clock;
    g->base_ms = row->base_ms;
    g->inc_ms = row->inc_ms;
    g->left[WHITE] = g->left[BLACK] = row->base_ms;
    g->created_ms = row->created_ms;
    g->turn_start_ms = row->created_ms;
    for (int i = 0; i < n; i++) {
        char why[160];
        Move m = parse_move(&g->game.pos, moves[i].move, why, sizeof why);
        if (m == MOVE_NONE) {
            snprintf(err, errlen, "stored move %d '%s': %s", i + 1, moves[i].move, why);
            live_free(g);
            return NULL;
        }
        int side = g->game.pos.side;
        move_to_text(&g->game.pos, m, g->uci[i]);
        move_to_san(&g->game.pos, m, g->san[i]);
        game_play(&g->game, m);
        record_fen(g, i);
        if (moves[i].clock_ms >= 0)
            g->left[side] = moves[i].clock_ms;
        g->turn_start_ms = moves[i].at_ms;
    }
    ResultKind stored = result_of_text(row->result);
    if (stored != RESULT_NONE) {
        /* A result that the board does not show is re-declared through the rules core. */
        int loser = stored == RESULT_WHITE_WINS ? BLACK : WHITE;
        if (strcmp(row->reason, "resignation") == 0)
            game_resign(&g->game, loser);
        else if (strcmp(row->reason, "timeout") == 0)
            game_timeout(&g->game, loser);
        else if (strcmp(row->reason, "agreement") == 0)
            game_agree_draw(&g->game);
        g->result = stored;
        snprintf(g->reason, sizeof g->reason, "%s", row->reason);
        g->ended_ms = row->ended_ms > 0 ? row->ended_ms : g->turn_start_ms;
    } else {
        g->draw_offer = row->draw_offer;
        GameResult r = game_status(&g->game);
        if (r.kind != RESULT_NONE) { /* the rules now end it: record that */
            set_result(g, r);
            g->ended_ms = g->turn_start_ms;
            g->draw_offer = -1;
            GameState st = state_of(g);
            store_set_state(g->id, &st);
        }
    }
    return g;
}

static LiveGame *load(const char *id)
{
    GameRow row;
    MoveRow *moves;
    int n;
    if (store_load(id, &row, &moves, &n) != 1)
        return NULL;
    char err[256];
    LiveGame *g = live_from_row(&row, moves, n, err, sizeof err);
    free(moves);
    if (!g)
        fprintf(stderr, "starfish: game %s cannot be loaded: %s\n", id, err);
    return g;
}

static LiveGame *find_locked(const char *id)
{
    for (LiveGame *g = registry; g; g = g->next)
        if (strcmp(g->id, id) == 0)
            return g;
    return NULL;
}

/* Adds g to the registry (registry_lock held) with a reference for the caller. */
static void link_locked(LiveGame *g)
{
    g->next = registry;
    registry = g;
    registry_count++;
    games_hold(g);
}

void games_hold(LiveGame *g)
{
    atomic_fetch_add(&g->refs, 1);
}

void games_release(LiveGame *g)
{
    /* Stamped before the reference goes, so that an evictor seeing no reference sees it. */
    atomic_store(&g->used_ms, clock_ms());
    atomic_fetch_sub(&g->refs, 1);
}

int games_load_unfinished(void)
{
    char (*ids)[STORE_ID_MAX + 1];
    int n;
    if (!store_unfinished(&ids, &n))
        return -1;
    int loaded = 0;
    for (int i = 0; i < n; i++) {
        LiveGame *g = load(ids[i]);
        if (!g)
            continue;
        pthread_mutex_lock(&registry_lock);
        link_locked(g);
        pthread_mutex_unlock(&registry_lock);
        pthread_mutex_lock(&g->lock);
        flag_fell(g, util_now_ms()); /* it may have fallen while the server was down */
        want_engine_move(g);
        pthread_mutex_unlock(&g->lock);
        games_release(g);
        loaded++;
    }
    free(ids);
    return loaded;
}

LiveGame *games_find(const char *id)
{
    size_t len = strlen(id);
    if (len == 0 || len > STORE_ID_MAX || strspn(id, ID_ALPHABET) != len)
        return NULL;
    pthread_mutex_lock(&registry_lock);
    LiveGame *g = find_locked(id);
    if (g) {
        games_hold(g);
    } else { /* a finished game from an earlier run, or one evicted */
        g = load(id);
        if (g) {
            link_locked(g);
            pthread_mutex_lock(&g->lock);
            want_engine_move(g);
            pthread_mutex_unlock(&g->lock);
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return g;
}

void games_free_all(void)
{
    pthread_mutex_lock(&registry_lock);
    while (registry) {
        LiveGame *g = registry;
        registry = g->next;
        live_free(g);
    }
    registry_count = 0;
    pthread_mutex_unlock(&registry_lock);
}

/* Whether g can go (registry_lock held).  The reference count is read first: with none left
 * and the registry lock held nobody else can reach g, so the rest is read without its lock.
 * The subscribers and the engine job would each hold a reference; they are checked as well
 * so that a missing reference keeps a game rather than freeing one in use. */
static bool evictable(LiveGame *g, int64_t now, int64_t idle_ms)
{
    return atomic_load(&g->refs) == 0 && g->result != RESULT_NONE && !g->subs && !g->engine_queued &&
           now - atomic_load(&g->used_ms) >= idle_ms;
}

int games_evict(int64_t idle_ms)
{
    int64_t now = clock_ms();
    int evicted = 0;
    pthread_mutex_lock(&registry_lock);
    for (LiveGame **p = &registry; *p;) {
        LiveGame *g = *p;
        if (evictable(g, now, idle_ms)) {
            *p = g->next;
            registry_count--;
            live_free(g);
            evicted++;
        } else {
            p = &g->next;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    return evicted;
}

int games_in_memory(void)
{
    pthread_mutex_lock(&registry_lock);
    int n = registry_count;
    pthread_mutex_unlock(&registry_lock);
    return n;
}

/* ---- Creating --------------------------------------------------------------------------- */

int games_create(const GameOptions *o, Game *initial, LiveGame **out, char *creator_token, char *invite, char *err,
                 size_t errlen)
{
    LiveGame *g = live_new();
    int n = initial->n;
    MoveRow *rows = calloc((size_t)n + 1, sizeof *rows);
    if (!g || !rows || !reserve_names(g, n + 1)) {
        free(rows);
        if (g)
            live_free(g);
        snprintf(err, errlen, "out of memory");
        return 500;
    }
    int64_t now = util_now_ms();
    g->v = o->v;
    g->game = *initial;
    memset(initial, 0, sizeof *initial);
    /* The history's notation, each move in the position it was played in. */
    while (game_undo(&g->game))
        ;
    for (int i = 0; i < n; i++) {
        Move m = g->game.moves[i];
        move_to_text(&g->game.pos, m, g->uci[i]);
        move_to_san(&g->game.pos, m, g->san[i]);
        game_play(&g->game, m);
        record_fen(g, i);
        snprintf(rows[i].move, sizeof rows[i].move, "%s", g->uci[i]);
        rows[i].clock_ms = -1;
        rows[i].at_ms = now;
    }
    bool random_ok = util_random_string(g->token[WHITE], TOKEN_LEN, TOKEN_ALPHABET) &&
                     util_random_string(g->token[BLACK], TOKEN_LEN, TOKEN_ALPHABET);
    g->engine[o->creator ^ 1] = o->engine_opponent;
    g->skill = o->engine_opponent ? o->skill : -1;
    g->has_clock = o->has_clock;
    g->base_ms = o->has_clock ? o->base_ms : 0;
    g->inc_ms = o->has_clock ? o->inc_ms : 0;
    g->left[WHITE] = g->left[BLACK] = g->base_ms;
    g->created_ms = g->turn_start_ms = now;
    GameResult r = game_status(&g->game);
    if (r.kind != RESULT_NONE) {
        set_result(g, r);
        g->ended_ms = now;
    }

    GameRow row = {0};
    snprintf(row.variant, sizeof row.variant, "%s", o->v->def->name);
    snprintf(row.start_fen, sizeof row.start_fen, "%s", g->game.start_fen);
    for (int s = 0; s < 2; s++) {
        snprintf(row.token[s], sizeof row.token[s], "%s", g->token[s]);
        row.engine[s] = g->engine[s];
    }
    row.skill = g->skill;
    row.has_clock = g->has_clock;
    row.base_ms = g->base_ms;
    row.inc_ms = g->inc_ms;
    snprintf(row.result, sizeof row.result, "%s", result_text(g->result));
    snprintf(row.reason, sizeof row.reason, "%s", g->reason);
    row.draw_offer = -1;
    row.created_ms = now;
    row.ended_ms = g->result != RESULT_NONE ? now : 0;

    /* A fresh id: not in the store, not in memory; the registry lock keeps it unique. */
    pthread_mutex_lock(&registry_lock);
    bool stored = false;
    for (int attempt = 0; random_ok && attempt < 16 && !stored; attempt++) {
        if (!util_random_string(g->id, GAME_ID_LEN, ID_ALPHABET))
            break;
        if (find_locked(g->id) || store_id_taken(g->id))
            continue;
        snprintf(row.id, sizeof row.id, "%s", g->id);
        stored = store_insert_game(&row, rows, n);
        if (!stored)
            break;
    }
    if (stored)
        link_locked(g); /* the caller's reference */
    pthread_mutex_unlock(&registry_lock);
    free(rows);
    if (!stored) {
        live_free(g);
        snprintf(err, errlen, random_ok ? "the game could not be stored" : "no random numbers");
        return 500;
    }
    strcpy(creator_token, g->token[o->creator]);
    strcpy(invite, o->engine_opponent ? "" : g->token[o->creator ^ 1]);
    pthread_mutex_lock(&g->lock);
    want_engine_move(g);
    pthread_mutex_unlock(&g->lock);
    *out = g;
    return 0;
}

/* ---- The state -------------------------------------------------------------------------- */

int games_side_of_token(const LiveGame *g, const char *token)
{
    if (!token || !*token)
        return -1;
    for (int s = 0; s < 2; s++)
        if (!g->engine[s] && util_secret_equal(token, g->token[s]))
            return s;
    return -1;
}

static json_t *cell_or_null(const Geometry *geo, Cell c)
{
    return c == NO_CELL ? json_null() : json_string(geo->cell_name[c]);
}

static json_t *legal_moves(LiveGame *g)
{
    json_t *list = json_array();
    if (g->result != RESULT_NONE)
        return list;
    Position *pos = &g->game.pos;
    const Variant *v = g->v;
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        char text[MOVE_TEXT_MAX];
        move_to_text(pos, m, text);
        bool place = MOVE_KIND(m) == MK_PLACE;
        char promo[2] = {0}, placed[2] = {0};
        if (MOVE_PIECE(m) && !place)
            promo[0] = v->letter[MAKE_PIECE(BLACK, MOVE_PIECE(m))];
        if (place)
            placed[0] = v->letter[MAKE_PIECE(WHITE, MOVE_PIECE(m))];
        json_array_append_new(list, json_pack("{s:s, s:o, s:s, s:o, s:o, s:b}", "uci", text, "from",
                                              place ? json_null() : json_string(v->geo->cell_name[MOVE_FROM(m)]),
                                              "to", v->geo->cell_name[MOVE_TO(m)], "promotion",
                                              promo[0] ? json_string(promo) : json_null(), "place",
                                              placed[0] ? json_string(placed) : json_null(), "castle",
                                              MOVE_KIND(m) == MK_CASTLE));
    }
    return list;
}

static json_t *hand_of(const LiveGame *g, int side)
{
    char text[MAX_PIECES + 1];
    int k = 0;
    for (int t = 1; t <= g->v->ntypes; t++)
        for (int i = 0; i < g->game.pos.hand[side][t] && k < MAX_PIECES; i++)
            text[k++] = g->v->letter[MAKE_PIECE(side, t)];
    text[k] = 0;
    return json_string(text);
}

json_t *games_state(LiveGame *g, int you)
{
    Position *pos = &g->game.pos;
    const Geometry *geo = g->v->geo;
    int64_t now = util_now_ms();
    char fen[FEN_MAX], created[40];
    pos_fen(pos, fen, sizeof fen);
    util_iso_time(g->created_ms, created, sizeof created);

    json_t *moves = json_array();
    for (int i = 0; i < g->game.n; i++)
        json_array_append_new(moves, json_pack("{s:s, s:s, s:s?}", "uci", g->uci[i], "san", g->san[i], "fen",
                                               g->fen[i]));

    json_t *last = json_null();
    if (g->game.n > 0) {
        Move m = g->game.moves[g->game.n - 1];
        json_decref(last);
        last = json_pack("{s:o, s:s}", "from",
                         MOVE_KIND(m) == MK_PLACE ? json_null() : json_string(geo->cell_name[MOVE_FROM(m)]), "to",
                         geo->cell_name[MOVE_TO(m)]);
    }

    json_t *clock = json_null();
    if (g->has_clock) {
        json_decref(clock);
        clock = json_pack("{s:I, s:I, s:I, s:I, s:o}", "base_ms", (json_int_t)g->base_ms, "inc_ms",
                          (json_int_t)g->inc_ms, "white_ms", (json_int_t)time_left(g, WHITE, now), "black_ms",
                          (json_int_t)time_left(g, BLACK, now), "running",
                          g->result == RESULT_NONE ? json_string(side_name(pos->side)) : json_null());
    }

    json_t *state = json_object();
    json_object_set_new(state, "id", json_string(g->id));
    json_object_set_new(state, "variant", json_string(g->v->def->name));
    json_object_set_new(state, "start_fen", json_string(g->game.start_fen));
    json_object_set_new(state, "fen", json_string(fen));
    json_object_set_new(state, "moves", moves);
    json_object_set_new(state, "side", json_string(side_name(pos->side)));
    json_object_set_new(state, "legal", legal_moves(g));
    json_object_set_new(state, "check", pos_in_check(pos) ? cell_or_null(geo, pos->royal[pos->side]) : json_null());
    json_object_set_new(state, "last", last);
    json_object_set_new(state, "hand", json_pack("{s:o, s:o}", "white", hand_of(g, WHITE), "black", hand_of(g, BLACK)));
    json_object_set_new(state, "status", json_string(g->result == RESULT_NONE ? "ongoing" : "over"));
    json_object_set_new(state, "result", json_string(result_text(g->result)));
    json_object_set_new(state, "reason", g->result != RESULT_NONE ? json_string(g->reason) : json_null());
    json_object_set_new(state, "clock", clock);
    json_object_set_new(state, "draw_offer", g->draw_offer >= 0 ? json_string(side_name(g->draw_offer)) : json_null());
    json_object_set_new(state, "players",
                        json_pack("{s:s, s:s}", "white", g->engine[WHITE] ? "engine" : "human", "black",
                                  g->engine[BLACK] ? "engine" : "human"));
    json_object_set_new(state, "engine", g->skill >= 0 ? json_pack("{s:i}", "skill", g->skill) : json_null());
    json_object_set_new(state, "created", json_string(created));
    if (you >= 0)
        json_object_set_new(state, "you", json_string(side_name(you)));
    return state;
}

/* ---- Changes ---------------------------------------------------------------------------- */

/* Plays a legal move for the side to move, stores it, tells the subscribers, and asks the
 * engine for a reply when it is the engine's turn. */
static int commit_move(LiveGame *g, Move m, int64_t now, char *err, size_t errlen)
{
    int side = g->game.pos.side, ply = g->game.n;
    if (!reserve_names(g, ply + 1)) {
        snprintf(err, errlen, "out of memory");
        return 500;
    }
    MoveRow row;
    char san[MOVE_TEXT_MAX];
    move_to_text(&g->game.pos, m, row.move);
    move_to_san(&g->game.pos, m, san);
    row.clock_ms = g->has_clock ? g->left[side] - (now - g->turn_start_ms) + g->inc_ms : -1;
    row.at_ms = now;
    game_play(&g->game, m);
    GameResult r = game_status(&g->game);
    /* An offer stands until the opponent answers or the offerer moves. */
    GameState st = {result_text(r.kind), r.kind != RESULT_NONE ? r.reason : NULL, r.kind != RESULT_NONE ? now : 0,
                    r.kind != RESULT_NONE || g->draw_offer == side ? -1 : g->draw_offer};
    if (!store_add_move(g->id, ply, &row, &st)) {
        game_undo(&g->game);
        snprintf(err, errlen, "the move could not be stored");
        return 500;
    }
    strcpy(g->uci[ply], row.move);
    strcpy(g->san[ply], san);
    record_fen(g, ply);
    if (g->has_clock)
        g->left[side] = row.clock_ms;
    g->turn_start_ms = now;
    g->draw_offer = st.draw_offer;
    if (r.kind != RESULT_NONE) {
        set_result(g, r);
        g->ended_ms = now;
    }
    publish(g);
    want_engine_move(g);
    return 0;
}

/* Ends the game off the board through the rules core (resign, timeout, agreement). */
static int finish_by(LiveGame *g, void (*how)(Game *, int), void (*agree)(Game *), int side, int64_t ended,
                     char *err, size_t errlen)
{
    GameResult saved = g->game.ended;
    if (how)
        how(&g->game, side);
    else
        agree(&g->game);
    GameResult r = game_status(&g->game);
    GameState st = {result_text(r.kind), r.reason, ended, -1};
    if (!store_set_state(g->id, &st)) {
        g->game.ended = saved;
        snprintf(err, errlen, "the result could not be stored");
        return 500;
    }
    set_result(g, r);
    g->ended_ms = ended;
    g->draw_offer = -1;
    publish(g);
    return 0;
}

/* When the side to move's time has run out, ends the game (the flag fell when it ran out). */
static bool flag_fell(LiveGame *g, int64_t now)
{
    if (g->result != RESULT_NONE || !g->has_clock)
        return false;
    int side = g->game.pos.side;
    if (g->left[side] - (now - g->turn_start_ms) > 0)
        return false;
    char err[100];
    if (finish_by(g, game_timeout, NULL, side, g->turn_start_ms + g->left[side], err, sizeof err) != 0)
        fprintf(stderr, "starfish: game %s: %s\n", g->id, err);
    /* The clock thread may end a game that nobody holds: its idle time starts at its end. */
    atomic_store(&g->used_ms, clock_ms());
    return true;
}

void games_refresh(LiveGame *g)
{
    flag_fell(g, util_now_ms());
}

/* The checks every action makes first: the game goes on and no flag has fallen. */
static int still_going(LiveGame *g, int64_t now, char *err, size_t errlen)
{
    flag_fell(g, now);
    if (g->result == RESULT_NONE)
        return 0;
    snprintf(err, errlen, "the game is over (%s, %s)", result_text(g->result), g->reason);
    return 409;
}

int games_move(LiveGame *g, int side, const char *text, char *err, size_t errlen)
{
    int64_t now = util_now_ms();
    int status = still_going(g, now, err, errlen);
    if (status)
        return status;
    if (side != g->game.pos.side) {
        snprintf(err, errlen, "not your turn: %s is to move", side_name(g->game.pos.side));
        return 409;
    }
    char why[160];
    Move m = parse_move(&g->game.pos, text, why, sizeof why);
    if (m == MOVE_NONE) {
        snprintf(err, errlen, "%s", why);
        return 409;
    }
    return commit_move(g, m, now, err, errlen);
}

int games_resign(LiveGame *g, int side, char *err, size_t errlen)
{
    int64_t now = util_now_ms();
    int status = still_going(g, now, err, errlen);
    return status ? status : finish_by(g, game_resign, NULL, side, now, err, errlen);
}

/* Copies the moves played (for a search outside the lock). */
static Move *copy_moves(const LiveGame *g)
{
    Move *moves = malloc(sizeof *moves * ((size_t)g->game.n + 1));
    if (moves && g->game.n)
        memcpy(moves, g->game.moves, sizeof *moves * (size_t)g->game.n);
    return moves;
}

int games_draw(LiveGame *g, int side, const char *action, char *err, size_t errlen)
{
    int64_t now = util_now_ms();
    int status = still_going(g, now, err, errlen);
    if (status)
        return status;
    int other = side ^ 1;
    bool offer = strcmp(action, "offer") == 0, accept = strcmp(action, "accept") == 0;
    if (!offer && !accept && strcmp(action, "decline") != 0) {
        snprintf(err, errlen, "action must be \"offer\", \"accept\" or \"decline\"");
        return 400;
    }
    if (!offer && g->draw_offer != other) {
        snprintf(err, errlen, "there is no draw offer from %s to %s", side_name(other), accept ? "accept" : "decline");
        return 409;
    }
    if (accept || (offer && g->draw_offer == other)) /* offering back is accepting */
        return finish_by(g, NULL, game_agree_draw, side, now, err, errlen);
    if (!offer) { /* decline */
        GameState st = state_of(g);
        st.draw_offer = -1;
        if (!store_set_state(g->id, &st)) {
            snprintf(err, errlen, "the answer could not be stored");
            return 500;
        }
        g->draw_offer = -1;
        publish(g);
        return 0;
    }
    if (g->draw_offer == side) /* offered already */
        return 0;
    if (!g->engine[other]) {
        GameState st = state_of(g);
        st.draw_offer = side;
        if (!store_set_state(g->id, &st)) {
            snprintf(err, errlen, "the offer could not be stored");
            return 500;
        }
        g->draw_offer = side;
        publish(g);
        return 0;
    }
    /* The engine answers at once; it thinks about it without the lock, then looks again. */
    for (int attempt = 0; attempt < 3; attempt++) {
        int n = g->game.n;
        Move *moves = copy_moves(g);
        char start[FEN_MAX];
        strcpy(start, g->game.start_fen);
        const Variant *v = g->v;
        if (!moves) {
            snprintf(err, errlen, "out of memory");
            return 500;
        }
        pthread_mutex_unlock(&g->lock);
        bool yes = engine_accepts_draw(v, start, moves, n, other);
        free(moves);
        pthread_mutex_lock(&g->lock);
        status = still_going(g, util_now_ms(), err, errlen);
        if (status)
            return status;
        if (g->game.n != n) /* the engine moved meanwhile: think again about the new position */
            continue;
        if (!yes)
            return 0; /* declined: the offer never stood, nothing changes */
        return finish_by(g, NULL, game_agree_draw, side, util_now_ms(), err, errlen);
    }
    return 0;
}

char *games_pgn(LiveGame *g)
{
    char event[64];
    snprintf(event, sizeof event, "starfish game %s", g->id);
    Text pgn = {0};
    if (!game_pgn(&g->game, &(PgnTags){.event = event}, &pgn))
        text_free(&pgn);
    return text_take(&pgn);
}

/* ---- Threads ---------------------------------------------------------------------------- */

void games_check_flags(void)
{
    int64_t now = util_now_ms();
    pthread_mutex_lock(&registry_lock);
    for (LiveGame *g = registry; g; g = g->next) {
        pthread_mutex_lock(&g->lock);
        flag_fell(g, now);
        pthread_mutex_unlock(&g->lock);
    }
    pthread_mutex_unlock(&registry_lock);
}

void games_close_streams(void)
{
    pthread_mutex_lock(&registry_lock);
    for (LiveGame *g = registry; g; g = g->next) {
        pthread_mutex_lock(&g->lock);
        events_close(g);
        pthread_mutex_unlock(&g->lock);
    }
    pthread_mutex_unlock(&registry_lock);
}

/* Skill 0..20 -> 100..1500 ms, within what the engine's clock allows. */
static int engine_movetime(const LiveGame *g, int64_t now)
{
    int ms = 100 + g->skill * 70;
    if (g->has_clock) {
        int64_t left = g->left[g->game.pos.side] - (now - g->turn_start_ms);
        int64_t budget = left / 20 + g->inc_ms * 3 / 4;
        if (budget > left / 2)
            budget = left / 2;
        if (budget < 10)
            budget = 10;
        if (budget < ms)
            ms = (int)budget;
    }
    return ms;
}

bool games_engine_task(LiveGame *g, EngineTask *t)
{
    pthread_mutex_lock(&g->lock);
    g->engine_queued = false;
    int64_t now = util_now_ms();
    bool todo = !flag_fell(g, now) && g->result == RESULT_NONE && g->engine[g->game.pos.side];
    if (todo) {
        t->v = g->v;
        strcpy(t->start_fen, g->game.start_fen);
        t->n = g->game.n;
        t->moves = copy_moves(g);
        t->skill = g->skill;
        t->movetime_ms = engine_movetime(g, now);
        todo = t->moves != NULL;
    }
    pthread_mutex_unlock(&g->lock);
    return todo;
}

void games_engine_reply(LiveGame *g, const EngineTask *t, Move best)
{
    pthread_mutex_lock(&g->lock);
    int64_t now = util_now_ms();
    if (!flag_fell(g, now) && g->result == RESULT_NONE && g->game.n == t->n && g->engine[g->game.pos.side]) {
        char err[160];
        /* The move is checked again against the rules core's legal moves before it is played. */
        Move legal[MAX_MOVES];
        int n = gen_legal(&g->game.pos, legal), i = 0;
        while (i < n && legal[i] != best)
            i++;
        if (i == n)
            fprintf(stderr, "starfish: game %s: the engine found no legal move\n", g->id);
        else if (commit_move(g, best, now, err, sizeof err) != 0)
            fprintf(stderr, "starfish: game %s: %s\n", g->id, err);
    }
    pthread_mutex_unlock(&g->lock);
}
