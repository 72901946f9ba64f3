// The account settings (#/account): change the password, personal API tokens (made with a
// description and shown once, listed with their dates, revoked), close the account.

import { api } from '../api.js';
import { h, notify, copyText, formatDate, profileHref } from '../ui.js';
import { accountChanged, currentAccount, signInHref } from '../session.js';
import { refusal } from './forms.js';

// A line under a form: the server's refusal, or what was done.
function formNote(id) {
  const note = h('p', { class: 'form-note', id, role: 'status', hidden: true });
  note.say = (text, ok) => {
    note.textContent = text;
    note.classList.toggle('ok', ok);
    note.hidden = false;
  };
  note.refused = (e) => note.say(refusal(e), false);
  return note;
}

function field(id, label, attrs = {}) {
  return h('div', { class: 'field' }, h('label', { class: 'label', for: id }, label), h('input', { id, name: id, ...attrs }));
}

// Runs a form's request with its button disabled; the note tells a refusal.
async function send(button, note, request) {
  note.hidden = true;
  button.disabled = true;
  try {
    return { done: true, value: await request() };
  } catch (e) {
    note.refused(e);
    return { done: false };
  } finally {
    button.disabled = false;
  }
}

export class AccountView {
  constructor(root) {
    this.root = root;
    this.alive = true;
  }

  destroy() {
    this.alive = false;
  }

  async start() {
    document.title = 'Account \u2014 starfish';
    const account = await currentAccount();
    if (!account) {
      this.root.replaceChildren(h('div', { class: 'account-page' }, h('section', { class: 'card' },
        h('h1', {}, 'Account'), h('p', {}, h('a', { href: signInHref(), id: 'account-sign-in' }, 'Sign in'), ' to see your account settings.'))));
      return;
    }
    this.tokenList = h('ul', { class: 'token-list', id: 'token-list' });
    this.root.replaceChildren(h('div', { class: 'account-page' },
      h('section', { class: 'card account-head' },
        h('h1', {}, 'Account'),
        h('p', {}, 'Signed in as ', h('a', { href: profileHref(account.username), id: 'account-profile' }, account.username),
          h('span', { class: 'muted' }, ` \u00B7 member since ${formatDate(account.createdAt)}`))),
      this.passwordCard(), this.tokensCard(), this.closeCard()));
    await this.loadTokens();
  }

  passwordCard() {
    const note = formNote('password-note');
    const button = h('button', { type: 'submit', class: 'primary', id: 'change-password' }, 'Change password');
    const form = h('form', { class: 'card', id: 'password-form', novalidate: true },
      h('h2', {}, 'Password'),
      field('old-password', 'Current password', { type: 'password', autocomplete: 'current-password' }),
      field('new-password', 'New password', { type: 'password', autocomplete: 'new-password' }),
      h('p', { class: 'hint muted small' }, '8 characters or more. Your other sessions end; your API tokens stay.'),
      note, h('div', { class: 'actions' }, button));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const sent = await send(button, note, () => api.changePassword(form['old-password'].value, form['new-password'].value));
      if (!sent.done) return;
      form.reset();
      note.say('Your password is changed; your other sessions have ended.', true);
    });
    return form;
  }

  tokensCard() {
    const note = formNote('token-note');
    const button = h('button', { type: 'submit', class: 'primary', id: 'create-token' }, 'Create token');
    this.newToken = h('div', { class: 'new-token', id: 'new-token', hidden: true });
    const form = h('form', { class: 'card', id: 'token-form', novalidate: true },
      h('h2', {}, 'API tokens'),
      h('p', { class: 'muted small' }, 'For scripts and bots: a token acts for your account, sent as ', h('code', {}, 'Authorization: Bearer TOKEN'), '.'),
      h('div', { class: 'copy-row' },
        h('input', { type: 'text', class: 'plain', id: 'token-description', name: 'description', maxlength: 100, placeholder: 'What it is for', 'aria-label': 'Token description' }),
        button),
      note, this.newToken, this.tokenList);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const sent = await send(button, note, () => api.createToken(form.description.value.trim()));
      if (!sent.done) return;
      form.description.value = '';
      this.showNewToken(sent.value.token);
      await this.loadTokens();
    });
    return form;
  }

  // The secret, this once: the server keeps only its digest.
  showNewToken(token) {
    const box = h('input', { type: 'text', readonly: true, id: 'new-token-value', value: token, spellcheck: 'false', 'aria-label': 'New token' });
    this.newToken.replaceChildren(
      h('p', { class: 'small' }, h('strong', {}, 'Copy your new token now: '), 'it is not shown again.'),
      h('div', { class: 'copy-row' }, box,
        h('button', { type: 'button', id: 'copy-token', onclick: (ev) => copyText(token, ev.currentTarget) }, 'Copy')));
    this.newToken.hidden = false;
    box.select();
  }

  async loadTokens() {
    let tokens;
    try {
      tokens = await api.tokens();
    } catch (e) {
      notify(`Could not list your tokens: ${e.message}`);
      return;
    }
    if (!this.alive) return;
    if (!tokens.length) {
      this.tokenList.replaceChildren(h('li', { class: 'muted small' }, 'No tokens.'));
      return;
    }
    this.tokenList.replaceChildren(...tokens.map((t) => h('li', { class: 'token', 'data-token': t.id },
      h('span', { class: 'token-description' }, t.description || '(no description)'),
      h('span', { class: 'token-dates muted small' },
        `created ${formatDate(t.createdAt)} \u00B7 ${t.lastUsedAt ? `last used ${formatDate(t.lastUsedAt)}` : 'never used'}`),
      h('button', { type: 'button', class: 'danger revoke-token', onclick: () => this.revoke(t) }, 'Revoke'))));
  }

  async revoke(token) {
    try {
      await api.revokeToken(token.id);
    } catch (e) {
      notify(`Could not revoke the token: ${e.message}`);
      return;
    }
    notify(`Token "${token.description || token.id}" revoked.`, 'info');
    await this.loadTokens();
  }

  closeCard() {
    const note = formNote('close-note');
    const button = h('button', { type: 'submit', class: 'danger', id: 'close-account', disabled: true }, 'Close my account');
    const confirm = h('input', { type: 'checkbox', id: 'close-confirm', onchange: () => { button.disabled = !confirm.checked; } });
    const form = h('form', { class: 'card close-card', id: 'close-form', novalidate: true },
      h('h2', {}, 'Close the account'),
      h('p', { class: 'muted small' }, 'You can no longer log in, and every session and token ends. Your name stays on your games and cannot be taken again.'),
      field('close-password', 'Password', { type: 'password', autocomplete: 'current-password' }),
      h('label', { class: 'check-row' }, confirm, ' I understand that this cannot be undone'),
      note, h('div', { class: 'actions' }, button));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const sent = await send(button, note, () => api.closeAccount(form['close-password'].value));
      if (!sent.done) return;
      notify('Your account is closed.', 'info');
      location.hash = '#/';
      await accountChanged();
    });
    return form;
  }
}
