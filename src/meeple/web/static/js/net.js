// The table's WebSocket: says hello on every (re)connection, and reconnects by itself after a
// dropped connection or a server restart (waiting 0.5 s, then longer, at most 5 s).
//
// A request (a preview or a move: a frame the page waits on) is remembered until the page
// calls settle() on its reply. If the connection drops first, the request is sent again right
// after the next hello, so a click is never lost and the page never waits for a reply that
// cannot come. The server makes resending safe: a preview changes nothing, and a move carries
// an id that the server recognises if it was already played. If no reply comes on a live
// connection within replyTimeout (15 s; a page may set globalThis.meepleReplyTimeout), the
// connection is taken as dead and made anew; after 3 sends without a reply the request is given
// up and onGiveUp(frame) tells the page.

const MAX_SENDS = 3;

export class Connection {
  constructor(path, { hello, onFrame, onState, onGiveUp }) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
    this.hello = hello;
    this.onFrame = onFrame;
    this.onState = onState || (() => {});
    this.onGiveUp = onGiveUp || (() => {});
    this.delay = 500;
    this.queue = [];
    this.awaiting = null;  // {frame, sends}: the request whose reply has not come yet
    this.timer = null;
    this.open();
  }

  get replyTimeout() { return globalThis.meepleReplyTimeout || 15000; }

  open() {
    this.onState("connecting…");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      ws.send(JSON.stringify(this.hello()));
      this.onState("connected");
      for (const f of this.queue.splice(0)) ws.send(JSON.stringify(f));
      if (this.awaiting) this.sendAwaited();
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;  // a connection already given up
      let frame;
      try { frame = JSON.parse(ev.data); } catch { return; }
      this.onFrame(frame);
    };
    ws.onclose = () => this.lost(ws);
  }

  // the connection ws is gone (closed, or taken as dead): make a new one after a while
  lost(ws) {
    if (this.ws !== ws) return;
    this.ws = null;
    this.stopTimer();
    this.onState("reconnecting…");
    setTimeout(() => this.open(), this.delay);
    this.delay = Math.min(5000, this.delay * 2);
  }

  isOpen() { return this.ws && this.ws.readyState === WebSocket.OPEN; }

  send(frame) {
    if (this.isOpen()) this.ws.send(JSON.stringify(frame));
    else this.queue.push(frame);
  }

  // send a frame the page waits on; it is sent again after a reconnect until settle()
  request(frame) {
    this.awaiting = { frame, sends: 0 };
    if (this.isOpen()) this.sendAwaited();  // else: sent after the next hello
  }

  // the reply to the request has come
  settle() {
    this.awaiting = null;
    this.stopTimer();
  }

  sendAwaited() {
    const a = this.awaiting;
    if (a.sends >= MAX_SENDS) {
      this.settle();
      this.onGiveUp(a.frame);
      return;
    }
    a.sends += 1;
    this.ws.send(JSON.stringify(a.frame));
    this.stopTimer();
    const ws = this.ws;
    this.timer = setTimeout(() => {
      // no reply on a connection that looks open: take it as dead and reconnect (resends)
      if (this.awaiting !== a || this.ws !== ws) return;
      this.lost(ws);
      ws.close();
    }, this.replyTimeout);
  }

  stopTimer() {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
