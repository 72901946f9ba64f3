// The end of a game: a dialog over the board with the result and its reason, a rated game's
// rating changes, and what to do next (a rematch, a new game, analysing the game; in a
// tournament's game, back to the tournament in place of the rematch).  It opens
// once, when the game ends while the page is open, and leaves the rest of the page usable.

import { h, resultLine, ratingText, ratingDiff } from '../ui.js';
import { tournamentHref } from '../tournaments/format.js';

export class GameOverDialog {
  constructor(state) {
    this.state = state;
    this.title = h('h2', { id: 'game-over-title' });
    this.reason = h('p', { class: 'muted', id: 'game-over-reason' });
    this.ratings = h('ul', { class: 'rating-changes', id: 'rating-changes', hidden: true });
    this.rematch = h('button', { type: 'button', id: 'rematch', class: 'primary', onclick: () => state.emit('rematch', 'offer') }, 'Rematch');
    this.back = h('a', { class: 'button primary', id: 'dialog-back-to-tournament', hidden: true }, 'Back to the tournament');
    this.element = h('dialog', { class: 'game-over', id: 'game-over', 'aria-labelledby': 'game-over-title' },
      h('button', { type: 'button', class: 'ghost icon dialog-close', 'aria-label': 'Close', onclick: () => this.element.close() }, '\u00D7'),
      this.title, this.reason, this.ratings,
      h('div', { class: 'dialog-actions' }, this.back, this.rematch,
        h('button', { type: 'button', id: 'new-game', onclick: () => { location.hash = '#/'; } }, 'New game'),
        h('button', { type: 'button', id: 'analyse-game', onclick: () => { this.element.close(); state.emit('analyse'); } }, 'Analyse')));
    this.element.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.element.close();
    });
    this.wasOver = null;
    state.on('change', (keys) => keys.has('game') && this.render());
    state.on('change', () => this.renderRematch());
  }

  render() {
    const s = this.state;
    const g = s.game;
    const over = g.status === 'over';
    if (this.wasOver === false && over) this.open();
    this.wasOver = over;
    this.renderRatings();
  }

  // Each account's rating before the game, after it, and the change.
  renderRatings() {
    const g = this.state.game;
    const sides = ['white', 'black'].filter((side) => g.players[side] && g.ratingDiff && g.ratingDiff[side] != null);
    this.ratings.hidden = !sides.length;
    this.ratings.replaceChildren(...sides.map((side) => {
      const p = g.players[side];
      const diff = g.ratingDiff[side];
      return h('li', { 'data-side': side },
        h('span', { class: 'rc-name' }, p.name),
        h('span', { class: 'rc-ratings muted' }, `${ratingText(p.rating, p.prov)} \u2192 ${p.rating + diff}`),
        ratingDiff(diff));
    }));
  }

  // A rematch offered by this player waits for the opponent.
  renderRematch() {
    const s = this.state;
    const r = s.game.rematch || {};
    this.rematch.disabled = !!s.mySide && r.offer === s.mySide;
    this.rematch.textContent = this.rematch.disabled ? 'Rematch offered\u2026' : r.offer ? 'Accept the rematch' : 'Rematch';
  }

  open() {
    const s = this.state;
    const g = s.game;
    const mine = s.mySide && ((g.result === '1-0' && s.mySide === 'white') || (g.result === '0-1' && s.mySide === 'black'));
    const theirs = s.mySide && ((g.result === '0-1' && s.mySide === 'white') || (g.result === '1-0' && s.mySide === 'black'));
    this.title.textContent = mine ? 'You won' : theirs ? 'You lost' : g.result === '1/2-1/2' ? 'Draw' : g.reason === 'aborted' ? 'Game aborted' : 'Game over';
    this.reason.textContent = g.reason === 'aborted' ? 'Before both sides had moved: no result, no rating change.' : resultLine(g.result, g.reason);
    this.rematch.hidden = !s.isPlayer || !!g.tournament;
    this.back.hidden = !g.tournament;
    if (g.tournament) this.back.href = tournamentHref(g.tournament);
    if (!this.element.open) this.element.show();
    (g.tournament ? this.back : this.rematch).focus();
  }
}
