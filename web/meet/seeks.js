// The lobby's open seeks, live (GET /api/lobby/stream: Server-Sent Events, each `seeks` with
// the whole list): who seeks (rating), the variant, the clock or days, rated or casual, the side
// the seeker plays; one click accepts (POST /api/lobby/seeks/ID/accept: the game page opens),
// and the player's own seeks have Cancel.  Logged out, the list is shown with a way to sign in.

import { api } from '../api.js';
import { h, notify, profileLink } from '../ui.js';
import { signInHref } from '../session.js';
import { EventFeed } from '../sse.js';
import { knowGame } from './arrivals.js';
import { timeControlText, speedText, modeText, variantName, colorText } from './terms.js';

const gameHref = (id) => `#/game/${encodeURIComponent(id)}`;

// Real-time seeks first, the quicker first; then correspondence, the shorter first.
const order = (s) => (s.timeControl.type === 'clock' ? s.timeControl.limit + 40 * s.timeControl.increment : 1e9 + s.timeControl.daysPerTurn);

export class SeekList {
  // account: who is logged in (or null); onCancelOwn(seek): the page's own real-time seek.
  constructor(account, { onCancelOwn = () => {} } = {}) {
    this.account = account;
    this.onCancelOwn = onCancelOwn;
    this.seeks = [];
    this.list = h('ul', { class: 'seek-list', id: 'seek-list', 'aria-live': 'polite' }, h('li', { class: 'muted' }, 'Loading\u2026'));
    this.conn = h('span', { class: 'conn', id: 'lobby-conn' });
    this.element = h('section', { class: 'card seeks-card', id: 'lobby-seeks' },
      h('div', { class: 'card-head' }, h('h2', {}, 'Open seeks'), this.conn),
      h('div', { class: 'seek-head', 'aria-hidden': 'true' },
        ['Player', 'Variant', 'Time', 'Mode', 'Side', ''].map((t) => h('span', {}, t))),
      this.list);
    this.feed = new EventFeed(api.lobbyStreamUrl(), 'seeks', (seeks) => this.update(seeks), (state) => {
      this.conn.dataset.state = state;
      this.conn.textContent = state === 'live' ? '\u25CF live' : '\u25CB connecting';
    });
  }

  destroy() {
    this.feed.close();
  }

  mine(seek) {
    return !!this.account && seek.username.toLowerCase() === this.account.id;
  }

  update(seeks) {
    this.seeks = seeks;
    const sorted = [...seeks].sort((a, b) => order(a) - order(b) || b.rating - a.rating);
    if (!sorted.length) {
      this.list.replaceChildren(h('li', { class: 'muted seek-empty', id: 'no-seeks' }, 'No open seeks right now: create one, or press a quick-pairing button.'));
      return;
    }
    this.list.replaceChildren(...sorted.map((s) => this.row(s)));
  }

  row(s) {
    const mine = this.mine(s);
    const range = s.ratingMin || s.ratingMax ? `${s.ratingMin || ''}\u2013${s.ratingMax || ''}` : null;
    const tc = timeControlText(s.timeControl);
    return h('li', { class: `seek-row${mine ? ' mine' : ''}`, 'data-id': s.id, 'data-user': s.username },
      h('span', { class: 'sk-player' }, profileLink(s.username), h('span', { class: 'muted' }, ` ${s.rating}`)),
      h('span', { class: 'sk-variant' }, variantName(s.variant)),
      h('span', { class: 'sk-time', title: speedText(s.speed) }, tc, s.timeControl.type === 'clock' ? h('span', { class: 'sk-speed muted small' }, ` ${speedText(s.speed)}`) : null),
      h('span', { class: 'sk-mode' }, modeText(s.rated), range ? h('span', { class: 'sk-range muted small', title: 'the opponent\u2019s rating range' }, ` ${range}`) : null),
      h('span', { class: 'sk-side' }, h('span', { class: `side-mark ${s.color}`, title: `${s.username} plays ${colorText(s.color)}`, 'aria-hidden': 'true' }),
        h('span', { class: 'visually-hidden' }, `${s.username} plays ${colorText(s.color)}`)),
      h('span', { class: 'sk-action' }, this.action(s, mine, tc)));
  }

  action(s, mine, tc) {
    if (!this.account) return h('a', { href: signInHref(), class: 'sign-in-to-accept' }, 'Sign in to play');
    const what = `${variantName(s.variant)} ${tc} ${modeText(s.rated).toLowerCase()} with ${s.username}`;
    if (mine) return h('button', { type: 'button', class: 'cancel-seek', 'aria-label': `Cancel your seek: ${what}`, onclick: (e) => this.cancel(s, e.target) }, 'Cancel');
    return h('button', { type: 'button', class: 'primary accept-seek', 'aria-label': `Accept: ${what}`, onclick: (e) => this.accept(s, e.target) }, 'Accept');
  }

  async accept(s, button) {
    button.disabled = true;
    let r;
    try {
      r = await api.acceptSeek(s.id);
    } catch (e) {
      notify(e.status === 404 ? 'That seek is gone: someone else took it, or its player left.' : `Could not accept the seek: ${e.message}`);
      button.disabled = false;
      return;
    }
    knowGame(r.gameId);
    location.hash = gameHref(r.gameId);
  }

  async cancel(s, button) {
    button.disabled = true;
    if (s.timeControl.type === 'clock') this.onCancelOwn(s);
    try {
      await api.cancelSeek(s.id);
    } catch (e) {
      if (e.status !== 404) notify(`Could not cancel the seek: ${e.message}`);
    }
  }
}
