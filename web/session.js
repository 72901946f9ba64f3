// Who is logged in.  The session is an HttpOnly cookie that the page cannot read: the server
// says whose it is (GET /api/account; 401: nobody), asked once and again after every change.

import { api } from './api.js';

let known = null; // a promise of the account, or of null when nobody is logged in
const listeners = new Set();

export function currentAccount() {
  if (!known) {
    known = api.account().catch((e) => {
      if (e.status === 401) return null;
      known = null; // the server could not be asked: ask again next time
      throw e;
    });
  }
  return known;
}

// After a signup, a login, a logout or a closed account: asks the server again, tells the
// listeners (the header, the router) and answers the account or null.
export async function accountChanged() {
  known = null;
  const account = await currentAccount();
  for (const fn of listeners) fn(account);
  return account;
}

export function onAccountChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// Where the sign-in and sign-up pages return to: the page the user was on.
export function signInHref(page = 'login', back = location.hash) {
  const here = /^#\/(login|signup)\b/.test(back) ? '' : back;
  return `#/${page}${here && here !== '#/' ? `?${new URLSearchParams({ back: here })}` : ''}`;
}
