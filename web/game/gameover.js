// The end of a game: a dialog over the board with the result and its reason, and what to do
// next (a rematch, a new game, analysing the game).  It opens once, when the game ends while
// the page is open, and leaves the rest of the page usable.

import { h, resultText } from '../ui.js';

export class GameOverDialog {
  constructor(state) {
    this.state = state;
    this.title = h('h2', { id: 'game-over-title' });
    this.reason = h('p', { class: 'muted', id: 'game-over-reason' });
    this.rematch = h('button', { type: 'button', id: 'rematch', class: 'primary', onclick: () => state.emit('rematch', 'offer') }, 'Rematch');
    this.element = h('dialog', { class: 'game-over', id: 'game-over', 'aria-labelledby': 'game-over-title' },
      h('button', { type: 'button', class: 'ghost icon dialog-close', 'aria-label': 'Close', onclick: () => this.element.close() }, '\u00D7'),
      this.title, this.reason,
      h('div', { class: 'dialog-actions' }, this.rematch,
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
    this.title.textContent = mine ? 'You won' : theirs ? 'You lost' : g.result === '1/2-1/2' ? 'Draw' : 'Game over';
    this.reason.textContent = `${g.result} \u00B7 ${resultText(g.result, g.reason)}`;
    this.rematch.hidden = !s.token;
    if (!this.element.open) this.element.show();
    this.rematch.focus();
  }
}
