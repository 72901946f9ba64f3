"""A game's event stream, GET /api/games/ID/events, as docs/api.md says: the state first, then a
patch per change.  A spectator's patch after a move is at most 400 bytes in chess and carries
the move, the clock's figures and what else changed, never the legal moves; the player to move
(by game token or account) gets its legal moves, the other player and the spectators do not;
a takeback sends the state again.  The streams' game, patches applied, is the game as GET
answers it.  On both stores, and across two instances on PostgreSQL."""
import accounts as a
import api_harness as h
from test_api_play import check_game_shape
from test_api_rated import FOOLS_MATE, join, new_game

SPECTATOR_EVENT_MAX = 400  # bytes of a spectator's event after a move in chess, as sent
# What a patch may carry: the move count and moves, then GAME's fields that a change touches.
PATCH_KEYS = {"n", "moves", "side", "check", "last", "hand", "status", "result", "reason", "clock", "draw_offer",
              "takeback_offer", "joined", "rematch", "players", "ratingDiff", "legal", "fen"}
# A long game of chess: the Opera game (Morphy), 33 plies, to mate.
OPERA = ["e2e4", "e7e5", "g1f3", "d7d6", "d2d4", "c8g4", "d4e5", "g4f3", "d1f3", "d6e5", "f1c4", "g8f6", "f3b3",
         "d8e7", "b1c3", "c7c6", "c1g5", "b7b5", "c3b5", "c6b5", "c4b5", "b8d7", "e1c1", "a8d8", "d1d7", "d8d7",
         "h1d1", "e7e6", "b5d7", "f6d7", "b3b8", "d7b8", "d1d8"]


def same_game(streamed, answered):
    """The stream's game (patches applied) is GET's, but for the legal moves and the clock's
    figures (read at another moment)."""
    for key in set(answered) | set(streamed):
        if key not in ("legal", "clock", "you"):
            assert streamed.get(key) == answered.get(key), (key, streamed.get(key), answered.get(key))
    if answered["clock"]:
        assert {k: v for k, v in streamed["clock"].items() if not k.endswith("_ms")} == \
            {k: v for k, v in answered["clock"].items() if not k.endswith("_ms")}


def legal_ucis(game):
    return sorted(m["uci"] for m in game["legal"])


def watch(server, gid, tokens=None, users=None):
    """A spectator's stream and one per player (by token, or by an account's session)."""
    streams = {"spectator": server.events(gid)}
    for side in ("white", "black"):
        if tokens:
            streams[side] = server.events(gid, token=tokens[side])
        elif users:
            streams[side] = server.events(gid, headers=users[side].headers(origin=False))
    for side, stream in streams.items():
        name, first = stream.next()
        assert name == "state" and first["moves"] == [], (side, name)
        check_game_shape(first)
        assert first.get("you") == (None if side == "spectator" else side), (side, first.get("you"))
        if not (first["joined"]["white"] and first["joined"]["black"]):
            stream.until(lambda g: g["joined"]["white"] and g["joined"]["black"])
    return streams


def check_move_events(streams, answered):
    """After a move: the event each stream read, against the game GET answers."""
    to_move = answered["side"] if answered["status"] == "ongoing" else None
    for who, stream in streams.items():
        name, data, size = stream.raw
        assert name == "patch" and set(data) <= PATCH_KEYS, (who, name, data)
        assert "fen" not in data, "the position is the last move's: %r" % data
        if who == to_move:
            assert legal_ucis(data) == legal_ucis(answered) and data["legal"], (who, data)
        else:
            assert "legal" not in data, (who, data)
        if who == "spectator":
            assert size <= SPECTATOR_EVENT_MAX, "a spectator's event of %d bytes: %r" % (size, data)
        same_game(stream.game, answered)


def play(server, gid, moves, act, streams):
    """Plays the moves (act(side, uci) sends one) and checks every stream's event of each."""
    sizes = []
    for uci in moves:
        side = server.game(gid)["side"]
        act(side, uci)
        answered = server.game(gid)
        for stream in streams.values():
            stream.until(lambda g: len(g["moves"]) == len(answered["moves"]))
        check_move_events(streams, answered)
        sizes.append(streams["spectator"].raw[2])
    return sizes


def test_spectators_small_players_their_moves():
    s = h.shared()
    created = s.create("chess", opponent="friend", clock={"base_ms": 600000, "inc_ms": 5000})
    gid, tokens = created["game"]["id"], {"white": created["token"], "black": created["invite"]}
    s.game(gid, tokens["black"])  # the friend arrives
    streams = watch(s, gid, tokens=tokens)
    try:
        sizes = play(s, gid, OPERA, lambda side, uci: s.move(gid, tokens[side], uci), streams)
        final = s.game(gid)
        assert final["status"] == "over" and final["reason"] == "checkmate", final
        assert max(sizes) <= SPECTATOR_EVENT_MAX
        for stream in streams.values():
            assert stream.game["legal"] == [] and stream.game["check"] == final["check"]
        print("  spectator event after a move: %d to %d bytes, mean %.0f (chess, clock)" % (
            min(sizes), max(sizes), sum(sizes) / len(sizes)))
    finally:
        for stream in streams.values():
            stream.close()
    s.error("GET", "/api/games/%s/events?token=%s" % (gid, "x" * 32), expect=403)


def test_rated_game_by_accounts_to_mate():
    """Players by their sessions; the mating move's patch carries the result and the rating
    changes and stays under the limit, with a draw offer withdrawn by the move."""
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    created = new_game(alice, rated=True, clock={"base_ms": 180000, "inc_ms": 2000})
    gid = created["game"]["id"]
    join(bob, created)
    streams = watch(s, gid, users={"white": alice, "black": bob})
    users = {"white": alice, "black": bob}
    try:
        act = lambda side, uci: users[side].call("POST", "/api/games/%s/moves" % gid, {"move": uci})
        play(s, gid, FOOLS_MATE[:3], act, streams)
        bob.call("POST", "/api/games/%s/draw" % gid, {"action": "offer"})
        for stream in streams.values():
            stream.until(lambda g: g["draw_offer"] == "black")
            assert stream.raw[1] == {"n": 3, "draw_offer": "black"}, stream.raw
        sizes = play(s, gid, FOOLS_MATE[3:], act, streams)
        last = streams["spectator"].raw[1]
        assert last["status"] == "over" and "ratingDiff" in last and last["draw_offer"] is None, last
        assert sizes[-1] <= SPECTATOR_EVENT_MAX, sizes
    finally:
        for stream in streams.values():
            stream.close()


def test_takeback_sends_the_state_again():
    s = h.shared()
    created = s.create("chess", opponent="friend")
    gid, tokens = created["game"]["id"], {"white": created["token"], "black": created["invite"]}
    s.game(gid, tokens["black"])
    streams = watch(s, gid, tokens=tokens)
    try:
        play(s, gid, ["d2d4", "d7d5"], lambda side, uci: s.move(gid, tokens[side], uci), streams)
        s.call("POST", "/api/games/%s/takeback" % gid, {"token": tokens["black"], "action": "offer"})
        s.call("POST", "/api/games/%s/takeback" % gid, {"token": tokens["white"], "action": "accept"})
        answered = s.game(gid)
        for who, stream in streams.items():
            game = stream.until(lambda g: len(g["moves"]) == 1)
            assert stream.raw[0] == "state" and game.get("you") == (None if who == "spectator" else who), who
            assert legal_ucis(game) == (legal_ucis(answered) if who == "black" else []), who
            same_game(game, answered)
    finally:
        for stream in streams.values():
            stream.close()


def test_starchess_setup_placements():
    """The setup phase: each placement's patch carries the hands; the player to place gets its
    placements."""
    s = h.shared()
    created = s.create("starchess", opponent="friend")
    gid, tokens = created["game"]["id"], {"white": created["token"], "black": created["invite"]}
    s.game(gid, tokens["black"])
    streams = watch(s, gid, tokens=tokens)
    try:
        play(s, gid, ["K@17", "K@21", "Q@22"], lambda side, uci: s.move(gid, tokens[side], uci), streams)
        data = streams["spectator"].raw[1]
        assert "hand" in data and data["moves"][0]["uci"] == "Q@22", data
        assert all(m["place"] for m in streams["black"].raw[1]["legal"]), "black places pieces"
    finally:
        for stream in streams.values():
            stream.close()


@h.postgresql_only
def test_patches_across_instances():
    """Moves through one instance, streams on the other: the same patches."""
    s = h.shared()
    other = h.Server(db=s.db)
    try:
        created = s.create("chess", opponent="friend")
        gid, tokens = created["game"]["id"], {"white": created["token"], "black": created["invite"]}
        s.game(gid, tokens["black"])
        streams = watch(other, gid, tokens=tokens)
        try:
            play(other, gid, OPERA[:12], lambda side, uci: s.move(gid, tokens[side], uci), streams)
        finally:
            for stream in streams.values():
                stream.close()
    finally:
        other.cleanup()
