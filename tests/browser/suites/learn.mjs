// Learning the games: the rules pages with their diagrams and examples, the puzzles.

import fs from 'node:fs';
import path from 'node:path';
import { env, test, check, Failure, newPlayer, api, createGame, shot, root } from '../harness.mjs';

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
  await page.goto(`${env.server.base}/#/`);
  await page.locator('.variant-tile[data-variant="starvation"]').click();
  await page.locator('#variant-learn .rules-link').click();
  await page.waitForSelector('.rules-page[data-variant="starvation"]');
  await createGame(page, { variant: 'megastar', opponent: 'friend' });
  await page.locator('.status-card .rules-link').click();
  await page.waitForSelector('.rules-page[data-variant="megastar"]');
  for (const [variant, piece, cell, targets, example, end] of RULES_PAGES) {
    await page.goto(`${env.server.base}/#/rules/${variant}`);
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
  await page.goto(`${env.server.base}/#/rules/starchess`);
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
  await page.goto(`${env.server.base}/#/puzzles/starchess?n=${puzzle.number}`);
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
  await page.goto(`${env.server.base}/#/puzzles/chess?n=${chess.number}`);
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
