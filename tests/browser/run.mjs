// Browser tests of the starfish web UI, clicking through the real pages served by the real
// `starfish serve` (started here on a free port with a fresh database).
//
//   cd tests/browser && npm install && node run.mjs [NAME-FILTER]
//
// Env: STARFISH_BIN (default ../../starfish), CHROMIUM (default /usr/bin/chromium).
// Prints `PASS name` or `FAIL name: reason` per test and a closing `N passed, N failed` line,
// saves a screenshot per test in tests/artifacts/, exits non-zero if any test failed.

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const BIN = path.resolve(here, process.env.STARFISH_BIN || '../../starfish');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARTIFACTS = path.resolve(root, 'tests/artifacts');
const FILTER = process.argv[2] || '';
const VIEWPORT = { width: 1360, height: 900 };
const PHONE = { width: 390, height: 844 };
const TEST_TIMEOUT = 45000;

// ---------------------------------------------------------------- server

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Starts `starfish serve`; `again` restarts a stopped server on its port and database.
async function startServer(again = null) {
  const port = again ? again.port : await freePort();
  const tmp = again ? again.tmp : fs.mkdtempSync(path.join(os.tmpdir(), 'starfish-browser-'));
  const db = path.join(tmp, 'test.db');
  const log = fs.openSync(path.join(tmp, 'server.log'), 'a');
  const proc = spawn(BIN, ['serve', '--port', String(port), '--db', db, '--web', path.join(root, 'web')], {
    cwd: root,
    stdio: ['ignore', log, log],
  });
  let exited = null;
  proc.on('exit', (code, sig) => { exited = `exited with ${code ?? sig}`; });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15000;
  for (;;) {
    if (exited) throw new Error(`starfish serve ${exited}: ${fs.readFileSync(path.join(tmp, 'server.log'), 'utf8').slice(-2000)}`);
    try {
      const r = await fetch(`${base}/api/variants`);
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('starfish serve did not answer within 15 s');
    await sleep(100);
  }
  return {
    base, tmp, proc, port,
    log: () => fs.readFileSync(path.join(tmp, 'server.log'), 'utf8'),
    async halt() {
      if (!exited) {
        proc.kill('SIGTERM');
        for (let i = 0; i < 50 && !exited; i++) await sleep(100);
        if (!exited) proc.kill('SIGKILL');
        for (let i = 0; i < 20 && !exited; i++) await sleep(100);
      }
    },
    async stop() {
      await this.halt();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- helpers

let browser;
let server;

class Failure extends Error {}
function check(cond, msg) {
  if (!cond) throw new Failure(msg);
}

async function newPlayer(t, { viewport = VIEWPORT, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport, colorScheme, acceptDownloads: true, hasTouch: viewport === PHONE });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base }).catch(() => {});
  t.contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(30000); // generous: the engine may think while the machine is busy
  page.on('pageerror', (e) => t.errors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) t.errors.push(`console error: ${m.text()}`);
  });
  return page;
}

async function api(method, p, body) {
  const r = await fetch(server.base + p, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${text}`);
  return text && r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
}

// Fills the home page's form and starts a game; returns the game id.
async function createGame(page, { variant = 'chess', opponent = 'friend', color = 'white', skill, clock, fen, pgn } = {}) {
  await page.goto(`${server.base}/#/`);
  await page.locator(`.variant-tile[data-variant="${variant}"]`).click();
  await page.locator(`.seg[data-value="${opponent}"]`).first().click();
  await page.locator(`.seg[data-value="${color}"]`).first().click();
  if (skill != null) await page.locator('#skill').fill(String(skill));
  if (clock) {
    await page.locator('#clock').selectOption('custom');
    await page.locator('#clock-min').fill(String(clock.min));
    await page.locator('#clock-inc').fill(String(clock.inc));
  } else {
    await page.locator('#clock').selectOption('none');
  }
  if (fen || pgn) {
    await page.locator('#import summary').click();
    await page.locator(`.seg[data-value="${fen ? 'fen' : 'pgn'}"]`).click();
    await page.locator('#import-text').fill(fen || pgn);
  }
  await page.locator('#play').click();
  await page.waitForSelector('.game-view .board-svg [data-cell]');
  const id = await page.locator('.game-view').getAttribute('data-game');
  check(id, 'no game id on the game view');
  return id;
}

async function joinByInvite(t, page) {
  const link = await page.locator('#invite-link').inputValue();
  check(/#\/game\/[^?]+\?t=/.test(link), `invite link looks wrong: ${link}`);
  const friend = await newPlayer(t);
  await friend.goto(link);
  await friend.waitForSelector('.game-view .board-svg [data-cell]');
  return friend;
}

const plies = (page) => page.locator('.mv[data-ply]').count();
async function waitPlies(page, n, timeout = 30000) {
  await page.waitForFunction((k) => document.querySelectorAll('.mv[data-ply]').length >= k, n, { timeout });
}

// Plays FROM -> TO by clicking (or dragging) on the board; waits until the move is listed.
async function play(page, from, to, { drag = false, promo = null } = {}) {
  const before = await plies(page);
  await page.waitForSelector('.board.interactive');
  const src = page.locator(`.board-svg [data-cell="${from}"]`);
  const dst = page.locator(`.board-svg [data-cell="${to}"]`);
  if (drag) {
    await src.dragTo(dst);
  } else {
    await src.click();
    await page.waitForSelector(`.board-svg [data-dest="${to}"]`, { state: 'attached' }).catch(() => {
      throw new Failure(`${from}-${to}: ${to} is not highlighted as a destination`);
    });
    await dst.click();
  }
  if (promo) {
    await page.waitForSelector('.promotion-chooser');
    await page.locator(`.promotion-chooser [data-promo="${promo}"]`).click();
  }
  await waitPlies(page, before + 1);
}

// Starchess: a piece from the hand onto a back-rank cell.
async function place(page, side, letter, cell, { drag = false } = {}) {
  const before = await plies(page);
  await page.waitForSelector('.board.interactive');
  const piece = page.locator(`.hand-piece[data-side="${side}"][data-hand="${letter}"]:not([disabled])`);
  if (drag) {
    await piece.dragTo(page.locator(`.board-svg [data-cell="${cell}"]`));
  } else {
    await piece.click();
    await page.waitForSelector(`.board-svg [data-dest="${cell}"]`, { state: 'attached' });
    await page.locator(`.board-svg [data-cell="${cell}"]`).click();
  }
  await waitPlies(page, before + 1);
}

async function resultText(page) {
  await page.waitForSelector('#result:not([hidden])');
  return page.locator('#result').innerText();
}

const sanList = (page) => page.locator('.mv[data-ply]').allInnerTexts();

async function shot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

// The board drawn in the page, as FEN board text, compared with the server's FEN.
async function boardMatchesServer(page, id) {
  const g = await api('GET', `/api/games/${id}`);
  const variants = await api('GET', '/api/variants');
  const v = variants.find((x) => x.name === g.variant);
  const drawn = await page.evaluate((board) => {
    const pieces = new Map();
    for (const el of document.querySelectorAll('.board-svg [data-piece-cell]')) {
      pieces.set(el.getAttribute('data-piece-cell'), { letter: el.getAttribute('data-letter'), white: el.classList.contains('white') });
    }
    return window.starfishDebug.boardText(board, pieces);
  }, v.board);
  const expected = await page.evaluate(([board, fen]) => window.starfishDebug.boardText(board, window.starfishDebug.parseFen(board, fen)), [v.board, g.fen]);
  check(drawn === expected, `board drawn ${drawn} but the server's FEN says ${expected}`);
  // Every move carries the position after it; the last one must be the current position.
  const replayed = g.moves.length
    ? await page.evaluate(([board, fen]) => window.starfishDebug.boardText(board, window.starfishDebug.parseFen(board, fen)),
      [v.board, g.moves[g.moves.length - 1].fen])
    : expected;
  check(replayed === expected, `replaying the moves gives ${replayed}, the server has ${expected}`);
  return g;
}

// ---------------------------------------------------------------- tests

const tests = [];
const test = (name, fn, timeout = TEST_TIMEOUT) => tests.push({ name, fn, timeout });

test('chess-fools-mate-friend', async (t) => {
  const white = await newPlayer(t);
  const id = await createGame(white, { variant: 'chess', opponent: 'friend', color: 'white' });
  await white.locator('#copy-invite').click();
  await white.waitForFunction(() => /Copied/.test(document.querySelector('#copy-invite').textContent));
  const black = await joinByInvite(t, white);
  // The invite card goes as soon as the friend has come, before any move of theirs.
  await white.waitForSelector('#invite', { state: 'hidden', timeout: 5000 }).catch(() => {
    throw new Failure('the invite card stays after the friend joined');
  });
  check((await black.locator('.player-bar.bottom').getAttribute('data-side')) === 'black', 'the friend does not see the board from Black\'s side');
  await play(white, 'f2', 'f3');
  await play(black, 'e7', 'e5', { drag: true });
  await play(white, 'g2', 'g4');
  await play(black, 'd8', 'h4');
  for (const p of [white, black]) {
    const r = await resultText(p);
    check(/0-1/.test(r) && /checkmate/i.test(r), `result shown as "${r}"`);
  }
  check(await white.locator('.hl.check').count() === 1, 'the mated king is not highlighted');
  check(await white.locator('.hl.last').count() === 2, 'the last move is not highlighted');
  const sans = await sanList(white);
  check(sans.length === 4 && /h4/.test(sans[3]) && /#/.test(sans[3]), `move list: ${sans.join(' ')}`);
  await boardMatchesServer(white, id);
  // Replay: the position after 1. f3 has a pawn on f3 and none on f2.
  await white.locator('.mv[data-ply="1"]').click();
  check(await white.locator('[data-piece-cell="f3"][data-letter="P"]').count() === 1, 'replay: no pawn on f3 after 1. f3');
  check(await white.locator('[data-piece-cell="f2"]').count() === 0, 'replay: f2 still occupied after 1. f3');
  check(await white.locator('[data-piece-cell="h4"]').count() === 0, 'replay: queen already on h4');
  await white.locator('#nav-next').click();
  check(await white.locator('[data-piece-cell="e5"][data-letter="P"]').count() === 1, 'replay: no pawn on e5 after 1... e5');
  await white.locator('#nav-last').click();
  check(await white.locator('[data-piece-cell="h4"][data-letter="Q"]').count() === 1, 'back to the end: no queen on h4');
  await shot(black, 'chess-fools-mate-black');
  await shot(white, 'chess-fools-mate');
});

test('chess-promotion', async (t) => {
  const page = await newPlayer(t);
  const id = await createGame(page, { variant: 'chess', opponent: 'friend', fen: 'k7/4P3/8/8/8/8/8/4K3 w - - 0 1' });
  await page.locator('[data-cell="e7"]').click();
  await page.locator('[data-cell="e8"]').click();
  await page.waitForSelector('.promotion-chooser');
  const choices = await page.locator('.promotion-chooser [data-promo]').count();
  check(choices === 4, `${choices} promotion choices, not 4`);
  await shot(page, 'chess-promotion-chooser');
  await page.locator('.promotion-chooser [data-promo="n"]').click();
  await waitPlies(page, 1);
  check(await page.locator('[data-piece-cell="e8"][data-letter="N"]').count() === 1, 'no white knight on e8');
  const sans = await sanList(page);
  check(/=N/.test(sans[0]), `move list shows ${sans[0]}`);
  await boardMatchesServer(page, id);
  await shot(page, 'chess-promotion');
});

test('starchess-setup-and-moves', async (t) => {
  const white = await newPlayer(t);
  const id = await createGame(white, { variant: 'starchess', opponent: 'friend' });
  const black = await joinByInvite(t, white);
  check(await white.locator('.hand-piece[data-side="white"]').count() === 5, 'White does not hold five pieces in hand');
  const setup = [['white', 'K', '17'], ['black', 'k', '21'], ['white', 'Q', '11'], ['black', 'q', '16'], ['white', 'R', '4'],
    ['black', 'r', '10'], ['white', 'B', '22'], ['black', 'b', '27'], ['white', 'N', '28'], ['black', 'n', '34']];
  for (const [side, letter, cell] of setup) {
    // White clicks (piece, then cell); Black drags from the hand onto the board.
    await place(side === 'white' ? white : black, side, letter.toUpperCase(), cell, { drag: side === 'black' });
  }
  await waitPlies(white, setup.length); // Black placed last: White's page learns of it by its event stream
  check(await white.locator('.hand-piece').count() === 0, 'pieces left in hand after the setup');
  const labels = await white.locator('.mv-num').allInnerTexts();
  check(labels.slice(0, 5).join(' ') === 'I. II. III. IV. V.', `setup numbered ${labels.join(' ')}`);
  await play(white, '23', '24');
  await play(black, '26', '25');
  await play(white, '12', '13');
  const labels2 = await white.locator('.mv-num').allInnerTexts();
  check(labels2[5] === '1.' && labels2[6] === '2.', `movement moves numbered ${labels2.join(' ')}`);
  await boardMatchesServer(black, id);
  await black.locator('.mv[data-ply="4"]').click(); // replay inside the setup
  check(await black.locator('[data-piece-cell="16"][data-letter="Q"]').count() === 1, 'replay: no black queen on 16 after II.');
  check(await black.locator('[data-piece-cell="4"]').count() === 0, 'replay: cell 4 filled too early');
  await black.locator('#nav-last').click();
  await shot(black, 'starchess-black');
  await shot(white, 'starchess');
});

test('square-says-moves', async (t) => {
  const white = await newPlayer(t);
  const id = await createGame(white, { variant: 'square-says', opponent: 'friend' });
  const black = await joinByInvite(t, white);
  check(await white.locator('.board-svg .mark').count() === 64, 'not every square shows its mark');
  await play(white, 'e2', 'e4');
  await play(black, 'e7', 'e5');
  await play(white, 'd2', 'd4');
  await play(black, 'e5', 'd4');
  await play(white, 'd1', 'd4', { drag: true });
  check(await white.locator('[data-piece-cell="d4"][data-letter="M"].white').count() === 1, 'no white man on d4');
  await boardMatchesServer(white, id);
  await shot(white, 'square-says');
});

test('square-says-castling-choice', async (t) => {
  // The royal's own move to g1 and castling (e1h1, landing on g1) share a destination: the UI asks.
  const page = await newPlayer(t);
  const id = await createGame(page, { variant: 'square-says', opponent: 'friend', fen: 'mmmmkmmm/mmmmmmmm/8/8/8/8/MMMMMMMM/MMMMK2M w KQkq - 0 1' });
  await page.locator('[data-cell="e1"]').click();
  await page.locator('[data-cell="g1"]').click();
  await page.waitForSelector('.promotion-chooser .choice');
  check(await page.locator('.promotion-chooser .choice').count() === 2, 'not two choices for e1 to g1');
  await shot(page, 'square-says-castling-choice');
  await page.locator('.promotion-chooser [data-uci="e1h1"]').click();
  await waitPlies(page, 1);
  check(await page.locator('[data-piece-cell="g1"][data-letter="K"]').count() === 1, 'royal not on g1 after castling');
  check(await page.locator('[data-piece-cell="f1"][data-letter="M"]').count() === 1, 'corner man not on f1 after castling');
  const sans = await sanList(page);
  check(/O-O/.test(sans[0]), `castling written ${sans[0]}`);
  await boardMatchesServer(page, id);
});

test('megastar-opening', async (t) => {
  const white = await newPlayer(t);
  const id = await createGame(white, { variant: 'megastar', opponent: 'friend' });
  const black = await joinByInvite(t, white);
  const drum = await white.locator('.board-svg [data-cell][data-zone="drum"]').count();
  check(drum === 122, `${drum} Drum cells drawn, not 2 x 61`);
  check(await white.locator('.board-svg [data-cell]').count() === 182, 'not 182 cells');
  await play(white, 'Ui2', 'Ui4');
  await play(black, 'Ui8', 'Ui6');
  await play(white, 'Ug3', 'Li3');
  await play(black, 'Lh9', 'Ug6');
  await play(white, 'Lf4', 'Lh5');
  await boardMatchesServer(black, id);
  await black.locator('.mv[data-ply="2"]').click();
  check(await black.locator('[data-piece-cell="Ui6"][data-letter="P"]').count() === 1, 'replay: no black pawn on Ui6');
  check(await black.locator('[data-piece-cell="Ug3"][data-letter="N"]').count() === 1, 'replay: knight not back on Ug3');
  await black.locator('#nav-last').click();
  await shot(white, 'megastar');
});

test('megastar-promotion-eight-choices', async (t) => {
  const page = await newPlayer(t);
  const fen = 'K/2/3/4/5/6/7/8/7P1/10/11/12/13/13/12/11/10/9/8/7/6/5/4/3/2/k w - 0 1';
  const id = await createGame(page, { variant: 'megastar', opponent: 'friend', fen });
  await page.locator('[data-cell="Ui8"]').click();
  await page.locator('[data-cell="Ui9"]').click();
  await page.waitForSelector('.promotion-chooser');
  const choices = await page.locator('.promotion-chooser [data-promo]').evaluateAll((bs) => bs.map((b) => b.title));
  check(choices.length === 8, `${choices.length} promotion choices, not 8`);
  check(choices.includes('Sling') && choices.includes('Fortnight') && choices.includes('Cohen'), `choices: ${choices.join(', ')}`);
  await shot(page, 'megastar-promotion-chooser');
  await page.locator('.promotion-chooser [data-promo="l"]').click();
  await waitPlies(page, 1);
  check(await page.locator('[data-piece-cell="Ui9"][data-letter="L"].white').count() === 1, 'no white Sling on Ui9');
  await boardMatchesServer(page, id);
});

test('engine-game-and-analysis', async (t) => {
  const page = await newPlayer(t);
  const id = await createGame(page, { variant: 'chess', opponent: 'engine', color: 'white', skill: 5 });
  check(await page.locator('#invite').count() === 0, 'an invite is offered in an engine game');
  await play(page, 'e2', 'e4');
  await waitPlies(page, 2, 20000);
  const sans = await sanList(page);
  check(sans.length === 2, `after the engine's reply the list has ${sans.length} moves`);
  await boardMatchesServer(page, id);
  // Analysis: the search streams its lines; they deepen while the panel is on.
  await page.locator('#analysis-toggle').click();
  await page.waitForSelector('#lines .line', { timeout: 15000 });
  const depth = () => page.evaluate(() => Number((/depth (\d+)/.exec(document.querySelector('#analysis-meta').textContent) || [])[1] || 0));
  const d1 = await depth();
  await page.waitForFunction((d) => Number((/depth (\d+)/.exec(document.querySelector('#analysis-meta').textContent) || [])[1] || 0) > d, d1, { timeout: 15000 });
  const score = await page.locator('#lines .line .line-score').first().innerText();
  check(/^([+\u2212-]?\d+\.\d\d|#-?\d+)$/.test(score), `evaluation shown as "${score}"`);
  check(await page.locator('#eval-bar:not([hidden])').count() === 1, 'no evaluation bar beside the board');
  check(await page.locator('.arrows .arrow').count() >= 1, 'no best-move arrow');
  await page.locator('#analysis-toggle').click();
  check(await page.locator('#eval-bar[hidden]').count() === 1, 'the bar stays after the analysis stops');
  await shot(page, 'engine-game');
});

test('engine-plays-white-first', async (t) => {
  const page = await newPlayer(t);
  const id = await createGame(page, { variant: 'starvation', opponent: 'engine', color: 'black', skill: 0 });
  check((await page.locator('.player-bar.bottom').getAttribute('data-side')) === 'black', 'Black\'s board is not flipped');
  await waitPlies(page, 1, 20000);
  check(await page.locator('.board.interactive').count() === 1, 'board not playable after the engine moved');
  await play(page, 'b8', 'c6');
  await waitPlies(page, 3, 20000);
  await play(page, 'g8', 'f6');
  await waitPlies(page, 5, 20000);
  await boardMatchesServer(page, id);
  await shot(page, 'starvation-engine-first');
});

test('resign', async (t) => {
  const page = await newPlayer(t);
  await createGame(page, { variant: 'chess', opponent: 'engine', color: 'white', skill: 0 });
  await page.locator('#resign').click();
  check(await page.locator('#result:not([hidden])').count() === 0, 'resigned without confirmation');
  await page.locator('#resign').click();
  const r = await resultText(page);
  check(/0-1/.test(r) && /resign/i.test(r), `result shown as "${r}"`);
  check(await page.locator('.board.interactive').count() === 0, 'board still playable after resigning');
  await shot(page, 'resign');
});

test('draw-offer-accepted', async (t) => {
  const white = await newPlayer(t);
  await createGame(white, { variant: 'chess', opponent: 'friend' });
  const black = await joinByInvite(t, white);
  await play(white, 'e2', 'e4');
  await play(black, 'e7', 'e5');
  await white.locator('#offer-draw').click();
  await black.waitForSelector('#draw-box:not([hidden]) #accept-draw');
  await shot(black, 'draw-offer');
  await black.locator('#accept-draw').click();
  for (const p of [white, black]) {
    const r = await resultText(p);
    check(/1\/2-1\/2/.test(r) && /agreement/i.test(r), `result shown as "${r}"`);
  }
  await shot(white, 'draw-agreed');
});

test('draw-offer-declined', async (t) => {
  const white = await newPlayer(t);
  await createGame(white, { variant: 'chess', opponent: 'friend' });
  const black = await joinByInvite(t, white);
  await white.locator('#offer-draw').click();
  await black.waitForSelector('#draw-box:not([hidden]) #decline-draw');
  await black.locator('#decline-draw').click();
  await white.waitForFunction(() => document.querySelector('#draw-box').hidden && !document.querySelector('#offer-draw').disabled);
  check(await white.locator('#result:not([hidden])').count() === 0, 'the game ended on a declined offer');
});

test('time-forfeit', async (t) => {
  const white = await newPlayer(t);
  await createGame(white, { variant: 'chess', opponent: 'friend', clock: { min: 0.05, inc: 0 } });
  // White moves at once; Black (who never joins) runs out of time.
  await play(white, 'e2', 'e4').catch(() => {});
  const r = await resultText(white);
  check(/timeout|on time/i.test(r), `result shown as "${r}"`);
  check(await white.locator('.clock.flagged').count() === 1, 'no flag shown on the clock');
  const ms = await white.locator('.clock.flagged').getAttribute('data-ms');
  check(ms === '0', `flagged clock shows ${ms} ms`);
  await shot(white, 'time-forfeit');
});

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
  await watcher.goto(`${server.base}/#/game/${id}`);
  await watcher.waitForSelector('.board-svg [data-cell]');
  check(await watcher.locator('.board.interactive').count() === 0, 'a spectator can move');
  check(await watcher.locator('#resign').isHidden(), 'a spectator sees a resign button');
  await play(white, 'd2', 'd4');
  await waitPlies(watcher, 1);
  // An error from the API is shown: a bad FEN import.
  await white.goto(`${server.base}/#/`);
  await white.locator('.variant-tile[data-variant="chess"]').click();
  await white.locator('#import summary').click();
  await white.locator('#import-text').fill('this is not a position');
  await white.locator('#play').click();
  await white.waitForSelector('.notice.error');
  const msg = await white.locator('.notice.error').first().innerText();
  check(/import/i.test(msg), `error notice reads "${msg}"`);
  await shot(white, 'error-notice');
  // The recent games list opens a game.
  await white.goto(`${server.base}/#/`);
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
  await server.halt();
  await white.waitForSelector('#conn[data-state="reconnecting"]', { timeout: 8000 });
  server = await startServer(server);
  await white.waitForSelector('#conn[data-state="live"]', { timeout: 15000 });
  // A move made elsewhere (the friend, through the API) reaches the page by the event stream.
  await api('POST', `/api/games/${id}/moves`, { move: 'e7e5', token: invite });
  await waitPlies(white, 2, 8000);
  await boardMatchesServer(white, id);
  await shot(white, 'live-reconnect');
});

// Premoves: set while the opponent is to move, played the moment the reply arrives if legal,
// dropped if not, cancelled by a right-click; placements too.
test('premove', async (t) => {
  const white = await newPlayer(t);
  const id = await createGame(white, { variant: 'chess', opponent: 'friend' });
  const black = await joinByInvite(t, white);
  await play(white, 'e2', 'e4');
  await white.waitForSelector('.board.premovable');
  await white.locator('[data-cell="d2"]').click();
  await white.locator('[data-cell="d4"]').click();
  check(await white.locator('.hl.premove').count() === 2, 'the premove is not shown');
  await play(black, 'e7', 'e5');
  await waitPlies(white, 3, 10000);
  let g = await boardMatchesServer(white, id);
  check(g.moves[2].uci === 'd2d4', `the premove was not played: ${g.moves.map((m) => m.uci).join(' ')}`);
  check(await white.locator('.hl.premove').count() === 0, 'the premove is still shown after it was played');
  // Cancelled by a click elsewhere, or by a right-click: nothing is played after Black's reply.
  await white.locator('[data-cell="g1"]').click();
  await white.locator('[data-cell="f3"]').click();
  check(await white.locator('.hl.premove').count() === 2, 'the second premove is not shown');
  await white.locator('[data-cell="a6"]').click();
  check(await white.locator('.hl.premove').count() === 0, 'a click elsewhere does not cancel the premove');
  await white.locator('[data-cell="g1"]').click();
  await white.locator('[data-cell="f3"]').click();
  check(await white.locator('.hl.premove').count() === 2, 'the premove is not shown again');
  await white.locator('[data-cell="a6"]').click({ button: 'right' });
  check(await white.locator('.hl.premove').count() === 0, 'a right-click does not cancel the premove');
  await play(black, 'e5', 'd4');
  await white.waitForTimeout(600);
  check((await plies(white)) === 4, 'a cancelled premove was played');
  // A premove that the reply makes illegal is dropped: the queen's path to h5 gets blocked.
  await play(white, 'd1', 'd4');
  await white.locator('[data-cell="d4"]').click();
  await white.locator('[data-cell="a7"]').click();
  await play(black, 'c7', 'c5');
  await white.waitForSelector('.board.interactive');
  await white.waitForTimeout(400);
  check((await plies(white)) === 6 && await white.locator('.hl.premove').count() === 0, 'an illegal premove was not dropped');
  // Starchess: Black places a piece in advance while White is placing.
  const w2 = await newPlayer(t);
  await createGame(w2, { variant: 'starchess', opponent: 'friend' });
  const b2 = await joinByInvite(t, w2);
  await b2.waitForSelector('.board.premovable');
  await b2.locator('.hand-piece[data-side="black"][data-hand="K"]').click();
  await b2.locator('.board-svg [data-cell="21"]').click();
  check(await b2.locator('.hl.premove').count() === 1, 'the placement premove is not shown');
  await place(w2, 'white', 'K', '17');
  await waitPlies(b2, 2, 10000);
  check(await b2.locator('[data-piece-cell="21"][data-letter="K"]:not(.white)').count() === 1, 'the premoved placement was not played');
  await shot(b2, 'premove-starchess');
}, 90000);

// Sounds: <audio> elements play on a move, a capture, a check, the start and the end of a game,
// low time; muting silences them and is remembered.
test('sounds-and-mute', async (t) => {
  const white = await newPlayer(t);
  await white.addInitScript(() => {
    window.played = [];
    document.addEventListener('play', (e) => window.played.push(e.target.dataset.sound), true);
  });
  await createGame(white, { variant: 'chess', opponent: 'friend', fen: 'k7/8/8/3p4/4P3/8/8/4K2R w K - 0 1' });
  await white.reload();
  await white.waitForSelector('.board-svg [data-cell]');
  await white.waitForFunction(() => window.played.includes('start'));
  const black = await joinByInvite(t, white);
  const sounds = () => white.evaluate(() => window.played.slice());
  await play(white, 'e4', 'd5');
  await white.waitForFunction(() => window.played.includes('capture'));
  await play(black, 'a8', 'b7');
  await white.waitForFunction(() => window.played.includes('move'));
  await play(white, 'h1', 'h7');
  await white.waitForFunction(() => window.played.includes('check'));
  // Mute: nothing more, and it stays muted after a reload.
  await white.locator('#sound-toggle').click();
  check(await white.locator('#sound-toggle').getAttribute('aria-pressed') === 'true', 'the mute switch does not say it is on');
  const before = (await sounds()).length;
  await play(black, 'b7', 'a8');
  await white.waitForTimeout(400);
  check((await sounds()).length === before, `sounds while muted: ${(await sounds()).slice(before)}`);
  await white.reload();
  await white.waitForSelector('.board-svg [data-cell]');
  check(await white.locator('#sound-toggle').getAttribute('aria-pressed') === 'true', 'mute is not remembered');
  await white.locator('#sound-toggle').click();
  await white.locator('#resign').click();
  await white.locator('#resign').click();
  await white.waitForFunction(() => window.played.includes('end'));
  // Low time: a clock of 12 s passes 10 s.
  const p = await newPlayer(t);
  await p.addInitScript(() => {
    window.played = [];
    document.addEventListener('play', (e) => window.played.push(e.target.dataset.sound), true);
  });
  await createGame(p, { variant: 'chess', opponent: 'friend', clock: { min: 0.2, inc: 0.5 } });
  const terms = await p.locator('.game-sub').innerText();
  check(/12 s \+ 0\.5 s/.test(terms), `a clock of 0.2 min is shown as "${terms}"`);
  await p.waitForFunction(() => window.played.includes('lowtime'), null, { timeout: 8000 });
});

// The move box and the keyboard: typing a move plays it (and "Nf3" does not flip the board);
// the board is playable with arrow keys and Enter; moves are announced; icon buttons have names.
test('keyboard-move-entry', async (t) => {
  const white = await newPlayer(t);
  const id = await createGame(white, { variant: 'chess', opponent: 'friend' });
  const black = await joinByInvite(t, white);
  await white.locator('#move-input').fill('Nf3');
  await white.locator('#move-input').press('Enter');
  await waitPlies(white, 1);
  check((await white.locator('.player-bar.bottom').getAttribute('data-side')) === 'white', 'typing Nf3 flipped the board');
  await black.waitForFunction(() => /White: Nf3/.test(document.querySelector('#announcer').textContent));
  // Black plays e7-e5 from the keyboard alone: the cursor starts on a piece of Black's.
  await black.locator('.board').focus();
  const start = await black.evaluate(() => document.querySelector('.board').getAttribute('aria-label'));
  check(/black/.test(start), `the cursor starts on "${start}"`);
  const cursorCell = () => black.evaluate(() => document.querySelector('.board').getAttribute('aria-label').split(',')[0]);
  const walk = async (target) => {
    for (let i = 0; i < 20 && (await cursorCell()) !== target; i++) {
      const [c, r] = [(await cursorCell()).charCodeAt(0), Number((await cursorCell())[1])];
      const key = c < target.charCodeAt(0) ? 'ArrowLeft' : c > target.charCodeAt(0) ? 'ArrowRight' : r < Number(target[1]) ? 'ArrowDown' : 'ArrowUp';
      await black.keyboard.press(key); // Black's board is flipped: left is towards h, down towards 8
    }
    check((await cursorCell()) === target, `the cursor did not reach ${target}`);
  };
  await walk('e7');
  await black.keyboard.press('Enter');
  await black.waitForSelector('.board-svg [data-dest="e5"]', { state: 'attached' });
  await walk('e5');
  await black.keyboard.press('Enter');
  await waitPlies(black, 2);
  await boardMatchesServer(black, id);
  await white.waitForFunction(() => /Black: e5/.test(document.querySelector('#announcer').textContent));
  // 'f' still flips when not typing.
  await white.locator('body').click({ position: { x: 5, y: 400 } });
  await white.keyboard.press('f');
  check((await white.locator('.player-bar.bottom').getAttribute('data-side')) === 'black', 'f does not flip the board');
  // The move box takes every board's notation: a Starchess placement, a Megastar move.
  for (const [variant, typed, cell] of [['starchess', 'K@17', '17'], ['megastar', 'Ui2Ui4', 'Ui4']]) {
    const p = await newPlayer(t);
    await createGame(p, { variant, opponent: 'friend' });
    await p.locator('#move-input').fill(typed);
    await p.locator('#move-input').press('Enter');
    await waitPlies(p, 1);
    check(await p.locator(`[data-piece-cell="${cell}"].white`).count() === 1, `${typed} did not put a piece on ${cell}`);
  }
  const unnamed = await white.evaluate(() => [...document.querySelectorAll('button')].filter((b) => b.offsetParent && !(b.getAttribute('aria-label') || b.textContent.trim()) ).map((b) => b.outerHTML.slice(0, 80)));
  check(unnamed.length === 0, `buttons without a name: ${unnamed.join(' | ')}`);
});

// Themes: the system's light or dark, a switch that is remembered, board colour sets.
test('themes-and-board-colours', async (t) => {
  const page = await newPlayer(t, { colorScheme: 'dark' });
  await createGame(page, { variant: 'chess', opponent: 'friend' });
  check(await page.evaluate(() => document.documentElement.dataset.theme) === 'dark', 'the system\'s dark theme is not followed');
  const fill = () => page.evaluate(() => getComputedStyle(document.querySelector('[data-cell="a1"]')).fill);
  const wood = await fill();
  await page.locator('#settings-button').click();
  await page.locator('#settings .seg[data-value="light"]').click();
  check(await page.evaluate(() => document.documentElement.dataset.theme) === 'light', 'the light theme is not applied');
  await page.locator('#settings .seg[data-value="ocean"]').click();
  check((await fill()) !== wood, 'the board colours did not change');
  await page.reload();
  await page.waitForSelector('.board-svg [data-cell]');
  check(await page.evaluate(() => document.documentElement.dataset.theme) === 'light', 'the theme is not remembered');
  check(await page.evaluate(() => document.documentElement.dataset.board) === 'ocean', 'the board colours are not remembered');
  await shot(page, 'theme-light-ocean');
});

// Starchess's cell numbers sit in a corner clear of the pieces, and can be hidden.
test('starchess-cell-numbers', async (t) => {
  const page = await newPlayer(t);
  await createGame(page, { variant: 'starchess', opponent: 'friend', fen: '1/2/NP3pr/BP2pq/KP1pk/QP2pb/RP3pn/2/1[] w 0 1' });
  const clash = await page.evaluate(() => {
    const out = [];
    for (const p of document.querySelectorAll('[data-piece-cell]')) {
      const pr = p.getBoundingClientRect();
      for (const t of document.querySelectorAll('.cell-text')) {
        const tr = t.getBoundingClientRect();
        const cx = pr.left + pr.width / 2, cy = pr.top + pr.height / 2;
        if (cx > tr.left && cx < tr.right && cy > tr.top && cy < tr.bottom) out.push(t.textContent);
      }
    }
    return out;
  });
  check(clash.length === 0, `cell numbers under pieces: ${clash.join(' ')}`);
  check(await page.locator('.cell-text').first().isVisible(), 'no cell numbers');
  await page.locator('#toggle-cell-names').click();
  check(!(await page.locator('.cell-text').first().isVisible()), 'the cell numbers do not hide');
  await page.reload();
  await page.waitForSelector('.board-svg [data-cell]');
  check(!(await page.locator('.cell-text').first().isVisible()), 'hidden cell numbers are not remembered');
  await page.locator('#toggle-cell-names').click();
});

// Sets a checkbox of the settings menu (opened and closed again).
async function setCheckbox(page, id, on) {
  const panel = page.locator('#settings');
  if (await panel.isHidden()) await page.locator('#settings-button').click();
  await page.locator(`#${id}`).setChecked(on);
  await page.locator('#settings-button').click();
  await panel.waitFor({ state: 'hidden' });
}

// A rules page per game, reached from the lobby and the game page: a piece-move diagram from the
// server's move generation, and one of the documents' examples played through to its end.
const RULES_PAGES = [
  // variant, a piece and a cell of the diagram with its number of targets, an example and what it ends in
  ['starchess', 'N', '19', 12, 'mate-1', '1-0 checkmate'],
  ['starvation', 'N', 'e4', 8, 'king-1', '0-1 checkmate'],
  ['square-says', 'M', 'c3', 8, 'end-1', '0-1 stalemate'], // c3: a knight square,
  ['megastar', 'N', 'Ui5', 6, 'binding-1', 'ongoing'],
];
test('rules-pages', async (t) => {
  const page = await newPlayer(t);
  await page.goto(`${server.base}/#/`);
  await page.locator('.variant-tile[data-variant="starvation"]').click();
  await page.locator('#variant-learn .rules-link').click();
  await page.waitForSelector('.rules-page[data-variant="starvation"]');
  await createGame(page, { variant: 'megastar', opponent: 'friend' });
  await page.locator('.status-card .rules-link').click();
  await page.waitForSelector('.rules-page[data-variant="megastar"]');
  for (const [variant, piece, cell, targets, example, end] of RULES_PAGES) {
    await page.goto(`${server.base}/#/rules/${variant}`);
    await page.waitForSelector(`.rules-page[data-variant="${variant}"] .example .board-svg [data-cell]`);
    await page.locator(`.diagram-piece[data-piece="${piece}"]`).click();
    await page.locator(`#piece-diagram .board-svg [data-cell="${cell}"]`).click();
    await page.waitForSelector(`#piece-diagram .board-svg [data-piece-cell="${cell}"]`);
    await page.waitForFunction(([c, n]) => document.querySelector('#piece-diagram').dataset.targets === String(n)
      && document.querySelectorAll('#piece-diagram .mark-dot').length === n, [cell, targets], { timeout: 5000 })
      .catch(async () => { throw new Failure(`${variant}: ${piece} on ${cell} shows ${await page.locator('#piece-diagram .mark-dot').count()} targets, not ${targets}`); });
    const ex = page.locator(`.example[data-example="${example}"]`);
    const total = Number((await ex.locator('.example-ply').innerText()).split('/')[1]);
    for (let i = 1; i <= total; i++) {
      await ex.locator('.ex-next').click();
      await page.waitForFunction(([id, k]) => document.querySelector(`.example[data-example="${id}"]`).dataset.ply === String(k), [example, i]);
      check(/\S/.test(await ex.locator('.example-note').innerText()), `${variant}: no note for move ${i} of ${example}`);
    }
    await page.waitForFunction(([id, s]) => document.querySelector(`.example[data-example="${id}"]`).dataset.status === s, [example, end], { timeout: 5000 })
      .catch(async () => { throw new Failure(`${variant}: ${example} ends ${await ex.getAttribute('data-status')}, not ${end}`); });
    await shot(page, `rules-${variant}`);
  }
  // The reader's own move on an example's board leaves the record.
  await page.goto(`${server.base}/#/rules/starchess`);
  const limp = page.locator('.example[data-example="limping-1"]');
  await limp.locator('.board-svg [data-cell="1"]').waitFor();
  for (let i = 0; i < 4; i++) await limp.locator('.ex-next').click();
  await page.waitForFunction(() => document.querySelector('.example[data-example="limping-1"]').dataset.ply === '4');
  check(await limp.locator('[data-piece-cell="20"] .limp-mark').count() === 1, 'the pawn that captured onto 20 is not marked limping');
  await limp.locator('.board-svg [data-cell="23"]').click();
  await limp.locator('.board-svg [data-cell="24"]').click();
  await page.waitForFunction(() => document.querySelector('.example[data-example="limping-1"]').dataset.ply === '5');
  check(/your own move/.test(await limp.locator('.example-note').innerText()), 'a move of the reader is not told apart from the record');
}, 120000);

// Puzzles: the player's move is judged by the server, a right one answered with the best
// defence until mate (solved), a wrong one failed with the solution.
function puzzleFile(variant) {
  return fs.readFileSync(path.join(root, 'data/puzzles', `${variant}.epd`), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'))
    .map((l, i) => {
      const f = Object.fromEntries(l.split(';').slice(1).map((x) => [x.split(' ')[0], x.slice(x.indexOf(' ') + 1)]));
      return { number: i + 1, fen: l.split(';')[0], mate: Number(f.mate), keys: f.keys.split(' '), line: f.line.split(' ') };
    });
}
const uciCells = (uci) => (uci.includes('-') ? uci.split('-') : [uci.slice(0, 2), uci.slice(2, 4)]);

async function puzzleMove(page, uci) {
  const [from, to] = uciCells(uci);
  await page.waitForSelector('.puzzles-page[data-state="going-on"] .board.interactive');
  await page.locator(`.board-svg [data-cell="${from}"]`).click();
  await page.waitForSelector(`.board-svg [data-dest="${to}"]`, { state: 'attached' });
  await page.locator(`.board-svg [data-cell="${to}"]`).click();
  await page.waitForFunction(() => document.querySelector('.puzzles-page').dataset.state !== 'thinking');
}

test('puzzles-solve-and-fail', async (t) => {
  const page = await newPlayer(t);
  for (const variant of ['chess', 'starvation', 'square-says', 'starchess', 'megastar']) {
    const set = await api('GET', `/api/puzzles/${variant}`);
    check(set.puzzles.length >= 50, `${variant}: ${set.puzzles.length} puzzles, not 50`);
  }
  // Solved: a Starchess mate in 2, the second move found among the legal moves of the answer.
  const puzzle = puzzleFile('starchess').find((p) => p.mate === 2 && !p.line[0].includes('@'));
  await page.goto(`${server.base}/#/puzzles/starchess?n=${puzzle.number}`);
  await page.waitForSelector('.puzzles-page .board-svg [data-piece-cell]');
  check(/mate in 2/.test(await page.locator('#puzzle-task').innerText()), 'the task does not say mate in 2');
  await puzzleMove(page, puzzle.line[0]);
  check(await page.locator('.puzzles-page').getAttribute('data-state') === 'going-on', 'the key move was not accepted');
  check(/best defence/.test(await page.locator('#puzzle-state').innerText()), 'no defence was played');
  const moves = (await page.locator('.puzzles-page').getAttribute('data-moves')).split(' ');
  check(moves.length === 2 && moves[0] === puzzle.line[0], `moves after the defence: ${moves.join(' ')}`);
  let mate = null;
  const pos = await api('POST', '/api/position', { variant: 'starchess', fen: puzzle.fen, moves });
  for (const m of pos.legal) {
    const after = await api('POST', '/api/position', { variant: 'starchess', fen: pos.fen, moves: [m.uci] });
    if (after.reason === 'checkmate') { mate = m.uci; break; }
  }
  check(mate, `no mate in 1 after ${moves.join(' ')}`);
  await puzzleMove(page, mate);
  check(await page.locator('.puzzles-page').getAttribute('data-state') === 'solved', `not solved: ${await page.locator('#puzzle-state').innerText()}`);
  await shot(page, 'puzzle-solved');
  // Failed: a chess puzzle's first move that is no key.
  const chess = puzzleFile('chess').find((p) => p.mate === 1);
  await page.goto(`${server.base}/#/puzzles/chess?n=${chess.number}`);
  await page.waitForSelector('.puzzles-page .board-svg [data-piece-cell]');
  const start = await api('POST', '/api/position', { variant: 'chess', fen: chess.fen });
  const wrong = start.legal.find((m) => !chess.keys.includes(m.uci) && !m.promotion);
  await puzzleMove(page, wrong.uci);
  check(await page.locator('.puzzles-page').getAttribute('data-state') === 'failed', 'a wrong move did not fail the puzzle');
  check(/not checkmate/.test(await page.locator('#puzzle-state').innerText()), `failed without saying why: ${await page.locator('#puzzle-state').innerText()}`);
  await shot(page, 'puzzle-failed');
  await page.locator('#puzzle-retry').click();
  await puzzleMove(page, chess.keys[0]);
  check(await page.locator('.puzzles-page').getAttribute('data-state') === 'solved', 'the key did not solve the puzzle on a retry');
  await page.locator('#puzzle-next').click();
  await page.waitForFunction((n) => location.hash === `#/puzzles/chess?n=${n}`, chess.number + 1);
});

// The rules' hints on the board, each switchable in the settings: Starvation's destinations
// where the moved piece is removed drawn apart (the API says so per move), Starchess's limping
// pawn marked, with the rules' names in the piece tooltips.
test('hints-removal-and-limping', async (t) => {
  const page = await newPlayer(t);
  const id = await createGame(page, { variant: 'starvation', opponent: 'friend', fen: '4k3/8/8/8/8/8/P7/R3K1N1 w - - 0 1' });
  const g = await api('GET', `/api/games/${id}`);
  const dies = g.legal.filter((m) => m.removed).map((m) => m.uci).sort();
  check(dies.join(' ') === 'g1e2 g1f3 g1h3', `the moves that lose their piece: ${dies.join(' ')}`);
  await page.locator('.board-svg [data-cell="g1"]').click();
  await page.waitForSelector('.board-svg .dest.dies[data-dest="f3"]', { state: 'attached' });
  check(await page.locator('.board-svg .dest.dies').count() === 3, 'the knight\'s three deadly cells are not all marked');
  const red = () => page.locator('.board-svg .dest[data-dest="f3"]').evaluate((e) => getComputedStyle(e).fill);
  const fill = await red();
  await shot(page, 'hint-starvation-removal');
  await page.locator('.board-svg [data-cell="a1"]').click(); // the rook beside its pawn survives
  await page.waitForSelector('.board-svg .dest[data-dest="b1"]', { state: 'attached' });
  check(await page.locator('.board-svg .dest.dies').count() === 0, 'the rook\'s moves are marked as deadly');
  const safe = await page.locator('.board-svg .dest[data-dest="b1"]').evaluate((e) => getComputedStyle(e).fill);
  check(fill !== safe, `a deadly cell is drawn like a safe one (${fill})`);
  // Switched off, the deadly cells look like the others.
  await setCheckbox(page, 'setting-removal-hints', false);
  await page.locator('.board-svg [data-cell="g1"]').click();
  await page.waitForSelector('.board-svg .dest[data-dest="f3"]', { state: 'attached' });
  check(await red() === safe, 'the removal hint does not switch off');
  await setCheckbox(page, 'setting-removal-hints', true);

  const star = await newPlayer(t);
  await createGame(star, { variant: 'starchess', opponent: 'friend', fen: '1/2/NP~3pr/BP2pq/KP1pk/QP2pb/RP3pn/2/1[] w 0 1' });
  const limping = star.locator('[data-piece-cell="5"] .limp-mark');
  check(await limping.count() === 1 && await limping.isVisible(), 'the limping pawn on 5 is not marked');
  check(await star.locator('.limp-mark').count() === 1, 'other pawns marked limping');
  const tip = await star.locator('[data-piece-cell="5"] > title').textContent();
  check(/limping pawn/.test(tip), `the limping pawn's tooltip says ${tip}`);
  await shot(star, 'hint-starchess-limping');
  await setCheckbox(star, 'setting-limp-marks', false);
  check(!(await limping.isVisible()), 'the limping mark does not switch off');
  await setCheckbox(star, 'setting-limp-marks', true);
});

// Game records in figurines, as the Starchess documents write them: a setting of the move list.
test('figurines-in-the-move-list', async (t) => {
  const page = await newPlayer(t);
  await createGame(page, { variant: 'chess', opponent: 'friend', pgn: '1. e4 e5 2. Nf3 Nc6 3. Bb5 *' });
  await waitPlies(page, 5);
  check((await sanList(page)).join(' ') === 'e4 e5 Nf3 Nc6 Bb5', `moves ${(await sanList(page)).join(' ')}`);
  await setCheckbox(page, 'setting-figurines', true);
  const list = await sanList(page);
  check(list.join(' ') === 'e4 e5 \u2658f3 \u2658c6 \u2657b5', `with figurines: ${list.join(' ')}`);
  await setCheckbox(page, 'setting-figurines', false);
  check((await sanList(page))[2] === 'Nf3', 'figurines do not switch off');
});

// Megastar: a piece legend with every kind's moves, the levels side by side on a desktop and one
// above the other on a phone, the whole board on the screen, no sideways scrolling.
test('megastar-legend-and-layouts', async (t) => {
  const desk = await newPlayer(t);
  await createGame(desk, { variant: 'megastar', opponent: 'friend' });
  check(await desk.locator('.legend-item').count() === 10, 'the legend does not list ten pieces');
  check(await desk.locator('.legend-item[data-letter="L"] .legend-moves').innerText().then((x) => /diagonal/.test(x)), 'the Sling has no move summary');
  const box = (page, cell) => page.locator(`[data-cell="${cell}"]`).boundingBox();
  const [u, l] = [await box(desk, 'Ui5'), await box(desk, 'Li5')];
  check(u.x + u.width < l.x && Math.abs(u.y - l.y) < 2, 'the levels are not side by side on a desktop');
  const board = await desk.locator('.board-svg').boundingBox();
  const column = await desk.locator('.play-area').boundingBox();
  check(board.width > column.width * 0.9, `the board (${board.width} px) does not fill its column (${column.width} px)`);
  const phone = await newPlayer(t, { viewport: PHONE });
  await createGame(phone, { variant: 'megastar', opponent: 'friend' });
  const [pu, pl] = [await box(phone, 'Ui5'), await box(phone, 'Li5')];
  check(pl.y > pu.y + pu.height, 'the levels are not one above the other on a phone');
  const all = await phone.locator('.board-svg').boundingBox();
  check(all.y >= 0 && all.y + all.height <= PHONE.height && all.x >= 0 && all.x + all.width <= PHONE.width, `the board is not all on the screen: ${JSON.stringify(all)}`);
  const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= PHONE.width, `the page is ${wide} px wide on a ${PHONE.width} px screen`);
  check(pu.width >= 20, `cells are ${pu.width} px wide`);
  // The levels, nested closely on the phone, each inside an outline of its own.
  const strays = await phone.evaluate(() => {
    const outlines = [...document.querySelectorAll('.level-outline')];
    return [...document.querySelectorAll('.board-svg [data-cell]')].filter((c) => {
      const b = c.getBBox();
      const centre = new DOMPoint(b.x + b.width / 2, b.y + b.height / 2);
      const inside = outlines.filter((o) => o.isPointInFill(centre)).map((o) => o.dataset.level);
      return inside.length !== 1 || inside[0] !== (c.dataset.cell[0] === 'U' ? '0' : '1');
    }).map((c) => c.dataset.cell);
  });
  check(strays.length === 0, `cells outside their level's outline: ${strays.slice(0, 5).join(' ')}`);
  await phone.locator('[data-cell="Ui2"]').tap();
  await phone.locator('[data-cell="Ui4"]').tap();
  await waitPlies(phone, 1);
});

// The phone: players and clocks right above and below the board, the buttons in one row
// under it, the moves as a strip, nothing wider than the screen.
test('phone-layout', async (t) => {
  const page = await newPlayer(t, { viewport: PHONE });
  await createGame(page, { variant: 'chess', opponent: 'engine', skill: 0, clock: { min: 5, inc: 0 } });
  await play(page, 'e2', 'e4');
  await waitPlies(page, 2, 20000);
  await play(page, 'a2', 'a3');
  await waitPlies(page, 4, 20000);
  const [top, board, bottom, bar, moves] = await Promise.all(['.player-bar.top', '.board-svg', '.player-bar.bottom', '#action-bar', '.moves-card']
    .map((sel) => page.locator(sel).boundingBox()));
  check(board.y - (top.y + top.height) < 12 && bottom.y - (board.y + board.height) < 40, 'the player bars are not right above and below the board');
  check(bar.y > bottom.y && bar.y - (bottom.y + bottom.height) < 20 && bar.height < 60, 'the buttons are not in one row under the board');
  const off = await page.evaluate(() => [...document.querySelectorAll('#action-bar button')]
    .filter((b) => b.offsetParent && b.getBoundingClientRect().right > innerWidth).map((b) => b.textContent));
  check(off.length === 0, `buttons beyond the screen's edge: ${off.join(', ')}`);
  check(moves.y < PHONE.height && moves.height < 90, `the move list starts at ${moves.y} px, ${moves.height} px tall`);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= PHONE.width, `the page is ${wide} px wide`);
  const row = await page.locator('.mv[data-ply="3"]').boundingBox();
  const first = await page.locator('.mv[data-ply="1"]').boundingBox();
  check(Math.abs(row.y - first.y) < 4 && row.x > first.x, 'the moves are not in a strip');
  await shot(page, 'phone-chess-engine');
});

// The end of a game: the dialog with the result, and a rematch against the engine at once with
// the colours swapped.
test('game-over-rematch-engine', async (t) => {
  const page = await newPlayer(t);
  const id = await createGame(page, { variant: 'chess', opponent: 'engine', color: 'white', skill: 0 });
  await page.locator('#resign').click();
  await page.locator('#resign').click();
  await page.waitForSelector('#game-over[open]');
  check(/resign/i.test(await page.locator('#game-over-reason').innerText()), 'the dialog does not give the reason');
  await shot(page, 'game-over-dialog');
  await page.locator('#rematch').click();
  await page.waitForFunction((old) => document.querySelector('.game-view') && document.querySelector('.game-view').dataset.game !== old, id);
  check((await page.locator('.player-bar.bottom').getAttribute('data-side')) === 'black', 'the rematch does not swap the colours');
  await waitPlies(page, 1, 20000); // the engine, now White, opens
});

// Analysis mode on a finished game: MultiPV lines streaming, a line clicked shows its moves on
// the board, the player's own moves from an earlier position become a variation, the
// evaluation graph under the move list goes to a move when clicked.
test('analysis-mode', async (t) => {
  const page = await newPlayer(t);
  const pgn = '[Variant "chess"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n';
  const id = await createGame(page, { variant: 'chess', opponent: 'friend', pgn });
  await page.locator('#resign').click();
  await page.locator('#resign').click();
  await page.waitForSelector('#game-over[open]');
  await page.locator('#analyse-game').click();
  await page.waitForFunction(() => document.querySelectorAll('#lines .line').length >= 2, null, { timeout: 15000 });
  const first = await page.locator('#lines .line .line-moves').first().innerText();
  await page.waitForFunction((t0) => document.querySelector('#lines .line .line-moves').textContent !== t0 ||
    Number((/depth (\d+)/.exec(document.querySelector('#analysis-meta').textContent) || [])[1]) > 6, first, { timeout: 15000 });
  // A line clicked: its moves are shown on the board as a variation.
  await page.locator('#lines .line').first().click();
  await page.waitForSelector('#variation:not([hidden]) .var-mv');
  const varMoves = await page.locator('#variation .var-mv').count();
  check(varMoves >= 1, 'the line is not shown as a variation');
  await page.locator('#variation .var-mv').first().click();
  check(await page.locator('.board.history').count() === 1, 'the variation does not show on the board');
  await page.locator('#leave-variation').click();
  // From the position after 1. e4 e5, White's own move 2. d4 is explored, not played.
  await page.locator('.mv[data-ply="2"]').click();
  await page.waitForSelector('.board.interactive');
  await page.locator('[data-cell="d2"]').click();
  await page.locator('[data-cell="d4"]').click();
  await page.waitForSelector('#variation .var-mv.current');
  check(/d4/.test(await page.locator('#variation .var-mv.current').innerText()), 'the explored move is not in the variation');
  check(await page.locator('[data-piece-cell="d4"][data-letter="P"]').count() === 1, 'the explored move is not on the board');
  const g = await api('GET', `/api/games/${id}`);
  check(g.moves.length === 6, 'exploring changed the game');
  // The evaluation graph: one point per position, a click goes to a move.
  await page.waitForFunction(() => Number(document.querySelector('#eval-graph').dataset.points) === 7, null, { timeout: 20000 });
  const box = await page.locator('#eval-graph').boundingBox();
  await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2);
  await page.waitForFunction(() => document.querySelector('.mv.current') && document.querySelector('.mv.current').dataset.ply === '3');
  // The "earlier position" note is shown, under the board, not over its top row.
  const note = await page.locator('#history-note').boundingBox();
  const cells = await page.locator('.board-svg').boundingBox();
  check(note && note.y >= cells.y + cells.height - 2, `the earlier-position note (${JSON.stringify(note)}) covers the board`);
  await shot(page, 'analysis-mode');
});

// The analysis board for any position text (#/analysis), in every geometry.
test('analysis-board', async (t) => {
  const page = await newPlayer(t);
  const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
  await page.goto(`${server.base}/#/analysis?variant=chess&fen=${encodeURIComponent(fen)}`);
  await page.waitForSelector('#lines .line', { timeout: 15000 });
  check(await page.locator('[data-piece-cell="c6"][data-letter="N"]').count() === 1, 'the position is not on the board');
  await page.locator('[data-cell="f1"]').click();
  await page.locator('[data-cell="b5"]').click();
  await page.waitForSelector('#variation .var-mv');
  check(await page.locator('[data-piece-cell="b5"][data-letter="B"]').count() === 1, 'the move is not on the board');
  await page.waitForFunction(() => /Black/.test(document.querySelector('#status').textContent));
  await page.locator('#analysis-variant').selectOption('megastar');
  await page.locator('#analysis-load').click();
  await page.waitForSelector('[data-cell="Ui5"]');
  await page.waitForSelector('#lines .line', { timeout: 20000 });
  await shot(page, 'analysis-board-megastar');
});

// With the server's analyses all taken (two streams held open from here), the analysis board
// says it waits and asks again; once a place is free its lines come.
test('analysis-waits-for-a-place', async (t) => {
  // The searches of the tests before (their pages closed) end first.
  for (let i = 0; i < 100 && (await api('GET', '/api/health')).analysis_streams > 0; i++) await sleep(100);
  const holders = [];
  for (const variant of ['megastar', 'starchess']) {
    const ctl = new AbortController();
    const r = await fetch(`${server.base}/api/analysis/stream?variant=${variant}`, { signal: ctl.signal });
    check(r.status === 200, `holding stream ${variant}: ${r.status}`);
    holders.push(ctl);
  }
  try {
    const page = await newPlayer(t);
    await page.goto(`${server.base}/#/analysis?variant=chess`);
    await page.waitForFunction(() => /busy/.test(document.querySelector('#analysis-meta')?.textContent || ''), null, { timeout: 15000 });
    check(await page.locator('#lines .line').count() === 0, 'lines shown while the server had no place');
    for (const ctl of holders) ctl.abort();
    await page.waitForSelector('#lines .line', { timeout: 20000 });
  } finally {
    for (const ctl of holders) ctl.abort();
  }
});

// Takebacks: asked by one friend, accepted by the other; the engine takes back at once in a
// game without a clock.
test('takeback', async (t) => {
  const white = await newPlayer(t);
  const id = await createGame(white, { variant: 'chess', opponent: 'friend' });
  const black = await joinByInvite(t, white);
  await play(white, 'e2', 'e4');
  await play(black, 'e7', 'e5');
  await play(white, 'g1', 'f3');
  await white.locator('#takeback').click();
  await black.waitForSelector('#takeback-box:not([hidden]) #accept-takeback');
  await shot(black, 'takeback-offer');
  await black.locator('#accept-takeback').click();
  for (const p of [white, black]) await p.waitForFunction(() => document.querySelectorAll('.mv[data-ply]').length === 2);
  const g = await boardMatchesServer(white, id);
  check(g.moves.length === 2 && g.side === 'white', `after the takeback: ${g.moves.map((m) => m.uci)}`);
  await play(white, 'd2', 'd4');
  // Against the engine, without a clock: at once.
  const p = await newPlayer(t);
  const eid = await createGame(p, { variant: 'chess', opponent: 'engine', skill: 0 });
  await play(p, 'e2', 'e4');
  await waitPlies(p, 2, 20000);
  await p.locator('#takeback').click();
  await p.waitForFunction(() => document.querySelectorAll('.mv[data-ply]').length === 0);
  await boardMatchesServer(p, eid);
  check(await p.locator('.board.interactive').count() === 1, 'the board is not playable after the takeback');
});

// A rematch between friends: offered from the end-of-game dialog, accepted by the other; both
// go to the new game, colours swapped.
test('rematch-friend', async (t) => {
  const white = await newPlayer(t);
  const id = await createGame(white, { variant: 'chess', opponent: 'friend' });
  const black = await joinByInvite(t, white);
  await play(white, 'f2', 'f3');
  await play(black, 'e7', 'e5');
  await play(white, 'g2', 'g4');
  await play(black, 'd8', 'h4');
  await white.waitForSelector('#game-over[open] #rematch');
  await white.locator('#rematch').click();
  await black.waitForSelector('#rematch-box:not([hidden]) #accept-rematch');
  await black.locator('#accept-rematch').click();
  for (const p of [white, black]) await p.waitForFunction((old) => document.querySelector('.game-view') && document.querySelector('.game-view').dataset.game !== old, id);
  const newId = await white.locator('.game-view').getAttribute('data-game');
  check(newId === await black.locator('.game-view').getAttribute('data-game'), 'the players went to different games');
  check((await white.locator('.player-bar.bottom').getAttribute('data-side')) === 'black', 'the old White does not play Black');
  check((await black.locator('.player-bar.bottom').getAttribute('data-side')) === 'white', 'the old Black does not play White');
  await play(black, 'e2', 'e4');
  await play(white, 'e7', 'e5');
  await boardMatchesServer(white, newId);
});

// Every board at desktop and phone size, light and dark, for review (tests/artifacts/).
test('board-screenshots', async (t) => {
  const page = await newPlayer(t);
  for (const variant of ['chess', 'square-says', 'starchess', 'megastar']) {
    await page.setViewportSize(VIEWPORT);
    await createGame(page, { variant, opponent: 'friend' });
    for (const [size, viewport] of [['desktop', VIEWPORT], ['phone', PHONE]]) {
      await page.setViewportSize(viewport);
      for (const colorScheme of ['light', 'dark']) {
        await page.emulateMedia({ colorScheme });
        await page.waitForFunction((dark) => document.documentElement.dataset.theme === dark, colorScheme);
        await page.waitForTimeout(250); // the board picks its layout for the new size
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        check(wide <= viewport.width, `${variant} ${size} ${colorScheme}: the page is ${wide} px wide`);
        await page.screenshot({ path: path.join(ARTIFACTS, `board-${variant}-${size}-${colorScheme}.png`) });
      }
    }
  }
}, 90000);

// ---------------------------------------------------------------- runner

async function main() {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  if (!FILTER) for (const f of fs.readdirSync(ARTIFACTS)) if (f.endsWith('.png')) fs.rmSync(path.join(ARTIFACTS, f));
  server = await startServer();
  // Debian's Chromium, no downloaded browser.  Playwright gives it a fresh --user-data-dir of
  // its own (a new temporary profile, removed on close): it refuses one passed in `args`.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'],
  });
  let passed = 0;
  let failed = 0;
  const started = Date.now();
  for (const { name, fn, timeout } of tests) {
    if (FILTER && !name.includes(FILTER)) continue;
    const t = { contexts: [], errors: [] };
    let error = null;
    let timer;
    try {
      await Promise.race([
        fn(t),
        new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`timed out after ${timeout / 1000} s`)), timeout); }),
      ]);
      if (t.errors.length) error = t.errors[0];
    } catch (e) {
      error = (e && e.message ? e.message : String(e)).split('\n')[0];
      if (process.env.BROWSER_DEBUG) console.error(e);
      const pages = t.contexts.flatMap((c) => c.pages());
      if (pages[0]) await pages[0].screenshot({ path: path.join(ARTIFACTS, `${name}-failed.png`) }).catch(() => {});
    }
    clearTimeout(timer);
    for (const c of t.contexts) await c.close().catch(() => {});
    if (error) {
      failed++;
      console.log(`FAIL ${name}: ${error}`);
    } else {
      passed++;
      console.log(`PASS ${name}`);
    }
  }
  await browser.close();
  await server.stop();
  console.log(`browser tests: ${((Date.now() - started) / 1000).toFixed(1)} s, screenshots in ${path.relative(process.cwd(), ARTIFACTS) || ARTIFACTS}`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

main().then((code) => process.exit(code), async (e) => {
  console.log(`FAIL setup: ${e.message}`);
  if (browser) await browser.close().catch(() => {});
  if (server) await server.stop().catch(() => {});
  console.log('0 passed, 1 failed');
  process.exit(1);
});
