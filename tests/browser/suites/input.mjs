// Ways to move: premoves, sounds, the move box and the keyboard alone.

import { test, check, newPlayer, createGame, joinByInvite, plies, waitPlies, play, place, shot, boardMatchesServer } from '../harness.mjs';

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
