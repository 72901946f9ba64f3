// The header's account links: "Sign in" while nobody is logged in; the player's name (to their
// profile) and a menu with the account settings and "Log out" once someone is.

import { api } from '../api.js';
import { h, notify, dropdown, profileHref } from '../ui.js';
import { currentAccount, accountChanged, onAccountChange, signInHref } from '../session.js';

async function logOut() {
  try {
    await api.logout();
  } catch (e) {
    if (e.status !== 401) { // 401: the session had ended already
      notify(`Could not log out: ${e.message}`);
      return;
    }
  }
  await accountChanged();
  notify('You are logged out.', 'info');
}

export function mountAccountLinks(host) {
  // All hidden until the server has said who is logged in.
  const signIn = h('a', { href: signInHref(), class: 'sign-in', id: 'sign-in', hidden: true }, 'Sign in');
  const name = h('a', { class: 'account-name', id: 'account-name', title: 'Your profile', hidden: true });
  const profile = h('a', { role: 'menuitem', id: 'menu-profile' }, 'Profile');
  const who = h('div', { class: 'account-who muted small' });
  const panel = h('div', { class: 'account-panel', id: 'account-menu', hidden: true, role: 'menu', 'aria-label': 'Account' },
    who, profile,
    h('a', { href: '#/account', role: 'menuitem', id: 'menu-account' }, 'Account settings'),
    h('button', { type: 'button', class: 'ghost', role: 'menuitem', id: 'log-out', onclick: logOut }, 'Log out'));
  // On a phone the name gives way to its initial, in the menu's button (the menu names it).
  const initial = h('span', { class: 'account-initial', 'aria-hidden': 'true' });
  const open = h('button', { type: 'button', class: 'icon ghost', id: 'account-button', 'aria-label': 'Account menu', title: 'Account menu', 'aria-expanded': 'false', 'aria-controls': 'account-menu', hidden: true }, initial, '\u25BE');
  const show = dropdown(open, panel);
  panel.addEventListener('click', (e) => e.target.closest('a, button') && show(false));
  const render = (account) => {
    show(false);
    signIn.hidden = !!account;
    name.hidden = open.hidden = !account;
    if (!account) return;
    name.textContent = account.username;
    initial.textContent = account.username.charAt(0).toUpperCase();
    who.textContent = `Signed in as ${account.username}`;
    name.href = profile.href = profileHref(account.username);
  };
  // The sign-in link returns to the page it was followed from.
  window.addEventListener('hashchange', () => { signIn.href = signInHref(); });
  host.append(signIn, name, open, panel);
  onAccountChange(render);
  currentAccount().then(render, () => render(null));
}
