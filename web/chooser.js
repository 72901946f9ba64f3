// The chooser over the board when one destination holds several moves: the promotion pieces,
// or (square-says) two different moves to one cell.

import { pieceIcon } from './pieces.js';

function button(cls, text, onclick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = cls;
  b.textContent = text;
  b.addEventListener('click', onclick);
  return b;
}

// Opens the chooser in `host`; returns its element.  `white`: the mover's colour.
export function openChooser(host, moves, { white, variant, names, onChoose, onCancel }) {
  const title = (letter) => {
    const p = (variant.pieces || []).find((x) => x.letter.toUpperCase() === letter);
    return p ? p.name.charAt(0).toUpperCase() + p.name.slice(1) : letter;
  };
  const box = document.createElement('div');
  box.className = 'promotion-chooser';
  box.setAttribute('role', 'dialog');
  const heading = box.appendChild(document.createElement('div'));
  heading.className = 'promotion-title';
  const list = document.createElement('div');
  const promotions = new Set(moves.map((m) => m.promotion || ''));
  if (promotions.size !== moves.length || promotions.has('')) {
    heading.textContent = 'Which move?';
    list.className = 'choice-list';
    for (const m of moves) {
      const what = m.castle ? 'Castle' : m.promotion ? `Promote to ${title(m.promotion.toUpperCase())}` : 'Move';
      const b = list.appendChild(button('choice', `${what} (${m.uci})`, () => onChoose(m)));
      b.dataset.uci = m.uci;
    }
  } else {
    heading.textContent = 'Promote to';
    list.className = 'promotion-grid';
    for (const m of moves) {
      const letter = m.promotion.toUpperCase();
      const b = list.appendChild(button('promo', '', () => onChoose(m)));
      b.dataset.promo = letter.toLowerCase();
      b.title = title(letter);
      b.append(pieceIcon({ letter, white }, 46, names), Object.assign(document.createElement('span'), { textContent: title(letter) }));
    }
  }
  box.appendChild(list);
  box.appendChild(button('promo-cancel', 'Cancel', onCancel));
  host.appendChild(box);
  list.querySelector('button').focus();
  return box;
}
