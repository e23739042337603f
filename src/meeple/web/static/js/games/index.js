// The drawing module of each game: it exports draw(container, ctx) that draws the sheets as SVG
// from ctx.layout (what never changes) and ctx.board (the game's part of the view), lights
// ctx.lit (the legal moves) and calls ctx.choose(move) on a click. The server's game list
// (/api/games, from the registry) gives each game's module URL as `drawing`, so no list of games
// is kept here. A game without one is shown as its terminal drawing in plain text.

let listing = null;

// The server's game list, asked once a page.
function gameList() {
  listing ??= fetch("/api/games")
    .then((res) => (res.ok ? res.json() : []))
    .catch(() => []);
  return listing;
}

export async function loadDrawing(game) {
  const found = (await gameList()).find((g) => g.name === game);
  if (!found || !found.drawing) return null;
  try {
    return await import(found.drawing);
  } catch (err) {
    console.warn(`no drawing for ${game}`, err);
    return null;
  }
}
