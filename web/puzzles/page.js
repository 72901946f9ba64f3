// Puzzles (#/puzzles/VARIANT[?n=N]): mate-in-N positions found in the engine's self-play and
// proven by exhaustive search (data/puzzles/).  One at a time: the player moves, the server
// judges each move and answers with the best defence, until the puzzle is solved or failed.

import { api } from '../api.js';
import { Board } from '../board.js';
import { parseFen } from '../position.js';
import { h, variantTitle, notify } from '../ui.js';
import { RULES_FILES } from '../rules/page.js';

const SOLVED_KEY = 'starfish:puzzles-solved';

function solvedSet(variant) {
  try {
    return new Set(JSON.parse(localStorage.getItem(SOLVED_KEY) || '{}')[variant] || []);
  } catch {
    return new Set();
  }
}

function markSolved(variant, number) {
  try {
    const all = JSON.parse(localStorage.getItem(SOLVED_KEY) || '{}');
    all[variant] = [...new Set([...(all[variant] || []), number])];
    localStorage.setItem(SOLVED_KEY, JSON.stringify(all));
  } catch {
    /* private mode: progress holds for this page */
  }
}

const sideName = (side) => (side === 'white' ? 'White' : 'Black');

export class PuzzlesView {
  constructor(root, variants, name, params) {
    this.root = root;
    this.variant = variants.find((v) => v.name === name);
    this.name = name;
    this.params = params;
    this.destroyed = false;
  }

  async start() {
    if (!this.variant) throw new Error(`unknown variant '${this.name}'`);
    const set = await api.puzzles(this.name);
    if (this.destroyed) return;
    this.list = set.puzzles;
    document.title = `${variantTitle(this.name)} puzzles \u2014 starfish`;
    this.title = h('h1', {}, `${variantTitle(this.name)} puzzles`);
    this.task = h('p', { class: 'puzzle-task', id: 'puzzle-task' });
    this.state = h('p', { class: 'puzzle-state', id: 'puzzle-state', role: 'status' });
    this.line = h('p', { class: 'puzzle-line muted', id: 'puzzle-line' });
    this.about = h('p', { class: 'muted small', id: 'puzzle-about' });
    this.retry = h('button', { type: 'button', id: 'puzzle-retry', onclick: () => this.show(this.number) }, '\u21BA Try again');
    this.next = h('button', { type: 'button', class: 'primary', id: 'puzzle-next', onclick: () => this.go(this.number % this.list.length + 1) }, 'Next puzzle \u203A');
    this.picker = h('select', { id: 'puzzle-pick', 'aria-label': 'Puzzle', onchange: (e) => this.go(Number(e.target.value)) });
    const host = h('div', { class: 'puzzle-board' });
    this.board = new Board(host, { onMove: (uci) => this.play(uci), sizeOf: () => ({ width: host.clientWidth, height: window.innerHeight * 0.78 }) });
    this.board.setVariant(this.variant);
    this.root.replaceChildren(h('div', { class: 'puzzles-page', 'data-variant': this.name },
      h('div', { class: 'puzzle-main' }, host),
      h('section', { class: 'card puzzle-card' }, this.title,
        this.list.length ? null : h('p', {}, 'No puzzles for this game yet.'),
        h('div', { class: 'copy-row' }, this.picker), this.task, this.state, this.line,
        h('div', { class: 'copy-row' }, this.retry, this.next), this.about,
        RULES_FILES[this.name] ? h('p', { class: 'small' }, h('a', { href: `#/rules/${this.name}` }, `Rules of ${variantTitle(this.name)}`)) : null)));
    if (!this.list.length) return;
    this.renderPicker();
    const n = Number(this.params.get('n'));
    await this.show(n >= 1 && n <= this.list.length ? n : 1);
  }

  destroy() {
    this.destroyed = true;
    this.board.destroy();
  }

  renderPicker() {
    const solved = solvedSet(this.name);
    this.picker.replaceChildren(...this.list.map((p) => h('option', { value: p.number, selected: p.number === this.number },
      `${solved.has(p.number) ? '\u2713 ' : ''}Puzzle ${p.number}: mate in ${p.mate}`)));
  }

  go(number) {
    history.replaceState(null, '', `#/puzzles/${this.name}?n=${number}`);
    this.show(number);
  }

  async show(number) {
    this.number = number;
    this.puzzle = this.list[number - 1];
    this.moves = [];
    const p = this.puzzle;
    this.renderPicker();
    this.task.textContent = `${sideName(p.side)} to play and mate in ${p.mate}.`;
    this.about.textContent = `Found in the engine's self-play (${p.source}); proven by ${p.proof}.`;
    this.setState('going-on', 'Your move.');
    this.line.textContent = '';
    const pos = await api.position({ variant: this.name, fen: p.fen });
    if (this.number !== number || this.destroyed) return;
    this.board.setFlipped(p.side === 'black');
    this.showPosition(pos, true);
  }

  setState(state, text) {
    this.state.textContent = text;
    this.state.dataset.state = state;
    this.root.querySelector('.puzzles-page').dataset.state = state;
    this.retry.hidden = state !== 'failed';
  }

  showPosition(pos, interactive) {
    this.board.update({ pieces: parseFen(this.variant.board, pos.fen), legal: interactive ? pos.legal : [], last: pos.last, check: pos.check, side: pos.side, interactive, resetSelection: true });
  }

  async play(uci) {
    const number = this.number;
    const moves = [...this.moves, uci];
    this.board.update({ interactive: false, legal: [] });
    this.setState('thinking', 'Checking\u2026');
    let r;
    try {
      r = await api.puzzleMove(this.name, number, moves);
    } catch (e) {
      notify(e.message || String(e));
      this.setState('going-on', 'Your move.');
      const pos = await api.position({ variant: this.name, fen: this.puzzle.fen, moves: this.moves });
      if (this.number === number) this.showPosition(pos, true);
      return;
    }
    if (this.number !== number || this.destroyed) return;
    this.moves = r.moves.map((m) => m.uci);
    this.root.querySelector('.puzzles-page').dataset.moves = this.moves.join(' ');
    this.line.textContent = r.moves.map((m) => m.san).join(' ');
    if (r.state === 'solved') {
      markSolved(this.name, number);
      this.renderPicker();
      this.setState('solved', `Solved: ${r.moves[r.moves.length - 1].san} is checkmate.`);
    } else if (r.state === 'failed') {
      this.setState('failed', `Not this time: ${r.why}. The solution: ${r.solution.map((m) => m.san).join(' ')}.`);
    } else {
      this.setState('going-on', `${r.moves[r.moves.length - 1].san} is the best defence. Mate in ${r.left} more.`);
    }
    this.showPosition(r, r.state === 'going-on');
  }
}
