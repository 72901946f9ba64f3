/*
 * `starfish gensfen`: training positions from self-play (docs/nnue.md).  Games are the task
 * farm's tasks (src/cluster/farm.h): played by T threads on each of the run's ranks, each
 * thread with an engine of its own searching on one thread, from random openings.  Game i's
 * opening comes from the seed and i alone, and rank 0 writes its positions in game order, so
 * the file is the same for a seed whatever T and however many ranks.  Kept: positions whose
 * side to move is not in check, whose best move is quiet (no capture or promotion pending:
 * the evaluation, not an exchange, decides them) and whose score is not a mate; the first
 * occurrence of each position only.  With --keep-tactical those three are kept too, a mate
 * score written as +-TACTICAL_SCORE_CLAMP (a game whose evaluation must judge unquiet
 * leaves, as Megastar's bounded quiescence leaves them, may need to see them).
 *
 * Ctrl-C or SIGTERM ends a run early and cleanly: the games under way are given up after the
 * moves being searched, and the file ends with the last game written in order, so it holds
 * whole records and is the beginning of the file the whole run would have written.  A second
 * signal ends the program at once.
 */
#include "gensfen.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cluster/farm.h"
#include "../cluster/ranks.h"
#include "../core/movegen.h"
#include "../engine/selfplay.h"
#include "../util/clock.h"
#include "../util/rng.h"
#include "../util/signals.h"
#include "../variants/registry.h"
#include "nnue.h"
#include "posfile.h"

typedef struct GensfenOptions {
    uint64_t positions, nodes, seed;
    int depth, random_plies, threads, max_plies, hash;
    const char *out;
    bool no_nnue, keep_tactical;
} GensfenOptions;
static GensfenOptions opt;

/* Where --keep-tactical writes a mate score: far beyond any material balance, yet a score the
 * trainer's sigmoid still tells apart from certainty. */
#define TACTICAL_SCORE_CLAMP 3000

static const Option gensfen_options[] = {
    OPTION_U64("positions", "N", "positions to write (required)", &opt.positions),
    OPTION_INT("depth", "D", "search each move to depth D (this or --nodes)", &opt.depth, 1, 64),
    OPTION_U64("nodes", "N", "search each move N nodes (this or --depth)", &opt.nodes),
    OPTION_INT("random-plies", "K",
               "random movement plies at the start of each game (default 8;\n"
               "a variant with a setup phase first gets a random setup)",
               &opt.random_plies, 0, 1000),
    OPTION_INT("threads", "T", "games played at once (on each MPI rank), an engine thread each (default 1)",
               &opt.threads, 1, 256),
    OPTION_STRING("out", "FILE", "where the positions go (default VARIANT.sfpos)", &opt.out),
    OPTION_U64("seed", "S", "seed of the random openings (default 1)", &opt.seed),
    OPTION_INT("max-plies", "N", "a game still going after N plies is an agreed draw (default 400)", &opt.max_plies,
               1, 100000),
    OPTION_FLAG("keep-tactical",
                "keep positions in check, with a capture or promotion as the best move,\n"
                "or with a mate score (written as +-" NUMBER_TEXT(TACTICAL_SCORE_CLAMP) " cp)",
                &opt.keep_tactical),
    OPTION_INT("hash", "MB", "transposition table of each thread's engine (default 16)", &opt.hash, 1, 65536),
    NNUE_COMMAND_OPTIONS(&opt.no_nnue),
    OPTIONS_END,
};

const Command gensfen_command = {
    "gensfen", "VARIANT --positions N (--depth D | --nodes N) [OPTIONS]",
    "self-play positions with search scores and results, for training a network",
    "Plays VARIANT against itself from random openings (in a variant with a setup\n"
    "phase, half the games from a partly random setup that the engine completes) and\n"
    "writes positions with the search's score and the game's result (docs/nnue.md\n"
    "gives the file's layout).  Left out: positions in check, with a capture or\n"
    "promotion as the best move, or with a mate score (unless --keep-tactical), and\n"
    "repetitions of a position already written.  The same seed writes the same file\n"
    "whatever --threads, and whatever the ranks of `mpirun -n K starfish-mpi gensfen ...`.",
    gensfen_options, 1, 1};

/* One game's kept positions, waiting to be written in game order. */
typedef struct Batch {
    uint64_t game;
    int n, cap, record;
    uint8_t *data;  /* n records */
    uint64_t *keys; /* their positions' keys */
    struct Batch *next;
} Batch;

/* A set of 64-bit keys (open addressing; 0 stands for itself by a flag). */
typedef struct KeySet {
    uint64_t *slot;
    size_t cap, n;
    bool has_zero;
} KeySet;

/* Rank 0 alone hands out games, sees their positions and writes them; every rank plays. */
typedef struct Gen {
    SelfPlay play;
    int record;
    FILE *out;
    int next_game;
    uint64_t next_write, written; /* next_write: also the games written */
    Batch *waiting; /* finished games after the next one to write, in no order */
    KeySet seen;
    bool done, failed, tty;
    int stopped_by; /* the signal that ended the run early, or 0 */
    double start, last_report;
} Gen;

/* ---- The set of positions written -------------------------------------------------------- */

static bool keyset_grow(KeySet *s)
{
    size_t cap = s->cap ? s->cap * 2 : 1 << 16;
    uint64_t *slot = calloc(cap, sizeof *slot);
    if (!slot)
        return false;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slot[i])
            for (size_t j = s->slot[i] & (cap - 1);; j = (j + 1) & (cap - 1))
                if (!slot[j]) {
                    slot[j] = s->slot[i];
                    break;
                }
    free(s->slot);
    s->slot = slot;
    s->cap = cap;
    return true;
}

/* Adds the key; false when it was there already (or memory ran out: then *failed). */
static bool keyset_add(KeySet *s, uint64_t key, bool *failed)
{
    if (!key) {
        bool fresh = !s->has_zero;
        s->has_zero = true;
        return fresh;
    }
    if ((s->n + 1) * 2 > s->cap && !keyset_grow(s)) {
        *failed = true;
        return false;
    }
    size_t j = key & (s->cap - 1);
    for (; s->slot[j]; j = (j + 1) & (s->cap - 1))
        if (s->slot[j] == key)
            return false;
    s->slot[j] = key;
    s->n++;
    return true;
}

/* ---- Playing ----------------------------------------------------------------------------- */

static void batch_free(Batch *b)
{
    if (b) {
        free(b->data);
        free(b->keys);
        free(b);
    }
}

/* The position about to be searched, kept or not (the file's rules, above). */
static void note_position(void *ctx, const Game *g, const SearchResult *r)
{
    Batch *b = ctx;
    const Position *pos = &g->pos;
    bool quiet = !pos_is_capture(pos, r->best) && !(MOVE_PIECE(r->best) && MOVE_KIND(r->best) != MK_PLACE);
    if (!opt.keep_tactical && (!quiet || abs(r->score) >= SCORE_MATE_BOUND || pos_in_check(pos)))
        return;
    int score = r->score;
    if (abs(score) >= SCORE_MATE_BOUND)
        score = score > 0 ? TACTICAL_SCORE_CLAMP : -TACTICAL_SCORE_CLAMP;
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 64;
        uint8_t *data = realloc(b->data, (size_t)cap * (size_t)b->record);
        uint64_t *keys = data ? realloc(b->keys, (size_t)cap * sizeof *keys) : NULL;
        if (data)
            b->data = data;
        if (!keys)
            return; /* out of memory: the position is left out */
        b->keys = keys;
        b->cap = cap;
    }
    posfile_encode(pos, score, 0, g->n, b->data + (size_t)b->n * (size_t)b->record);
    b->keys[b->n++] = pos->key;
}

/* Each kept position's result, for its side to move, once the game is over. */
static void set_results(Batch *b, GameResult result)
{
    for (int i = 0; i < b->n; i++) {
        uint8_t *rec = b->data + (size_t)i * (size_t)b->record;
        int side = rec[3];
        int won = result.kind == RESULT_WHITE_WINS ? WHITE : result.kind == RESULT_BLACK_WINS ? BLACK : -1;
        rec[2] = (uint8_t)(int8_t)(won < 0 ? 0 : won == side ? 1 : -1);
    }
}

/* ---- Writing, in game order -------------------------------------------------------------- */

/* Progress on stderr: redrawn in place twice a second for a person at a terminal, else a line
 * every PROGRESS_LINE_EVERY seconds (mpirun gives its ranks a terminal even when its own
 * output goes to a file); the last always. */
#define PROGRESS_LINE_EVERY 10.0

static void report(Gen *gen, bool last)
{
    double now = clock_seconds();
    if (!last && now - gen->last_report < (gen->tty ? 0.5 : PROGRESS_LINE_EVERY))
        return;
    gen->last_report = now;
    double rate = gen->written / (now - gen->start > 1e-3 ? now - gen->start : 1e-3);
    double eta = rate > 0 ? (double)(opt.positions - gen->written) / rate : 0;
    fprintf(stderr, "%sgensfen: %llu/%llu positions, %llu games, %.0f positions/s, ETA %d:%02d%s", gen->tty ? "\r" : "",
            (unsigned long long)gen->written, (unsigned long long)opt.positions, (unsigned long long)gen->next_write,
            rate, (int)eta / 60, (int)eta % 60, gen->tty && !last ? "   " : "\n");
}

static void write_batch(Gen *gen, const Batch *b)
{
    for (int i = 0; i < b->n && !gen->done; i++) {
        if (!keyset_add(&gen->seen, b->keys[i], &gen->failed))
            continue;
        if (fwrite(b->data + (size_t)i * (size_t)b->record, (size_t)b->record, 1, gen->out) != 1)
            gen->failed = true;
        gen->written++;
        gen->done = gen->failed || gen->written >= opt.positions;
    }
    gen->done |= gen->failed;
}

/* The waiting batch of `game`, taken off the queue, or NULL while it is still being played. */
static Batch *unqueue(Gen *gen, uint64_t game)
{
    for (Batch **p = &gen->waiting; *p; p = &(*p)->next)
        if ((*p)->game == game) {
            Batch *b = *p;
            *p = b->next;
            return b;
        }
    return NULL;
}

/* A finished game joins the queue; then every game whose turn it is goes to the file. */
static void finished(Gen *gen, Batch *b)
{
    b->next = gen->waiting;
    gen->waiting = b;
    for (Batch *next; !gen->done && (next = unqueue(gen, gen->next_write));) {
        write_batch(gen, next);
        batch_free(next);
        gen->next_write++;
    }
    report(gen, false);
}

/* A game's kept positions as a message: their count (-1: the game failed), the records, then
 * their keys. */
static void *pack_batch(const Batch *b, bool failed, size_t *len)
{
    int n = failed ? -1 : b->n;
    size_t records = failed ? 0 : (size_t)n * (size_t)b->record, keys = failed ? 0 : (size_t)n * sizeof *b->keys;
    *len = sizeof n + records + keys;
    char *data = malloc(*len);
    if (data) {
        memcpy(data, &n, sizeof n);
        if (records) { /* a game stopped before its first kept position has no arrays at all */
            memcpy(data + sizeof n, b->data, records);
            memcpy(data + sizeof n + records, b->keys, keys);
        }
    }
    return data;
}

/* Rank 0: the message back as a batch (NULL when memory runs out). */
static Batch *unpack_batch(const Gen *gen, uint64_t game, const char *data, size_t len)
{
    Batch *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    *b = (Batch){.game = game, .record = gen->record};
    memcpy(&b->n, data, sizeof b->n);
    size_t records = (size_t)b->n * (size_t)b->record, keys = (size_t)b->n * sizeof *b->keys;
    if (len != sizeof b->n + records + keys || !(b->data = malloc(records + 1)) || !(b->keys = malloc(keys + 1))) {
        batch_free(b);
        return NULL;
    }
    memcpy(b->data, data + sizeof b->n, records);
    memcpy(b->keys, data + sizeof b->n + records, keys);
    return b;
}

/* A worker, on any rank: games until there are none left, with an engine of its own. */
static void play_games(Farm *f, int worker, void *ctx)
{
    Gen *gen = ctx;
    Engine e;
    bool ready = engine_init(&e, (size_t)opt.hash);
    e.use_nnue = !opt.no_nnue;
    int game;
    while (farm_next(f, worker, &game)) {
        Batch b = {.game = (uint64_t)game, .record = gen->record};
        SelfPlay play = gen->play;
        play.ctx = &b;
        play.give_up = farm_stop_flag(f); /* the run is over (enough positions, a signal): no more moves */
        Game g;
        bool played = ready && selfplay_game(&e, &play, rng_mix(opt.seed ^ rng_mix((uint64_t)game)), &g);
        if (played) {
            set_results(&b, game_status(&g));
            game_free(&g);
        }
        size_t len;
        void *data = pack_batch(&b, !played, &len); /* not played: no engine or no memory, the run fails */
        static const int failure = -1;             /* no memory for the message: the run fails too */
        farm_done(f, game, data ? data : &failure, data ? len : sizeof failure);
        free(data);
        free(b.data);
        free(b.keys);
    }
    if (ready)
        engine_free(&e);
}

/* Rank 0, as the farm asks: has a signal asked for the end?  Then nothing more is handed out
 * or written, and the games under way are given up before their next move. */
static bool stop_asked(void *ctx)
{
    Gen *gen = ctx;
    if (!gen->done && (gen->stopped_by = stop_signal_caught())) {
        gen->done = true;
        fprintf(stderr, "%sgensfen: %s: stopping after the moves being searched (again: at once)\n",
                gen->tty ? "\n" : "", stop_signal_name(gen->stopped_by));
    }
    return gen->stopped_by;
}

/* Rank 0: the next game to play, until enough positions are written. */
static int pick_game(void *ctx, int rank)
{
    (void)rank;
    Gen *gen = ctx;
    return gen->done || gen->next_game == INT32_MAX ? FARM_NONE : gen->next_game++;
}

/* Rank 0: a game's positions, from any rank. */
static void take_game(Farm *f, void *ctx, int rank, int game, const void *data, size_t len)
{
    (void)rank;
    Gen *gen = ctx;
    int n;
    memcpy(&n, data, sizeof n);
    if (gen->done) /* enough positions, a failure or a signal: games given up or finished since are not written */
        return;
    Batch *b = n < 0 ? NULL : unpack_batch(gen, (uint64_t)game, data, len);
    if (!b)
        gen->failed = gen->done = true;
    else
        finished(gen, b);
    if (gen->done)
        farm_stop(f);
}

static bool generate(Gen *gen)
{
    FarmPlan plan = {.workers = opt.threads,
                     .work = play_games,
                     .pick = pick_game,
                     .result = take_game,
                     .should_stop = stop_asked,
                     .ctx = gen};
    bool ran = farm_run(&plan);
    if (ranks_rank() == 0)
        report(gen, true);
    while (gen->waiting) {
        Batch *next = gen->waiting->next;
        batch_free(gen->waiting);
        gen->waiting = next;
    }
    if (ran)
        ranks_finish();
    return ran && !gen->failed;
}

int gensfen_main(int argc, char **argv)
{
    char *args[1];
    int nargs, status;
    opt = (GensfenOptions){.random_plies = 8, .threads = 1, .max_plies = 400, .hash = 16, .seed = 1};
    if (!options_parse(&gensfen_command, argc, argv, args, &nargs, &status))
        return status;
    const Variant *v = variant_by_name(args[0]);
    if (!v)
        return options_fail(&gensfen_command, "unknown variant '%s'", args[0]);
    if (!opt.positions)
        return options_fail(&gensfen_command, "needs --positions N (at least 1)");
    if (!opt.depth == !opt.nodes)
        return options_fail(&gensfen_command, "needs one of --depth D and --nodes N");
    char err[200], name[64];
    if (!ranks_start(err, sizeof err))
        return options_fail(&gensfen_command, "%s", err), 1;
    snprintf(name, sizeof name, "%s.sfpos", v->def->name);
    const char *file = opt.out ? opt.out : name;
    bool writer = ranks_rank() == 0;
    Gen gen = {.record = posfile_record_size(v), .out = writer ? fopen(file, "wb") : NULL};
    if (writer && !gen.out)
        return options_fail(&gensfen_command, "cannot write '%s'", file);
    gen.play = (SelfPlay){.v = v,
                          .limits = {.depth = opt.depth, .nodes = opt.nodes},
                          .random_plies = opt.random_plies,
                          .max_plies = opt.max_plies,
                          .engine_setups = true,
                          .searched = note_position};
    gen.start = gen.last_report = clock_seconds();
    gen.tty = isatty(STDERR_FILENO) && !ranks_under_mpirun();
    if (writer && !posfile_write_header(gen.out, v))
        gen.failed = gen.done = true; /* no game handed out: every rank ends at once */
    stop_signals_catch(true);
    bool ok = generate(&gen);
    free(gen.seen.slot);
    if (!writer)
        return ok ? 0 : 1;
    if (fclose(gen.out) != 0 || !ok) {
        fprintf(stderr, "starfish: gensfen: writing '%s' failed (a full disk, no memory, or a rank that stopped)\n",
                file);
        return 1;
    }
    printf("%llu positions of %s from %llu games written to %s%s%s\n", (unsigned long long)gen.written, v->def->name,
           (unsigned long long)gen.next_write, file, gen.stopped_by ? ", stopped early by " : "",
           gen.stopped_by ? stop_signal_name(gen.stopped_by) : "");
    return 0;
}
