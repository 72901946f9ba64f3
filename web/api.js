// The JSON API of docs/api.md.  Every failure becomes an ApiError carrying the server's message.

export class ApiError extends Error {
  // `detail`: the server's own message alone; `retryAfter`: its Retry-After, in seconds (429).
  constructor(status, message, { detail = message, retryAfter = null } = {}) {
    super(message);
    this.status = status;
    this.detail = detail;
    this.retryAfter = retryAfter;
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
    const retryAfter = Number(res.headers.get('retry-after')) || null;
    throw new ApiError(res.status, `${msg || res.statusText} (HTTP ${res.status})`, { detail: msg || res.statusText, retryAfter });
  }
  if (text) return raw;
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    throw new ApiError(res.status, 'the server sent something that is not JSON');
  }
}

const gamePath = (id) => `/games/${encodeURIComponent(id)}`;
// A player's request names their game token when this browser has one; a player seated by
// their account needs none (the session cookie says who they are), and a null token is refused.
const byToken = (token, fields = {}) => (token ? { ...fields, token } : fields);

export const api = {
  variants: () => request('GET', '/variants'),
  games: (limit = 20) => request('GET', `/games?limit=${limit}`),
  game: (id, token) => request('GET', `${gamePath(id)}${token ? `?token=${encodeURIComponent(token)}` : ''}`),
  create: (body) => request('POST', '/games', body),
  import: (body) => request('POST', '/import', body),
  move: (id, token, move) => request('POST', `${gamePath(id)}/moves`, byToken(token, { move })),
  resign: (id, token) => request('POST', `${gamePath(id)}/resign`, byToken(token)),
  abort: (id, token) => request('POST', `${gamePath(id)}/abort`, byToken(token)),
  join: (id, invite) => request('POST', `${gamePath(id)}/join`, { invite }),
  draw: (id, token, action) => request('POST', `${gamePath(id)}/draw`, byToken(token, { action })),
  takeback: (id, token, action) => request('POST', `${gamePath(id)}/takeback`, byToken(token, { action })),
  rematch: (id, token, action) => request('POST', `${gamePath(id)}/rematch`, byToken(token, { action })),
  pgn: (id) => request('GET', `${gamePath(id)}/pgn`, undefined, { text: true }),
  analysis: (body) => request('POST', '/analysis', body),
  position: (body) => request('POST', '/position', body),
  puzzles: (variant) => request('GET', `/puzzles/${encodeURIComponent(variant)}`),
  puzzleMove: (variant, number, moves) => request('POST', `/puzzles/${encodeURIComponent(variant)}/${number}`, { moves }),
  pieceMoves: (variant, piece, cell) => request('GET', `/piece-moves?${new URLSearchParams({ variant, piece, cell })}`),
  analysisStreamUrl: ({ variant, fen, lines }) => `/api/analysis/stream?${new URLSearchParams({ variant, fen, lines })}`,
  eventsUrl: (id, token) => `/api${gamePath(id)}/events${token ? `?token=${encodeURIComponent(token)}` : ''}`,
  // Accounts: the session is an HttpOnly cookie that the browser sends by itself.
  signup: (username, password) => request('POST', '/auth/signup', { username, password }),
  login: (username, password) => request('POST', '/auth/login', { username, password }),
  logout: () => request('POST', '/auth/logout'),
  account: () => request('GET', '/account'),
  changePassword: (old, password) => request('POST', '/account/password', { old, new: password }),
  closeAccount: (password) => request('POST', '/account/close', { password }),
  tokens: () => request('GET', '/account/tokens'),
  createToken: (description) => request('POST', '/account/tokens', { description }),
  revokeToken: (id) => request('DELETE', `/account/tokens/${encodeURIComponent(id)}`),
  // Players: profiles, rating histories, their games, the leaderboards.
  user: (name) => request('GET', `/user/${encodeURIComponent(name)}`),
  ratingHistory: (name) => request('GET', `/user/${encodeURIComponent(name)}/rating-history`),
  userGames: (name, max, until) => request('GET', `/games/user/${encodeURIComponent(name)}?${new URLSearchParams(until ? { max, until } : { max })}`),
  top: (count, variant) => request('GET', `/player/top/${count}/${encodeURIComponent(variant)}`),
};
