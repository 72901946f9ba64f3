// Position text and move records, for drawing only.
//
// Legality is never decided here: the server's `legal` list says what may be played.  This
// module reads the piece placement out of a FEN so the board can be drawn and splits
// coordinate moves into their cells.  Every earlier position comes from the server too (each
// move carries the position text after it), so no rule is ever applied here.

// The server lists a board's cells in the order its position text does.
const fenOrder = (board) => board.cells;

// Splits a FEN into its parts: board text, hand (Starchess), side to move, the rest.
export function splitFen(fen) {
  const text = String(fen || '').trim();
  const sp = text.indexOf(' ');
  let boardPart = sp < 0 ? text : text.slice(0, sp);
  const rest = sp < 0 ? [] : text.slice(sp + 1).trim().split(/\s+/);
  let hand = null;
  const m = /^(.*)\[([^\]]*)\]$/.exec(boardPart);
  if (m) {
    boardPart = m[1];
    hand = m[2];
  }
  return { boardPart, hand, side: rest[0] === 'b' ? 'black' : 'white', rest };
}

// FEN -> Map(cell name -> { letter: 'K', white: true, limping }).
export function parseFen(board, fen) {
  const order = fenOrder(board);
  const { boardPart } = splitFen(fen);
  const pieces = new Map();
  let i = 0;
  let last = null;
  for (let k = 0; k < boardPart.length; k++) {
    const ch = boardPart[k];
    if (ch === '/') continue;
    if (ch >= '0' && ch <= '9') {
      let n = ch;
      while (k + 1 < boardPart.length && /[0-9]/.test(boardPart[k + 1])) n += boardPart[++k];
      i += parseInt(n, 10);
      last = null;
    } else if (ch === '~') {
      if (last) last.limping = true;
    } else if (/[A-Za-z]/.test(ch)) {
      const cell = order[i++];
      if (!cell) break;
      last = { letter: ch.toUpperCase(), white: ch === ch.toUpperCase() };
      pieces.set(cell.name, last);
    }
  }
  return pieces;
}

// Board -> FEN board text (used by the tests to compare a replayed board with the server's).
export function boardText(board, pieces) {
  const order = fenOrder(board);
  let out = '';
  let run = 0;
  for (const c of order) {
    const p = pieces.get(c.name);
    if (!p) {
      run++;
      continue;
    }
    if (run) out += run;
    run = 0;
    out += p.white ? p.letter : p.letter.toLowerCase();
  }
  if (run) out += run;
  return out;
}

const namesOf = new WeakMap();
function cellNames(board) {
  if (!namesOf.has(board)) namesOf.set(board, new Set(board.cells.map((c) => c.name)));
  return namesOf.get(board);
}

// The longest cell name at the start of `text`, or null.
function cellPrefix(names, text) {
  for (let n = Math.min(text.length, 8); n > 0; n--) if (names.has(text.slice(0, n))) return text.slice(0, n);
  return null;
}

// A coordinate move -> { from, to, promotion, place }, or null: FROM, an optional '-', TO and an
// optional lower-case promotion letter, or LETTER@TO for a placement.
export function parseUci(board, uci) {
  const u = String(uci || '');
  const names = cellNames(board);
  const m = /^([A-Za-z])@(.+)$/.exec(u);
  if (m) return names.has(m[2]) ? { from: null, to: m[2], promotion: null, place: m[1].toUpperCase() } : null;
  const from = cellPrefix(names, u);
  if (!from) return null;
  const rest = u.slice(from.length).replace(/^-/, '');
  const to = cellPrefix(names, rest);
  if (!to) return null;
  const promo = rest.slice(to.length);
  if (promo && !/^[a-z]$/.test(promo)) return null;
  return { from, to, promotion: promo ? promo.toUpperCase() : null, place: null };
}

// Roman numerals for Starchess's setup moves.
export function roman(n) {
  const table = [[10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];
  let out = '';
  for (const [v, s] of table) while (n >= v) { out += s; n -= v; }
  return out;
}

// Rows of the move list: [{ label: '1.' | 'I.', white: ply index | null, black: ply index | null }].
export function moveRows(startFen, moves) {
  const { hand, side, rest } = splitFen(startFen);
  let white = side === 'white';
  // Fullmove number: the last field of the FEN.
  let full = parseInt(rest[rest.length - 1], 10);
  if (!Number.isFinite(full) || full < 1) full = 1;
  let whitePlaced = hand == null ? 0 : 5 - (hand.match(/[A-Z]/g) || []).length;
  let blackPlaced = hand == null ? 0 : 5 - (hand.match(/[a-z]/g) || []).length;
  const rows = [];
  let row = null;
  moves.forEach((m, i) => {
    const setup = String(m.uci || '').includes('@');
    let label;
    if (setup) label = roman(white ? ++whitePlaced : ++blackPlaced) + '.';
    else label = full + '.';
    if (white || !row || row.label !== label || row.black != null) {
      row = { label, white: null, black: null };
      rows.push(row);
    }
    if (white) row.white = i;
    else row.black = i;
    if (!white && !setup) full++;
    white = !white;
  });
  return rows;
}
