// A seek of this page's (POST /api/board/seek).  A real-time seek lives as long as its request:
// the answer streams until the seek is paired (then it ends, and the account's gameStart
// takes the page to the game: arrivals.js), and leaving (cancel, another page) aborts it, which
// takes the seek out of the lobby.  A correspondence seek answers its id at once and waits in
// the lobby until someone takes it (or its player cancels it there).

import { api } from '../api.js';
import { notify } from '../ui.js';
import { seekWaits } from './arrivals.js';

export class Seeking {
  // onChange(current): current is { key, body, label } while a real-time seek waits, else null.
  // onCancel(): after this page stops its seek (the lobby takes it out at once).
  constructor(onChange, onCancel = () => {}) {
    this.onChange = onChange;
    this.onCancel = onCancel;
    this.current = null;
  }

  // key: which control made it; label: the seek in words.
  async start(body, key, label) {
    this.cancel();
    const done = seekWaits();
    if (body.days) {
      try {
        await (await api.seek(body)).json();
        notify('Your seek waits in the lobby: the game opens when someone accepts it.', 'info', { name: 'seek-waits' });
      } catch (e) {
        notify(`Could not create the seek: ${e.message}`);
      }
      done();
      return;
    }
    const me = { key, body, label, controller: new AbortController() };
    this.current = me;
    this.onChange(me);
    try {
      const res = await api.seek(body, me.controller.signal);
      await res.text(); // ends when the seek is paired (or gone)
      done();
    } catch (e) {
      done(0);
      if (e.name !== 'AbortError') notify(`The seek ended: ${e.message}`);
    }
    if (this.current === me) {
      this.current = null;
      this.onChange(null);
    }
  }

  cancel() {
    const me = this.current;
    if (!me) return;
    this.current = null;
    me.controller.abort();
    this.onChange(null);
    this.onCancel();
  }
}
