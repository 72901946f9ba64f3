"""A fake server that speaks as lichess.org does to a bot, for tests/api/test_api_bot.py: the
account FakeBot (title BOT), an event stream whose first line is malformed JSON, then three
challenges (crazyhouse, which the bot does not play; standard, which it takes; one of its own)
and a game, g1, in which FakeBot plays Black after 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O, the
castling written king to rook (e1h1) as lichess writes it, with White offering a draw and asking
for a takeback.  Every move is refused (400, as lichess refuses an illegal move), aborting too;
a resignation ends the game.  It records every POST (path and body) and every move.

It is not a test module (no test_ prefix).
"""
import http.server
import json
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


def state(status="started", **more):
    out = {"type": "gameState", "moves": MOVES, "wtime": 60000, "btime": 60000, "winc": 0, "binc": 0,
           "status": status}
    out.update(more)
    return out


class FakeLichess:
    def __init__(self):
        self.posts, self.bodies, self.moves = [], {}, []
        self.over = threading.Event()
        self.closed = threading.Event()
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

            def stream(self, lines, until):
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.end_headers()
                try:
                    for line in lines:
                        self.wfile.write((line + "\n").encode())
                    self.wfile.flush()
                    while not until.wait(0.5) and not fake.closed.is_set():
                        self.wfile.write(b"\n")  # keep-alive
                        self.wfile.flush()
                    if until.is_set() and until is fake.over:
                        self.wfile.write((json.dumps(state("resign", winner="white")) + "\n").encode())
                except OSError:  # the bot hung up
                    pass

            def do_GET(self):
                if self.path == "/api/account":
                    self.send_json(200, {"id": ME["id"], "username": ME["name"], "title": "BOT"})
                elif self.path == "/api/challenge":
                    self.send_json(200, {"in": [], "out": []})
                elif self.path == "/api/stream/event":
                    lines = [] if fake.events_served else [
                        "{not json",
                        json.dumps(challenge("c1", "crazyhouse", ALICE, ME)),
                        json.dumps(challenge("c3", "standard", ME, ALICE)),
                        json.dumps(challenge("c2", "standard", ALICE, ME)),
                        json.dumps({"type": "gameStart", "game": {"gameId": "g1", "id": "g1", "color": "black"}})]
                    fake.events_served = True
                    self.stream(lines, fake.closed)
                elif self.path == "/api/bot/game/stream/g1":
                    full = {"type": "gameFull", "id": "g1", "variant": {"key": "standard", "name": "Standard"},
                            "clock": {"initial": 60000, "increment": 0}, "speed": "bullet",
                            "perf": {"name": "Bullet"}, "rated": True, "createdAt": 0, "white": ALICE, "black": ME,
                            "initialFen": "startpos",
                            "state": state("resign", winner="white") if fake.over.is_set()
                            else state(wdraw=True, wtakeback=True)}
                    self.stream([json.dumps(full)], fake.over)
                else:
                    self.send_json(404, {"error": "Not found"})

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode() if length else ""
                fake.posts.append(self.path)
                fake.bodies[self.path] = body
                if self.path.startswith("/api/bot/game/g1/move/"):
                    fake.moves.append(self.path.rsplit("/", 1)[1])
                    self.send_json(400, {"error": "Not your turn, or game already over"})
                elif self.path == "/api/bot/game/g1/abort":
                    self.send_json(400, {"error": "This game can no longer be aborted"})
                elif self.path == "/api/bot/game/g1/resign":
                    self.send_json(200, {"ok": True})
                    fake.over.set()
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
