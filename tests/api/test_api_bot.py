"""`starfish bot` on our server: two bot accounts, each run by a `starfish bot` process with our
engine, play rated games with clocks in every variant, one challenging the other through the
API; a bot whose streams are cut mid-game (the server restarted, the bot killed and started
again) finishes its game; SIGTERM stops a bot cleanly; the config's filters decline what it
does not take, with lichess's reasons; bad input gets one clear line.  The bot against a
server that speaks as lichess.org does (tests/api/fake_lichess.py): castling written king to
rook, a malformed line, offers, refused moves.

The engines search a few thousand nodes a move (go.nodes), so that the games in every
variant end by the rules in seconds even on two busy cores."""
import signal
import subprocess
import time

import api_harness as h
import bots
import fake_lichess
import lichess as li

FAST = ["go.nodes = 2000", "speeds = bullet blitz rapid classical correspondence", "concurrency = 8"]
END_STATUSES = {"mate", "resign", "stalemate", "draw", "outoftime", "variantEnd"}


def challenge(user, dest, expect=200, **fields):
    r = li.form(user.server, "POST", "/api/challenge/%s" % dest, fields, user.headers())
    assert r.status == expect, (fields, r)
    return r.json()


def wait_game(s, gid, predicate=lambda g: g["status"] == "over", timeout=120, what="its end"):
    """Waits until the game exists (its challenge accepted) and predicate(game) holds; returns it."""
    deadline = time.time() + timeout
    while s.request("GET", "/api/games/%s" % gid).status == 404:
        assert time.time() < deadline, "game %s never started" % gid
        time.sleep(0.05)
    return s.wait_game(gid, predicate, timeout=max(1, deadline - time.time()), what=what)


def stop_cleanly(bot):
    assert bot.stop() == 0, bot.log()
    assert "starfish bot: stopped" in bot.log(), bot.log()
    assert not bot.sanitizer_reports(), bot.sanitizer_reports()


def test_bots_play_rated_games_in_every_variant():
    s = h.shared()
    alice, bob = bots.bot_account(s), bots.bot_account(s)
    bot_a = bots.BotProcess(s.url(""), alice.bearer, FAST)
    bot_b = bots.BotProcess(s.url(""), bob.bearer, FAST)
    try:
        for bot in (bot_a, bot_b):
            bot.wait_log("listening for challenges")
        ids = {}
        for i, variant in enumerate(h.VARIANTS):
            made = challenge(alice, bob.name, rated="true", variant=variant, color=("white", "black")[i % 2],
                             **{"clock.limit": "60", "clock.increment": "1"})
            ids[variant] = made["id"]
        for variant, gid in ids.items():
            g = wait_game(s, gid)
            assert g["variant"] == variant and g["rated"] and g["reason"] not in ("aborted", "timeout"), g
            assert len(g["moves"]) >= 10 and set(g["ratingDiff"]) == {"white", "black"}, (variant, g["reason"])
            for bot in (bot_a, bot_b):  # a line at the start and one at the end, per game
                bot.wait_log(r"game %s: started: .* %s, 1\+1, rated" % (gid, "standard" if variant == "chess"
                                                                              else variant))
                bot.wait_log(r"game %s: ended: (1-0|0-1|1/2-1/2) \(\w+\)" % gid)
        for user in (alice, bob):
            perfs = s.call("GET", "/api/user/%s" % user.name)["perfs"]
            for variant in h.VARIANTS:
                assert perfs[variant]["games"] == 1 and perfs[variant]["rd"] < 350, (user.name, variant, perfs[variant])
        for bot in (bot_a, bot_b):
            # a move whose answer the restart lost is sent again and refused (taken the first time): no other
            refusals = [line for line in bot.log().splitlines() if "refused" in line]
            assert all("sent before without an answer" in line for line in refusals), bot.log()
            assert "giving the game up" not in bot.log(), bot.log()
            stop_cleanly(bot)
    finally:
        bot_a.stop()
        bot_b.stop()


def test_bot_finishes_its_game_when_its_streams_are_cut():
    port = h.free_port()
    s = h.Server(extra_args=["--port", str(port)])  # the same port after a restart
    # Slow enough that the restarts come mid-game; under ASan (STARFISH_TIME_SCALE 10) the same
    # wall time a move, or a long game outlasts the wait for its end (seen once: unfinished after 119 s).
    slow = ["go.nodes = %d" % (40000 / h.time_scale())]
    alice, bob = bots.bot_account(s), bots.bot_account(s)
    bot_a = bots.BotProcess(s.url(""), alice.bearer, slow)
    bot_b = bots.BotProcess(s.url(""), bob.bearer, slow)
    try:
        for bot in (bot_a, bot_b):
            bot.wait_log("listening for challenges")
        gid = challenge(alice, bob.name, rated="true", variant="chess", **{"clock.limit": "120", "clock.increment":
                                                                            "1"})["id"]
        wait_game(s, gid, lambda g: len(g["moves"]) >= 6, timeout=60, what="six moves")
        s.restart()  # every stream of both bots drops; the server takes the game up from its store
        for bot in (bot_a, bot_b):
            bot.wait_log(r"game %s: its stream dropped" % gid)
            bot.wait_log(r"game %s: its stream is back \(\d+ moves\)" % gid)
            bot.wait_log("the event stream is back")
        plies = len(s.game(gid)["moves"])
        bot_b.stop(signal.SIGKILL)  # gone without a word; started again, it finds its game announced
        bot_b.start()
        bot_b.wait_log(r"game %s: started" % gid, count=2)
        g = wait_game(s, gid)
        assert g["reason"] not in ("aborted", "timeout") and g["rated"] and len(g["moves"]) > plies + 2, g["reason"]
        for bot in (bot_a, bot_b):
            bot.wait_log(r"game %s: ended" % gid)
            # a move whose answer the restart lost is sent again and refused (taken the first time): no other
            refusals = [line for line in bot.log().splitlines() if "refused" in line]
            assert all("sent before without an answer" in line for line in refusals), bot.log()
            assert "giving the game up" not in bot.log(), bot.log()
            stop_cleanly(bot)
    finally:
        bot_a.stop()
        bot_b.stop()
        s.cleanup()


def test_sigterm_stops_the_bot_cleanly():
    s = h.shared()
    alice, bob = bots.bot_account(s), bots.bot_account(s)
    bot_a = bots.BotProcess(s.url(""), alice.bearer, ["go.nodes = 2000"])
    bot_b = bots.BotProcess(s.url(""), bob.bearer, ["go.nodes = 2000", "on_stop = resign"])
    try:
        for bot in (bot_a, bot_b):
            bot.wait_log("listening for challenges")
        gid = challenge(alice, bob.name, days="3", variant="starchess", color="white")["id"]  # 10 s a move
        bot_a.wait_log(r"game %s: started" % gid)
        bot_b.wait_log(r"game %s: started" % gid)
        deadline = time.time() + 20
        while len(bot_a.children()) != 1 and time.time() < deadline:  # the game's engine (the check at start quit)
            time.sleep(0.05)
        engines = bot_a.children()
        assert len(engines) == 1, engines
        assert bot_a.stop() == 0, bot_a.log()
        log = bot_a.log()
        assert "stopping on SIGTERM: 1 game under way" in log and "game %s: left to the clocks" % gid in log, log
        assert log.rstrip().endswith("starfish bot: stopped"), log
        for pid in engines:  # the engine has quit
            assert subprocess.run(["kill", "-0", str(pid)], capture_output=True).returncode != 0, pid
        assert s.game(gid)["status"] != "over"  # left to the server's clocks
        assert bot_b.stop(signal.SIGINT) == 0, bot_b.log()  # on_stop = resign
        g = wait_game(s, gid, what="the resignation")
        assert g["reason"] == "resignation" and "stopping on SIGINT" in bot_b.log(), (g["reason"], bot_b.log())
        assert not bot_a.sanitizer_reports() and not bot_b.sanitizer_reports()
    finally:
        bot_a.stop()
        bot_b.stop()


def test_the_config_filters_decline_with_lichess_reasons():
    s = h.shared()
    alice, bob = bots.bot_account(s), bots.bot_account(s)
    bot = bots.BotProcess(s.url(""), bob.bearer, ["variants = starchess megastar", "rated = no", "clock.min = 60",
                                                  "speeds = blitz rapid"])
    try:
        bot.wait_log("listening for challenges")
        cases = [({"variant": "chess", "clock.limit": "300", "clock.increment": "0"}, "variant"),
                 ({"variant": "starchess", "rated": "true", "clock.limit": "300", "clock.increment": "3"}, "casual"),
                 ({"variant": "megastar", "clock.limit": "30", "clock.increment": "0"}, "toofast"),
                 ({"variant": "megastar", "clock.limit": "10800", "clock.increment": "0"}, "tooslow"),
                 ({"variant": "starchess", "days": "2"}, "tooslow"),
                 ({"variant": "starchess"}, "timecontrol")]  # unlimited
        for fields, reason in cases:
            made = challenge(alice, bob.name, **fields)
            bot.wait_log(r"challenge %s from %s \(bot\): .*declined \(%s\)" % (made["id"], alice.name, reason))
            shown = s.call("GET", "/api/challenge/%s/show" % made["id"])
            assert (shown["status"], shown["declineReasonKey"]) == ("declined", reason), (fields, shown)
        stop_cleanly(bot)
    finally:
        bot.stop()


def run_bot(args, timeout=30):
    proc = subprocess.run([h.binary(), "bot"] + args, capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stderr


@h.sqlite_only  # the store plays no part: once is enough
def test_bad_input_gets_one_clear_line():
    s = h.shared()
    user = bots.bot_account(s)
    code, err = run_bot(["--server", "http://127.0.0.1:%d" % h.free_port(), "--token", user.bearer])
    assert code == 1 and "starfish: bot: cannot reach http://127.0.0.1:" in err, (code, err)
    code, err = run_bot(["--server", s.url(""), "--token", "sfp_not_a_token"])
    assert code == 1 and "refused the token (401)" in err, (code, err)
    code, err = run_bot(["--server", s.url(""), "--token", user.bearer, "--engine", "/nonexistent/engine"])
    assert code == 1 and "the engine '/nonexistent/engine' exited during the uci handshake" in err, (code, err)
    code, err = run_bot(["--server", "ftp://x", "--token", "t"])
    assert code == 2 and "must be an http:// or https:// URL" in err, (code, err)
    code, err = run_bot(["--token", "t"])
    assert code == 2 and "no server" in err, (code, err)
    bot = bots.BotProcess(s.url(""), user.bearer, ["concurrency = 3", "frobnicate = 1"])
    assert bot.proc.wait(timeout=30) == 2
    assert "starfish: bot: %s:2: unknown key 'frobnicate'" % bot.config in bot.log(), bot.log()
    bot = bots.BotProcess(s.url(""), user.bearer, ["clock.min = 600", "clock.max = 60"])
    assert bot.proc.wait(timeout=30) == 2 and "clock.min (600) is above clock.max (60)" in bot.log(), bot.log()


@h.sqlite_only  # not our server at all: once is enough
def test_bot_on_a_server_that_speaks_as_lichess():
    """The fake (fake_lichess.py) writes castling king to rook and sends a malformed line, a
    draw offer and a takeback request, and refuses every move of g1 (400): the bot reads past
    the line, declines both offers, writes the castling for the engine, asks the engine again
    after the first refusal and gives up after the second (abort refused, then resign).  In g2
    a late state (no move yet) comes after the bot's first move was taken: the bot does not
    move twice.  It declines a variant it does not play with lichess's reason (`standard`: it
    plays chess alone), accepts a challenge it takes, and leaves its own alone."""
    fake = fake_lichess.FakeLichess()
    bot = bots.BotProcess(fake.url, "lip_faketoken", ["go.nodes = 1000", "variants = standard", "concurrency = 2"])
    try:
        bot.wait_log(r"game g1: ended: 1-0 \(resign\), lost after 7 moves")
        bot.wait_log(r"game g2: ended: 1-0 \(resign\), won after 3 moves")
        log = bot.log()
        assert "the event stream: a malformed line ignored" in log, log
        assert "engine says" not in log, log  # e1h1 reached the engine as e1g1
        assert len(fake.moves["g1"]) == 2 and all(m[1] in "5678" for m in fake.moves["g1"]), fake.moves  # Black's
        assert log.count("game g1: the server refused the engine's move") == 2, log
        assert len(fake.moves["g2"]) == 2 and all(m[1] in "1234" for m in fake.moves["g2"]), fake.moves  # once each
        posts = fake.posts
        for gid in ("g1", "g2"):
            assert posts.count("/api/bot/game/%s/draw/no" % gid) == 1, posts
        assert "/api/bot/game/g1/takeback/no" in posts, posts
        assert posts.index("/api/bot/game/g1/resign") > posts.index("/api/bot/game/g1/abort"), posts
        bot.wait_log(r"challenge c1 from Alice: crazyhouse, 3\+2, rated: declined \(standard\)")
        bot.wait_log(r"challenge c2 from Alice: standard, 3\+2, rated: accepted")
        assert fake.bodies["/api/challenge/c1/decline"] == "reason=standard", fake.bodies
        assert "/api/challenge/c3/accept" not in posts and "/api/challenge/c3/decline" not in posts  # its own
        stop_cleanly(bot)
    finally:
        bot.stop()
        fake.close()
