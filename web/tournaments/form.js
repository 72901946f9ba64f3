// Making a tournament (#/tournaments/new): an arena (a length in minutes, berserk, entry
// conditions) or a round robin (a fixed list of players), with a variant, a clock, rated or
// not and a start; POST /api/tournament in lichess's fields, then the tournament's page.

import { api } from '../api.js';
import { h, $, notify, variantTitle } from '../ui.js';
import { currentAccount, signInHref } from '../session.js';
import { keyOfVariant, tournamentHref } from './format.js';

const CLOCK_MINUTES = [['0.25', '\u00BC'], ['0.5', '\u00BD'], ['1', '1'], ['2', '2'], ['3', '3'], ['5', '5'], ['10', '10'], ['15', '15'], ['30', '30']];
const INCREMENTS = [0, 1, 2, 3, 5, 10, 20];
const STARTS = [[0, 'At once'], [1, 'In 1 minute'], [2, 'In 2 minutes'], [5, 'In 5 minutes'], [10, 'In 10 minutes'], [30, 'In 30 minutes'], [60, 'In an hour']];

const options = (list, value) => list.map(([v, label]) => h('option', { value: v, selected: String(v) === String(value) }, label));
const field = (label, control, hint) => h('div', { class: 'field' },
  h('label', { class: 'label', for: control.id }, label), control, hint && h('div', { class: 'muted small hint' }, hint));

export class TournamentFormView {
  constructor(root, variants) {
    this.root = root;
    this.variants = variants;
    this.alive = true;
  }

  destroy() {
    this.alive = false;
  }

  async start() {
    document.title = 'New tournament \u2014 starfish';
    const account = await currentAccount().catch(() => null);
    if (!this.alive) return;
    if (!account) {
      this.root.replaceChildren(h('div', { class: 'tour-page' }, h('section', { class: 'card' }, h('h1', {}, 'New tournament'),
        h('p', {}, 'Tournaments are made and played with an account.'),
        h('a', { href: signInHref('login'), class: 'button primary', id: 'sign-in-to-create' }, 'Sign in'))));
      return;
    }
    this.render();
  }

  render() {
    const number = (id, min, max, value, step = 1) => h('input', { type: 'number', id, name: id, min, max, step, value, inputmode: 'numeric' });
    const form = h('form', { class: 'card tour-form', id: 'tournament-form', autocomplete: 'off' },
      h('h1', {}, 'New tournament'),
      h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': 'Kind' },
        [['arena', 'Arena'], ['robin', 'Round robin']].map(([v, label]) => h('label', { class: 'seg', 'data-value': v },
          h('input', { type: 'radio', name: 'system', value: v, checked: v === 'arena' }), h('span', {}, label)))),
      h('p', { class: 'muted small', id: 'system-desc' }),
      field('Name', h('input', { type: 'text', id: 'tour-name', maxlength: 60, placeholder: 'Named after its variant if left empty' })),
      h('div', { class: 'field-row' },
        field('Variant', h('select', { id: 'tour-variant' }, this.variants.map((v) => h('option', { value: v.name }, variantTitle(v.name))))),
        field('Start', h('select', { id: 'tour-start' }, options(STARTS, 5)))),
      h('div', { class: 'field-row' },
        field('Clock (minutes)', h('select', { id: 'tour-clock' }, options(CLOCK_MINUTES, '3'))),
        field('Increment (seconds)', h('select', { id: 'tour-increment' }, options(INCREMENTS.map((i) => [i, String(i)]), 2)))),
      h('div', { class: 'arena-only' },
        field('Length (minutes)', number('tour-minutes', 1, 720, 45), 'Players are paired again and again until the end.'),
        h('label', { class: 'check-row' }, h('input', { type: 'checkbox', id: 'tour-berserk', checked: true }), ' Berserk allowed (half one\u2019s clock for a point more)')),
      h('div', { class: 'robin-only' },
        field('Players', h('input', { type: 'text', id: 'tour-players', placeholder: 'alice, bob, carol, dave' }),
          'Their names, 2 to 20, separated by commas: each pair plays twice, once with each colour.')),
      h('label', { class: 'check-row' }, h('input', { type: 'checkbox', id: 'tour-rated', checked: true }), ' Rated'),
      h('details', { class: 'arena-only conditions', id: 'tour-conditions' }, h('summary', {}, 'Entry conditions'),
        h('div', { class: 'field-row' },
          field('Minimum rating', number('tour-min-rating', 0, 5000, '')),
          field('Maximum rating', number('tour-max-rating', 0, 5000, '')),
          field('Rated games at least', number('tour-min-games', 0, 10000, ''))),
        h('p', { class: 'muted small' }, 'Ratings are the tournament\u2019s variant\u2019s, now.'),
        h('label', { class: 'check-row' }, h('input', { type: 'checkbox', id: 'tour-bots' }), ' Bot accounts may join')),
      field('Description', h('textarea', { id: 'tour-description', rows: 2, maxlength: 400 })),
      h('p', { class: 'form-error', id: 'tour-error', hidden: true, role: 'alert' }),
      h('div', { class: 'action-row' },
        h('button', { type: 'submit', class: 'primary big', id: 'create-tournament' }, 'Create'),
        h('a', { href: '#/tournaments', class: 'button' }, 'Cancel')));
    form.addEventListener('change', () => this.showSystem(form));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit(form);
    });
    this.root.replaceChildren(h('div', { class: 'tour-page tour-form-page' }, form));
    this.showSystem(form);
  }

  showSystem(form) {
    const robin = form.elements.system.value === 'robin';
    for (const el of form.querySelectorAll('.arena-only')) el.hidden = robin;
    for (const el of form.querySelectorAll('.robin-only')) el.hidden = !robin;
    $('#system-desc', form).textContent = robin
      ? 'A fixed list of players, each pair twice (Berger tables), round after round; a cross table.'
      : 'Players join and leave as they like and are paired as soon as they wait; 2 points a win, 1 a draw, double after two wins in a row.';
  }

  // The form in lichess's fields (docs/api-lichess.md: POST /api/tournament).
  body(form) {
    const value = (id) => $(`#${id}`, form).value.trim();
    const checked = (id) => $(`#${id}`, form).checked;
    const robin = form.elements.system.value === 'robin';
    const body = {
      system: robin ? 'robin' : 'arena',
      variant: keyOfVariant(value('tour-variant')),
      clockTime: Number(value('tour-clock')),
      clockIncrement: Number(value('tour-increment')),
      waitMinutes: Number(value('tour-start')),
      rated: checked('tour-rated'),
    };
    if (value('tour-name')) body.name = value('tour-name');
    if (value('tour-description')) body.description = value('tour-description');
    if (robin) {
      body.players = value('tour-players');
      return body;
    }
    body.minutes = Number(value('tour-minutes'));
    body.berserkable = checked('tour-berserk');
    const set = (key, id) => value(id) && (body[key] = Number(value(id)));
    set('conditions.minRating.rating', 'tour-min-rating');
    set('conditions.maxRating.rating', 'tour-max-rating');
    set('conditions.nbRatedGame.nb', 'tour-min-games');
    if (checked('tour-bots')) body['conditions.bots'] = true;
    return body;
  }

  async submit(form) {
    const error = $('#tour-error', form);
    const button = $('#create-tournament', form);
    error.hidden = true;
    button.disabled = true;
    let t;
    try {
      t = await api.createTournament(this.body(form));
    } catch (e) {
      if (!this.alive) return;
      button.disabled = false;
      error.textContent = `Could not create the tournament: ${e.detail || e.message}`;
      error.hidden = false;
      if (e.status !== 400) notify(e.message);
      return;
    }
    if (this.alive) location.hash = tournamentHref(t.id);
  }
}
