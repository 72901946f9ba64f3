// Accounts: the sign-up and sign-in forms with the server's refusals shown, the way back to
// the page the user came from, the account page (password, API tokens, closing the account).

import { env, test, check, newPlayer, api, signUp, headerNames, passwordOf, shot } from '../harness.mjs';

// The form's refusal, once the answer has come (the message is hidden while a request is out).
const errorText = (page) => page.locator('#auth-error:not([hidden])').innerText();

// Fills and sends the form; waits for the answer when it is a refusal or a success.
async function submitAuth(page, username, password) {
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await page.locator('#auth-submit').click();
  await page.waitForFunction(() => !document.querySelector('#auth-submit')?.disabled);
}

test('account-signup-errors', async (t) => {
  const page = await newPlayer(t);
  await page.goto(`${env.server.base}/#/`);
  await page.locator('#sign-in').click();
  await page.locator('#to-signup').click();
  await page.waitForSelector('#signup-form');
  await submitAuth(page, 'ab', 'long-enough-password');
  check(/3 to 20 characters/.test(await errorText(page)), `a short name: "${await errorText(page)}"`);
  await submitAuth(page, 'carol', 'short');
  check(/password has 8 to 128 characters/.test(await errorText(page)), `a short password: "${await errorText(page)}"`);
  await submitAuth(page, 'carol', passwordOf('carol'));
  await headerNames(page, 'carol');
  // The name is taken, whatever its case.
  const other = await newPlayer(t);
  await other.goto(`${env.server.base}/#/signup`);
  await submitAuth(other, 'Carol', passwordOf('Carol'));
  check(/taken/.test(await errorText(other)), `a taken name: "${await errorText(other)}"`);
  await shot(other, 'account-signup-taken');
});

// Sign in from a page: refused with the server's message, then back on that page once in;
// refused for a while after too many failures.
test('account-login-returns', async (t) => {
  await api('POST', '/api/auth/signup', { username: 'erin', password: passwordOf('erin') });
  const page = await newPlayer(t);
  await page.goto(`${env.server.base}/#/leaderboard/starchess`);
  await page.waitForSelector('.leaderboard-page');
  await page.locator('#sign-in').click();
  await page.waitForSelector('#login-form');
  await submitAuth(page, 'erin', 'not-her-password');
  check(/wrong username or password/i.test(await errorText(page)), `a wrong password: "${await errorText(page)}"`);
  await submitAuth(page, 'ERIN', passwordOf('erin'));
  await headerNames(page, 'erin');
  await page.waitForFunction(() => location.hash === '#/leaderboard/starchess');
  // Too many failures for one name: the wait is told, with the time to try again at.
  await page.goto(`${env.server.base}/#/login`);
  for (let i = 0; i < 6; i++) await submitAuth(page, 'nobody-here', 'not-a-password');
  const wait = await errorText(page);
  check(/too many failed logins.*try again in \d+ s\. You can try again at \d/i.test(wait), `after six failures: "${wait}"`);
});

// The account page: a token made (shown once, listed, used, revoked), the password changed,
// the account closed (its profile says so).
test('account-page', async (t) => {
  const page = await newPlayer(t);
  await signUp(page, 'dave');
  await page.locator('#account-button').click();
  await page.locator('#menu-profile').click();
  await page.waitForSelector('.profile-page[data-user="dave"]');
  check(/No rated games yet/.test(await page.locator('.rating-graphs').innerText()), 'a new profile shows a rating history');
  check(/0 games/.test(await page.locator('#profile-counts').innerText()), 'a new profile counts games');
  await page.locator('#account-button').click();
  await page.locator('#menu-account').click();
  await page.waitForSelector('#token-form');
  await page.locator('#token-description').fill('my bot');
  await page.locator('#create-token').click();
  await page.waitForSelector('#new-token:not([hidden])');
  const token = await page.locator('#new-token-value').inputValue();
  check(/^sfp_[A-Za-z0-9_-]{32}$/.test(token), `the new token reads "${token}"`);
  await page.waitForSelector('.token .token-description:text("my bot")');
  check(/never used/.test(await page.locator('.token').innerText()), 'a fresh token is not "never used"');
  await shot(page, 'account-token-created');
  const bearer = (tok) => fetch(`${env.server.base}/api/account`, { headers: { authorization: `Bearer ${tok}` } });
  const me = await bearer(token);
  check(me.status === 200 && (await me.json()).username === 'dave', `the token does not act for dave: ${me.status}`);
  // Shown once: after a reload the list has it, used now, and the secret is gone.
  await page.reload();
  await page.waitForSelector('.token');
  check(await page.locator('#new-token').isHidden(), 'the token is shown again after a reload');
  check(!(await page.content()).includes(token), 'the secret is still in the page');
  check(/last used/.test(await page.locator('.token').innerText()), 'the token\'s use is not listed');
  await page.locator('.token .revoke-token').click();
  await page.waitForSelector('#token-list .token', { state: 'detached' });
  check((await bearer(token)).status === 401, 'a revoked token still works');
  // The password: a wrong old one refused, then changed.
  await page.locator('#old-password').fill('not-it-at-all');
  await page.locator('#new-password').fill('dave-new-secret');
  await page.locator('#change-password').click();
  await page.waitForSelector('#password-note:not([hidden])');
  check(/wrong password/i.test(await page.locator('#password-note').innerText()), 'a wrong old password is not refused');
  await page.locator('#old-password').fill(passwordOf('dave'));
  await page.locator('#new-password').fill('dave-new-secret');
  await page.locator('#change-password').click();
  await page.waitForSelector('#password-note.ok');
  // Closed: logged out, and the password no longer works.
  await page.locator('#close-password').fill('dave-new-secret');
  check(await page.locator('#close-account').isDisabled(), 'closing needs no confirmation');
  await page.locator('#close-confirm').check();
  await page.locator('#close-account').click();
  await page.waitForSelector('#sign-in:not([hidden])');
  const login = await fetch(`${env.server.base}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json', origin: env.server.base },
    body: JSON.stringify({ username: 'dave', password: 'dave-new-secret' }),
  });
  check(login.status === 401, `a closed account logs in: ${login.status}`);
  await page.goto(`${env.server.base}/#/@/dave`);
  await page.waitForSelector('#profile-closed');
});
