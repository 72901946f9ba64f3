/*
 * `starfish bot`'s config and challenge filters (src/bot/bot_config.c): keys read, bad lines
 * refused with their number, the engine's variants as the default, and the verdict on a
 * challenge with lichess's decline reasons; the UCI client's bestmove reader it shares with
 * the match runner, and its reader of an info line's score and depth.
 */
#include <string.h>

#include "../../src/bot/bot.h"
#include "../../src/client/uci_process.h"
#include "test.h"

static bool read_config(BotConfig *c, const char *text, char *err, size_t errlen)
{
    bot_config_defaults(c);
    return bot_config_read(c, text, "bot.conf", err, errlen);
}

TEST(bot_config_reads_every_kind_of_value)
{
    BotConfig c;
    char err[300] = "";
    const char *text = "# a comment\n"
                       "server = http://127.0.0.1:8080/\n"
                       "  token=sfp_abc  \n"
                       "\n"
                       "engine = /usr/games/fairy-stockfish --flag\n"
                       "uci.Skill Level = 3\n"
                       "uci.Threads = 2\n"
                       "uci.Skill Level = 5\n"
                       "go.nodes = 5000\n"
                       "variants = chess, starchess megastar\n"
                       "speeds = blitz rapid\n"
                       "clock.min = 60\n"
                       "rated = no\n"
                       "unlimited = yes\n"
                       "concurrency = 4\n"
                       "draws = accept\n"
                       "takebacks = ignore\n"
                       "resign.score = 900\n"
                       "on_stop = abort\n"
                       "join = ab12CD34, zz99\n"
                       "berserk = yes\n";
    CHECK(read_config(&c, text, err, sizeof err));
    CHECK_EQ_STR(err, "");
    CHECK_EQ_STR(c.server, "http://127.0.0.1:8080/");
    CHECK_EQ_STR(c.token, "sfp_abc");
    CHECK_EQ_STR(c.engine, "/usr/games/fairy-stockfish --flag");
    CHECK_EQ_INT(c.nopt, 2); /* a name given twice keeps its last value */
    CHECK_EQ_STR(c.opt_name[0], "Skill Level");
    CHECK_EQ_STR(c.opt_value[0], "5");
    CHECK_EQ_INT(c.go_nodes, 5000);
    CHECK_EQ_INT(c.nvariants, 3);
    CHECK_EQ_STR(c.variants[0], "standard"); /* chess as lichess names it */
    CHECK_EQ_STR(c.variants[2], "megastar");
    CHECK_EQ_INT(c.speeds, (1u << SPEED_BLITZ) | (1u << SPEED_RAPID));
    CHECK(c.clock_min_s == 60 && c.clock_max_s == 10800);
    CHECK(!c.rated && c.casual && c.unlimited);
    CHECK(c.concurrency == 4 && c.draws == OFFER_ACCEPT && c.takebacks == OFFER_IGNORE);
    CHECK(c.resign_score_cp == 900 && c.resign_moves == 3 && c.on_stop == STOP_ABORT);
    CHECK_EQ_INT(c.njoin, 2);
    CHECK_EQ_STR(c.join[0], "ab12CD34");
    CHECK_EQ_STR(c.join[1], "zz99");
    CHECK(c.berserk);
}

TEST(bot_config_defaults_are_documented_ones)
{
    BotConfig c;
    bot_config_defaults(&c);
    CHECK(c.concurrency == 1 && c.rated && c.casual && c.bots && c.humans && !c.unlimited);
    CHECK(c.draws == OFFER_DECLINE && c.takebacks == OFFER_DECLINE && c.on_stop == STOP_LEAVE);
    CHECK(c.resign_score_cp == 0 && c.move_overhead_ms == 100 && c.movetime_ms == 10000);
    CHECK(!(c.speeds & (1u << SPEED_ULTRABULLET)) && (c.speeds & (1u << SPEED_CORRESPONDENCE)));
    CHECK(c.njoin == 0 && !c.berserk);
}

TEST(bot_config_refuses_bad_lines_by_number)
{
    static const struct {
        const char *text, *message;
    } bad[] = {
        {"concurrency = 2\nfrobnicate = 1\n", "bot.conf:2: unknown key 'frobnicate'"},
        {"concurrency = 0\n", "bot.conf:1: concurrency must be a number from 1 to 64, not '0'"},
        {"\n\nrated = maybe\n", "bot.conf:3: rated must be yes or no, not 'maybe'"},
        {"just words\n", "bot.conf:1: expected 'key = value', not 'just words'"},
        {"speeds = blitz hyperbullet\n", "bot.conf:1: unknown speed 'hyperbullet'"},
        {"draws = sometimes\n", "bot.conf:1: draws must be decline, accept or ignore, not 'sometimes'"},
        {"on_stop = explode\n", "bot.conf:1: on_stop must be leave, resign or abort, not 'explode'"},
        {"clock.min = 600\nclock.max = 60\n", "bot.conf: clock.min (600) is above clock.max (60)"},
        {"days.min = 7\ndays.max = 3\n", "bot.conf: days.min (7) is above days.max (3)"},
        {"uci. = 3\n", "bot.conf:1: uci.NAME = VALUE"},
        {"join = ab12 ../x\n", "bot.conf:1: '../x' is not a tournament's id (letters and digits)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        BotConfig c;
        char err[300] = "";
        CHECK(!read_config(&c, bad[i].text, err, sizeof err));
        if (strncmp(err, bad[i].message, strlen(bad[i].message)) != 0)
            test_fail(__FILE__, __LINE__, "'%s' gave \"%s\", expected \"%s...\"", bad[i].text, err, bad[i].message);
    }
}

TEST(bot_config_takes_the_engines_variants_by_default)
{
    BotConfig c;
    bot_config_defaults(&c);
    bot_config_engine_variants(&c, "chess starchess megastar");
    CHECK_EQ_INT(c.nvariants, 3);
    CHECK_EQ_STR(c.variants[0], "standard");
    CHECK_EQ_STR(c.variants[1], "starchess");
    bot_config_defaults(&c);
    bot_config_engine_variants(&c, ""); /* a chess engine without UCI_Variant */
    CHECK(c.nvariants == 1 && strcmp(c.variants[0], "standard") == 0);
    char err[100];
    bot_config_defaults(&c);
    CHECK(bot_config_set(&c, "variants", "megastar", err, sizeof err));
    bot_config_engine_variants(&c, "chess starchess"); /* the config's list wins */
    CHECK(c.nvariants == 1 && strcmp(c.variants[0], "megastar") == 0);
    CHECK_EQ_STR(bot_uci_variant("standard"), "chess");
    CHECK_EQ_STR(bot_uci_variant("threeCheck"), "3check");
    CHECK_EQ_STR(bot_uci_variant("starchess"), "starchess");
}

/* A rated 3+2 starchess challenge from a human, as the cases below change it. */
static ChallengeInfo blitz(void)
{
    ChallengeInfo ch = {.rated = true, .tc = TC_CLOCK, .limit_s = 180, .increment_s = 2};
    strcpy(ch.variant, "starchess");
    strcpy(ch.speed, "blitz");
    return ch;
}

/* The verdict on ch under a config of the given lines. */
static const char *verdict(const char *config, ChallengeInfo ch, int games_now)
{
    BotConfig c;
    char err[300];
    if (!read_config(&c, config, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "config: %s", err);
        return "?";
    }
    const char *v = bot_verdict(&c, &ch, games_now);
    return v ? v : "accept";
}

TEST(bot_verdicts_give_lichess_reasons)
{
    ChallengeInfo ch = blitz();
    const char *all = "variants = starchess megastar\n";
    CHECK_EQ_STR(verdict(all, ch, 0), "accept");
    CHECK_EQ_STR(verdict(all, ch, 1), "later"); /* concurrency 1, one game under way */
    CHECK_EQ_STR(verdict("variants = megastar\n", ch, 0), "variant");
    CHECK_EQ_STR(verdict("variants = standard\n", ch, 0), "standard"); /* it plays chess alone */
    CHECK_EQ_STR(verdict("variants = starchess\nrated = no\n", ch, 0), "casual");
    ch.rated = false;
    CHECK_EQ_STR(verdict("variants = starchess\ncasual = no\n", ch, 0), "rated");
    ch = blitz();
    ch.challenger_is_bot = true;
    CHECK_EQ_STR(verdict("variants = starchess\nbots = no\n", ch, 0), "nobot");
    ch.challenger_is_bot = false;
    CHECK_EQ_STR(verdict("variants = starchess\nhumans = no\n", ch, 0), "onlybot");
}

TEST(bot_verdicts_on_time_controls)
{
    ChallengeInfo ch = blitz();
    CHECK_EQ_STR(verdict("variants = starchess\nspeeds = rapid classical\n", ch, 0), "toofast");
    CHECK_EQ_STR(verdict("variants = starchess\nspeeds = bullet\n", ch, 0), "tooslow");
    CHECK_EQ_STR(verdict("variants = starchess\nspeeds = bullet classical\n", ch, 0), "timecontrol");
    CHECK_EQ_STR(verdict("variants = starchess\nclock.min = 300\n", ch, 0), "toofast");
    CHECK_EQ_STR(verdict("variants = starchess\nclock.max = 120\n", ch, 0), "tooslow");
    CHECK_EQ_STR(verdict("variants = starchess\nincrement.min = 3\n", ch, 0), "toofast");
    CHECK_EQ_STR(verdict("variants = starchess\nincrement.max = 1\n", ch, 0), "tooslow");
    ch.tc = TC_CORRESPONDENCE, ch.days = 3;
    strcpy(ch.speed, "correspondence");
    CHECK_EQ_STR(verdict("variants = starchess\n", ch, 0), "accept");
    CHECK_EQ_STR(verdict("variants = starchess\nspeeds = blitz\n", ch, 0), "tooslow");
    CHECK_EQ_STR(verdict("variants = starchess\ndays.min = 5\n", ch, 0), "toofast");
    CHECK_EQ_STR(verdict("variants = starchess\ndays.max = 2\n", ch, 0), "tooslow");
    ch.tc = TC_UNLIMITED;
    CHECK_EQ_STR(verdict("variants = starchess\n", ch, 0), "timecontrol");
    CHECK_EQ_STR(verdict("variants = starchess\nunlimited = yes\n", ch, 0), "accept");
    ch = blitz();
    strcpy(ch.speed, "hyperbullet");
    CHECK_EQ_STR(verdict("variants = starchess\n", ch, 0), "timecontrol");
}

TEST(uci_bestmove_lines_read)
{
    char best[32];
    CHECK(uciproc_bestmove("bestmove e2e4 ponder e7e5", best, sizeof best));
    CHECK_EQ_STR(best, "e2e4");
    CHECK(uciproc_bestmove("  bestmove K@17", best, sizeof best));
    CHECK_EQ_STR(best, "K@17");
    CHECK(uciproc_bestmove("bestmove", best, sizeof best));
    CHECK_EQ_STR(best, "");
    CHECK(!uciproc_bestmove("bestmoves e2e4", best, sizeof best));
    CHECK(!uciproc_bestmove("info depth 1 pv e2e4", best, sizeof best));
}

TEST(uci_info_scores_read)
{
    UciScore sc;
    CHECK(uciproc_info_score("info depth 12 seldepth 17 multipv 1 score cp -35 nodes 9000 pv e2e4", &sc));
    CHECK(!sc.mate && sc.value == -35 && sc.depth == 12);
    CHECK(uciproc_info_score("info depth 20 score mate -3 pv e1e2", &sc));
    CHECK(sc.mate && sc.value == -3 && sc.depth == 20);
    CHECK(uciproc_info_score("info score cp 20 lowerbound nodes 5", &sc));
    CHECK(!sc.mate && sc.value == 20 && sc.depth == 0);
    CHECK(uciproc_info_score("info depth x score cp 7", &sc) && sc.depth == 0 && sc.value == 7);
    CHECK(!uciproc_info_score("info depth 5 multipv 2 score cp 10", &sc));
    CHECK(!uciproc_info_score("info string score cp 5", &sc));
    CHECK(!uciproc_info_score("info depth 5 score cp", &sc));
    CHECK(!uciproc_info_score("info depth 5 score wdl 500 300 200", &sc));
    CHECK(!uciproc_info_score("info depth 5 score cp 999999999", &sc));
    CHECK(!uciproc_info_score("information score cp 5", &sc));
    CHECK(!uciproc_info_score("bestmove e2e4", &sc));
}

