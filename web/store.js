// The secrets this browser holds for its games (the creator's token, the invite to pass on).

const KEY = (id) => `starfish:game:${id}`;

export function saveGame(id, rec) {
  try {
    localStorage.setItem(KEY(id), JSON.stringify(rec));
  } catch {
    /* private mode: the game still works in this tab through its URL */
  }
}

export function loadGame(id) {
  try {
    return JSON.parse(localStorage.getItem(KEY(id)) || 'null');
  } catch {
    return null;
  }
}
