// Screenshots of the meeting pages at desktop and phone size (tests/artifacts/meet-*.png): the
// lobby with seeks and the bots, a challenge's notification and the challenge form, the home
// page's games in progress, a correspondence game's clocks.  No sideways scrolling on a phone.

import path from 'node:path';
import { env, test, check, accountClient, playerAs, VIEWPORT, PHONE, ARTIFACTS } from '../harness.mjs';
import { base, onGame, eventsLive, openLobby, corrGame } from './meet.mjs';

// A real-time seek of an account, held open as a browser would (its request streams while it
// waits): answers the controller that ends it.
function holdSeek(client, body) {
  const controller = new AbortController();
  fetch(`${env.server.base}/api/board/seek`, {
    method: 'POST', signal: controller.signal,
    headers: { origin: env.server.base, cookie: client.cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.text()).catch(() => {});
  return controller;
}

async function snap(page, name, { element = null, full = true } = {}) {
  await page.evaluate(() => {
    window.scrollTo(0, 0);
    document.querySelectorAll('.notice').forEach((n) => n.remove()); // an earlier step's
  });
  await page.waitForTimeout(200);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  const width = page.viewportSize().width;
  check(wide <= width, `${name}: the page is ${wide} px wide on a ${width} px screen`);
  const file = path.join(ARTIFACTS, `${name}.png`);
  if (element) await page.locator(element).screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: full });
}

const SIZES = [['desktop', VIEWPORT], ['phone', PHONE]];

test('meet-screenshots', async (t) => {
  // Seekers: two correspondence seeks (they wait without a request) and two real-time ones.
  const [pat, quinn, ray] = [await accountClient('pat'), await accountClient('quinn'), await accountClient('ray')];
  await pat('POST', '/api/board/seek', { variant: 'standard', days: 3, rated: true });
  await quinn('POST', '/api/board/seek', { variant: 'megastar', days: 7, rated: false, color: 'white' });
  const held = [holdSeek(ray, { variant: 'starchess', time: 5, increment: 3, rated: true, ratingRange: '1300-1700' }),
    holdSeek(quinn, { variant: 'standard', time: 3, increment: 2, rated: false, color: 'black' })];
  // sam's games (made before the page opens: announced, not gone to).
  const { page, client: sam } = await playerAs(t, 'sam');
  const mine = await corrGame(sam, pat, 'pat');
  await corrGame(ray, sam, 'sam', 1, 'starchess');
  const live = await pat('POST', '/api/challenge/sam', { clock: { limit: 600, increment: 5 }, color: 'black', variant: 'square-says' });
  await sam('POST', `/api/challenge/${live.id}/accept`);
  try {
    for (const [size, viewport] of SIZES) {
      await page.setViewportSize(viewport);
      await openLobby(page);
      await page.waitForFunction(() => document.querySelectorAll('.seek-row').length === 4, null, { timeout: 10000 });
      await page.waitForSelector('.bot-row');
      await snap(page, `meet-lobby-${size}`);
      await snap(page, `meet-bots-${size}`, { element: '#play-bot' });
      // The challenge form, to a bot.
      await page.locator('.bot-row[data-bot="starfish-level-2"] .challenge-bot').click();
      await page.waitForSelector('#challenge-dialog');
      await snap(page, `meet-challenge-form-${size}`, { full: false });
      await page.locator('#challenge-close').click();
      // The home page's games: sam's turn in two, waiting in one.
      await page.goto(`${base()}/#/`);
      await page.waitForSelector(`#your-turn .playing-game[data-id="${mine}"]`);
      await page.waitForSelector('#their-turn .playing-game');
      await snap(page, `meet-your-turn-${size}`);
      // A challenge arrives: the header's notification.
      await eventsLive(page);
      const c = await ray('POST', '/api/challenge/sam', { clock: { limit: 300, increment: 3 }, variant: 'starchess', rated: true });
      await page.waitForSelector(`#challenge-panel:not([hidden]) .challenge-item[data-id="${c.id}"]`, { timeout: 10000 });
      await snap(page, `meet-challenge-${size}`, { full: false });
      await ray('POST', `/api/challenge/${c.id}/cancel`);
      // A correspondence game's clocks, in days and hours.
      await page.goto(`${base()}/#/game/${mine}`);
      await onGame(page, mine);
      check(/^\d+d \d+h$/.test(await page.locator('.player-bar.bottom .clock-time').innerText()), 'the correspondence clock is not in days');
      await snap(page, `meet-correspondence-${size}`, { full: false });
    }
  } finally {
    for (const h of held) h.abort();
  }
}, 90000);
