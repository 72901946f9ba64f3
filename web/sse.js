// A Server-Sent Events feed of JSON messages of one event name, reconnecting with backoff
// when it drops (a game's events, the lobby's seeks).  onStatus: 'connecting', 'live',
// 'reconnecting'.

import { notify } from './ui.js';

export class EventFeed {
  constructor(url, event, onData, onStatus = () => {}) {
    Object.assign(this, { url, event, onData, onStatus });
    this.es = null;
    this.retry = 500;
    this.closed = false;
    this.timer = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const es = new EventSource(this.url);
    this.es = es;
    this.onStatus('connecting');
    es.onopen = () => {
      this.retry = 500;
      this.onStatus('live');
    };
    es.addEventListener(this.event, (e) => {
      this.retry = 500;
      this.onStatus('live');
      let data;
      try {
        data = JSON.parse(e.data);
      } catch (err) {
        notify(`Bad update from the server: ${err.message}`);
        return;
      }
      this.onData(data);
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
