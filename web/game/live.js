// The event stream of one game (Server-Sent Events), reconnecting with backoff when it drops.
// The server sends the game's state first, then a patch per change (docs/api.md): the moves
// added and the fields that changed, the legal moves only to the player to move.  The stream
// is a player's when it carries the player's token (or the account seated there sends its
// session cookie): then the patches that bring the player's turn carry its legal moves.

import { api } from '../api.js';
import { notify } from '../ui.js';

// GAME after a patch, or null when the patch does not follow from it (an event was missed).
export function applyPatch(game, patch) {
  const { n, moves = [], clock, ...fields } = patch;
  if (game.moves.length + moves.length !== n) return null;
  const g = { ...game, ...fields, moves: moves.length ? [...game.moves, ...moves] : game.moves };
  if (moves.length) g.fen = moves[moves.length - 1].fen;
  // A new position, or the end: the legal moves are the patch's (the player to move's), else none.
  if ((moves.length || fields.status === 'over') && !fields.legal) g.legal = [];
  if (clock) g.clock = { ...game.clock, ...clock };
  return g;
}

export class Live {
  constructor(id, token, onState, onStatus) {
    this.id = id;
    this.token = token;
    this.onState = onState;
    this.onStatus = onStatus;
    this.es = null;
    this.game = null; // the game as the stream has told it
    this.retry = 500;
    this.closed = false;
    this.timer = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const es = new EventSource(api.eventsUrl(this.id, this.token));
    this.es = es;
    this.game = null;
    this.onStatus('connecting');
    es.onopen = () => {
      this.retry = 500;
      this.onStatus('live');
    };
    es.addEventListener('state', (e) => this.received(e, (g) => g));
    es.addEventListener('patch', (e) => this.received(e, (p) => this.game && applyPatch(this.game, p)));
    es.onerror = () => {
      if (this.closed) return;
      this.onStatus('reconnecting');
      // The browser retries by itself while CONNECTING; once CLOSED it is up to us.
      if (es.readyState === EventSource.CLOSED) this.reconnectLater();
    };
  }

  // An event: `toGame` makes the game of its data (null: out of step, so start again).
  received(e, toGame) {
    this.retry = 500;
    this.onStatus('live');
    let g;
    try {
      g = toGame(JSON.parse(e.data));
    } catch (err) {
      notify(`Bad update from the server: ${err.message}`);
      return;
    }
    if (!g) {
      this.es.close();
      this.connect();
      return;
    }
    this.game = g;
    this.onState(g);
  }

  reconnectLater() {
    this.es.close();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), this.retry);
    this.retry = Math.min(this.retry * 2, 10000);
  }

  // The stream again as another reader (a player who has just joined with this token).
  setToken(token) {
    this.token = token;
    if (this.es) this.es.close();
    clearTimeout(this.timer);
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.es) this.es.close();
  }
}
