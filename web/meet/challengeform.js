// The challenge form, in a dialog: to a player by name (from their profile or the list of bots)
// or open (a link for anyone): the variant, a clock or days a move (or unlimited, casual), rated
// or casual, the side, and for a casual game a starting position (FEN).  Sent, a challenge to a
// player waits in the dialog until it is answered: accepted, the game page opens (arrivals.js);
// declined, the dialog says why.

import { api } from '../api.js';
import { h, notify } from '../ui.js';
import { onAccountEvent } from '../accounts/events.js';
import { expectGame } from './arrivals.js';
import { variantSelect, timeControlField, colorField, checkedValue, declineText, keyOfVariant } from './terms.js';

// The body of POST /api/challenge in lichess's fields.
function challengeBody(form, tc, fen) {
  const t = tc.value();
  const body = { variant: keyOfVariant(form.querySelector('#challenge-variant').value), rated: form.querySelector('#challenge-rated').checked,
    color: checkedValue(form, 'challenge-color') };
  if (t.kind === 'clock') body.clock = { limit: t.minutes * 60, increment: t.increment };
  if (t.kind === 'days') body.days = t.days;
  if (fen && !body.rated) body.fen = fen;
  return body;
}

// opts: { variants, username (null: an open challenge), variant, time: {kind, minutes, increment, days}, rated, color }
export function openChallengeForm({ variants, username = null, variant = 'chess', time = {}, rated = false, color = 'random' }) {
  const dialog = h('dialog', { class: 'meet-dialog', id: 'challenge-dialog', 'aria-labelledby': 'challenge-title' });
  const close = () => {
    window.removeEventListener('hashchange', close);
    for (const off of dialog.offs || []) off();
    if (dialog.open) dialog.close();
    dialog.remove();
  };
  window.addEventListener('hashchange', close);
  dialog.addEventListener('close', close);
  const tc = timeControlField('challenge', { unlimited: true, ...time });
  const ratedBox = h('input', { type: 'checkbox', id: 'challenge-rated', checked: rated });
  const fen = h('textarea', { id: 'challenge-fen', rows: 2, spellcheck: 'false', placeholder: 'A position in the variant\'s FEN (casual games)' });
  const error = h('p', { class: 'form-error', id: 'challenge-error', role: 'alert', hidden: true });
  const send = h('button', { type: 'submit', class: 'primary', id: 'challenge-send' }, username ? `Challenge ${username}` : 'Create the link');
  const form = h('form', { class: 'challenge-form', autocomplete: 'off' },
    h('div', { class: 'field' }, h('label', { class: 'label', for: 'challenge-variant' }, 'Variant'), variantSelect('challenge-variant', variants, variant)),
    tc.element,
    h('div', { class: 'field' }, h('label', { class: 'check-row' }, ratedBox, ' Rated'),
      h('div', { class: 'hint muted small', id: 'challenge-rated-hint' }, 'Rated games have a clock or days a move, from the standard position.')),
    colorField('challenge', color),
    h('details', { class: 'import', id: 'challenge-position' }, h('summary', {}, 'Start from a position (casual)'), fen),
    error,
    h('div', { class: 'actions' }, h('button', { type: 'button', id: 'challenge-close', onclick: close }, 'Cancel'), send));
  // Rated needs a time limit and the standard start; a FEN makes the game casual.
  const sync = () => {
    const unlimited = tc.value().kind === 'unlimited';
    ratedBox.disabled = unlimited || !!fen.value.trim();
    if (ratedBox.disabled) ratedBox.checked = false;
    form.querySelector('#challenge-position').hidden = ratedBox.checked;
  };
  form.addEventListener('input', sync);
  form.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.hidden = true;
    send.disabled = true;
    let c;
    try {
      c = await api.challenge(username, challengeBody(form, tc, fen.value.trim()));
    } catch (err) {
      error.textContent = `Could not send the challenge: ${err.detail || err.message}`;
      error.hidden = false;
      send.disabled = false;
      return;
    }
    expectGame(c.id);
    if (!username) location.hash = `#/challenge/${encodeURIComponent(c.id)}`;
    else if (dialog.isConnected) waitForAnswer(dialog, c); // a bot may have accepted already: the game is open
  });
  dialog.append(h('h2', { id: 'challenge-title' }, username ? `Challenge ${username}` : 'Challenge anyone with a link'), form);
  document.body.appendChild(dialog);
  dialog.showModal();
  return dialog;
}

// A sent challenge: waiting for its answer; a decline says its reason.
function waitForAnswer(dialog, c) {
  const name = c.destUser ? c.destUser.name : 'your opponent';
  const text = h('p', { class: 'waiting', id: 'challenge-waiting' }, `Waiting for ${name} to accept\u2026`);
  const cancel = h('button', { type: 'button', id: 'challenge-cancel' }, 'Cancel the challenge');
  const actions = h('div', { class: 'actions' }, cancel);
  cancel.addEventListener('click', async () => {
    cancel.disabled = true;
    try {
      await api.cancelChallenge(c.id);
    } catch (err) {
      notify(`Could not cancel the challenge: ${err.message}`);
    }
    dialog.close();
  });
  const ended = (type, fn) => onAccountEvent(type, (ev) => ev.challenge && ev.challenge.id === c.id && fn(ev.challenge));
  dialog.offs = [
    ended('challengeDeclined', (ch) => {
      text.classList.remove('waiting');
      text.id = 'challenge-declined';
      text.textContent = `${name} declined the challenge: \u201C${declineText(ch)}\u201D`;
      actions.replaceChildren(h('button', { type: 'button', class: 'primary', id: 'challenge-done', onclick: () => dialog.close() }, 'Close'));
    }),
    ended('challengeCanceled', () => dialog.close()),
  ];
  dialog.querySelector('form').replaceWith(h('div', { class: 'challenge-sent' }, text, actions));
}
