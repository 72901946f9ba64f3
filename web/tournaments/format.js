// What the tournament pages and TV share: the server's tournament (lichess's ArenaTournament,
// docs/api-lichess.md "Tournaments and TV") put in words, and its variant keys ("standard" is chess).

import { h, variantTitle, formatClock, formatDate } from '../ui.js';

// lichess's variant key and our variant's name.
export const variantOfKey = (key) => (key === 'standard' ? 'chess' : key);
export const keyOfVariant = (name) => (name === 'chess' ? 'standard' : name);

// "3+2": the clock's minutes (a fraction as ½, ¼, ¾) and increment in seconds.
export function clockText({ limit, increment }) {
  const min = limit / 60;
  const whole = Math.floor(min);
  const part = { 0.25: '\u00BC', 0.5: '\u00BD', 0.75: '\u00BE' }[min - whole];
  const minutes = part ? `${whole || ''}${part}` : Number.isInteger(min) ? String(min) : min.toFixed(1);
  return `${minutes}+${increment}`;
}

export const STATUS = { 10: 'created', 20: 'started', 30: 'finished' };
export const isRobin = (t) => t.system === 'robin';

// "Arena · 3+2 · Rated · 45 min" and the like.
export function terms(t) {
  const parts = [isRobin(t) ? 'Round robin' : 'Arena', clockText(t.clock), t.rated ? 'Rated' : 'Casual'];
  if (!isRobin(t)) parts.push(`${t.minutes} min`);
  return parts.join(' \u00B7 ');
}

// The entry conditions, in words (none: an empty list).
export function conditions(t) {
  const out = [];
  if (t.minRating) out.push(`Rated at least ${t.minRating.rating}`);
  if (t.maxRating) out.push(`Rated at most ${t.maxRating.rating}`);
  if (t.minRatedGames) out.push(`At least ${t.minRatedGames.nb} rated games`);
  if (!isRobin(t) && t.botsAllowed) out.push('Bots may play');
  if (!isRobin(t) && !t.berserkable) out.push('No berserk');
  return out;
}

// When it starts, or how long is left (seconds from the server's answer, counted down here).
export function whenText(t, elapsedMs = 0) {
  const left = (s) => formatClock(Math.max(0, s * 1000 - elapsedMs));
  if (t.status === 10) return `Starts in ${left(t.secondsToStart)}`;
  if (t.status === 20) return isRobin(t) ? 'Playing' : `${left(t.secondsToFinish ?? Math.max(0, (t.finishesAt - Date.now()) / 1000))} left`;
  return t.finishesAt ? `Ended ${formatDate(t.finishesAt, { hour: '2-digit', minute: '2-digit' })}` : 'Finished';
}

// An element's children replaced by those given, leaving out null, undefined and false.
export const fill = (el, ...children) => el.replaceChildren(...children.filter((c) => c != null && c !== false));

// A small drawn icon of index.html's symbols (no emoji font needed): 'fire' (a winning
// streak), 'trophy' (the winner).
export function icon(name) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', `tour-icon icon-${name}`);
  svg.setAttribute('aria-hidden', 'true');
  const use = document.createElementNS(ns, 'use');
  use.setAttribute('href', `#icon-${name}`);
  svg.appendChild(use);
  return svg;
}

export const tournamentHref = (id) => `#/tournament/${encodeURIComponent(id)}`;

// A tournament's line in a list: name, variant, terms, players, when.
export function tournamentRow(t) {
  const variant = variantOfKey(t.variant.key);
  return h('li', { class: `tour-row status-${STATUS[t.status]}`, 'data-tournament': t.id, 'data-variant': variant },
    h('a', { href: tournamentHref(t.id), class: 'tour-name' }, t.fullName),
    h('span', { class: 'tour-variant' }, variantTitle(variant)),
    h('span', { class: 'tour-terms' }, terms(t)),
    h('span', { class: 'tour-players' }, `${t.nbPlayers} player${t.nbPlayers === 1 ? '' : 's'}`),
    h('span', { class: 'tour-when' }, whenText(t)));
}
