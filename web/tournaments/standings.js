// A tournament's tables, drawn from the server's tournament in full (GET /api/tournament/ID,
// its stream): the standings (an arena's points a game with the fire of two wins in a row and
// the berserks, a round robin's points and tie-break), the podium, the round robin's cross
// table, the games in play and the games played.

import { h, profileLink } from '../ui.js';
import { isRobin, icon } from './format.js';

export const PAGE_SIZE = 10; // the server's standings page
const BERSERK = '\u26A1';

const half = (x) => (Number.isInteger(x) ? String(x) : `${Math.floor(x) || ''}\u00BD`);
const points = (x) => `${half(x)} point${x === 1 ? '' : 's'}`;
const title = (p) => p.title && h('span', { class: 'bot-title', title: 'A bot account' }, p.title);

// An arena's sheet: one digit a game, the latest first; 4 and more were doubled on fire.
function sheet(p) {
  const scores = (p.sheet && p.sheet.scores) || '';
  return h('span', { class: 'sheet', 'aria-label': `Points a game, the latest first: ${scores.split('').join(' ') || 'none yet'}` },
    [...scores].map((d) => h('span', { class: Number(d) >= 4 ? 'double' : d === '0' ? 'zero' : null }, d)));
}

// The score, with the fire (two wins in a row: the next points count double).
function score(p, robin) {
  if (robin) return h('td', { class: 'num score' }, half(p.points));
  const fire = p.sheet && p.sheet.fire;
  return h('td', { class: `num score${fire ? ' on-fire' : ''}` }, fire && h('span', { class: 'fire', title: 'On fire: two wins in a row, points count double' }, icon('fire')), String(p.score));
}

const berserks = (p) => (p.nb.berserk ? h('span', { class: 'berserks', title: `Berserked ${p.nb.berserk} time${p.nb.berserk > 1 ? 's' : ''}` }, `${BERSERK}${p.nb.berserk > 1 ? p.nb.berserk : ''}`) : null);

// The page's players: rank, name (a bot's title; withdrawn; playing now), rating, sheet, score.
export function standingsTable(t, me, onPick) {
  const robin = isRobin(t);
  const players = t.standing.players;
  if (!players.length) return h('p', { class: 'muted', id: 'standings-empty' }, t.status === 30 ? 'No one played.' : 'No one has joined yet.');
  return h('table', { class: 'standings', id: 'standings' },
    h('thead', {}, h('tr', {}, h('th', { class: 'rank' }, '#'), h('th', {}, 'Player'), h('th', { class: 'num rating' }, 'Rating'),
      h('th', { class: 'sheet-head' }, robin ? 'Tie-break' : 'Games'), h('th', { class: 'num' }, robin ? 'Points' : 'Score'))),
    h('tbody', {}, players.map((p) => h('tr', {
      'data-player': p.id, class: [p.id === me ? 'me' : '', p.withdraw ? 'withdrawn' : ''].filter(Boolean).join(' ') || null,
      onclick: (e) => !e.target.closest('a') && onPick(p.id),
    },
    h('td', { class: 'rank' }, p.rank),
    h('td', { class: 'player' }, title(p), profileLink(p.name), berserks(p),
      p.playing && h('span', { class: 'playing', title: 'Playing now' }, '\u25CF'),
      p.withdraw && h('span', { class: 'muted small' }, ' (withdrawn)')),
    h('td', { class: 'num rating' }, p.rating),
    h('td', { class: 'sheet-cell' }, robin ? half(p.tieBreak) : sheet(p)),
    score(p, robin)))));
}

// Previous and next pages of the standings.
export function pager(t, page, go) {
  const pages = Math.max(1, Math.ceil(t.nbPlayers / PAGE_SIZE));
  if (pages === 1) return null;
  return h('div', { class: 'pager', id: 'standings-pager' },
    h('button', { type: 'button', id: 'standings-prev', disabled: page <= 1, onclick: () => go(page - 1), 'aria-label': 'Previous page' }, '\u2039'),
    h('span', { class: 'muted' }, `Page ${page} of ${pages}`),
    h('button', { type: 'button', id: 'standings-next', disabled: page >= pages, onclick: () => go(page + 1), 'aria-label': 'Next page' }, '\u203A'));
}

// The first three, the winner in the middle and highest.
export function podium(t) {
  const robin = isRobin(t);
  const places = (t.podium || []).map((p, i) => h('li', { class: `place place-${i + 1}`, 'data-player': p.id },
    h('span', { class: 'medal', 'aria-hidden': 'true' }),
    h('span', { class: 'place-name' }, title(p), profileLink(p.name)),
    h('span', { class: 'place-score' }, points(robin ? p.points : p.score)),
    h('span', { class: 'place-stats muted small' },
      `${p.nb.game} game${p.nb.game === 1 ? '' : 's'} \u00B7 ${p.nb.game ? Math.round((100 * p.nb.win) / p.nb.game) : 0}% won`,
      p.nb.berserk ? ` \u00B7 ${BERSERK}${p.nb.berserk}` : ''),
    h('span', { class: 'pedestal' }, String(i + 1))));
  return h('ol', { class: 'podium', id: 'podium', 'aria-label': 'Podium' }, places);
}

// Row i, column j: player i's results against player j (1, ½, 0 a game).
export function crossTable(t) {
  const { players, results } = t.crossTable;
  return h('div', { class: 'cross-wrap' }, h('table', { class: 'cross-table', id: 'cross-table' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), players.map((_, j) => h('th', { class: 'num', scope: 'col', title: players[j] }, j + 1)))),
    h('tbody', {}, players.map((name, i) => h('tr', {},
      h('th', { scope: 'row', class: 'cross-name' }, `${i + 1}. `, profileLink(name)),
      results[i].map((cell) => h('td', { class: cell === null ? 'self' : 'num' }, cell === null ? '' : cell)))))));
}

// The games being played: links to watch them.
export function duels(t) {
  if (!t.duels || !t.duels.length) return h('p', { class: 'muted' }, 'No game is being played.');
  return h('ul', { class: 'duels', id: 'duels' }, t.duels.map((d) => h('li', { 'data-game': d.id },
    h('a', { href: `#/game/${encodeURIComponent(d.id)}` },
      h('span', {}, `${d.p[0].n} (${d.p[0].r})`), h('span', { class: 'muted' }, ' vs '), h('span', {}, `${d.p[1].n} (${d.p[1].r})`)))));
}

// The games played (the latest first), or one player's: result, players, berserks.
export function gameList(games, player) {
  const mine = games.filter((g) => g.result !== '*' && (!player || g.players.white.user.id === player || g.players.black.user.id === player)).reverse();
  if (!mine.length) return h('p', { class: 'muted' }, player ? 'No game finished yet.' : 'No game has finished yet.');
  const side = (p) => h('span', { class: 'gl-player' }, p.user.name, p.berserk && h('span', { class: 'berserks', title: 'Berserked' }, BERSERK));
  return h('ul', { class: 'tour-games', id: 'tour-games' }, mine.map((g) => h('li', { 'data-game': g.id },
    h('a', { href: `#/game/${encodeURIComponent(g.id)}` }, side(g.players.white), h('span', { class: 'gl-result' }, g.result === '1/2-1/2' ? '\u00BD-\u00BD' : g.result), side(g.players.black)))));
}
