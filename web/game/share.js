// The invite card (until the friend has come) and the export card: FEN, PGN (shown,
// copied, downloaded) and the read-only link for spectators.

import { api } from '../api.js';
import { h, notify, copyText, download } from '../ui.js';
import { other } from './state.js';

const gameLink = (id) => `${location.origin}/#/game/${encodeURIComponent(id)}`;

export class InviteCard {
  constructor(state) {
    this.state = state;
    this.element = null;
    if (!state.token || !state.invite) return;
    const link = this.link();
    this.element = h('section', { class: 'card invite', id: 'invite' },
      h('div', { class: 'card-title' }, 'Invite a friend'),
      h('p', { class: 'muted small' }, `Send this link to your opponent (they play ${other(state.mySide || 'white')}).`,
        state.game.rated ? ' The game is rated: they join it with an account.' : ''),
      h('div', { class: 'copy-row' },
        h('input', { type: 'text', readonly: true, id: 'invite-link', value: link, 'aria-label': 'Invite link' }),
        h('button', { type: 'button', id: 'copy-invite', class: 'primary', onclick: (ev) => copyText(link, ev.currentTarget) }, 'Copy')));
    state.on('change', () => this.render());
  }

  link() {
    const s = this.state;
    return `${gameLink(s.game.id)}?t=${encodeURIComponent(s.invite)}&s=${other(s.mySide || 'white')}`;
  }

  // Gone for good once the friend has opened the game (the server says so; or they have
  // moved, in a game the server has reloaded since) or the game is over.
  render() {
    const s = this.state;
    const g = s.game;
    const friend = other(s.mySide || 'white');
    const friendMoved = g.moves.some((m, i) => s.sideAfter(i) === friend);
    this.done = this.done || g.status === 'over' || friendMoved || !!(g.joined && g.joined[friend]);
    this.element.hidden = this.done;
  }
}

export class ExportCard {
  constructor(state) {
    this.state = state;
    const id = state.game.id;
    const btn = (bid, label, onclick) => h('button', { type: 'button', id: bid, onclick }, label);
    this.fen = h('input', { type: 'text', id: 'fen-out', readonly: true, spellcheck: 'false', 'aria-label': 'FEN' });
    this.pgn = h('textarea', { id: 'pgn-out', rows: 6, readonly: true, hidden: true, spellcheck: 'false', 'aria-label': 'PGN' });
    this.element = h('details', { class: 'card export-card', id: 'export' },
      h('summary', { class: 'card-title' }, 'Export and share'),
      h('div', { class: 'label small' }, 'FEN'),
      h('div', { class: 'copy-row' }, this.fen, btn('copy-fen', 'Copy', (ev) => copyText(this.fen.value, ev.currentTarget))),
      h('div', { class: 'label small' }, 'PGN'),
      h('div', { class: 'action-row' },
        btn('show-pgn', 'Show PGN', () => this.showPgn()),
        btn('copy-pgn', 'Copy PGN', (ev) => {
          const b = ev.currentTarget;
          this.showPgn().then((t) => t != null && copyText(t, b));
        }),
        btn('download-pgn', 'Download', () => this.downloadPgn())),
      this.pgn,
      h('div', { class: 'label small' }, 'Watch link (read-only)'),
      h('div', { class: 'copy-row small' },
        h('input', { type: 'text', readonly: true, id: 'watch-link', value: gameLink(id), 'aria-label': 'Watch link' }),
        btn('copy-watch', 'Copy', (ev) => copyText(gameLink(id), ev.currentTarget))));
    state.on('change', () => { this.fen.value = state.game.fen; });
  }

  async fetchPgn() {
    try {
      return await api.pgn(this.state.game.id);
    } catch (e) {
      notify(`Could not export PGN: ${e.message}`);
      return null;
    }
  }

  async showPgn() {
    const t = await this.fetchPgn();
    if (t != null) {
      this.pgn.value = t;
      this.pgn.hidden = false;
    }
    return t;
  }

  async downloadPgn() {
    const t = await this.fetchPgn();
    const g = this.state.game;
    if (t != null) download(`starfish-${g.variant}-${g.id}.pgn`, t, 'application/x-chess-pgn');
  }
}
