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

// The response of a request, once its head has come (a streamed answer goes on arriving);
// a refusal becomes an ApiError with the server's message.  `signal`: an AbortController's.
export async function respond(method, path, body, { signal, accept } = {}) {
  let res;
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (accept) headers.accept = accept;
  try {
    res = await fetch(`/api${path}`, { method, headers, body: body !== undefined ? JSON.stringify(body) : undefined, signal });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, `cannot reach the server (${e.message})`);
  }
  if (!res.ok) {
    const raw = await res.text();
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
  return res;
}

// Reads an NDJSON body a line at a time as it arrives: onLine(object) for each JSON line
// (empty lines are keep-alives).  Resolves when the body ends.
export async function readLines(res, onLine) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) onLine(JSON.parse(line));
    }
  }
  if (buffer.trim()) onLine(JSON.parse(buffer));
}

async function request(method, path, body, { text = false } = {}) {
  const res = await respond(method, path, body);
  const raw = await res.text();
  if (text) return raw;
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    throw new ApiError(res.status, 'the server sent something that is not JSON');
  }
}

const gamePath = (id) => `/games/${encodeURIComponent(id)}`;
const tourPath = (id) => `/tournament/${encodeURIComponent(id)}`;
// An NDJSON answer read whole: its lines' objects.
const ndjson = async (path) => (await request('GET', path, undefined, { text: true })).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
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
  eventsUrl: (id) => `/api${gamePath(id)}/events`,
  berserk: (id, token) => request('POST', `${gamePath(id)}/berserk`, byToken(token)),
  // Tournaments (lichess's arena endpoints, and round robins) and TV.
  tournaments: () => request('GET', '/tournament'),
  tournament: (id, page = 1) => request('GET', `${tourPath(id)}?page=${page}`),
  createTournament: (body) => request('POST', '/tournament', body),
  joinTournament: (id) => request('POST', `${tourPath(id)}/join`, {}),
  withdrawTournament: (id) => request('POST', `${tourPath(id)}/withdraw`, {}),
  tournamentResults: (id) => ndjson(`${tourPath(id)}/results`),
  tournamentGames: (id) => ndjson(`${tourPath(id)}/games`),
  tournamentStreamUrl: (id) => `/api${tourPath(id)}/stream`,
  tvChannels: () => request('GET', '/tv/channels'),
  // The account's event stream (NDJSON): a tournament player is online while it is open.
  accountEventsUrl: () => '/api/stream/event',
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
  // Meeting (lichess's shapes): the lobby's seeks, challenges, the games being played, bots.
  lobbySeeks: () => request('GET', '/lobby/seeks'),
  lobbyStreamUrl: () => '/api/lobby/stream',
  seek: (body, signal) => respond('POST', '/board/seek', body, { signal }),
  acceptSeek: (id) => request('POST', `/lobby/seeks/${encodeURIComponent(id)}/accept`),
  cancelSeek: (id) => request('DELETE', `/lobby/seeks/${encodeURIComponent(id)}`),
  challenge: (username, body) => request('POST', `/challenge/${username ? encodeURIComponent(username) : 'open'}`, body),
  challenges: () => request('GET', '/challenge'),
  showChallenge: (id) => request('GET', `/challenge/${encodeURIComponent(id)}/show`),
  acceptChallenge: (id) => request('POST', `/challenge/${encodeURIComponent(id)}/accept`),
  declineChallenge: (id, reason) => request('POST', `/challenge/${encodeURIComponent(id)}/decline`, { reason }),
  cancelChallenge: (id) => request('POST', `/challenge/${encodeURIComponent(id)}/cancel`),
  accountEvents: (signal) => respond('GET', '/stream/event', undefined, { signal }),
  playing: (nb = 50) => request('GET', `/account/playing?nb=${nb}`),
  async botsOnline(nb = 50) {
    const bots = [];
    await readLines(await respond('GET', `/bot/online?nb=${nb}`, undefined, { accept: 'application/x-ndjson' }), (u) => bots.push(u));
    return bots;
  },
};
