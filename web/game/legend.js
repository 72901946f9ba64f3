// Under the board: the hovered cell, the "earlier position" note, the switch for cell names
// (boards whose cells show them), the zones (Megastar's Drum) and the pieces with their moves,
// all from the server's board description.

import { h } from '../ui.js';
import { pieceIcon, pieceNames } from '../pieces.js';
import { setting, setSetting, onSetting } from '../settings.js';

export class BoardLegend {
  constructor(state) {
    const view = state.variant.board.view;
    const names = pieceNames(state.variant);
    this.cell = h('span', { class: 'cell-info', id: 'cell-info', 'aria-hidden': 'true' });
    this.history = h('span', { class: 'history-note', id: 'history-note', hidden: true }, 'viewing an earlier position');
    const hasTexts = state.variant.board.cells.some((c) => c.text);
    this.toggle = hasTexts ? h('button', { type: 'button', class: 'ghost', id: 'toggle-cell-names', onclick: () => setSetting('cellNames', !setting('cellNames')) }) : null;
    this.caption = h('div', { class: 'board-caption' }, this.cell, this.history, this.toggle);
    const zones = (view.zones || []).map((z, i) => h('span', {}, h('span', { class: `swatch zone-${i}` }), z.text));
    const legend = view.legend || [];
    this.element = zones.length || legend.length ? h('div', { class: 'board-legend', id: 'board-legend' },
      zones.length ? h('div', { class: 'zone-legend' }, zones) : null,
      legend.length ? h('details', { class: 'card piece-legend', id: 'piece-legend', open: true },
        h('summary', { class: 'card-title' }, 'Pieces and their moves'),
        h('div', { class: 'legend-grid' }, legend.map((p) => h('div', { class: 'legend-item', 'data-letter': p.letter },
          pieceIcon({ letter: p.letter, white: true }, 40, names),
          h('span', { class: 'legend-name' }, p.name, h('span', { class: 'legend-letter' }, p.letter)),
          h('span', { class: 'legend-moves' }, p.moves))))) : null) : null;
    this.renderToggle();
    this.off = onSetting(() => this.renderToggle());
    state.on('change', () => { this.history.hidden = state.live; });
  }

  destroy() {
    this.off();
  }

  renderToggle() {
    if (!this.toggle) return;
    const on = setting('cellNames');
    this.toggle.textContent = on ? 'Hide cell names' : 'Show cell names';
    this.toggle.setAttribute('aria-pressed', String(!on));
  }

  showCell(text) {
    this.cell.textContent = text || '';
  }
}
