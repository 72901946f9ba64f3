// Tournaments and TV (issue 33): an arena made with the form, joined by two accounts, two games
// played from the tournament page to mate (a berserk, the fire of two wins), the standings
// updating live on a third viewer's page, the podium once the arena is ended early (through
// the store); a round robin made with the form and its cross table; an entry condition, the
// countdown, pages of standings, withdrawing; TV following the best game and switching
// channels.  Screenshots at desktop and phone size.

import {
  env, test, check, newPlayer, api, play, resultText, shot, signUp, accountClient, sqlite, PHONE,
} from '../harness.mjs';

const FOOLS_MATE = [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']]; // 0-1
const WHITE_MATE = [['e2', 'e4'], ['f7', 'f6'], ['d2', 'd4'], ['g7', 'g5'], ['d1', 'h5']]; // 1-0

const tournamentPage = (page, id) => page.goto(`${env.server.base}/#/tournament/${id}`);

// The game a page opened by itself (the arena paired its player), other than `before`; its id.
async function openedGame(page, before = null) {
  await page.waitForFunction((old) => {
    const view = document.querySelector('.game-view');
    return view && view.dataset.game !== old && view.querySelector('.board-svg [data-cell]');
  }, before, { timeout: 20000 }).catch(() => { throw new Error('the tournament game did not open by itself'); });
  return page.locator('.game-view').getAttribute('data-game');
}

// Plays the moves, each on the page of the side to move.
async function playMoves(bySide, moves) {
  for (const [i, [from, to]] of moves.entries()) await play(bySide[i % 2 ? 'black' : 'white'], from, to);
}

// Waits until the viewer's standings show `name` with `score` (and what `also` checks).
async function standingShows(page, user, score, also = '') {
  await page.waitForFunction(([u, s, sel]) => {
    const row = document.querySelector(`#standings tr[data-player="${u}"]`);
    return row && row.querySelector('.score').textContent.replace(/\D/g, '') === s && (!sel || row.querySelector(sel));
  }, [user, String(score), also], { timeout: 15000 }).catch(async () => {
    throw new Error(`the standings do not show ${user} with ${score} ${also}: ${await page.locator('#standings-card').innerText()}`);
  });
}

test('tournament-arena-live', async (t) => {
  const alice = await newPlayer(t);
  const bob = await newPlayer(t, { viewport: PHONE });
  const viewer = await newPlayer(t);
  await signUp(alice, 'arenaalice');
  await signUp(bob, 'arenabob');
  // Made with the form: Chess, 1+0, 20 minutes, at once.
  await alice.goto(`${env.server.base}/#/tournaments`);
  await alice.locator('#new-tournament').click();
  await alice.waitForSelector('#tournament-form');
  await alice.locator('#tour-name').fill('Browser Arena');
  await alice.locator('#tour-variant').selectOption('chess');
  await alice.locator('#tour-clock').selectOption('1');
  await alice.locator('#tour-increment').selectOption('0');
  await alice.locator('#tour-minutes').fill('20');
  await alice.locator('#tour-start').selectOption('0');
  await shot(alice, 'tournament-form-desktop');
  await alice.locator('#create-tournament').click();
  await alice.waitForSelector('.tour-one[data-tournament]');
  const id = await alice.locator('.tour-one').getAttribute('data-tournament');
  const made = await api('GET', `/api/tournament/${id}`);
  check(made.fullName === 'Browser Arena' && made.clock.limit === 60 && made.clock.increment === 0 && made.minutes === 20 &&
    made.variant.key === 'standard' && made.system === 'arena', `the server made ${JSON.stringify(made)}`);
  // A viewer (no account) watches; both players join from the page.
  await tournamentPage(viewer, id);
  await viewer.waitForSelector('#standings-empty');
  await viewer.waitForSelector('.tour-page[data-status=started]');
  await alice.locator('#tour-join').click();
  await alice.waitForSelector('#tour-withdraw');
  await standingShows(viewer, 'arenaalice', 0);
  await tournamentPage(bob, id);
  await bob.locator('#tour-join').click();
  // Paired: each page opens the game by itself.
  const [gameA, gameB] = await Promise.all([openedGame(alice), openedGame(bob)]);
  check(gameA === gameB, `alice opened ${gameA}, bob ${gameB}`);
  let g = await api('GET', `/api/games/${gameA}`);
  check(g.tournament === id && g.clock.base_ms === 60000, `the game: tournament ${g.tournament}, clock ${JSON.stringify(g.clock)}`);
  const sides = g.players.white.name === 'arenaalice' ? { white: alice, black: bob } : { white: bob, black: alice };
  const winner = g.players.black.id;
  const loser = g.players.white.id;
  await viewer.waitForSelector(`#duels li[data-game="${gameA}"]`);
  // Black berserks: half the clock, the mark on both pages.
  await sides.black.locator('#berserk').click();
  for (const p of [alice, bob]) await p.waitForSelector('#berserk-marks [data-side=black]');
  g = await api('GET', `/api/games/${gameA}`);
  check(g.clock.berserk.black && g.clock.black_ms <= 30000 && g.clock.white_ms > 30000, `after the berserk: ${JSON.stringify(g.clock)}`);
  check(await sides.white.locator('#berserk').count() === 1, 'white may no longer berserk');
  await shot(bob, 'tournament-game-phone');
  await playMoves(sides, FOOLS_MATE);
  // The result, the dialog's way back in place of a rematch (the next game may open soon).
  await Promise.all([alice, bob].map(async (p) => check(/0-1/.test(await resultText(p)), 'the result is not shown')));
  await sides.black.waitForSelector('#game-over[open] #dialog-back-to-tournament');
  check(await sides.black.locator('#game-over #rematch').isHidden(), 'a rematch is offered in an arena');
  // The viewer's standings, live: the winner's 2 with a berserk, the loser's 0.
  await standingShows(viewer, winner, 2, '.berserks');
  await standingShows(viewer, loser, 0);
  check(await viewer.locator(`#standings tr[data-player="${winner}"] .sheet`).innerText() === '2', 'the sheet is not "2"');
  await viewer.waitForSelector(`#tour-games li[data-game="${gameA}"]`);
  await shot(viewer, 'tournament-live-desktop');
  // Paired again (only the two of them), the colours swapped: the next game opens by itself,
  // on the game page (should the server still count them online) or back on the tournament's.
  const [again, againB] = await Promise.all([alice, bob].map(async (p) => {
    await p.locator('#back-to-tournament').click({ timeout: 3000 }).catch(() => {});
    return openedGame(p, gameA);
  }));
  check(again === againB && again !== gameA, `the second game: ${again}, ${againB} (the first ${gameA})`);
  g = await api('GET', `/api/games/${again}`);
  check(g.players.white.id === winner, `the colours are not swapped: ${JSON.stringify(g.players)}`);
  const second = { white: sides.black, black: sides.white };
  await playMoves(second, WHITE_MATE.slice(0, -1));
  // The arena ended early through the store (no more pairing), its last game finished: the
  // podium, live; two wins in a row: on fire.
  sqlite(`UPDATE tournaments SET finishes_ms = ${Date.now()} WHERE id = '${id}'`);
  await viewer.waitForSelector('.tour-page[data-status=finished]', { timeout: 15000 });
  await playMoves(second, WHITE_MATE.slice(-1));
  await standingShows(viewer, winner, 4, '.fire');
  check(await viewer.locator(`#standings tr[data-player="${winner}"] .sheet`).innerText() === '22', 'the sheet is not "22"');
  await viewer.waitForSelector('#podium');
  check(await viewer.locator('#podium .place-1').getAttribute('data-player') === winner, 'the winner is not first on the podium');
  check(await viewer.locator('#podium .place-2').getAttribute('data-player') === loser, 'the loser is not second');
  check(await viewer.locator('#tour-status').textContent() === 'Finished', 'not marked finished');
  const over = await api('GET', `/api/tournament/${id}`);
  check(over.isFinished && over.winner.id === winner, `the server: ${JSON.stringify(over.winner)}`);
  await shot(viewer, 'tournament-podium-desktop');
  // A player's games: a click on the loser's line.
  await viewer.locator(`#standings tr[data-player="${loser}"] td.rank`).click();
  await viewer.waitForFunction((u) => new RegExp(`^${u}.s games$`).test(document.querySelector('#games-card h2').textContent), loser);
  check(await viewer.locator('#tour-games li').count() === 2, 'the loser\'s two games are not listed');
  await bob.locator('#back-to-tournament').click();
  await bob.waitForSelector('#podium');
  check(await bob.locator('#tour-join, #tour-withdraw').count() === 0, 'joining is offered after the end');
  await shot(bob, 'tournament-podium-phone');
  // The list: finished, per variant.
  for (const [p, size] of [[viewer, 'desktop'], [bob, 'phone']]) {
    await p.goto(`${env.server.base}/#/tournaments/chess`);
    await p.waitForSelector(`#tournaments-finished li[data-tournament="${id}"]`);
    await shot(p, `tournaments-list-${size}`);
  }
  await viewer.locator('.variant-chooser [data-variant=starchess]').click();
  await viewer.waitForSelector(`#tournaments-finished li[data-tournament="${id}"]`, { state: 'detached' });
}, 150000);

// A move sent by the page's own fetch, as its account (no game token).
async function moveByPage(page, id, move) {
  await page.evaluate(async ([gid, m]) => {
    const r = await fetch(`/api/games/${gid}/moves`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ move: m }) });
    if (!r.ok) throw new Error(`${m}: ${r.status} ${await r.text()}`);
  }, [id, move]);
}

test('tournament-robin-cross-table', async (t) => {
  const annPage = await newPlayer(t);
  await signUp(annPage, 'robinann');
  const ben = await accountClient('robinben');
  // Made with the form's round robin: its players by name.
  await annPage.goto(`${env.server.base}/#/tournaments/new`);
  await annPage.locator('.seg[data-value=robin]').click();
  check(await annPage.locator('#tour-minutes').isHidden() && await annPage.locator('#tour-players').isVisible(), 'the round robin\'s fields are not shown');
  await annPage.locator('#tour-players').fill('robinann, robinben');
  await annPage.locator('#tour-clock').selectOption('5');
  await annPage.locator('#tour-start').selectOption('0');
  await annPage.locator('#create-tournament').click();
  // Read from the page as it first showed: the round robin starts at once, and the page may
  // already have opened ann's first game in its place (a player's paired game opens by itself).
  const created = await annPage.waitForSelector('.tour-one[data-tournament]');
  const robin = { id: await created.getAttribute('data-tournament') };
  check((await api('GET', `/api/tournament/${robin.id}`)).system === 'robin', 'not a round robin');
  check(await annPage.locator('#tour-join').count() === 0, 'joining is offered in a round robin');
  const ann = (method, p, body) => moveByPage(annPage, p.split('/')[3], body.move);
  const viewer = await newPlayer(t, { viewport: PHONE });
  await tournamentPage(viewer, robin.id);
  await viewer.waitForSelector('#cross-table');
  // Each pair twice, colours swapped: both games won by black (fool's mate), by the API.
  for (let round = 0; round < 2; round++) {
    let duel = null;
    for (let i = 0; i < 100 && !duel; i++) {
      const now = await api('GET', `/api/tournament/${robin.id}`);
      duel = now.duels && now.duels[0];
      if (!duel) await new Promise((r) => setTimeout(r, 200));
    }
    check(duel, `round ${round + 1} did not start`);
    const g = await api('GET', `/api/games/${duel.id}`);
    const client = { robinann: ann, robinben: ben };
    for (const [i, [from, to]] of FOOLS_MATE.entries()) {
      await client[g.players[i % 2 ? 'black' : 'white'].id]('POST', `/api/games/${duel.id}/moves`, { move: `${from}${to}` });
    }
  }
  // Each won once: 1 and 0 against each other, in either order.
  await viewer.waitForFunction(() => [...document.querySelectorAll('#cross-table td.num')].map((c) => [...c.textContent].sort().join('')).join() === '01,01',
    null, { timeout: 15000 }).catch(async () => { throw new Error(`the cross table: ${await viewer.locator('#cross-table').innerText()}`); });
  await viewer.waitForSelector('#podium');
  await shot(viewer, 'tournament-robin-phone');
}, 90000);

test('tournament-conditions-pages', async (t) => {
  const page = await newPlayer(t);
  await signUp(page, 'pagesone');
  // An arena for ratings of 1400 at most, in 5 minutes: the countdown; 1500 may not join.
  await page.goto(`${env.server.base}/#/tournaments/new`);
  await page.locator('#tour-variant').selectOption('starchess');
  await page.locator('#tour-start').selectOption('5');
  await page.locator('#tour-conditions summary').click();
  await page.locator('#tour-max-rating').fill('1400');
  await page.locator('#create-tournament').click();
  await page.waitForSelector('.tour-one[data-tournament]');
  const capped = await page.locator('.tour-one').getAttribute('data-tournament');
  const made = await api('GET', `/api/tournament/${capped}`);
  check(made.maxRating && made.maxRating.rating === 1400 && made.fullName === 'Starchess Arena' && made.status === 10, `the server made ${JSON.stringify(made)}`);
  check(/Rated at most 1400/.test(await page.locator('#tour-conditions').innerText()), 'the condition is not shown');
  check(/^Starts in (5:00|4:5\d)$/.test(await page.locator('#tour-clock').innerText()), `the countdown: ${await page.locator('#tour-clock').innerText()}`);
  await page.locator('#tour-join').click();
  await page.waitForSelector('.notice.error');
  check(/1400 or less/.test(await page.locator('.notice.error').innerText()), 'the refusal does not give the server\'s reason');
  // Eleven players, ten through the API: the standings come a page of ten at a time.
  const host = await accountClient('pageshost');
  const arena = await host('POST', '/api/tournament', { name: 'Crowded Arena', clockTime: 3, clockIncrement: 2, minutes: 30, waitMinutes: 10, variant: 'standard' });
  for (let i = 0; i < 10; i++) await (await accountClient(`pagesp${i}`))('POST', `/api/tournament/${arena.id}/join`, {});
  await tournamentPage(page, arena.id);
  await page.locator('#tour-join').click();
  await page.waitForSelector('#tour-withdraw');
  await page.waitForSelector('#standings-pager');
  check(await page.locator('#standings tbody tr').count() === 10, 'page 1 does not list ten players');
  for (const close of await page.locator('.notice-close').all()) await close.click();
  await shot(page, 'tournament-upcoming-desktop');
  await page.locator('#standings-next').click();
  await page.waitForSelector('#standings tr[data-player=pagesone].me');
  check(await page.locator('#standings tbody tr').count() === 1 && /Page 2 of 2/.test(await page.locator('#standings-pager').innerText()), 'page 2 is not the eleventh player alone');
  // Withdrawn: marked, and may join again.
  await page.locator('#tour-withdraw').click();
  await page.waitForSelector('#tour-join');
  await page.waitForSelector('#standings tr[data-player=pagesone].withdrawn');
  await page.goto(`${env.server.base}/#/tournaments`);
  await page.waitForSelector(`#tournaments-created li[data-tournament="${arena.id}"]`);
  check(/11 players/.test(await page.locator(`li[data-tournament="${arena.id}"]`).innerText()), 'the list does not count eleven players');
});

test('tv-follows-games', async (t) => {
  const clock = { base_ms: 300000, inc_ms: 0 };
  const make = async (variant, rating) => {
    const r = await api('POST', '/api/games', { variant, opponent: 'friend', clock });
    sqlite(`UPDATE games SET white_rating = ${rating} WHERE id = '${r.game.id}'`);
    return r;
  };
  const first = await make('chess', 2990);
  const second = await make('chess', 2980);
  const star = await make('starvation', 2995);
  const viewer = await newPlayer(t);
  await viewer.goto(`${env.server.base}/#/tv/chess`);
  await viewer.waitForSelector(`.tv-game[data-game="${first.game.id}"] .board-svg [data-cell]`);
  check(/2990/.test(await viewer.locator('.tv-channel[data-variant=chess]').innerText()), 'the chess channel does not name its rating');
  // Live: a move shows; the game ends, the next best comes on.
  await api('POST', `/api/games/${first.game.id}/moves`, { move: 'e2e4', token: first.token });
  await viewer.waitForSelector('.tv-game .mv[data-ply]');
  await shot(viewer, 'tv-desktop');
  await api('POST', `/api/games/${first.game.id}/resign`, { token: first.token });
  await viewer.waitForSelector(`.tv-game[data-game="${second.game.id}"] .board-svg [data-cell]`, { timeout: 15000 });
  // Another channel, by its tab.
  await viewer.locator('.tv-channel[data-variant=starvation]').click();
  await viewer.waitForSelector(`.tv-game[data-game="${star.game.id}"] .board-svg [data-cell]`);
  check(viewer.url().endsWith('#/tv/starvation'), `the address is ${viewer.url()}`);
  // #/tv alone: the best channel.
  const phone = await newPlayer(t, { viewport: PHONE });
  await phone.goto(`${env.server.base}/#/tv`);
  await phone.waitForSelector(`.tv-game[data-game="${star.game.id}"] .board-svg [data-cell]`);
  check(await phone.locator('.tv-channel[aria-current=page]').getAttribute('data-variant') === 'starvation', 'the best channel is not the current one');
  await shot(phone, 'tv-phone');
  for (const r of [second, star]) await api('POST', `/api/games/${r.game.id}/resign`, { token: r.token });
});
