// The home page's games of a logged-in player (GET /api/account/playing): those where it is
// their move first ("Your turn"), then those waiting for the opponent, each with the opponent,
// the variant and the time left (days and hours in correspondence).  Read again on the
// account's gameStart and gameFinish, when the window comes back into focus, and every
// POLL_MS while it is shown (a move of the opponent's has no account event).

import { api } from '../api.js';
import { h, formatLong, variantTitle, ratingText } from '../ui.js';
import { onAccountEvent } from '../accounts/events.js';
import { variantOfKey } from './terms.js';

const POLL_MS = 10000;

export class PlayingList {
  constructor() {
    this.list = h('div', { class: 'playing-list', id: 'playing-list' }, h('p', { class: 'muted' }, 'Loading\u2026'));
    this.element = h('section', { class: 'card playing-card', id: 'your-games' },
      h('div', { class: 'card-head' }, h('h2', {}, 'Your games'), h('a', { href: '#/lobby', id: 'to-lobby' }, 'Find an opponent')),
      this.list);
    this.onFocus = () => document.visibilityState === 'visible' && this.load();
    window.addEventListener('focus', this.onFocus);
    document.addEventListener('visibilitychange', this.onFocus);
    const reload = () => this.load();
    this.offs = ['gameStart', 'gameFinish', 'open'].map((type) => onAccountEvent(type, reload));
    this.timer = setInterval(this.onFocus, POLL_MS);
  }

  destroy() {
    clearInterval(this.timer);
    window.removeEventListener('focus', this.onFocus);
    document.removeEventListener('visibilitychange', this.onFocus);
    for (const off of this.offs) off();
  }

  async load() {
    const asked = (this.asked = (this.asked || 0) + 1);
    let games;
    try {
      games = (await api.playing(50)).nowPlaying;
    } catch (e) {
      if (asked === this.asked) this.list.replaceChildren(h('p', { class: 'error-text' }, `Could not load your games: ${e.message}`));
      return;
    }
    if (asked !== this.asked) return; // a newer answer is on its way
    this.element.classList.toggle('has-games', games.length > 0);
    const mine = games.filter((g) => g.isMyTurn);
    const theirs = games.filter((g) => !g.isMyTurn);
    if (!games.length) {
      this.list.replaceChildren(h('p', { class: 'muted', id: 'no-games' }, 'No games in progress. Meet an opponent in the lobby, or challenge a player from their profile.'));
      return;
    }
    const part = (games, id, title) => (games.length ? [h('h3', { class: 'label' }, title), h('ul', { class: 'playing-games', id }, games.map((g) => this.row(g)))] : []);
    this.list.replaceChildren(...part(mine, 'your-turn', `Your turn (${mine.length})`), ...part(theirs, 'their-turn', 'Waiting for the opponent'));
  }

  row(g) {
    const o = g.opponent || {};
    const name = o.username || 'Anonymous';
    const left = g.secondsLeft == null ? null : g.secondsLeft * 1000;
    return h('li', {},
      h('a', { href: `#/game/${encodeURIComponent(g.gameId)}`, class: `playing-game${g.isMyTurn ? ' my-turn' : ''}`, 'data-id': g.gameId },
        h('span', { class: `side-mark ${g.color}`, title: `You play ${g.color}`, 'aria-hidden': 'true' }),
        h('span', { class: 'pl-opponent' }, `vs ${name}`, o.rating ? h('span', { class: 'muted' }, ` ${ratingText(o.rating, false)}`) : null),
        h('span', { class: 'pl-variant muted small' }, `${variantTitle(variantOfKey(g.variant.key))}${g.rated ? ' \u00B7 rated' : ''}`),
        h('span', { class: 'pl-left', title: left == null ? 'no clock' : `your time: ${formatLong(left, true)}` },
          left == null ? '\u221E' : formatLong(left))));
  }
}
