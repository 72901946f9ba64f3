// Position text and move records, for drawing only.
//
// Legality is never decided here: the server's `legal` list says what may be played.  This
// module reads the piece placement out of a FEN so the board can be drawn and splits
// coordinate moves into their cells.  Every earlier position comes from the server too (each
// move carries the position text after it), so no rule is ever applied here.

// The order in which a position text lists the cells of a board.
export function fenOrder(board) {
  const cells = board.cells.slice();
  if (board.kind === 'square') {
    // Rank 8 first (top row, smallest y), files a..h.
    cells.sort((a, b) => a.y - b.y || a.x - b.x);
  } else {
    // Hex boards: column by column (q ascending), each from the bottom up (r ascending);
    // Megastar lists the upper level (names U...) before the lower one (L...).
    const lv = (c) => (c.name[0] === 'U' ? 0 : c.name[0] === 'L' ? 1 : c.level);
    cells.sort((a, b) => lv(a) - lv(b) || a.q - b.q || a.r - b.r);
  }
  return cells;
}

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

// A coordinate move -> { from, to, promotion, place }.
export function parseUci(kind, uci) {
  const u = String(uci || '');
  let m = /^([A-Za-z])@(.+)$/.exec(u);
  if (m) return { from: null, to: m[2], promotion: null, place: m[1].toUpperCase() };
  if (kind === 'hexstar') m = /^(\d+)-(\d+)([a-z])?$/.exec(u);
  else if (kind === 'megastar') m = /^([UL][a-q]\d+)([UL][a-q]\d+)([a-z])?$/.exec(u);
  else m = /^([a-h][1-8])([a-h][1-8])([a-z])?$/.exec(u);
  if (!m) return null;
  return { from: m[1], to: m[2], promotion: m[3] ? m[3].toUpperCase() : null, place: null };
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
