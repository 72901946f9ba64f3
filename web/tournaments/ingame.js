// A tournament game's card on the game page: the tournament it belongs to, the berserk button
// (half one's clock and no increment, for a point more on a win of 7 moves or more: before
// one's first move, once, where the tournament allows it), who has berserked, and the way
// back to the tournament once the game is over.  Its player's next game of the tournament,
// should the arena pair them meanwhile, opens by itself (the tournament's stream is followed
// from the end of the game).

import { api } from '../api.js';
import { EventFeed } from '../sse.js';
import { h, notify } from '../ui.js';
import { tournamentHref, fill, icon } from './format.js';
import { RESULT_SHOWN_MS } from '../meet/arrivals.js';

const BERSERK = '\u26A1';

// The tournament games this page has shown to their player: the tournament page opens a
// player's game by itself only once.
export const shownGames = new Set();

export class TournamentGameCard {
  constructor(state, gameId) {
    this.state = state;
    this.gameId = gameId;
    this.tournament = null; // the tournament, once read
    this.asked = false;
    this.element = h('section', { class: 'card tour-game-card', id: 'tour-game', hidden: true });
    this.feed = null;
    this.next = null; // the player's next game, once paired
    state.on('change', (keys) => keys.has('game') && this.render());
  }

  destroy() {
    if (this.feed) this.feed.close();
    clearTimeout(this.nextTimer);
  }

  // The player's game of the tournament in play other than this one, opened once.
  followNext(tournamentId) {
    const name = this.state.account.username.toLowerCase();
    this.feed = new EventFeed(api.tournamentStreamUrl(tournamentId), { tournament: (t) => {
      const next = (t.duels || []).find((d) => d.id !== this.gameId && d.p.some((p) => p.n.toLowerCase() === name));
      if (!next || shownGames.has(next.id) || this.next) return;
      this.next = next.id;
      this.render();
      this.nextTimer = setTimeout(() => { location.hash = `#/game/${encodeURIComponent(next.id)}`; }, RESULT_SHOWN_MS);
    } });
  }

  async readTournament(id) {
    this.asked = true;
    try {
      this.tournament = await api.tournament(id);
    } catch {
      this.tournament = { id, fullName: 'Tournament', berserkable: false };
    }
    this.render();
  }

  // May this browser's player berserk now?
  mayBerserk() {
    const s = this.state;
    const g = s.game;
    if (!this.tournament || !this.tournament.berserkable || !s.playing || !s.mySide || !g.clock || g.clock.berserk?.[s.mySide]) return false;
    return g.moves.length < (s.mySide === 'white' ? 1 : 2);
  }

  render() {
    const g = this.state.game;
    this.element.hidden = !g || !g.tournament;
    if (this.element.hidden) return;
    if (!this.asked) this.readTournament(g.tournament);
    if (this.state.isPlayer) shownGames.add(this.gameId);
    const t = this.tournament || { id: g.tournament, fullName: 'Tournament' };
    const marks = ['white', 'black'].filter((side) => g.clock && g.clock.berserk && g.clock.berserk[side]);
    const over = g.status !== 'ongoing';
    if (over && this.state.isPlayer && this.state.account && !this.feed) this.followNext(g.tournament);
    fill(this.element,
      h('div', { class: 'card-title' }, h('a', { href: tournamentHref(t.id), id: 'tour-game-link' }, icon('trophy'), ` ${t.fullName}`)),
      marks.length ? h('p', { class: 'small berserk-marks', id: 'berserk-marks' },
        marks.map((side) => h('span', { class: 'berserks', 'data-side': side }, `${BERSERK} ${this.nameOf(side)} berserked`))) : null,
      this.mayBerserk() && h('button', { type: 'button', class: 'berserk', id: 'berserk', title: 'Half your clock, no increment; a win of 7 moves or more scores a point more',
        onclick: (e) => this.berserk(e.currentTarget) }, `${BERSERK} Berserk`),
      this.next && h('p', { class: 'small', id: 'next-game' }, 'Your next game is opening\u2026 ',
        h('a', { href: `#/game/${encodeURIComponent(this.next)}` }, 'Open it now')),
      over && this.state.isPlayer && !this.next && h('a', { href: tournamentHref(t.id), class: 'button primary', id: 'back-to-tournament' }, 'Back to the tournament'));
  }

  nameOf(side) {
    const s = this.state;
    if (s.mySide === side) return 'You';
    return (s.game.players[side] && s.game.players[side].name) || s.anonymousName(side);
  }

  async berserk(button) {
    button.disabled = true;
    try {
      await api.berserk(this.gameId, this.state.token);
    } catch (e) {
      notify(`Could not berserk: ${e.detail || e.message}`);
      button.disabled = false;
    }
    // The game's event brings the halved clock and the mark.
  }
}
