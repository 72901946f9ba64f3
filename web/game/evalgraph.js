// The engine's evaluation after each move of a finished game, as a small graph under the move
// list (short searches, one position after another); a click goes to that move.

import { api } from '../api.js';
import { el } from '../pieces.js';
import { h } from '../ui.js';
import { whiteScore } from './analysis.js';
import { splitFen } from '../position.js';

const THINK_MS = 60; // per position: a trend, not a verdict
const MAX_PLIES = 300;

export class EvalGraph {
  constructor(state) {
    this.state = state;
    this.scores = []; // White's share after each ply (index 0: the start)
    this.running = false;
    this.svg = el('svg', { class: 'eval-graph', id: 'eval-graph', viewBox: '0 0 100 100', preserveAspectRatio: 'none', role: 'img', 'aria-label': 'Evaluation after each move' });
    // Drawn once, then only moved: a redraw that replaced them between a click's press and its
    // release (the graph redraws on every change of the page) would lose the click.
    el('line', { x1: 0, y1: 50, x2: 100, y2: 50, class: 'graph-mid', 'vector-effect': 'non-scaling-stroke' }, this.svg);
    this.area = el('polygon', { class: 'graph-area' }, this.svg);
    this.line = el('polyline', { class: 'graph-line', 'vector-effect': 'non-scaling-stroke' }, this.svg);
    this.now = el('line', { y1: 0, y2: 100, class: 'graph-now', 'vector-effect': 'non-scaling-stroke' }, this.svg);
    this.svg.addEventListener('click', (e) => {
      const r = this.svg.getBoundingClientRect();
      const n = state.game.moves.length;
      state.emit('goto', Math.round(((e.clientX - r.left) / r.width) * n));
    });
    this.element = h('div', { class: 'eval-graph-box', hidden: true }, this.svg);
    state.on('change', () => this.update());
  }

  destroy() {
    this.stopped = true;
  }

  update() {
    const g = this.state.game;
    if (g.status !== 'over' || !g.moves.length || g.moves.length > MAX_PLIES) return;
    this.element.hidden = false;
    if (!this.running && this.scores.length <= g.moves.length) this.run();
    this.draw();
  }

  async run() {
    this.running = true;
    const s = this.state;
    const g = s.game;
    for (let k = this.scores.length; k <= g.moves.length && !this.stopped; k++) {
      const fen = s.fenAt(k);
      let frac = 0.5;
      try {
        const a = await api.analysis({ variant: g.variant, fen, movetime_ms: THINK_MS });
        frac = a.bestmove ? whiteScore(a, splitFen(fen).side).frac : this.finalFrac(g);
      } catch {
        break;
      }
      this.scores[k] = frac;
      this.draw();
    }
    this.running = false;
    this.svg.dataset.points = this.scores.length;
  }

  // A finished position has no search: the result says who stands better.
  finalFrac(g) {
    return g.result === '1-0' ? 1 : g.result === '0-1' ? 0 : 0.5;
  }

  draw() {
    const n = Math.max(1, this.state.game.moves.length);
    const pts = this.scores.map((f, k) => `${((k / n) * 100).toFixed(2)},${(100 - f * 100).toFixed(2)}`);
    const end = ((this.scores.length - 1) / n * 100).toFixed(2);
    this.area.setAttribute('points', pts.length ? `0,100 ${pts.join(' ')} ${end},100` : '');
    this.line.setAttribute('points', pts.join(' '));
    const x = (this.state.ply / n) * 100;
    this.now.setAttribute('x1', x);
    this.now.setAttribute('x2', x);
  }
}
