// The clocks in the player bars, counting down between the server's updates; a
// correspondence game's (days a move) in days and hours.

import { $, formatClock, formatLong } from '../ui.js';

const LOW_MS = 20000; // the clock turns red

export class Clocks {
  constructor(state, bars) {
    this.state = state;
    this.bars = bars;
    this.base = performance.now(); // when the server's numbers were true
    state.on('change', (keys) => {
      if (keys.has('game')) this.base = performance.now();
      this.render();
    });
    this.timer = setInterval(() => this.render(), 100);
  }

  destroy() {
    clearInterval(this.timer);
  }

  // Milliseconds left on a side's clock now.
  left(side) {
    const g = this.state.game;
    let ms = g.clock[`${side}_ms`];
    if (g.status === 'ongoing' && g.clock.running === side) ms -= performance.now() - this.base;
    return ms;
  }

  render() {
    const g = this.state.game;
    if (!g) return;
    for (const bar of this.bars.bars) {
      const side = bar.dataset.side;
      const clock = $('.clock', bar);
      clock.hidden = !g.clock;
      if (!g.clock) continue;
      const ms = this.left(side);
      const running = g.status === 'ongoing' && g.clock.running === side;
      const lost = g.status === 'over' && g.reason === 'timeout' && ((g.result === '1-0' && side === 'black') || (g.result === '0-1' && side === 'white'));
      const flagged = ms <= 0 || lost;
      const days = !!g.clock.days;
      $('.clock-time', clock).textContent = days ? formatLong(ms) : formatClock(ms);
      clock.classList.toggle('days', days);
      clock.classList.toggle('running', running && !flagged);
      clock.classList.toggle('low', ms < LOW_MS && !flagged);
      clock.classList.toggle('flagged', flagged);
      clock.dataset.ms = Math.max(0, Math.round(ms));
      clock.setAttribute('aria-label', `${side} clock ${days ? `${formatLong(ms, true)} left for the move` : formatClock(ms)}`);
    }
  }
}
