"""Helpers for the tests of tournaments: an arena made, a tournament read; and the rules
computed again from the stored games, independently of the server's C (docs/api-lichess.md,
"Tournaments and TV"), to compare with the server's standings: an arena's points, sheets, fire,
berserks and no immediate rematch; a round robin's points and cross table.

It is not a test module (no test_ prefix): tests/api/test_api_tournaments.py and the bots'
tournaments (tests/tournament) import it.
"""

import lichess as li


def arena(creator, **fields):
    body = {"name": "Test Arena", "clockTime": "1", "clockIncrement": "0", "minutes": "10", "waitMinutes": "0",
            "variant": "standard"}
    body.update(fields)
    r = li.form(creator.server, "POST", "/api/tournament", body, creator.headers())
    assert r.status == 200, r
    return r.json()


def tournament(s, tid, page=1):
    return s.call("GET", "/api/tournament/%s?page=%d" % (tid, page))


# ---- An arena's points, computed again from the games ---------------------------------------

def points(outcome, berserk, own_moves, plies, fire):
    p = 2 if outcome == "win" else 1 if outcome == "draw" and plies >= 20 else 0
    p *= 2 if fire else 1
    return p + (1 if outcome == "win" and berserk and own_moves >= 7 else 0)


def sheet(games):
    """games: the player's, oldest first, each (outcome, berserk, own_moves, plies)."""
    score, streak, digits = 0, 0, []
    for outcome, berserk, own, plies in games:
        p = points(outcome, berserk, own, plies, streak >= 2)
        score += p
        digits.append(str(p))
        streak = streak + 1 if outcome == "win" else 0
    return score, "".join(reversed(digits)), streak >= 2


def player_games(s, ended, name):
    """The player's games as the store has them (ended: the ids of finished games, in the order
    they ended; aborted ones are left out), each ((outcome, berserk, own_moves, plies), opponent)."""
    out = []
    for gid in ended:
        g = s.game(gid)
        for side in ("white", "black"):
            if g["players"][side]["name"] != name or g["result"] not in ("1-0", "0-1", "1/2-1/2"):
                continue
            plies = len(g["moves"])
            outcome = {"1-0": "win" if side == "white" else "loss", "0-1": "loss" if side == "white" else "win",
                       "1/2-1/2": "draw"}[g["result"]]
            own = (plies + (side == "white")) // 2
            opponent = g["players"]["black" if side == "white" else "white"]["name"]
            out.append(((outcome, g["clock"]["berserk"][side], own, plies), opponent))
    return out


class StoredGames:
    """A server's games, each read once (GET /api/games/ID) however often it is asked for."""

    def __init__(self, server):
        self.server, self.read = server, {}

    def game(self, gid):
        if gid not in self.read:
            self.read[gid] = self.server.game(gid)
        return self.read[gid]


def check_arena_standings(s, full, ended, names):
    """The arena's standings (full: the tournament as GET /api/tournament/ID gives it) are the
    ones computed from its games (ended): every player's score, sheet, fire, games, wins and
    berserks; no player met the same opponent twice in a row; ranked by score, then rating.
    Returns the standings by name."""
    s = StoredGames(s)
    standing = {p["name"]: p for p in full["standing"]["players"]}
    assert sorted(standing) == sorted(names), standing
    for name in names:
        games = player_games(s, ended, name)
        score, digits, fire = sheet([g for g, _ in games])
        line = standing[name]
        assert (line["score"], line["sheet"]["scores"], line["sheet"].get("fire", False)) == (score, digits, fire), \
            (name, line, games)
        nb = {"game": len(games), "berserk": sum(1 for g, _ in games if g[1]),
              "win": sum(1 for g, _ in games if g[0] == "win")}
        assert line["nb"] == nb, (name, line, nb)
        opponents = [opp for _, opp in games]
        assert all(x != y for x, y in zip(opponents, opponents[1:])), ("an immediate rematch", name, opponents)
    ranks = sorted(full["standing"]["players"], key=lambda p: p["rank"])
    assert [p["rank"] for p in ranks] == list(range(1, len(names) + 1)), ranks
    keys = [(p["score"], p["rating"]) for p in ranks]
    assert keys == sorted(keys, reverse=True), ("ranked otherwise than by score, then rating", keys)
    return standing


# ---- A round robin's points and cross table --------------------------------------------------

def check_robin(full, results, names):
    """The finished round robin's standings (points, Sonneborn-Berger, ranks, podium) and cross
    table (full) agree with its games: results maps (white, black) to "1-0", "0-1" or
    "1/2-1/2", each pair once each way.  Returns the points by name."""
    for x in names:
        for y in names:
            if x != y:
                assert (x, y) in results and (y, x) in results, "each pair twice, colours swapped"
    got = {n: 0.0 for n in names}
    for (w, b), res in results.items():
        got[w] += {"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}[res]
        got[b] += {"1-0": 0, "0-1": 1, "1/2-1/2": 0.5}[res]
    sonneborn_berger = {n: 0.0 for n in names}
    for (w, b), res in results.items():
        sonneborn_berger[w] += {"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}[res] * got[b]
        sonneborn_berger[b] += {"1-0": 0, "0-1": 1, "1/2-1/2": 0.5}[res] * got[w]
    standing = {p["name"]: p for p in full["standing"]["players"]}
    for n in names:
        assert (standing[n]["points"], standing[n]["tieBreak"]) == (got[n], sonneborn_berger[n]), \
            (n, standing[n], got, sonneborn_berger)
    ranks = sorted(full["standing"]["players"], key=lambda p: p["rank"])
    keys = [(p["points"], p["tieBreak"], p["rating"]) for p in ranks]
    assert keys == sorted(keys, reverse=True), ("ranked otherwise than by points, Sonneborn-Berger, rating", keys)
    assert full["podium"][0]["name"] == ranks[0]["name"], (full["podium"], ranks)
    table = full["crossTable"]
    assert sorted(table["players"]) == sorted(names), table
    for i, x in enumerate(table["players"]):
        for j, y in enumerate(table["players"]):
            if i == j:
                assert table["results"][i][j] is None
                continue
            expect = ""
            for (w, b), res in results.items():
                if {w, b} == {x, y}:
                    won = (res == "1-0") == (w == x)
                    expect += "\u00bd" if res == "1/2-1/2" else "1" if won else "0"
            assert sorted(table["results"][i][j]) == sorted(expect), (x, y, table["results"][i][j], expect)
    return got
