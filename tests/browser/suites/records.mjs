// Games as records: PGN export and import, FEN import, spectators, an API error shown, the
// recent games, the event stream across a server restart.

import fs from 'node:fs';
import { env, test, check, startServer, newPlayer, api, createGame, joinByInvite, plies, waitPlies, play, shot, boardMatchesServer } from '../harness.mjs';

test('pgn-export', async (t) => {
  const white = await newPlayer(t);
  const id = await createGame(white, { variant: 'chess', opponent: 'friend' });
  const black = await joinByInvite(t, white);
  await play(white, 'e2', 'e4');
  await play(black, 'c7', 'c5');
  await play(white, 'g1', 'f3');
  check(await white.locator('#show-pgn').isHidden(), 'the export section is open before it is asked for');
  await white.locator('#export summary').click();
  await white.locator('#show-pgn').click();
  await white.waitForSelector('#pgn-out:not([hidden])');
  const pgn = await white.locator('#pgn-out').inputValue();
  check(/\[Variant "chess"\]/i.test(pgn), `PGN without a Variant tag: ${pgn.slice(0, 200)}`);
  check(/1\.\s*e4\s+c5\s+2\.\s*Nf3/.test(pgn), `PGN moves: ${pgn}`);
  const [dl] = await Promise.all([white.waitForEvent('download'), white.locator('#download-pgn').click()]);
  const file = await dl.path();
  check(fs.readFileSync(file, 'utf8') === pgn, 'the downloaded PGN differs from the one shown');
  check(dl.suggestedFilename().endsWith('.pgn'), `download named ${dl.suggestedFilename()}`);
  const fen = await white.locator('#fen-out').inputValue();
  const g = await api('GET', `/api/games/${id}`);
  check(fen === g.fen, `FEN box ${fen} != ${g.fen}`);
  await shot(white, 'pgn-export');
});

test('pgn-import-replay', async (t) => {
  const page = await newPlayer(t);
  const pgn = '[Variant "chess"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O *\n';
  const id = await createGame(page, { variant: 'chess', opponent: 'friend', pgn });
  await waitPlies(page, 9);
  const g = await boardMatchesServer(page, id);
  check(g.moves.length === 9, `imported ${g.moves.length} plies`);
  // Step back through the game: the castling and the captures replay correctly.
  await page.locator('#nav-prev').click();
  check(await page.locator('[data-piece-cell="e1"][data-letter="K"]').count() === 1, 'replay before O-O: king not on e1');
  await page.locator('#nav-first').click();
  const start = await page.evaluate(() => document.querySelectorAll('.board-svg [data-piece-cell]').length);
  check(start === 32, `start position shows ${start} pieces`);
  for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowRight');
  check(await page.locator('[data-piece-cell="g1"][data-letter="K"]').count() === 1, 'after O-O the king is not on g1');
  check(await page.locator('[data-piece-cell="f1"][data-letter="R"]').count() === 1, 'after O-O the rook is not on f1');
  await shot(page, 'pgn-import');
});

test('fen-import', async (t) => {
  const page = await newPlayer(t);
  const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
  const id = await createGame(page, { variant: 'chess', opponent: 'friend', fen });
  const g = await boardMatchesServer(page, id);
  check(g.fen.split(' ')[0] === fen.split(' ')[0], `imported FEN ${g.fen}`);
  check(await page.locator('[data-piece-cell="c6"][data-letter="N"]:not(.white)').count() === 1, 'no black knight on c6');
  const labels = await page.locator('.mv-num').count();
  check(labels === 0, 'moves listed for a fresh import');
  // Flip: Black at the bottom, the a1 corner at the top right.
  const a1 = await page.locator('[data-cell="a1"]').boundingBox();
  await page.locator('#flip').click();
  check((await page.locator('.player-bar.bottom').getAttribute('data-side')) === 'black', 'flipped board does not show Black at the bottom');
  const a1f = await page.locator('[data-cell="a1"]').boundingBox();
  check(a1f.y < a1.y && a1f.x > a1.x, 'a1 did not move to the top right when flipped');
  await page.locator('#flip').click();
  await play(page, 'f1', 'b5');
  const rows = await page.locator('.mv-num').allInnerTexts();
  check(rows[0] === '3.', `first move numbered ${rows[0]}`);
  await shot(page, 'fen-import');
});

test('spectator-and-errors', async (t) => {
  const white = await newPlayer(t);
  const id = await createGame(white, { variant: 'chess', opponent: 'friend' });
  const watcher = await newPlayer(t);
  await watcher.goto(`${env.server.base}/#/game/${id}`);
  await watcher.waitForSelector('.board-svg [data-cell]');
  check(await watcher.locator('.board.interactive').count() === 0, 'a spectator can move');
  check(await watcher.locator('#resign').isHidden(), 'a spectator sees a resign button');
  await play(white, 'd2', 'd4');
  await waitPlies(watcher, 1);
  // An error from the API is shown: a bad FEN import.
  await white.goto(`${env.server.base}/#/`);
  await white.locator('.variant-tile[data-variant="chess"]').click();
  await white.locator('#import summary').click();
  await white.locator('#import-text').fill('this is not a position');
  await white.locator('#play').click();
  await white.waitForSelector('.notice.error');
  const msg = await white.locator('.notice.error').first().innerText();
  check(/import/i.test(msg), `error notice reads "${msg}"`);
  await shot(white, 'error-notice');
  // The recent games list opens a game.
  await white.goto(`${env.server.base}/#/`);
  await white.waitForSelector(`.recent-game[data-id="${id}"]`);
  await shot(white, 'home');
  await white.locator(`.recent-game[data-id="${id}"]`).click();
  await white.waitForSelector('.mv[data-ply="1"]');
});

test('live-updates-reconnect', async (t) => {
  const white = await newPlayer(t);
  const id = await createGame(white, { variant: 'chess', opponent: 'friend' });
  const link = await white.locator('#invite-link').inputValue();
  const invite = decodeURIComponent(/[?&]t=([^&]+)/.exec(link)[1]);
  await white.waitForSelector('#conn[data-state="live"]');
  await play(white, 'e2', 'e4');
  // The server goes away and comes back on the same port and database.
  await env.server.halt();
  await white.waitForSelector('#conn[data-state="reconnecting"]', { timeout: 8000 });
  env.server = await startServer(env.server);
  await white.waitForSelector('#conn[data-state="live"]', { timeout: 15000 });
  // A move made elsewhere (the friend, through the API) reaches the page by the event stream.
  await api('POST', `/api/games/${id}/moves`, { move: 'e7e5', token: invite });
  await waitPlies(white, 2, 8000);
  await boardMatchesServer(white, id);
  await shot(white, 'live-reconnect');
});
