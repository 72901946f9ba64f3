// What seeks and challenges share: their terms in words (the time control, rated or casual,
// the colour), lichess's variant keys, the reasons to decline, and the form's fields for the
// variant, the time control, the colour and the rated box.

import { h, variantTitle, segmented } from '../ui.js';
import { signInHref } from '../session.js';

// lichess's key of chess is "standard"; every other key is our variant's name.
export const variantOfKey = (key) => (key === 'standard' ? 'chess' : key);
export const keyOfVariant = (name) => (name === 'chess' ? 'standard' : name);
export const variantName = (variant) => variantTitle(variantOfKey(variant && variant.key ? variant.key : variant));

export const DAYS = [1, 2, 3, 5, 7, 10, 14];
export const MINUTES = [1, 2, 3, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180];
export const INCREMENTS = [0, 1, 2, 3, 5, 10, 15, 20, 30, 60];

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

// lichess's timeControl: "5+3", "3 days", "Unlimited".
export function timeControlText(tc) {
  if (!tc || tc.type === 'unlimited') return 'Unlimited';
  if (tc.type === 'correspondence') return plural(tc.daysPerTurn, 'day');
  const min = tc.limit / 60;
  const base = min === 0.25 ? '\u00BC' : min === 0.5 ? '\u00BD' : min === 0.75 ? '\u00BE' : String(Math.round(min * 100) / 100);
  return `${base}+${tc.increment}`;
}

export const SPEEDS = { ultraBullet: 'UltraBullet', bullet: 'Bullet', blitz: 'Blitz', rapid: 'Rapid', classical: 'Classical', correspondence: 'Correspondence' };
export const speedText = (speed) => SPEEDS[speed] || speed || '';
export const modeText = (rated) => (rated ? 'Rated' : 'Casual');

// The colour a seek's or challenge's maker plays, as its reader plays it ("You play White").
export const colorText = (color) => (color === 'random' ? 'Random side' : color === 'white' ? 'White' : 'Black');
export const otherColor = (color) => (color === 'white' ? 'black' : color === 'black' ? 'white' : 'random');

// lichess's reasons to decline a challenge, with its words.
export const DECLINE_REASONS = [
  ['generic', 'I\u2019m not accepting challenges at the moment.'],
  ['later', 'This is not the right time for me, please ask again later.'],
  ['toofast', 'This time control is too fast for me, please challenge again with a slower game.'],
  ['tooslow', 'This time control is too slow for me, please challenge again with a faster game.'],
  ['timecontrol', 'I\u2019m not accepting challenges with this time control.'],
  ['rated', 'Please send me a rated challenge instead.'],
  ['casual', 'Please send me a casual challenge instead.'],
  ['standard', 'I\u2019m not accepting variant challenges right now.'],
  ['variant', 'I\u2019m not willing to play this variant right now.'],
  ['nobot', 'I\u2019m not accepting challenges from bots.'],
  ['onlybot', 'I\u2019m only accepting challenges from bots.'],
];
// A declined challenge's reason: the server's sentence, else lichess's for its key.
export const declineText = (c) => (c.declineReason && /\s/.test(c.declineReason) ? c.declineReason
  : (DECLINE_REASONS.find(([k]) => k === String(c.declineReasonKey || c.declineReason).toLowerCase()) || DECLINE_REASONS[0])[1]);

// ---- form fields ----

export const checkedValue = (root, name) => {
  const input = root.querySelector(`input[name="${name}"]:checked`);
  return input ? input.value : null;
};

const options = (values, selected, text = String) => values.map((v) => h('option', { value: v, selected: v === selected }, text(v)));

export function variantSelect(id, variants, selected) {
  return h('select', { id, name: 'variant' }, variants.map((v) => h('option', { value: v.name, selected: v.name === selected }, variantTitle(v.name))));
}

// The time control: real time (minutes + increment), correspondence (days a move) and, where
// allowed, unlimited.  value(): { kind: 'clock', minutes, increment } | { kind: 'days', days }
// | { kind: 'unlimited' }.
export function timeControlField(prefix, { kind = 'clock', minutes = 5, increment = 3, days = 3, unlimited = false } = {}) {
  const kinds = [['clock', 'Real time'], ['days', 'Correspondence']];
  if (unlimited) kinds.push(['unlimited', 'Unlimited']);
  const kindGroup = segmented(`${prefix}-kind`, kinds, kind, 'Time control');
  const min = h('select', { id: `${prefix}-minutes` }, options(MINUTES, minutes));
  const inc = h('select', { id: `${prefix}-increment` }, options(INCREMENTS, increment));
  const day = h('select', { id: `${prefix}-days` }, options(DAYS, days, (d) => `${plural(d, 'day')} a move`));
  const clockRow = h('div', { class: 'tc-row', 'data-kind': 'clock' },
    h('label', {}, min, ' min'), h('span', { 'aria-hidden': 'true' }, '+'), h('label', {}, inc, ' s a move'));
  min.setAttribute('aria-label', 'Minutes on the clock');
  inc.setAttribute('aria-label', 'Increment in seconds');
  const dayRow = h('div', { class: 'tc-row', 'data-kind': 'days' }, h('label', {}, day));
  day.setAttribute('aria-label', 'Days a move');
  const element = h('div', { class: 'field tc-field' }, h('div', { class: 'label' }, 'Time control'), kindGroup, clockRow, dayRow);
  const value = () => {
    const k = checkedValue(element, `${prefix}-kind`);
    if (k === 'clock') return { kind: k, minutes: Number(min.value), increment: Number(inc.value) };
    if (k === 'days') return { kind: k, days: Number(day.value) };
    return { kind: 'unlimited' };
  };
  const show = () => {
    const k = value().kind;
    clockRow.hidden = k !== 'clock';
    dayRow.hidden = k !== 'days';
  };
  element.addEventListener('change', show);
  show();
  return { element, value };
}

export function colorField(prefix, value = 'random') {
  return h('div', { class: 'field' }, h('div', { class: 'label' }, 'Your side'),
    segmented(`${prefix}-color`, [['white', 'White'], ['random', 'Random'], ['black', 'Black']], value, 'Your side'));
}

// For a logged-out reader: "Sign in or create an account to ...".
export function signInLine(what) {
  return h('p', { class: 'sign-in-line' }, h('a', { href: signInHref('login'), class: 'sign-in-to-play' }, 'Sign in'), ' or ',
    h('a', { href: signInHref('signup') }, 'create an account'), ` ${what}.`);
}
