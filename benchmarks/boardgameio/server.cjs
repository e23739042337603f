// boardgame.io's own Node server (Koa + socket.io) with the trivial game, on 127.0.0.1 only.
//   node server.cjs PORT memory|flatfile [DIR]
const { Server, FlatFile } = require("boardgame.io/server");
const { Counter } = require("./game.cjs");

const [port, storage, dir] = process.argv.slice(2);
const db = storage === "flatfile" ? new FlatFile({ dir, logging: false }) : undefined;
const server = Server({ games: [Counter], db, origins: ["http://127.0.0.1"] });
const listen = server.app.listen.bind(server.app);
server.app.listen = (p, callback) => listen(p, "127.0.0.1", callback);  // never all interfaces
server.run(Number(port), () => console.log(`boardgame.io serving on 127.0.0.1:${port} (${storage})`));
