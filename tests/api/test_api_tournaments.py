"""Tournaments, in lichess's shapes (its arena endpoints): an arena made, joined, started and
paired by the director (gameStart with tournamentId on the players' event streams), played to
its standings, which the test computes again from the games themselves (points, fire, berserk,
quick draws) and compares with the server's; no immediate rematch; a round robin of four
played round by round, its cross table checked against the games; entry conditions and errors;
on both stores, and across two instances on PostgreSQL with the pairing instance killed."""
import json
import time

import accounts as a
import api_harness as h
import lichess as li
from test_api_board import bot
from test_api_events import events
from tournaments import arena, check_arena_standings, check_robin, player_games, tournament

WHITE_MOVES = ["a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3", "a3a4", "b3b4"]
BLACK_MOVES = ["a7a6", "b7b6", "c7c6", "d7d6", "e7e6", "f7f6", "g7g6", "h7h6", "a6a5", "b6b5"]


def play(user, gid, moves):
    for move in moves:
        assert user.call("POST", "/api/board/game/%s/move/%s" % (gid, move), {}) == {"ok": True}


def moves_each(white, black, gid, n):
    for i in range(n):
        play(white, gid, [WHITE_MOVES[i]])
        play(black, gid, [BLACK_MOVES[i]])


def test_arena_played_and_its_standings():
    s = h.shared()
    creator = bot(a.signup(s))
    made = arena(creator, berserkable="true", rated="true")
    assert made["system"] == "arena" and made["fullName"] == "Test Arena" and made["status"] in (10, 20), made
    assert made["clock"] == {"limit": 60, "increment": 0} and made["minutes"] == 10 and made["rated"], made
    assert made["variant"]["key"] == "standard" and made["standing"]["players"] == [], made
    tid = made["id"]
    players = [bot(a.signup(s, name=a.fresh_name(n))) for n in ("alice", "bob", "carol", "dave")]
    by_name = {p.name: p for p in players}
    streams = {p.name: events(p) for p in players}
    for p in players:
        assert p.call("POST", "/api/tournament/%s/join" % tid, {}) == {"ok": True}
    alice = players[0]
    started = h.wait_for(lambda: tournament(s, tid)["status"] == 20, what="the start")
    assert started
    ended, seen, other_games = [], set(), 0
    while len([1 for _, opp in player_games(s, ended, alice.name)]) < 3:
        duels = h.wait_for(lambda: [d for d in tournament(s, tid)["duels"] if d["id"] not in seen], what="a pairing")
        for duel in duels:
            gid = duel["id"]
            seen.add(gid)
            g = s.game(gid)
            assert g["tournament"] == tid and g["rated"], g
            white, black = (by_name[g["players"][c]["name"]] for c in ("white", "black"))
            start = streams[white.name].until(lambda e: e["type"] == "gameStart" and e["game"]["gameId"] == gid)
            assert start["game"]["tournamentId"] == tid and start["game"]["source"] == "arena", start
            if alice in (white, black):
                loser = black if alice is white else white
                if len(player_games(s, ended, alice.name)) == 2:  # the third: berserk, 7 moves, a win
                    assert alice.call("POST", "/api/board/game/%s/berserk" % gid, {}) == {"ok": True}
                    alice.error("POST", "/api/board/game/%s/berserk" % gid, {}, expect=409, contains="already")
                    clock = s.game(gid)["clock"]
                    mine = "white" if alice is white else "black"
                    assert clock["berserk"][mine] and clock["%s_ms" % mine] <= 30000, clock
                    moves_each(white, black, gid, 7)
                    loser.error("POST", "/api/board/game/%s/berserk" % gid, {}, expect=409, contains="first move")
                assert loser.call("POST", "/api/board/game/%s/resign" % gid, {}) == {"ok": True}
            else:
                other_games += 1
                if other_games == 1:  # a draw at once: nothing
                    assert white.call("POST", "/api/board/game/%s/draw/yes" % gid, {}) == {"ok": True}
                    assert black.call("POST", "/api/board/game/%s/draw/yes" % gid, {}) == {"ok": True}
                elif other_games == 2:  # a draw after 10 moves: a point each
                    moves_each(white, black, gid, 10)
                    assert white.call("POST", "/api/board/game/%s/draw/yes" % gid, {}) == {"ok": True}
                    assert black.call("POST", "/api/board/game/%s/draw/yes" % gid, {}) == {"ok": True}
                else:
                    assert black.call("POST", "/api/board/game/%s/resign" % gid, {}) == {"ok": True}
            ended.append(gid)
    for p in players:
        p.call("POST", "/api/tournament/%s/withdraw" % tid, {})
    time.sleep(1.2)  # the director's next round: nobody waits
    full = tournament(s, tid)
    standing = check_arena_standings(s, full, ended, by_name)
    assert all(line.get("withdraw") is True for line in standing.values()), standing
    assert standing[alice.name]["score"] == 2 + 2 + 5 and standing[alice.name]["sheet"]["fire"] is True
    assert standing[alice.name]["rank"] == 1 and standing[alice.name]["nb"] == {"game": 3, "berserk": 1, "win": 3}
    listed_games = [json.loads(x) for x in s.request("GET", "/api/tournament/%s/games" % tid).text.splitlines() if x]
    # The director may pair again between the last game's end and the withdrawals: such a game
    # is listed too, still in play.
    finished = [g["id"] for g in listed_games if g["result"] != "*"]
    assert sorted(finished) == sorted(ended), (listed_games, ended)
    assert all(g["id"] not in seen for g in listed_games if g["result"] == "*"), (listed_games, seen)
    berserked = [g for g in listed_games if g["players"]["white"]["berserk"] or g["players"]["black"]["berserk"]]
    assert len(berserked) == 1 and berserked[0]["plies"] == 14 and "winner" in berserked[0], berserked
    results = s.request("GET", "/api/tournament/%s/results" % tid)
    lines = [li_line for li_line in results.text.splitlines() if li_line]
    assert len(lines) == 4 and results.headers["Content-Type"].startswith("application/x-ndjson"), results
    listed = s.call("GET", "/api/tournament")
    assert tid in [t["id"] for t in listed["started"]], listed
    for st in streams.values():
        st.close()


def test_round_robin_and_its_cross_table():
    s = h.shared()
    creator = bot(a.signup(s))
    players = [bot(a.signup(s)) for _ in range(4)]
    body = {"system": "robin", "players": ",".join(p.name for p in players), "clockTime": "3", "clockIncrement": "2",
            "waitMinutes": "0", "variant": "starchess", "rated": "false"}
    r = li.form(s, "POST", "/api/tournament", body, creator.headers())
    assert r.status == 200, r
    made = r.json()
    tid = made["id"]
    assert made["system"] == "robin" and made["nbPlayers"] == 4 and made["fullName"] == "Starchess Round Robin", made
    by_name = {p.name: p for p in players}
    players[0].error("POST", "/api/tournament/%s/join" % tid, {}, expect=409, contains="fixed")
    played, results = set(), {}
    for rnd in range(6):
        # a round's games are made one after the other: both, before the round is looked at
        duels = h.wait_for(lambda: (lambda d: d if len(d) >= 2 else None)(
            [d for d in tournament(s, tid)["duels"] if d["id"] not in played]), what="round %d" % (rnd + 1))
        assert len(duels) == 2, (rnd, duels)
        for duel in duels:
            gid = duel["id"]
            played.add(gid)
            g = s.game(gid)
            white, black = g["players"]["white"]["name"], g["players"]["black"]["name"]
            assert (white, black) not in results, "a pair met twice with the same colours"
            if rnd % 3 == 2:  # a draw
                by_name[white].call("POST", "/api/board/game/%s/draw/yes" % gid, {})
                by_name[black].call("POST", "/api/board/game/%s/draw/yes" % gid, {})
                results[(white, black)] = "1/2-1/2"
            else:  # the lower name wins
                loser = max(white, black)
                by_name[loser].call("POST", "/api/board/game/%s/resign" % gid, {})
                results[(white, black)] = "1-0" if loser == black else "0-1"
    full = h.wait_for(lambda: (lambda t: t if t["isFinished"] else None)(tournament(s, tid)), what="the end")
    assert len(results) == 12, results
    points = check_robin(full, results, by_name)
    assert full["podium"][0]["name"] == max(points, key=lambda n: (points[n], n == min(by_name)))
    assert tid in [t["id"] for t in s.call("GET", "/api/tournament")["finished"]]


def test_conditions_and_errors():
    s = h.shared()
    creator = bot(a.signup(s))
    s.error("POST", "/api/tournament", {"clockTime": 1, "clockIncrement": 0, "minutes": 10}, expect=401)
    creator.error("POST", "/api/tournament", {"clockTime": 0, "clockIncrement": 0, "minutes": 10},
                  contains="not both 0")
    creator.error("POST", "/api/tournament", {"clockTime": 1, "clockIncrement": 0}, contains="minutes")
    creator.error("POST", "/api/tournament", {"clockTime": 1, "clockIncrement": 0, "minutes": 10, "variant": "go"},
                  contains="unknown variant")
    creator.error("POST", "/api/tournament", {"clockTime": 1, "clockIncrement": 0, "system": "robin",
                                              "players": creator.name}, contains="2 to 20")
    creator.error("POST", "/api/tournament", {"clockTime": 1, "clockIncrement": 0, "system": "robin",
                                              "players": creator.name + ",nobody_at_all"}, expect=404)
    made = arena(creator, waitMinutes="60", **{"conditions.minRating.rating": "1600",
                                                "conditions.nbRatedGame.nb": "0"})
    assert made["status"] == 10 and made["secondsToStart"] > 3500 and made["minRating"] == {"rating": 1600}, made
    newcomer = bot(a.signup(s))
    newcomer.error("POST", "/api/tournament/%s/join" % made["id"], {}, contains="1600")
    open_one = arena(creator, waitMinutes="60")
    b = bot(a.signup(s))
    assert b.call("POST", "/api/bot/account/upgrade", {}) == {"ok": True}
    b.error("POST", "/api/tournament/%s/join" % open_one["id"], {}, contains="bots may not")
    bots_welcome = arena(creator, waitMinutes="60", **{"conditions.bots": "true"})
    assert b.call("POST", "/api/tournament/%s/join" % bots_welcome["id"], {}) == {"ok": True}
    assert tournament(s, bots_welcome["id"])["standing"]["players"][0]["title"] == "BOT"
    newcomer.error("POST", "/api/tournament/%s/withdraw" % open_one["id"], {}, contains="not joined")
    s.error("GET", "/api/tournament/nothing1", expect=404)
    s.error("POST", "/api/tournament/%s/join" % open_one["id"], {}, expect=401)
    s.error("GET", "/api/tournament/%s?page=0" % open_one["id"], expect=400)
    assert open_one["id"] in [t["id"] for t in s.call("GET", "/api/tournament")["created"]]
    # berserk outside a tournament
    alice, bob = bot(a.signup(s)), bot(a.signup(s))
    from test_api_challenges import challenge
    c = challenge(alice, bob.name, variant="chess", color="white", **{"clock.limit": "60", "clock.increment": "0"})
    bob.call("POST", "/api/challenge/%s/accept" % c["id"], {})
    alice.error("POST", "/api/board/game/%s/berserk" % c["id"], {}, expect=409, contains="tournament")


@h.postgresql_only
def test_pairing_goes_on_when_the_directing_instance_dies():
    first = h.Server()  # started first: its director takes the lease
    time.sleep(1.5)
    second = h.Server(db=first.db)
    try:
        creator = bot(a.signup(second))
        made = arena(creator)
        tid = made["id"]
        players = [bot(a.signup(second)) for _ in range(4)]
        streams = [events(p) for p in players]
        for p in players:
            p.call("POST", "/api/tournament/%s/join" % tid, {})
        by_name = {p.name: p for p in players}
        first_round = h.wait_for(lambda: (lambda d: d if len(d) == 2 else None)(tournament(second, tid)["duels"]),
                               what="the first pairings")
        holder = h.postgres().sql("SELECT holder FROM leases WHERE name = 'tournaments'", first.db).strip()
        first.kill9()
        for duel in first_round:
            g = second.game(duel["id"])
            by_name[g["players"]["black"]["name"]].call("POST", "/api/board/game/%s/resign" % duel["id"], {})
        began = time.time()
        old = {d["id"] for d in first_round}
        again = h.wait_for(lambda: [d for d in tournament(second, tid)["duels"] if d["id"] not in old], seconds=25,
                         what="pairings by the instance that took over")
        assert again and time.time() - began < 25
        taken = h.postgres().sql("SELECT holder FROM leases WHERE name = 'tournaments'", second.db).strip()
        assert holder and taken and taken != holder, (holder, taken)  # the second instance took the job over
        standing = {p["name"]: p["score"] for p in tournament(second, tid)["standing"]["players"]}
        assert sorted(standing.values()) == [0, 0, 2, 2], standing
        for st in streams:
            st.close()
    finally:
        first.cleanup()
        second.cleanup()


def test_tv_shows_the_best_rated_game_in_play():
    s = h.Server()  # its own: no other test's games in play
    try:
        from test_api_challenges import challenge
        alice, bob, carol, dave = (bot(a.signup(s)) for _ in range(4))
        a.execute(s, "INSERT INTO perfs (user_id, variant, rating, rd, volatility, games, rated_ms) "
                     "VALUES ('%s', 'chess', 1812, 60, 0.06, 20, %d)" % (carol.name.lower(), int(time.time() * 1000)))
        s.error("GET", "/api/tv/standard", expect=404)
        games = []
        for x, y in ((alice, bob), (dave, carol)):
            c = challenge(x, y.name, variant="chess", color="white", **{"clock.limit": "300", "clock.increment": "0"})
            y.call("POST", "/api/challenge/%s/accept" % c["id"], {})
            games.append(c["id"])
        unlimited = challenge(alice, carol.name, variant="chess", color="white")  # no clock: not on TV
        carol.call("POST", "/api/challenge/%s/accept" % unlimited["id"], {})
        tv = s.call("GET", "/api/tv/standard")
        assert (tv["gameId"], tv["color"], tv["rating"], tv["user"]["name"]) == (games[1], "black", 1812, carol.name), tv
        assert s.call("GET", "/api/tv/channels") == {"standard": tv}
        carol.call("POST", "/api/board/game/%s/resign" % games[1], {})
        assert s.call("GET", "/api/tv/standard")["gameId"] == games[0]
        s.error("GET", "/api/tv/go", expect=404)
    finally:
        s.cleanup()
