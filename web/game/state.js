// The game page's one state object.  Modules read it and listen to its events; whoever
// changes it says what changed ('change' with the names of the fields), and requests from the
// modules (play a move, go to a ply, flip, resign ...) are events on it too, answered by the page.

import { parseFen, splitFen } from '../position.js';
import { capitalize } from '../ui.js';

export const other = (s) => (s === 'white' ? 'black' : 'white');

export class GameState extends EventTarget {
  constructor(fields) {
    super();
    this.game = null; // the server's GAME (docs/api.md)
    this.variant = null;
    this.token = null; // this browser's secret for the game, if it has one
    this.mySide = null; // the side this browser plays: by its token, or by its account
    this.invite = null;
    this.account = null; // who is logged in (GET /api/account), or null
    this.joinOffer = null; // { invite, side, required }: a side this account may take (join.js)
    this.viewPly = null; // null: the live position; k: the position after k moves
    this.flipped = false;
    this.pending = false; // a request of ours is on its way
    this.premove = null; // { from | place, to }
    this.analysing = false; // the analysis panel is on
    this.arrows = []; // the engine's lines' first moves, drawn on the board
    // A line explored from the position after basePly moves (the player's moves or an engine
    // line): moves [{ uci, san, fen }], `at` of them shown (0: the base position).
    this.variation = null;
    this.explore = null; // the server's POSITION for the position shown, when analysing
    this.local = false; // an analysis board: no game on the server
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

  // This browser plays the game: with the game's token, or as the account seated there.
  get isPlayer() {
    return !!(this.token || this.mySide);
  }

  get playing() {
    return this.isPlayer && this.game.status === 'ongoing';
  }

  // The player may move now, on the board as shown.
  get canMove() {
    const g = this.game;
    if (!g || !this.playing || this.pending || !this.live) return false;
    if (g.player_kinds[g.side] !== 'human') return false;
    return !this.mySide || this.mySide === g.side;
  }

  // The side that may premove now (the player, while the opponent is to move), or null.
  get premoveSide() {
    const g = this.game;
    if (!g || !this.playing || !this.live || !this.mySide || g.side === this.mySide) return null;
    return this.mySide;
  }

  // The position text after k moves: the server sends it after every move.
  fenAt(k) {
    const g = this.game;
    return k >= g.moves.length ? g.fen : k === 0 ? g.start_fen : g.moves[k - 1].fen;
  }

  positionAt(k) {
    return parseFen(this.variant.board, this.fenAt(k));
  }

  get inVariation() {
    return !!this.variation && this.variation.at > 0;
  }

  // The position on the board: the game's after the shown ply, or a variation's.
  shownFen() {
    const v = this.variation;
    return v && v.at > 0 ? v.moves[v.at - 1].fen : this.fenAt(this.ply);
  }

  shownOver() {
    const e = this.explore;
    return !!e && e.fen === this.shownFen() && e.status === 'over';
  }

  // What may be played on the board now: the game's moves (the player's turn), or, while
  // analysing, any legal move of the position shown (it becomes a variation).
  playable() {
    if (this.canMove && !this.inVariation) return { legal: this.game.legal, side: this.game.side, hand: this.game.hand, explore: false };
    const e = this.explore;
    if (this.analysing && e && e.fen === this.shownFen() && e.status === 'ongoing') return { legal: e.legal, side: e.side, hand: e.hand, explore: true };
    return null;
  }

  sideAfter(k) {
    const g = this.game;
    if (k >= g.moves.length) return g.side;
    const fen = k === 0 ? g.start_fen : g.moves[k - 1].fen;
    return splitFen(fen).side;
  }

  // Who sits on a side without an account, as this browser sees it.
  anonymousName(s) {
    const g = this.game;
    if (g.player_kinds[s] === 'engine') return `Engine${g.engine ? ` \u00B7 skill ${g.engine.skill}` : ''}`;
    if (this.isPlayer && this.mySide === s) return 'You';
    if (this.isPlayer && this.mySide) return g.player_kinds[other(s)] === 'engine' ? 'Human' : 'Friend';
    return capitalize(s);
  }

  // Before both sides have moved, either player may abort the game (nothing is rated).
  get abortable() {
    return this.playing && this.game.moves.length < 2;
  }
}
