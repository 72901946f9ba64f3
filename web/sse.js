// A Server-Sent Events feed of JSON messages, reconnecting with backoff when it drops (a
// game's events, the lobby's seeks, a tournament's changes).  `handlers` maps each event name
// to the function its data goes to; onStatus: 'connecting', 'live', 'reconnecting'.  `url` is
// a function when the address may change between connections.

import { notify } from './ui.js';

export class EventFeed {
  constructor(url, handlers, onStatus = () => {}) {
    Object.assign(this, { url, handlers, onStatus });
    this.es = null;
    this.retry = 500;
    this.closed = false;
    this.timer = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const es = new EventSource(typeof this.url === 'function' ? this.url() : this.url);
    this.es = es;
    this.onConnect();
    this.onStatus('connecting');
    es.onopen = () => {
      this.retry = 500;
      this.onStatus('live');
    };
    for (const [event, handler] of Object.entries(this.handlers)) {
      es.addEventListener(event, (e) => {
        this.retry = 500;
        this.onStatus('live');
        let data;
        try {
          data = JSON.parse(e.data);
        } catch (err) {
          notify(`Bad update from the server: ${err.message}`);
          return;
        }
        handler(data);
      });
    }
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

  // Called at each (re)connection, before its first event: a subclass forgets what the last
  // connection told it.
  onConnect() {}

  // Connects again at once (the address has changed, or the feed is out of step).
  restart() {
    if (this.es) this.es.close();
    clearTimeout(this.timer);
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.es) this.es.close();
  }
}
