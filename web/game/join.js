// The offer on an invite link to take its side with one's account: needed in a rated game (its
// side is no one's until an account joins it: "Join as NAME", or sign in first), optional in a
// casual one (the game then counts on the player's profile; anonymous play goes on as before).

import { h, capitalize } from '../ui.js';
import { signInHref } from '../session.js';

export class JoinCard {
  constructor(state) {
    this.state = state;
    this.element = h('section', { class: 'card join-card', id: 'join', hidden: true });
    state.on('change', (keys) => (keys.has('game') || keys.has('joinOffer')) && this.render());
  }

  render() {
    const s = this.state;
    const offer = s.joinOffer;
    const g = s.game;
    // Gone once the game is over, or once another account has taken the side.
    this.element.hidden = !offer || g.status !== 'ongoing' || !!g.players[offer.side];
    if (this.element.hidden) return;
    const side = capitalize(offer.side);
    const join = () => h('button', { type: 'button', class: 'primary', id: 'join-game', onclick: () => s.emit('join') },
      `Join as ${s.account.username}`);
    if (!offer.required) {
      this.element.replaceChildren(
        h('p', { class: 'small' }, `You play ${side} anonymously. Join with your account to have this game on your profile.`), join());
    } else if (s.account) {
      this.element.replaceChildren(h('div', { class: 'card-title' }, 'Rated game'),
        h('p', { class: 'small' }, `Rated games are played between accounts: join to play ${side}.`), join());
    } else {
      this.element.replaceChildren(h('div', { class: 'card-title' }, 'Rated game'),
        h('p', { class: 'small' }, `Rated games are played between accounts: sign in to play ${side}.`),
        h('div', { class: 'action-row' },
          h('a', { href: signInHref('login'), class: 'button primary', id: 'sign-in-to-join' }, 'Sign in to join this rated game'),
          h('a', { href: signInHref('signup'), class: 'button', id: 'sign-up-to-join' }, 'Create an account')));
    }
  }
}
