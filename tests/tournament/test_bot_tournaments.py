"""Tournaments played by bots (issue 33): `starfish bot` processes, each its own engine at its
own strength (Skill Level and nodes a move), join an arena by its id (`--join`, or `join` in
their config; two of them berserk every game) and play it through to its end, as a club's
bots would.  Checked from the stored games, never from the server's own sums: every game over
and counted (in both players' bots' logs, in the tournament's list, in the players' game
counts), the standings computed again (tests/api/tournaments.py: scores, sheets, fire,
berserks, ranks) equal to the server's, no immediate rematch (the rule's exception, the
arena's only two players online, never arises with eight), every berserk the server said yes
to stored, no game paired once the time left could not hold one.

- an arena of 8 bots over 6 minutes on SQLite (one instance);
- the same on PostgreSQL on two instances behind nginx, the instance holding the director's
  lease killed (kill -9) half-way: the other takes the lease over and pairs on;
- a round robin of 4 bots: its 12 games, points, Sonneborn-Berger and cross table.

Minutes each: `make test-tournaments` runs them (tests/run.py --only tournament), not `make test`.
"""
import json
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "api"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scale"))
import accounts as a  # noqa: E402  (tests/api's helpers)
import api_harness as h  # noqa: E402
import bots  # noqa: E402
import lichess as li  # noqa: E402
import tournaments as tt  # noqa: E402
from test_api_board import bot  # noqa: E402
from test_web_instances import Nginx, Via  # noqa: E402  (tests/scale: nginx from deploy/nginx.conf)

ARENA_MINUTES = 6
CLOCK = {"clockTime": "0.5", "clockIncrement": "0"}  # 30 s a side: many games in the minutes
CLOCK_MS = 30000
START_DELAY_S = 20  # the bots start and join before the arena does
# (Skill Level, nodes a move): eight strengths, about weakest first (below 20 the engine picks
# among weaker moves); a round robin takes every other one.
STRENGTHS = [(8, 5000), (12, 5000), (16, 10000), (19, 10000), (20, 2000), (20, 5000), (20, 15000), (20, 40000)]
BERSERKERS = (1, 6)  # the bots whose config says berserk = yes


def lease_holder(db):
    return h.postgres().sql("SELECT holder FROM leases WHERE name = 'tournaments'", db).strip()


def listed_games(reader, tid):
    """GET /api/tournament/ID/games: the games in the order they ended (those in play last)."""
    r = reader.request("GET", "/api/tournament/%s/games" % tid)
    assert r.status == 200, r
    return [json.loads(line) for line in r.text.splitlines() if line]


class Field:
    """Bot accounts made on `setup`, each played by a `starfish bot` process on `url`; the
    first half told the tournament to join on the command line, the rest in their config."""

    def __init__(self, setup, n):
        self.accounts = [bots.bot_account(setup) for _ in range(n)]
        self.names = [b.name for b in self.accounts]
        self.procs = []

    def start(self, url, tid=None):
        for i, account in enumerate(self.accounts):
            skill, nodes = STRENGTHS[i * len(STRENGTHS) // len(self.accounts)]
            config = ["uci.Skill Level = %d" % skill, "uci.Hash = 4", "go.nodes = %d" % nodes,
                      "berserk = %s" % ("yes" if i in BERSERKERS else "no")]
            args = []
            if tid and i < len(self.accounts) // 2:
                args = ["--join", tid]
            elif tid:
                config.append("join = " + tid)
            self.procs.append(bots.BotProcess(url, account.bearer, config, args))

    def wait_joined(self, tid):
        for p in self.procs:
            p.wait_log(r"tournament %s: joined" % tid, timeout=60)

    def started(self, tid):
        """The tournament's games in the bots' logs: id -> the names of the bots that played it."""
        out = {}
        for name, p in zip(self.names, self.procs):
            for gid in re.findall(r"game (\w+): started: .*, tournament %s\n" % tid, p.log()):
                out.setdefault(gid, set()).add(name)
        return out

    def berserked(self):
        """The games each bot berserked, the server having said yes: name -> ids."""
        return {name: set(re.findall(r"game (\w+): berserk\n", p.log())) for name, p in zip(self.names, self.procs)}

    def stop(self):
        """Stops every bot (SIGTERM): each exits with status 0 and no sanitizer report."""
        for p in self.procs:
            assert p.stop() == 0, p.log()[-3000:]
            assert not p.sanitizer_reports(), p.sanitizer_reports()[0]


def make_arena(creator):
    return tt.arena(creator, name="Bot Arena", minutes=str(ARENA_MINUTES), rated="true", berserkable="true",
                    startDate=str(int((time.time() + START_DELAY_S) * 1000)), **CLOCK, **{"conditions.bots": "true"})


def wait_over(reader, tid, seconds):
    """The tournament finished and its every game over; returns the tournament in full."""
    def over():
        full = tt.tournament(reader, tid)
        return full if full["isFinished"] and all(g["result"] != "*" for g in listed_games(reader, tid)) else None
    return h.wait_for(over, seconds=seconds, what="the end of the tournament and of its games")


def check_games(reader, tid, field):
    """The tournament's games as listed are the stored ones and the ones the bots played; returns
    the counted ones (not aborted), in the order they ended."""
    listing = listed_games(reader, tid)
    counted = [g for g in listing if g["result"] != "aborted"]
    started = field.started(tid)
    for g in listing:
        stored = reader.game(g["id"])
        names = {side: g["players"][side]["user"]["name"] for side in ("white", "black")}
        assert stored["tournament"] == tid and stored["result"] == g["result"], (g, stored)
        assert {side: stored["players"][side]["name"] for side in names} == names, (g, stored)
        assert len(stored["moves"]) == g["plies"], (g, stored)
        assert stored["clock"]["berserk"] == {s: g["players"][s]["berserk"] for s in names}, (g, stored)
        if g["result"] != "aborted":
            assert started.get(g["id"]) == set(names.values()), ("a game its bots did not both play", g, started)
    assert set(started) <= {g["id"] for g in listing}, ("a game of the bots' not listed", started, listing)
    return counted


def play_arena(setup, url, reader, midway=None):
    """An arena of 8 bots on `url` (accounts made on `setup`, the results read from `reader`),
    checked against its games; midway(ID) is called half-way through it."""
    field = Field(setup, 8)
    creator = bot(a.signup(setup))
    made = make_arena(creator)
    tid = made["id"]
    assert made["status"] == 10 and made["clock"] == {"limit": 30, "increment": 0} and made["botsAllowed"], made
    field.start(url, tid)
    try:
        field.wait_joined(tid)
        assert tt.tournament(reader, tid)["nbPlayers"] == 8
        started = h.wait_for(lambda: tt.tournament(reader, tid)["status"] == 20, seconds=START_DELAY_S + 30,
                              what="the start")
        assert started
        if midway:
            time.sleep(max(0.0, made["startsAt"] / 1000 + ARENA_MINUTES * 30 - time.time()))
            midway(tid)
        full = wait_over(reader, tid, ARENA_MINUTES * 60 + 180)
        counted = check_games(reader, tid, field)
        standing = tt.check_arena_standings(reader, full, [g["id"] for g in counted], field.names)
        assert sum(line["nb"]["game"] for line in standing.values()) == 2 * len(counted)
        assert len(counted) >= 2 * len(field.names), ("too few games to show anything", len(counted))
        berserked = field.berserked()
        for g in counted:  # every berserk the server said yes to is in the stored game, no other
            for side, p in g["players"].items():
                assert p["berserk"] == (g["id"] in berserked[p["user"]["name"]]), (side, g)
        for i, name in enumerate(field.names):
            nb = standing[name]["nb"]
            assert (nb["berserk"] > nb["game"] // 2) if i in BERSERKERS else nb["berserk"] == 0, (name, nb)
        last_pairing = full["finishesAt"] - CLOCK_MS
        late = [g for g in counted if g["createdAt"] > last_pairing + 2000]
        assert not late, ("paired once a game no longer fitted", late, full["finishesAt"])
        ranks = sorted(standing.values(), key=lambda p: p["rank"])
        assert full["podium"][0]["name"] == ranks[0]["name"] == full["winner"]["name"], (full["podium"], ranks)
        field.stop()
        print("  arena %s: %d games, scores %s" % (tid, len(counted), [(p["name"], p["score"]) for p in ranks]))
    finally:
        for p in field.procs:
            p.stop()


def test_arena_of_8_bots():
    s = h.Server()
    try:
        play_arena(s, s.url(""), s)
    finally:
        s.cleanup()


def test_arena_of_8_bots_on_two_instances_the_director_killed():
    db = h.postgres().new_database()
    first = h.Server(db=db)  # started first: its director takes the lease
    holder = h.wait_for(lambda: lease_holder(db), what="the first instance's lease")
    second = h.Server(db=db)
    nginx = Nginx([first.port, second.port])

    def kill_the_director(tid):
        assert lease_holder(db) == holder  # the first instance has directed the arena so far
        before = {g["id"] for g in listed_games(second, tid)}
        first.kill9()
        killed = time.time()
        h.wait_for(lambda: {g["id"] for g in listed_games(second, tid)} - before, seconds=40,
                    what="a pairing by the instance that took over")
        taken = lease_holder(db)
        assert taken and taken != holder, (holder, taken)
        print("  the director killed; pairing again after %.1f s" % (time.time() - killed))

    try:
        play_arena(second, Via(nginx.port).url(""), second, kill_the_director)
    finally:
        nginx.stop()
        first.cleanup()
        second.cleanup()


def test_round_robin_of_4_bots():
    s = h.Server()
    field = Field(s, 4)
    try:
        field.start(s.url(""))
        for p in field.procs:
            p.wait_log("listening for challenges")
        creator = bot(a.signup(s))
        body = dict(CLOCK, system="robin", players=",".join(field.names), waitMinutes="0", variant="standard",
                    rated="true", name="Bot Round Robin")
        r = li.form(s, "POST", "/api/tournament", body, creator.headers())
        assert r.status == 200, r
        tid = r.json()["id"]
        full = wait_over(s, tid, 900)
        counted = check_games(s, tid, field)
        results = {}
        for g in counted:
            pair = (g["players"]["white"]["user"]["name"], g["players"]["black"]["user"]["name"])
            assert pair not in results, ("a pair met twice with the same colours", pair)
            results[pair] = g["result"]
        assert len(results) == 12, results
        tt.check_robin(full, results, field.names)
        field.stop()
        print("  round robin %s: %s" % (tid, [(p["name"], p["points"], p["tieBreak"])
                                               for p in full["standing"]["players"]]))
    finally:
        for p in field.procs:
            p.stop()
        s.cleanup()
