// Games that begin for the account elsewhere (a challenge accepted by the other side, a seek
// paired, a bot accepting, an arena's pairing): on their gameStart the page goes to the game,
// a moment later when the page shows a game just finished (its result stays in sight), or
// offers to when the player is in another game that goes on.  Not for games the page knows
// already: those announced again when the stream opens, the one on screen, those this page
// makes itself.

import { h, notify } from '../ui.js';
import { onAccountEvent } from '../accounts/events.js';

const known = new Set(); // game ids this page has seen or made
const expected = new Set(); // ids of games awaited (this account's open challenges)
let seeking = 0; // real-time seeks of this page that wait for their game
let making = 0; // requests of this page that make a game (its own gameStart comes meanwhile)
let onScreen = null; // { id, playing(): bool }: the game page shown

// How long a finished game's result stays in sight before the player's next game replaces it.
export const RESULT_SHOWN_MS = 3000;

export const knowGame = (id) => known.add(id);

// A challenge of this account: its game (the same id) is awaited.
export const expectGame = (id) => expected.add(id);

// While a seek waits (and a little after its answer ends: the gameStart may come later).
export function seekWaits() {
  seeking++;
  let done = false;
  return (graceMs = 8000) => {
    if (done) return;
    done = true;
    setTimeout(() => { seeking--; }, graceMs);
  };
}

// A request that makes a game for this page (the home page's): its gameStart is not news.
export async function makingGame(fn) {
  making++;
  try {
    const made = await fn();
    return made;
  } finally {
    setTimeout(() => { making--; }, 1000); // its event may come just after the answer
  }
}

// The game page says which game it shows; undone when it goes.
export function showingGame(id, playing) {
  known.add(id);
  // A notice offering this game is done with (on a phone it would cover the board).
  for (const n of document.querySelectorAll('#notices .notice[data-name="game-started"]')) if (n.dataset.game === id) n.remove();
  const mine = { id, playing };
  onScreen = mine;
  return () => { if (onScreen === mine) onScreen = null; };
}

const gameHref = (id) => `#/game/${encodeURIComponent(id)}`;

function arrived(event, { initial }) {
  const g = event.game;
  const id = g && (g.gameId || g.id);
  if (!id) return;
  const awaited = expected.delete(id) || seeking > 0;
  const news = !known.has(id) && (awaited || (!initial && making === 0));
  known.add(id);
  if (!news || (onScreen && onScreen.id === id)) return;
  const who = g.opponent && g.opponent.username ? ` against ${g.opponent.username}` : '';
  const offer = (text) => {
    const notice = notify(h('span', {}, `A new game has begun${who}${text} `, h('a', { href: gameHref(id), id: 'go-to-new-game' }, 'Go to it')), 'info',
      { ms: 30000, name: 'game-started' });
    notice.dataset.game = id;
  };
  if (onScreen && onScreen.playing()) {
    offer('.');
    return;
  }
  if (onScreen) { // a finished game: its result a moment more (a tournament's card says what comes)
    const from = location.hash;
    if (!g.tournamentId) offer(': it opens in a moment.');
    setTimeout(() => { if (location.hash === from) location.hash = gameHref(id); }, RESULT_SHOWN_MS);
    return;
  }
  location.hash = gameHref(id);
}

onAccountEvent('gameStart', arrived);
