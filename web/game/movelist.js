// The move list (numbered rows, Roman numerals for Starchess's setup) with the buttons that
// step through the game.  A click on a move asks the page to show the position after it.

import { h, $ } from '../ui.js';
import { moveRows } from '../position.js';
import { figurineText } from '../figurines.js';
import { setting, onSetting } from '../settings.js';

export class MoveList {
  constructor(state) {
    this.state = state;
    const btn = (id, label, title, onclick) => h('button', { type: 'button', id, class: 'icon', title, 'aria-label': title, onclick }, label);
    this.list = h('div', { class: 'move-list', id: 'move-list', role: 'list', 'aria-label': 'Moves' });
    this.nav = h('div', { class: 'move-nav' },
      btn('nav-first', '\u00AB', 'First position', () => state.emit('goto', 0)),
      btn('nav-prev', '\u2039', 'Previous move', () => state.emit('step', -1)),
      h('span', { class: 'ply-info', id: 'ply-info' }),
      btn('nav-next', '\u203A', 'Next move', () => state.emit('step', 1)),
      btn('nav-last', '\u00BB', 'Last position', () => state.emit('goto', null)));
    this.element = h('section', { class: 'card moves-card' }, h('div', { class: 'card-title' }, 'Moves'), this.list, this.nav);
    this.shown = -1;
    if (state.local) this.list.hidden = this.nav.hidden = true;
    state.on('change', (keys) => this.render(keys.has('game')));
    this.off = onSetting((key) => key === 'figurines' && this.state.game && this.build());
  }

  destroy() {
    this.off();
  }

  render(gameChanged) {
    const s = this.state;
    const g = s.game;
    if (!g) return;
    const grew = this.shown !== g.moves.length;
    if (grew || gameChanged) this.build();
    const k = s.ply;
    for (const b of this.list.querySelectorAll('.mv[data-ply]')) {
      const current = Number(b.dataset.ply) === k;
      b.classList.toggle('current', current);
      if (current) b.setAttribute('aria-current', 'true');
      else b.removeAttribute('aria-current');
    }
    const cur = this.list.querySelector('.mv.current');
    if (cur && (grew || !s.live)) {
      const top = cur.offsetTop - this.list.offsetTop;
      const horizontal = this.list.scrollWidth > this.list.clientWidth + 4; // the phone's strip
      if (horizontal) this.list.scrollLeft = cur.offsetLeft - this.list.offsetLeft - this.list.clientWidth / 2;
      else if (top < this.list.scrollTop || top > this.list.scrollTop + this.list.clientHeight - 30) this.list.scrollTop = top - this.list.clientHeight / 2;
    } else if (grew) {
      this.list.scrollTop = this.list.scrollHeight;
      this.list.scrollLeft = this.list.scrollWidth;
    }
    $('#ply-info', this.nav).textContent = `${k} / ${g.moves.length}`;
    $('#nav-first', this.nav).disabled = $('#nav-prev', this.nav).disabled = k === 0;
    $('#nav-next', this.nav).disabled = $('#nav-last', this.nav).disabled = s.live;
  }

  build() {
    const s = this.state;
    const g = s.game;
    this.shown = g.moves.length;
    const text = (m) => (m.san && setting('figurines') ? figurineText(m.san, s.variant) : m.san || m.uci);
    const cell = (i) => h('button', { type: 'button', class: 'mv', 'data-ply': i + 1, title: g.moves[i].uci, onclick: () => s.emit('goto', i + 1) }, text(g.moves[i]));
    const grid = h('div', { class: 'moves-grid' }, moveRows(g.start_fen, g.moves).map((r) => h('div', { class: 'mv-row', role: 'listitem' },
      h('span', { class: `mv-num${/^[IVX]+\.$/.test(r.label) ? ' setup' : ''}` }, r.label),
      r.white == null ? h('span', { class: 'mv empty' }, '\u2026') : cell(r.white),
      r.black == null ? h('span', { class: 'mv empty' }) : cell(r.black))));
    const children = [grid];
    if (!g.moves.length) children.push(h('p', { class: 'muted small no-moves' }, 'No moves yet.'));
    if (g.status === 'over') children.push(h('div', { class: 'mv-result' }, g.result));
    this.list.replaceChildren(...children);
  }
}
