// The board: one SVG drawing routine for every geometry, from the server's board description
// (docs/api.md, BOARD: cell centres and colours in one coordinate space, the outline every
// cell shares, labels, level layouts), its pieces and highlights, and the player's input:
// click or drag a piece (or a piece in hand) to a destination, the keyboard (arrow keys move a
// cursor between cells, Enter picks and drops), and premoves while the opponent is to move.
// Which moves are possible comes only from the server's `legal` list.

import { el, pieceNode, pieceIcon, pieceNames } from './pieces.js';
import { openChooser } from './chooser.js';

const DRAG_THRESHOLD = 5; // px a pointer moves before a press becomes a drag

// The convex hull of points [x, y] (Andrew's monotone chain), counter-clockwise.
function convexHull(points) {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list) => {
    const out = [];
    for (const q of list) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], q) <= 0) out.pop();
      out.push(q);
    }
    out.pop();
    return out;
  };
  return [...half(p), ...half(p.reverse())];
}

export class Board {
  // Callbacks: onMove(uci), onPremove(premove | null), onSelection(selection | null),
  // onLayout(aspect), onCursor(cell), onCellClick(cell) (a click that plays and picks up
  // nothing); sizeOf() -> { width, height } the board may fill.
  constructor(host, callbacks = {}) {
    this.host = host;
    this.on = { onMove() {}, onPremove() {}, onSelection() {}, onLayout() {}, onCursor() {}, onCellClick() {}, ...callbacks };
    this.sizeOf = callbacks.sizeOf || (() => ({ width: host.clientWidth, height: window.innerHeight }));
    this.variant = null;
    this.flipped = false;
    this.state = { pieces: new Map(), legal: [], last: null, check: null, interactive: false, premoveSide: null, premove: null, arrows: [], marks: [] };
    this.selected = null; // { from: cell } or { place: letter }
    this.drag = null;
    this.cursor = null; // the keyboard's cell
    this.chooser = null;
    this.wrap = document.createElement('div');
    this.wrap.className = 'board';
    this.wrap.tabIndex = 0;
    this.wrap.setAttribute('role', 'application');
    this.wrap.setAttribute('aria-roledescription', 'board');
    host.appendChild(this.wrap);
    this.svg = el('svg', { class: 'board-svg', role: 'presentation' });
    this.wrap.appendChild(this.svg);
    this.svg.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.svg.addEventListener('contextmenu', (e) => this.cancelPremove(e));
    this.svg.addEventListener('pointermove', (e) => this.hover(e));
    this.svg.addEventListener('pointerleave', () => this.hover(null));
    this.wrap.addEventListener('keydown', (e) => this.key(e));
    this.wrap.addEventListener('focus', () => this.showCursor());
    this.onDocMove = (e) => this.pointerMove(e);
    this.onDocUp = (e) => this.pointerUp(e);
    this.resizer = new ResizeObserver(() => this.relayout());
    this.resizer.observe(host);
  }

  destroy() {
    this.resizer.disconnect();
    this.closeChooser();
  }

  setVariant(variant) {
    this.variant = variant;
    this.board = variant.board;
    this.view = variant.board.view;
    this.names = pieceNames(variant);
    this.cells = new Map(this.board.cells.map((c) => [c.name, c]));
    this.selected = null;
    this.layout = null;
    this.relayout(true);
  }

  setFlipped(f) {
    this.flipped = !!f;
    this.drawStatic();
    this.draw();
  }

  // pieces: Map; legal: [...]; last: {from,to}|null; check: cell|null; interactive: bool;
  // premoveSide: the side that may premove now, or null; premove: {from|place, to}|null;
  // arrows: [{ from, to, kind }]; marks: [{ cell, kind }] (dots of a piece-move diagram).
  update(state) {
    const keepSel = this.selected && (state.interactive ? this.selectionMoves(state.legal, this.selected).length > 0 : state.premoveSide);
    this.state = { ...this.state, ...state };
    if (!keepSel || state.resetSelection) this.selected = null;
    if (!state.interactive) this.closeChooser();
    this.draw();
  }

  // ---- geometry ----

  // The layout that gives the largest cells in the room there is.
  relayout(force = false) {
    if (!this.view) return;
    const { width, height } = this.sizeOf();
    let best = this.view.layouts[0];
    let bestScale = 0;
    for (const l of this.view.layouts) {
      const scale = Math.min(width / l.width, height / l.height);
      if (scale > bestScale * 1.02) {
        best = l;
        bestScale = scale;
      }
    }
    // Cell names too small to read on this screen are left out.
    const scale = Math.min(width, height * (best.width / best.height)) / best.width;
    const text = this.view.cell.text;
    this.wrap.classList.toggle('texts-tiny', !!text && text.size * scale < 7);
    if (best === this.layout && !force) return;
    this.layout = best;
    this.svg.setAttribute('viewBox', `0 0 ${best.width} ${best.height}`);
    this.wrap.dataset.layout = best.name;
    this.wrap.dataset.tones = this.view.tones;
    this.wrap.style.setProperty('--aspect', `${best.width / best.height}`);
    this.drawStatic();
    this.draw();
    this.on.onLayout(best.width / best.height);
  }

  // The centre of a cell on the page, in board units.
  at(name) {
    const c = this.cells.get(name);
    const [dx, dy] = this.layout.levels[c.level];
    const x = dx + c.cx;
    const y = dy + c.cy;
    if (!this.flipped) return { x, y };
    const [px, py] = this.layout.pivot;
    return { x: 2 * px - x, y: 2 * py - y };
  }

  outline(name, cls, parent, scale = 1) {
    const { x, y } = this.at(name);
    const points = this.view.cell.points.map(([px, py]) => `${(x + px * scale).toFixed(1)},${(y + py * scale).toFixed(1)}`).join(' ');
    return el('polygon', { points, class: cls }, parent);
  }

  get cellSize() {
    return Math.min(this.view.cell.width, this.view.cell.height);
  }

  // ---- drawing ----

  // Cells, their texts and the labels: drawn again only when the layout or the side changes.
  drawStatic() {
    if (!this.layout) return;
    const svg = this.svg;
    svg.replaceChildren();
    const defs = el('defs', {}, svg);
    const grad = el('radialGradient', { id: 'check-grad' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#ff2a1a', 'stop-opacity': '1' }, grad);
    el('stop', { offset: '45%', 'stop-color': '#e8281a', 'stop-opacity': '.75' }, grad);
    el('stop', { offset: '100%', 'stop-color': '#a01010', 'stop-opacity': '0' }, grad);
    for (const kind of ['best', 'alt']) {
      const marker = el('marker', { id: `arrow-head-${kind}`, viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: 'auto' }, defs);
      el('path', { d: 'M0 0 L10 5 L0 10 Z', class: `arrow-head ${kind}` }, marker);
    }
    if (this.layout.levels.length > 1) this.drawLevelOutlines(el('g', { class: 'level-outlines' }, svg));
    const cells = el('g', { class: 'cells' }, svg);
    const zones = new Map((this.view.zones || []).map((z, i) => [z.id, i]));
    for (const c of this.board.cells) {
      const zone = c.zone ? ` zone-${zones.get(c.zone)}` : '';
      const shape = this.outline(c.name, `cell t${c.tone}${zone}`, cells);
      shape.setAttribute('data-cell', c.name);
      shape.id = `cell-${this.host.id || 'b'}-${c.name}`;
      if (c.zone) shape.setAttribute('data-zone', c.zone);
    }
    this.layers = {
      highlights: el('g', { class: 'highlights' }, svg),
      texts: el('g', { class: 'cell-texts' }, svg),
      pieces: el('g', { class: 'pieces' }, svg),
      hints: el('g', { class: 'hints' }, svg),
      arrows: el('g', { class: 'arrows' }, svg),
    };
    this.drawTexts(this.layers.texts);
    const labels = el('g', { class: 'labels' }, svg);
    for (const l of this.layout.labels) {
      el('text', {
        x: this.flipped ? l.fx : l.x, y: this.flipped ? l.fy : l.y, 'font-size': l.size, class: `board-label ${l.kind} level-${l.level}`,
        'text-anchor': this.flipped ? l.fanchor : l.anchor, 'dominant-baseline': 'central',
      }, labels).textContent = l.text;
    }
  }

  // Boards of several levels: each level's outline (the hull of its cells) behind it, so that
  // levels nested close together stay apart to the eye.
  drawLevelOutlines(layer) {
    this.layout.levels.forEach((_, level) => {
      const corners = [];
      for (const c of this.board.cells) {
        if (c.level !== level) continue;
        const { x, y } = this.at(c.name);
        for (const [px, py] of this.view.cell.points) corners.push([x + px, y + py]);
      }
      const points = convexHull(corners).map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
      el('polygon', { points, class: `level-outline level-${level}`, 'data-level': level }, layer);
    });
  }

  // Cell names (hideable) and marks, in a corner of each cell, above the pieces.
  drawTexts(layer) {
    const { text, mark } = this.view.cell;
    for (const c of this.board.cells) {
      const p = this.at(c.name);
      if (text && c.text) {
        el('text', { x: p.x + text.dx, y: p.y + text.dy, 'font-size': text.size, class: `cell-text t${c.tone}`, 'dominant-baseline': 'hanging' }, layer).textContent = c.text;
      }
      if (mark && c.mark) {
        el('text', { x: p.x + mark.dx, y: p.y + mark.dy, 'font-size': mark.size, class: `mark t${c.tone}`, 'dominant-baseline': 'hanging' }, layer).textContent = c.mark;
      }
    }
  }

  // Highlights, pieces, destinations and arrows: drawn on every update.
  draw() {
    if (!this.layout) return;
    const { highlights, pieces: pieceLayer, hints, arrows } = this.layers;
    for (const layer of [highlights, pieceLayer, hints, arrows]) layer.replaceChildren();
    const { pieces, legal, last, check, premove } = this.state;
    if (last) for (const n of [last.from, last.to]) if (n && this.cells.has(n)) this.outline(n, 'hl last', highlights);
    if (premove) for (const n of [premove.from, premove.to]) if (n && this.cells.has(n)) this.outline(n, 'hl premove', highlights);
    if (check && this.cells.has(check)) {
      const p = this.at(check);
      el('circle', { cx: p.x, cy: p.y, r: this.cellSize * 0.5, class: 'hl check' }, highlights);
    }
    if (this.selected && this.selected.from) this.outline(this.selected.from, 'hl selected', highlights);
    if (this.cursor && this.cells.has(this.cursor) && this.wrap.classList.contains('keyboard')) this.outline(this.cursor, 'hl cursor', highlights, 0.92);

    const { size, dy } = this.view.cell.piece;
    for (const [name, piece] of pieces) {
      if (!this.cells.has(name)) continue;
      const p = this.at(name);
      const g = pieceNode(piece, size, this.names);
      g.setAttribute('transform', `translate(${p.x.toFixed(1)} ${(p.y + dy).toFixed(1)})`);
      g.setAttribute('data-piece-cell', name);
      this.describePiece(g, piece, name, size);
      if (this.drag && this.drag.from === name && this.drag.active) g.classList.add('dragging');
      pieceLayer.appendChild(g);
    }

    if (this.selected && this.state.interactive) {
      const seen = new Set();
      for (const m of this.selectionMoves(legal, this.selected)) {
        if (seen.has(m.to) || !this.cells.has(m.to)) continue;
        seen.add(m.to);
        const p = this.at(m.to);
        const capture = pieces.has(m.to) && !m.place;
        // Starvation: the moved piece would be removed there (the rules' event).
        const dies = m.removed ? ' dies' : '';
        el('circle', { cx: p.x, cy: p.y, r: this.cellSize * (capture ? 0.44 : 0.2), class: `${capture ? 'dest capture' : 'dest'}${dies}`, 'data-dest': m.to }, hints);
      }
    }
    for (const m of this.state.marks || []) {
      if (!this.cells.has(m.cell)) continue;
      const p = this.at(m.cell);
      el('circle', { cx: p.x, cy: p.y, r: this.cellSize * (m.kind === 'capture' ? 0.4 : 0.2), class: `mark-dot ${m.kind}`, 'data-mark': m.cell }, hints);
    }
    for (const a of this.state.arrows || []) this.drawArrow(a, arrows);
    this.wrap.classList.toggle('interactive', !!this.state.interactive);
    this.wrap.classList.toggle('premovable', !!this.state.premoveSide);
    this.describe();
  }

  // A piece's tooltip (colour, name, and what the rules call it there: Starchess's limping
  // pawn, dead pawn, mummy) and the limping pawn's mark.
  describePiece(g, piece, cell, size) {
    const term = (this.variant.terms || []).find((t) => t.piece === piece.letter && (t.limping ? piece.limping : t.cells.includes(cell)));
    const name = `${piece.white ? 'White' : 'Black'} ${this.names.get(piece.letter) || piece.letter}`;
    el('title', {}, g).textContent = term ? `${name}: ${term.name} (${term.about})` : name;
    if (term) g.setAttribute('data-term', term.name);
    if (piece.limping) {
      const mark = el('g', { class: 'limp-mark', transform: `translate(${size * 0.3} ${size * 0.28})` }, g);
      el('circle', { r: size * 0.17 }, mark);
      el('text', { 'font-size': size * 0.3, 'text-anchor': 'middle', 'dominant-baseline': 'central' }, mark).textContent = '~';
    }
  }

  drawArrow(a, layer) {
    if (!this.cells.has(a.to)) return;
    const q = this.at(a.to);
    const cls = `arrow ${a.kind || ''}`;
    if (!a.from || !this.cells.has(a.from)) {
      el('circle', { cx: q.x, cy: q.y, r: this.cellSize * 0.42, class: `${cls} ring` }, layer);
      return;
    }
    const p = this.at(a.from);
    const len = Math.hypot(q.x - p.x, q.y - p.y) || 1;
    const back = this.cellSize * 0.3; // stop short of the centre: the head ends inside the cell
    const x2 = q.x - ((q.x - p.x) / len) * back;
    const y2 = q.y - ((q.y - p.y) / len) * back;
    el('line', { x1: p.x, y1: p.y, x2, y2, class: cls, 'stroke-width': this.cellSize * 0.16, 'marker-end': `url(#arrow-head-${a.kind === 'alt' ? 'alt' : 'best'})` }, layer);
  }

  // ---- input ----

  selectionMoves(legal, sel) {
    if (!sel || !legal) return [];
    if (sel.place) return legal.filter((m) => m.place && m.place.toUpperCase() === sel.place);
    return legal.filter((m) => m.from === sel.from);
  }

  // A piece the player may pick up now: to move it, or to premove it.
  pickable(name) {
    const s = this.state;
    if (s.interactive) return s.legal.some((m) => m.from === name);
    const piece = s.premoveSide && s.pieces.get(name);
    return !!piece && piece.white === (s.premoveSide === 'white');
  }

  select(sel) {
    this.selected = sel;
    this.draw();
    this.on.onSelection(sel);
  }

  // A hand piece chosen (Starchess placements); choosing it again puts it back.
  selectPlace(letter) {
    if (!this.state.interactive && !this.state.premoveSide) return;
    this.select(this.selected && this.selected.place === letter ? null : { place: letter });
  }

  clearSelection() {
    if (this.selected) this.select(null);
  }

  cellAt(clientX, clientY) {
    const hit = document.elementFromPoint(clientX, clientY);
    const cell = hit && hit.closest && hit.closest('[data-cell], [data-dest]');
    if (!cell || !this.svg.contains(cell)) return null;
    return cell.getAttribute('data-cell') || cell.getAttribute('data-dest');
  }

  // A click (or Enter) on a cell: drop the selection there, or pick up what stands there.
  clickCell(name) {
    if (this.selected && this.drop(this.selected, name)) return;
    if (name && this.pickable(name) && !(this.selected && this.selected.from === name)) {
      if (this.state.premove) this.setPremove(null);
      this.select({ from: name });
    } else {
      this.clearSelection();
      if (this.state.premove) this.setPremove(null);
      if (name) this.on.onCellClick(name);
    }
  }

  // Plays (or premoves) selection `sel` to cell `to`; false when that is no move.
  drop(sel, to) {
    if (this.state.interactive) {
      const moves = this.selectionMoves(this.state.legal, sel).filter((m) => m.to === to);
      if (!moves.length) return false;
      this.play(moves);
      return true;
    }
    if (!this.state.premoveSide || !to || sel.from === to) return false;
    this.selected = null;
    this.setPremove(sel.place ? { place: sel.place, to } : { from: sel.from, to });
    return true;
  }

  setPremove(premove) {
    this.state.premove = premove;
    this.draw();
    this.on.onPremove(premove);
  }

  cancelPremove(e) {
    e.preventDefault();
    this.selected = null;
    if (this.state.premove) this.setPremove(null);
    else this.draw();
  }

  pointerDown(e) {
    if (e.button !== 0) return;
    this.wrap.classList.remove('keyboard');
    const name = this.cellAt(e.clientX, e.clientY);
    if (!name) return;
    if (this.selected && this.selected.from !== name && this.drop(this.selected, name)) return;
    if (this.pickable(name)) {
      e.preventDefault();
      const wasSelected = this.selected && this.selected.from === name;
      if (this.state.premove) this.setPremove(null);
      this.select({ from: name });
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
    if (!d.active && Math.hypot(e.clientX - d.x0, e.clientY - d.y0) > DRAG_THRESHOLD) {
      d.active = true;
      const rect = this.svg.getBoundingClientRect();
      const px = (this.view.cell.piece.size * rect.width) / this.layout.width;
      d.ghost = document.createElement('div');
      d.ghost.className = 'drag-ghost';
      d.ghost.appendChild(pieceIcon(d.piece, px * 1.1, this.names));
      d.ghost.style.width = d.ghost.style.height = `${px * 1.1}px`;
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
      if (!this.drop(d.sel, this.cellAt(e.clientX, e.clientY))) this.draw();
    } else if (d.wasSelected) {
      this.clearSelection();
    }
  }

  hover(e) {
    const name = e && this.cellAt(e.clientX, e.clientY);
    this.on.onCursor(name && this.cells.has(name) ? this.cellTitle(name) : null);
  }

  cellTitle(name) {
    const c = this.cells.get(name);
    const zone = c.zone && (this.view.zones || []).find((z) => z.id === c.zone);
    return zone ? `${name} \u00B7 ${zone.name}` : name;
  }

  // ---- keyboard ----

  showCursor() {
    if (!this.cursor || !this.cells.has(this.cursor)) this.cursor = this.startCell();
    this.describe();
  }

  // The cursor starts on the player's nearest own piece, else in the middle.
  startCell() {
    const movable = [...this.cells.keys()].filter((n) => this.pickable(n));
    const pool = movable.length ? movable : [...this.cells.keys()];
    const mid = { x: this.layout.width / 2, y: this.layout.height };
    pool.sort((a, b) => dist(this.at(a), mid) - dist(this.at(b), mid));
    return pool[0];
  }

  // The nearest cell in the direction of an arrow key, as drawn (so it works on every board).
  neighbour(name, dx, dy) {
    const p = this.at(name);
    let best = null;
    let bestScore = Infinity;
    for (const n of this.cells.keys()) {
      if (n === name) continue;
      const q = this.at(n);
      const vx = q.x - p.x;
      const vy = q.y - p.y;
      const d = Math.hypot(vx, vy);
      const cos = (vx * dx + vy * dy) / d;
      if (cos < 0.45) continue;
      const score = d * (1 + 2 * (1 - cos)) + (vx + vy) * 1e-3; // ties: up and left first
      if (score < bestScore) {
        bestScore = score;
        best = n;
      }
    }
    return best;
  }

  key(e) {
    if (e.target !== this.wrap) return;
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[e.key]) {
      this.wrap.classList.add('keyboard');
      if (!this.cursor) this.cursor = this.startCell();
      else this.cursor = this.neighbour(this.cursor, ...dirs[e.key]) || this.cursor;
    } else if (e.key === 'Enter' || e.key === ' ') {
      this.wrap.classList.add('keyboard');
      if (!this.cursor) this.cursor = this.startCell();
      else this.clickCell(this.cursor);
    } else if (e.key === 'Escape') {
      this.clearSelection();
      if (this.state.premove) this.setPremove(null);
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    this.draw();
  }

  // What the cursor's cell holds, for screen readers (the board is one focusable element).
  describe() {
    if (!this.variant) return;
    const where = this.cursor && this.cells.has(this.cursor) ? this.cursor : null;
    let text = 'Board. Arrow keys move between cells, Enter picks a piece and drops it.';
    if (where) {
      const p = this.state.pieces.get(where);
      const what = p ? `${p.white ? 'white' : 'black'} ${this.names.get(p.letter) || p.letter}` : 'empty';
      const sel = this.selected ? `; holding ${this.selected.from ? `the piece on ${this.selected.from}` : this.names.get(this.selected.place) || this.selected.place}` : '';
      text = `${this.cellTitle(where)}, ${what}${sel}`;
    }
    this.wrap.setAttribute('aria-label', text);
  }

  // ---- choices ----

  // One destination: play it; several (promotions, or two moves to one cell): ask.
  play(moves) {
    this.selected = null;
    if (moves.length === 1) {
      this.draw();
      this.on.onMove(moves[0].uci);
      return;
    }
    this.openChooser(moves);
  }

  openChooser(moves) {
    this.closeChooser();
    this.chooser = openChooser(this.wrap, moves, {
      white: this.state.side === 'white',
      variant: this.variant,
      names: this.names,
      onChoose: (m) => {
        this.closeChooser();
        this.draw();
        this.on.onMove(m.uci);
      },
      onCancel: () => {
        this.closeChooser();
        this.clearSelection();
        this.wrap.focus();
      },
    });
  }

  closeChooser() {
    if (this.chooser) this.chooser.remove();
    this.chooser = null;
  }
}

const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);

// A small drawing of a board's cells (the home page's variant tiles).
export function boardThumbnail(board) {
  const layout = board.view.layouts[0];
  const svg = el('svg', { viewBox: `0 0 ${layout.width} ${layout.height}`, class: 'board-thumb', 'data-tones': board.view.tones });
  const outline = board.view.cell.points;
  for (const c of board.cells) {
    const [dx, dy] = layout.levels[c.level];
    const points = outline.map(([px, py]) => `${dx + c.cx + px},${dy + c.cy + py}`).join(' ');
    el('polygon', { points, class: `cell t${c.tone}${c.zone && c.zone !== board.view.zones[0].id ? ' zone-1' : ''}` }, svg);
  }
  return svg;
}
