// A player's profile (#/@/NAME): name, member since, a closed account marked, a rating per
// variant and its history as a graph, games won, drawn and lost, the game being played now,
// a button to challenge them, and the player's games, newest first, a page at a time.

import { api } from '../api.js';
import { h, variantTitle, ratingText, ratingDiff, profileLink, formatDate } from '../ui.js';
import { ratingGraph } from './graph.js';
import { other } from '../game/state.js';
import { currentAccount, signInHref } from '../session.js';
import { openChallengeForm } from '../meet/challengeform.js';

const PAGE = 20; // games asked for at a time
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// A game's other player as this player met them.
function opponent(g, side) {
  const p = g.players[side];
  if (p) return [profileLink(p.name, p.closed), h('span', { class: 'muted' }, ` ${ratingText(p.rating, p.prov)}`)];
  return g.player_kinds[side] === 'engine' ? 'Engine' : 'Anonymous';
}

// The result from this player's side: [word, class].
function outcome(g, side) {
  if (g.reason === 'aborted') return ['Aborted', 'aborted'];
  if (g.result === '*') return ['Playing', 'live'];
  if (g.result === '1/2-1/2') return ['Draw', 'draw'];
  return (g.result === '1-0') === (side === 'white') ? ['Won', 'won'] : ['Lost', 'lost'];
}

export class ProfileView {
  constructor(root, variants, name) {
    this.root = root;
    this.variants = variants;
    this.name = name;
    this.alive = true;
  }

  destroy() {
    this.alive = false;
  }

  async start() {
    document.title = `${this.name} \u2014 starfish`;
    let user;
    let history;
    try {
      [user, history, this.account] = await Promise.all([api.user(this.name), api.ratingHistory(this.name), currentAccount().catch(() => null)]);
    } catch (e) {
      if (e.status !== 404) throw e;
      this.root.replaceChildren(h('div', { class: 'profile-page' }, h('section', { class: 'card' },
        h('h1', {}, 'No such player'), h('p', { class: 'muted' }, `There is no account named "${this.name}".`))));
      return;
    }
    if (!this.alive) return;
    this.user = user;
    this.list = h('ul', { class: 'profile-games', id: 'profile-games' });
    this.more = h('button', { type: 'button', id: 'more-games', hidden: true, onclick: () => this.loadGames() }, 'More games');
    const graphs = h('div', { class: 'rating-graphs' });
    this.root.replaceChildren(h('div', { class: 'profile-page', 'data-user': user.id },
      this.head(user), this.ratings(user),
      h('section', { class: 'card' }, h('h2', {}, 'Rating history'), graphs),
      h('section', { class: 'card' }, h('h2', {}, 'Games'), this.list, h('div', { class: 'actions' }, this.more))));
    this.drawHistory(graphs, history); // once on the page: the graphs take its width
    await this.loadGames();
  }

  head(user) {
    const c = user.count;
    return h('section', { class: 'card profile-head' },
      h('h1', { id: 'profile-name' }, user.username, user.closed ? h('span', { class: 'badge closed', id: 'profile-closed' }, 'account closed') : null),
      h('p', { class: 'muted' }, `Member since ${formatDate(user.createdAt)}`),
      h('p', { class: 'profile-counts', id: 'profile-counts' },
        h('span', {}, plural(c.all, 'game')), ' \u00B7 ', h('span', {}, `${c.rated} rated`), ' \u00B7 ',
        h('span', { class: 'won' }, plural(c.win, 'win')), ' \u00B7 ',
        h('span', { class: 'draw' }, plural(c.draw, 'draw')), ' \u00B7 ',
        h('span', { class: 'lost' }, plural(c.loss, 'loss', 'losses'))),
      user.playing ? h('p', {}, h('a', { href: `#/game/${encodeURIComponent(user.playing)}`, id: 'playing-now', class: 'playing-now' }, '\u25CF Playing now')) : null,
      this.challengeButton(user));
  }

  // Anyone logged in may challenge an open account but their own; logged out: sign in first.
  challengeButton(user) {
    if (user.closed || (this.account && this.account.id === user.id)) return null;
    if (!this.account) return h('p', {}, h('a', { href: signInHref(), id: 'sign-in-to-challenge' }, 'Sign in to challenge this player'));
    return h('div', { class: 'action-row' }, h('button', { type: 'button', class: 'primary', id: 'challenge-player',
      onclick: () => openChallengeForm({ variants: this.variants, username: user.username, variant: this.variants[0].name }) }, `Challenge ${user.username}`));
  }

  ratings(user) {
    const tiles = this.variants.filter((v) => user.perfs[v.name]).map((v) => {
      const p = user.perfs[v.name];
      return h('li', { class: `rating-tile${p.games ? '' : ' unplayed'}`, 'data-variant': v.name },
        h('span', { class: 'rating-variant' }, variantTitle(v.name)),
        h('span', { class: 'rating-value' }, ratingText(p.rating, p.prov)),
        h('span', { class: 'rating-games muted small' }, plural(p.games, 'rated game')));
    });
    return h('section', { class: 'card' }, h('h2', {}, 'Ratings'), h('ul', { class: 'rating-tiles', id: 'profile-ratings' }, tiles),
      h('p', { class: 'muted small' }, 'A rating with a ? is provisional: it settles after a few rated games.'));
  }

  drawHistory(box, history) {
    const played = history.filter((v) => v.points.length);
    if (!played.length) {
      box.replaceChildren(h('p', { class: 'muted' }, 'No rated games yet.'));
      return;
    }
    for (const v of played) {
      const host = h('figure', { class: 'rating-history', 'data-variant': v.name }, h('figcaption', {}, variantTitle(v.name)));
      box.appendChild(host);
      host.appendChild(ratingGraph(v.points, Math.max(280, Math.round(host.clientWidth))));
    }
  }

  async loadGames() {
    const last = this.list.lastElementChild;
    this.more.disabled = true;
    let games;
    try {
      games = await api.userGames(this.user.id, PAGE, last ? Number(last.dataset.created) : null);
    } finally {
      this.more.disabled = false;
    }
    if (!this.alive) return;
    if (!games.length && !last) this.list.replaceChildren(h('li', { class: 'muted' }, 'No games yet.'));
    this.list.append(...games.map((g) => this.gameRow(g)));
    this.more.hidden = games.length < PAGE;
  }

  gameRow(g) {
    const side = g.players.white && g.players.white.id === this.user.id ? 'white' : 'black';
    const [word, cls] = outcome(g, side);
    const diff = g.ratingDiff && g.ratingDiff[side];
    return h('li', { class: 'profile-game', 'data-id': g.id, 'data-created': g.createdAt },
      h('span', { class: `pg-result ${cls}` }, word),
      h('span', { class: 'pg-opponent' }, h('span', { class: 'muted' }, side === 'white' ? 'as White vs ' : 'as Black vs '), opponent(g, other(side))),
      h('span', { class: 'pg-variant' }, variantTitle(g.variant)),
      h('span', { class: 'pg-diff' }, diff != null ? ratingDiff(diff) : h('span', { class: 'muted small' }, g.rated ? 'rated' : 'casual')),
      h('span', { class: 'pg-date muted small' }, formatDate(g.createdAt)),
      h('a', { class: 'pg-open', href: `#/game/${encodeURIComponent(g.id)}` }, 'View game'));
  }
}
