// Drawing pieces in SVG: Unicode chess glyphs for K Q R B N P (8x8 chess, Starvation,
// Starchess), letters in styled circles for Megastar's ten kinds and square-says' men and royal.

export const SVG_NS = 'http://www.w3.org/2000/svg';

const OUTLINE = { K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658', P: '\u2659' };
const FILLED = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F' };
const TEXT_STYLE = '\uFE0E'; // keep the glyph as text, never an emoji

export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v != null) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The style of piece a variant uses.
export function pieceStyle(variant) {
  if (!variant) return 'glyph';
  const kind = variant.board.kind;
  if (kind === 'megastar' || variant.name.startsWith('square-says')) return 'letter';
  return 'glyph';
}

// A piece as an SVG group centred on (0, 0) for a cell of size `size` (diameter-ish).
export function pieceNode(style, piece, size) {
  const g = el('g', { class: `piece ${piece.white ? 'white' : 'black'}`, 'data-letter': piece.letter });
  if (style === 'glyph' && FILLED[piece.letter]) {
    const fs = size * 0.86;
    const common = { x: 0, y: 0, 'font-size': fs, 'text-anchor': 'middle', 'dominant-baseline': 'central', class: 'glyph' };
    if (piece.white) {
      // A white body under the outline glyph: solid white pieces with their inner lines.
      el('text', { ...common, class: 'glyph body' }, g).textContent = FILLED[piece.letter] + TEXT_STYLE;
      el('text', { ...common, class: 'glyph line' }, g).textContent = OUTLINE[piece.letter] + TEXT_STYLE;
    } else {
      el('text', { ...common, class: 'glyph solid' }, g).textContent = FILLED[piece.letter] + TEXT_STYLE;
    }
  } else {
    const r = size * 0.4;
    const royal = piece.letter === 'K';
    el('circle', { cx: 0, cy: size * 0.03, r, class: 'disc-shadow' }, g);
    el('circle', { cx: 0, cy: 0, r, class: 'disc' + (royal ? ' royal' : '') }, g);
    if (royal) el('circle', { cx: 0, cy: 0, r: r * 0.78, class: 'disc-ring' }, g);
    el('text', {
      x: 0, y: size * 0.015, 'font-size': r * (piece.letter === 'M' ? 1.0 : 1.15), 'text-anchor': 'middle', 'dominant-baseline': 'central', class: 'disc-letter',
    }, g).textContent = piece.letter;
  }
  return g;
}

// A small stand-alone SVG of a piece (hands, promotion chooser).
export function pieceIcon(style, piece, px = 40) {
  const svg = el('svg', { viewBox: '-25 -25 50 50', width: px, height: px, class: 'piece-icon' });
  svg.appendChild(pieceNode(style, piece, 50));
  return svg;
}
