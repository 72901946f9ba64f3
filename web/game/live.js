// The event stream of one game (Server-Sent Events of its states), reconnecting with backoff
// when it drops.

import { api } from '../api.js';
import { EventFeed } from '../sse.js';

export class Live extends EventFeed {
  constructor(id, onState, onStatus) {
    super(api.eventsUrl(id), 'state', onState, onStatus);
  }
}
