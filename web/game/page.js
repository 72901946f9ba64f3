// The game page: puts the modules together around one GameState, keeps it in step with the
// server (answers, the event stream) and carries out what the modules ask for.

import { api } from '../api.js';
import { Board } from '../board.js';
import { parseUci, parseFen, boardText } from '../position.js';
import { h, notify, variantTitle } from '../ui.js';
import { loadGame } from '../store.js';
import { GameState, other } from './state.js';
import { PlayerBars } from './players.js';
import { Clocks } from './clocks.js';
import { MoveList } from './movelist.js';
import { Controls } from './controls.js';
import { AnalysisCard } from './analysis.js';
import { InviteCard, ExportCard } from './share.js';
import { Live } from './live.js';

export class GameView {
  constructor(root, variants, id, params) {
    this.root = root;
    this.variants = variants;
    this.id = id;
    const rec = loadGame(id) || {};
    const t = params.get('t');
    this.state = new GameState({
      token: t || rec.token || null,
      mySide: t ? params.get('s') || null : rec.side || null,
      invite: t ? null : rec.invite || null,
    });
    this.destroyed = false;
  }

  destroy() {
    this.destroyed = true;
    if (this.live) this.live.close();
    if (this.clocks) this.clocks.destroy();
    if (this.board) this.board.destroy();
    document.removeEventListener('keydown', this.onKey);
  }

  async start() {
    const s = this.state;
    let game;
    if (s.token) {
      try {
        game = await api.game(this.id, s.token);
        // The server says whose side this token is (the friend learns their colour this way).
        if (game.you) s.mySide = game.you;
      } catch (e) {
        if (e.status !== 403) throw e;
        notify('The secret in this link is not valid for this game: you are watching it read-only.');
        Object.assign(s, { token: null, mySide: null, invite: null });
      }
    }
    if (!game) game = await api.game(this.id);
    if (this.destroyed) return;
    const variant = this.variants.find((v) => v.name === game.variant);
    if (!variant) throw new Error(`the server sent an unknown variant ${game.variant}`);
    s.variant = variant;
    s.game = game;
    s.flipped = s.mySide === 'black';
    this.build();
    this.listen();
    s.set({ game });
    this.live = new Live(this.id, (g) => this.onState(g), (c) => this.controls.setConnection(c));
  }

  build() {
    const s = this.state;
    const boardHost = h('div', { class: 'board-host', id: 'board-host' });
    this.caption = {
      cell: h('span', { class: 'cell-info', id: 'cell-info' }),
      history: h('span', { class: 'history-note', id: 'history-note', hidden: true }, 'viewing an earlier position'),
    };
    this.board = new Board(boardHost, {
      onMove: (uci) => s.emit('move', uci),
      onPremove: (premove) => s.set({ premove }),
      onSelection: () => this.bars.renderHands(),
      onLayout: (aspect) => this.playArea && this.playArea.style.setProperty('--aspect', aspect.toFixed(4)),
      onCursor: (text) => { this.caption.cell.textContent = text || ''; },
      sizeOf: () => this.boardRoom(),
    });
    this.bars = new PlayerBars(s, this.board);
    this.board.setVariant(s.variant);
    this.board.setFlipped(s.flipped);
    this.clocks = new Clocks(s, this.bars);
    this.controls = new Controls(s);
    const moves = new MoveList(s);
    const invite = new InviteCard(s);
    const analysis = new AnalysisCard(s);
    const share = new ExportCard(s);
    this.playArea = h('section', { class: 'play-area', style: `--aspect:${this.board.wrap.style.getPropertyValue('--aspect')}` },
      this.bars.top, boardHost, h('div', { class: 'board-caption' }, this.caption.cell, this.caption.history), this.bars.bottom);
    this.root.replaceChildren(h('div', { class: `game-view levels-${s.variant.board.levels}`, 'data-game': this.id },
      this.playArea,
      h('aside', { class: 'side-panel' }, this.controls.element, invite.element, moves.element, analysis.element, share.element)));
    this.board.relayout();
  }

  // The room the board may fill: its column's width, the window's height less the bars.
  boardRoom() {
    const column = this.playArea ? this.playArea.parentElement.clientWidth : this.root.clientWidth;
    const header = document.querySelector('header.top');
    const used = (header ? header.offsetHeight : 50) + (this.bars ? this.bars.top.offsetHeight + this.bars.bottom.offsetHeight : 110) + 70;
    return { width: column, height: Math.max(240, window.innerHeight - used) };
  }

  listen() {
    const s = this.state;
    s.on('change', () => this.renderBoard());
    s.on('move', (uci) => this.sendMove(uci));
    s.on('goto', (k) => this.goto(k));
    s.on('step', (d) => this.goto(s.ply + d));
    s.on('flip', () => this.flip());
    s.on('draw', (action) => this.draw(action));
    s.on('resign', () => this.action(() => api.resign(this.id, s.token), 'resign'));
    this.onKey = (e) => {
      if (e.target.closest && e.target.closest('input, textarea, select, [contenteditable], .board')) return;
      if (e.key === 'ArrowLeft') s.emit('step', -1);
      else if (e.key === 'ArrowRight') s.emit('step', 1);
      else if (e.key === 'Home') s.emit('goto', 0);
      else if (e.key === 'End') s.emit('goto', null);
      else if (e.key === 'f' && !e.ctrlKey && !e.metaKey && !e.altKey) s.emit('flip');
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', this.onKey);
  }

  // A state from the server (an answer or an event).
  onState(g) {
    const s = this.state;
    if (this.destroyed) return;
    const old = s.game;
    // An older state arriving late (say, the answer to our move after the event carrying the
    // engine's reply) changes nothing, but the view is drawn again: whatever waited for that
    // answer (a pending move) is over now.
    const stale = old && (g.moves.length < old.moves.length ||
      (g.moves.length === old.moves.length && old.status === 'over' && g.status !== 'over'));
    if (stale) {
      s.set({});
      return;
    }
    document.title = `${variantTitle(g.variant)} \u2014 starfish`;
    s.set({ game: g });
  }

  renderBoard() {
    const s = this.state;
    const g = s.game;
    const k = s.ply;
    let last = null;
    if (s.live) last = g.last;
    else if (k > 0) {
      const mv = parseUci(s.variant.board, g.moves[k - 1].uci);
      if (mv) last = { from: mv.from, to: mv.to };
    }
    this.board.update({
      pieces: s.positionAt(k),
      legal: s.canMove ? g.legal : [],
      last,
      check: s.live ? g.check : null,
      side: s.sideAfter(k),
      interactive: s.canMove,
      premoveSide: s.premoveSide,
      premove: s.premove,
    });
    this.board.wrap.classList.toggle('history', !s.live);
    this.caption.history.hidden = s.live;
  }

  goto(k) {
    const s = this.state;
    const g = s.game;
    if (!g) return;
    if (k !== null && k >= g.moves.length) k = null;
    if (k !== null && k < 0) k = 0;
    if (k === s.viewPly) return;
    this.board.selected = null;
    s.set({ viewPly: k });
  }

  flip() {
    const s = this.state;
    this.board.setFlipped(!s.flipped);
    s.set({ flipped: !s.flipped });
  }

  async sendMove(uci) {
    const s = this.state;
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
    if (g && action === 'offer' && g.status === 'ongoing' && !g.draw_offer && g.players[other(s.mySide || g.side)] === 'engine') {
      notify('The engine declines the draw.', 'info');
    }
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
