// The lobby's two ways to seek a game: quick pairing (a variant, then one button per time
// control: 3+2, 5+3, 10+5, 15+10, 3 days; pressed again, or another, it stops seeking) and the
// full form (variant, clock or days, rated, side, rating range).  Both send the seek through
// the page's Seeking (seeking.js).

import { h, variantTitle } from '../ui.js';
import { variantSelect, timeControlField, colorField, checkedValue, keyOfVariant, signInLine, timeControlText, modeText } from './terms.js';

export const QUICK = [
  { key: '3+2', time: 3, increment: 2, speed: 'Blitz' },
  { key: '5+3', time: 5, increment: 3, speed: 'Blitz' },
  { key: '10+5', time: 10, increment: 5, speed: 'Rapid' },
  { key: '15+10', time: 15, increment: 10, speed: 'Rapid' },
  { key: '3d', days: 3, label: '3 days', speed: 'Correspondence' },
];
const RANGES = [0, 100, 200, 300, 500];

// The body of POST /api/board/seek (lichess's fields).
function seekBody({ variant, rated, color = 'random', time, increment, days, range = 0, rating = 1500 }) {
  const body = { variant: keyOfVariant(variant), rated, color };
  if (days) body.days = days;
  else Object.assign(body, { time, increment });
  if (range) body.ratingRange = `${Math.max(1, rating - range)}-${rating + range}`;
  return body;
}

// "Chess 5+3 rated": what a seek of this page is, in words.
const seekLabel = (variant, body) => `${variantTitle(variant)} ${timeControlText(body.days
  ? { type: 'correspondence', daysPerTurn: body.days } : { type: 'clock', limit: body.time * 60, increment: body.increment })} ${modeText(body.rated).toLowerCase()}`;

export class QuickPairing {
  constructor({ variants, account, variant, seeking, onChoose = () => {} }) {
    Object.assign(this, { variants, account, seeking, variant, onChoose });
    this.rated = h('input', { type: 'checkbox', id: 'quick-rated', checked: !!account, disabled: !account });
    this.pills = h('div', { class: 'variant-chooser', role: 'radiogroup', 'aria-label': 'Variant' },
      variants.map((v) => h('button', { type: 'button', class: 'pill quick-variant', 'data-variant': v.name, role: 'radio', onclick: () => this.choose(v.name) }, variantTitle(v.name))));
    this.buttons = QUICK.map((q) => h('button', { type: 'button', class: 'quick-pair', 'data-tc': q.key, disabled: !account, onclick: () => this.press(q) },
      h('span', { class: 'qp-time' }, q.label || q.key), h('span', { class: 'qp-speed' }, q.speed)));
    this.status = h('p', { class: 'seek-status', id: 'seek-status', role: 'status' });
    this.element = h('section', { class: 'card quick-card', id: 'quick-pairing' },
      h('div', { class: 'card-head' }, h('h2', {}, 'Quick pairing'),
        h('label', { class: 'check-row' }, this.rated, ' Rated')),
      this.pills,
      h('div', { class: 'quick-grid' }, this.buttons),
      account ? this.status : signInLine('to be paired with a player'));
    this.choose(variant);
  }

  choose(name) {
    this.variant = name;
    for (const p of this.pills.children) p.setAttribute('aria-checked', String(p.dataset.variant === name));
    if (this.seeking.current && this.seeking.current.key.startsWith('quick')) this.seeking.cancel();
    this.onChoose(name);
  }

  press(q) {
    const key = `quick:${this.variant}:${q.key}`;
    if (this.seeking.current && this.seeking.current.key === key) {
      this.seeking.cancel();
      return;
    }
    const rating = this.account.perfs && this.account.perfs[this.variant] ? this.account.perfs[this.variant].rating : 1500;
    const body = seekBody({ variant: this.variant, rated: this.rated.checked, rating, ...q });
    this.seeking.start(body, key, seekLabel(this.variant, body));
  }

  // The seek that waits: its button pressed, a line saying so.
  show(current) {
    for (const b of this.buttons) {
      const on = !!current && current.key === `quick:${this.variant}:${b.dataset.tc}`;
      b.classList.toggle('seeking', on);
      b.setAttribute('aria-pressed', String(on));
    }
    if (!this.account) return;
    this.status.textContent = current
      ? `Looking for an opponent: ${current.label}\u2026 Press the button again to stop.`
      : '';
  }
}

export class SeekForm {
  constructor({ variants, account, variant, seeking }) {
    Object.assign(this, { variants, account, seeking });
    this.tc = timeControlField('seek', { minutes: 10, increment: 5 });
    this.ratedBox = h('input', { type: 'checkbox', id: 'seek-rated', checked: true });
    this.range = h('select', { id: 'seek-range' }, RANGES.map((r) => h('option', { value: r }, r ? `\u00B1${r}` : 'Any rating')));
    this.form = h('form', { class: 'seek-form', id: 'seek-form', autocomplete: 'off' },
      h('div', { class: 'field' }, h('label', { class: 'label', for: 'seek-variant' }, 'Variant'), variantSelect('seek-variant', variants, variant)),
      this.tc.element,
      h('div', { class: 'field-row' },
        h('div', { class: 'field' }, h('div', { class: 'label' }, 'Mode'), h('label', { class: 'check-row' }, this.ratedBox, ' Rated')),
        h('div', { class: 'field' }, h('label', { class: 'label', for: 'seek-range' }, 'Opponent\u2019s rating'), this.range)),
      colorField('seek'),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'seek-create' }, 'Create seek')));
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit();
    });
    this.element = h('section', { class: 'card seek-form-card', id: 'create-seek' }, h('h2', {}, 'Create a seek'),
      account ? this.form : signInLine('to create a seek'));
  }

  submit() {
    const variant = this.form.querySelector('#seek-variant').value;
    const t = this.tc.value();
    const perf = this.account.perfs && this.account.perfs[variant];
    const body = seekBody({ variant, rated: this.ratedBox.checked, color: checkedValue(this.form, 'seek-color'),
      time: t.minutes, increment: t.increment, days: t.kind === 'days' ? t.days : 0, range: Number(this.range.value), rating: perf ? perf.rating : 1500 });
    this.seeking.start(body, `form:${Date.now()}`, seekLabel(variant, body));
  }

  show(current) {
    const b = this.form.querySelector('#seek-create');
    b.textContent = current && current.key.startsWith('form') ? 'Seeking\u2026 (create another to replace it)' : 'Create seek';
  }
}
