// The bots to play (GET /api/bot/online, NDJSON: one account a line), the house engine's
// Starfish-Level-1 .. 4 among them (always online): each marked online (the list has only the
// bots online), with its rating in the variant chosen in the lobby and a Challenge button that
// opens the challenge form, filled in (that variant, 5+3, casual).
// A bot accepts or declines by itself; the house bots accept at once.

import { api } from '../api.js';
import { h, profileLink, botBadge, ratingText, variantTitle } from '../ui.js';
import { signInHref } from '../session.js';
import { openChallengeForm } from './challengeform.js';
import { keyOfVariant } from './terms.js';

export class BotList {
  // variant(): the variant chosen in the lobby.
  constructor({ variants, account, variant }) {
    Object.assign(this, { variants, account, variant, bots: null });
    this.list = h('ul', { class: 'bot-list', id: 'bot-list' }, h('li', { class: 'muted' }, 'Loading\u2026'));
    this.caption = h('p', { class: 'muted small', id: 'bot-caption' });
    this.element = h('section', { class: 'card bots-card', id: 'play-bot' }, h('h2', {}, 'Play a bot'), this.caption, this.list);
  }

  async load() {
    try {
      this.bots = await api.botsOnline(50);
    } catch (e) {
      this.list.replaceChildren(h('li', { class: 'error-text' }, `Could not load the bots: ${e.detail || e.message}`));
      return;
    }
    this.render();
  }

  render() {
    if (!this.bots) return;
    const variant = this.variant();
    this.caption.textContent = `The bots online now, rated in ${variantTitle(variant)}. Bot games may be rated like any other.`;
    if (!this.bots.length) {
      this.list.replaceChildren(h('li', { class: 'muted' }, 'No bot is online.'));
      return;
    }
    // The house bots in their order of strength, then the others by name.
    const sorted = [...this.bots].sort((a, b) => (b.house === true) - (a.house === true) || a.username.localeCompare(b.username, undefined, { numeric: true }));
    this.list.replaceChildren(...sorted.map((bot) => this.row(bot, variant)));
  }

  row(bot, variant) {
    const perf = bot.perfs && (bot.perfs[keyOfVariant(variant)] || bot.perfs[variant]);
    const bio = bot.profile && bot.profile.bio;
    return h('li', { class: 'bot-row', 'data-bot': bot.id },
      h('span', { class: 'bot-name' }, botBadge(), ' ', profileLink(bot.username)),
      h('span', { class: 'bot-rating', title: `rating in ${variantTitle(variant)}` }, perf ? ratingText(perf.rating, perf.prov) : '\u2013'),
      h('span', { class: 'bot-about muted small' }, h('span', { class: 'bot-status', 'data-online': 'true' }, h('span', { 'aria-hidden': 'true' }, '\u25CF '), 'online'), bio ? ` \u00B7 ${bio}` : null),
      this.account
        ? h('button', { type: 'button', class: 'challenge-bot', 'aria-label': `Challenge ${bot.username}`,
          onclick: () => openChallengeForm({ variants: this.variants, username: bot.username, variant: this.variant(), time: { kind: 'clock', minutes: 5, increment: 3 } }) }, 'Challenge')
        : h('a', { href: signInHref(), class: 'sign-in-to-play' }, 'Sign in to play'));
  }
}
