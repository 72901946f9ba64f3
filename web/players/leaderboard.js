// The leaderboards (#/leaderboard, #/leaderboard/VARIANT): the best settled ratings of a
// variant, with a chooser of variants.  Provisional ratings are not listed (the server leaves
// them out): the empty board says so.

import { api } from '../api.js';
import { h, variantTitle, profileLink } from '../ui.js';

const COUNT = 100;

export class LeaderboardView {
  constructor(root, variants, variant) {
    this.root = root;
    this.variants = variants;
    this.variant = variant || variants[0].name;
  }

  destroy() {}

  async start() {
    const title = variantTitle(this.variant);
    document.title = `${title} leaderboard \u2014 starfish`;
    const { users } = await api.top(COUNT, this.variant);
    this.root.replaceChildren(h('div', { class: 'leaderboard-page', 'data-variant': this.variant },
      h('h1', {}, 'Leaderboard'),
      this.chooser(),
      h('section', { class: 'card' }, h('h2', {}, title), users.length ? this.table(users) : this.empty(title))));
  }

  chooser() {
    return h('nav', { class: 'variant-chooser', 'aria-label': 'Variant' }, this.variants.map((v) =>
      h('a', { href: `#/leaderboard/${encodeURIComponent(v.name)}`, class: 'pill', 'data-variant': v.name, 'aria-current': v.name === this.variant ? 'page' : null },
        variantTitle(v.name))));
  }

  table(users) {
    return h('table', { class: 'leaderboard', id: 'leaderboard' },
      h('thead', {}, h('tr', {}, h('th', { class: 'rank' }, '#'), h('th', {}, 'Player'), h('th', { class: 'num' }, 'Rating'), h('th', { class: 'num' }, 'Games'))),
      h('tbody', {}, users.map((u, i) => h('tr', { 'data-user': u.id },
        h('td', { class: 'rank' }, i + 1),
        h('td', {}, profileLink(u.username)),
        h('td', { class: 'num' }, Math.round(u.rating)),
        h('td', { class: 'num' }, u.games)))));
  }

  empty(title) {
    return h('div', { class: 'leaderboard-empty', id: 'leaderboard-empty' },
      h('p', {}, `No one is on the ${title} leaderboard yet.`),
      h('p', { class: 'muted' }, 'Only settled ratings are listed. A new rating is provisional, shown with a question mark (1500?), until its player has played enough rated games for it to be sure; play rated games against friends to get on the board.'));
  }
}
