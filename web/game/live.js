// The event stream of one game (Server-Sent Events), reconnecting with backoff when it drops.
// The server sends the game's state first, then a patch per change (docs/api.md): the moves
// added and the fields that changed, the legal moves only to the player to move.  The stream
// is a player's when it carries the player's token (or the account seated there sends its
// session cookie): then the patches that bring the player's turn carry its legal moves.

import { api } from '../api.js';
import { EventFeed } from '../sse.js';

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

export class Live extends EventFeed {
  // onGone: the player's opponent has left ({gone: true, claimWinInSeconds}) or come back.
  constructor(id, token, onState, onStatus, onGone = () => {}) {
    const reader = { token }; // read at each connection (`this` is not there before super)
    const handlers = {
      state: (g) => this.told(g),
      patch: (p) => this.told(this.game && applyPatch(this.game, p)),
      opponentGone: (x) => onGone(x),
    };
    super(() => api.eventsUrl(id, reader.token), handlers, onStatus);
    this.reader = reader;
    this.onState = onState;
  }

  onConnect() {
    this.game = null; // the game as this connection has told it
  }

  // The game after an event, or null: out of step, so start again from the state.
  told(g) {
    if (!g) {
      this.restart();
      return;
    }
    this.game = g;
    this.onState(g);
  }

  // The stream again as another reader (a player who has just joined with this token).
  setToken(token) {
    this.reader.token = token;
    this.restart();
  }
}
