// The move box: type a move in coordinate notation (e2e4, 12-18, N@17, Ui2Ui4) or in the
// game's notation (Nf3, exd5, O-O) and press Enter.  Coordinate moves are matched against the
// legal list; anything else goes to the server, which reads SAN too and says what is wrong.

import { h, notify } from '../ui.js';

export class MoveInput {
  constructor(state) {
    this.state = state;
    this.input = h('input', {
      type: 'text', id: 'move-input', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off',
      placeholder: 'Type a move, then Enter', 'aria-label': 'Type a move',
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        this.submit();
      } else if (e.key === 'Escape') {
        this.input.value = '';
      }
    });
    this.element = h('div', { class: 'move-entry' }, this.input,
      h('button', { type: 'button', id: 'move-submit', onclick: () => this.submit() }, 'Play'));
    state.on('change', () => { this.element.hidden = !state.playable() && !state.playing; });
  }

  submit() {
    const s = this.state;
    const text = this.input.value.trim();
    if (!text) return;
    const play = s.playable();
    if (!play) {
      notify(s.live ? 'It is not your move.' : 'Go back to the current position to move, or analyse.', 'info');
      return;
    }
    const exact = play.legal.find((m) => m.uci === text || m.uci.toLowerCase() === text.toLowerCase());
    this.input.value = '';
    s.emit('move', exact ? exact.uci : text);
  }
}
