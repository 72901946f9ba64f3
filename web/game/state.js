// The game page's one state object.  Modules read it and listen to its events; whoever
// changes it says what changed ('change' with the names of the fields), and requests from the
// modules (play a move, go to a ply, flip, resign ...) are events on it too, answered by the page.

import { parseFen, splitFen } from '../position.js';

export const other = (s) => (s === 'white' ? 'black' : 'white');

export class GameState extends EventTarget {
  constructor(fields) {
    super();
    this.game = null; // the server's GAME (docs/api.md)
    this.variant = null;
    this.token = null; // this browser's secret for the game, if it plays
    this.mySide = null;
    this.invite = null;
    this.viewPly = null; // null: the live position; k: the position after k moves
    this.flipped = false;
    this.pending = false; // a request of ours is on its way
    this.premove = null; // { from | place, to }
    Object.assign(this, fields);
  }

  set(patch) {
    Object.assign(this, patch);
    this.emit('change', new Set(Object.keys(patch)));
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  on(type, fn) {
    const handler = (e) => fn(e.detail);
    this.addEventListener(type, handler);
    return () => this.removeEventListener(type, handler);
  }

  // ---- what follows from the fields ----

  get live() {
    return this.viewPly === null;
  }

  // The ply shown: the number of moves played up to the position on the board.
  get ply() {
    return this.live ? this.game.moves.length : this.viewPly;
  }

  get playing() {
    return !!this.token && this.game.status === 'ongoing';
  }

  // The player may move now, on the board as shown.
  get canMove() {
    const g = this.game;
    if (!g || !this.playing || this.pending || !this.live) return false;
    if (g.players[g.side] !== 'human') return false;
    return !this.mySide || this.mySide === g.side;
  }

  // The side that may premove now (the player, while the opponent is to move), or null.
  get premoveSide() {
    const g = this.game;
    if (!g || !this.playing || !this.live || !this.mySide || g.side === this.mySide) return null;
    return this.mySide;
  }

  // Pieces after k moves: the server sends the position text after every move.
  positionAt(k) {
    const g = this.game;
    const fen = k >= g.moves.length ? g.fen : k === 0 ? g.start_fen : g.moves[k - 1].fen;
    return parseFen(this.variant.board, fen);
  }

  sideAfter(k) {
    const g = this.game;
    if (k >= g.moves.length) return g.side;
    const fen = k === 0 ? g.start_fen : g.moves[k - 1].fen;
    return splitFen(fen).side;
  }

  // Who sits on each side, as this browser sees it.
  playerName(s) {
    const g = this.game;
    if (g.players[s] === 'engine') return `Engine${g.engine ? ` \u00B7 skill ${g.engine.skill}` : ''}`;
    if (this.token && this.mySide === s) return 'You';
    if (this.token && this.mySide) return g.players[other(s)] === 'engine' ? 'Human' : 'Friend';
    return s.charAt(0).toUpperCase() + s.slice(1);
  }
}
