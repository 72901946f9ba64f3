"""A fake server that speaks as lichess.org does to a bot, for tests/api/test_api_bot.py: the
account FakeBot (title BOT), an event stream whose first line is malformed JSON, then three
challenges (crazyhouse, which the bot does not play; standard, which it takes; one of its own)
and a game, g1, in which FakeBot plays Black after 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O, the
castling written king to rook (e1h1) as lichess writes it, with White offering a draw and asking
for a takeback: there every move is refused (400, as lichess refuses an illegal move), aborting
too, and a resignation ends the game.  And a game g2, in which FakeBot plays White from the
start: its first move is taken, then a late state comes (no move yet, Black offering a draw:
sent before the move reached the server), then Black's reply g8h6; its second move ends the
game (Black resigns).  It records every POST (path and body) and every move, by game.

It is not a test module (no test_ prefix).
"""
import http.server
import json
import queue
import threading
import time

ME = {"id": "fakebot", "name": "FakeBot", "title": "BOT", "rating": 2000}
ALICE = {"id": "alice", "name": "Alice", "title": None, "rating": 1500}
MOVES = "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1h1"


def challenge(cid, variant, challenger, dest):
    return {"type": "challenge", "challenge": {
        "id": cid, "url": "https://lichess.org/" + cid, "status": "created", "challenger": challenger,
        "destUser": dest, "variant": {"key": variant, "name": variant, "short": variant}, "rated": True,
        "speed": "blitz", "timeControl": {"type": "clock", "limit": 180, "increment": 2, "show": "3+2"},
        "color": "random", "perf": {"icon": "", "name": "Blitz"}}}


def state(status="started", moves=MOVES, **more):
    out = {"type": "gameState", "moves": moves, "wtime": 60000, "btime": 60000, "winc": 0, "binc": 0,
           "status": status}
    out.update(more)
    return out


def full(gid, white, black, first_state):
    return {"type": "gameFull", "id": gid, "variant": {"key": "standard", "name": "Standard"},
            "clock": {"initial": 60000, "increment": 0}, "speed": "bullet", "perf": {"name": "Bullet"},
            "rated": True, "createdAt": 0, "white": white, "black": black, "initialFen": "startpos",
            "state": first_state}


class FakeLichess:
    def __init__(self):
        self.posts, self.bodies, self.moves = [], {}, {"g1": [], "g2": []}
        self.closed = threading.Event()
        self.lines = {"g1": queue.Queue(), "g2": queue.Queue()}  # what each game's stream says next
        self.finals = {}  # the last state of a game that ended (a stream opened after it gets it)
        self.events_served = False
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def send_json(self, status, obj):
                body = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def stream(self, first, more=None):
                """NDJSON: the first lines, then each line from the queue more (None ends it),
                keep-alives meanwhile."""
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.end_headers()
                try:
                    for line in first:
                        self.wfile.write((json.dumps(line) if not isinstance(line, str) else line).encode() + b"\n")
                    self.wfile.flush()
                    while not fake.closed.is_set():
                        try:
                            line = more.get(timeout=0.5) if more else time.sleep(0.5) or ""
                        except queue.Empty:
                            line = ""
                        if line is None:
                            return
                        self.wfile.write((json.dumps(line) if line else "").encode() + b"\n")  # "": keep-alive
                        self.wfile.flush()
                except OSError:  # the bot hung up
                    pass

            def do_GET(self):
                if self.path == "/api/account":
                    self.send_json(200, {"id": ME["id"], "username": ME["name"], "title": "BOT"})
                elif self.path == "/api/challenge":
                    self.send_json(200, {"in": [], "out": []})
                elif self.path == "/api/stream/event":
                    lines = [] if fake.events_served else [
                        "{not json", challenge("c1", "crazyhouse", ALICE, ME), challenge("c3", "standard", ME, ALICE),
                        challenge("c2", "standard", ALICE, ME),
                        {"type": "gameStart", "game": {"gameId": "g1", "id": "g1", "color": "black"}},
                        {"type": "gameStart", "game": {"gameId": "g2", "id": "g2", "color": "white"}}]
                    fake.events_served = True
                    self.stream(lines)
                elif self.path == "/api/bot/game/stream/g1":
                    self.stream([full("g1", ALICE, ME, fake.finals.get("g1") or state(wdraw=True, wtakeback=True))],
                                fake.lines["g1"])
                elif self.path == "/api/bot/game/stream/g2":
                    self.stream([full("g2", ME, ALICE, fake.finals.get("g2") or state(moves=""))], fake.lines["g2"])
                else:
                    self.send_json(404, {"error": "Not found"})

            def end(self, gid, last):
                fake.finals[gid] = last
                fake.lines[gid].put(last)
                fake.lines[gid].put(None)

            def on_move_g2(self, move):
                moves = fake.moves["g2"]
                self.send_json(200, {"ok": True})
                if len(moves) == 1:  # a late state, from before the move; then Black's reply
                    fake.lines["g2"].put(state(moves="", bdraw=True))
                    time.sleep(0.3)
                    fake.lines["g2"].put(state(moves=moves[0] + " g8h6"))
                else:
                    self.end("g2", state("resign", moves=" ".join([moves[0], "g8h6"] + moves[1:]), winner="white"))

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode() if length else ""
                fake.posts.append(self.path)
                fake.bodies[self.path] = body
                game = self.path.split("/")[4] if self.path.startswith("/api/bot/game/") else None
                if "/move/" in self.path:
                    fake.moves[game].append(self.path.rsplit("/", 1)[1])
                    if game == "g2":
                        return self.on_move_g2(self.path.rsplit("/", 1)[1])
                    self.send_json(400, {"error": "Not your turn, or game already over"})
                elif self.path == "/api/bot/game/g1/abort":
                    self.send_json(400, {"error": "This game can no longer be aborted"})
                elif self.path == "/api/bot/game/g1/resign":
                    self.send_json(200, {"ok": True})
                    self.end("g1", state("resign", winner="white"))
                else:
                    self.send_json(200, {"ok": True})

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.closed.set()
        time.sleep(0.6)  # the streams see it
        self.server.shutdown()
        self.server.server_close()
