// The drawing module of each game: games/<name>.js exports draw(container, ctx) that draws the
// sheets as SVG from ctx.layout (what never changes) and ctx.board (the game's part of the
// view), lights ctx.lit (the legal moves) and calls ctx.choose(move) on a click.
// A game without one is shown as its terminal drawing in plain text.
const KNOWN = new Set(["gardens", "reefs", "takenokolor", "pergola"]);

export async function loadDrawing(game) {
  if (!KNOWN.has(game)) return null;
  try {
    return await import(`./${game}.js`);
  } catch (err) {
    console.warn(`no drawing for ${game}`, err);
    return null;
  }
}
