// Pieces drawn in SVG: one figure per kind of piece, found by the piece's name as the server
// gives it (`variant.pieces`), drawn in a 100-unit box in one style: a body filled in the
// side's colour with a dark outline, and detail lines.  A kind with no figure gets a disc with
// its letter, so a new piece kind still shows.

export const SVG_NS = 'http://www.w3.org/2000/svg';

export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v != null) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// Shapes: [tag, attributes, part]; part 'body' takes the side's colour, 'line' is a detail
// stroke, 'dot' a filled detail.
const BASE = ['path', { d: 'M24 90 Q24 82 30 81 H70 Q76 82 76 90 Z' }, 'body'];
const HEXAGRAM = (x, y, r) => ['path', {
  d: `M${x} ${y - r} L${x + r * 0.866} ${y + r / 2} L${x - r * 0.866} ${y + r / 2} Z M${x} ${y + r} L${x + r * 0.866} ${y - r / 2} L${x - r * 0.866} ${y - r / 2} Z`,
}, 'line'];

const FIGURES = {
  pawn: [
    BASE,
    ['path', { d: 'M34 81 C34 66 39 55 44 48 H56 C61 55 66 66 66 81 Z' }, 'body'],
    ['ellipse', { cx: 50, cy: 47, rx: 13, ry: 4.5 }, 'body'],
    ['circle', { cx: 50, cy: 31, r: 13 }, 'body'],
  ],
  rook: [
    BASE,
    ['path', { d: 'M31 81 L34 42 H66 L69 81 Z' }, 'body'],
    ['path', { d: 'M27 43 V18 H37 V26 H45 V18 H55 V26 H63 V18 H73 V43 Z' }, 'body'],
    ['path', { d: 'M33 70 H67 M35 43 H65' }, 'line'],
  ],
  knight: [
    BASE,
    ['path', { d: 'M31 81 H73 C75 64 74 50 71 38 C67 24 58 15 46 14 L42 7 L37 16 C29 21 23 31 19 42 C17 48 20 53 25 53 C29 53 31 50 34 47 C39 48 45 45 48 41 C47 53 37 64 31 81 Z' }, 'body'],
    ['circle', { cx: 41, cy: 28, r: 3.2 }, 'dot'],
    ['path', { d: 'M58 20 C66 30 69 48 68 66' }, 'line'],
  ],
  bishop: [
    BASE,
    ['path', { d: 'M35 81 C30 71 33 60 40 53 H60 C67 60 70 71 65 81 Z' }, 'body'],
    ['path', { d: 'M50 15 C62 24 67 39 60 53 H40 C33 39 38 24 50 15 Z' }, 'body'],
    ['circle', { cx: 50, cy: 11, r: 5 }, 'body'],
    ['path', { d: 'M54 26 L45 40 M40 53 H60' }, 'line'],
  ],
  queen: [
    BASE,
    ['path', { d: 'M30 81 L21 35 L33 58 L36 27 L44 54 L50 22 L56 54 L64 27 L67 58 L79 35 L70 81 Z' }, 'body'],
    ...[[21, 33], [36, 25], [50, 19], [64, 25], [79, 33]].map(([cx, cy]) => ['circle', { cx, cy, r: 5 }, 'body']),
    ['path', { d: 'M31 71 H69' }, 'line'],
  ],
  king: [
    BASE,
    ['path', { d: 'M30 81 C25 66 28 53 36 45 H64 C72 53 75 66 70 81 Z' }, 'body'],
    ['path', { d: 'M35 45 C37 37 43 33 50 33 C57 33 63 37 65 45 Z' }, 'body'],
    ['path', { d: 'M46.5 7 H53.5 V14 H60 V21 H53.5 V33 H46.5 V21 H40 V14 H46.5 Z' }, 'body'],
    ['path', { d: 'M32 70 H68' }, 'line'],
  ],
  // Move as square says: the men are plain figures (their moves come from the squares).
  man: [
    ['path', { d: 'M25 88 C25 63 35 51 50 51 C65 51 75 63 75 88 Z' }, 'body'],
    ['circle', { cx: 50, cy: 32, r: 14 }, 'body'],
  ],
  // Megastar of David.  Cohen: a priest's domed mitre with a star on the robe.
  cohen: [
    BASE,
    ['path', { d: 'M29 81 C26 66 30 53 38 46 H62 C70 53 74 66 71 81 Z' }, 'body'],
    ['path', { d: 'M35 46 C32 30 39 15 50 8 C61 15 68 30 65 46 Z' }, 'body'],
    ['path', { d: 'M35 38 H65' }, 'line'],
    HEXAGRAM(50, 64, 10),
  ],
  // Rabbi: a broad-brimmed hat, a beard, a robe.
  rabbi: [
    ['path', { d: 'M24 88 C24 64 35 53 50 53 C65 53 76 64 76 88 Z' }, 'body'],
    ['circle', { cx: 50, cy: 38, r: 12 }, 'body'],
    ['path', { d: 'M39 42 C40 54 45 61 50 64 C55 61 60 54 61 42 Z' }, 'body'],
    ['path', { d: 'M37 27 V10 H63 V27 Z' }, 'body'],
    ['ellipse', { cx: 50, cy: 27, rx: 25, ry: 5.5 }, 'body'],
  ],
  // Finch: a small bird on its perch.
  finch: [
    BASE,
    ['path', { d: 'M44 76 L42 82 M57 76 L59 82' }, 'line'],
    ['path', { d: 'M68 50 L91 36 L86 62 Z' }, 'body'],
    ['ellipse', { cx: 50, cy: 59, rx: 25, ry: 18 }, 'body'],
    ['path', { d: 'M19 35 L7 41 L19 45 Z' }, 'body'],
    ['circle', { cx: 31, cy: 39, r: 13 }, 'body'],
    ['circle', { cx: 28, cy: 36, r: 2.8 }, 'dot'],
    ['path', { d: 'M42 56 C51 49 62 51 69 60' }, 'line'],
  ],
  // Fortnight: a fort under the moon (it leaps between the levels).
  fortnight: [
    BASE,
    ['path', { d: 'M31 81 L34 50 H66 L69 81 Z' }, 'body'],
    ['path', { d: 'M28 51 V37 H37 V43 H46 V37 H54 V43 H63 V37 H72 V51 Z' }, 'body'],
    ['path', { d: 'M44 81 V70 C44 62 56 62 56 70 V81' }, 'line'],
    ['path', { d: 'M57 5 A15 15 0 1 0 62 31 A12 12 0 1 1 57 5 Z' }, 'body'],
  ],
  // Sennight: a crescent moon with a star (seven nights).
  sennight: [
    BASE,
    ['path', { d: 'M45 81 V70 H55 V81 Z' }, 'body'],
    ['path', { d: 'M58 10 A31 31 0 1 0 75 63 A25 25 0 1 1 58 10 Z' }, 'body'],
    ['path', { d: 'M65 30 L68 38 L76 38 L70 43 L72 51 L65 46 L58 51 L60 43 L54 38 L62 38 Z' }, 'body'],
  ],
  // Sling: David's sling as a forked sling with its stone.
  sling: [
    BASE,
    ['path', { d: 'M45 81 V58 L27 24 L35 20 L50 48 L65 20 L73 24 L55 58 V81 Z' }, 'body'],
    ['path', { d: 'M31 22 C37 40 63 40 69 22' }, 'line'],
    ['circle', { cx: 50, cy: 35, r: 8 }, 'body'],
  ],
};

FIGURES['royal piece'] = FIGURES.king; // square-says's royal

// A piece as an SVG group centred on (0, 0), `size` units across.  `piece` is
// { letter, white }; `names` maps letters to piece names (from the variant).
export function pieceNode(piece, size, names) {
  const g = el('g', { class: `piece ${piece.white ? 'white' : 'black'}`, 'data-letter': piece.letter });
  const figure = FIGURES[names && names.get(piece.letter)];
  if (figure) {
    const inner = el('g', { transform: `scale(${size / 100}) translate(-50 -50)`, class: 'figure' }, g);
    for (const [tag, attrs, part] of figure) el(tag, { ...attrs, class: part }, inner);
    return g;
  }
  const r = size * 0.4;
  el('circle', { cx: 0, cy: 0, r, class: 'disc' }, g);
  el('text', { x: 0, y: size * 0.015, 'font-size': r * 1.1, 'text-anchor': 'middle', 'dominant-baseline': 'central', class: 'disc-letter' }, g)
    .textContent = piece.letter;
  return g;
}

// Letter -> piece name, for pieceNode.
export const pieceNames = (variant) => new Map((variant.pieces || []).map((p) => [p.letter.toUpperCase(), p.name]));

// A small stand-alone SVG of a piece (hands, captures, choosers, legend).
export function pieceIcon(piece, px, names) {
  const svg = el('svg', { viewBox: '-50 -50 100 100', width: px, height: px, class: 'piece-icon', 'aria-hidden': 'true' });
  svg.appendChild(pieceNode(piece, 100, names));
  return svg;
}
