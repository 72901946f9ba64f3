// The home page: start a game (against the engine or a friend, rated between accounts,
// optionally from a FEN position or a PGN game), a logged-in player's games in progress ("your
// turn" first), the list of recent games and a way to the leaderboards.

import { api } from './api.js';
import { h, $, $$, notify, timeAgo, variantTitle, resultText, ratingText, segmented } from './ui.js';
import { currentAccount, signInHref } from './session.js';
import { saveGame } from './store.js';
import { boardThumbnail } from './board.js';
import { learnLinks } from './rules/page.js';
import { PlayingList } from './meet/playing.js';
import { makingGame } from './meet/arrivals.js';

const CLOCKS = [
  ['none', 'No clock'],
  ['60000+0', '1 + 0 bullet'],
  ['180000+2000', '3 + 2 blitz'],
  ['300000+3000', '5 + 3 blitz'],
  ['600000+5000', '10 + 5 rapid'],
  ['900000+10000', '15 + 10 rapid'],
  ['1800000+20000', '30 + 20 classical'],
  ['custom', 'Custom\u2026'],
];

export class HomeView {
  constructor(root, variants) {
    this.root = root;
    this.variants = variants;
    this.alive = true;
  }

  destroy() {
    this.alive = false;
    if (this.playing) this.playing.destroy();
  }

  async start() {
    document.title = 'starfish \u2014 play';
    this.account = await currentAccount().catch(() => null);
    if (!this.alive) return;
    this.render();
    await Promise.all([this.loadRecent(), this.playing && this.playing.load()]);
  }

  render() {
    const saved = JSON.parse(localStorage.getItem('starfish:prefs') || '{}');
    const variant = this.variants.some((v) => v.name === saved.variant) ? saved.variant : this.variants[0] && this.variants[0].name;
    const tiles = this.variants.map((v) =>
      h('label', { class: 'variant-tile', 'data-variant': v.name, title: v.description || '' },
        h('input', { type: 'radio', name: 'variant', value: v.name, checked: v.name === variant }),
        h('span', { class: 'variant-icon', 'aria-hidden': 'true' }, boardThumbnail(v.board)),
        h('span', { class: 'variant-name' }, variantTitle(v.name)),
        h('span', { class: 'variant-kind' }, v.board.caption)));
    const seg = segmented;

    const form = h('form', { id: 'new-game', class: 'new-game-form', autocomplete: 'off' },
      h('div', { class: 'field' }, h('div', { class: 'label' }, 'Variant'), h('div', { class: 'variant-grid' }, tiles)),
      h('p', { class: 'variant-desc', id: 'variant-desc' }),
      h('div', { id: 'variant-learn' }),
      h('div', { class: 'field-row' },
        h('div', { class: 'field' }, h('div', { class: 'label' }, 'Opponent'),
          seg('opponent', [['engine', '\u2699 Engine'], ['friend', '\u263A A friend']], saved.opponent || 'engine')),
        h('div', { class: 'field' }, h('div', { class: 'label' }, 'Play as'),
          seg('color', [['white', 'White'], ['random', 'Random'], ['black', 'Black']], saved.color || 'white'))),
      this.ratedField(),
      h('div', { class: 'field engine-only' },
        h('label', { class: 'label', for: 'skill' }, 'Engine strength ', h('output', { id: 'skill-out' }, String(saved.skill ?? 10)), h('span', { class: 'muted' }, ' / 20')),
        h('input', { type: 'range', id: 'skill', name: 'skill', min: 0, max: 20, step: 1, value: saved.skill ?? 10 })),
      h('div', { class: 'field' },
        h('label', { class: 'label', for: 'clock' }, 'Clock'),
        h('div', { class: 'clock-row' },
          h('select', { id: 'clock', name: 'clock' }, CLOCKS.map(([v, l]) => h('option', { value: v, selected: v === (saved.clock || 'none') }, l))),
          h('span', { class: 'custom-clock' },
            h('label', {}, h('input', { type: 'number', id: 'clock-min', min: 0, step: 'any', value: saved.clockMin ?? 5 }), ' min'),
            h('label', {}, '+ ', h('input', { type: 'number', id: 'clock-inc', min: 0, step: 'any', value: saved.clockInc ?? 3 }), ' s')))),
      h('details', { class: 'import', id: 'import' },
        h('summary', {}, 'Start from a position (FEN) or a game (PGN)'),
        h('div', { class: 'import-body' },
          seg('import-kind', [['auto', 'Detect'], ['fen', 'FEN'], ['pgn', 'PGN']], 'auto'),
          h('textarea', { id: 'import-text', rows: 5, spellcheck: 'false', placeholder: 'Paste a FEN position or a PGN game here' }),
          h('label', { class: 'file-pick' }, 'or load a file ', h('input', { type: 'file', id: 'import-file', accept: '.pgn,.fen,.txt' })))),
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'primary big', id: 'play' }, 'Play')));

    const recent = h('section', { class: 'card recent' },
      h('div', { class: 'card-head' }, h('h2', {}, 'Recent games'),
        h('div', { class: 'card-head-tools' },
          h('a', { href: '#/leaderboard', id: 'to-leaderboard' }, 'Leaderboard'),
          h('button', { type: 'button', class: 'ghost', id: 'refresh-recent', onclick: () => this.loadRecent() }, '\u21BB Refresh'))),
      h('div', { id: 'recent-list', class: 'recent-list' }, h('p', { class: 'muted' }, 'Loading\u2026')));

    this.playing = this.account ? new PlayingList() : null;
    this.root.replaceChildren(h('div', { class: 'home' },
      h('section', { class: 'card new-game' }, h('h2', {}, 'New game'), form),
      h('div', { class: 'home-side' }, this.playing && this.playing.element, recent)));

    const update = () => {
      const v = this.variants.find((x) => x.name === form.variant.value);
      $('#variant-desc').textContent = v ? v.description || '' : '';
      $('#variant-learn').replaceChildren(learnLinks(form.variant.value) || '');
      $$('.variant-tile').forEach((t) => t.classList.toggle('checked', t.dataset.variant === form.variant.value));
      $$('.seg').forEach((s) => s.classList.toggle('checked', s.querySelector('input').checked));
      form.classList.toggle('vs-engine', form.opponent.value === 'engine');
      form.classList.toggle('rated-game', this.rated(form));
      form.classList.toggle('custom', form.clock.value === 'custom');
      $('#skill-out').textContent = form.skill.value;
    };
    form.addEventListener('input', update);
    form.addEventListener('change', update);
    update();
    $('#import-file').addEventListener('change', async (e) => {
      const f = e.target.files[0];
      if (f) $('#import-text').value = await f.text();
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.create(form);
    });
  }

  // Rated friend games, for a logged-in player; they start from the standard position.
  ratedField() {
    const hint = this.account
      ? 'Counts for both ratings. Your friend joins with an account; the game starts from the standard position.'
      : [h('a', { href: signInHref(), id: 'rated-sign-in' }, 'Sign in'), ' to play rated games.'];
    return h('div', { class: 'field friend-only' },
      h('label', { class: 'check-row' }, h('input', { type: 'checkbox', id: 'rated', name: 'rated', disabled: !this.account }), ' Rated'),
      h('div', { class: 'hint muted small', id: 'rated-hint' }, hint));
  }

  rated(form) {
    return form.opponent.value === 'friend' && form.rated.checked;
  }

  async create(form) {
    const button = $('#play');
    const variant = form.variant.value;
    const body = { variant, opponent: form.opponent.value, color: form.color.value };
    if (body.opponent === 'engine') body.skill = parseInt(form.skill.value, 10);
    const clock = form.clock.value;
    if (clock === 'custom') {
      const min = parseFloat($('#clock-min').value);
      const inc = parseFloat($('#clock-inc').value) || 0;
      if (!(min > 0)) {
        notify('The clock needs a base time above zero.');
        return;
      }
      body.clock = { base_ms: Math.round(min * 60000), inc_ms: Math.round(inc * 1000) };
    } else if (clock !== 'none') {
      const [b, i] = clock.split('+').map(Number);
      body.clock = { base_ms: b, inc_ms: i };
    }
    localStorage.setItem('starfish:prefs', JSON.stringify({
      variant, opponent: body.opponent, color: body.color, skill: form.skill.value, clock,
      clockMin: $('#clock-min').value, clockInc: $('#clock-inc').value,
    }));
    const text = this.rated(form) ? '' : $('#import-text').value.trim();
    if (this.rated(form)) body.rated = true;
    let importing = false;
    if (text) {
      let kind = form['import-kind'].value;
      if (kind === 'auto') kind = /^\s*\[\w+\s+"/m.test(text) || /(^|\s)1\.\s*\S/.test(text) ? 'pgn' : 'fen';
      body[kind] = text;
      importing = true;
    }
    button.disabled = true;
    try {
      const res = await makingGame(() => (importing ? api.import(body) : api.create(body)));
      saveGame(res.game.id, { token: res.token, side: res.side, invite: res.invite || null, opponent: body.opponent });
      location.hash = `#/game/${encodeURIComponent(res.game.id)}`;
    } catch (e) {
      notify(`Could not ${importing ? 'import' : 'start'} the game: ${e.message}`);
    } finally {
      button.disabled = false;
    }
  }

  async loadRecent() {
    const list = $('#recent-list');
    if (!list) return;
    let games;
    try {
      games = await api.games(20);
    } catch (e) {
      list.replaceChildren(h('p', { class: 'error-text' }, `Could not load the recent games: ${e.message}`));
      notify(`Could not load the recent games: ${e.message}`);
      return;
    }
    if (!this.alive) return;
    if (!games.length) {
      list.replaceChildren(h('p', { class: 'muted' }, 'No games yet. Start one!'));
      return;
    }
    // An account's name and rating, else the engine or an anonymous human.
    const who = (g, side) => {
      const p = g.players && g.players[side];
      if (p) return `${p.name} (${ratingText(p.rating, p.prov)})`;
      return g.player_kinds && g.player_kinds[side] === 'engine' ? 'Engine' : 'Anonymous';
    };
    list.replaceChildren(h('ul', {}, games.map((g) => {
      const aborted = g.reason === 'aborted';
      const over = (g.result && g.result !== '*') || aborted;
      return h('li', {},
        h('a', { href: `#/game/${encodeURIComponent(g.id)}`, class: 'recent-game', 'data-id': g.id },
          h('span', { class: 'rg-variant' }, variantTitle(g.variant)),
          h('span', { class: 'rg-players' }, `${who(g, 'white')} \u2013 ${who(g, 'black')}`),
          h('span', { class: `rg-result ${over ? 'over' : 'live'}` }, aborted ? 'aborted' : over ? `${g.result}` : 'in play'),
          h('span', { class: 'rg-reason muted' }, over && !aborted ? resultText(g.result, g.reason).replace(/^(White wins|Black wins|Draw)\s*/, '') : ''),
          h('span', { class: 'rg-moves muted' }, `${g.moves} ${g.moves === 1 ? 'ply' : 'plies'}`),
          h('span', { class: 'rg-time muted' }, timeAgo(g.created))));
    })));
  }
}
