// A challenge's own page (#/challenge/ID, the link of an open challenge): its terms; for its
// maker the link to pass on and Cancel (the game page opens once someone accepts); for anyone
// else logged in Accept (and Decline, when it is theirs); logged out, a way to sign in first.

import { api } from '../api.js';
import { h, notify, copyText, profileLink, ratingText } from '../ui.js';
import { currentAccount, signInHref } from '../session.js';
import { onAccountEvent } from '../accounts/events.js';
import { expectGame, knowGame } from './arrivals.js';
import { timeControlText, modeText, variantName, otherColor, colorText, declineText } from './terms.js';

const gameHref = (id) => `#/game/${encodeURIComponent(id)}`;

export class ChallengeView {
  constructor(root, variants, id) {
    Object.assign(this, { root, variants, id, offs: [] });
  }

  destroy() {
    for (const off of this.offs) off();
  }

  async start() {
    document.title = 'Challenge \u2014 starfish';
    let c;
    let account;
    try {
      [c, account] = await Promise.all([api.showChallenge(this.id), currentAccount().catch(() => null)]);
    } catch (e) {
      if (e.status !== 404) throw e;
      this.root.replaceChildren(h('div', { class: 'meet-page' }, h('section', { class: 'card' },
        h('h1', {}, 'No such challenge'), h('p', { class: 'muted' }, 'This link names no challenge.'))));
      return;
    }
    this.account = account;
    const refresh = (ev) => ev.challenge && ev.challenge.id === this.id && this.render(ev.challenge);
    this.offs.push(onAccountEvent('challengeCanceled', refresh), onAccountEvent('challengeDeclined', refresh));
    this.render(c);
  }

  render(c) {
    const mine = this.account && this.account.id === c.challenger.id;
    if (mine && c.status === 'created') expectGame(c.id);
    const side = mine ? c.color : otherColor(c.color);
    const card = h('section', { class: 'card challenge-card', id: 'challenge-card', 'data-status': c.status },
      h('h1', {}, mine ? 'Your challenge' : 'A challenge'),
      h('p', { class: 'challenge-who' }, mine ? 'You' : [profileLink(c.challenger.name), h('span', { class: 'muted' }, ` ${ratingText(c.challenger.rating, c.challenger.provisional)}`)],
        ' challenge', mine ? ' ' : 's ', c.destUser ? (this.account && c.destUser.id === this.account.id ? 'you' : profileLink(c.destUser.name)) : 'anyone with this link'),
      h('ul', { class: 'challenge-terms' },
        h('li', {}, variantName(c.variant)), h('li', {}, timeControlText(c.timeControl)), h('li', {}, modeText(c.rated)),
        h('li', {}, side === 'random' ? 'Random side' : `${mine ? 'You play' : 'You would play'} ${colorText(side)}`),
        c.initialFen ? h('li', { class: 'challenge-fen' }, `From ${c.initialFen}`) : null),
      this.actions(c, mine));
    this.root.replaceChildren(h('div', { class: 'meet-page' }, card));
  }

  actions(c, mine) {
    if (c.status === 'accepted') return h('p', {}, 'Accepted. ', h('a', { href: gameHref(c.id), id: 'challenge-game' }, 'Go to the game'));
    if (c.status === 'declined') return h('p', { id: 'challenge-over' }, `Declined: \u201C${declineText(c)}\u201D`);
    if (c.status !== 'created') return h('p', { id: 'challenge-over' }, 'This challenge was canceled.');
    if (mine) {
      const link = `${location.origin}${location.pathname}#/challenge/${encodeURIComponent(c.id)}`;
      const copy = h('button', { type: 'button', id: 'copy-challenge-link', onclick: () => copyText(link, copy) }, 'Copy');
      return h('div', {},
        c.destUser ? null : [h('label', { class: 'label', for: 'challenge-link' }, 'Send this link to your opponent'),
          h('div', { class: 'copy-row' }, h('input', { type: 'text', id: 'challenge-link', readonly: true, value: link }), copy)],
        h('p', { class: 'waiting' }, 'Waiting for an opponent: the game opens here when they accept.'),
        h('div', { class: 'action-row' }, h('button', { type: 'button', id: 'challenge-cancel', onclick: (e) => this.cancel(e.target) }, 'Cancel the challenge')));
    }
    if (!this.account) {
      return h('div', { class: 'action-row' },
        h('a', { href: signInHref('login'), class: 'button primary', id: 'sign-in-to-accept' }, 'Sign in to accept'),
        h('a', { href: signInHref('signup'), class: 'button' }, 'Create an account'));
    }
    const forMe = c.destUser && c.destUser.id === this.account.id;
    if (c.destUser && !forMe) return h('p', { class: 'muted' }, 'This challenge is for another player.');
    return h('div', { class: 'action-row' },
      h('button', { type: 'button', class: 'primary', id: 'challenge-accept', onclick: (e) => this.accept(e.target) }, 'Accept'),
      forMe ? h('button', { type: 'button', id: 'challenge-decline', onclick: (e) => this.decline(e.target) }, 'Decline') : null);
  }

  async accept(button) {
    button.disabled = true;
    knowGame(this.id);
    try {
      await api.acceptChallenge(this.id);
    } catch (e) {
      notify(`Could not accept the challenge: ${e.message}`);
      button.disabled = false;
      return;
    }
    location.hash = gameHref(this.id);
  }

  async act(button, send, what) {
    button.disabled = true;
    try {
      await send();
      this.render(await api.showChallenge(this.id));
    } catch (e) {
      notify(`Could not ${what} the challenge: ${e.message}`);
      button.disabled = false;
    }
  }

  cancel(button) {
    return this.act(button, () => api.cancelChallenge(this.id), 'cancel');
  }

  decline(button) {
    return this.act(button, () => api.declineChallenge(this.id, 'generic'), 'decline');
  }
}
