// The tournaments (#/tournaments, #/tournaments/VARIANT): those being played, those about to
// start and those finished (GET /api/tournament), all or one variant's, read again every few
// seconds; the way to make one, and to TV.

import { api } from '../api.js';
import { h, variantTitle } from '../ui.js';
import { currentAccount, signInHref } from '../session.js';
import { tournamentRow, variantOfKey } from './format.js';

const REFRESH_MS = 10000;
const SECTIONS = [
  ['started', 'Playing now', 'No tournament is being played.'],
  ['created', 'Starting soon', 'No tournament is about to start.'],
  ['finished', 'Finished', 'No tournament has finished yet.'],
];

export class TournamentsView {
  constructor(root, variants, variant) {
    this.root = root;
    this.variants = variants;
    this.variant = variant && variants.some((v) => v.name === variant) ? variant : null;
    this.alive = true;
    this.timer = null;
  }

  destroy() {
    this.alive = false;
    clearTimeout(this.timer);
  }

  async start() {
    document.title = 'Tournaments \u2014 starfish';
    const [lists, account] = await Promise.all([api.tournaments(), currentAccount().catch(() => null)]);
    if (!this.alive) return;
    this.lists = h('div', { class: 'tour-lists' });
    const create = account
      ? h('a', { href: '#/tournaments/new', class: 'button primary', id: 'new-tournament' }, 'New tournament')
      : h('a', { href: signInHref('login', '#/tournaments/new'), class: 'button', id: 'new-tournament' }, 'Sign in to make a tournament');
    this.root.replaceChildren(h('div', { class: 'tour-page tour-list-page' },
      h('div', { class: 'tour-head' }, h('h1', {}, 'Tournaments'), h('a', { href: '#/tv', class: 'button', id: 'watch-tv' }, 'TV'), create),
      this.chooser(),
      this.lists));
    this.show(lists);
  }

  chooser() {
    const pill = (name, label) => h('a', { href: name ? `#/tournaments/${encodeURIComponent(name)}` : '#/tournaments', class: 'pill',
      'data-variant': name || 'all', 'aria-current': name === this.variant ? 'page' : null }, label);
    return h('nav', { class: 'variant-chooser', 'aria-label': 'Variant' },
      pill(null, 'All variants'), this.variants.map((v) => pill(v.name, variantTitle(v.name))));
  }

  show(lists) {
    const mine = (t) => !this.variant || variantOfKey(t.variant.key) === this.variant;
    this.lists.replaceChildren(...SECTIONS.map(([key, title, none]) => {
      const list = (lists[key] || []).filter(mine);
      return h('section', { class: 'card', id: `tournaments-${key}` }, h('h2', {}, title),
        list.length ? h('ul', { class: 'tour-rows' }, list.map(tournamentRow)) : h('p', { class: 'muted' }, none));
    }));
    this.timer = setTimeout(() => this.refresh(), REFRESH_MS);
  }

  async refresh() {
    let lists;
    try {
      lists = await api.tournaments();
    } catch {
      lists = null; // tried again at the next turn
    }
    if (!this.alive) return;
    if (lists) this.show(lists);
    else this.timer = setTimeout(() => this.refresh(), REFRESH_MS);
  }
}
