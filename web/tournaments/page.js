// A tournament's page (#/tournament/ID): what it is, the countdown, joining and withdrawing,
// the standings live from its stream (GET /api/tournament/ID/stream), the games in play and
// played, the podium once it is over and a round robin's cross table.  A player who takes
// part is online while the page is open (presence.js): a game the arena pairs them in opens
// by itself, once (one the player has left to come here is a link: "Your game is on").

import { api } from '../api.js';
import { h, $, notify, variantTitle, announce } from '../ui.js';
import { currentAccount, signInHref } from '../session.js';
import { EventFeed } from '../sse.js';
import { Presence } from './presence.js';
import { terms, conditions, whenText, isRobin, variantOfKey, STATUS, fill, icon } from './format.js';
import { shownGames } from './ingame.js';
import { standingsTable, pager, podium, crossTable, duels, gameList } from './standings.js';

const GAMES_DELAY_MS = 300; // the played games are read again this long after a change

export class TournamentView {
  constructor(root, variants, id) {
    Object.assign(this, { root, variants, id });
    this.alive = true;
    this.page = 1;
    this.picked = null; // the player whose games are listed (null: everyone's)
    this.me = null; // the account's line in the results, if it takes part
  }

  destroy() {
    this.alive = false;
    if (this.feed) this.feed.close();
    if (this.presence) this.presence.close();
    clearInterval(this.ticker);
    clearTimeout(this.gamesTimer);
  }

  async start() {
    const [t, account] = await Promise.all([api.tournament(this.id), currentAccount().catch(() => null)]);
    if (!this.alive) return;
    this.account = account;
    this.build(t);
    await this.readMe();
    if (!this.alive) return;
    this.show(t);
    this.feed = new EventFeed(api.tournamentStreamUrl(this.id), 'tournament', (x) => this.onStream(x),
      (status) => { this.root.querySelector('.tour-page').dataset.stream = status; });
    this.ticker = setInterval(() => this.tick(), 1000);
  }

  build(t) {
    this.el = {
      head: h('section', { class: 'card tour-info', id: 'tour-info' }),
      myGame: h('section', { class: 'card my-game', id: 'my-game', hidden: true }),
      podium: h('section', { class: 'card podium-card', id: 'podium-card', hidden: true }),
      standings: h('section', { class: 'card', id: 'standings-card' }),
      cross: h('section', { class: 'card', id: 'cross-card', hidden: true }),
      duels: h('section', { class: 'card', id: 'duels-card' }),
      games: h('section', { class: 'card', id: 'games-card' }),
    };
    const e = this.el;
    this.root.replaceChildren(h('div', { class: 'tour-page tour-one', 'data-tournament': t.id },
      h('div', { class: 'tour-main' }, e.head, e.myGame, e.podium, e.standings, e.cross),
      h('div', { class: 'tour-side' }, e.duels, e.games)));
  }

  // The account's line in the results: does it take part (for a page of standings it is not on)?
  async readMe() {
    if (!this.account) return;
    try {
      const lines = await api.tournamentResults(this.id);
      this.me = lines.find((p) => p.id === this.account.id) || null;
    } catch {
      /* kept as it was */
    }
  }

  onStream(t) {
    if (!this.alive) return;
    if (this.page === 1) this.show(t);
    else this.readPage(this.page);
    if (this.account) this.readMe().then(() => this.alive && this.t && this.renderHead());
  }

  async readPage(page) {
    try {
      const t = await api.tournament(this.id, page);
      if (!this.alive) return;
      this.page = page;
      this.show(t);
    } catch (e) {
      notify(`Could not read the standings: ${e.message}`);
    }
  }

  // The tournament (standings page this.page) as the server has it now.
  show(t) {
    const was = this.t;
    this.t = t;
    this.shownAt = Date.now();
    document.title = `${t.fullName} \u2014 starfish`;
    this.root.querySelector('.tour-page').dataset.status = STATUS[t.status];
    const line = this.account && t.standing.players.find((p) => p.id === this.account.id);
    if (line) this.me = line;
    this.renderHead();
    this.renderMyGame();
    this.renderStandings();
    if (t.status === 30) {
      this.el.podium.hidden = false;
      fill(this.el.podium, h('h2', {}, 'Podium'), podium(t));
      if (was && was.status !== 30) announce(`The tournament is over. ${t.winner ? `${t.winner.name} wins.` : ''}`);
    }
    this.el.cross.hidden = !t.crossTable;
    if (t.crossTable) fill(this.el.cross, h('h2', {}, 'Cross table'), crossTable(t));
    fill(this.el.duels, h('h2', {}, 'Games in play'), duels(t));
    this.keepPresence();
    clearTimeout(this.gamesTimer);
    this.gamesTimer = setTimeout(() => this.readGames(), was ? GAMES_DELAY_MS : 0);
  }

  renderHead() {
    const t = this.t;
    const variant = variantOfKey(t.variant.key);
    const conds = conditions(t);
    fill(this.el.head,
      h('div', { class: 'tour-title' },
        h('h1', {}, t.fullName),
        h('span', { class: `badge status-${STATUS[t.status]}`, id: 'tour-status' }, { 10: 'Soon', 20: 'Playing', 30: 'Finished' }[t.status])),
      h('p', { class: 'tour-summary' }, h('a', { href: `#/rules/${encodeURIComponent(variant)}` }, variantTitle(variant)), ` \u00B7 ${terms(t)}`),
      conds.length ? h('p', { class: 'muted small', id: 'tour-conditions' }, conds.join(' \u00B7 ')) : null,
      t.description && h('p', { class: 'tour-description' }, t.description),
      h('p', { class: 'tour-meta muted small' }, `By ${t.createdBy} \u00B7 ${t.nbPlayers} player${t.nbPlayers === 1 ? '' : 's'}`),
      h('div', { class: 'tour-clock-row' },
        h('span', { class: `tour-clock${t.status === 30 ? ' ended' : ''}`, id: 'tour-clock', 'aria-live': 'off' }, whenText(t)),
        this.entry()));
  }

  // Join, withdraw, or sign in first; none in a round robin (its players are fixed) or once over.
  entry() {
    const t = this.t;
    if (t.status === 30) return t.winner ? h('span', { class: 'tour-winner', id: 'tour-winner' }, icon('trophy'), ` ${t.winner.name}`) : null;
    if (isRobin(t)) return this.me ? h('span', { class: 'muted' }, 'You play in this round robin.') : null;
    if (!this.account) return h('a', { href: signInHref('login'), class: 'button primary', id: 'tour-sign-in' }, 'Sign in to join');
    const joined = this.me && !this.me.withdraw;
    return h('span', { class: 'tour-entry' },
      joined && h('span', { class: 'muted small', id: 'tour-joined' },
        t.status === 10 ? 'You have joined: stay on this page to be paired.' : this.me.playing ? 'Playing' : 'Waiting for an opponent\u2026'),
      h('button', { type: 'button', class: joined ? '' : 'primary', id: joined ? 'tour-withdraw' : 'tour-join', onclick: () => this.entryAction(!joined) },
        joined ? 'Withdraw' : 'Join'));
  }

  async entryAction(join) {
    try {
      await (join ? api.joinTournament(this.id) : api.withdrawTournament(this.id));
    } catch (e) {
      notify(`Could not ${join ? 'join' : 'withdraw'}: ${e.detail || e.message}`);
      return;
    }
    if (!this.alive) return;
    this.me = { ...(this.me || { id: this.account.id }), withdraw: !join };
    this.renderHead();
    this.keepPresence();
  }

  // The account's game in play in this tournament (from the duels), as a card with its link.
  renderMyGame() {
    const name = this.account && this.account.username.toLowerCase();
    const mine = name ? (this.t.duels || []).filter((d) => d.p.some((p) => p.n.toLowerCase() === name)) : [];
    this.el.myGame.hidden = !mine.length;
    if (!mine.length) return;
    const d = mine[0];
    this.open(d.id);
    const them = d.p.find((p) => p.n.toLowerCase() !== name) || d.p[1];
    fill(this.el.myGame, h('div', { class: 'card-title' }, 'Your game is on'),
      h('p', {}, `Against ${them.n} (${them.r}).`),
      h('a', { href: `#/game/${encodeURIComponent(d.id)}`, class: 'button primary', id: 'open-my-game' }, 'Play your game'));
  }

  // Online while the account takes part in a tournament that is not over.
  keepPresence() {
    const wanted = !!this.account && !!this.me && !this.me.withdraw && this.t.status !== 30;
    if (wanted && !this.presence) this.presence = new Presence((game) => this.gameStarted(game));
    if (!wanted && this.presence) {
      this.presence.close();
      this.presence = null;
    }
  }

  // A gameStart of this tournament.
  gameStarted(game) {
    if (game.tournamentId === this.id) this.open(game.gameId || game.id);
  }

  // The account's game opens by itself, unless this page has shown it already.
  open(id) {
    if (this.alive && !shownGames.has(id)) location.hash = `#/game/${encodeURIComponent(id)}`;
  }

  renderStandings() {
    const t = this.t;
    fill(this.el.standings, h('div', { class: 'card-head' }, h('h2', {}, 'Standings'),
      h('span', { class: 'muted small live-dot', title: 'Updated as it happens' }, 'live')),
    standingsTable(t, this.account && this.account.id, (id) => this.pick(id)),
    pager(t, this.page, (page) => this.readPage(page)));
  }

  pick(player) {
    this.picked = this.picked === player ? null : player;
    this.renderGames();
  }

  async readGames() {
    try {
      this.games = await api.tournamentGames(this.id);
    } catch {
      return; // the next change reads them again
    }
    if (this.alive) this.renderGames();
  }

  renderGames() {
    if (!this.games) return;
    const who = this.picked && this.games.flatMap((g) => [g.players.white.user, g.players.black.user]).find((u) => u.id === this.picked);
    fill(this.el.games, h('div', { class: 'card-head' }, h('h2', {}, who ? `${who.name}\u2019s games` : 'Games played'),
      who && h('button', { type: 'button', class: 'ghost small', id: 'games-all', onclick: () => this.pick(this.picked) }, 'Everyone\u2019s')),
    gameList(this.games, who ? this.picked : null));
  }

  // The countdown, from the server's seconds and the time since they came.
  tick() {
    const clock = $('#tour-clock', this.root);
    if (clock && this.t) clock.textContent = whenText(this.t, Date.now() - this.shownAt);
  }
}
