// The sign-up and sign-in pages (#/signup, #/login, each with ?back=HASH): the server's own
// message under the form when it refuses (a name taken, the rules for names and passwords, a
// wrong password, too many attempts and when to try again); once in, back where the user was.

import { api } from '../api.js';
import { h, capitalize } from '../ui.js';
import { accountChanged, currentAccount, signInHref } from '../session.js';

const PAGES = {
  signup: {
    title: 'Create an account', submit: 'Sign up', send: api.signup, password: 'new-password',
    nameHint: '3 to 20 letters, digits, _ or -', passwordHint: '8 characters or more, not your username',
    other: ['login', 'Already have an account? ', 'Sign in'],
  },
  login: {
    title: 'Sign in', submit: 'Sign in', send: api.login, password: 'current-password',
    other: ['signup', 'New here? ', 'Create an account'],
  },
};

// The server's message as a sentence; after too many attempts, the time to try again at.
export function refusal(e) {
  if (!e.status) return e.message;
  let text = `${capitalize(e.detail)}.`;
  if (e.status === 429 && e.retryAfter) {
    const at = new Date(Date.now() + e.retryAfter * 1000).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
    text += ` You can try again at ${at}.`;
  }
  return text;
}

// Only a page of this app, and not the sign-in pages themselves.
function backFrom(params) {
  const back = params.get('back') || '';
  return /^#\/(?!login\b|signup\b)/.test(back) ? back : '#/';
}

export class AuthView {
  constructor(root, page, params) {
    this.root = root;
    this.page = PAGES[page];
    this.name = page;
    this.back = backFrom(params);
  }

  destroy() {}

  async start() {
    document.title = `${this.page.title} \u2014 starfish`;
    const account = await currentAccount().catch(() => null);
    this.render(account);
  }

  render(account) {
    const p = this.page;
    const field = (id, label, attrs, hint) => h('div', { class: 'field' },
      h('label', { class: 'label', for: id }, label),
      h('input', { id, name: id, required: true, spellcheck: 'false', ...attrs }),
      hint ? h('div', { class: 'hint muted small' }, hint) : null);
    this.error = h('p', { class: 'form-error', id: 'auth-error', role: 'alert', hidden: true });
    this.button = h('button', { type: 'submit', class: 'primary', id: 'auth-submit' }, p.submit);
    const [otherPage, question, otherLabel] = p.other;
    const form = h('form', { class: 'card auth-card', id: `${this.name}-form`, novalidate: true },
      h('h1', {}, p.title),
      account ? h('p', { class: 'muted small' }, `You are signed in as ${account.username}.`) : null,
      field('username', 'Username', { type: 'text', autocomplete: 'username', autocapitalize: 'none', maxlength: 20 }, p.nameHint),
      field('password', 'Password', { type: 'password', autocomplete: p.password }, p.passwordHint),
      this.error,
      h('div', { class: 'actions' }, this.button),
      h('p', { class: 'muted small auth-other' }, question, h('a', { href: signInHref(otherPage, this.back), id: `to-${otherPage}` }, otherLabel)));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.submit(form.username.value.trim(), form.password.value);
    });
    this.root.replaceChildren(h('div', { class: 'auth-page' }, form));
    form.username.focus();
  }

  async submit(username, password) {
    this.error.hidden = true;
    this.button.disabled = true;
    try {
      await this.page.send(username, password);
    } catch (e) {
      this.error.textContent = refusal(e);
      this.error.hidden = false;
      return;
    } finally {
      this.button.disabled = false;
    }
    await accountChanged();
    location.hash = this.back;
  }
}
