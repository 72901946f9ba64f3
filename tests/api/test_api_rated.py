"""Games between accounts: the creator's seat, joining by invite, acting by session or token
(and another account refused), rated games and their rules, aborting, and the Glicko-2 rating
changes a rated game stores, against the paper's algorithm written in tests/api/accounts.py.
"""
import accounts as a
import api_harness as h

FOOLS_MATE = ["f2f3", "e7e5", "g2g4", "d8h4"]  # Black mates in two


def new_game(creator, rated=False, **options):
    body = {"variant": "chess", "opponent": "friend", "color": "white", "rated": rated}
    body.update(options)
    return creator.call("POST", "/api/games", body, expect=201)


def join(user, created, expect=200):
    path = "/api/games/%s/join" % created["game"]["id"]
    if expect == 200:
        return user.call("POST", path, {"invite": created["invite"]})
    return user.error("POST", path, {"invite": created["invite"]}, expect=expect)


def move(user, game_id, uci, expect=200):
    path = "/api/games/%s/moves" % game_id
    return user.call("POST", path, {"move": uci}) if expect == 200 else user.error("POST", path, {"move": uci},
                                                                                  expect=expect)


def perf(user, variant="chess"):
    return user.account()["perfs"][variant]


def test_games_between_accounts():
    s = h.shared()
    alice, bob, carol = a.signup(s), a.signup(s), a.signup(s)
    created = new_game(alice)
    gid, g = created["game"]["id"], created["game"]
    assert g["players"]["white"] == {"name": alice.name, "id": alice.name.lower(), "rating": 1500, "prov": True,
                                     "closed": False}, g["players"]
    assert g["players"]["black"] is None and g["rated"] is False and g["you"] == "white"
    join(alice, created, expect=400)  # one's own game's other side
    s.error("POST", "/api/games/%s/join" % gid, {"invite": created["invite"]}, expect=403)  # no account
    bob.error("POST", "/api/games/%s/join" % gid, {"invite": created["token"]}, expect=409)  # alice's side
    bob.error("POST", "/api/games/%s/join" % gid, {"invite": "x" * 32}, expect=403)
    joined = join(bob, created)
    assert joined["players"]["black"]["name"] == bob.name and joined["you"] == "black", joined
    assert join(bob, created)["you"] == "black"  # again: no change
    join(carol, created, expect=409)  # taken
    # Each acts by its session alone; the other account, a stranger and the bare token cannot.
    move(alice, gid, "e2e4")
    move(carol, gid, "e7e5", expect=403)
    s.error("POST", "/api/games/%s/moves" % gid, {"move": "e7e5", "token": created["invite"]}, expect=403)
    carol.error("POST", "/api/games/%s/moves" % gid, {"move": "e7e5", "token": created["invite"]}, expect=403)
    move(bob, gid, "e7e5")
    bob.error("POST", "/api/games/%s/resign" % gid, {"token": created["token"]}, expect=403)  # alice's token
    assert alice.call("GET", "/api/games/" + gid)["you"] == "white"
    assert "you" not in carol.call("GET", "/api/games/" + gid)  # a spectator
    assert bob.call("POST", "/api/games/%s/resign" % gid, {})["result"] == "1-0"
    listed = [x for x in s.call("GET", "/api/games?limit=100") if x["id"] == gid][0]
    assert listed["players"]["white"]["name"] == alice.name and listed["players"]["black"]["name"] == bob.name
    assert perf(alice)["games"] == 0 and "ratingDiff" not in s.game(gid)  # casual


def test_rated_game_rules():
    s = h.shared()
    alice = a.signup(s)
    body = {"variant": "chess", "opponent": "friend", "rated": True}
    s.error("POST", "/api/games", body, expect=401, contains="log in")
    alice.error("POST", "/api/games", dict(body, opponent="engine"), contains="engine")
    alice.error("POST", "/api/games", dict(body, fen="4k3/8/8/8/8/8/8/4K2R w K - 0 1"), contains="start")
    alice.error("POST", "/api/games", dict(body, rated="yes"), contains="true or false")
    created = new_game(alice, rated=True)
    gid = created["game"]["id"]
    assert created["game"]["rated"] is True
    # Without an account the invite joins nothing and plays nothing; anyone may watch.
    s.error("POST", "/api/games/%s/join" % gid, {"invite": created["invite"]}, expect=403)
    move(alice, gid, "e2e4")
    s.error("POST", "/api/games/%s/moves" % gid, {"move": "e7e5", "token": created["invite"]}, expect=403,
            contains="join")
    seen = s.game(gid, created["invite"])
    assert "you" not in seen and seen["joined"]["black"] is False, seen
    bob = a.signup(s)
    join(bob, created)
    move(bob, gid, "e7e5")


def test_abort_before_both_have_moved():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    created = new_game(alice, rated=True)
    gid = created["game"]["id"]
    join(bob, created)
    move(alice, gid, "d2d4")
    s.error("POST", "/api/games/%s/abort" % gid, {}, expect=403)  # a spectator
    g = bob.call("POST", "/api/games/%s/abort" % gid, {})
    assert (g["status"], g["result"], g["reason"]) == ("over", "*", "aborted"), g
    assert "ratingDiff" not in g and perf(alice)["games"] == perf(bob)["games"] == 0
    alice.error("POST", "/api/games/%s/moves" % gid, {"move": "e2e4"}, expect=409)
    listed = [x for x in s.call("GET", "/api/games?limit=100") if x["id"] == gid][0]
    assert (listed["result"], listed["reason"]) == ("*", "aborted"), listed
    # After both sides have moved: too late (resign instead); an anonymous game by its token.
    later = s.create("chess")
    s.move(later["game"]["id"], later["token"], "e2e4")
    s.move(later["game"]["id"], later["invite"], "e7e5")
    s.error("POST", "/api/games/%s/abort" % later["game"]["id"], {"token": later["token"]}, expect=409)
    early = s.create("starchess")  # a placement is a move: after White's first, either may still abort
    s.move(early["game"]["id"], early["token"], "K@17")
    g = s.call("POST", "/api/games/%s/abort" % early["game"]["id"], {"token": early["invite"]})
    assert (g["status"], g["reason"]) == ("over", "aborted"), g
    pgn = s.request("GET", "/api/games/%s/pgn" % early["game"]["id"]).text
    assert '[Result "*"]' in pgn and '[Termination "aborted"]' in pgn, pgn


def play_rated(s, white, black, moves):
    created = new_game(white, rated=True)
    gid = created["game"]["id"]
    join(black, created)
    g = None
    for i, uci in enumerate(moves):
        g = move(white if i % 2 == 0 else black, gid, uci)
    return gid, g


def test_rated_game_changes_ratings_as_glicko2_says():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    gid, last = play_rated(s, alice, bob, FOOLS_MATE)
    assert (last["result"], last["reason"]) == ("0-1", "checkmate"), last
    start = (1500.0, 350.0, 0.06)
    white_diff, black_diff, w, b = a.rating_diffs(start, start, 0)
    assert last["ratingDiff"] == {"white": white_diff, "black": black_diff}, (last["ratingDiff"], white_diff,
                                                                               black_diff)
    assert white_diff < 0 < black_diff
    stored = s.game(gid)
    assert stored["ratingDiff"] == last["ratingDiff"] and stored["players"]["white"]["rating"] == 1500
    pa, pb = perf(alice), perf(bob)
    assert (pa["rating"], pa["rd"], pa["games"]) == (a.whole(w[0]), a.whole(w[1]), 1), (pa, w)
    assert (pb["rating"], pb["rd"], pb["games"]) == (a.whole(b[0]), a.whole(b[1]), 1), (pb, b)
    # A second game from those values (colours swapped, a draw by agreement): the same again.
    created = new_game(bob, rated=True)
    gid2 = created["game"]["id"]
    join(alice, created)
    move(bob, gid2, "e2e4")
    move(alice, gid2, "e7e5")
    bob.call("POST", "/api/games/%s/draw" % gid2, {"action": "offer"})
    g = alice.call("POST", "/api/games/%s/draw" % gid2, {"action": "accept"})
    assert g["result"] == "1/2-1/2", g
    white_diff, black_diff, b2, w2 = a.rating_diffs(b, w, 0.5)
    assert g["ratingDiff"] == {"white": white_diff, "black": black_diff}, (g["ratingDiff"], white_diff, black_diff)
    assert g["players"]["white"]["rating"] == a.whole(b[0]) and g["players"]["black"]["rating"] == a.whole(w[0])
    assert perf(bob)["rating"] == a.whole(b2[0]) and perf(alice)["rating"] == a.whole(w2[0])
    assert perf(alice, "starchess")["games"] == 0  # each variant apart


def test_rematch_of_a_rated_game_swaps_the_accounts():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    created = new_game(alice, rated=True)
    gid = created["game"]["id"]
    join(bob, created)
    move(alice, gid, "e2e4")
    move(bob, gid, "e7e5")
    alice.call("POST", "/api/games/%s/resign" % gid, {})
    alice.call("POST", "/api/games/%s/rematch" % gid, {"action": "offer"})
    g = bob.call("POST", "/api/games/%s/rematch" % gid, {"action": "accept"})
    again = bob.call("GET", "/api/games/" + g["rematch"]["game"])
    assert again["rated"] is True and again["you"] == "white", again
    assert again["players"]["white"]["name"] == bob.name and again["players"]["black"]["name"] == alice.name
    assert again["players"]["white"]["rating"] == perf(bob)["rating"]


@h.postgresql_only
def test_two_instances_apply_one_result():
    """Both players resign at once, each through another instance: one result, one rating change."""
    import threading
    s = h.shared()
    other = h.Server(db=s.db)
    try:
        alice, bob = a.signup(s), a.signup(s)
        created = new_game(alice, rated=True)
        gid = created["game"]["id"]
        join(bob.on(other), created)
        move(alice, gid, "e2e4")
        move(bob.on(other), gid, "e7e5")
        answers = []
        threads = [threading.Thread(target=lambda u: answers.append(u.request("POST", "/api/games/%s/resign" % gid,
                                                                              {}).status), args=(u,))
                   for u in (alice, bob.on(other))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(answers) == [200, 409], answers
        assert perf(alice)["games"] == perf(bob.on(other))["games"] == 1
        g = s.game(gid)
        assert g["ratingDiff"]["white"] == -g["ratingDiff"]["black"], g["ratingDiff"]
        assert other.game(gid)["ratingDiff"] == g["ratingDiff"]
        # A logout on one instance holds on the other at once.
        bob.on(other).call("POST", "/api/auth/logout", expect=204)
        bob.error("GET", "/api/account", expect=401)
    finally:
        other.cleanup()
