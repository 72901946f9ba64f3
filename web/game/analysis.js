// The analysis card: the engine's score and line for the position on the board.

import { api } from '../api.js';
import { h, notify } from '../ui.js';
import { moveRows } from '../position.js';

// A score for the side to move -> { text, frac } from White's side (frac: the bar's white share).
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
  return { text: 'no score', frac: 0.5, cp: 0 };
}

// Move numbers and moves of a line played from ply k of the game: [{ label, san }].
export function numberedLine(game, k, line) {
  const rows = moveRows(game.start_fen, [...game.moves.slice(0, k), ...line.map((san) => ({ uci: san, san }))]);
  const out = [];
  for (const r of rows) {
    for (const [i, first] of [[r.white, true], [r.black, false]]) {
      if (i == null || i < k) continue;
      const label = first ? r.label : out.length === 0 ? `${r.label}\u2026` : null;
      out.push({ label, san: line[i - k], index: i - k });
    }
  }
  return out;
}

export class AnalysisCard {
  constructor(state) {
    this.state = state;
    this.button = h('button', { type: 'button', id: 'analyse', class: 'primary', onclick: () => this.analyse() }, 'Analyse position');
    this.movetime = h('select', { id: 'analysis-time', title: 'Thinking time', 'aria-label': 'Thinking time' },
      [['500', '0.5 s'], ['1000', '1 s'], ['3000', '3 s'], ['10000', '10 s']].map(([v, l]) => h('option', { value: v, selected: v === '1000' }, l)));
    this.out = h('div', { class: 'analysis-out', id: 'analysis-out', 'aria-live': 'polite' });
    this.element = h('section', { class: 'card analysis-card' },
      h('div', { class: 'card-title' }, 'Analysis'),
      h('div', { class: 'analysis-row' }, this.button, this.movetime),
      this.out);
    this.moves = -1;
    state.on('change', (keys) => {
      const g = state.game;
      // A new move makes the shown analysis stale.
      if (keys.has('game') && g.moves.length !== this.moves && state.live) this.out.replaceChildren();
      this.moves = g.moves.length;
    });
  }

  async analyse() {
    const s = this.state;
    const g = s.game;
    const k = s.ply;
    const body = { variant: g.variant, movetime_ms: parseInt(this.movetime.value, 10) };
    if (k === g.moves.length) body.fen = g.fen;
    else {
      body.fen = g.start_fen;
      body.moves = g.moves.slice(0, k).map((m) => m.uci);
    }
    const side = s.sideAfter(k);
    this.button.disabled = true;
    this.out.replaceChildren(h('div', { class: 'muted' }, 'Thinking\u2026'));
    try {
      this.show(await api.analysis(body), side, k);
    } catch (e) {
      this.out.replaceChildren(h('div', { class: 'error-text' }, e.message));
      notify(`Analysis failed: ${e.message}`);
    } finally {
      this.button.disabled = false;
    }
  }

  show(a, side, k) {
    const g = this.state.game;
    const { text, frac } = whiteScore(a, side);
    const line = (a.pv || []).map((u, i) => (a.pv_san || [])[i] || u);
    const pv = numberedLine(g, k, line).flatMap(({ label, san }) => [
      label ? h('span', { class: 'pv-num' }, label) : null, h('span', { class: 'pv-move' }, san)]);
    this.out.replaceChildren(
      h('div', { class: 'eval-row' },
        h('span', { class: 'eval-score', id: 'eval-score' }, text),
        h('div', { class: 'eval-line', title: 'White \u2194 Black' }, h('div', { class: 'eval-fill', style: `width:${(frac * 100).toFixed(1)}%` })),
        h('span', { class: 'muted small eval-best' }, a.bestmove ? `best ${line[0] || a.bestmove}` : '')),
      h('div', { class: 'pv', id: 'pv' }, pv.length ? pv : h('span', { class: 'muted' }, 'no line')),
      h('div', { class: 'muted small' }, `${k ? `Position after ${g.moves[k - 1].san || g.moves[k - 1].uci} (ply ${k})` : 'Start position'}; score from White's side, depth ${a.depth ?? '?'}.`));
  }
}
