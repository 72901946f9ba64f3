// What this browser remembers about how the app looks and sounds (theme, board colours, sound,
// cell names, the rules' hints on the board, figurines in move lists), applied to <html> as
// data attributes and classes the stylesheet reads, and the header's controls for them (a
// sound switch and a settings menu).

import { h, dropdown } from './ui.js';

const KEY = 'starfish:settings';
const DEFAULTS = { theme: 'auto', board: 'wood', sound: true, cellNames: true, removalHints: true, limpingMarks: true, pieceLegend: true, figurines: false };
// The hints on the board, each switchable: [setting, the class <html> gets when it is off, label].
export const HINTS = [
  ['removalHints', 'hide-removal-hints', 'Starvation: moves that lose the moved piece in red'],
  ['limpingMarks', 'hide-limp-marks', 'Starchess: limping pawns marked ~'],
  ['pieceLegend', 'hide-piece-legend', 'Megastar and square-says: the piece legend'],
];
export const THEMES = [['auto', 'Auto'], ['light', 'Light'], ['dark', 'Dark']];
export const BOARDS = [['wood', 'Wood'], ['ocean', 'Ocean'], ['forest', 'Forest']];

let current = load();
const listeners = new Set();
const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

function load() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || '{}') };
  } catch {
    return { ...DEFAULTS };
  }
}

export const setting = (key) => current[key];

export function setSetting(key, value) {
  current = { ...current, [key]: value };
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    /* private mode: the setting holds for this page */
  }
  applySettings();
  for (const fn of listeners) fn(key, value);
}

export function onSetting(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// The theme follows the system unless the player chose one.
export function applySettings() {
  const root = document.documentElement;
  const dark = current.theme === 'dark' || (current.theme === 'auto' && darkQuery.matches);
  root.dataset.theme = dark ? 'dark' : 'light';
  root.dataset.board = current.board;
  root.classList.toggle('hide-cell-names', !current.cellNames);
  for (const [key, off] of HINTS) root.classList.toggle(off, !current[key]);
}
darkQuery.addEventListener('change', applySettings);

function choice(name, options) {
  return h('div', { class: 'segmented', role: 'radiogroup', 'aria-label': name },
    options.map(([value, label]) => h('label', { class: `seg${current[name] === value ? ' checked' : ''}`, 'data-value': value },
      h('input', { type: 'radio', name: `setting-${name}`, value, checked: current[name] === value, onchange: () => setSetting(name, value) }),
      h('span', {}, label))));
}

function check(key, id, label) {
  return h('label', { class: 'check-row' }, h('input', { type: 'checkbox', id, checked: current[key], onchange: (e) => setSetting(key, e.target.checked) }), ` ${label}`);
}

// A loudspeaker, with sound waves or struck through (drawn: emoji fonts differ).
function speaker(on) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'icon-svg');
  svg.setAttribute('aria-hidden', 'true');
  const path = (d, cls) => {
    const p = document.createElementNS(ns, 'path');
    p.setAttribute('d', d);
    p.setAttribute('class', cls);
    svg.appendChild(p);
  };
  path('M3 9 H7 L12 5 V19 L7 15 H3 Z', 'fill');
  path(on ? 'M15.5 8.5 A5 5 0 0 1 15.5 15.5 M18 6 A8.5 8.5 0 0 1 18 18' : 'M16 9 L22 15 M22 9 L16 15', 'stroke');
  return svg;
}

// The header's sound switch and settings menu.
export function mountSettings(host) {
  const sound = h('button', { type: 'button', class: 'icon ghost', id: 'sound-toggle', onclick: () => setSetting('sound', !current.sound) });
  const panel = h('div', { class: 'settings-panel', id: 'settings', hidden: true, role: 'dialog', 'aria-label': 'Settings' });
  const open = h('button', { type: 'button', class: 'icon ghost', id: 'settings-button', 'aria-label': 'Settings', title: 'Settings', 'aria-expanded': 'false', 'aria-controls': 'settings' }, '\u2699');
  const build = () => panel.replaceChildren(
    h('div', { class: 'label' }, 'Theme'), choice('theme', THEMES),
    h('div', { class: 'label' }, 'Board colours'), choice('board', BOARDS),
    check('cellNames', 'setting-cell-names', 'Show cell names on hex boards'),
    h('div', { class: 'label' }, 'Hints from the rules'),
    ...HINTS.map(([key, off, label]) => check(key, `setting-${off.slice(5)}`, label)),
    check('figurines', 'setting-figurines', 'Figurines in move lists (\u2658f3)'));
  dropdown(open, panel, build);
  const renderSound = () => {
    sound.replaceChildren(speaker(current.sound));
    sound.setAttribute('aria-label', current.sound ? 'Sound on: mute' : 'Sound off: unmute');
    sound.title = sound.getAttribute('aria-label');
    sound.setAttribute('aria-pressed', String(!current.sound));
  };
  onSetting(() => {
    renderSound();
    if (!panel.hidden) build();
  });
  renderSound();
  host.append(sound, open, panel);
}
