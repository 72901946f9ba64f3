// Meeting other players (issue 32): two accounts meeting through the lobby (a seek accepted in
// one click; quick pairing), a challenge by name accepted from the header's notification and
// one declined with its reason shown, an open challenge's link, a game against a house bot from
// the bot list played to mate, a correspondence game continued after a server restart, the
// home page's "your turn" list; screenshots at desktop and phone size (suites/meetshots.mjs).

import {
  env, test, check, startServer, newPlayer, api, waitPlies, play, resultText, boardMatchesServer,
  playerAs, accountClient, shot, PHONE,
} from '../harness.mjs';

export const base = () => env.server.base;

// The game page of a game (any, or `id`), ready: answers its id.
export async function onGame(page, id = null) {
  await page.waitForSelector(`.game-view${id ? `[data-game="${id}"]` : ''} .board-svg [data-cell]`, { timeout: 20000 });
  return page.locator('.game-view').getAttribute('data-game');
}

const bottomSide = (page) => page.locator('.player-bar.bottom').getAttribute('data-side');

// The account's event stream of the page is open.
export const eventsLive = (page) => page.waitForSelector('html[data-account-events="live"]', { timeout: 15000 });

export async function openLobby(page) {
  await page.goto(`${base()}/#/lobby`);
  await page.waitForSelector('#lobby-conn[data-state="live"]');
  await page.waitForSelector('#seek-list .seek-row, #no-seeks');
}

// The challenge form from a player's profile, filled in and sent.
export async function challengeFromProfile(page, name, { variant = 'chess', kind = 'clock', minutes, increment, days, rated = false, color = 'random', fen } = {}) {
  await page.goto(`${base()}/#/@/${name}`);
  await page.locator('#challenge-player').click();
  await fillChallenge(page, { variant, kind, minutes, increment, days, rated, color, fen });
  await page.locator('#challenge-send').click();
}

export async function fillChallenge(page, { variant, kind = 'clock', minutes, increment, days, rated = false, color = 'random', fen }) {
  const d = page.locator('#challenge-dialog');
  await d.waitFor();
  if (variant) await d.locator('#challenge-variant').selectOption(variant);
  await d.locator(`.seg[data-value="${kind}"]`).click();
  if (minutes != null) await d.locator('#challenge-minutes').selectOption(String(minutes));
  if (increment != null) await d.locator('#challenge-increment').selectOption(String(increment));
  if (days != null) await d.locator('#challenge-days').selectOption(String(days));
  if (fen) {
    await d.locator('#challenge-position summary').click();
    await d.locator('#challenge-fen').fill(fen);
  }
  if (rated) await d.locator('#challenge-rated').check();
  else if (await d.locator('#challenge-rated').isEnabled()) await d.locator('#challenge-rated').uncheck();
  await d.locator(`.seg[data-value="${color}"]`).click();
}

// ---------------------------------------------------------------- the lobby

test('meet-lobby-seek', async (t) => {
  const { page: ann } = await playerAs(t, 'ann');
  const { page: ben } = await playerAs(t, 'ben', { viewport: PHONE });
  const visitor = await newPlayer(t);
  await openLobby(ben);
  await openLobby(visitor);
  await ben.waitForSelector('#no-seeks');
  // ann's seek from the form: chess 10+5, casual, she plays White.
  await openLobby(ann);
  await ann.locator('#seek-variant').selectOption('chess');
  await ann.locator('#seek-form .seg[data-value="clock"]').click();
  await ann.locator('#seek-minutes').selectOption('10');
  await ann.locator('#seek-increment').selectOption('5');
  await ann.locator('#seek-rated').uncheck();
  await ann.locator('#seek-form .seg[data-value="white"]').click();
  await ann.locator('#seek-create').click();
  // It appears, live, in the others' lobbies: ben's (logged in) and a visitor's (asked to sign in).
  const row = ben.locator('.seek-row[data-user="ann"]');
  await row.waitFor({ timeout: 10000 });
  const text = await row.innerText();
  check(/Chess/.test(text) && /10\+5/.test(text) && /Casual/.test(text), `ben's lobby shows ann's seek as "${text}"`);
  await visitor.waitForSelector('.seek-row[data-user="ann"] .sign-in-to-accept');
  check(await visitor.locator('.accept-seek').count() === 0, 'a visitor is offered to accept');
  await ann.waitForSelector('.seek-row.mine[data-user="ann"] .cancel-seek');
  check(await ann.locator('.seek-row[data-user="ann"] .accept-seek').count() === 0, 'ann may accept her own seek');
  // One click: both are in the game, ann White.
  await row.locator('.accept-seek').click();
  const id = await onGame(ben);
  await onGame(ann, id);
  check(await bottomSide(ann) === 'white' && await bottomSide(ben) === 'black', 'the sides are not ann White, ben Black');
  await play(ann, 'e2', 'e4');
  await play(ben, 'e7', 'e5');
  await play(ann, 'g1', 'f3');
  await waitPlies(ben, 3);
  const g = await boardMatchesServer(ben, id);
  check(g.players.white.name === 'ann' && g.players.black.name === 'ben' && !g.rated && g.clock.base_ms === 600000 && g.clock.inc_ms === 5000,
    `the server's game: ${JSON.stringify({ players: g.players, rated: g.rated, clock: g.clock })}`);
  await visitor.waitForSelector('#no-seeks'); // the seek is gone from the lobby
});

test('meet-quick-pairing', async (t) => {
  const { page: cat } = await playerAs(t, 'cat');
  const { page: dan } = await playerAs(t, 'dan');
  for (const p of [cat, dan]) {
    await openLobby(p);
    await p.locator('.quick-variant[data-variant="starchess"]').click();
  }
  const button = (p, tc) => p.locator(`.quick-pair[data-tc="${tc}"]`);
  // Pressed, it seeks; pressed again, it stops (the seek leaves the lobby).
  await button(cat, '5+3').click();
  await cat.waitForSelector('.quick-pair[data-tc="5+3"][aria-pressed="true"]');
  check(/Looking for an opponent: Starchess 5\+3 rated/.test(await cat.locator('#seek-status').innerText()), 'no line says cat seeks');
  await dan.waitForSelector('.seek-row[data-user="cat"]', { timeout: 10000 });
  await button(cat, '5+3').click();
  await cat.waitForSelector('.quick-pair[data-tc="5+3"][aria-pressed="false"]');
  await dan.waitForSelector('#no-seeks', { timeout: 10000 });
  // Leaving the lobby stops a seek too.
  await button(cat, '3+2').click();
  await dan.waitForSelector('.seek-row[data-user="cat"]', { timeout: 10000 });
  await cat.goto(`${base()}/#/`);
  await dan.waitForSelector('#no-seeks', { timeout: 10000 });
  // Both press the same button: paired.
  await openLobby(cat);
  await cat.locator('.quick-variant[data-variant="starchess"]').click();
  await button(cat, '5+3').click();
  await dan.waitForSelector('.seek-row[data-user="cat"]', { timeout: 10000 });
  await button(dan, '5+3').click();
  const id = await onGame(dan);
  await onGame(cat, id);
  const g = await api('GET', `/api/games/${id}`);
  const names = [g.players.white.name, g.players.black.name].sort().join(' ');
  check(g.variant === 'starchess' && g.rated && names === 'cat dan' && g.clock.base_ms === 300000 && g.clock.inc_ms === 3000,
    `the paired game: ${JSON.stringify({ variant: g.variant, rated: g.rated, players: g.players, clock: g.clock })}`);
  check(await bottomSide(cat) !== await bottomSide(dan), 'both play the same side');
});

// ---------------------------------------------------------------- challenges

test('meet-challenge-accepted', async (t) => {
  const { page: eve } = await playerAs(t, 'eve');
  const { page: fay } = await playerAs(t, 'fay', { viewport: PHONE });
  await fay.goto(`${base()}/#/`);
  await eventsLive(fay);
  await challengeFromProfile(eve, 'fay', { variant: 'chess', minutes: 5, increment: 3, color: 'black' });
  await eve.waitForSelector('#challenge-waiting');
  // The notification: the header's panel opens by itself, on fay's phone.
  const item = fay.locator('#challenge-panel:not([hidden]) .challenge-item.in');
  await item.waitFor({ timeout: 10000 });
  const text = await item.innerText();
  check(/eve/.test(text) && /5\+3/.test(text) && /Casual/.test(text) && /you play white/.test(text), `the notification reads "${text}"`);
  check(await fay.locator('#challenges-button .count').innerText() === '1', 'the header does not count one challenge');
  const panel = await fay.locator('#challenge-panel').innerText();
  check(!/null|undefined/.test(panel), `the panel reads "${panel}"`);
  await item.locator('.accept-challenge').click();
  const id = await onGame(fay);
  await onGame(eve, id);
  check(await eve.locator('#challenge-dialog').count() === 0, 'the challenge dialog stays open over the game');
  check(await bottomSide(fay) === 'white' && await bottomSide(eve) === 'black', 'fay is not White');
  await play(fay, 'e2', 'e4');
  await play(eve, 'e7', 'e5');
  const g = await boardMatchesServer(eve, id);
  check(g.players.white.name === 'fay' && g.players.black.name === 'eve' && g.clock.base_ms === 300000, `the game: ${JSON.stringify(g.players)}`);
  check(await fay.locator('#challenges-button .count').innerText() === '', 'the accepted challenge is still counted');
});

test('meet-challenge-declined', async (t) => {
  const { page: gus, client: gusApi } = await playerAs(t, 'gus');
  const { page: hugo } = await playerAs(t, 'hugo');
  await hugo.goto(`${base()}/#/`);
  await eventsLive(hugo);
  // From the form: the decline's reason in the waiting dialog.
  await challengeFromProfile(gus, 'hugo', { kind: 'days', days: 3 });
  const item = hugo.locator('#challenge-panel:not([hidden]) .challenge-item.in');
  await item.waitFor({ timeout: 10000 });
  await item.locator('.decline-reason').selectOption('later');
  await item.locator('.decline-challenge').click();
  await gus.waitForSelector('#challenge-declined', { timeout: 10000 });
  const said = await gus.locator('#challenge-declined').innerText();
  check(/hugo declined/.test(said) && /later/i.test(said), `the dialog says "${said}"`);
  await gus.locator('#challenge-done').click();
  // Made elsewhere (the API): listed in gus's header; declined, a notice gives the reason.
  const c = await gusApi('POST', '/api/challenge/hugo', { days: 3, variant: 'starchess' });
  await gus.locator('#challenges-button').click();
  await gus.waitForSelector(`#outgoing-challenges .challenge-item[data-id="${c.id}"]`);
  const again = hugo.locator(`#challenge-panel:not([hidden]) .challenge-item.in[data-id="${c.id}"]`);
  await again.waitFor({ timeout: 10000 });
  await again.locator('.decline-reason').selectOption('tooslow');
  await again.locator('.decline-challenge').click();
  const notice = gus.locator('.notice[data-name="challenge-declined"]');
  await notice.waitFor({ timeout: 10000 });
  check(/too slow/i.test(await notice.innerText()), `the notice says "${await notice.innerText()}"`);
  await gus.waitForSelector(`#outgoing-challenges .challenge-item[data-id="${c.id}"]`, { state: 'detached' });
  const shown = await api('GET', `/api/challenge/${c.id}/show`);
  check(shown.status === 'declined' && shown.declineReasonKey === 'tooslow', `the server has ${shown.status} ${shown.declineReasonKey}`);
});

test('meet-open-challenge', async (t) => {
  const { page: iris } = await playerAs(t, 'iris');
  await openLobby(iris);
  await iris.locator('#open-challenge').click();
  await fillChallenge(iris, { variant: 'chess', minutes: 10, increment: 5, color: 'white' });
  await iris.locator('#challenge-send').click();
  await iris.waitForSelector('#challenge-card[data-status="created"] #challenge-link');
  const link = await iris.locator('#challenge-link').inputValue();
  check(/#\/challenge\/\w+$/.test(link), `the link is ${link}`);
  const visitor = await newPlayer(t);
  await visitor.goto(link);
  await visitor.waitForSelector('#sign-in-to-accept');
  const { page: jon } = await playerAs(t, 'jon', { viewport: PHONE });
  await jon.goto(link);
  await jon.locator('#challenge-accept').click();
  const id = await onGame(jon);
  await onGame(iris, id);
  check(await bottomSide(iris) === 'white' && await bottomSide(jon) === 'black', 'iris is not White');
});

// ---------------------------------------------------------------- bots

// White mates in two, Black's reply forced: 1. Rb8+ Rxb8 2. Rxb8#.
const BACK_RANK = 'r5k1/5ppp/8/8/8/8/1R3PPP/1R4K1 w - - 0 1';

test('meet-bot-game', async (t) => {
  const { page: kai } = await playerAs(t, 'kai');
  await openLobby(kai);
  await kai.waitForSelector('.bot-row[data-bot="starfish-level-4"]', { timeout: 10000 });
  const bots = await kai.locator('.bot-row').evaluateAll((rows) => rows.map((r) => [r.dataset.bot, r.querySelector('.bot-status').textContent]));
  check(bots.slice(0, 4).map(([id]) => id).join() === 'starfish-level-1,starfish-level-2,starfish-level-3,starfish-level-4', `the bots listed: ${bots}`);
  check(bots.slice(0, 4).every(([, status]) => /online/.test(status)), `the house bots' status: ${bots}`);
  check(/1500\?/.test(await kai.locator('.bot-row[data-bot="starfish-level-1"] .bot-rating').innerText()), 'no rating beside the bot');
  await kai.locator('.bot-row[data-bot="starfish-level-1"] .challenge-bot').click();
  check(await kai.locator('#challenge-minutes').inputValue() === '5' && await kai.locator('#challenge-increment').inputValue() === '3', 'the form is not filled in with 5+3');
  await fillChallenge(kai, { variant: 'chess', fen: BACK_RANK, color: 'white' });
  check(await kai.locator('#challenge-rated').isDisabled(), 'a game from a position may be rated');
  await kai.locator('#challenge-send').click();
  const id = await onGame(kai);
  check(await bottomSide(kai) === 'white', 'kai is not White');
  const named = await kai.locator('.player-bar.top .player-name').innerText();
  check(/^BOT\s+Starfish-Level-1/.test(named), `the bot is named ${JSON.stringify(named)} above the board`);
  // The bot answers the check (its engine plays the one legal move), then the mate.
  await play(kai, 'b2', 'b8');
  await waitPlies(kai, 2);
  await play(kai, 'b1', 'b8');
  check(/1-0/.test(await resultText(kai)), 'the mate is not shown');
  const g = await boardMatchesServer(kai, id);
  check(g.result === '1-0' && g.reason === 'checkmate' && g.players.black.name === 'Starfish-Level-1' && g.player_kinds.black === 'engine' && g.moves.length === 3,
    `the server has ${g.result} ${g.reason} after ${g.moves.length} moves, black ${JSON.stringify(g.players.black)} (${g.player_kinds.black})`);
  await shot(kai, 'meet-bot-game');
});

// ---------------------------------------------------------------- correspondence

const daysText = /^\d+d \d+h$/;

test('meet-correspondence-restart', async (t) => {
  const { page: lou } = await playerAs(t, 'lou');
  const { page: max } = await playerAs(t, 'max', { viewport: PHONE });
  await max.goto(`${base()}/#/`);
  await eventsLive(max);
  await challengeFromProfile(lou, 'max', { kind: 'days', days: 2, rated: true, color: 'white' });
  const item = max.locator('#challenge-panel:not([hidden]) .challenge-item.in');
  await item.waitFor({ timeout: 10000 });
  check(/2 days/.test(await item.innerText()), 'the notification does not say 2 days');
  await item.locator('.accept-challenge').click();
  const id = await onGame(max);
  await onGame(lou, id);
  const clock = (p, pos) => p.locator(`.player-bar.${pos} .clock-time`).innerText();
  check(daysText.test(await clock(lou, 'bottom')) && daysText.test(await clock(lou, 'top')), `the clocks read ${await clock(lou, 'bottom')} and ${await clock(lou, 'top')}`);
  check(/2 days a move/.test(await lou.locator('.game-sub').innerText()), 'the game does not say 2 days a move');
  await play(lou, 'e2', 'e4');
  await play(max, 'e7', 'e5');
  // The server stops and starts again on its database: the game, its clock and the pages go on.
  await env.server.halt();
  await lou.waitForSelector('#conn[data-state="reconnecting"]', { timeout: 10000 });
  env.server = await startServer(env.server);
  for (const p of [lou, max]) {
    await p.waitForSelector('#conn[data-state="live"]', { timeout: 20000 });
    await eventsLive(p);
  }
  await play(lou, 'g1', 'f3');
  await waitPlies(max, 3);
  await play(max, 'b8', 'c6');
  await waitPlies(lou, 4);
  const g = await boardMatchesServer(lou, id);
  check(g.clock.days === 2 && g.rated && g.moves.length === 4 && g.status === 'ongoing', `after the restart: ${JSON.stringify({ clock: g.clock, n: g.moves.length })}`);
  check(g.clock.white_ms > 47 * 3600000 && g.clock.white_ms <= 48 * 3600000, `White's time is ${g.clock.white_ms} ms`);
  check(/^1d 23h$/.test(await clock(lou, 'bottom')), `lou's clock reads ${await clock(lou, 'bottom')} (White's turn, 2 days a move)`);
}, 90000);

// ---------------------------------------------------------------- your turn

// A correspondence game between two accounts' clients, made by a challenge and accepted:
// answers its id.
export async function corrGame(white, black, blackName, days = 3, variant = 'standard') {
  const c = await white('POST', `/api/challenge/${blackName}`, { days, color: 'white', variant });
  await black('POST', `/api/challenge/${c.id}/accept`);
  return c.id;
}

test('meet-your-turn', async (t) => {
  const { page: nia, client: niaApi } = await playerAs(t, 'nia');
  const oli = await accountClient('oli');
  const mine = await corrGame(niaApi, oli, 'oli'); // nia White: her move
  const theirs = await corrGame(oli, niaApi, 'nia'); // oli White: his move
  await nia.goto(`${base()}/#/`);
  await nia.waitForSelector(`#your-turn .playing-game[data-id="${mine}"]`);
  await nia.waitForSelector(`#their-turn .playing-game[data-id="${theirs}"]`);
  const row = await nia.locator(`.playing-game[data-id="${mine}"]`).innerText();
  check(/vs oli/.test(row) && /2d 23h/.test(row), `the game reads "${row}"`);
  // oli moves: it is nia's turn there too (the list is read again every few seconds).
  await oli('POST', `/api/board/game/${theirs}/move/e2e4`);
  await nia.waitForSelector(`#your-turn .playing-game[data-id="${theirs}"]`, { timeout: 20000 });
  // A game that ends leaves the list at once (gameFinish).
  await oli('POST', `/api/board/game/${theirs}/resign`);
  await nia.waitForSelector(`.playing-game[data-id="${theirs}"]`, { state: 'detached', timeout: 8000 });
  // The list opens the game; a game that begins meanwhile is offered, not forced on her.
  await nia.locator(`.playing-game[data-id="${mine}"]`).click();
  await onGame(nia, mine);
  const c = await niaApi('POST', '/api/challenge/oli', { days: 5 });
  await oli('POST', `/api/challenge/${c.id}/accept`);
  const offer = nia.locator('.notice[data-name="game-started"] #go-to-new-game');
  await offer.waitFor({ timeout: 10000 });
  check(await nia.locator('.game-view').getAttribute('data-game') === mine, 'the page left the game being played');
  await offer.click();
  await onGame(nia, c.id);
  // Not playing (the home page): a game that begins opens at once.
  await nia.goto(`${base()}/#/`);
  await eventsLive(nia);
  const c2 = await niaApi('POST', '/api/challenge/oli', { days: 7 });
  await oli('POST', `/api/challenge/${c2.id}/accept`);
  await onGame(nia, c2.id);
}, 60000);
