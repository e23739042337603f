// The clients of the comparison: T matches of two socket.io clients each (boardgame.io's own
// client), each making its move as soon as the server's state says it is its turn, for S
// seconds; prints one JSON line: moves, seconds, round trips (move sent -> the server's new
// state back) and this process's CPU seconds.
//   node load.cjs PORT TABLES SECONDS
const { Client } = require("boardgame.io/client");
const { SocketIO } = require("boardgame.io/multiplayer");
const { Counter } = require("./game.cjs");

const [port, tables, seconds] = process.argv.slice(2).map(Number);
const base = `http://127.0.0.1:${port}`;

async function post(path, body) {
  const r = await fetch(base + path, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return r.json();
}

async function main() {
  const seats = [];
  for (let t = 0; t < tables; t++) {
    const { matchID } = await post("/games/counter/create", { numPlayers: 2 });
    for (const playerID of ["0", "1"]) {
      const { playerCredentials } = await post(`/games/counter/${matchID}/join`,
        { playerID, playerName: `p${playerID}` });
      seats.push({ matchID, playerID, credentials: playerCredentials });
    }
  }
  const rtts = [];
  let moves = 0;
  let running = false;
  let start = 0;
  const over = () => performance.now() > start + seconds * 1000;
  const clients = seats.map(({ matchID, playerID, credentials }) => {
    const client = Client({ game: Counter, multiplayer: SocketIO({ server: base }), matchID, playerID,
      credentials, debug: false });
    let sentAt = null;
    let seen = -1;
    const turn = (state) => {  // this player's move, if it is to move and has none on its way
      if (running && !over() && sentAt === null && state && state.ctx.currentPlayer === playerID) {
        sentAt = performance.now();
        client.moves.play();
      }
    };
    client.subscribe((state) => {
      if (!state || state._stateID === seen) return;
      seen = state._stateID;
      if (sentAt !== null) { rtts.push(performance.now() - sentAt); sentAt = null; moves++; }
      turn(state);
    });
    client.start();
    return { client, turn };
  });
  await new Promise((resolve) => setTimeout(resolve, 3000));  // every client connected and synced
  const cpu0 = process.cpuUsage();
  start = performance.now();
  running = true;
  for (const { client, turn } of clients) turn(client.getState());  // the first move of each match
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  running = false;
  const elapsed = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  for (const { client } of clients) client.stop();
  rtts.sort((a, b) => a - b);
  const q = (f) => (rtts.length ? rtts[Math.min(rtts.length - 1, Math.floor(rtts.length * f))] : NaN);
  console.log(JSON.stringify({ moves, seconds: elapsed, p50: q(0.5), p99: q(0.99),
    cpu: (cpu.user + cpu.system) / 1e6 }));
  process.exit(0);
}

main().catch((e) => { console.error(e); process.exit(1); });
