// A tournament player's presence: the arena pairs only players who are online, that is with
// their account's event stream open (GET /api/stream/event, NDJSON).  The tournament page
// keeps one open while its player takes part, and hears from it the games that start
// (gameStart, lichess's shape: {type, game: {gameId, tournamentId, ...}}).  It opens again,
// with a growing wait, when it drops; it stops for good when the session has ended (401).

import { api } from '../api.js';

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 15000;

export class Presence {
  // onGameStart(game): a gameStart's `game`.
  constructor(onGameStart) {
    this.onGameStart = onGameStart;
    this.closed = false;
    this.retry = RETRY_FIRST_MS;
    this.timer = null;
    this.controller = null;
    this.connect();
  }

  async connect() {
    if (this.closed) return;
    this.controller = new AbortController();
    try {
      const res = await fetch(api.accountEventsUrl(), { signal: this.controller.signal });
      if (res.status === 401) return;
      if (res.ok) {
        this.retry = RETRY_FIRST_MS;
        await this.read(res.body.getReader());
      }
    } catch {
      /* dropped, or closed: below */
    }
    if (this.closed) return;
    this.timer = setTimeout(() => this.connect(), this.retry);
    this.retry = Math.min(this.retry * 2, RETRY_MAX_MS);
  }

  // The stream's lines as they come, until it ends.
  async read(reader) {
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done || this.closed) return;
      buffer += decoder.decode(value, { stream: true });
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (!line) continue; // a keep-alive
        const event = JSON.parse(line);
        if (event.type === 'gameStart' && event.game) this.onGameStart(event.game);
      }
    }
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.controller) this.controller.abort();
  }
}
