// The challenges in the header, on every page of a logged-in player: a button with the count
// of incoming ones, and a panel that opens by itself when one arrives (a notification), each
// with Accept and Decline (and a reason); the player's own open challenges with Cancel.  It
// reads GET /api/challenge whenever the account's stream opens, then follows its events.

import { api } from '../api.js';
import { h, notify, dropdown, announce, profileLink, ratingText } from '../ui.js';
import { onAccountEvent } from '../accounts/events.js';
import { currentAccount, onAccountChange } from '../session.js';
import { expectGame, knowGame } from './arrivals.js';
import { timeControlText, modeText, variantName, otherColor, DECLINE_REASONS, declineText } from './terms.js';

const challenges = new Map(); // id -> CHALLENGE, open ones
const told = new Set(); // incoming ones the panel has opened for
let panel;
let button;
let show;

const gameHref = (id) => `#/game/${encodeURIComponent(id)}`;

function terms(c, side) {
  return `${variantName(c.variant)} \u00B7 ${timeControlText(c.timeControl)} \u00B7 ${modeText(c.rated)} \u00B7 ${side === 'random' ? 'random side' : `you play ${side}`}`;
}

async function accept(c, row) {
  row.querySelectorAll('button, select').forEach((b) => { b.disabled = true; });
  knowGame(c.id); // the page goes there itself
  try {
    await api.acceptChallenge(c.id);
  } catch (e) {
    notify(`Could not accept the challenge: ${e.message}`);
    challenges.delete(c.id);
    render();
    return;
  }
  challenges.delete(c.id);
  render();
  show(false);
  location.hash = gameHref(c.id);
}

async function answer(c, row, send, what) {
  row.querySelectorAll('button, select').forEach((b) => { b.disabled = true; });
  try {
    await send();
  } catch (e) {
    notify(`Could not ${what} the challenge: ${e.message}`);
  }
  challenges.delete(c.id);
  render();
}

function incoming(c) {
  const reason = h('select', { class: 'decline-reason', 'aria-label': `Reason to decline ${c.challenger.name}'s challenge` },
    DECLINE_REASONS.map(([key, text]) => h('option', { value: key, title: text }, key === 'generic' ? 'No reason' : text)));
  const row = h('li', { class: 'challenge-item in', 'data-id': c.id },
    h('div', { class: 'ci-who' }, profileLink(c.challenger.name), h('span', { class: 'muted' }, ` ${ratingText(c.challenger.rating, c.challenger.provisional)}`),
      ' challenges you'),
    h('div', { class: 'ci-terms muted small' }, terms(c, otherColor(c.color))),
    c.initialFen ? h('div', { class: 'ci-terms muted small' }, 'from a set position') : null);
  row.append(h('div', { class: 'ci-actions' },
    h('button', { type: 'button', class: 'primary accept-challenge', onclick: () => accept(c, row) }, 'Accept'),
    h('button', { type: 'button', class: 'decline-challenge', onclick: () => answer(c, row, () => api.declineChallenge(c.id, reason.value), 'decline') }, 'Decline'),
    reason));
  return row;
}

function outgoing(c) {
  const row = h('li', { class: 'challenge-item out', 'data-id': c.id },
    h('div', { class: 'ci-who' }, 'You challenge ', c.destUser ? profileLink(c.destUser.name) : h('a', { href: `#/challenge/${encodeURIComponent(c.id)}` }, 'anyone with the link')),
    h('div', { class: 'ci-terms muted small' }, terms(c, c.color)));
  row.append(h('div', { class: 'ci-actions' },
    h('button', { type: 'button', class: 'cancel-challenge', onclick: () => answer(c, row, () => api.cancelChallenge(c.id), 'cancel') }, 'Cancel')));
  return row;
}

function render() {
  const list = [...challenges.values()];
  const ins = list.filter((c) => c.direction === 'in');
  const outs = list.filter((c) => c.direction === 'out');
  button.querySelector('.count').textContent = ins.length ? String(ins.length) : '';
  button.classList.toggle('has-some', ins.length > 0);
  button.setAttribute('aria-label', `Challenges: ${ins.length} incoming`);
  panel.replaceChildren(...[h('div', { class: 'card-title' }, 'Challenges'),
    list.length ? null : h('p', { class: 'muted small', id: 'no-challenges' }, 'No challenges. Challenge a player from their profile, or meet someone in the lobby.'),
    ins.length ? h('ul', { class: 'challenge-list', id: 'incoming-challenges' }, ins.map(incoming)) : null,
    outs.length ? h('ul', { class: 'challenge-list', id: 'outgoing-challenges' }, outs.map(outgoing)) : null,
    h('a', { href: '#/lobby', class: 'small' }, 'Go to the lobby')].filter(Boolean));
}

async function reload() {
  let all;
  try {
    all = await api.challenges();
  } catch {
    return; // the stream's next opening tries again
  }
  challenges.clear();
  for (const c of [...all.in, ...all.out]) {
    challenges.set(c.id, c);
    if (c.direction === 'out') expectGame(c.id);
  }
  render();
  if (all.in.some((c) => !told.has(c.id))) tell(all.in);
}

// The notification: the panel opens for challenges not told of yet.
function tell(incoming) {
  for (const c of incoming) told.add(c.id);
  show(true);
}

function listen() {
  onAccountEvent('open', reload);
  onAccountEvent('challenge', ({ challenge: c }) => {
    challenges.set(c.id, c);
    render();
    if (c.direction === 'out') {
      expectGame(c.id);
      return;
    }
    tell([c]);
    announce(`${c.challenger.name} challenges you: ${terms(c, otherColor(c.color))}`);
  });
  onAccountEvent('challengeCanceled', ({ challenge: c }) => {
    const had = challenges.delete(c.id);
    render();
    if (had && c.direction === 'in') notify(`${c.challenger.name} canceled the challenge.`, 'info');
  });
  onAccountEvent('challengeDeclined', ({ challenge: c }) => {
    challenges.delete(c.id);
    render();
    if (c.direction === 'out' && !document.getElementById('challenge-dialog')) {
      notify(`${c.destUser ? c.destUser.name : 'Your opponent'} declined your challenge: \u201C${declineText(c)}\u201D`,
        'info', { ms: 15000, name: 'challenge-declined' });
    }
  });
  // An accepted challenge is a game with its id.
  onAccountEvent('gameStart', ({ game }) => {
    if (game && challenges.delete(game.gameId || game.id)) render();
  });
}

// Mounted once by app.js, before the account links.
export function mountInbox(host) {
  button = h('button', { type: 'button', class: 'icon ghost inbox-button', id: 'challenges-button', title: 'Challenges', 'aria-expanded': 'false',
    'aria-controls': 'challenge-panel', hidden: true },
  h('span', { class: 'inbox-icon', 'aria-hidden': 'true' }, '\u2694'), h('span', { class: 'count', 'aria-hidden': 'true' }));
  panel = h('div', { class: 'account-panel challenge-panel', id: 'challenge-panel', hidden: true, role: 'region', 'aria-label': 'Challenges' });
  show = dropdown(button, panel);
  panel.addEventListener('click', (e) => e.target.closest('a') && show(false));
  window.addEventListener('hashchange', () => show(false));
  host.append(button, panel);
  render();
  listen();
  const follow = (account) => {
    button.hidden = !account;
    if (!account) {
      challenges.clear();
      show(false);
      render();
    }
  };
  onAccountChange(follow);
  currentAccount().then(follow, () => follow(null));
}
