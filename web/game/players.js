// The player bars above and below the board: who plays (an account's name, linking to its
// profile, with its rating and, once a rated game has ended, the change), what they have
// captured, the pieces they still hold in hand (Starchess's setup: pick one to place it), and
// their clock's place.

import { h, $, capitalize as cap, profileLink, botBadge, ratingText, ratingDiff } from '../ui.js';
import { pieceIcon, pieceNames } from '../pieces.js';
import { other } from './state.js';

export class PlayerBars {
  constructor(state, board) {
    this.state = state;
    this.board = board;
    this.names = pieceNames(state.variant);
    const bar = (pos) => h('div', { class: `player-bar ${pos}` },
      h('span', { class: 'side-dot', 'aria-hidden': 'true' }),
      h('span', { class: 'player-name' }),
      h('span', { class: 'captures' }),
      h('div', { class: 'hand' }),
      h('span', { class: 'clock', role: 'timer', 'aria-live': 'off' }, h('span', { class: 'clock-flag', 'aria-hidden': 'true' }, '\u2691'), h('span', { class: 'clock-time' })));
    this.top = bar('top');
    this.bottom = bar('bottom');
    state.on('change', () => this.render());
  }

  get bars() {
    return [this.top, this.bottom];
  }

  render() {
    const s = this.state;
    const g = s.game;
    if (!g) return;
    const bottom = s.flipped ? 'black' : 'white';
    for (const [bar, side] of [[this.bottom, bottom], [this.top, other(bottom)]]) {
      bar.dataset.side = side;
      this.renderName($('.player-name', bar), side);
      bar.classList.toggle('to-move', g.status === 'ongoing' && g.side === side);
      bar.classList.toggle('winner', g.status === 'over' && ((g.result === '1-0' && side === 'white') || (g.result === '0-1' && side === 'black')));
    }
    this.renderHands();
    this.renderCaptures(bottom);
  }

  renderName(box, side) {
    const s = this.state;
    const g = s.game;
    const p = g.players[side];
    const diff = g.ratingDiff && g.ratingDiff[side];
    const shown = JSON.stringify([p, diff, p ? null : s.anonymousName(side)]);
    if (box.dataset.shown === shown) return; // unchanged: a link keeps its focus
    box.dataset.shown = shown;
    box.title = `${cap(side)}${g.player_kinds[side] === 'engine' ? ' (engine)' : ''}`;
    if (!p) {
      box.textContent = s.anonymousName(side);
      return;
    }
    // An account played by the engine is a house bot (Starfish-Level-N).
    const bot = g.player_kinds[side] === 'engine' ? [botBadge(), ' '] : [];
    box.replaceChildren(...bot, profileLink(p.name, p.closed),
      h('span', { class: 'player-rating', title: p.prov ? 'provisional rating' : 'rating' }, ratingText(p.rating, p.prov)));
    if (diff != null) box.appendChild(ratingDiff(diff));
  }

  // The opponent's pieces that left the board in move i, if it was a capture (SAN with 'x';
  // Starvation's starved pieces leave without one), as { letter: count }.
  takenIn(i) {
    const s = this.state;
    const m = s.game.moves[i];
    if (this.taken[i] && this.taken[i].fen === m.fen) return this.taken[i].lost;
    const lost = {};
    if (/x/.test(m.san || '')) {
      const victimWhite = s.sideAfter(i) === 'black';
      const count = (k) => [...s.positionAt(k).values()].filter((p) => p.white === victimWhite).map((p) => p.letter);
      const after = count(i + 1);
      for (const letter of count(i)) {
        const at = after.indexOf(letter);
        if (at >= 0) after.splice(at, 1);
        else lost[letter] = (lost[letter] || 0) + 1;
      }
    }
    this.taken[i] = { fen: m.fen, lost };
    return lost;
  }

  renderCaptures(bottom) {
    const s = this.state;
    const g = s.game;
    this.taken = this.taken || [];
    this.taken.length = Math.min(this.taken.length, g.moves.length);
    const total = { white: {}, black: {} };
    g.moves.forEach((m, i) => {
      const by = total[s.sideAfter(i)];
      for (const [letter, n] of Object.entries(this.takenIn(i))) by[letter] = (by[letter] || 0) + n;
    });
    for (const side of ['white', 'black']) {
      const victim = other(side);
      let count = 0;
      const items = Object.entries(total[side]).map(([letter, n]) => {
        count += n;
        return h('span', { class: 'cap-item', title: `${n} \u00D7 ${this.names.get(letter) || letter}` },
          pieceIcon({ letter, white: victim === 'white' }, 22, this.names), n > 1 ? h('span', { class: 'cap-n' }, `\u00D7${n}`) : null);
      });
      const el = $('.captures', side === bottom ? this.bottom : this.top);
      el.replaceChildren(...items);
      el.title = count ? `${cap(side)} has captured ${count}` : '';
      el.dataset.count = count;
    }
  }

  renderHands() {
    const s = this.state;
    const play = s.playable();
    const hand = (play ? play.hand : s.game.hand) || {};
    const sel = this.board.selected;
    for (const bar of this.bars) {
      const side = bar.dataset.side;
      const box = $('.hand', bar);
      const letters = String(hand[side] || '').toUpperCase().split('').filter(Boolean);
      box.replaceChildren();
      box.hidden = letters.length === 0;
      const mine = (play && play.side === side) || s.premoveSide === side;
      for (const letter of letters) {
        const usable = mine && (!play || play.legal.some((m) => m.place && m.place.toUpperCase() === letter));
        const chosen = sel && sel.place === letter && mine;
        const name = this.names.get(letter) || letter;
        const b = h('button', {
          type: 'button',
          class: `hand-piece${usable ? ' can' : ''}${chosen ? ' selected' : ''}`,
          'data-hand': letter, 'data-side': side, disabled: !usable,
          title: `${cap(side)} ${name} in hand`, 'aria-label': `${side} ${name} in hand`, 'aria-pressed': chosen ? 'true' : 'false',
        }, pieceIcon({ letter, white: side === 'white' }, 38, this.names));
        if (usable) {
          b.addEventListener('pointerdown', (e) => {
            if (e.button !== 0) return;
            e.preventDefault();
            const was = this.board.selected && this.board.selected.place === letter;
            if (!was) this.board.selectPlace(letter);
            this.board.beginDrag(e, { letter, white: side === 'white' }, { place: letter }, was);
          });
          b.addEventListener('keydown', (e) => {
            if (e.key !== 'Enter' && e.key !== ' ') return;
            e.preventDefault();
            this.board.selectPlace(letter);
            this.board.wrap.focus();
          });
        }
        box.appendChild(b);
      }
    }
  }
}
