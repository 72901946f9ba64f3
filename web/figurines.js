// Figurines for the piece letters of a move (♘f3 for Nf3), by the piece's name: how the
// Starchess documents write their games (the Polgár notation), a setting of the move list.
// A piece without a figurine (Megastar's Sling, square-says' Man) keeps its letter; pawns
// have no letter in SAN.

const FIGURINES = { king: '\u2654', queen: '\u2655', rook: '\u2656', bishop: '\u2657', knight: '\u2658' };

export function figurineText(san, variant) {
  const byLetter = new Map(variant.pieces.filter((p) => FIGURINES[p.name]).map((p) => [p.letter.toUpperCase(), FIGURINES[p.name]]));
  // The moved or placed piece's letter opens the move; a promotion's follows '='.
  return san.replace(/^[A-Z]|(?<==)[A-Z]/g, (letter) => byLetter.get(letter) || letter);
}
