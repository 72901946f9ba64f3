// Playing games: every variant's moves by click and drag, promotions, the Starchess setup,
// games against the engine, resignation, draws, clocks, the end-of-game dialog, takebacks and
// rematches.

import { test, check, Failure, newPlayer, createGame, joinByInvite, waitPlies, play, place, resultText, sanList, shot, boardMatchesServer, api } from '../harness.mjs';

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

// A friend who leaves a game with a clock (closes the page): the other player is told, counts
// down the server's claim delay, and claims the win.
test('opponent-left-claim-victory', async (t) => {
  const white = await newPlayer(t);
  const id = await createGame(white, { variant: 'chess', opponent: 'friend', clock: { min: 5, inc: 0 } });
  const black = await joinByInvite(t, white);
  await play(white, 'e2', 'e4');
  await play(black, 'e7', 'e5');
  await black.close();
  await white.waitForSelector('#gone-box:not([hidden])', { timeout: 20000 });
  check(/claim victory in \d+ s/.test(await white.locator('#gone-box .offer-text').innerText()), 'no countdown to the claim');
  check(await white.locator('#claim-victory').isHidden(), 'the claim is offered before its time');
  await white.waitForSelector('#claim-victory:not([hidden])', { timeout: 40000 });
  await shot(white, 'opponent-left-claim');
  await white.locator('#claim-victory').click();
  check(/White wins as the opponent left/.test(await resultText(white)), `result shown as "${await resultText(white)}"`);
  const g = await api('GET', `/api/games/${id}`);
  check(g.result === '1-0' && g.reason === 'abandoned', `the server: ${g.result} ${g.reason}`);
  check(await white.locator('#gone-box').isHidden(), 'the claim box stays after the end');
});
