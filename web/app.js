// starfish web UI: routing, the home page (new game, import, recent games) and the game view.

import { api } from './api.js';
import { HomeView } from './home.js';
import { GameView, AnalysisBoardView } from './game/page.js';
import { RulesView } from './rules/page.js';
import { PuzzlesView } from './puzzles/page.js';
import { notify } from './ui.js';
import { applySettings, mountSettings } from './settings.js';

let variantsPromise = null;
export function loadVariants() {
  if (!variantsPromise) {
    variantsPromise = api.variants().catch((e) => {
      variantsPromise = null;
      throw e;
    });
  }
  return variantsPromise;
}

let current = null;

function parseHash() {
  const hash = location.hash || '#/';
  const m = /^#\/game\/([^?/]+)(?:\?(.*))?$/.exec(hash);
  if (m) return { view: 'game', id: decodeURIComponent(m[1]), params: new URLSearchParams(m[2] || '') };
  const puzzles = /^#\/puzzles\/([^?/]+)(?:\?(.*))?$/.exec(hash);
  if (puzzles) return { view: 'puzzles', variant: decodeURIComponent(puzzles[1]), params: new URLSearchParams(puzzles[2] || '') };
  const rules = /^#\/rules\/([^?/]+)$/.exec(hash);
  if (rules) return { view: 'rules', variant: decodeURIComponent(rules[1]) };
  const a = /^#\/analysis(?:\?(.*))?$/.exec(hash);
  if (a) return { view: 'analysis', params: new URLSearchParams(a[1] || '') };
  return { view: 'home', recent: hash === '#/recent' };
}

async function route() {
  if (current) current.destroy();
  current = null;
  const main = document.getElementById('main');
  main.replaceChildren();
  const r = parseHash();
  document.body.dataset.view = r.view;
  try {
    const variants = await loadVariants();
    if (r.view === 'game') current = new GameView(main, variants, r.id, r.params);
    else if (r.view === 'analysis') current = new AnalysisBoardView(main, variants, r.params);
    else if (r.view === 'rules') current = new RulesView(main, variants, r.variant);
    else if (r.view === 'puzzles') current = new PuzzlesView(main, variants, r.variant, r.params);
    else current = new HomeView(main, variants);
    await current.start();
    if (r.recent) document.getElementById('recent-list')?.scrollIntoView({ behavior: 'smooth' });
  } catch (e) {
    notify(e.message || String(e));
    main.appendChild(Object.assign(document.createElement('p'), { className: 'load-error', textContent: `Could not load: ${e.message || e}` }));
  }
}

applySettings();
mountSettings(document.getElementById('header-tools'));
window.addEventListener('hashchange', route);
window.addEventListener('unhandledrejection', (e) => notify((e.reason && e.reason.message) || String(e.reason)));
route();
