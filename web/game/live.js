// The event stream of one game (Server-Sent Events), reconnecting with backoff when it drops.

import { api } from '../api.js';
import { notify } from '../ui.js';

export class Live {
  constructor(id, onState, onStatus) {
    this.id = id;
    this.onState = onState;
    this.onStatus = onStatus;
    this.es = null;
    this.retry = 500;
    this.closed = false;
    this.timer = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const es = new EventSource(api.eventsUrl(this.id));
    this.es = es;
    this.onStatus('connecting');
    es.onopen = () => {
      this.retry = 500;
      this.onStatus('live');
    };
    es.addEventListener('state', (e) => {
      this.retry = 500;
      this.onStatus('live');
      let g;
      try {
        g = JSON.parse(e.data);
      } catch (err) {
        notify(`Bad update from the server: ${err.message}`);
        return;
      }
      this.onState(g);
    });
    es.onerror = () => {
      if (this.closed) return;
      this.onStatus('reconnecting');
      // The browser retries by itself while CONNECTING; once CLOSED it is up to us.
      if (es.readyState === EventSource.CLOSED) {
        es.close();
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.connect(), this.retry);
        this.retry = Math.min(this.retry * 2, 10000);
      }
    };
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.es) this.es.close();
  }
}
