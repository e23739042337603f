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
//
// The hello asks for updates: after the first whole view, each new version comes as what
// changed (an "update" frame, JSON Patch against the version this connection holds). The
// connection applies it and hands the page a whole "view" frame as before; an update that does
// not fit the view held (it cannot happen on one ordered connection) reconnects for a whole one.
// It also asks for preview answers as patches of the view held (preview_updates: applied here,
// so the page gets whole views), for its own accepted move acknowledged inside the view frame
// of the new version (merged_ack: the frame's "ack"; one frame, one redraw), and for the
// forced decisions that open its turn previewed by the server unasked (opening: a preview
// frame with "opening": true right after the view).

const MAX_SENDS = 3;

export class Connection {
  constructor(path, { hello, onFrame, onState, onGiveUp, onClose }) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
    this.hello = hello;
    this.onFrame = onFrame;
    this.onState = onState || (() => {});
    this.onGiveUp = onGiveUp || (() => {});
    this.onClose = onClose || (() => {});  // (code, reason): the server closed the socket
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
      this.held = null;  // {version, view}: the last whole view, that updates apply to
      ws.send(JSON.stringify({ ...this.hello(), updates: true, preview_updates: true,
        merged_ack: true, opening: true }));
      this.onState("connected");
      for (const f of this.queue.splice(0)) ws.send(JSON.stringify(f));
      if (this.awaiting) this.sendAwaited();
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;  // a connection already given up
      let frame;
      try { frame = JSON.parse(ev.data); } catch { return; }
      if (frame.type === "update" || (frame.type === "preview" && frame.patch)) {
        frame = frame.type === "update" ? this.updated(frame) : this.previewed(frame);
        if (!frame) { ws.close(); this.lost(ws); return; }
      } else if (frame.type === "view") {
        this.held = { version: frame.version, view: frame.view };
      }
      this.onFrame(frame);
    };
    ws.onclose = (ev) => {
      if (this.ws === ws) this.onClose(ev.code, ev.reason);
      this.lost(ws);
    };
  }

  // the whole view frame an update frame makes of the view held, or null if it does not fit
  updated(frame) {
    if (!this.held || this.held.version !== frame.base) return null;
    let view;
    try { view = applyPatch(this.held.view, frame.patch); } catch { return null; }
    this.held = { version: frame.version, view };
    const whole = { type: "view", version: frame.version, view };
    if (frame.forced) whole.forced = frame.forced;
    if (frame.ack) whole.ack = frame.ack;
    return whole;
  }

  // the whole preview frame a patched preview makes of the view held (its base), or null
  previewed(frame) {
    if (!this.held || this.held.version !== frame.base) return null;
    let view;
    try { view = applyPatch(this.held.view, frame.patch); } catch { return null; }
    const whole = { ...frame, view };
    delete whole.patch;
    return whole;
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

// JSON Patch (RFC 6902) as the server sends it: add, replace and remove (meeple.core.delta);
// returns a new document, and throws on an operation that does not fit
export function applyPatch(doc, ops) {
  const out = structuredClone(doc);
  let root = out;
  for (const { op, path, value } of ops) {
    if (path === "") { root = structuredClone(value); continue; }
    const keys = path.slice(1).split("/").map((k) => k.replaceAll("~1", "/").replaceAll("~0", "~"));
    const last = keys.pop();
    let target = root;
    for (const k of keys) {
      if (target === null || typeof target !== "object" || !(k in target)) throw new Error(path);
      target = target[k];
    }
    if (Array.isArray(target)) {
      if (op === "add" && last === "-") target.push(structuredClone(value));
      else {
        const i = Number(last);
        if (!Number.isInteger(i) || i < 0 || i >= target.length) throw new Error(path);
        if (op === "remove") target.splice(i, 1);
        else if (op === "replace") target[i] = structuredClone(value);
        else target.splice(i, 0, structuredClone(value));
      }
    } else if (target !== null && typeof target === "object") {
      if (op === "remove") {
        if (!(last in target)) throw new Error(path);
        delete target[last];
      } else target[last] = structuredClone(value);
    } else throw new Error(path);
  }
  return root;
}
