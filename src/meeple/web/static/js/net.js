// The table's WebSocket: says hello on every (re)connection, and reconnects by itself after a
// dropped connection or a server restart (waiting 0.5 s, then longer, at most 5 s).

export class Connection {
  constructor(path, { hello, onFrame, onState }) {
    this.url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${path}`;
    this.hello = hello;
    this.onFrame = onFrame;
    this.onState = onState || (() => {});
    this.delay = 500;
    this.queue = [];
    this.open();
  }

  open() {
    this.onState("connecting…");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      ws.send(JSON.stringify(this.hello()));
      this.onState("connected");
      for (const f of this.queue.splice(0)) ws.send(JSON.stringify(f));
    };
    ws.onmessage = (ev) => {
      let frame;
      try { frame = JSON.parse(ev.data); } catch { return; }
      this.onFrame(frame);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.onState("reconnecting…");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(5000, this.delay * 2);
    };
  }

  send(frame) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
    else this.queue.push(frame);
  }
}
