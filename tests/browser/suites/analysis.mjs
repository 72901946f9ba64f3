// Analysis: the streamed engine lines, variations, the evaluation graph, the analysis board.

import { env, test, check, sleep, newPlayer, api, createGame, shot } from '../harness.mjs';

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
  // Clicked through the locator: the point is taken when the graph stands still, not before
  // the panels around it have settled (the streamed lines move what is under a fixed point).
  const box = await page.locator('#eval-graph').boundingBox();
  await page.locator('#eval-graph').click({ position: { x: box.width * 0.5, y: box.height / 2 } });
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
  await page.goto(`${env.server.base}/#/analysis?variant=chess&fen=${encodeURIComponent(fen)}`);
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
    const r = await fetch(`${env.server.base}/api/analysis/stream?variant=${variant}`, { signal: ctl.signal });
    check(r.status === 200, `holding stream ${variant}: ${r.status}`);
    // Read on: Node's fetch cancels the body of a Response the garbage collector takes, and
    // the server would then give the place back before the page asks.
    const reader = r.body.getReader();
    const drained = (async () => { try { while (!(await reader.read()).done); } catch { /* aborted */ } })();
    holders.push({ ctl, drained });
  }
  try {
    const page = await newPlayer(t);
    await page.goto(`${env.server.base}/#/analysis?variant=chess`);
    await page.waitForFunction(() => /busy/.test(document.querySelector('#analysis-meta')?.textContent || ''), null, { timeout: 15000 });
    check(await page.locator('#lines .line').count() === 0, 'lines shown while the server had no place');
    for (const h of holders) h.ctl.abort();
    await page.waitForSelector('#lines .line', { timeout: 20000 });
  } finally {
    for (const h of holders) h.ctl.abort();
    await Promise.all(holders.map((h) => h.drained));
  }
});
