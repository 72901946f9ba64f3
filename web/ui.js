// Small DOM helpers shared by the views.

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'html') e.innerHTML = v;
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
  return e;
}

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

// Radio buttons drawn as one segmented control (the checked one marked for the stylesheet).
export function segmented(name, options, value, label = null) {
  const group = h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': label },
    options.map(([v, text]) => h('label', { class: 'seg', 'data-value': v },
      h('input', { type: 'radio', name, value: v, checked: v === value }), h('span', {}, text))));
  const mark = () => $$('.seg', group).forEach((s) => s.classList.toggle('checked', s.querySelector('input').checked));
  group.addEventListener('change', mark);
  mark();
  return group;
}

// Messages to the user (text, or elements: a link to follow); errors stay until dismissed or
// replaced after a while, others go after `ms`; `name` marks the notice (data-name).
export function notify(message, kind = 'error', { ms = kind === 'error' ? 12000 : 3500, name = null } = {}) {
  const box = $('#notices');
  const item = h('div', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status', 'data-name': name },
    h('span', { class: 'notice-text' }, message),
    h('button', { class: 'notice-close', type: 'button', 'aria-label': 'Dismiss', onclick: () => item.remove() }, '\u00D7'));
  box.appendChild(item);
  while (box.children.length > 4) box.firstChild.remove();
  setTimeout(() => item.remove(), ms);
  return item;
}

// A panel that a button opens, closed again by a click elsewhere or Escape; `onOpen` fills it.
export function dropdown(button, panel, onOpen = () => {}) {
  const show = (on) => {
    panel.hidden = !on;
    button.setAttribute('aria-expanded', String(on));
    if (on) onOpen();
  };
  button.addEventListener('click', () => show(panel.hidden));
  document.addEventListener('pointerdown', (e) => {
    if (!panel.hidden && !panel.contains(e.target) && !button.contains(e.target)) show(false);
  });
  panel.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      show(false);
      button.focus();
    }
  });
  return show;
}

export async function copyText(text, button) {
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      ok = true;
    }
  } catch {
    ok = false;
  }
  if (!ok) {
    const ta = h('textarea', { class: 'offscreen' });
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    ta.remove();
  }
  if (button) {
    const old = button.dataset.label || button.textContent;
    button.dataset.label = old;
    button.textContent = ok ? 'Copied \u2713' : 'Copy failed';
    button.classList.toggle('copied', ok);
    setTimeout(() => {
      button.textContent = old;
      button.classList.remove('copied');
    }, 1600);
  }
  if (!ok) notify('Could not copy to the clipboard: select the text and copy it by hand.');
  return ok;
}

export function download(filename, text, type = 'text/plain') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: filename });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function formatClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) {
    const s = Math.floor(ms / 1000);
    const t = Math.floor((ms % 1000) / 100);
    return `0:0${s}.${t}`;
  }
  const total = Math.ceil(ms / 1000);
  const hours = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = hours ? String(m).padStart(2, '0') : String(m);
  return `${hours ? hours + ':' : ''}${mm}:${String(s).padStart(2, '0')}`;
}

// A long time left (correspondence: days a move) in days and hours: "2d 5h", "5h 07m"; under
// an hour as a clock; `words`: "2 days 5 hours" for screen readers.
export function formatLong(ms, words = false) {
  ms = Math.max(0, ms);
  if (ms < 3600000) return words ? `${Math.ceil(ms / 60000)} minutes` : formatClock(ms);
  const hours = Math.floor(ms / 3600000);
  const [d, hh, m] = [Math.floor(hours / 24), hours % 24, Math.floor((ms % 3600000) / 60000)];
  const n = (k, word) => `${k} ${word}${k === 1 ? '' : 's'}`;
  if (words) return d ? `${n(d, 'day')} ${n(hh, 'hour')}` : `${n(hh, 'hour')} ${n(m, 'minute')}`;
  return d ? `${d}d ${hh}h` : `${hh}h ${String(m).padStart(2, '0')}m`;
}

export function timeAgo(iso) {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso || '';
  const s = Math.max(0, (Date.now() - t) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return new Date(t).toLocaleDateString();
}

// The variants' titles as players call them, from GET /api/variants (app.js learns them first).
const variantTitles = {};
export function learnVariantTitles(variants) {
  for (const v of variants) variantTitles[v.name] = v.title;
}
export const variantTitle = (name) => variantTitles[name] || name;

const REASONS = {
  checkmate: 'by checkmate',
  stalemate: 'by stalemate',
  repetition: 'by threefold repetition',
  'fifty-move': 'by the fifty-move rule',
  'insufficient-material': 'by insufficient material',
  'dead-position': 'by dead position',
  agreement: 'by agreement',
  resignation: 'by resignation',
  timeout: 'on time',
  abandoned: 'as the opponent left',
  'starvation-stalemate': 'by starvation stalemate',
  'captured-more': 'having captured more',
  'captured-fewer': 'having captured fewer',
};

export function resultText(result, reason) {
  if (reason === 'aborted') return 'Game aborted';
  const who = result === '1-0' ? 'White wins' : result === '0-1' ? 'Black wins' : result === '1/2-1/2' ? 'Draw' : 'Game over';
  const why = reason ? REASONS[reason] || `(${String(reason).replace(/-/g, ' ')})` : '';
  return why ? `${who} ${why}` : who;
}

export const capitalize = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// "1-0 \u00B7 White wins by checkmate"; an aborted game has no result to give.
export const resultLine = (result, reason) => (reason === 'aborted' ? resultText(result, reason) : `${result} \u00B7 ${resultText(result, reason)}`);

// A rating as players read it: "1500?" while it is provisional.
export const ratingText = (rating, prov) => `${rating}${prov ? '?' : ''}`;

// A rating change: "+9", "\u22129", "\u00B10", with a class for its colour.
export function ratingDiff(diff) {
  const text = diff > 0 ? `+${diff}` : diff < 0 ? `\u2212${-diff}` : '\u00B10';
  return h('span', { class: `rating-diff ${diff > 0 ? 'up' : diff < 0 ? 'down' : 'even'}` }, text);
}

export const profileHref = (name) => `#/@/${encodeURIComponent(name)}`;

// An account's name, linking to its profile (a closed account's name is kept, struck through).
export const profileLink = (name, closed = false) =>
  h('a', { href: profileHref(name), class: `profile-link${closed ? ' closed' : ''}`, title: closed ? `${name} (account closed)` : null }, name);

// A bot account's title before its name (lichess's "title": "BOT").
export const botBadge = () => h('span', { class: 'badge bot', title: 'a bot: an engine plays this account' }, 'BOT');

export const formatDate = (ms, options = {}) => new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', ...options });

// A sentence for screen readers (the page's polite live region).
export function announce(text) {
  const box = $('#announcer');
  if (!box) return;
  box.textContent = '';
  // A fresh text node after a tick, so the same sentence twice is read twice.
  setTimeout(() => { box.textContent = text; }, 30);
}
