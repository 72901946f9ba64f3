// The board: an SVG drawing of any of the three geometries from the server's board data
// (cells with q, r, level, x, y), its pieces, highlights and the player's input (click a piece
// then a destination, or drag and drop; Starchess placements from the hand).  Which moves are
// possible comes only from the server's `legal` list.

import { el, pieceNode, pieceStyle, pieceIcon } from './pieces.js';

const SQ = 100; // square size in SVG units
const HEX = 52; // hex radius (centre to corner) in SVG units
const SQRT3 = Math.sqrt(3);

function hexPoints(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(' ');
}

const mod = (a, n) => ((a % n) + n) % n;

export class Board {
  constructor(host, { onMove, onError } = {}) {
    this.host = host;
    this.onMove = onMove || (() => {});
    this.onError = onError || (() => {});
    this.variant = null;
    this.flipped = false;
    this.state = { pieces: new Map(), legal: [], last: null, check: null, interactive: false, hand: null };
    this.selected = null; // { from: cell } or { place: letter }
    this.drag = null;
    this.wrap = document.createElement('div');
    this.wrap.className = 'board';
    host.appendChild(this.wrap);
    this.svg = el('svg', { class: 'board-svg', role: 'img' });
    this.wrap.appendChild(this.svg);
    this.chooser = null;
    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.info = document.createElement('div');
    this.info.className = 'cell-info';
    this.info.hidden = true;
    this.wrap.appendChild(this.info);
    this.svg.addEventListener('pointermove', (e) => {
      const c = e.target.closest && e.target.closest('[data-cell]');
      const name = c && c.getAttribute('data-cell');
      if (!name || this.kind === 'square') {
        this.info.hidden = true;
        return;
      }
      const cell = this.pos.get(name).cell;
      this.info.hidden = false;
      this.info.textContent = `${name}${cell.drum ? ' \u00B7 Drum' : ''}`;
    });
    this.svg.addEventListener('pointerleave', () => { this.info.hidden = true; });
    this.onDocMove = (e) => this.pointerMove(e);
    this.onDocUp = (e) => this.pointerUp(e);
  }

  setVariant(variant) {
    this.variant = variant;
    this.style = pieceStyle(variant);
    this.selected = null;
    this.layout();
    this.draw();
  }

  setFlipped(f) {
    this.flipped = !!f;
    this.layout();
    this.draw();
  }

  // pieces: Map; legal: [...]; last: {from,to}|null; check: cell|null; interactive: bool.
  update(state) {
    const keepSel = this.selected && state.interactive && this.selectionMoves(state.legal, this.selected).length > 0;
    this.state = { ...this.state, ...state };
    if (!keepSel || state.resetSelection) this.selected = null;
    this.closeChooser();
    this.draw();
  }

  // ---- geometry ----
  layout() {
    const board = this.variant.board;
    const cells = board.cells;
    const kind = board.kind;
    this.kind = kind;
    this.pos = new Map();
    const xs = cells.map((c) => c.x);
    const ys = cells.map((c) => c.y);
    const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
    const fx = (x) => (this.flipped ? maxX - x : x - minX);
    const fy = (y) => (this.flipped ? maxY - y : y - minY);
    if (kind === 'square') {
      const m = 34;
      this.cellSize = SQ;
      for (const c of cells) this.pos.set(c.name, { cx: m + (fx(c.x) + 0.5) * SQ, cy: (fy(c.y) + 0.5) * SQ, cell: c });
      this.width = m + (maxX - minX + 1) * SQ + 6;
      this.height = (maxY - minY + 1) * SQ + m;
      this.margin = m;
    } else {
      const pad = kind === 'megastar' ? 46 : 10;
      const top = kind === 'megastar' ? 40 : 0;
      const bottom = kind === 'megastar' ? 40 : 0;
      this.cellSize = HEX * 1.55;
      const h = (SQRT3 / 2) * HEX;
      for (const c of cells) {
        this.pos.set(c.name, { cx: pad + HEX + fx(c.x) * 1.5 * HEX, cy: top + pad + h + fy(c.y) * h, cell: c });
      }
      this.width = 2 * pad + 2 * HEX + (maxX - minX) * 1.5 * HEX;
      this.height = top + bottom + 2 * pad + 2 * h + (maxY - minY) * h;
    }
    this.svg.setAttribute('viewBox', `0 0 ${this.width.toFixed(1)} ${this.height.toFixed(1)}`);
    this.svg.dataset.kind = kind;
    this.wrap.dataset.kind = kind;
    this.wrap.style.setProperty('--aspect', `${this.width / this.height}`);
  }

  cellShape(name, cls, parent, shrink = 0) {
    const p = this.pos.get(name);
    if (this.kind === 'square') {
      const s = SQ - 2 * shrink;
      return el('rect', { x: p.cx - s / 2, y: p.cy - s / 2, width: s, height: s, class: cls }, parent);
    }
    return el('polygon', { points: hexPoints(p.cx, p.cy, HEX - 1.2 - shrink), class: cls }, parent);
  }

  cellClass(c) {
    if (this.kind === 'square') return (c.q + c.r) % 2 === 1 ? 'light' : 'dark';
    const tone = ['t0', 't1', 't2'][mod(c.q - c.r, 3)];
    if (this.kind === 'megastar') return `${tone} ${c.drum ? 'drum' : 'rim'}`;
    return tone;
  }

  // ---- drawing ----
  draw() {
    if (!this.variant) return;
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const defs = el('defs', {}, svg);
    const grad = el('radialGradient', { id: 'check-grad' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#ff2a1a', 'stop-opacity': '1' }, grad);
    el('stop', { offset: '45%', 'stop-color': '#e8281a', 'stop-opacity': '.75' }, grad);
    el('stop', { offset: '100%', 'stop-color': '#a01010', 'stop-opacity': '0' }, grad);
    const cellsLayer = el('g', { class: 'cells' }, svg);
    const hlLayer = el('g', { class: 'highlights' }, svg);
    const pieceLayer = el('g', { class: 'pieces' }, svg);
    const hintLayer = el('g', { class: 'hints' }, svg);
    const { pieces, legal, last, check } = this.state;
    const isMega = this.kind === 'megastar';

    for (const c of this.variant.board.cells) {
      const p = this.pos.get(c.name);
      const shape = this.cellShape(c.name, `cell ${this.cellClass(c)}`, cellsLayer);
      shape.setAttribute('data-cell', c.name);
      el('title', {}, shape).textContent = c.drum ? `${c.name} (Drum)` : c.name;
      if (this.kind === 'square' && c.mark) {
        el('text', { x: p.cx - SQ / 2 + 7, y: p.cy - SQ / 2 + 7, class: `mark ${this.cellClass(c)}`, 'font-size': 22, 'dominant-baseline': 'hanging' }, cellsLayer).textContent = c.mark;
      }
      if (this.kind === 'hexstar') {
        el('text', { x: p.cx, y: p.cy - HEX * 0.62, class: 'cellnum', 'font-size': 15, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, cellsLayer).textContent = c.name;
      }
    }
    if (this.kind === 'square') this.drawCoords(cellsLayer);
    if (isMega) {
      this.drawLevelLabels(cellsLayer);
      const y = this.height - 22;
      const x = this.width / 2;
      el('polygon', { points: hexPoints(x - 330, y - 10, 16), class: 'cell t1 drum' }, cellsLayer);
      el('text', { x: x - 305, y: y - 10, class: 'legend', 'font-size': 26, 'dominant-baseline': 'central' }, cellsLayer).textContent = 'the Drum (61 cells a level)';
      el('polygon', { points: hexPoints(x + 90, y - 10, 16), class: 'cell t1 rim' }, cellsLayer);
      el('text', { x: x + 115, y: y - 10, class: 'legend', 'font-size': 26, 'dominant-baseline': 'central' }, cellsLayer).textContent = 'outside the Drum';
    }

    // Highlights: last move, check, selection.
    if (last) {
      for (const n of [last.from, last.to]) if (n && this.pos.has(n)) this.cellShape(n, 'hl last', hlLayer);
    }
    if (check && this.pos.has(check)) {
      const p = this.pos.get(check);
      el('circle', { cx: p.cx, cy: p.cy, r: this.cellSize * 0.5, class: 'hl check' }, hlLayer);
    }
    if (this.selected && this.selected.from) this.cellShape(this.selected.from, 'hl selected', hlLayer);

    // Pieces.
    const size = this.kind === 'square' ? SQ : HEX * 1.55;
    const dy = this.kind === 'hexstar' ? HEX * 0.1 : this.style === 'letter' && !isMega ? SQ * 0.04 : 0;
    for (const [name, piece] of pieces) {
      const p = this.pos.get(name);
      if (!p) continue;
      const g = pieceNode(this.style, piece, isMega ? size * 0.95 : this.style === 'letter' ? size * 0.88 : size);
      g.setAttribute('transform', `translate(${p.cx.toFixed(2)} ${(p.cy + dy).toFixed(2)})`);
      g.setAttribute('data-piece-cell', name);
      if (this.drag && this.drag.from === name && this.drag.active) g.classList.add('dragging');
      pieceLayer.appendChild(g);
    }

    // Destinations of the selected piece or hand piece.
    if (this.selected) {
      const seen = new Set();
      for (const m of this.selectionMoves(legal, this.selected)) {
        if (seen.has(m.to)) continue;
        seen.add(m.to);
        const p = this.pos.get(m.to);
        if (!p) continue;
        const capture = pieces.has(m.to) && !m.place;
        if (capture) el('circle', { cx: p.cx, cy: p.cy, r: this.cellSize * 0.43, class: 'dest capture', 'data-dest': m.to }, hintLayer);
        else el('circle', { cx: p.cx, cy: p.cy, r: this.cellSize * 0.15, class: 'dest', 'data-dest': m.to }, hintLayer);
      }
    }
    this.wrap.classList.toggle('interactive', !!this.state.interactive);
  }

  drawCoords(layer) {
    const files = new Map(), ranks = new Map();
    for (const c of this.variant.board.cells) {
      const p = this.pos.get(c.name);
      files.set(c.name[0], p.cx);
      ranks.set(c.name.slice(1), p.cy);
    }
    for (const [f, x] of files) el('text', { x, y: this.height - this.margin / 2 + 1, class: 'coord', 'font-size': 20, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, layer).textContent = f;
    for (const [r, y] of ranks) el('text', { x: this.margin / 2, y, class: 'coord', 'font-size': 20, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, layer).textContent = r;
  }

  drawLevelLabels(layer) {
    const groups = new Map();
    for (const c of this.variant.board.cells) {
      const key = c.name[0];
      const p = this.pos.get(c.name);
      const g = groups.get(key) || { min: Infinity, max: -Infinity };
      g.min = Math.min(g.min, p.cx);
      g.max = Math.max(g.max, p.cx);
      groups.set(key, g);
    }
    for (const [key, g] of groups) {
      el('text', { x: (g.min + g.max) / 2, y: 44, class: 'level-label', 'font-size': 38, 'text-anchor': 'middle' }, layer).textContent =
        key === 'U' ? 'Upper level (U)' : key === 'L' ? 'Lower level (L)' : `Level ${key}`;
    }
  }

  // ---- input ----
  selectionMoves(legal, sel) {
    if (!sel || !legal) return [];
    if (sel.place) return legal.filter((m) => m.place && m.place.toUpperCase() === sel.place);
    return legal.filter((m) => m.from === sel.from);
  }

  movable(name) {
    return this.state.interactive && this.state.legal.some((m) => m.from === name);
  }

  selectPlace(letter) {
    if (!this.state.interactive) return;
    if (this.selected && this.selected.place === letter) this.selected = null;
    else this.selected = { place: letter };
    this.draw();
    this.host.dispatchEvent(new CustomEvent('selection', { detail: this.selected }));
  }

  clearSelection() {
    this.selected = null;
    this.draw();
    this.host.dispatchEvent(new CustomEvent('selection', { detail: null }));
  }

  cellAt(clientX, clientY) {
    const hit = document.elementFromPoint(clientX, clientY);
    const cell = hit && hit.closest && hit.closest('[data-cell]');
    if (cell && this.svg.contains(cell)) return cell.getAttribute('data-cell');
    // Destination dots sit above the cells.
    const dest = hit && hit.closest && hit.closest('[data-dest]');
    if (dest && this.svg.contains(dest)) return dest.getAttribute('data-dest');
    return null;
  }

  clickCell(name) {
    if (this.selected) {
      const moves = this.selectionMoves(this.state.legal, this.selected).filter((m) => m.to === name);
      if (moves.length) {
        this.play(moves);
        return;
      }
    }
    if (name && this.movable(name)) {
      this.selected = { from: name };
      this.draw();
    } else if (this.selected) {
      this.clearSelection();
    }
  }

  pointerDown(e) {
    if (e.button !== 0) return;
    const name = this.cellAt(e.clientX, e.clientY);
    if (!name) return;
    if (this.movable(name)) {
      e.preventDefault();
      const wasSelected = this.selected && this.selected.from === name;
      this.selected = { from: name };
      this.draw();
      this.beginDrag(e, this.state.pieces.get(name), { from: name }, wasSelected);
    } else {
      this.clickCell(name);
    }
  }

  // Starts a (possible) drag of `piece` for selection `sel` (also used by the hand).
  beginDrag(e, piece, sel, wasSelected = false) {
    this.drag = { sel, from: sel.from || null, piece, x0: e.clientX, y0: e.clientY, active: false, wasSelected, ghost: null };
    document.addEventListener('pointermove', this.onDocMove);
    document.addEventListener('pointerup', this.onDocUp);
    document.addEventListener('pointercancel', this.onDocUp);
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d) return;
    if (!d.active && Math.hypot(e.clientX - d.x0, e.clientY - d.y0) > 5) {
      d.active = true;
      const rect = this.svg.getBoundingClientRect();
      const px = (this.cellSize * rect.width) / this.width;
      d.ghost = document.createElement('div');
      d.ghost.className = 'drag-ghost';
      d.ghost.appendChild(pieceIcon(this.style, d.piece, px * 1.05));
      d.ghost.style.width = d.ghost.style.height = `${px * 1.05}px`;
      document.body.appendChild(d.ghost);
      this.draw();
    }
    if (d.active) {
      d.ghost.style.left = `${e.clientX}px`;
      d.ghost.style.top = `${e.clientY}px`;
    }
  }

  pointerUp(e) {
    const d = this.drag;
    this.drag = null;
    document.removeEventListener('pointermove', this.onDocMove);
    document.removeEventListener('pointerup', this.onDocUp);
    document.removeEventListener('pointercancel', this.onDocUp);
    if (!d) return;
    if (d.ghost) d.ghost.remove();
    if (d.active) {
      const name = this.cellAt(e.clientX, e.clientY);
      const moves = this.selectionMoves(this.state.legal, d.sel).filter((m) => m.to === name);
      if (moves.length) {
        this.selected = d.sel;
        this.play(moves);
      } else {
        this.draw();
      }
    } else if (d.wasSelected) {
      this.clearSelection();
    }
  }

  // One destination: play it; several (promotion choices): ask.
  play(moves) {
    if (moves.length === 1) {
      this.selected = null;
      this.draw();
      this.onMove(moves[0].uci);
      return;
    }
    this.openChooser(moves);
  }

  openChooser(moves) {
    this.closeChooser();
    const white = this.state.side === 'white';
    const names = new Map((this.variant.pieces || []).map((p) => [p.letter.toUpperCase(), p.name.charAt(0).toUpperCase() + p.name.slice(1)]));
    const box = document.createElement('div');
    box.className = 'promotion-chooser';
    const title = document.createElement('div');
    title.className = 'promotion-title';
    box.appendChild(title);
    const promotions = new Set(moves.map((m) => m.promotion || ''));
    if (promotions.size !== moves.length || promotions.has('')) {
      // Two different moves to one cell (square-says: castling, or the royal's own move there).
      title.textContent = 'Which move?';
      const list = document.createElement('div');
      list.className = 'choice-list';
      for (const m of moves) {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'choice';
        b.dataset.uci = m.uci;
        b.textContent = m.castle ? `Castle (${m.uci})` : `${m.promotion ? `Promote to ${names.get(m.promotion.toUpperCase()) || m.promotion}` : 'Move'} (${m.uci})`;
        b.addEventListener('click', () => {
          this.closeChooser();
          this.selected = null;
          this.draw();
          this.onMove(m.uci);
        });
        list.appendChild(b);
      }
      box.appendChild(list);
      this.addCancel(box);
      return;
    }
    title.textContent = 'Promote to';
    const grid = document.createElement('div');
    grid.className = 'promotion-grid';
    box.appendChild(grid);
    for (const m of moves) {
      const letter = (m.promotion || '').toUpperCase();
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'promo';
      b.dataset.promo = letter.toLowerCase();
      b.title = names.get(letter) || letter;
      b.appendChild(pieceIcon(this.style, { letter, white }, 46));
      const cap = document.createElement('span');
      cap.textContent = names.get(letter) || letter;
      b.appendChild(cap);
      b.addEventListener('click', () => {
        this.closeChooser();
        this.selected = null;
        this.draw();
        this.onMove(m.uci);
      });
      grid.appendChild(b);
    }
    this.addCancel(box);
  }

  addCancel(box) {
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'promo-cancel';
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => {
      this.closeChooser();
      this.clearSelection();
    });
    box.appendChild(cancel);
    this.wrap.appendChild(box);
    this.chooser = box;
  }

  closeChooser() {
    if (this.chooser) this.chooser.remove();
    this.chooser = null;
  }
}
