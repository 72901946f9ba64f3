// The browser tests' harness: the server under test (`starfish serve` on a free port with a
// fresh database), the browser (Debian's Chromium), the list of tests that the suites fill
// (suites/*.mjs, run by run.mjs), and the helpers they share: checks, players in browser
// contexts of their own, the API, creating and joining games, moves, screenshots.

import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
const BIN = path.resolve(here, process.env.STARFISH_BIN || '../../starfish');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const ARTIFACTS = path.resolve(root, 'tests/artifacts');
export const VIEWPORT = { width: 1360, height: 900 };
export const PHONE = { width: 390, height: 844 };
const TEST_TIMEOUT = 45000;

// The server and the browser of the run (a test may restart the server: env.server changes).
export const env = { server: null, browser: null };

// The tests, in the order the suites register them.
export const tests = [];
export const test = (name, fn, timeout = TEST_TIMEOUT) => tests.push({ name, fn, timeout });

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

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Starts `starfish serve`; `again` restarts a stopped server on its port and database.
export async function startServer(again = null) {
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

// Debian's Chromium, no downloaded browser.  Playwright gives it a fresh --user-data-dir of
// its own (a new temporary profile, removed on close): it refuses one passed in `args`.
export function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'],
  });
}

// ---------------------------------------------------------------- helpers

export class Failure extends Error {}
export function check(cond, msg) {
  if (!cond) throw new Failure(msg);
}

export async function newPlayer(t, { viewport = VIEWPORT, colorScheme = 'light' } = {}) {
  const context = await env.browser.newContext({ viewport, colorScheme, acceptDownloads: true, hasTouch: viewport === PHONE });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.base }).catch(() => {});
  t.contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(30000); // generous: the engine may think while the machine is busy
  // What the page said and asked, for the failure's log (run.mjs writes it).
  const index = t.contexts.length - 1;
  const note = (text) => t.log.push(`${new Date().toISOString().slice(11, 23)} page ${index}: ${text}`);
  page.on('pageerror', (e) => { t.errors.push(`page error: ${e.message}`); note(`page error: ${e.message}`); });
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) t.errors.push(`console error: ${m.text()}`);
    note(`console ${m.type()}: ${m.text()}`);
  });
  page.on('framenavigated', (f) => { if (f === page.mainFrame()) note(`at ${f.url()}`); });
  page.on('response', (r) => { if (r.request().resourceType() === 'fetch') note(`${r.request().method()} ${r.url()} ${r.status()}`); });
  page.on('requestfailed', (r) => note(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText}`));
  return page;
}

export async function api(method, p, body) {
  const r = await fetch(env.server.base + p, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${p}: ${r.status} ${text}`);
  return text && r.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
}

// Fills the home page's form and starts a game; returns the game id.
export async function createGame(page, { variant = 'chess', opponent = 'friend', color = 'white', skill, clock, fen, pgn, rated = false } = {}) {
  await page.goto(`${env.server.base}/#/`);
  await page.locator(`.variant-tile[data-variant="${variant}"]`).click();
  await page.locator(`.seg[data-value="${opponent}"]`).first().click();
  await page.locator(`.seg[data-value="${color}"]`).first().click();
  if (rated) await page.locator('#rated').check();
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

export async function joinByInvite(t, page) {
  const link = await page.locator('#invite-link').inputValue();
  check(/#\/game\/[^?]+\?t=/.test(link), `invite link looks wrong: ${link}`);
  const friend = await newPlayer(t);
  await friend.goto(link);
  await friend.waitForSelector('.game-view .board-svg [data-cell]');
  return friend;
}

export const plies = (page) => page.locator('.mv[data-ply]').count();
export async function waitPlies(page, n, timeout = 30000) {
  await page.waitForFunction((k) => document.querySelectorAll('.mv[data-ply]').length >= k, n, { timeout });
}

// Plays FROM -> TO by clicking (or dragging) on the board; waits until the move is listed.
export async function play(page, from, to, { drag = false, promo = null } = {}) {
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
export async function place(page, side, letter, cell, { drag = false } = {}) {
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

export async function resultText(page) {
  await page.waitForSelector('#result:not([hidden])');
  return page.locator('#result').innerText();
}

export const sanList = (page) => page.locator('.mv[data-ply]').allInnerTexts();

export async function shot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

// The board drawn in the page, as FEN board text, compared with the server's FEN.
export async function boardMatchesServer(page, id) {
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

// ---------------------------------------------------------------- accounts

export const passwordOf = (username) => `${username}-secret`;

// Signs up through the sign-up page; waits until the header names the account.
export async function signUp(page, username) {
  await page.goto(`${env.server.base}/#/signup`);
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(passwordOf(username));
  await page.locator('#auth-submit').click();
  await headerNames(page, username);
}

export async function headerNames(page, username) {
  await page.waitForFunction((name) => {
    const a = document.querySelector('#account-name');
    return a && !a.hidden && a.textContent === name;
  }, username, { timeout: 10000 }).catch(() => { throw new Failure(`the header does not name ${username}`); });
}

// An account's client for the test itself (setting up data): signs up, keeps the session
// cookie and sends the Origin header a browser would; returns api()'s like, as that account.
export async function accountClient(username) {
  const base = env.server.base;
  const send = (method, p, body, cookie = '') => fetch(base + p, {
    method,
    headers: { origin: base, cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const r = await send('POST', '/api/auth/signup', { username, password: passwordOf(username) });
  check(r.status === 201, `signing ${username} up: ${r.status} ${await r.text()}`);
  const cookie = r.headers.get('set-cookie').split(';')[0];
  const client = async (method, p, body) => {
    const res = await send(method, p, body, cookie);
    const text = await res.text();
    if (!res.ok) throw new Error(`${username}: ${method} ${p}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  client.cookie = cookie;
  return client;
}

// A player whose browser is logged in as a new account (signed up through the API, its session
// cookie given to the browser context): { page, client } (client: accountClient's).
export async function playerAs(t, username, options = {}) {
  const client = await accountClient(username);
  const page = await newPlayer(t, options);
  const [name, value] = client.cookie.split('=');
  await page.context().addCookies([{ name, value, url: env.server.base }]);
  return { page, client };
}

// A statement on the test server's SQLite store (the sqlite3 program, Debian's package), to
// set up what the UI cannot make quickly (days gone by, settled ratings).
export function sqlite(sql) {
  return execFileSync('sqlite3', ['-cmd', '.timeout 5000', path.join(env.server.tmp, 'test.db'), sql], { encoding: 'utf8' });
}
