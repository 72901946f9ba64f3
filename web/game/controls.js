// The status card: the game's title and terms (a rated game badged), whose turn it is, the
// result, the opponent's draw offer to answer, and the player's actions (offer a draw, resign,
// abort before both sides have moved, flip the board).

import { h, $, capitalize as cap, variantTitle, resultLine } from '../ui.js';
import { other } from './state.js';
import { learnLinks } from '../rules/page.js';

// "5 min + 3 s", "30 s + 0 s", "1 h 30 min + 10 s": never "0.4 min"; "3 days a move".
export function clockTerms(clock) {
  if (clock.days) return `${clock.days} ${clock.days === 1 ? 'day' : 'days'} a move`;
  const secs = Math.round(clock.base_ms / 1000);
  const parts = [];
  if (secs >= 3600) parts.push(`${Math.floor(secs / 3600)} h`);
  if (secs % 3600 >= 60) parts.push(`${Math.floor((secs % 3600) / 60)} min`);
  if (secs % 60 || !parts.length) parts.push(`${secs % 60} s`);
  return `${parts.join(' ')} + ${clock.inc_ms / 1000} s`;
}

// An opponent's offer to answer (takeback, rematch): its text and Accept / Decline.
function offerBox(what, answer) {
  return h('div', { class: 'offer-box', id: `${what}-box`, hidden: true, role: 'alert' },
    h('span', { class: 'offer-text' }),
    h('button', { type: 'button', id: `accept-${what}`, class: 'primary', onclick: () => answer('accept') }, 'Accept'),
    h('button', { type: 'button', id: `decline-${what}`, onclick: () => answer('decline') }, 'Decline'));
}

export class Controls {
  constructor(state) {
    this.state = state;
    const btn = (id, label, onclick, cls = '') => h('button', { type: 'button', id, class: cls, onclick }, label);
    this.el = {
      title: h('h2', { class: 'game-title' }, variantTitle(state.variant.name)),
      rated: h('span', { class: 'badge rated', id: 'rated-badge', title: 'This game counts for both players\' ratings', hidden: true }, 'Rated'),
      conn: h('span', { class: 'conn', id: 'conn', title: 'Live updates' }),
      sub: h('div', { class: 'game-sub muted' }),
      status: h('div', { class: 'status-line', id: 'status', role: 'status' }),
      result: h('div', { class: 'result-banner', id: 'result', hidden: true }),
      drawBox: h('div', { class: 'offer-box', id: 'draw-box', hidden: true, role: 'alert' },
        h('span', { class: 'offer-text' }),
        btn('accept-draw', 'Accept', () => state.emit('draw', 'accept'), 'primary'),
        btn('decline-draw', 'Decline', () => state.emit('draw', 'decline'))),
      takebackBox: offerBox('takeback', (action) => state.emit('takeback', action)),
      rematchBox: offerBox('rematch', (action) => state.emit('rematch', action)),
      offer: btn('offer-draw', '\u00BD Offer draw', () => state.emit('draw', 'offer')),
      takeback: btn('takeback', '\u21B6 Takeback', () => state.emit('takeback', 'offer')),
      rematch: btn('offer-rematch', '\u21BB Rematch', () => state.emit('rematch', 'offer')),
      resign: btn('resign', '\u2690 Resign', () => this.resign(), 'danger'),
      abort: btn('abort', '\u2715 Abort', () => state.emit('abort')),
      flip: btn('flip', '\u21C5 Flip board', () => state.emit('flip')),
    };
    const e = this.el;
    e.takeback.hidden = e.rematch.hidden = true;
    e.flip.setAttribute('aria-label', 'Flip board (f)');
    this.element = h('section', { class: 'card status-card' },
      h('div', { class: 'title-row' }, h('div', { class: 'title-left' }, e.title, e.rated), e.conn),
      e.sub, e.status, e.result, e.drawBox, e.takebackBox, e.rematchBox, learnLinks(state.variant.name));
    // The player's buttons: in the side panel on a wide screen, in one row under the board on a phone.
    this.bar = h('div', { class: 'action-bar', id: 'action-bar' }, e.abort, e.takeback, e.offer, e.resign, e.rematch, e.flip);
    state.on('change', () => this.render());
  }

  setConnection(s) {
    const c = this.el.conn;
    c.dataset.state = s;
    c.title = s === 'live' ? 'Live updates: connected' : s === 'reconnecting' ? 'Live updates: reconnecting\u2026' : 'Live updates: connecting\u2026';
    c.textContent = s === 'live' ? '\u25CF live' : '\u25CB reconnecting';
  }

  // A resignation needs a second click within 4 s.
  resign() {
    const b = this.el.resign;
    clearTimeout(this.resignTimer);
    if (b.classList.toggle('confirm')) {
      b.textContent = 'Really resign?';
      this.resignTimer = setTimeout(() => {
        b.classList.remove('confirm');
        b.textContent = '\u2690 Resign';
      }, 4000);
      return;
    }
    b.textContent = '\u2690 Resign';
    this.state.emit('resign');
  }

  render() {
    const s = this.state;
    const g = s.game;
    if (!g) return;
    const e = this.el;
    const setupLeft = g.hand && ((g.hand.white || '') + (g.hand.black || '')).length;
    if (s.local) {
      e.title.textContent = `Analysis board \u00B7 ${variantTitle(s.variant.name)}`;
      e.sub.textContent = 'any position; moves on the board are explored, not played';
      e.status.textContent = `${cap(s.playable() ? s.playable().side : g.side)} to move`;
      e.resign.hidden = e.offer.hidden = e.abort.hidden = true;
      return;
    }
    e.rated.hidden = !g.rated;
    e.sub.textContent = [
      g.player_kinds.white === 'engine' || g.player_kinds.black === 'engine' ? 'against the engine' : 'between two players',
      g.clock ? clockTerms(g.clock) : 'no clock',
      s.isPlayer ? `you play ${s.mySide || 'the side to move'}` : 'watching',
    ].join(' \u00B7 ');
    let status;
    if (g.status === 'over') status = 'Game over';
    else {
      status = `${cap(g.side)} to ${setupLeft ? 'place a piece' : 'move'}`;
      if (g.player_kinds[g.side] === 'engine') status = 'Engine is thinking\u2026';
      else if (s.isPlayer && s.mySide === g.side) status = setupLeft ? 'Your turn: place a piece from your hand' : 'Your move';
      else if (s.isPlayer && s.mySide) status = `Waiting for ${g.player_kinds[g.side] === 'engine' ? 'the engine' : 'your opponent'}\u2026`;
      if (g.check) status += ' \u2014 check!';
    }
    if (!s.live) status = `Viewing move ${s.viewPly} of ${g.moves.length} \u2014 ${status}`;
    e.status.textContent = status;
    e.status.classList.toggle('thinking', g.status === 'ongoing' && g.player_kinds[g.side] === 'engine');
    e.result.hidden = g.status !== 'over';
    e.result.textContent = g.status === 'over' ? resultLine(g.result, g.reason) : '';
    e.resign.disabled = !s.playing || s.pending;
    e.resign.hidden = e.offer.hidden = !s.isPlayer;
    e.abort.hidden = !s.abortable;
    e.abort.disabled = s.pending;
    const mine = s.mySide;
    const offered = g.draw_offer;
    e.offer.disabled = !s.playing || s.pending || (mine && offered === mine) || (offered && offered !== mine);
    e.offer.textContent = mine && offered === mine ? '\u00BD Draw offered' : '\u00BD Offer draw';
    const toAnswer = s.playing && offered && offered !== mine && (!mine || g.player_kinds[other(offered)] === 'human');
    e.drawBox.hidden = !toAnswer && !(offered && !s.isPlayer);
    this.renderTakeback();
    this.renderRematch();
    if (offered) {
      $('.offer-text', e.drawBox).textContent = toAnswer ? `${mine ? 'Your opponent' : cap(offered)} offers a draw.` : `${cap(offered)} offers a draw.`;
      $('#accept-draw', e.drawBox).hidden = $('#decline-draw', e.drawBox).hidden = !toAnswer;
    }
  }

  // The player's own last move may be taken back (the opponent agrees; the engine agrees in
  // a game without a clock); the opponent's request is answered in a box.
  renderTakeback() {
    const s = this.state;
    const g = s.game;
    const e = this.el;
    const asked = g.takeback_offer;
    const mine = s.mySide;
    const hasMove = mine && g.moves.some((m, i) => s.sideAfter(i) === mine);
    e.takeback.hidden = !s.isPlayer || g.status !== 'ongoing' || s.abortable; // Abort says it better
    e.takeback.disabled = !s.playing || s.pending || !hasMove || asked === mine || (asked && asked !== mine);
    e.takeback.textContent = asked === mine ? '\u21B6 Takeback asked' : '\u21B6 Takeback';
    const toAnswer = s.playing && asked && asked !== mine;
    e.takebackBox.hidden = !toAnswer;
    if (toAnswer) $('.offer-text', e.takebackBox).textContent = 'Your opponent asks to take back a move.';
  }

  renderRematch() {
    const s = this.state;
    const g = s.game;
    const e = this.el;
    const r = g.rematch || {};
    const mine = s.mySide;
    e.rematch.hidden = !s.isPlayer || g.status !== 'over';
    e.rematch.disabled = s.pending || (r.offer === mine && !r.game);
    e.rematch.textContent = r.game ? '\u21BB Go to the rematch' : r.offer === mine ? '\u21BB Rematch offered' : '\u21BB Rematch';
    const toAnswer = s.isPlayer && g.status === 'over' && r.offer && r.offer !== mine && !r.game;
    e.rematchBox.hidden = !toAnswer;
    if (toAnswer) $('.offer-text', e.rematchBox).textContent = 'Your opponent offers a rematch.';
  }
}
