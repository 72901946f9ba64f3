// The JSON API of docs/api.md.  Every failure becomes an ApiError carrying the server's message.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(method, path, body, { text = false } = {}) {
  let res;
  try {
    res = await fetch(`/api${path}`, {
      method,
      headers: body !== undefined ? { 'content-type': 'application/json' } : {},
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    throw new ApiError(0, `cannot reach the server (${e.message})`);
  }
  const raw = await res.text();
  if (!res.ok) {
    let msg = raw;
    try {
      const j = JSON.parse(raw);
      if (j && j.error) msg = j.error;
    } catch {
      /* not JSON: keep the text */
    }
    throw new ApiError(res.status, `${msg || res.statusText} (HTTP ${res.status})`);
  }
  if (text) return raw;
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    throw new ApiError(res.status, 'the server sent something that is not JSON');
  }
}

export const api = {
  variants: () => request('GET', '/variants'),
  games: (limit = 20) => request('GET', `/games?limit=${limit}`),
  game: (id, token) => request('GET', `/games/${encodeURIComponent(id)}${token ? `?token=${encodeURIComponent(token)}` : ''}`),
  create: (body) => request('POST', '/games', body),
  import: (body) => request('POST', '/import', body),
  move: (id, token, move) => request('POST', `/games/${encodeURIComponent(id)}/moves`, { move, token }),
  resign: (id, token) => request('POST', `/games/${encodeURIComponent(id)}/resign`, { token }),
  draw: (id, token, action) => request('POST', `/games/${encodeURIComponent(id)}/draw`, { token, action }),
  takeback: (id, token, action) => request('POST', `/games/${encodeURIComponent(id)}/takeback`, { token, action }),
  rematch: (id, token, action) => request('POST', `/games/${encodeURIComponent(id)}/rematch`, { token, action }),
  pgn: (id) => request('GET', `/games/${encodeURIComponent(id)}/pgn`, undefined, { text: true }),
  analysis: (body) => request('POST', '/analysis', body),
  position: (body) => request('POST', '/position', body),
  puzzles: (variant) => request('GET', `/puzzles/${encodeURIComponent(variant)}`),
  puzzleMove: (variant, number, moves) => request('POST', `/puzzles/${encodeURIComponent(variant)}/${number}`, { moves }),
  pieceMoves: (variant, piece, cell) => request('GET', `/piece-moves?${new URLSearchParams({ variant, piece, cell })}`),
  analysisStreamUrl: ({ variant, fen, lines }) => `/api/analysis/stream?${new URLSearchParams({ variant, fen, lines })}`,
  eventsUrl: (id) => `/api/games/${encodeURIComponent(id)}/events`,
};
