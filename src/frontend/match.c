/*
 * `starfish match`: games between two UCI engines, adjudicated by the rules core, reported as
 * testers know it from cutechess-cli and fastchess.
 *
 * The games are the tasks of a farm (cluster/farm.h): on one process, or on the ranks of an
 * MPI run.  Each worker thread owns one process of each engine and plays whole games
 * (match_game.c) as it is given them; games 2k and 2k+1 share opening k, colours swapped, and
 * go to the same rank.  Rank 0 counts the results as they come: the score, the pentanomial of
 * complete pairs, the tally of endings, the SPRT's verdict (which stops the match on every
 * rank), and the reports (a line per game, a summary every --rating-interval pairs and at the
 * end).  Ctrl-C or SIGTERM ends the match early as the SPRT does: the games under way are
 * abandoned and the summary covers the games played (a second signal ends it at once).
 */
#include "match.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cluster/farm.h"
#include "../cluster/ranks.h"
#include "../util/error.h"
#include "../util/parse.h"
#include "../util/rng.h"
#include "../util/signals.h"
#include "../variants/registry.h"
#include "match_game.h"

#define MAX_WORKERS 64

/* ------------------------------------------------------------------------------------ */
/* The command line */

static bool read_tc(void *target, char **values, char *err, size_t errlen)
{
    MatchConfig *c = target;
    char copy[64];
    const char *text = values[0];
    bool fits = strlen(text) < sizeof copy;
    char *plus = fits ? strchr(strcpy(copy, text), '+') : NULL;
    if (plus)
        *plus = 0;
    c->inc = 0;
    if (!fits || (plus && !parse_double(plus + 1, 0, 3600, &c->inc)) || !parse_double(copy, 0, 86400, &c->base) ||
        c->base <= 0)
        return error_set(err, errlen, "bad time control '%s' (expected BASE+INC in seconds, e.g. 1+0.01)", text);
    c->tc_given = true;
    return true;
}

static bool add_option(void *target, char **values, char *err, size_t errlen)
{
    EngineSpec *e = target;
    const char *text = values[0], *eq = strchr(text, '=');
    if (!eq || eq == text)
        return error_set(err, errlen, "bad option '%s' (expected NAME=VALUE)", text);
    if (e->nopt >= MAX_OPTIONS)
        return error_set(err, errlen, "more than %d options for one engine", MAX_OPTIONS);
    e->opt_name[e->nopt] = strndup(text, (size_t)(eq - text));
    e->opt_value[e->nopt] = strdup(eq + 1);
    e->nopt++;
    return true;
}

static bool read_variant(void *target, char **values, char *err, size_t errlen)
{
    const Variant **v = target;
    if (!(*v = variant_by_name(values[0])))
        return error_set(err, errlen, "unknown variant '%s' (see 'starfish help')", values[0]);
    return true;
}

/* --nodes N: both engines. */
static bool read_nodes(void *target, char **values, char *err, size_t errlen)
{
    EngineSpec *eng = target;
    if (!parse_int(values[0], 1, 2000000000, &eng[0].nodes))
        return error_set(err, errlen, "bad --nodes '%s' (an integer from 1 to 2000000000)", values[0]);
    eng[1].nodes = eng[0].nodes;
    return true;
}

/* --openings FILE, or a number of random plies (--random-plies, as older command lines say). */
static bool read_openings(void *target, char **values, char *err, size_t errlen)
{
    MatchConfig *c = target;
    if (values[0][0] >= '0' && values[0][0] <= '9' && parse_int(values[0], 0, 200, &c->random_plies))
        return true;
    if (!values[0][0])
        return error_set(err, errlen, "--openings needs a file");
    c->openings_path = values[0];
    return true;
}

static bool read_sprt(void *target, char **values, char *err, size_t errlen)
{
    MatchConfig *c = target;
    if (!parse_double(values[0], -1000, 1000, &c->elo0) || !parse_double(values[1], -1000, 1000, &c->elo1))
        return error_set(err, errlen, "--sprt needs two Elo values, not '%s %s'", values[0], values[1]);
    if (c->elo1 <= c->elo0)
        return error_set(err, errlen, "--sprt needs ELO0 < ELO1");
    c->sprt = true;
    return true;
}

static bool read_model(void *target, char **values, char *err, size_t errlen)
{
    SprtModel *m = target;
    if (strcmp(values[0], "normalized") == 0)
        *m = SPRT_NORMALIZED;
    else if (strcmp(values[0], "logistic") == 0)
        *m = SPRT_LOGISTIC;
    else
        return error_set(err, errlen, "bad --sprt-model '%s' (normalized or logistic)", values[0]);
    return true;
}

static MatchConfig cfg = {.games = 20, .concurrency = 1, .random_plies = 4, .max_plies = 1000, .base = 1,
                          .inc = 0.01, .rating_interval = 10, .alpha = 0.05, .beta = 0.05};

static const Option match_options[] = {
    OPTION_STRING("engine1", "CMD", "the first engine (for example ./starfish, /usr/games/stockfish)", &cfg.eng[0].cmd),
    OPTION_STRING("engine2", "CMD", "the second engine", &cfg.eng[1].cmd),
    OPTION_STRING("name1", "N", "the first engine's name (default: its command)", &cfg.eng[0].name),
    OPTION_STRING("name2", "N", "the second engine's name", &cfg.eng[1].name),
    OPTION_CALL("option1", "NAME=VALUE", "a UCI option for engine 1 (repeatable)", &cfg.eng[0], 1, add_option),
    OPTION_CALL("option2", "NAME=VALUE", "a UCI option for engine 2 (repeatable)", &cfg.eng[1], 1, add_option),
    OPTION_CALL("variant", "V", "the variant (default chess)", &cfg.v, 1, read_variant),
    OPTION_INT("games", "N", "games to play (default 20), in pairs: each opening twice,\ncolours swapped", &cfg.games, 1,
               1000000),
    OPTION_CALL("tc", "BASE+INC", "clock per side and increment, seconds (default 1+0.01)", &cfg, 1, read_tc),
    OPTION_INT("timemargin", "MS",
               "how far an engine may overrun its clock before it forfeits\n(default 0); it plays on with 0 left",
               &cfg.timemargin_ms, 0, 10000000),
    OPTION_INT("movetime", "MS", "a fixed time per move instead of a clock", &cfg.movetime_ms, 1, 100000000),
    OPTION_CALL("nodes", "N",
                "`go nodes N` every move instead of a clock, for both engines:\nresults that do not depend on the "
                "machine's load",
                cfg.eng, 1, read_nodes),
    OPTION_INT("nodes1", "N", "the same for engine 1 only", &cfg.eng[0].nodes, 1, 2000000000),
    OPTION_INT("nodes2", "N", "the same for engine 2 only", &cfg.eng[1].nodes, 1, 2000000000),
    OPTION_INT("concurrency", "K", "games at once (default 1; per rank under mpirun)", &cfg.concurrency, 1,
               MAX_WORKERS),
    OPTION_CALL("openings", "FILE",
                "start positions from an EPD file (a position per line, `;`\n"
                "fields after it ignored) or a PGN file (each game's start\n"
                "and moves), in file order, round the file again if need be\n"
                "(a number N here is --random-plies N, as older lines say)",
                &cfg, 1, read_openings),
    OPTION_FLAG("shuffle", "play the file's openings in an order decided by --seed", &cfg.shuffle),
    OPTION_INT("random-plies", "N",
               "without --openings: random openings of N legal plies (default\n"
               "4) that decide nothing; Starchess first gets a random setup",
               &cfg.random_plies, 0, 200),
    OPTION_FLAG("mirrored-setup",
                "random openings with a setup phase (Starchess): Black places\n"
                "each piece on the image of White's cell, so the setup favours\n"
                "neither side",
                &cfg.mirrored_setup),
    OPTION_U64("seed", "S", "seed for the openings (default, or 0: from the time)", &cfg.seed),
    OPTION_STRING("pgn", "FILE",
                  "write every game to FILE, each engine move with its score,\ndepth and time ({+0.35/12 0.412s})",
                  &cfg.pgn_path),
    OPTION_CALL("sprt", "ELO0 ELO1",
                "a sequential test of H1 (elo1) against H0 (elo0) on the\n"
                "pentanomial of game pairs; stops the match when it concludes",
                &cfg, 2, read_sprt),
    OPTION_CALL("sprt-model", "M",
                "normalized (default, as fastchess: Elo bounds in normalised\n"
                "Elo) or logistic (bounds in logistic Elo, as cutechess-cli)",
                &cfg.model, 1, read_model),
    OPTION_DOUBLE("alpha", "A", "the SPRT's chance of accepting H1 wrongly (default 0.05)", &cfg.alpha, 0.0001, 0.4999),
    OPTION_DOUBLE("beta", "B", "its chance of accepting H0 wrongly (default 0.05)", &cfg.beta, 0.0001, 0.4999),
    OPTION_INT("rating-interval", "N", "a summary every N game pairs (default 10; 0: at the end only)",
               &cfg.rating_interval, 0, 1000000),
    OPTION_INT("max-plies", "N",
               "adjudicate a game still going after N plies as a draw\n"
               "(default 1000; the variant's rule for draws applies)",
               &cfg.max_plies, 1, 1000000),
    OPTIONS_END,
};

const Command match_command = {
    "match", "--engine1 CMD --engine2 CMD [OPTIONS]", "games between two UCI engines (match --help)",
    "Plays games between two UCI engines (each CMD is run with /bin/sh -c); the rules core\n"
    "judges every move and every result.  An engine loses a game by an illegal or unreadable\n"
    "move, by exiting (it is started again for the next game), by sending no move in time,\n"
    "or when its clock, kept by the runner, runs out.\n"
    "\n"
    "Reported as cutechess-cli and fastchess do: `Score of A vs B: W - L - D  [score] games`,\n"
    "`Ptnml(0-2): [..]` (game pairs by A's points in them), `Elo difference: E +/- 95%,\n"
    "LOS: %, DrawRatio: %` (from the pentanomial once a pair is complete) and, with --sprt,\n"
    "`LLR: llr (lower, upper) [elo0, elo1]`.\n"
    "\n"
    "`mpirun -n K starfish-mpi match ...` spreads the games over K processes (on one machine or\n"
    "several; docs/deploy.md): each plays --concurrency games at once, both games of a pair on\n"
    "one rank, and rank 0 hands them out, keeps the score, the SPRT and the PGN file, prints\n"
    "every line and, when the SPRT concludes, stops every rank.\n"
    "\n"
    "Ctrl-C (or SIGTERM) ends the match early: the games under way are abandoned and the\n"
    "summary covers the games played; a second one ends it at once.",
    match_options, 0, 0};

/* Checks what no single option can, reads the openings and fills in the defaults; false after
 * a message. */
static bool finish_config(MatchConfig *c)
{
    if (!c->eng[0].cmd || !c->eng[1].cmd)
        return options_fail(&match_command, "both --engine1 CMD and --engine2 CMD are needed"), false;
    if (c->movetime_ms && c->tc_given)
        return options_fail(&match_command, "--tc and --movetime exclude each other"), false;
    if (!c->v)
        c->v = variant_by_name("chess");
    if (!c->seed)
        c->seed = rng_fresh_seed();
    ranks_share(&c->seed, sizeof c->seed); /* every rank plays rank 0's openings */
    char err[600];
    if (c->openings_path && !openings_load(&c->book, c->openings_path, c->v, err, sizeof err))
        return options_fail(&match_command, "%s", err), false;
    if (c->shuffle)
        openings_shuffle(&c->book, c->seed);
    /* Default names: the commands, told apart by a number when they are the same. */
    bool same = strcmp(c->eng[0].cmd, c->eng[1].cmd) == 0;
    for (int e = 0; e < 2; e++)
        if (!c->eng[e].name) {
            static char names[2][300];
            snprintf(names[e], sizeof names[e], same ? "%.280s (%d)" : "%.280s", c->eng[e].cmd, e + 1);
            c->eng[e].name = names[e];
        }
    if (c->concurrency > c->games)
        c->concurrency = c->games;
    return true;
}

/* ------------------------------------------------------------------------------------ */
/* The match */

typedef struct {
    char what[48];
    int count;
} Tally;

/* The match on this rank.  Rank 0 hands out the games and keeps the results; every rank
 * plays games and counts its own. */
typedef struct {
    const MatchConfig *cfg;
    int rank, ranks;
    int next;          /* rank 0: the first game of the next pair to hand out */
    int *partner;      /* rank 0, per rank: the second game of the pair it was given last, or -1 */
    MatchScore score;
    signed char *half; /* engine 1's half points in each finished game, -1 until then */
    Tally tally[64];
    int ntally;
    int verdict; /* SPRT: +1 H1 accepted, -1 H0 accepted, 0 not (yet) */
    int stopped_by; /* the signal that ended the match early, or 0 */
    char fatal[512];
    bool tty;
    FILE *pgn;
    double lower, upper;   /* SPRT bounds */
    pthread_mutex_t lock;  /* for own */
    MatchScore own;        /* the games this rank played */
    MatchScore *per_rank;  /* rank 0: what each rank says it played */
    UciProc proc[MAX_WORKERS][2]; /* each worker's engine processes */
} Match;

/* x, or 0 when it would print as "-0.00". */
static double no_minus_zero(double x)
{
    return fabs(x) < 0.005 ? 0 : x;
}

static void print_elo(FILE *out, double x)
{
    if (isnan(x))
        fprintf(out, "nan");
    else if (isinf(x))
        fprintf(out, "%sinf", x < 0 ? "-" : "");
    else
        fprintf(out, "%.1f", x + 0.0); /* no "-0.0" */
}

/* The summary as cutechess-cli and fastchess print it. */
static void print_summary(const Match *m, FILE *out)
{
    const MatchConfig *cfg = m->cfg;
    const MatchScore *s = &m->score;
    int n = score_games(s);
    fprintf(out, "Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", cfg->eng[0].name, cfg->eng[1].name, s->wins,
            s->losses, s->draws, n ? (s->wins + 0.5 * s->draws) / n : 0.0, n);
    fprintf(out, "Ptnml(0-2): [%d, %d, %d, %d, %d]\n", s->penta[0], s->penta[1], s->penta[2], s->penta[3], s->penta[4]);
    EloEstimate e = elo_estimate(s);
    fprintf(out, "Elo difference: ");
    print_elo(out, e.elo);
    fprintf(out, " +/- ");
    print_elo(out, e.error95);
    fprintf(out, ", LOS: %.1f %%, DrawRatio: %.1f %%\n", 100 * e.los, 100 * e.draw_ratio);
    if (cfg->sprt)
        fprintf(out, "LLR: %.2f (%.2f, %.2f) [%.2f, %.2f]\n", no_minus_zero(sprt_llr(s, cfg->model, cfg->elo0, cfg->elo1)), m->lower,
                m->upper, cfg->elo0, cfg->elo1);
}

/* Engine 1's half points in a finished game. */
static int half_points(const Outcome *o)
{
    return o->kind == RESULT_DRAW ? 1 : (o->kind == RESULT_WHITE_WINS) == (o->engine_white == 0) ? 2 : 0;
}

/* Counts a finished game: the score, its pair when complete, the tally, the SPRT. */
static void count_game(Match *m, const Outcome *o)
{
    int half = half_points(o);
    score_add_game(&m->score, half);
    m->half[o->index] = (signed char)half;
    int partner = o->index ^ 1;
    if (partner < m->cfg->games && m->half[partner] >= 0)
        score_add_pair(&m->score, half + m->half[partner]);
    int t = 0;
    while (t < m->ntally && strcmp(m->tally[t].what, o->what) != 0)
        t++;
    if (t == m->ntally && t < (int)(sizeof m->tally / sizeof m->tally[0]))
        snprintf(m->tally[m->ntally++].what, sizeof m->tally[0].what, "%s", o->what);
    if (t < m->ntally)
        m->tally[t].count++;
    if (m->cfg->sprt && !m->verdict) {
        double llr = sprt_llr(&m->score, m->cfg->model, m->cfg->elo0, m->cfg->elo1);
        m->verdict = llr >= m->upper ? 1 : llr <= m->lower ? -1 : 0;
    }
}

/* The game's line (or, on a terminal, the progress line) and, every --rating-interval pairs,
 * the summary. */
static void report_game(Match *m, const Outcome *o)
{
    const MatchConfig *cfg = m->cfg;
    const MatchScore *s = &m->score;
    int n = score_games(s);
    if (m->tty) {
        printf("\r[%d/%d] %d - %d - %d", n, cfg->games, s->wins, s->losses, s->draws);
        if (cfg->sprt)
            printf(", LLR %.2f", sprt_llr(s, cfg->model, cfg->elo0, cfg->elo1));
        printf("\033[K");
    } else {
        printf("Finished game %d (%s vs %s): %s {%s}\n", o->index + 1, cfg->eng[o->engine_white].name,
               cfg->eng[1 - o->engine_white].name, result_text(o->kind), o->detail);
    }
    int partner = o->index ^ 1;
    bool pair_done = partner >= cfg->games || m->half[partner] >= 0;
    if (cfg->rating_interval && pair_done && score_pairs(s) % cfg->rating_interval == 0 && score_pairs(s) > 0) {
        if (m->tty)
            printf("\n");
        print_summary(m, stdout);
    }
    fflush(stdout);
}

static void record(Match *m, const Outcome *o)
{
    count_game(m, o);
    if (m->pgn && o->pgn) {
        fputs(o->pgn, m->pgn);
        fputs("\n", m->pgn);
        fflush(m->pgn);
    }
    report_game(m, o);
}

/* ------------------------------------------------------------------------------------ */
/* Games on the ranks (cluster/farm.h): a game is a task, its outcome the result */

/* Rank 0: the next game for a worker of `rank`.  A rank is given both games of a pair, so
 * that a pair is played on one machine; with one rank this is plain game order. */
static int pick_game(void *ctx, int rank)
{
    Match *m = ctx;
    int game = m->partner[rank];
    if (game >= 0) {
        m->partner[rank] = -1;
        return game;
    }
    if (m->next >= m->cfg->games)
        return FARM_NONE;
    game = m->next;
    m->next += 2;
    m->partner[rank] = game + 1 < m->cfg->games ? game + 1 : -1;
    return game;
}

/* An outcome as a result's bytes: the struct, then the PGN text with its NUL (the pointer
 * in the struct means nothing to the rank that reads it); NULL when memory runs out. */
static char *pack_outcome(const Outcome *o, size_t *len)
{
    size_t pgn_len = o->pgn ? strlen(o->pgn) + 1 : 0;
    char *data = malloc(sizeof *o + pgn_len);
    if (data) {
        memcpy(data, o, sizeof *o);
        if (pgn_len)
            memcpy(data + sizeof *o, o->pgn, pgn_len);
    }
    *len = sizeof *o + pgn_len;
    return data;
}

/* The outcome in a result's bytes; its PGN points into them. */
static void unpack_outcome(const void *data, size_t len, Outcome *o)
{
    memcpy(o, data, sizeof *o);
    o->pgn = len > sizeof *o ? (char *)data + sizeof *o : NULL;
}

/* Rank 0: a game's outcome from any rank: counted and reported; the SPRT's verdict or a
 * failure stops the match on every rank. */
static void take_outcome(Farm *f, void *ctx, int rank, int game, const void *data, size_t len)
{
    (void)rank;
    (void)game;
    Match *m = ctx;
    Outcome o;
    unpack_outcome(data, len, &o);
    if (o.fatal[0]) {
        snprintf(m->fatal, sizeof m->fatal, "%s", o.fatal);
        farm_stop(f);
    }
    if (!o.abandoned)
        record(m, &o);
    if (m->verdict)
        farm_stop(f);
}

/* Rank 0, as the farm asks: a signal ends the match, the games under way abandoned. */
static bool interrupted(void *ctx)
{
    Match *m = ctx;
    if (!m->stopped_by && (m->stopped_by = stop_signal_caught()))
        fprintf(stderr, "%sstarfish: match: %s: the games under way are abandoned (again: at once)\n",
                m->tty ? "\n" : "", stop_signal_name(m->stopped_by));
    return m->stopped_by;
}

/* A worker: games until there are none left, with its own two engine processes. */
static void play_games(Farm *f, int worker, void *ctx)
{
    Match *m = ctx;
    int game;
    while (farm_next(f, worker, &game)) {
        Outcome o;
        match_play_game(m->cfg, m->proc[worker], game, farm_stop_flag(f), &o);
        if (!o.abandoned) {
            pthread_mutex_lock(&m->lock);
            score_add_game(&m->own, half_points(&o));
            pthread_mutex_unlock(&m->lock);
        }
        size_t len;
        char *data = o.fatal[0] || !o.abandoned ? pack_outcome(&o, &len) : NULL;
        if (data)
            farm_done(f, game, data, len);
        free(data);
        free(o.pgn);
    }
    match_stop_engines(m->proc[worker]);
}

/* What a rank played, for rank 0's last lines. */
static size_t own_games(void *ctx, void *buf, size_t cap)
{
    Match *m = ctx;
    (void)cap; /* a MatchScore is far smaller than any report */
    memcpy(buf, &m->own, sizeof m->own);
    return sizeof m->own;
}

static void take_own_games(void *ctx, int rank, const void *data, size_t len)
{
    Match *m = ctx;
    if (len == sizeof m->own)
        memcpy(&m->per_rank[rank], data, len);
}

static void print_start(const Match *m)
{
    const MatchConfig *c = m->cfg;
    printf("Match: %s vs %s, %s, %d games, ", c->eng[0].name, c->eng[1].name, c->v->def->name, c->games);
    for (int e = 0; e < 2; e++)
        if (c->eng[e].nodes)
            printf("%s %d nodes a move, ", c->eng[e].name, c->eng[e].nodes);
    if (c->movetime_ms)
        printf("movetime %d ms", c->movetime_ms);
    else
        printf("tc %g+%g (margin %d ms)", c->base, c->inc, c->timemargin_ms);
    printf(", concurrency %d, ", c->concurrency);
    if (m->ranks > 1)
        printf("on each of %d ranks, ", m->ranks);
    if (c->book.n)
        printf("openings %s (%d%s)", c->openings_path, c->book.n, c->shuffle ? ", shuffled" : "");
    else
        printf("random openings of %d plies%s", c->random_plies, c->mirrored_setup ? ", setups mirrored" : "");
    printf(", seed %llu\n", (unsigned long long)c->seed);
    if (c->sprt)
        printf("SPRT: elo0 %.2f, elo1 %.2f (%s Elo), alpha %g, beta %g: bounds (%.2f, %.2f)\n", c->elo0, c->elo1,
               c->model == SPRT_NORMALIZED ? "normalized" : "logistic", c->alpha, c->beta, m->lower, m->upper);
    fflush(stdout);
}

static void print_end(const Match *m)
{
    const MatchConfig *cfg = m->cfg;
    if (m->tty && score_games(&m->score))
        printf("\n");
    char stopped[32] = "";
    if (m->verdict || m->stopped_by)
        snprintf(stopped, sizeof stopped, " (stopped by %s)", m->verdict ? "the SPRT" : stop_signal_name(m->stopped_by));
    printf("\nMatch: %s vs %s, %s, %d of %d games played%s\n", cfg->eng[0].name, cfg->eng[1].name, cfg->v->def->name,
           score_games(&m->score), cfg->games, stopped);
    print_summary(m, stdout);
    if (cfg->sprt)
        printf("SPRT: %s\n", m->verdict > 0 ? "H1 was accepted" : m->verdict < 0 ? "H0 was accepted" : "inconclusive");
    printf("Endings:");
    for (int t = 0; t < m->ntally; t++)
        printf("%s %s %d", t ? "," : "", m->tally[t].what, m->tally[t].count);
    printf("%s\n", m->ntally ? "" : " none");
    for (int r = 0; m->ranks > 1 && r < m->ranks; r++) {
        const MatchScore *s = &m->per_rank[r];
        printf("Rank %d: %d games, %d - %d - %d\n", r, score_games(s), s->wins, s->losses, s->draws);
    }
}

int match_main(int argc, char **argv)
{
    int nargs, status;
    if (!options_parse(&match_command, argc, argv, NULL, &nargs, &status))
        return status;
    char err[200];
    if (!ranks_start(err, sizeof err))
        return options_fail(&match_command, "%s", err), 1;
    if (!finish_config(&cfg))
        return 2;
    static Match m;
    m.cfg = &cfg;
    m.rank = ranks_rank();
    m.ranks = ranks_size();
    pthread_mutex_init(&m.lock, NULL);
    m.tty = isatty(STDOUT_FILENO) && !ranks_under_mpirun(); /* progress lines for a person only */
    m.half = malloc((size_t)cfg.games);
    m.partner = malloc((size_t)m.ranks * sizeof *m.partner);
    m.per_rank = calloc((size_t)m.ranks, sizeof *m.per_rank);
    if (!m.half || !m.partner || !m.per_rank)
        return options_fail(&match_command, "out of memory for %d games", cfg.games), 1;
    memset(m.half, -1, (size_t)cfg.games);
    memset(m.partner, -1, (size_t)m.ranks * sizeof *m.partner);
    sprt_bounds(cfg.alpha, cfg.beta, &m.lower, &m.upper);
    if (m.rank == 0 && cfg.pgn_path && !(m.pgn = fopen(cfg.pgn_path, "w")))
        return options_fail(&match_command, "cannot write the PGN file '%s'", cfg.pgn_path);
    signal(SIGPIPE, SIG_IGN); /* a dead engine's pipe is an error code, not a signal */
    if (m.rank == 0)
        print_start(&m);
    FarmPlan plan = {.workers = cfg.concurrency,
                     .work = play_games,
                     .pick = pick_game,
                     .result = take_outcome,
                     .report = own_games,
                     .rank_report = take_own_games,
                     .should_stop = interrupted,
                     .ctx = &m};
    stop_signals_catch(true);
    bool ran = farm_run(&plan);
    if (ran && m.rank == 0)
        print_end(&m);
    if (m.pgn)
        fclose(m.pgn);
    free(m.half);
    free(m.partner);
    free(m.per_rank);
    openings_free(&cfg.book);
    if (ran)
        ranks_finish();
    if (!ran || m.fatal[0]) {
        fprintf(stderr, "starfish: match: stopped: %s\n", ran ? m.fatal : "cannot start a worker thread");
        return 1;
    }
    return 0;
}
