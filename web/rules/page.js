// The rules page of a game (#/rules/VARIANT): the rules in the project's own words
// (web/rules/GAME.json, one file per game, from ../shared/rules and docs/rules-decisions.md),
// drawn with the games' own board code: piece-move diagrams from the server's move generation
// and the documents' examples as positions to step through and play on.

import { api } from '../api.js';
import { Board } from '../board.js';
import { parseFen } from '../position.js';
import { pieceIcon, pieceNames } from '../pieces.js';
import { h, variantTitle, resultText } from '../ui.js';

// The page that teaches each variant (a file per game; chess has none).
export const RULES_FILES = {
  starchess: 'starchess', 'starchess-ludii': 'starchess', 'square-says': 'square-says', 'square-says-reversed': 'square-says',
  megastar: 'megastar', starvation: 'starvation',
};

// Links to the game's rules page (where it has one) and puzzles: the lobby, the game page.
export function learnLinks(name) {
  const puzzles = h('a', { href: `#/puzzles/${name}`, class: 'puzzles-link' }, `${variantTitle(name)} puzzles`);
  return h('p', { class: 'learn-links small' },
    RULES_FILES[name] ? [h('a', { href: `#/rules/${name}`, class: 'rules-link' }, `Rules of ${variantTitle(name)}`), ' \u00B7 '] : null, puzzles);
}

// A board in a box of its own on the page.
function smallBoard(variant, callbacks = {}) {
  const host = h('div', { class: 'rules-board' });
  const board = new Board(host, { ...callbacks, sizeOf: () => ({ width: host.clientWidth, height: Math.min(window.innerHeight * 0.7, 560) }) });
  board.setVariant(variant);
  return { host, board };
}

function paragraphs(text) {
  return (text || []).map((t) => (typeof t === 'string' ? h('p', {}, t) : h('ul', {}, t.list.map((item) => h('li', {}, item)))));
}

// Pick a piece kind and a cell: where that piece could go from there on an empty board.
class PieceDiagram {
  constructor(variant, spec) {
    this.variant = variant;
    this.spec = spec;
    this.letter = Object.keys(spec.pieces)[0];
    this.cell = spec.cell;
    const names = pieceNames(variant);
    const { host, board } = smallBoard(variant, { onCellClick: (cell) => this.show(this.letter, cell) });
    this.board = board;
    this.about = h('p', { class: 'diagram-about', id: 'diagram-about' });
    this.buttons = Object.keys(spec.pieces).map((letter) => h('button', {
      type: 'button', class: 'diagram-piece ghost', 'data-piece': letter, title: names.get(letter) || letter, 'aria-label': names.get(letter) || letter,
      onclick: () => this.show(letter, this.cell),
    }, pieceIcon({ letter, white: true }, 34, names)));
    this.element = h('div', { class: 'piece-diagram', id: 'piece-diagram' },
      h('div', { class: 'diagram-pieces', role: 'toolbar', 'aria-label': 'Pieces' }, this.buttons), this.about, host,
      h('p', { class: 'muted small' }, 'Click any cell to put the piece there. Blue dots: it moves there; red rings: it captures there only; both: either.'));
    this.show(this.letter, this.cell);
  }

  async show(letter, cell) {
    this.letter = letter;
    this.cell = cell;
    for (const b of this.buttons) b.classList.toggle('checked', b.dataset.piece === letter);
    const name = pieceNames(this.variant).get(letter) || letter;
    this.about.replaceChildren(h('strong', {}, `${name[0].toUpperCase()}${name.slice(1)} on ${cell}: `), this.spec.pieces[letter]);
    const r = await api.pieceMoves(this.variant.name, letter, cell);
    if (this.letter !== letter || this.cell !== cell) return;
    const marks = r.targets.map((t) => ({ cell: t.to, kind: t.quiet && t.capture ? 'both' : t.capture ? 'capture' : 'move' }));
    this.board.update({ pieces: new Map([[cell, { letter, white: true }]]), marks, legal: [], interactive: false });
    this.element.dataset.targets = String(marks.length);
  }

  destroy() {
    this.board.destroy();
  }
}

// An example of the documents: a position and the moves of the record, stepped through with
// notes; the reader may play moves of their own on it at any point.
class Example {
  constructor(variant, ex, id) {
    this.variant = variant;
    this.ex = ex;
    this.start = ex.fen || variant.start_fen;
    this.line = [...(ex.moves || [])];
    this.ply = 0;
    const { host, board } = smallBoard(variant, { onMove: (uci) => this.play(uci) });
    this.board = board;
    const btn = (cls, label, title, onclick) => h('button', { type: 'button', class: `icon ${cls}`, title, 'aria-label': title, onclick }, label);
    this.count = h('span', { class: 'ply-info example-ply' });
    this.status = h('p', { class: 'example-status' });
    this.note = h('p', { class: 'example-note', 'aria-live': 'polite' });
    this.element = h('div', { class: 'card example', id: `example-${id}`, 'data-example': id },
      h('div', { class: 'card-title' }, ex.title), host,
      h('div', { class: 'move-nav' },
        btn('ex-start', '\u00AB', 'Start of the example', () => this.show(0)),
        btn('ex-prev', '\u2039', 'Previous move', () => this.show(Math.max(0, this.ply - 1))),
        this.count,
        btn('ex-next', '\u203A', 'Next move', () => this.show(Math.min(this.line.length, this.ply + 1)))),
      this.note, this.status, ex.try ? h('p', { class: 'muted small' }, ex.try) : null);
    this.show(0);
  }

  // Is the line shown still the record's?
  onRecord(ply) {
    return this.line.slice(0, ply).every((m, i) => m === (this.ex.moves || [])[i]);
  }

  async show(ply) {
    this.ply = ply;
    const pos = await api.position({ variant: this.variant.name, fen: this.start, moves: this.line.slice(0, ply) });
    if (this.ply !== ply) return;
    this.pos = pos;
    const over = pos.status === 'over';
    this.board.update({ pieces: parseFen(this.variant.board, pos.fen), legal: over ? [] : pos.legal, last: pos.last, check: pos.check, side: pos.side, interactive: !over, marks: [] });
    this.count.textContent = `${ply} / ${this.line.length}`;
    const last = ply ? pos.moves[ply - 1].san : null;
    const notes = this.ex.notes || [];
    this.note.textContent = !ply ? this.ex.intro || (this.line.length ? 'Step through the moves with \u203A, or play a move on the board.' : 'Play a move on the board.')
      : this.onRecord(ply) ? `${last}: ${notes[ply - 1] || ''}` : `${last} (your own move: the record is left behind)`;
    this.status.textContent = over ? resultText(pos.result, pos.reason) : `${pos.side === 'white' ? 'White' : 'Black'} to move`;
    this.element.dataset.ply = String(ply);
    this.element.dataset.status = over ? `${pos.result} ${pos.reason}` : 'ongoing';
  }

  play(uci) {
    this.line = [...this.line.slice(0, this.ply), uci];
    this.show(this.ply + 1);
  }

  destroy() {
    this.board.destroy();
  }
}

export class RulesView {
  constructor(root, variants, name) {
    this.root = root;
    this.variants = variants;
    this.name = name;
    this.parts = [];
  }

  async start() {
    const variant = this.variants.find((v) => v.name === this.name);
    const file = RULES_FILES[this.name];
    if (!variant || !file) throw new Error(`no rules page for '${this.name}'`);
    const res = await fetch(`rules/${file}.json`);
    if (!res.ok) throw new Error(`the rules of ${variantTitle(this.name)} could not be loaded (HTTP ${res.status})`);
    const doc = await res.json();
    document.title = `Rules of ${doc.game} \u2014 starfish`;
    const others = doc.variants.filter((v) => v !== this.name);
    const page = h('article', { class: 'rules-page', 'data-variant': this.name },
      h('h1', {}, `The rules of ${doc.game}`),
      h('p', { class: 'rules-summary' }, doc.summary),
      h('p', { class: 'muted small' }, doc.sources),
      h('p', { class: 'rules-actions' },
        h('a', { href: `#/?variant=${encodeURIComponent(this.name)}`, class: 'button', id: 'rules-play' }, `Play ${variantTitle(this.name)}`),
        ' ', h('a', { href: `#/puzzles/${this.name}`, class: 'button ghost', id: 'rules-puzzles' }, 'Puzzles'),
        others.length ? h('span', { class: 'muted small' }, ' Also: ', others.map((v) => h('a', { href: `#/rules/${v}` }, variantTitle(v)))) : null),
      h('nav', { class: 'rules-toc', 'aria-label': 'Contents' }, h('ol', {}, doc.sections.map((s) => h('li', {}, h('a', { href: `#/rules/${this.name}`, 'data-section': s.id, onclick: (e) => { e.preventDefault(); document.getElementById(`rules-${s.id}`)?.scrollIntoView(); } }, s.title))))),
      doc.sections.map((s) => this.section(variant, s, this.variants.find((v) => v.name === doc.variants[0]))));
    this.root.replaceChildren(page);
  }

  // A section; its examples are played by the rules of the page's first variant (the
  // official rules: Starchess's examples are of its rules, not Ludii's).
  section(variant, s, examplesVariant) {
    const parts = [];
    if (s.board) {
      const { host, board } = smallBoard(variant);
      board.update({ pieces: parseFen(variant.board, s.board.fen || variant.start_fen), legal: [], interactive: false });
      this.parts.push(board);
      parts.push(host);
    }
    if (s.diagram) {
      const d = new PieceDiagram(variant, s.diagram);
      this.parts.push(d);
      parts.push(d.element);
    }
    (s.examples || []).forEach((ex, i) => {
      const e = new Example(examplesVariant, ex, `${s.id}-${i + 1}`);
      this.parts.push(e);
      parts.push(e.element);
    });
    return h('section', { class: 'rules-section', id: `rules-${s.id}` }, h('h2', {}, s.title), paragraphs(s.text), parts);
  }

  destroy() {
    for (const p of this.parts) p.destroy();
  }
}
