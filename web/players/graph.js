// A rating history as an SVG line graph, drawn to the pixel width of its box: a point a day
// (the rating at the day's end, as GET /api/user/NAME/rating-history gives it), days to scale
// along x, round ratings marked along y.

import { el } from '../pieces.js';
import { formatDate } from '../ui.js';

const dayText = (t) => formatDate(t, { timeZone: 'UTC' }); // the server's days are UTC days

const HEIGHT = 170;
const MARGIN = { left: 46, right: 14, top: 12, bottom: 26 };
const STEPS = [10, 25, 50, 100, 200, 250, 500, 1000]; // rating gaps between the grid lines
const MAX_LINES = 5;

// The grid: round ratings from below the lowest point to above the highest.
function ratingScale(ratings) {
  const [min, max] = [Math.min(...ratings), Math.max(...ratings)];
  const bounds = (step) => [Math.floor((min - 1) / step) * step, Math.ceil((max + 1) / step) * step];
  const lineCount = (step) => (bounds(step)[1] - bounds(step)[0]) / step + 1;
  const step = STEPS.find((s) => lineCount(s) <= MAX_LINES) || STEPS[STEPS.length - 1];
  const [lo, hi] = bounds(step);
  const lines = [];
  for (let r = lo; r <= hi; r += step) lines.push(r);
  return { lo, hi, lines };
}

// `points`: [[year, month 0-11, day, rating], ...], oldest first.
export function ratingGraph(points, width) {
  const days = points.map(([y, m, d]) => Date.UTC(y, m, d));
  const ratings = points.map((p) => p[3]);
  const { lo, hi, lines } = ratingScale(ratings);
  const [first, last] = [days[0], days[days.length - 1]];
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (t) => MARGIN.left + (last > first ? ((t - first) / (last - first)) * plotW : plotW / 2);
  const y = (r) => MARGIN.top + (1 - (r - lo) / (hi - lo)) * plotH;
  const svg = el('svg', {
    class: 'rating-graph', viewBox: `0 0 ${width} ${HEIGHT}`, role: 'img',
    'aria-label': `Rating ${ratings[0]} on ${dayText(first)}${points.length > 1 ? `, ${ratings[ratings.length - 1]} on ${dayText(last)}` : ''}`,
  });
  for (const r of lines) {
    el('line', { x1: MARGIN.left, x2: width - MARGIN.right, y1: y(r), y2: y(r), class: 'graph-grid' }, svg);
    el('text', { x: MARGIN.left - 6, y: y(r), class: 'graph-label', 'text-anchor': 'end', 'dominant-baseline': 'middle' }, svg).textContent = r;
  }
  const dateLabel = (t, anchor) => {
    el('text', { x: x(t), y: HEIGHT - 6, class: 'graph-label', 'text-anchor': anchor }, svg).textContent = dayText(t);
  };
  dateLabel(first, points.length > 1 ? 'start' : 'middle');
  if (points.length > 1) dateLabel(last, 'end');
  el('polyline', { points: days.map((t, i) => `${x(t).toFixed(1)},${y(ratings[i]).toFixed(1)}`).join(' '), class: 'graph-line' }, svg);
  days.forEach((t, i) => {
    const dot = el('circle', { cx: x(t), cy: y(ratings[i]), r: 3.5, class: 'graph-dot' }, svg);
    el('title', {}, dot).textContent = `${dayText(t)}: ${ratings[i]}`;
  });
  return svg;
}
