// The trivial game both sides of the comparison would agree on: two players take turns, one
// move a turn, the move adds one to a counter. Run on the server only (client: false), so a
// client's state changes only when the server's update comes back: the round trip we time.
module.exports.Counter = {
  name: "counter",
  setup: () => ({ n: 0 }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: { play: { move: ({ G }) => { G.n += 1; }, client: false } },
};
