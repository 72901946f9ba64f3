// The account's event stream, one per page while someone is logged in: GET /api/stream/event
// (NDJSON over a streamed fetch: gameStart, gameFinish, challenge, challengeCanceled,
// challengeDeclined), opened again with a growing wait when it drops.  Modules listen by the
// event's type; 'open' is heard on each (re)connection (the time to read again what may have
// been missed).  The server announces every game that goes on again when a stream opens: those
// gameStarts come first, and listeners are told (`initial`).  <html data-account-events> says
// how it is: off, connecting, live, reconnecting.

import { api, readLines } from '../api.js';
import { currentAccount, onAccountChange } from '../session.js';

const INITIAL_MS = 1500; // the announcements of a fresh stream come within this
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30000;

const listeners = new Map(); // type -> Set of fn(event, { initial })
let generation = 0; // counts the starts: a stream of an older one stops
let controller = null;
let timer = null;
let retry = RETRY_FIRST_MS;
let openedAt = 0;

export function onAccountEvent(type, fn) {
  if (!listeners.has(type)) listeners.set(type, new Set());
  listeners.get(type).add(fn);
  return () => listeners.get(type).delete(fn);
}

function emit(type, event, meta = {}) {
  for (const fn of listeners.get(type) || []) {
    try {
      fn(event, meta);
    } catch (e) {
      console.error(e); // eslint-disable-line no-console
    }
  }
}

function setState(state) {
  document.documentElement.dataset.accountEvents = state;
}

async function connect(mine) {
  controller = new AbortController();
  setState(retry > RETRY_FIRST_MS ? 'reconnecting' : 'connecting');
  try {
    const res = await api.accountEvents(controller.signal);
    if (mine !== generation) return;
    openedAt = performance.now();
    retry = RETRY_FIRST_MS;
    setState('live');
    emit('open');
    await readLines(res, (event) => {
      if (mine === generation && event && event.type) emit(event.type, event, { initial: performance.now() - openedAt < INITIAL_MS });
    });
  } catch (e) {
    if (mine !== generation || e.name === 'AbortError') return;
    if (e.status === 401) { // the session has ended
      setState('off');
      return;
    }
  }
  if (mine !== generation) return;
  setState('reconnecting');
  timer = setTimeout(() => connect(mine), retry);
  retry = Math.min(retry * 2, RETRY_MAX_MS);
}

function restart(account) {
  const mine = ++generation;
  clearTimeout(timer);
  if (controller) controller.abort();
  controller = null;
  retry = RETRY_FIRST_MS;
  if (account) connect(mine);
  else setState('off');
}

// Started once by app.js: the stream follows who is logged in.
export function mountAccountEvents() {
  setState('off');
  onAccountChange(restart);
  currentAccount().then(restart, () => restart(null));
}
