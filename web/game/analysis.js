// Analysis: a continuous search of the position on the board, streamed from the server
// (Server-Sent Events) while the panel is on: the evaluation bar beside the board, the engine's
// best lines (MultiPV) with their scores, each clickable to show its moves on the board, and
// arrows for the first move of each line.  The position may be the game's, or a variation the
// player explores (the page keeps that in state.variation).

import { api } from '../api.js';
import { h } from '../ui.js';
import { moveRows, parseUci, splitFen } from '../position.js';

export const LINES = 3;
const RETRY_MS = 2000;
const RETRIES = 30; // a minute

// A score for the side to move -> { text, frac, cp } from White's side (frac: White's share).
export function whiteScore({ score_cp: cp, mate }, side) {
  const sign = side === 'white' ? 1 : -1;
  if (mate != null) {
    const m = mate * sign;
    return { text: m > 0 ? `#${m}` : `#-${Math.abs(m)}`, frac: m > 0 ? 1 : 0, cp: m > 0 ? 10000 : -10000 };
  }
  if (cp != null) {
    const c = cp * sign;
    return { text: `${c > 0 ? '+' : c < 0 ? '\u2212' : ''}${(Math.abs(c) / 100).toFixed(2)}`, frac: 1 / (1 + Math.exp(-c / 250)), cp: c };
  }
  return { text: '\u2026', frac: 0.5, cp: 0 };
}

// Move numbers for a line of SAN moves played from position text `fen`: [{ label, san }].
export function numberedLine(fen, sans) {
  const rows = moveRows(fen, sans.map((san) => ({ uci: san, san })));
  const out = [];
  for (const r of rows) {
    for (const [i, first] of [[r.white, true], [r.black, false]]) {
      if (i == null) continue;
      out.push({ label: first ? r.label : out.length === 0 ? `${r.label}\u2026` : null, san: sans[i] });
    }
  }
  return out;
}

export class AnalysisPanel {
  constructor(state) {
    this.state = state;
    this.active = false;
    this.source = null;
    this.fen = null;
    this.info = null;
    this.toggle = h('button', { type: 'button', id: 'analysis-toggle', class: 'primary', onclick: () => (this.active ? this.stop() : this.start()) }, 'Analyse');
    this.bar = h('div', { class: 'eval-bar', id: 'eval-bar', hidden: true, role: 'img', 'aria-label': 'Evaluation' },
      h('div', { class: 'eval-white' }), h('span', { class: 'eval-label' }));
    this.meta = h('div', { class: 'analysis-meta', id: 'analysis-meta', 'aria-live': 'off' });
    this.lines = h('div', { class: 'lines', id: 'lines' });
    this.element = h('section', { class: 'card analysis-card', id: 'analysis' },
      h('div', { class: 'card-head' }, h('div', { class: 'card-title' }, 'Analysis'), this.toggle),
      this.meta, this.lines);
    state.on('change', () => this.follow());
  }

  destroy() {
    this.close();
  }

  start() {
    this.active = true;
    this.toggle.textContent = 'Stop analysis';
    this.toggle.classList.remove('primary');
    this.bar.hidden = false;
    this.state.set({ analysing: true });
    this.follow(true);
  }

  stop() {
    this.active = false;
    this.close();
    this.toggle.textContent = 'Analyse';
    this.toggle.classList.add('primary');
    this.bar.hidden = true;
    this.lines.replaceChildren();
    this.meta.textContent = '';
    this.fen = null;
    this.state.set({ analysing: false, arrows: [] });
  }

  close() {
    if (this.source) this.source.close();
    this.source = null;
  }

  // A new position on the board: search it instead.
  follow(force = false) {
    if (!this.active) return;
    const fen = this.state.shownFen();
    if (fen === this.fen && !force) return;
    this.fen = fen;
    this.close();
    this.info = null;
    this.lines.replaceChildren(h('div', { class: 'muted small' }, 'Thinking\u2026'));
    this.meta.textContent = '';
    this.state.set({ arrows: [] });
    if (this.state.shownOver()) {
      this.lines.replaceChildren(h('div', { class: 'muted small' }, 'The game is over in this position.'));
      return;
    }
    this.open(fen, 0);
  }

  // Streams the search of fen.  A stream refused before it opened (the server runs as many
  // analyses as it has room for: 503) is asked again every RETRY_MS while the panel shows fen.
  open(fen, tries) {
    const source = new EventSource(api.analysisStreamUrl({ variant: this.state.variant.name, fen, lines: LINES }));
    let opened = false;
    this.source = source;
    source.onopen = () => { opened = true; };
    source.addEventListener('info', (e) => this.show(JSON.parse(e.data), fen));
    source.addEventListener('done', () => {
      source.close();
      this.meta.textContent += ' \u00B7 done';
    });
    source.onerror = () => {
      if (source.readyState !== EventSource.CLOSED || this.source !== source) return;
      if (opened || tries >= RETRIES) {
        this.meta.textContent = 'The analysis stopped (the server is busy or gone).';
        return;
      }
      this.meta.textContent = 'The engine is busy with other analyses; trying again\u2026';
      setTimeout(() => {
        if (this.source === source) this.open(fen, tries + 1);
      }, RETRY_MS);
    };
  }

  show(info, fen) {
    if (fen !== this.fen) return;
    this.info = info;
    const side = splitFen(fen).side;
    const board = this.state.variant.board;
    const top = info.lines[0];
    const best = top ? whiteScore(top, side) : whiteScore({}, side);
    this.bar.querySelector('.eval-white').style.height = `${(best.frac * 100).toFixed(1)}%`;
    this.bar.querySelector('.eval-label').textContent = best.text.replace(/^[+\u2212]/, '').replace(/(\.\d)\d$/, '$1');
    this.bar.classList.toggle('black-ahead', best.frac < 0.5);
    this.bar.setAttribute('aria-label', `Evaluation ${best.text}`);
    this.bar.dataset.cp = best.cp;
    this.meta.textContent = `depth ${info.depth}${info.seldepth ? `/${info.seldepth}` : ''} \u00B7 ${formatNodes(info.nodes)} nodes \u00B7 ${(info.time_ms / 1000).toFixed(1)} s`;
    this.lines.replaceChildren(...info.lines.map((line, i) => {
      const score = whiteScore(line, side);
      const moves = numberedLine(fen, line.pv_san || line.pv).flatMap(({ label, san }) => [label ? `${label} ` : '', `${san} `]).join('');
      return h('button', { type: 'button', class: 'line', 'data-line': i, title: 'Show this line on the board', onclick: () => this.state.emit('show-line', { fen, pv: line.pv }) },
        h('span', { class: 'line-score' }, score.text), h('span', { class: 'line-moves' }, moves.trim()));
    }));
    const arrows = info.lines.map((line, i) => {
      const m = line.pv.length ? parseUci(board, line.pv[0]) : null;
      return m ? { from: m.from, to: m.to, kind: i === 0 ? 'best' : 'alt' } : null;
    }).filter(Boolean);
    this.state.set({ arrows });
  }
}

function formatNodes(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)}k`;
  return String(n);
}
