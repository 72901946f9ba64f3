// The game's sounds: short files synthesised by tools/make-sounds.sh (SoX), played through
// <audio> elements kept in the page, unless the player muted them (remembered).

import { setting } from './settings.js';

export const SOUNDS = ['move', 'capture', 'check', 'start', 'end', 'lowtime'];
let box = null;

function element(name) {
  if (!box) {
    box = document.createElement('div');
    box.id = 'sounds';
    box.hidden = true;
    for (const n of SOUNDS) {
      const a = document.createElement('audio');
      a.dataset.sound = n;
      a.preload = 'auto';
      a.src = `sounds/${n}.ogg`;
      box.appendChild(a);
    }
    document.body.appendChild(box);
  }
  return box.querySelector(`[data-sound="${name}"]`);
}

export function playSound(name) {
  if (!setting('sound')) return;
  const a = element(name);
  a.currentTime = 0;
  a.play().catch(() => { /* the browser wants a gesture first: stay quiet */ });
}

// Loads the files before the first move needs one.
export const preloadSounds = () => element(SOUNDS[0]);
