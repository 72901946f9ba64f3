// Browser tests of the starfish web UI, clicking through the real pages served by the real
// `starfish serve` (started here on a free port with a fresh database).
//
//   cd tests/browser && npm install && node run.mjs [NAME-FILTER]
//
// Env: STARFISH_BIN (default ../../starfish), CHROMIUM (default /usr/bin/chromium).
// Prints `PASS name` or `FAIL name: reason` per test and a closing `N passed, N failed` line
// (tests/run.py reads them), saves a screenshot per test in tests/artifacts/, exits non-zero
// if any test failed.  The tests are in suites/, by area; harness.mjs has what they share.

import fs from 'node:fs';
import path from 'node:path';
import { env, tests, startServer, launchBrowser, ARTIFACTS } from './harness.mjs';
import './suites/play.mjs';
import './suites/records.mjs';
import './suites/input.mjs';
import './suites/learn.mjs';
import './suites/analysis.mjs';
import './suites/accounts.mjs';
import './suites/rated.mjs';
import './suites/meet.mjs';
import './suites/meetshots.mjs';
import './suites/look.mjs';
import './suites/tournaments.mjs';

const FILTER = process.argv[2] || '';

// One test: its players' browser contexts are closed after it, whatever happened.
async function runTest({ name, fn, timeout }) {
  const t = { contexts: [], errors: [], log: [] };
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
    // Where in the suites it failed: the first of their lines in the stack.
    const at = /suites\/([\w.-]+:\d+)/.exec((e && e.stack) || '');
    if (at) error += ` (${at[1]})`;
    if (process.env.BROWSER_DEBUG) console.error(e);
    // Every page as it was, and what each said and asked (hash changes, fetches, console).
    const pages = t.contexts.flatMap((c) => c.pages());
    for (const [i, page] of pages.entries()) {
      const file = i ? `${name}-failed-${i}.png` : `${name}-failed.png`;
      await page.screenshot({ path: path.join(ARTIFACTS, file) }).catch(() => {});
      t.log.push(`page ${i} ends at ${page.url()}`);
    }
    fs.writeFileSync(path.join(ARTIFACTS, `${name}-failed.log`), `${e && e.stack}\n\n${t.log.join('\n')}\n`);
  }
  clearTimeout(timer);
  for (const c of t.contexts) await c.close().catch(() => {});
  return error;
}

async function main() {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  if (!FILTER) for (const f of fs.readdirSync(ARTIFACTS)) if (/\.(png|log)$/.test(f)) fs.rmSync(path.join(ARTIFACTS, f));
  env.server = await startServer();
  env.browser = await launchBrowser();
  let passed = 0;
  let failed = 0;
  const started = Date.now();
  for (const one of tests) {
    if (FILTER && !one.name.includes(FILTER)) continue;
    const error = await runTest(one);
    if (error) {
      failed++;
      console.log(`FAIL ${one.name}: ${error}`);
    } else {
      passed++;
      console.log(`PASS ${one.name}`);
    }
  }
  await env.browser.close();
  await env.server.stop();
  console.log(`browser tests: ${((Date.now() - started) / 1000).toFixed(1)} s, screenshots in ${path.relative(process.cwd(), ARTIFACTS) || ARTIFACTS}`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

main().then((code) => process.exit(code), async (e) => {
  console.log(`FAIL setup: ${e.message}`);
  if (env.browser) await env.browser.close().catch(() => {});
  if (env.server) await env.server.stop().catch(() => {});
  console.log('0 passed, 1 failed');
  process.exit(1);
});
