// Rated games between accounts: created with the rated box, joined through the invite link,
// played to mate, the rating changes on the game page and the profiles, the leaderboard, log
// out; an aborted game; screenshots of the profile, the leaderboard and the sign-up page.

import path from 'node:path';
import {
  env, test, check, newPlayer, api, createGame, waitPlies, play, resultText, shot,
  signUp, passwordOf, accountClient, sqlite, VIEWPORT, PHONE, ARTIFACTS,
} from '../harness.mjs';

// Starchess from the start: the setup (White places on plies 1, 3, ...), then White's knight
// from 11 to 19 mates (N19#, 1-0).
const SETUP = ['B@17', 'N@34', 'N@11', 'B@21', 'R@4', 'Q@16', 'K@28', 'R@10', 'Q@22', 'K@27'];
const MATE = ['11', '19'];

// A move sent by the page's own fetch, as its player's session (no game token).
async function moveByPage(page, id, move) {
  await page.evaluate(async ([gid, m]) => {
    const r = await fetch(`/api/games/${gid}/moves`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ move: m }) });
    if (!r.ok) throw new Error(`${m}: ${r.status} ${await r.text()}`);
  }, [id, move]);
}

const text = (page, sel) => page.locator(sel).innerText();

test('account-rated-starchess', async (t) => {
  const alice = await newPlayer(t);
  const bob = await newPlayer(t, { viewport: PHONE }); // the friend on a phone
  await signUp(alice, 'alice');
  await signUp(bob, 'bob');
  const id = await createGame(alice, { variant: 'starchess', opponent: 'friend', color: 'white', rated: true });
  check(await alice.locator('#rated-badge').isVisible(), 'no Rated badge');
  check(/alice\s*1500\?/.test(await text(alice, '.player-bar.bottom .player-name')), 'the creator\'s name and rating are not shown');
  // Bob opens the invite: the rated side is his once he joins with his account.
  const link = await alice.locator('#invite-link').inputValue();
  await bob.goto(link);
  await bob.waitForSelector('#join:not([hidden]) #join-game');
  check(await bob.locator('#join-game').innerText() === 'Join as bob', 'the join button does not name bob');
  check(await bob.locator('.board.interactive, .board.premovable').count() === 0, 'the board is playable before joining');
  await shot(bob, 'account-rated-invite-phone');
  await bob.locator('#join-game').click();
  await bob.waitForSelector('#join', { state: 'hidden' });
  check((await bob.locator('.player-bar.bottom').getAttribute('data-side')) === 'black', 'bob does not play Black');
  await alice.waitForFunction(() => /bob/.test(document.querySelector('.player-bar.top .player-name').textContent));
  // The setup through the pages' own requests, each player's session alone; the mate by a click.
  for (const [i, move] of SETUP.entries()) await moveByPage(i % 2 ? bob : alice, id, move);
  await waitPlies(alice, SETUP.length);
  await play(alice, ...MATE);
  const g = await api('GET', `/api/games/${id}`);
  check(g.result === '1-0' && g.reason === 'checkmate' && g.moves[10].san === 'N19#', `the server has ${g.result} ${g.reason} ${g.moves.map((m) => m.san)}`);
  check(g.rated && g.ratingDiff.white > 0 && g.ratingDiff.black < 0, `rating changes ${JSON.stringify(g.ratingDiff)}`);
  const [up, down] = [`+${g.ratingDiff.white}`, `\u2212${-g.ratingDiff.black}`];
  for (const p of [alice, bob]) {
    check(/1-0/.test(await resultText(p)), 'the result is not shown');
    await p.waitForSelector('#game-over[open] #rating-changes:not([hidden])');
    const changes = await text(p, '#rating-changes');
    check(changes.includes(up) && changes.includes(down), `the dialog shows "${changes}"`);
    const bars = await text(p, '.play-area');
    check(bars.includes(up) && bars.includes(down) && !/null|undefined/.test(bars), `beside the names: ${bars}`);
  }
  await shot(alice, 'account-rated-game');
  await bob.locator('#game-over .dialog-close').click();
  await shot(bob, 'account-rated-game-phone');
  // The profiles: alice's from the header, bob's from her game list.
  await alice.locator('#account-name').click();
  await alice.waitForSelector('.profile-page[data-user="alice"] .profile-game');
  check(/1 win/.test(await text(alice, '#profile-counts')), `alice's counts: ${await text(alice, '#profile-counts')}`);
  const tile = await text(alice, '.rating-tile[data-variant="starchess"]');
  check(tile.includes(`${1500 + g.ratingDiff.white}?`), `alice's Starchess rating tile: ${tile}`);
  check(await alice.locator('.rating-history[data-variant="starchess"] .graph-dot').count() === 1, 'no point in the rating graph');
  const row = alice.locator(`.profile-game[data-id="${id}"]`);
  check((await row.innerText()).includes(up) && /Won/.test(await row.innerText()), `alice's game row: ${await row.innerText()}`);
  await row.locator('.profile-link').click();
  await alice.waitForSelector('.profile-page[data-user="bob"] .profile-game');
  check(/1 loss/.test(await text(alice, '#profile-counts')), 'bob\'s loss is not counted');
  check((await text(alice, `.profile-game[data-id="${id}"]`)).includes(down), 'bob\'s rating change is not listed');
  // The leaderboard, from the home page: provisional ratings are not listed, and it says so.
  await alice.goto(`${env.server.base}/#/`);
  await alice.locator('#to-leaderboard').click();
  await alice.locator('.variant-chooser [data-variant="starchess"]').click();
  await alice.waitForSelector('.leaderboard-page[data-variant="starchess"] #leaderboard-empty');
  check(/provisional/.test(await text(alice, '#leaderboard-empty')), 'the empty leaderboard does not explain provisional ratings');
  // Log out: the header offers to sign in again.
  await alice.locator('#account-button').click();
  await alice.locator('#log-out').click();
  await alice.waitForSelector('#sign-in:not([hidden])');
  check(await alice.locator('#account-name').isHidden(), 'the name stays in the header after logging out');
}, 90000);

// A rated game's invite opened logged out: sign up from the offer, back on the invite, join.
test('account-rated-sign-up-to-join', async (t) => {
  const host = await newPlayer(t);
  await signUp(host, 'ivy');
  await createGame(host, { variant: 'chess', opponent: 'friend', rated: true });
  const link = await host.locator('#invite-link').inputValue();
  const friend = await newPlayer(t);
  await friend.goto(link);
  await friend.waitForSelector('#join:not([hidden]) #sign-in-to-join');
  await friend.locator('#sign-up-to-join').click();
  await friend.locator('#username').fill('jay');
  await friend.locator('#password').fill(passwordOf('jay'));
  await friend.locator('#auth-submit').click();
  await friend.waitForSelector('#join:not([hidden]) #join-game');
  check(friend.url() === link, `back at ${friend.url()}, not the invite`);
  await friend.locator('#join-game').click();
  await play(host, 'e2', 'e4');
  await play(friend, 'e7', 'e5');
  await host.waitForFunction(() => /jay/.test(document.querySelector('.player-bar.top .player-name').textContent));
});

// A casual game's invite: a logged-in friend may join with the account, or play anonymously.
test('account-casual-join', async (t) => {
  const host = await newPlayer(t);
  const id = await createGame(host, { variant: 'chess', opponent: 'friend' });
  const friend = await newPlayer(t);
  await signUp(friend, 'frank');
  await friend.goto(await host.locator('#invite-link').inputValue());
  await friend.waitForSelector('#join:not([hidden]) #join-game');
  await friend.locator('#join-game').click();
  await friend.waitForSelector('#join', { state: 'hidden' });
  await play(host, 'e2', 'e4');
  await play(friend, 'e7', 'e5');
  const g = await api('GET', `/api/games/${id}`);
  check(g.players.black && g.players.black.name === 'frank' && !g.rated, `the game's players: ${JSON.stringify(g.players)}`);
  await host.waitForFunction(() => /frank/.test(document.querySelector('.player-bar.top .player-name').textContent));
});

// Abort before both sides have moved: the game ends as aborted, nothing counted.
test('abort-fresh-game', async (t) => {
  const page = await newPlayer(t);
  const id = await createGame(page, { variant: 'chess', opponent: 'friend' });
  await page.locator('#abort').click();
  check(/aborted/i.test(await resultText(page)), 'the result does not say aborted');
  await page.waitForSelector('#game-over[open]');
  check(/aborted/i.test(await text(page, '#game-over-title')), 'the dialog does not say aborted');
  check(await page.locator('#abort').isHidden(), 'Abort is still offered');
  const g = await api('GET', `/api/games/${id}`);
  check(g.status === 'over' && g.reason === 'aborted', `the server has ${g.status} ${g.reason}`);
  await page.goto(`${env.server.base}/#/`);
  check(/aborted/.test(await page.locator(`.recent-game[data-id="${id}"] .rg-result`).innerText()), 'the recent games do not show it aborted');
});

// Rated games on four days between two accounts, set up through the API; their ratings made
// settled in the store (RD 60: the leaderboard lists only ratings with RD <= 110, which takes
// more games than a test plays) so that the leaderboard has rows.  Answers gil's client.
async function seedRatedHistory() {
  const [gil, hal] = [await accountClient('gil'), await accountClient('hal')];
  const winners = [gil, hal, gil, gil];
  const ids = [];
  for (const white of winners) {
    const black = white === gil ? hal : gil;
    const { game, invite } = await white('POST', '/api/games', { variant: 'starchess', opponent: 'friend', rated: true });
    await black('POST', `/api/games/${game.id}/join`, { invite });
    for (const [i, move] of [...SETUP, MATE.join('-')].entries()) await (i % 2 ? black : white)('POST', `/api/games/${game.id}/moves`, { move });
    ids.push(game.id);
  }
  const day = 86400000;
  ids.forEach((id, i) => sqlite(`UPDATE games SET created_ms = created_ms - ${(ids.length - 1 - i) * day}, ended_ms = ended_ms - ${(ids.length - 1 - i) * day} WHERE id = '${id}'`));
  sqlite("UPDATE perfs SET rd = 60 WHERE user_id IN ('gil', 'hal') AND variant = 'starchess'");
  return gil;
}

test('account-pages-screenshots', async (t) => {
  const gil = await seedRatedHistory();
  const page = await newPlayer(t);
  const pages = [
    ['profile', '#/@/gil', '.rating-history .graph-dot'],
    ['leaderboard', '#/leaderboard/starchess', '#leaderboard tbody tr'],
    ['signup', '#/signup', '#signup-form'],
  ];
  for (const [size, viewport] of [['desktop', VIEWPORT], ['phone', PHONE]]) {
    await page.setViewportSize(viewport);
    for (const [name, hash, ready] of pages) {
      await page.goto(`${env.server.base}/${hash}`);
      await page.waitForSelector(ready);
      await page.waitForTimeout(150);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      check(wide <= viewport.width, `${name} ${size}: the page is ${wide} px wide`);
      await page.screenshot({ path: path.join(ARTIFACTS, `account-${name}-${size}.png`), fullPage: true });
    }
  }
  await page.goto(`${env.server.base}/#/@/gil`);
  await page.waitForSelector('.rating-history .graph-dot');
  check(await page.locator('.rating-history[data-variant="starchess"] .graph-dot').count() === 4, 'the graph does not have a point for each of the four days');
  await page.goto(`${env.server.base}/#/leaderboard/starchess`);
  await page.waitForSelector('#leaderboard tbody tr');
  const rows = await page.locator('#leaderboard tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.user));
  check(rows[0] === 'gil' && rows.includes('hal'), `the leaderboard lists ${rows.join(', ')}`);
  // 17 casual games more: the profile lists 20, then the 21st after "More games"; one is
  // being played now.
  for (let i = 0; i < 17; i++) await gil('POST', '/api/games', { variant: 'chess', opponent: 'friend' });
  await page.goto(`${env.server.base}/#/@/gil`);
  await page.waitForSelector('#more-games:not([hidden])');
  check(await page.locator('.profile-game').count() === 20, 'the first page does not hold 20 games');
  check(await page.locator('#playing-now').isVisible(), 'no game being played now');
  await page.locator('#more-games').click();
  await page.waitForFunction(() => document.querySelectorAll('.profile-game').length === 21);
  check(await page.locator('#more-games').isHidden(), '"More games" stays after the last page');
}, 90000);
