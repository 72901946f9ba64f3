// TV (#/tv, #/tv/VARIANT): a channel a variant, each showing the game in play whose best rated
// player is the highest (GET /api/tv/channels), watched live on the game page's own view
// (a spectator's GameView); when that game ends the channel moves on to its next best game.
// #/tv alone shows the best channel.

import { api } from '../api.js';
import { h, variantTitle } from '../ui.js';
import { GameView } from '../game/page.js';
import { variantOfKey } from '../tournaments/format.js';

const POLL_MS = 2000; // the channels are read again this often
const NEXT_AFTER_MS = 2500; // a finished game stays on screen this long before the next

export class TvView {
  constructor(root, variants, variant) {
    Object.assign(this, { root, variants, variant: variant || null });
    this.alive = true;
    this.view = null; // the GameView shown
    this.shown = null; // its game's id
    this.endedAt = 0; // when the game shown was first seen over
  }

  destroy() {
    this.alive = false;
    clearTimeout(this.timer);
    if (this.view) this.view.destroy();
  }

  async start() {
    document.title = 'TV \u2014 starfish';
    this.channelsEl = h('nav', { class: 'tv-channels', id: 'tv-channels', 'aria-label': 'Channels' });
    this.screen = h('div', { class: 'tv-screen', id: 'tv-screen' });
    this.caption = h('p', { class: 'tv-caption', id: 'tv-caption', 'aria-live': 'polite' });
    this.root.replaceChildren(h('div', { class: 'tv-page' },
      h('div', { class: 'tv-head' }, h('h1', {}, 'TV'), this.caption), this.channelsEl, this.screen));
    await this.poll();
  }

  // The channels: {variant: {user, rating, gameId, color}} by our variant names.
  async readChannels() {
    const raw = await api.tvChannels();
    return Object.fromEntries(Object.entries(raw).map(([key, c]) => [variantOfKey(key), c]));
  }

  async poll() {
    let channels = null;
    try {
      channels = await this.readChannels();
    } catch {
      /* tried again at the next turn */
    }
    if (!this.alive) return;
    if (channels) {
      const best = Object.entries(channels).sort((a, b) => b[1].rating - a[1].rating)[0];
      const variant = this.variant || (best && best[0]) || this.variants[0].name;
      this.renderChannels(channels, variant);
      await this.tune(variant, channels[variant]);
    }
    if (this.alive) this.timer = setTimeout(() => this.poll(), POLL_MS);
  }

  renderChannels(channels, current) {
    this.channelsEl.replaceChildren(...this.variants.map((v) => {
      const c = channels[v.name];
      return h('a', { href: `#/tv/${encodeURIComponent(v.name)}`, class: `tv-channel${c ? '' : ' off-air'}`, 'data-variant': v.name,
        'aria-current': v.name === current ? 'page' : null },
      h('span', { class: 'tv-variant' }, variantTitle(v.name)),
      h('span', { class: 'tv-player muted small' }, c ? `${c.user.title ? `${c.user.title} ` : ''}${c.user.name} ${c.rating}` : 'No game'));
    }));
  }

  // Shows the channel's game: the one shown goes on until it ends, then the next comes.
  async tune(variant, channel) {
    const game = this.view && this.view.state.game;
    const over = game && game.status !== 'ongoing';
    if (over && !this.endedAt) this.endedAt = Date.now();
    const wanted = channel ? channel.gameId : null;
    if (wanted === this.shown || (game && !over && this.shownVariant === variant)) return;
    if (over && Date.now() - this.endedAt < NEXT_AFTER_MS && this.shownVariant === variant) return;
    if (this.view) this.view.destroy();
    this.view = null;
    this.endedAt = 0;
    this.shown = wanted;
    this.shownVariant = variant;
    if (!wanted) {
      this.caption.textContent = '';
      this.screen.replaceChildren(h('p', { class: 'muted tv-off', id: 'tv-off' }, `No ${variantTitle(variant)} game is being played now. This channel shows the next one that starts.`));
      return;
    }
    this.caption.textContent = `${variantTitle(variant)}: ${channel.user.name} (${channel.rating}) plays ${channel.color}.`;
    const host = h('div', { class: 'tv-game', 'data-game': wanted });
    this.screen.replaceChildren(host);
    const view = new GameView(host, this.variants, wanted, new URLSearchParams());
    this.view = view;
    try {
      await view.start();
    } catch (e) {
      host.replaceChildren(h('p', { class: 'load-error' }, `Could not show the game: ${e.message || e}`));
      return;
    }
    if (this.view === view && channel.color === 'black' && !view.state.flipped) view.state.emit('flip');
    document.title = `TV: ${variantTitle(variant)} \u2014 starfish`;
  }
}
