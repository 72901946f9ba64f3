// A variation under the move list: the moves explored from a position of the game (by the
// player while analysing, or an engine line clicked), each clickable, and the way back.

import { h } from '../ui.js';
import { numberedLine } from './analysis.js';

export class VariationView {
  constructor(state) {
    this.state = state;
    this.element = h('div', { class: 'variation-box', id: 'variation', hidden: true });
    state.on('change', (keys) => keys.has('variation') && this.render());
  }

  render() {
    const s = this.state;
    const v = s.variation;
    this.element.hidden = !v || !v.moves.length;
    if (this.element.hidden) return;
    const items = numberedLine(v.baseFen, v.moves.map((m) => m.san || m.uci)).flatMap(({ label, san }, i) => [
      label ? h('span', { class: 'pv-num' }, label) : null,
      h('button', { type: 'button', class: `mv var-mv${i + 1 === v.at ? ' current' : ''}`, 'data-var': i + 1, onclick: () => s.emit('variation-goto', i + 1) }, san),
    ]);
    this.element.replaceChildren(
      h('div', { class: 'variation-head' }, h('span', { class: 'label small' }, `Variation from move ${v.basePly}`),
        h('button', { type: 'button', class: 'ghost', id: 'leave-variation', onclick: () => s.emit('variation-leave') }, 'Back to the game')),
      h('div', { class: 'variation' }, items));
  }
}
