// starfish web UI: routing by the page's hash to the views (home, game, analysis board, rules,
// puzzles, the accounts' pages, profiles, leaderboards, the lobby, a challenge), and the
// header's controls; the account's event stream (games that begin, challenges) for every page.

import { api } from './api.js';
import { HomeView } from './home.js';
import { GameView, AnalysisBoardView } from './game/page.js';
import { RulesView } from './rules/page.js';
import { PuzzlesView } from './puzzles/page.js';
import { TournamentsView } from './tournaments/list.js';
import { TournamentFormView } from './tournaments/form.js';
import { TournamentView } from './tournaments/page.js';
import { TvView } from './tv/page.js';
import { AuthView } from './accounts/forms.js';
import { AccountView } from './accounts/account.js';
import { mountAccountLinks } from './accounts/header.js';
import { ProfileView } from './players/profile.js';
import { LeaderboardView } from './players/leaderboard.js';
import { LobbyView } from './meet/lobby.js';
import { ChallengeView } from './meet/challengepage.js';
import { mountInbox } from './meet/inbox.js';
import { mountAccountEvents } from './accounts/events.js';
import './meet/arrivals.js';
import { notify, learnVariantTitles } from './ui.js';
import { applySettings, mountSettings } from './settings.js';
import { onAccountChange } from './session.js';

let variantsPromise = null;
export function loadVariants() {
  if (!variantsPromise) {
    variantsPromise = api.variants().then((variants) => {
      learnVariantTitles(variants);
      return variants;
    }).catch((e) => {
      variantsPromise = null;
      throw e;
    });
  }
  return variantsPromise;
}

const params = (query) => new URLSearchParams(query || '');
const word = (text) => decodeURIComponent(text);

// [the hash, the view's name, how to make the view from the hash's parts]; the first match wins.
const ROUTES = [
  [/^#\/game\/([^?/]+)(?:\?(.*))?$/, 'game', (main, variants, m) => new GameView(main, variants, word(m[1]), params(m[2]))],
  [/^#\/puzzles\/([^?/]+)(?:\?(.*))?$/, 'puzzles', (main, variants, m) => new PuzzlesView(main, variants, word(m[1]), params(m[2]))],
  [/^#\/rules\/([^?/]+)$/, 'rules', (main, variants, m) => new RulesView(main, variants, word(m[1]))],
  [/^#\/tournaments\/new$/, 'tournament-form', (main, variants) => new TournamentFormView(main, variants)],
  [/^#\/tournaments(?:\/([^?/]+))?$/, 'tournaments', (main, variants, m) => new TournamentsView(main, variants, m[1] && word(m[1]))],
  [/^#\/tournament\/([^?/]+)$/, 'tournament', (main, variants, m) => new TournamentView(main, variants, word(m[1]))],
  [/^#\/tv(?:\/([^?/]+))?$/, 'tv', (main, variants, m) => new TvView(main, variants, m[1] && word(m[1]))],
  [/^#\/analysis(?:\?(.*))?$/, 'analysis', (main, variants, m) => new AnalysisBoardView(main, variants, params(m[1]))],
  [/^#\/(signup|login)(?:\?(.*))?$/, 'auth', (main, variants, m) => new AuthView(main, m[1], params(m[2]))],
  [/^#\/account$/, 'account', (main) => new AccountView(main)],
  [/^#\/@\/([^?/]+)$/, 'profile', (main, variants, m) => new ProfileView(main, variants, word(m[1]))],
  [/^#\/leaderboard(?:\/([^?/]+))?$/, 'leaderboard', (main, variants, m) => new LeaderboardView(main, variants, m[1] && word(m[1]))],
  [/^#\/lobby$/, 'lobby', (main, variants) => new LobbyView(main, variants)],
  [/^#\/challenge\/([^?/]+)$/, 'challenge', (main, variants, m) => new ChallengeView(main, variants, word(m[1]))],
  [/^/, 'home', (main, variants) => new HomeView(main, variants)],
];

let current = null;
let routing = 0; // counts the routes begun: a route overtaken by a newer one stops

async function route() {
  const mine = ++routing;
  if (current) current.destroy();
  current = null;
  // Each view draws in a box of its own: a view left before its data came (a slow answer)
  // then draws in a box no longer on the page, never over the view that followed it.
  const main = document.createElement('div');
  main.className = 'view-root';
  document.getElementById('main').replaceChildren(main);
  const hash = location.hash || '#/';
  const [pattern, view, make] = ROUTES.find(([re]) => re.test(hash));
  document.body.dataset.view = view;
  try {
    const variants = await loadVariants();
    if (mine !== routing) return;
    current = make(main, variants, pattern.exec(hash));
    await current.start();
    if (hash === '#/recent') document.getElementById('recent-list')?.scrollIntoView({ behavior: 'smooth' });
  } catch (e) {
    if (mine !== routing) return;
    notify(e.message || String(e));
    main.appendChild(Object.assign(document.createElement('p'), { className: 'load-error', textContent: `Could not load: ${e.message || e}` }));
  }
}

applySettings();
mountInbox(document.getElementById('inbox'));
mountAccountLinks(document.getElementById('account-links'));
mountAccountEvents();
mountSettings(document.getElementById('header-tools'));
window.addEventListener('hashchange', route);
// Logged in or out: the page shows what the account may do now (join a game, rated games ...).
onAccountChange(() => route());
window.addEventListener('unhandledrejection', (e) => notify((e.reason && e.reason.message) || String(e.reason)));
route();
