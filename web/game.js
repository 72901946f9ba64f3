// The game view: board, players and clocks, move list with replay, actions (resign, draw),
// invite link, analysis, PGN/FEN export, live updates over Server-Sent Events.

import { api } from './api.js';
import { Board } from './board.js';
import { parseFen, moveRows, splitFen, parseUci, boardText } from './position.js';
import { pieceIcon, pieceStyle } from './pieces.js';
import { h, $, notify, copyText, download, formatClock, variantTitle, resultText } from './ui.js';
import { loadGame } from './store.js';

const other = (s) => (s === 'white' ? 'black' : 'white');
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// The event stream of one game, reconnecting with backoff when it drops.
class Live {
  constructor(id, onState, onStatus) {
    this.id = id;
    this.onState = onState;
    this.onStatus = onStatus;
    this.es = null;
    this.retry = 500;
    this.closed = false;
    this.timer = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const es = new EventSource(api.eventsUrl(this.id));
    this.es = es;
    this.onStatus('connecting');
    es.onopen = () => {
      this.retry = 500;
      this.onStatus('live');
    };
    es.addEventListener('state', (e) => {
      this.retry = 500;
      this.onStatus('live');
      try {
        this.onState(JSON.parse(e.data));
      } catch (err) {
        notify(`Bad update from the server: ${err.message}`);
      }
    });
    es.onerror = () => {
      if (this.closed) return;
      this.onStatus('reconnecting');
      // The browser retries by itself while CONNECTING; once CLOSED it is up to us.
      if (es.readyState === EventSource.CLOSED) {
        es.close();
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.connect(), this.retry);
        this.retry = Math.min(this.retry * 2, 10000);
      }
    };
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.es) this.es.close();
  }
}

export class GameView {
  constructor(root, variants, id, params) {
    this.root = root;
    this.variants = variants;
    this.id = id;
    const rec = loadGame(id) || {};
    const t = params.get('t');
    this.token = t || rec.token || null;
    this.mySide = t ? params.get('s') || null : rec.side || null;
    this.invite = t ? null : rec.invite || null;
    this.game = null;
    this.viewPly = null; // null: the live position; k: the position after k moves
    this.pending = false;
    this.flipped = null;
    this.analysis = null;
    this.clockBase = 0;
    this.destroyed = false;
  }

  destroy() {
    this.destroyed = true;
    if (this.live) this.live.close();
    clearInterval(this.tick);
    document.removeEventListener('keydown', this.onKey);
  }

  async start() {
    let game;
    if (this.token) {
      try {
        game = await api.game(this.id, this.token);
        // The server says whose side this token is (the friend learns their colour this way).
        if (game.you) this.mySide = game.you;
      } catch (e) {
        if (e.status !== 403) throw e;
        notify('The secret in this link is not valid for this game: you are watching it read-only.');
        this.token = null;
        this.mySide = null;
        this.invite = null;
      }
    }
    if (!game) game = await api.game(this.id);
    if (this.destroyed) return;
    this.variant = this.variants.find((v) => v.name === game.variant);
    if (!this.variant) throw new Error(`the server sent an unknown variant ${game.variant}`);
    this.style = pieceStyle(this.variant);
    this.build();
    this.onState(game);
    this.live = new Live(this.id, (g) => this.onState(g), (s) => this.setConn(s));
    this.tick = setInterval(() => this.renderClocks(), 100);
    this.onKey = (e) => {
      if (e.target.closest('input, textarea, select')) return;
      if (e.key === 'ArrowLeft') this.step(-1);
      else if (e.key === 'ArrowRight') this.step(1);
      else if (e.key === 'Home') this.goto(0);
      else if (e.key === 'End') this.goto(null);
      else if (e.key === 'f') this.flip();
      else return;
      e.preventDefault();
    };
    document.addEventListener('keydown', this.onKey);
  }

  // ---- layout ----
  build() {
    const bar = (pos) => h('div', { class: `player-bar ${pos}` },
      h('span', { class: 'side-dot' }),
      h('span', { class: 'player-name' }),
      h('span', { class: 'captures' }),
      h('div', { class: 'hand' }),
      h('span', { class: 'clock', 'aria-live': 'off' }, h('span', { class: 'clock-flag' }, '\u2691'), h('span', { class: 'clock-time' })));
    this.barTop = bar('top');
    this.barBottom = bar('bottom');
    const boardHost = h('div', { class: 'board-host' });
    this.board = new Board(boardHost, { onMove: (uci) => this.sendMove(uci) });
    this.board.setVariant(this.variant);
    boardHost.addEventListener('selection', () => this.renderHands());

    const btn = (id, label, onclick, cls = '') => h('button', { type: 'button', id, class: cls, onclick }, label);
    this.el = {
      title: h('h2', { class: 'game-title' }, variantTitle(this.variant.name)),
      sub: h('div', { class: 'game-sub muted' }),
      status: h('div', { class: 'status-line', id: 'status' }),
      result: h('div', { class: 'result-banner', id: 'result', hidden: true }),
      conn: h('span', { class: 'conn', id: 'conn', title: 'Live updates' }),
      drawBox: h('div', { class: 'draw-box', id: 'draw-box', hidden: true },
        h('span', { class: 'draw-text' }),
        btn('accept-draw', 'Accept', () => this.draw('accept'), 'primary'),
        btn('decline-draw', 'Decline', () => this.draw('decline'))),
      moves: h('div', { class: 'move-list', id: 'move-list' }),
      nav: h('div', { class: 'move-nav' },
        btn('nav-first', '\u00AB', () => this.goto(0), 'icon'),
        btn('nav-prev', '\u2039', () => this.step(-1), 'icon'),
        h('span', { class: 'ply-info', id: 'ply-info' }),
        btn('nav-next', '\u203A', () => this.step(1), 'icon'),
        btn('nav-last', '\u00BB', () => this.goto(null), 'icon')),
      flip: btn('flip', '\u21C5 Flip board', () => this.flip()),
      offer: btn('offer-draw', '\u00BD Offer draw', () => this.draw('offer')),
      resign: btn('resign', '\u2690 Resign', () => this.resign(), 'danger'),
      analyse: btn('analyse', 'Analyse position', () => this.analyse(), 'primary'),
      movetime: h('select', { id: 'analysis-time', title: 'Thinking time' },
        [['500', '0.5 s'], ['1000', '1 s'], ['3000', '3 s'], ['10000', '10 s']].map(([v, l]) => h('option', { value: v, selected: v === '1000' }, l))),
      analysisOut: h('div', { class: 'analysis-out', id: 'analysis-out' }),
      fen: h('input', { type: 'text', id: 'fen-out', readonly: true, spellcheck: 'false' }),
      pgn: h('textarea', { id: 'pgn-out', rows: 6, readonly: true, hidden: true, spellcheck: 'false' }),
    };
    const e = this.el;
    const invite = this.token && this.invite
      ? h('section', { class: 'card invite', id: 'invite' },
        h('div', { class: 'card-title' }, 'Invite a friend'),
        h('p', { class: 'muted small' }, `Send this link to your opponent (they play ${other(this.mySide || 'white')}).`),
        h('div', { class: 'copy-row' },
          h('input', { type: 'text', readonly: true, id: 'invite-link', value: this.inviteLink() }),
          btn('copy-invite', 'Copy', (ev) => copyText(this.inviteLink(), ev.currentTarget), 'primary')))
      : null;
    const spectate = h('div', { class: 'copy-row small' },
      h('input', { type: 'text', readonly: true, id: 'watch-link', value: `${location.origin}/#/game/${encodeURIComponent(this.id)}` }),
      btn('copy-watch', 'Copy', (ev) => copyText(`${location.origin}/#/game/${encodeURIComponent(this.id)}`, ev.currentTarget)));

    const side = h('aside', { class: 'side-panel' },
      h('section', { class: 'card status-card' },
        h('div', { class: 'title-row' }, e.title, e.conn),
        e.sub, e.status, e.result, e.drawBox,
        h('div', { class: 'action-row' }, e.offer, e.resign, e.flip)),
      invite,
      h('section', { class: 'card moves-card' }, h('div', { class: 'card-title' }, 'Moves'), e.moves, e.nav),
      h('section', { class: 'card analysis-card' },
        h('div', { class: 'card-title' }, 'Analysis'),
        h('div', { class: 'analysis-row' }, e.analyse, e.movetime),
        e.analysisOut),
      h('section', { class: 'card export-card' },
        h('div', { class: 'card-title' }, 'Export'),
        h('div', { class: 'label small' }, 'FEN'),
        h('div', { class: 'copy-row' }, e.fen, btn('copy-fen', 'Copy', (ev) => copyText(e.fen.value, ev.currentTarget))),
        h('div', { class: 'label small' }, 'PGN'),
        h('div', { class: 'action-row' },
          btn('show-pgn', 'Show PGN', () => this.showPgn()),
          btn('copy-pgn', 'Copy PGN', (ev) => this.copyPgn(ev.currentTarget)),
          btn('download-pgn', 'Download', () => this.downloadPgn())),
        e.pgn,
        h('div', { class: 'label small' }, 'Watch link (read-only)'),
        spectate));

    this.root.replaceChildren(h('div', { class: `game-view kind-${this.variant.board.kind}`, 'data-game': this.id },
      h('section', { class: 'play-area', style: `--aspect:${(this.board.width / this.board.height).toFixed(4)}` }, this.barTop, boardHost, this.barBottom),
      side));
  }

  inviteLink() {
    const s = other(this.mySide || 'white');
    return `${location.origin}/#/game/${encodeURIComponent(this.id)}?t=${encodeURIComponent(this.invite)}&s=${s}`;
  }

  setConn(s) {
    if (!this.el) return;
    this.el.conn.dataset.state = s;
    this.el.conn.title = s === 'live' ? 'Live updates: connected' : s === 'reconnecting' ? 'Live updates: reconnecting\u2026' : 'Live updates: connecting\u2026';
    this.el.conn.textContent = s === 'live' ? '\u25CF live' : '\u25CB reconnecting';
  }

  // ---- state ----
  onState(g) {
    if (this.destroyed) return;
    const old = this.game;
    // An older state arriving late (say, the answer to our move after the event carrying the
    // engine's reply) changes nothing, but the view is drawn again: whatever waited for that
    // answer (a pending move) is over now.
    const stale = old && (g.moves.length < old.moves.length ||
      (g.moves.length === old.moves.length && old.status === 'over' && g.status !== 'over'));
    if (stale) {
      this.render(false);
      return;
    }
    const movesChanged = !old || g.moves.length !== old.moves.length;
    this.game = g;
    this.clockBase = performance.now();
    if (movesChanged && this.analysis && this.viewPly === null) this.clearAnalysis();
    if (this.flipped === null) this.flipped = this.mySide === 'black';
    if (this.board.flipped !== this.flipped) this.board.setFlipped(this.flipped);
    document.title = `${variantTitle(g.variant)} \u2014 starfish`;
    this.render(movesChanged);
  }

  // Position after k moves: the server sends the position text after every move.
  positionAt(k) {
    const g = this.game;
    if (k >= g.moves.length) return parseFen(this.variant.board, g.fen);
    return parseFen(this.variant.board, k === 0 ? g.start_fen : g.moves[k - 1].fen);
  }

  sideAfter(k) {
    let white = splitFen(this.game.start_fen).side === 'white';
    if (k % 2 === 1) white = !white;
    return white ? 'white' : 'black';
  }

  canMove() {
    const g = this.game;
    if (!g || !this.token || g.status !== 'ongoing' || this.pending || this.viewPly !== null) return false;
    if (g.players[g.side] !== 'human') return false;
    return !this.mySide || this.mySide === g.side;
  }

  render(movesChanged = false) {
    const g = this.game;
    const live = this.viewPly === null;
    const k = live ? g.moves.length : this.viewPly;
    let last = null;
    if (live) last = g.last;
    else if (k > 0) {
      const mv = parseUci(this.variant.board.kind, g.moves[k - 1].uci);
      if (mv) last = { from: mv.from, to: mv.to };
    }
    this.board.update({
      pieces: this.positionAt(k),
      legal: this.canMove() ? g.legal : [],
      last,
      check: live ? g.check : null,
      side: live ? g.side : this.sideAfter(k),
      interactive: this.canMove(),
    });
    this.board.wrap.classList.toggle('history', !live);
    this.renderBars();
    this.renderStatus();
    this.renderMoves(movesChanged);
    this.renderClocks();
    this.el.fen.value = g.fen;
    const invite = this.root.querySelector('#invite');
    if (invite) invite.hidden = g.status === 'over';
  }

  renderBars() {
    const g = this.game;
    const bottom = this.flipped ? 'black' : 'white';
    for (const [bar, s] of [[this.barBottom, bottom], [this.barTop, other(bottom)]]) {
      bar.dataset.side = s;
      let name;
      if (g.players[s] === 'engine') name = `Engine${g.engine ? ` \u00B7 skill ${g.engine.skill}` : ''}`;
      else if (this.token && this.mySide === s) name = 'You';
      else if (this.token && this.mySide) name = g.players[other(s)] === 'engine' ? 'Human' : 'Friend';
      else name = `${cap(s)}`;
      $('.player-name', bar).textContent = name;
      $('.player-name', bar).title = `${cap(s)}${g.players[s] === 'engine' ? ' (engine)' : ''}`;
      bar.classList.toggle('to-move', g.status === 'ongoing' && g.side === s);
      bar.classList.toggle('winner', g.status === 'over' && ((g.result === '1-0' && s === 'white') || (g.result === '0-1' && s === 'black')));
    }
    this.renderHands();
    this.renderCaptures(bottom);
  }

  // Pieces each side has taken, counted against the game's start (board and hand).
  renderCaptures(bottom) {
    const g = this.game;
    const box = (s) => $('.captures', s === bottom ? this.barBottom : this.barTop);
    if (g.variant === 'starvation') {
      // Starvation removes pieces without a capture: counting would mislead.
      for (const s of ['white', 'black']) box(s).replaceChildren();
      return;
    }
    const count = (fen) => {
      const n = { white: {}, black: {} };
      for (const p of parseFen(this.variant.board, fen).values()) {
        const side = p.white ? 'white' : 'black';
        n[side][p.letter] = (n[side][p.letter] || 0) + 1;
      }
      const hand = splitFen(fen).hand || '';
      for (const ch of hand) {
        const side = ch === ch.toUpperCase() ? 'white' : 'black';
        n[side][ch.toUpperCase()] = (n[side][ch.toUpperCase()] || 0) + 1;
      }
      return n;
    };
    const start = count(g.start_fen);
    const now = count(g.fen);
    for (const s of ['white', 'black']) {
      const victim = other(s);
      const items = [];
      let total = 0;
      for (const [letter, n0] of Object.entries(start[victim])) {
        const lost = n0 - (now[victim][letter] || 0);
        if (lost <= 0 || letter === 'K') continue;
        total += lost;
        items.push(h('span', { class: 'cap-item', title: `${lost} \u00D7 ${letter}` },
          pieceIcon(this.style, { letter, white: victim === 'white' }, 22), lost > 1 ? h('span', { class: 'cap-n' }, `\u00D7${lost}`) : null));
      }
      const el = box(s);
      el.replaceChildren(...items);
      el.title = total ? `${cap(s)} has captured ${total}` : '';
      el.dataset.count = total;
    }
  }

  renderHands() {
    const g = this.game;
    if (!g) return;
    const hand = g.hand || {};
    for (const bar of [this.barTop, this.barBottom]) {
      const s = bar.dataset.side;
      const box = $('.hand', bar);
      const letters = String(hand[s] || '').toUpperCase().split('').filter(Boolean);
      box.replaceChildren();
      box.hidden = letters.length === 0;
      const mine = this.canMove() && g.side === s;
      for (const letter of letters) {
        const legal = mine && g.legal.some((m) => m.place && m.place.toUpperCase() === letter);
        const sel = this.board.selected && this.board.selected.place === letter && g.side === s;
        const b = h('button', {
          type: 'button',
          class: `hand-piece${legal ? ' can' : ''}${sel ? ' selected' : ''}`,
          'data-hand': letter, 'data-side': s, disabled: !legal,
          title: `${cap(s)} ${(this.variant.pieces.find((p) => p.letter.toUpperCase() === letter) || {}).name || letter} in hand`,
        }, pieceIcon(this.style, { letter, white: s === 'white' }, 38));
        if (legal) {
          b.addEventListener('pointerdown', (e) => {
            if (e.button !== 0) return;
            e.preventDefault();
            const wasSelected = this.board.selected && this.board.selected.place === letter;
            if (!wasSelected) this.board.selectPlace(letter);
            this.board.beginDrag(e, { letter, white: s === 'white' }, { place: letter }, wasSelected);
          });
        }
        box.appendChild(b);
      }
    }
  }

  renderStatus() {
    const g = this.game;
    const e = this.el;
    const setupLeft = g.hand && ((g.hand.white || '') + (g.hand.black || '')).length;
    e.sub.textContent = [
      g.players.white === 'engine' || g.players.black === 'engine' ? 'against the engine' : 'between two players',
      g.clock ? `${Math.round(g.clock.base_ms / 1000 / 60 * 100) / 100} min + ${g.clock.inc_ms / 1000} s` : 'no clock',
      this.token ? `you play ${this.mySide || 'the side to move'}` : 'watching',
    ].join(' \u00B7 ');
    let status;
    if (g.status === 'over') status = 'Game over';
    else {
      status = `${cap(g.side)} to ${setupLeft ? 'place a piece' : 'move'}`;
      if (g.players[g.side] === 'engine') status = 'Engine is thinking\u2026';
      else if (this.token && this.mySide === g.side) status = setupLeft ? 'Your turn: place a piece from your hand' : 'Your move';
      else if (this.token && this.mySide) status = `Waiting for ${g.players[g.side] === 'engine' ? 'the engine' : 'your opponent'}\u2026`;
      if (g.check) status += ' \u2014 check!';
    }
    if (this.viewPly !== null) status = `Viewing move ${this.viewPly} of ${g.moves.length} \u2014 ${status}`;
    e.status.textContent = status;
    e.status.classList.toggle('thinking', g.status === 'ongoing' && g.players[g.side] === 'engine');
    e.result.hidden = g.status !== 'over';
    e.result.textContent = g.status === 'over' ? `${g.result} \u00B7 ${resultText(g.result, g.reason)}` : '';
    const playing = !!this.token && g.status === 'ongoing';
    e.resign.disabled = !playing || this.pending;
    e.resign.hidden = !this.token;
    e.offer.hidden = !this.token;
    const mine = this.mySide;
    const offered = g.draw_offer;
    e.offer.disabled = !playing || this.pending || (mine && offered === mine) || (offered && offered !== mine);
    e.offer.textContent = mine && offered === mine ? '\u00BD Draw offered' : '\u00BD Offer draw';
    const toAnswer = playing && offered && offered !== mine && (!mine || g.players[other(offered)] === 'human');
    e.drawBox.hidden = !toAnswer && !(offered && !this.token);
    if (offered) {
      $('.draw-text', e.drawBox).textContent = toAnswer ? `${mine ? 'Your opponent' : cap(offered)} offers a draw.` : `${cap(offered)} offers a draw.`;
      $('#accept-draw', e.drawBox).hidden = !toAnswer;
      $('#decline-draw', e.drawBox).hidden = !toAnswer;
    }
  }

  renderMoves(movesChanged) {
    const g = this.game;
    const list = this.el.moves;
    if (movesChanged || !list.firstChild || this.lastRendered !== g.moves.length) {
      this.lastRendered = g.moves.length;
      const rows = moveRows(g.start_fen, g.moves);
      const cell = (i) => (i == null
        ? h('span', { class: 'mv empty' }, i === null ? '' : '')
        : h('button', { type: 'button', class: 'mv', 'data-ply': i + 1, title: g.moves[i].uci, onclick: () => this.goto(i + 1) }, g.moves[i].san || g.moves[i].uci));
      const table = h('div', { class: 'moves-grid' }, rows.map((r) => [
        h('span', { class: `mv-num${/^[IVX]+\.$/.test(r.label) ? ' setup' : ''}` }, r.label),
        r.white == null ? h('span', { class: 'mv empty' }, '\u2026') : cell(r.white),
        r.black == null ? h('span', { class: 'mv empty' }) : cell(r.black),
      ]));
      const children = [table];
      if (!g.moves.length) children.push(h('p', { class: 'muted small no-moves' }, 'No moves yet.'));
      if (g.status === 'over') children.push(h('div', { class: 'mv-result' }, g.result));
      list.replaceChildren(...children);
    }
    const k = this.viewPly === null ? g.moves.length : this.viewPly;
    for (const b of list.querySelectorAll('.mv[data-ply]')) b.classList.toggle('current', Number(b.dataset.ply) === k);
    const cur = list.querySelector('.mv.current');
    if (cur && (movesChanged || this.viewPly !== null)) {
      const top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 30) list.scrollTop = top - list.clientHeight / 2;
    } else if (movesChanged) list.scrollTop = list.scrollHeight;
    $('#ply-info').textContent = `${k} / ${g.moves.length}`;
    $('#nav-first').disabled = $('#nav-prev').disabled = k === 0;
    $('#nav-next').disabled = $('#nav-last').disabled = this.viewPly === null;
  }

  renderClocks() {
    const g = this.game;
    if (!g) return;
    for (const bar of [this.barTop, this.barBottom]) {
      const s = bar.dataset.side;
      const clock = $('.clock', bar);
      if (!g.clock) {
        clock.hidden = true;
        continue;
      }
      clock.hidden = false;
      let ms = g.clock[`${s}_ms`];
      const running = g.status === 'ongoing' && g.clock.running === s;
      if (running) ms -= performance.now() - this.clockBase;
      const flagged = ms <= 0 || (g.status === 'over' && g.reason === 'timeout' && ((g.result === '1-0' && s === 'black') || (g.result === '0-1' && s === 'white')));
      $('.clock-time', clock).textContent = formatClock(ms);
      clock.classList.toggle('running', running && !flagged);
      clock.classList.toggle('low', ms < 20000 && !flagged);
      clock.classList.toggle('flagged', flagged);
      clock.dataset.ms = Math.max(0, Math.round(ms));
    }
  }

  // ---- history ----
  goto(k) {
    const g = this.game;
    if (!g) return;
    if (k !== null && k >= g.moves.length) k = null;
    if (k !== null && k < 0) k = 0;
    if (k === this.viewPly) return;
    this.viewPly = k;
    this.board.selected = null;
    this.render();
  }

  step(d) {
    const g = this.game;
    if (!g) return;
    const k = this.viewPly === null ? g.moves.length : this.viewPly;
    this.goto(k + d);
  }

  flip() {
    this.flipped = !this.flipped;
    this.board.setFlipped(this.flipped);
    this.renderBars();
    this.renderClocks();
  }

  // ---- actions ----
  async sendMove(uci) {
    if (!this.canMove()) return;
    this.pending = true;
    this.board.update({ interactive: false, legal: [] });
    let g;
    try {
      g = await api.move(this.id, this.token, uci);
    } catch (e) {
      this.pending = false;
      notify(`Move ${uci} was refused: ${e.message}`);
      if (e.status === 403 && !this.mySide) this.mySide = other(this.game.side);
      this.render();
      return;
    }
    if (g.you) this.mySide = g.you;
    else if (!this.mySide) this.mySide = this.game.side;
    this.pending = false;
    this.onState(g);
  }

  async resign() {
    const b = this.el.resign;
    if (!b.classList.contains('confirm')) {
      b.classList.add('confirm');
      b.textContent = 'Really resign?';
      clearTimeout(this.resignTimer);
      this.resignTimer = setTimeout(() => {
        b.classList.remove('confirm');
        b.textContent = '\u2690 Resign';
      }, 4000);
      return;
    }
    clearTimeout(this.resignTimer);
    b.classList.remove('confirm');
    b.textContent = '\u2690 Resign';
    await this.action(() => api.resign(this.id, this.token), 'resign');
  }

  async draw(action) {
    const g = await this.action(() => api.draw(this.id, this.token, action), `${action} a draw`);
    if (g && action === 'offer' && g.status === 'ongoing' && !g.draw_offer && g.players[other(this.mySide || g.side)] === 'engine') {
      notify('The engine declines the draw.', 'info');
    }
  }

  async action(fn, what) {
    this.pending = true;
    this.renderStatus();
    let g;
    try {
      g = await fn();
    } catch (e) {
      this.pending = false;
      notify(`Could not ${what}: ${e.message}`);
      this.render();
      return null;
    }
    this.pending = false;
    this.onState(g);
    return g;
  }

  // ---- analysis ----
  clearAnalysis() {
    this.analysis = null;
    this.el.analysisOut.replaceChildren();
  }

  async analyse() {
    const g = this.game;
    const k = this.viewPly === null ? g.moves.length : this.viewPly;
    const body = { variant: g.variant, movetime_ms: parseInt(this.el.movetime.value, 10) };
    if (k === g.moves.length) body.fen = g.fen;
    else {
      body.fen = g.start_fen;
      body.moves = g.moves.slice(0, k).map((m) => m.uci);
    }
    const side = k === g.moves.length ? g.side : this.sideAfter(k);
    const b = this.el.analyse;
    b.disabled = true;
    this.el.analysisOut.replaceChildren(h('div', { class: 'muted' }, 'Thinking\u2026'));
    try {
      const a = await api.analysis(body);
      this.analysis = a;
      this.showAnalysis(a, side, k);
    } catch (e) {
      this.el.analysisOut.replaceChildren(h('div', { class: 'error-text' }, e.message));
      notify(`Analysis failed: ${e.message}`);
    } finally {
      b.disabled = false;
    }
  }

  showAnalysis(a, side, k) {
    // Scores come from the side to move's point of view (as UCI engines give them); shown here
    // from White's.
    const sign = side === 'white' ? 1 : -1;
    let text;
    let frac;
    if (a.mate != null) {
      const m = a.mate * sign;
      text = m > 0 ? `#${m}` : `#-${Math.abs(m)}`;
      frac = m > 0 ? 1 : 0;
    } else if (a.score_cp != null) {
      const cp = a.score_cp * sign;
      text = `${cp > 0 ? '+' : cp < 0 ? '\u2212' : ''}${(Math.abs(cp) / 100).toFixed(2)}`;
      frac = 1 / (1 + Math.exp(-cp / 250));
    } else {
      text = 'no score';
      frac = 0.5;
    }
    const rows = moveRows(this.game.start_fen, [...this.game.moves.slice(0, k), ...(a.pv || []).map((u, i) => ({ uci: u, san: (a.pv_san || [])[i] || u }))]);
    const pv = [];
    for (const r of rows) {
      for (const [i, first] of [[r.white, true], [r.black, false]]) {
        if (i == null || i < k) continue;
        const san = i - k < (a.pv || []).length ? ((a.pv_san || [])[i - k] || a.pv[i - k]) : null;
        if (!san) continue;
        if (first || pv.length === 0) pv.push(h('span', { class: 'pv-num' }, first ? r.label : `${r.label}\u2026`));
        pv.push(h('span', { class: 'pv-move' }, san));
      }
    }
    this.el.analysisOut.replaceChildren(
      h('div', { class: 'eval-row' },
        h('span', { class: 'eval-score', id: 'eval-score' }, text),
        h('div', { class: 'eval-bar', title: 'White \u2194 Black' }, h('div', { class: 'eval-fill', style: `width:${(frac * 100).toFixed(1)}%` })),
        h('span', { class: 'muted small eval-best' }, a.bestmove ? `best ${(a.pv_san || [])[0] || a.bestmove}` : '')),
      h('div', { class: 'pv', id: 'pv' }, pv.length ? pv : h('span', { class: 'muted' }, 'no line')),
      h('div', { class: 'muted small' }, `${k ? `Position after ${this.game.moves[k - 1].san || this.game.moves[k - 1].uci} (ply ${k})` : 'Start position'}; score from White's side, depth ${a.depth ?? '?'}.`));
  }

  // ---- export ----
  async fetchPgn() {
    try {
      return await api.pgn(this.id);
    } catch (e) {
      notify(`Could not export PGN: ${e.message}`);
      return null;
    }
  }

  async showPgn() {
    const t = await this.fetchPgn();
    if (t == null) return;
    this.el.pgn.value = t;
    this.el.pgn.hidden = false;
  }

  async copyPgn(button) {
    const t = await this.fetchPgn();
    if (t == null) return;
    this.el.pgn.value = t;
    this.el.pgn.hidden = false;
    copyText(t, button);
  }

  async downloadPgn() {
    const t = await this.fetchPgn();
    if (t != null) download(`starfish-${this.game.variant}-${this.id}.pgn`, t, 'application/x-chess-pgn');
  }
}

// For the browser tests: the board text of a replayed position (compared with the server's).
window.starfishDebug = { parseFen, boardText };
