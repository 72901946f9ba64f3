// The lobby (#/lobby): quick pairing, the open seeks live with one-click accept, a seek of
// one's own, a challenge anyone may accept by its link, and the bots to play.  Logged out, it
// shows the seeks and the bots and asks to sign in to play.  Leaving it stops a real-time seek.

import { api } from '../api.js';
import { h } from '../ui.js';
import { currentAccount } from '../session.js';
import { Seeking } from './seeking.js';
import { SeekList } from './seeks.js';
import { QuickPairing, SeekForm } from './seekform.js';
import { BotList } from './bots.js';
import { openChallengeForm } from './challengeform.js';
import { signInLine } from './terms.js';

export class LobbyView {
  constructor(root, variants) {
    Object.assign(this, { root, variants, alive: true });
  }

  destroy() {
    this.alive = false;
    if (this.seeking) this.seeking.cancel();
    if (this.seeks) this.seeks.destroy();
  }

  async start() {
    document.title = 'Lobby \u2014 starfish';
    const account = await currentAccount().catch(() => null);
    if (!this.alive) return;
    const saved = JSON.parse(localStorage.getItem('starfish:prefs') || '{}');
    const variant = this.variants.some((v) => v.name === saved.variant) ? saved.variant : this.variants[0].name;
    this.seeking = new Seeking((current) => {
      this.quick.show(current);
      this.form.show(current);
    }, () => this.takeOutOwn());
    const parts = { variants: this.variants, account, variant, seeking: this.seeking, onChoose: () => this.bots && this.bots.render() };
    this.quick = new QuickPairing(parts);
    this.form = new SeekForm(parts);
    this.seeks = new SeekList(account, { onCancelOwn: () => this.seeking.cancel() });
    this.bots = new BotList({ variants: this.variants, account, variant: () => this.quick.variant });
    const friend = h('section', { class: 'card', id: 'challenge-friend' }, h('h2', {}, 'Play a friend'),
      h('p', { class: 'muted small' }, 'A challenge anyone may accept: send its link to your friend.'),
      account
        ? h('button', { type: 'button', id: 'open-challenge', onclick: () => openChallengeForm({ variants: this.variants, variant: this.quick.variant }) }, 'Create a challenge link')
        : signInLine('to challenge a friend'));
    this.root.replaceChildren(h('div', { class: 'lobby' },
      h('div', { class: 'lobby-main' }, this.quick.element, this.seeks.element),
      h('div', { class: 'lobby-side' }, this.bots.element, this.form.element, friend)));
    await this.bots.load();
  }

  // The page's own real-time seeks, taken out of the lobby at once (leaving the request alone
  // would take them out too, once the server notices).
  takeOutOwn() {
    for (const s of this.seeks ? this.seeks.seeks : []) {
      if (this.seeks.mine(s) && s.timeControl.type === 'clock') api.cancelSeek(s.id).catch(() => {});
    }
  }
}
