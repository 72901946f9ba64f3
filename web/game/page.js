// The game page: puts the modules together around one GameState, keeps it in step with the
// server (answers, the event stream) and carries out what the modules ask for.

import { api } from '../api.js';
import { Board } from '../board.js';
import { parseUci, parseFen, boardText } from '../position.js';
import { h, notify, announce, variantTitle, resultText } from '../ui.js';
import { loadGame, saveGame } from '../store.js';
import { currentAccount } from '../session.js';
import { playSound, preloadSounds } from '../sound.js';
import { GameState, other } from './state.js';
import { PlayerBars } from './players.js';
import { Clocks } from './clocks.js';
import { MoveList } from './movelist.js';
import { MoveInput } from './moveinput.js';
import { Controls } from './controls.js';
import { AnalysisPanel } from './analysis.js';
import { VariationView } from './variation.js';
import { EvalGraph } from './evalgraph.js';
import { InviteCard, ExportCard } from './share.js';
import { JoinCard } from './join.js';
import { TournamentGameCard } from '../tournaments/ingame.js';
import { BoardLegend } from './legend.js';
import { GameOverDialog } from './gameover.js';
import { Live } from './live.js';
import { showingGame } from '../meet/arrivals.js';

const LOW_TIME_MS = 10000; // the low-time warning sounds once when a clock passes it

export class GameView {
  constructor(root, variants, id, params) {
    this.root = root;
    this.variants = variants;
    this.id = id;
    const rec = loadGame(id) || {};
    const t = params.get('t');
    this.invited = !!t; // opened by an invite link
    this.state = new GameState({
      token: t || rec.token || null,
      mySide: t ? params.get('s') || null : rec.side || null,
      invite: t ? null : rec.invite || null,
    });
    this.destroyed = false;
  }

  destroy() {
    this.destroyed = true;
    if (this.shown) this.shown();
    if (this.live) this.live.close();
    for (const m of [this.clocks, this.board, this.legend, this.analysis, this.graph, this.moves, this.tourCard]) if (m) m.destroy();
    document.removeEventListener('keydown', this.onKey);
    window.removeEventListener('resize', this.onResize);
  }

  async start() {
    const s = this.state;
    if (this.id) this.shown = showingGame(this.id, () => !!s.game && s.playing);
    const [game, account] = await Promise.all([this.readGame(), currentAccount().catch(() => null)]);
    if (this.destroyed) return;
    const variant = this.variants.find((v) => v.name === game.variant);
    if (!variant) throw new Error(`the server sent an unknown variant ${game.variant}`);
    s.variant = variant;
    s.account = account;
    this.takeSeat(game);
    s.game = game;
    s.flipped = (s.mySide || (s.joinOffer && s.joinOffer.side)) === 'black'; // the side played, or offered
    this.build();
    this.listen();
    preloadSounds();
    s.set({ game });
    if (game.status === 'ongoing' && game.moves.length === 0) playSound('start');
    this.live = new Live(this.id, (g) => this.onState(g, true), (c) => this.controls.setConnection(c));
  }

  // The game, read with this browser's token if it has one.
  async readGame() {
    const s = this.state;
    if (s.token) {
      try {
        return await api.game(this.id, s.token);
      } catch (e) {
        if (e.status !== 403) throw e;
        notify('The secret in this link is not valid for this game: you are watching it read-only.');
        Object.assign(s, { token: null, mySide: null, invite: null });
      }
    }
    return api.game(this.id);
  }

  // The side this browser plays: the server says so (`you`), for its token or for the account
  // seated there (the friend learns their colour this way).  A token that the server does not
  // take leaves this browser watching: a rated game's side that waits for an account to join
  // it (offered to join), or a side that another account holds.
  takeSeat(game) {
    const s = this.state;
    if (game.you) {
      s.mySide = game.you;
      if (this.invited && this.mayJoinCasual(game)) s.joinOffer = { invite: s.token, side: game.you, required: false };
      return;
    }
    if (!s.token) return;
    if (game.status === 'ongoing') {
      const open = ['white', 'black'].find((side) => !game.players[side] && game.player_kinds[side] === 'human');
      if (game.rated && open) s.joinOffer = { invite: s.token, side: open, required: true };
      else notify('An account holds this side of the game: sign in as its player to play. You are watching.', 'info');
    }
    Object.assign(s, { token: null, mySide: null, invite: null });
  }

  // A casual game's friend, logged in and playing anonymously, may take their side with
  // their account (not the side facing their own account).
  mayJoinCasual(game) {
    const me = this.state.account;
    return !!me && !game.rated && game.status === 'ongoing' && !game.players[game.you] &&
      !['white', 'black'].some((side) => game.players[side] && game.players[side].id === me.id);
  }

  build() {
    const s = this.state;
    const boardHost = h('div', { class: 'board-host', id: 'board-host' });
    this.legend = new BoardLegend(s);
    this.board = new Board(boardHost, {
      onMove: (uci) => s.emit('move', uci),
      onPremove: (premove) => s.set({ premove }),
      onSelection: () => this.bars.renderHands(),
      onLayout: (aspect) => this.playArea && this.playArea.style.setProperty('--aspect', aspect.toFixed(4)),
      onCursor: (text) => this.legend.showCell(text),
      sizeOf: () => this.boardRoom(),
    });
    this.bars = new PlayerBars(s, this.board);
    this.board.setVariant(s.variant);
    this.board.setFlipped(s.flipped);
    this.clocks = new Clocks(s, this.bars);
    this.controls = new Controls(s);
    const moves = new MoveList(s);
    this.moves = moves;
    this.graph = new EvalGraph(s);
    moves.element.append(new VariationView(s).element, this.graph.element, new MoveInput(s).element);
    const invite = new InviteCard(s);
    const analysis = new AnalysisPanel(s);
    this.analysis = analysis;
    const share = s.local ? null : new ExportCard(s);
    const dialog = new GameOverDialog(s);
    this.tourCard = new TournamentGameCard(s, this.id);
    boardHost.appendChild(dialog.element);
    this.playArea = h('section', { class: 'play-area', style: `--aspect:${this.board.wrap.style.getPropertyValue('--aspect')}` },
      this.bars.top, h('div', { class: 'board-row' }, analysis.bar, boardHost), this.legend.caption, this.bars.bottom);
    this.root.replaceChildren(h('div', { class: `game-view levels-${s.variant.board.levels}`, 'data-game': this.id },
      this.playArea,
      h('aside', { class: 'side-panel' }, this.tourCard.element, new JoinCard(s).element, this.controls.element, this.controls.bar, invite.element, moves.element, analysis.element, share && share.element),
      this.legend.element));
    this.board.relayout();
  }

  // The room the board may fill: its column's width, the window's height less the bars.
  boardRoom() {
    const column = this.playArea ? this.playArea.parentElement.clientWidth : this.root.clientWidth;
    const header = document.querySelector('header.top');
    const used = (header ? header.offsetHeight : 50) + (this.bars ? this.bars.top.offsetHeight + this.bars.bottom.offsetHeight : 110) + 60;
    const height = Math.max(240, window.innerHeight - used);
    if (this.playArea) this.playArea.style.setProperty('--board-h', `${height}px`);
    return { width: column, height };
  }

  listen() {
    const s = this.state;
    s.on('change', () => this.renderBoard());
    s.on('move', (uci) => this.sendMove(uci));
    s.on('goto', (k) => this.goto(k));
    s.on('step', (d) => (s.variation ? this.stepVariation(d) : this.goto(s.ply + d)));
    s.on('flip', () => this.flip());
    s.on('draw', (action) => this.draw(action));
    s.on('resign', () => this.action(() => api.resign(this.id, s.token), 'resign'));
    s.on('abort', () => this.action(() => api.abort(this.id, s.token), 'abort the game'));
    s.on('join', () => this.join());
    s.on('rematch', (action) => this.offer('rematch', action));
    s.on('takeback', (action) => this.offer('takeback', action));
    s.on('analyse', () => {
      if (!s.analysing) this.analysis.start();
      this.analysis.element.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
    });
    s.on('show-line', ({ fen, pv }) => this.showLine(fen, pv));
    s.on('variation-goto', (at) => s.set({ variation: { ...s.variation, at } }));
    s.on('variation-leave', () => s.set({ variation: null }));
    s.on('change', (keys) => this.followExplore(keys));
    this.onKey = (e) => {
      if (e.target.closest && e.target.closest('input, textarea, select, [contenteditable], .board, dialog')) return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'ArrowLeft') s.emit('step', -1);
      else if (e.key === 'ArrowRight') s.emit('step', 1);
      else if (e.key === 'Home') s.emit('goto', 0);
      else if (e.key === 'End') s.emit('goto', null);
      else if (e.key === 'f') s.emit('flip');
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', this.onKey);
    this.onResize = () => this.board.relayout();
    window.addEventListener('resize', this.onResize);
    this.watchLowTime();
  }

  // A state from the server: an event (they come in order), or the answer to a request.
  onState(g, fromEvent = false) {
    const s = this.state;
    if (this.destroyed) return;
    const old = s.game;
    // An answer older than what the events have shown (say, the answer to our move after the
    // event carrying the engine's reply) changes nothing, but the view is drawn again:
    // whatever waited for that answer (a pending move) is over now.  (A takeback shortens the
    // game: its event follows.)
    const stale = !fromEvent && old && (g.moves.length < old.moves.length ||
      (g.moves.length === old.moves.length && old.status === 'over' && g.status !== 'over'));
    if (stale) {
      s.set({});
      return;
    }
    document.title = `${variantTitle(g.variant)} \u2014 starfish`;
    const added = old ? g.moves.length - old.moves.length : 0;
    if (added < 0) s.set({ premove: null, viewPly: null, variation: null });
    s.set({ game: g });
    const made = (x) => x && x.rematch && x.rematch.game;
    if (made(g) && old && !made(old)) this.goToRematch(g.rematch.game); // the opponent accepted
    if (added > 0) this.moveArrived(g, old);
    else if (old && old.status !== 'over' && g.status === 'over') this.gameEnded(g);
    this.tryPremove();
  }

  // Sound and a sentence for screen readers for the newest move.
  moveArrived(g, old) {
    const m = g.moves[g.moves.length - 1];
    const mover = this.state.sideAfter(g.moves.length - 1);
    let sentence = `${mover === 'white' ? 'White' : 'Black'}: ${m.san || m.uci}`;
    if (g.status === 'over' && old.status !== 'over') {
      this.gameEnded(g, sentence);
      return;
    }
    if (g.check) sentence += ', check';
    playSound(g.check ? 'check' : /x/.test(m.san || '') ? 'capture' : 'move');
    announce(sentence);
  }

  gameEnded(g, before = '') {
    playSound('end');
    announce(`${before ? `${before}. ` : ''}Game over: ${resultText(g.result, g.reason)}.`);
  }

  // One premove: played the moment the opponent's move arrives, if it is legal then.
  tryPremove() {
    const s = this.state;
    const p = s.premove;
    if (!p || !s.canMove) {
      if (p && (!s.playing || !s.live)) s.set({ premove: null });
      return;
    }
    const moves = s.game.legal.filter((m) => m.to === p.to && (p.place ? m.place && m.place.toUpperCase() === p.place : m.from === p.from));
    s.set({ premove: null });
    // Several moves to one cell (promotions): the first, the variant's strongest piece.
    if (moves.length) s.emit('move', moves[0].uci);
  }

  watchLowTime() {
    const warned = { white: false, black: false };
    this.lowTimer = setInterval(() => {
      const s = this.state;
      const g = s.game;
      if (this.destroyed) {
        clearInterval(this.lowTimer);
        return;
      }
      if (!g || !g.clock || g.status !== 'ongoing' || !s.mySide) return;
      const left = this.clocks.left(s.mySide);
      if (left < LOW_TIME_MS && left > 0 && g.clock.running === s.mySide && !warned[s.mySide]) {
        warned[s.mySide] = true;
        playSound('lowtime');
        announce(`${Math.ceil(left / 1000)} seconds left`);
      }
      if (left >= LOW_TIME_MS) warned[s.mySide] = false;
    }, 250);
  }

  renderBoard() {
    const s = this.state;
    const g = s.game;
    const v = s.variation;
    let last = null;
    const shown = v && v.at > 0 ? v.moves[v.at - 1] : s.ply > 0 ? g.moves[s.ply - 1] : null;
    if (s.live && !s.inVariation) last = g.last;
    else if (shown) {
      const mv = parseUci(s.variant.board, shown.uci);
      if (mv) last = { from: mv.from, to: mv.to };
    }
    const play = s.playable();
    const e = s.explore && s.explore.fen === s.shownFen() ? s.explore : null;
    this.board.update({
      pieces: parseFen(s.variant.board, s.shownFen()),
      legal: play ? play.legal : [],
      last,
      check: e ? e.check : s.live ? g.check : null,
      side: play ? play.side : s.sideAfter(s.ply),
      interactive: !!play,
      premoveSide: s.analysing ? null : s.premoveSide,
      premove: s.premove,
      arrows: s.arrows,
    });
    this.board.wrap.classList.toggle('history', !s.live || s.inVariation);
  }

  // While analysing, the server's POSITION for the position shown (its legal moves make the
  // board playable: the moves become a variation).
  async followExplore(keys) {
    const s = this.state;
    if (!s.analysing || !(keys.has('game') || keys.has('viewPly') || keys.has('variation') || keys.has('analysing'))) return;
    const fen = s.shownFen();
    if (s.explore && s.explore.fen === fen) return;
    this.exploring = fen;
    let pos;
    try {
      pos = await api.position({ variant: s.variant.name, fen });
    } catch (e) {
      notify(`Could not read the position: ${e.message}`);
      return;
    }
    if (this.exploring === fen && !this.destroyed) s.set({ explore: { ...pos, fen } });
  }

  // Moves from the position shown (a variation or a game position), checked by the server.
  async extendVariation(from, ucis) {
    const s = this.state;
    const v = s.variation && s.inVariation ? s.variation : null;
    const base = v ? { basePly: v.basePly, baseFen: v.baseFen, moves: v.moves.slice(0, v.at) } : { basePly: s.ply, baseFen: from, moves: [] };
    let pos;
    try {
      pos = await api.position({ variant: s.variant.name, fen: base.baseFen, moves: [...base.moves.map((m) => m.uci), ...ucis] });
    } catch (e) {
      notify(`That move cannot be played here: ${e.message}`);
      return;
    }
    const moves = pos.moves;
    s.set({ variation: { ...base, moves, at: moves.length }, explore: { ...pos, fen: pos.fen } });
  }

  showLine(fen, pv) {
    if (fen === this.state.shownFen()) this.extendVariation(fen, pv);
  }

  stepVariation(d) {
    const s = this.state;
    const v = s.variation;
    const at = Math.max(0, Math.min(v.moves.length, v.at + d));
    if (at !== v.at) s.set({ variation: { ...v, at } });
  }

  goto(k) {
    const s = this.state;
    const g = s.game;
    if (!g) return;
    if (k !== null && k >= g.moves.length) k = null;
    if (k !== null && k < 0) k = 0;
    if (k === s.viewPly && !s.variation) return;
    this.board.selected = null;
    s.set({ viewPly: k, variation: null });
  }

  flip() {
    const s = this.state;
    this.board.setFlipped(!s.flipped);
    s.set({ flipped: !s.flipped });
  }

  async sendMove(uci) {
    const s = this.state;
    const play = s.playable();
    if (play && play.explore) {
      this.extendVariation(s.shownFen(), [uci]);
      return;
    }
    if (!s.canMove) return;
    s.set({ pending: true });
    let g;
    try {
      g = await api.move(this.id, s.token, uci);
    } catch (e) {
      notify(`Move ${uci} was refused: ${e.message}`);
      if (e.status === 403 && !s.mySide) s.mySide = other(s.game.side);
      s.set({ pending: false });
      return;
    }
    if (g.you) s.mySide = g.you;
    else if (!s.mySide) s.mySide = s.game.side;
    s.pending = false;
    this.onState(g);
  }

  async draw(action) {
    const s = this.state;
    const g = await this.action(() => api.draw(this.id, s.token, action), `${action} a draw`);
    if (g && action === 'offer' && g.status === 'ongoing' && !g.draw_offer && g.player_kinds[other(s.mySide || g.side)] === 'engine') {
      notify('The engine declines the draw.', 'info');
    }
  }

  // Takeback and rematch offers and their answers.  The engine answers at once: a takeback
  // it refuses is a 409 with the reason; a rematch it accepts is a new game to go to.
  async offer(what, action = 'offer') {
    const s = this.state;
    const g = await this.action(() => api[what](this.id, s.token, action), `${action} the ${what}`);
    if (g && what === 'takeback' && action === 'offer' && !g.takeback_offer && g.player_kinds[other(s.mySide)] === 'engine') {
      notify('The engine took back the move.', 'info');
    }
    if (g && what === 'rematch' && g.rematch.game) this.goToRematch(g.rematch.game);
  }

  // The rematch is made: each player keeps their secret (or account), with the other colour.
  goToRematch(id) {
    const s = this.state;
    if (!s.isPlayer || this.leaving) return;
    this.leaving = true;
    if (s.token) saveGame(id, { token: s.token, side: other(s.mySide || 'white'), invite: null });
    location.hash = `#/game/${encodeURIComponent(id)}`;
  }

  // The account takes the side its invite is for; the invite stays this browser's token.
  async join() {
    const s = this.state;
    const { invite } = s.joinOffer;
    let g;
    try {
      g = await api.join(this.id, invite);
    } catch (e) {
      notify(`Could not join the game: ${e.message}`);
      return;
    }
    Object.assign(s, { token: invite, mySide: g.you, joinOffer: null });
    if ((g.you === 'black') !== s.flipped) this.flip();
    this.onState(g);
  }

  async action(fn, what) {
    const s = this.state;
    s.set({ pending: true });
    let g;
    try {
      g = await fn();
    } catch (e) {
      notify(`Could not ${what}: ${e.message}`);
      s.set({ pending: false });
      return null;
    }
    s.pending = false;
    this.onState(g);
    return g;
  }
}

// For the browser tests: the board text of a replayed position (compared with the server's).
window.starfishDebug = { parseFen, boardText };

// The analysis board (#/analysis?variant=V&fen=F): any position, no game on the server; the
// engine analyses at once and every move on the board becomes a variation.
export class AnalysisBoardView extends GameView {
  constructor(root, variants, params) {
    super(root, variants, null, new URLSearchParams());
    this.params = params;
  }

  async start() {
    const s = this.state;
    const name = this.params.get('variant') || 'chess';
    const variant = this.variants.find((v) => v.name === name);
    if (!variant) throw new Error(`unknown variant ${name}`);
    const pos = await api.position({ variant: name, fen: this.params.get('fen') || variant.start_fen });
    if (this.destroyed) return;
    const game = {
      id: null, variant: name, start_fen: pos.fen, fen: pos.fen, moves: [], side: pos.side, legal: pos.legal, check: pos.check,
      last: null, hand: pos.hand, status: 'ongoing', result: '*', reason: null, clock: null, draw_offer: null,
      players: { white: null, black: null }, player_kinds: { white: 'human', black: 'human' }, rated: false, engine: null,
    };
    Object.assign(s, { variant, game, local: true });
    this.build();
    this.root.querySelector('.side-panel').prepend(this.positionCard(variant, pos.fen));
    this.listen();
    s.set({ game });
    document.title = `Analysis board \u2014 starfish`;
    this.analysis.start();
  }

  // Another variant or position text.
  positionCard(variant, fen) {
    const select = h('select', { id: 'analysis-variant', 'aria-label': 'Variant' },
      this.variants.map((v) => h('option', { value: v.name, selected: v === variant }, variantTitle(v.name))));
    const text = h('input', { type: 'text', id: 'analysis-fen', value: fen, spellcheck: 'false', 'aria-label': 'Position (FEN)' });
    const go = () => {
      const v = this.variants.find((x) => x.name === select.value);
      const f = select.value === variant.name ? text.value.trim() : v.start_fen;
      location.hash = `#/analysis?${new URLSearchParams({ variant: v.name, fen: f || v.start_fen })}`;
    };
    text.addEventListener('keydown', (e) => e.key === 'Enter' && go());
    return h('section', { class: 'card position-card' }, h('div', { class: 'card-title' }, 'Position'),
      h('div', { class: 'copy-row' }, select, h('button', { type: 'button', id: 'analysis-load', onclick: go }, 'Load')), text);
  }
}
