// How the pages look: themes, board colours, cell names, the rules' hints, figurines, layouts
// on a desktop and on a phone, screenshots of every board.

import path from 'node:path';
import { test, check, newPlayer, api, createGame, waitPlies, play, sanList, shot, VIEWPORT, PHONE, ARTIFACTS } from '../harness.mjs';

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
