"""The ``mcts`` bot: information-set Monte Carlo tree search over whole turns.

Each iteration

1. **determinises** the seat's view: ``view.sample_hidden(seat, rng)`` gives a full state
   consistent with what the seat sees (perfect-information games return a copy), so the bot
   never reads the true hidden state;
2. **descends** an open-loop tree whose edges are whole turns (the moves of one seat's turn;
   where a seat has more than ``turns`` whole turns, one decision at a time instead; at the
   root up to ``root_turns`` whole turns are listed, so greedy's best turn is a candidate).
   At each node the game's evaluation (:mod:`meeple.bots.evaluation`) ranks the turns of the
   seat to move and the best ``top`` become the candidate edges; edges are chosen by UCB1 plus a
   progressive bias towards the evaluation's favourites (``bias`` x prior / (visits + 1)), an
   unvisited edge in rank order first. Chance (rolls, draws) is sampled from
   ``chance_outcomes()`` with the bot's own generator and is not part of the tree, so a node
   stands for "this sequence of decisions, whatever the dice said": a cached candidate that is
   not legal in this determinisation is skipped for this iteration, and new candidates are
   added when none is legal (the availability idea of SO-ISMCTS). With ``crn=1`` the chance
   after a root turn is drawn from a stream keyed by that turn's visit count (common random
   numbers): the k-th trial of every root turn sees the same luck. It is off by default (in
   100-game trials in Reefs level 2 and Takenokolor 2-pandas it changed nothing measurable)
   but in Pergola (solo, three and four seats), where with greedy replies the tools and
   leaves drawn are the only chance. With ``chance=closed`` the tree branches on chance
   instead (an expectimax tree: a child per outcome drawn after a turn); with ``diverse=1`` a
   node's candidates include the best turn of every distinct first decision (off by default:
   no measurable change in trials; on in Pergola solo and at three and four seats with
   ``top=4``, so the root compares one turn per tool on the board).
   Where another seat moves, a node lists only its ``replies`` best turns (default: 1 with
   three or more seats, so the search reaches the seat's own next turns; ``top`` otherwise).
   With ``sync=1`` the tree goes straight through the other seats' nodes, so leaves fall only
   where the searching seat moves (off: it costs more iterations than it gains, in trials).
   With ``others=greedy`` the other seats are not part of the tree at all: in every
   determinisation each plays greedy's whole turn for the dice it has, so the tree holds only
   the searching seat's decisions and every leaf is a position where it is to move (on by
   default in Pergola at two, three and four seats, with ``beam=4``, and in Takenokolor at
   three and four seats; Pergola's solo games take ``beam=4`` without it: see
   :data:`GAME_DEFAULTS` and docs/strength.md);
3. **rolls out** from the leaf for ``horizon`` more seat turns (``horizon=-1``: to the end of
   the game), chance sampled the same way, by the ``rollout`` policy: ``random`` atomic
   decisions, or ``greedy`` whole turns (each seat's best turn by the evaluation); by default
   no rollout, but at four seats on Takenokolor's 4-pandas-dragon sheet and on Reefs level 1
   one round of greedy turns (``rollout=greedy;horizon=4``), and on Reefs level 2 two
   rounds at three seats (``rollout=greedy;horizon=6``) and one at four (with
   ``versus=each``; all :data:`SHEET_DEFAULTS`); and in Pergola at three and four seats the
   searching seat's own greedy turn after the other seats' greedy replies
   (``rollout=greedy;horizon=1``: a root turn is judged by the best next turn the replies
   leave it), and in solo games after the neighbour's discard;
4. **scores** the result for every seat: a finished game gives half the win share (ties share,
   A4) plus half a logistic of the score margin over the best other seat; an unfinished one
   the logistic of the evaluation margin (``scale`` points per unit). With ``versus=each``
   (Takenokolor's default at three and four seats) the margin is taken against each other
   seat in turn and the rewards averaged (not at three seats on the 4-pandas-dragon sheet:
   :data:`SHEET_DEFAULTS`). Solo games use the rise
   of the evaluation over the root's, less the mean rise of the leaves so far at the same depth
   (``ref=depth``, the solo default: a solo score only grows, so deeper leaves would otherwise
   look better for their depth alone).

The move played is the most visited root turn (ties: the better mean, then the better
rank); with ``sure=Z``, the evaluation's favourite unless another root turn's mean reward is
better by more than Z standard errors. The whole turn is then kept as a plan and replayed
decision by decision.

Budget: ``iterations`` (default 1000: 0.1-0.6 s per turn on this project's machines, see
docs/strength.md) and/or ``seconds`` (a cap on the whole decision); with an iteration budget
only, a seed gives the same decisions on every machine. Under a cap the listings of whole
turns watch the clock too: the root's listing may take :data:`ROOT_LISTING_SHARE` of it (past
that, the root decides the turn's first decision only and the next decision searches again),
and an iteration whose listing passes the cap is dropped, so a Pergola position with thousands
of whole turns cannot hold a decision far beyond its second.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Sequence
from typing import Any

from meeple.bots.base import Bot, register_bot
from meeple.bots.evaluation import choose_evaluation, ranked_turns, turn_ranker_for
from meeple.bots.greedy import Planner
from meeple.core.errors import IllegalMove
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, State
from meeple.core.turns import OutOfTime, beam_turns, expand_turns

#: Per-game defaults for options a spec does not give (a dict value holds for the numbers of
#: seats it names). Each was adopted because it measured stronger against ``greedy`` on fresh
#: seeds: no progressive bias in Reefs; in Pergola the other seats played as greedy's turn with
#: a beam of width 4 for the inner listings, and at one, three and four seats the seat's own
#: greedy next turn before a leaf is judged, common random numbers and one root candidate per
#: tool; in Takenokolor at three and four seats greedy's turn for the other seats and leaves
#: judged against each other seat in turn. docs/strength.md has the current strength of these
#: defaults; docs/research/mcts-options-history.md how each was found.
GAME_DEFAULTS: dict[str, dict[str, Any]] = {
    "reefs": {"bias": 0.0},
    "pergola": {"beam": {1: 4, 2: 4, 3: 4, 4: 4}, "others": {2: "greedy", 3: "greedy", 4: "greedy"},
                "rollout": {1: "greedy", 3: "greedy", 4: "greedy"}, "horizon": {1: 1, 3: 1, 4: 1},
                "crn": {1: 1, 3: 1, 4: 1}, "diverse": {1: 1, 3: 1, 4: 1}, "top": {1: 4, 3: 4, 4: 4}},
    "takenokolor": {"others": {3: "greedy", 4: "greedy"}, "versus": {3: "each", 4: "each"}},
}

#: Per-sheet exceptions to :data:`GAME_DEFAULTS`: game, then the name of the sheet in play (a
#: state's ``sheet_data()["name"]``), then options as in :data:`GAME_DEFAULTS`; they win over
#: the game's defaults, and a spec's own options win over both. A sheet a user writes under
#: another name plays the game's defaults. Takenokolor's 4-pandas-dragon sheet keeps
#: ``versus=best`` at three seats (``each`` did not separate from greedy there) and at four
#: seats rolls each leaf out one more round with greedy turns (its races, the dragon and the
#: fireworks, are decided by who gets there first); Reefs level 1 (``small-ocean``) does the
#: same at four seats, and Reefs level 2 (``the-whirlpools``: whirlpools move a pencil far in
#: one turn) rolls out two rounds at three seats and one at four, judged against each other
#: seat in turn. Measurements: docs/strength.md and docs/research/mcts-options-history.md.
SHEET_DEFAULTS: dict[str, dict[str, dict[str, Any]]] = {
    "takenokolor": {"4-pandas-dragon": {"versus": {3: "best"}, "rollout": {4: "greedy"},
                                        "horizon": {4: 4}}},
    "reefs": {"small-ocean": {"rollout": {4: "greedy"}, "horizon": {4: 4}},
              "the-whirlpools": {"rollout": {3: "greedy", 4: "greedy"}, "horizon": {3: 6, 4: 4},
                                 "versus": {4: "each"}}},
}

_UNSET = object()


def sheet_name(state: State[Any]) -> str | None:
    """The name of the sheet a state is played on (its ``sheet_data()["name"]``), if it has
    one: what :data:`SHEET_DEFAULTS` is keyed by."""
    name = state.sheet_data().get("name")
    return name if isinstance(name, str) else None


#: Rollout policies: ``random`` (a uniformly random decision at a time) or ``greedy`` (each
#: seat plays the whole turn its evaluation likes best, as the ``greedy`` bot would).
ROLLOUT_POLICIES = ("random", "greedy")

#: How the tree treats chance between decisions: ``open`` (one node per sequence of decisions,
#: whatever the dice said) or ``closed`` (a child per chance outcome: an expectimax tree, where
#: the reply to each roll or draw is searched on its own).
CHANCE_TREES = ("open", "closed")

#: What a leaf is judged against. ``root``: a seat's margin over the best other seat (solo:
#: its evaluation over the root's). ``depth``: that margin less the mean margin of the leaves
#: seen so far at the same number of turns past the root. Leaves end at different depths, and
#: depth alone moves the margin: right after a seat's own turn it is ahead by that turn's gain,
#: after the reply it is not, and a solo score only grows (so its logistic saturates). Judged
#: against their own depth, turns are compared on what they do, not on how deep the tree
#: under them happens to be. The default is ``depth`` in solo games (against greedy in
#: Pergola's solo challenges: 52.9 % of 240 seeds, level, instead of 36 % of 80, below) and
#: ``root`` with two or more seats (no measurable change in 100-200-game trials in Reefs,
#: Takenokolor and Pergola).
REFERENCES = ("root", "depth")

#: The share of a ``seconds`` cap the root's listing of whole turns may take. Past it the root
#: lists single decisions instead (as an inner node does where whole turns are too many), so
#: the search still has the rest of the second. Greedy's full listings take 0.3 s at the
#: median and up to 0.8 s in Pergola (docs/strength.md), so this bites only in the rare
#: positions that once held a decision for 1.2-1.7 s.
ROOT_LISTING_SHARE = 0.6

#: Whom a seat's leaf is measured against with three or more seats. ``best``: the best other
#: seat (the margin that decides who wins). ``each``: every other seat in turn, the reward being
#: the mean of the pairwise rewards (how often the seat finishes ahead of an opponent: the
#: head-to-head share of docs/strength.md). With two seats both are the same. ``each`` is
#: Takenokolor's default at three and four seats (:data:`GAME_DEFAULTS`), but at three seats
#: on 4-pandas-dragon (:data:`SHEET_DEFAULTS`).
VERSUS = ("best", "each")

#: How the other seats' turns are found. ``tree``: as tree nodes with their own candidate turns
#: (``replies``), listed once in the first determinisation that reaches the node. ``greedy``:
#: played as a policy, greedy's best whole turn computed afresh in every determinisation, so
#: an opponent's reply always fits the dice and draws it has (and the model of a ``greedy``
#: opponent is exact), at one greedy turn per opponent per iteration.
OTHERS = ("tree", "greedy")


class _Edge:
    __slots__ = ("child", "kids", "moves", "n", "prior", "rank", "seen", "sq", "w")

    def __init__(self, moves: tuple[Any, ...], rank: int, players: int, prior: float = 0.5) -> None:
        self.moves = moves
        self.rank = rank
        self.prior = prior
        self.n = 0
        self.w = [0.0] * players
        self.sq = 0.0  # the sum of the squared rewards of the searching seat (``sure``)
        self.child: _Node | None = None
        # closed-loop chance (``chance=closed``): a child per chance outcome after the turn,
        # and how often each outcome was drawn here
        self.kids: dict[tuple[str, ...], _Node] = {}
        self.seen: dict[tuple[str, ...], int] = {}


class _Node:
    __slots__ = ("edges", "keys", "mover", "visits")

    def __init__(self) -> None:
        self.mover: int | None = None  # the seat whose candidates the edges are
        self.edges: list[_Edge] = []
        self.keys: set[tuple[str, ...]] = set()
        self.visits = 0


class MctsBot(Bot):
    """Information-set MCTS. Options: ``iterations``, ``seconds``, ``top``, ``c``,
    ``horizon``, ``expand``, ``scale``, ``turns``, ``root_turns``, ``crn``, ``chance``
    (``open`` or ``closed``), ``diverse``, ``ref`` (``root`` or ``depth``), ``versus`` (``best`` or
    ``each``), ``beam``, ``replies``, ``sure``, ``sync``, ``others`` (``tree`` or ``greedy``),
    ``bias``, ``eval``
    (``game`` or ``score``), ``rollout`` (``random`` or ``greedy``)."""

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 1000,
        seconds: float = 0.0,
        top: int | None = None,
        c: float = 0.7,
        horizon: int | None = None,
        expand: int = 10,
        scale: float = 4.0,
        turns: int = 300,
        root_turns: int = 5000,
        crn: int | None = None,
        chance: str = "open",
        diverse: int | None = None,
        ref: str | None = None,
        versus: str | None = None,
        beam: int | None = None,
        replies: int | None = None,
        sure: float = 0.0,
        sync: int | None = None,
        others: str | None = None,
        bias: float | None = None,
        eval: str = "game",
        rollout: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__(seed, **options)
        if options:
            raise TypeError(f"unknown option(s) {', '.join(sorted(options))}; options: iterations, "
                            "seconds, top, c, horizon, expand, scale, turns, root_turns, crn, chance, "
                            "diverse, ref, versus, beam, replies, sure, sync, others, bias, eval, rollout")
        if int(iterations) < 0 or float(seconds) < 0 or (int(iterations) == 0 and float(seconds) == 0):
            raise ValueError("give a positive budget: iterations=N and/or seconds=S")
        if top is not None and int(top) < 1:
            raise ValueError(f"top must be at least 1, not {top}")
        self.iterations = int(iterations)
        self.seconds = float(seconds)
        self.top_option = None if top is None else int(top)
        self.top = 8 if top is None else int(top)
        self.c = float(c)
        self.horizon = 0 if horizon is None else int(horizon)
        self.expand = max(1, int(expand))
        self.scale = float(scale) if float(scale) > 0 else 1.0
        self.turns = int(turns)
        self.root_turns = max(int(root_turns), self.turns)
        self.crn_option = None if crn is None else bool(int(crn))
        self.crn = bool(self.crn_option)
        if str(chance) not in CHANCE_TREES:
            raise ValueError(f"chance must be one of {', '.join(CHANCE_TREES)}, not {chance!r}")
        self.closed = str(chance) == "closed"
        self.diverse_option = None if diverse is None else bool(int(diverse))
        self.diverse = bool(self.diverse_option)
        if ref is not None and str(ref) not in REFERENCES:
            raise ValueError(f"ref must be one of {', '.join(REFERENCES)}, not {ref!r}")
        self.ref_option = None if ref is None else str(ref)
        self.ref = self.ref_option or "root"
        if versus is not None and str(versus) not in VERSUS:
            raise ValueError(f"versus must be one of {', '.join(VERSUS)}, not {versus!r}")
        self.versus_option = None if versus is None else str(versus)
        self.versus = self.versus_option or "best"
        if beam is not None and int(beam) < 0:
            raise ValueError(f"beam must be 0 (off) or a positive width, not {beam}")
        self.beam_option = None if beam is None else int(beam)
        self.beam = 0 if beam is None else int(beam)
        if replies is not None and int(replies) < 1:
            raise ValueError(f"replies must be at least 1, not {replies}")
        self.replies_option = None if replies is None else int(replies)
        self.replies = self.top if replies is None else int(replies)
        self._me = 0
        if float(sure) < 0:
            raise ValueError(f"sure must be 0 (off) or a positive number of standard errors, not {sure}")
        self.sure = float(sure)
        if sync is not None and int(sync) not in (0, 1):
            raise ValueError(f"sync must be 0 (off) or 1 (on), not {sync}")
        self.sync_option = None if sync is None else bool(int(sync))
        self.sync = bool(self.sync_option)
        if others is not None and str(others) not in OTHERS:
            raise ValueError(f"others must be one of {', '.join(OTHERS)}, not {others!r}")
        self.others_option = None if others is None else str(others)
        self.others_policy = self.others_option == "greedy"
        self._depth_ref: dict[int, list[float]] = {}
        self._deadline: float | None = None  # the cap of the search under way, for listings
        self._root_turn = 0
        self._crn_base = 0
        self.bias_option = None if bias is None else float(bias)
        self.bias = 1.0 if bias is None else float(bias)
        choose_evaluation("", str(eval))  # validates the name
        self.which = str(eval)
        if rollout is not None and str(rollout) not in ROLLOUT_POLICIES:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUT_POLICIES)}, not {rollout!r}")
        self.rollout_option = None if rollout is None else str(rollout)
        self.rollout = self.rollout_option or "random"
        self.horizon_option = None if horizon is None else int(horizon)
        self.rng = Rng(seed)
        self.plan = Planner()
        self.last_iterations = 0
        self.memo_greedy = True  # off only in the test that checks it changes no decision
        self._greedy_memo: dict[Hashable, tuple[Any, ...]] = {}
        self.greedy_memo_hits = 0
        self.last_root: _Node | None = None  # the last search's tree, for inspection

    # ------------------------------------------------------------------ interface
    def choose(self, view: State[Any], legal_moves: Sequence[Any]) -> Any:
        if not legal_moves:
            raise ValueError("no legal move to choose from")
        planned = self.plan.next_move(view, legal_moves)
        if planned is not None:
            return planned
        seat = view.to_move
        if seat is None or seat < 0:
            return legal_moves[0]
        moves = self.search(view, seat)
        if not moves or moves[0] not in legal_moves:
            return self.rng.choice(legal_moves)
        return self.plan.set(view, moves)

    def _game_defaults(self, game: str, players: int, sheet: str | None = None) -> None:
        """Options the spec left out take the defaults of the sheet in play
        (:data:`SHEET_DEFAULTS`), else the game's (:data:`GAME_DEFAULTS`); a default given as a
        dict holds for the numbers of seats it names (``{2: "greedy"}``)."""
        layers = (SHEET_DEFAULTS.get(game, {}).get(sheet or "", {}), GAME_DEFAULTS.get(game, {}))

        def default(name: str, fallback: Any) -> Any:
            for defaults in layers:  # the sheet's exceptions first, then the game's defaults
                value = defaults.get(name, _UNSET)
                if isinstance(value, dict):
                    value = value.get(players, _UNSET)
                if value is not _UNSET:
                    return value
            return fallback

        if self.bias_option is None:
            self.bias = float(default("bias", 1.0))
        if self.top_option is None:
            self.top = int(default("top", 8))
        if self.crn_option is None:
            self.crn = bool(int(default("crn", 0)))
        if self.diverse_option is None:
            self.diverse = bool(int(default("diverse", 0)))
        if self.rollout_option is None:
            self.rollout = str(default("rollout", "random"))
        if self.horizon_option is None:
            self.horizon = int(default("horizon", 0))
        if self.ref_option is None:
            self.ref = str(default("ref", "depth" if players == 1 else "root"))
        if self.replies_option is None:
            self.replies = int(default("replies", 1 if players >= 3 else self.top))
        if self.sync_option is None:
            self.sync = bool(default("sync", False))
        if self.others_option is None:
            self.others_policy = default("others", "tree") == "greedy"
        if self.beam_option is None:
            self.beam = int(default("beam", 0))
        if self.versus_option is None:
            self.versus = str(default("versus", "best"))

    # ------------------------------------------------------------------ search
    def search(self, view: State[Any], seat: int) -> tuple[Any, ...]:
        """The best whole turn for ``seat`` from ``view`` within the budget."""
        evaluate = choose_evaluation(view.game_name, self.which)
        # only games with sheet exceptions pay for reading the sheet's name
        sheet = sheet_name(view) if view.game_name in SHEET_DEFAULTS else None
        self._game_defaults(view.game_name, view.players, sheet)
        players = view.players
        # the cap covers the whole decision, the root's ranking of candidate turns included
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds else None
        self._deadline = deadline
        root = _Node()
        self._me = seat
        first = view.sample_hidden(seat, self.rng)
        # the root lists up to root_turns whole turns, so greedy's choice is always a candidate,
        # unless that takes more than its share of the cap (then single decisions)
        try:
            self._add_candidates(root, first, evaluate, self.root_turns,
                                 deadline=start + ROOT_LISTING_SHARE * self.seconds
                                 if self.seconds else None)
        except OutOfTime:
            self._add_candidates(root, first, evaluate, 0)
        if len(root.edges) == 1:
            self.last_iterations = 0
            return root.edges[0].moves
        baseline = evaluate(first, seat)
        self._depth_ref = {}
        # greedy's turn depends on the position only (equal keys, equal states: the State
        # contract), so within one search it is found once per position, however many
        # determinisations reach it (others=greedy, rollout=greedy); the same decisions, faster
        self._greedy_memo = {}
        self.greedy_memo_hits = 0
        self._root_turn = first.turn
        # drawn whether or not crn is on, so a seed replays the searches of docs/strength.md
        self._crn_base = self.rng.randbelow(1 << 62)
        done = 0
        while True:
            if self.iterations and done >= self.iterations:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break  # (one iteration always starts, however long the root's ranking took)
            state = first if done == 0 else view.sample_hidden(seat, self.rng)
            state = state.clone()
            try:
                self._iterate(root, state, evaluate, players, seat, baseline)
            except OutOfTime:
                break  # a listing passed the cap: this iteration is dropped, not counted
            done += 1
        self.last_iterations = done
        self.last_root = root
        return self._final_pick(root, seat).moves

    def _final_pick(self, root: _Node, seat: int) -> _Edge:
        """The root turn to play: the most visited (ties: the better mean, then the better
        rank); with ``sure=Z``, the evaluation's favourite (rank 0, the turn greedy plays)
        unless another turn's mean reward beats it by more than Z standard errors of the
        difference (then the best such mean)."""
        most = max(root.edges, key=lambda e: (e.n, e.w[seat] / e.n if e.n else 0.0, -e.rank))
        if not self.sure:
            return most
        first = min(root.edges, key=lambda e: e.rank)
        if first.n < 2:
            return most
        mean0, var0 = _mean_var(first, seat)
        pick, pick_mean = first, mean0
        for e in root.edges:
            if e is first or e.n < 2:
                continue
            mean, var = _mean_var(e, seat)
            if mean - mean0 > self.sure * math.sqrt(var / e.n + var0 / first.n) and mean > pick_mean:
                pick, pick_mean = e, mean
        return pick

    def _iterate(self, root: _Node, state: State[Any], evaluate: Any, players: int, me: int,
                 baseline: float) -> None:
        path: list[tuple[_Node, _Edge]] = []
        node: _Node | None = root
        own_rng = self.rng
        try:
            while node is not None:
                self._resolve_chance(state)
                if self.others_policy:
                    state = self._others_play_greedy(state, me, evaluate)
                mover = state.to_move
                if mover is None:
                    break
                picked = self._select(node, state, mover, evaluate)
                if picked is None:
                    break
                edge, state = picked
                path.append((node, edge))
                if node is root and self.crn:
                    self.rng = common_random_numbers(self._crn_base, edge.n)
                if self.closed:
                    node, state = self._chance_child(edge, state)
                    continue
                if edge.child is None and (edge.n + 1 >= self.expand
                                           or self._through_others(state, me)):
                    edge.child = _Node()
                    node = edge.child
                    continue
                node = edge.child
            if self.others_policy:
                state = self._others_play_greedy(state, me, evaluate)
            reward = self._rollout(state, evaluate, players, me, baseline)
        finally:
            self.rng = own_rng
        for nd, edge in path:
            nd.visits += 1
            edge.n += 1
            w = edge.w
            for s in range(players):
                w[s] += reward[s]
            edge.sq += reward[me] * reward[me]

    def _others_play_greedy(self, state: State[Any], me: int, evaluate: Any) -> State[Any]:
        """``others=greedy``: the seats other than ``me`` play greedy's whole turn, chance
        drawn between turns, until ``me`` is to move or the game is over."""
        while True:
            self._resolve_chance(state)
            mover = state.to_move
            if mover is None or mover == me:
                return state
            state = self._greedy_turn(state, mover, evaluate)

    def _through_others(self, state: State[Any], me: int) -> bool:
        """``sync=1``: whether the turn just played hands over to another seat (after the
        chance it brings, drawn here), so the tree goes on through that seat's node at once
        instead of judging the position there. Leaves then fall only where the searching seat
        is to move (or the game is over): every seat has had the same number of turns since
        the root, and a seat right after its own turn no longer looks ahead by that turn."""
        if not self.sync:
            return False
        self._resolve_chance(state)
        mover = state.to_move
        return mover is not None and mover != me

    def _chance_child(self, edge: _Edge, state: State[Any]) -> tuple[_Node | None, State[Any]]:
        """Closed-loop chance: once ``edge`` has ``expand`` visits, draw the chance that
        follows it and go on in the child of that outcome (made on the outcome's second
        draw, so a rare outcome costs no candidate listing). Where there is no child (the
        edge is young, or the outcome is new: a Reefs round's five dice have 7776), the
        iteration stops before the chance and the leaf is judged without that luck."""
        if edge.n + 1 < self.expand:
            return None, state
        if state.to_move != CHANCE:
            child = edge.kids.get(())
            if child is None:
                child = edge.kids[()] = _Node()
            return child, state
        after = state.clone()
        drawn = self._resolve_chance(after, record=True)
        child = edge.kids.get(drawn)
        if child is None:
            count = edge.seen.get(drawn, 0) + 1
            edge.seen[drawn] = count
            if count < 2:
                return None, state
            child = edge.kids[drawn] = _Node()
        return child, after

    def _select(self, node: _Node, state: State[Any], mover: int,
                evaluate: Any) -> tuple[_Edge, State[Any]] | None:
        """UCB1 over the node's candidate turns legal here: the edge and the state after it."""
        if not node.edges:
            self._add_candidates(node, state, evaluate)
        tried: set[int] = set()
        refreshed = False
        while True:
            best: _Edge | None = None
            best_value = -math.inf
            log_n = math.log(node.visits + 1)
            for i, edge in enumerate(node.edges):
                if i in tried:
                    continue
                if edge.n == 0:
                    value = 1e9 - edge.rank
                else:
                    value = (edge.w[mover] / edge.n + self.c * math.sqrt(log_n / edge.n)
                             + self.bias * edge.prior / (edge.n + 1))
                if value > best_value:
                    best, best_value = edge, value
            if best is None:
                if refreshed:
                    return None
                refreshed = True
                self._add_candidates(node, state, evaluate)
                continue
            tried.add(node.edges.index(best))
            after = _try_play(state, best.moves)
            if after is not None:
                return best, after

    def _add_candidates(self, node: _Node, state: State[Any], evaluate: Any,
                        max_turns: int | None = None, deadline: float | None = None) -> None:
        """List the node's candidate turns: up to ``max_turns`` whole turns (``None``: the
        option ``turns``; 0: single decisions). Raises :class:`OutOfTime` past ``deadline``
        (default: the search's cap)."""
        mover = state.to_move
        if mover is None or mover < 0:
            return
        node.mover = mover
        top = self.top if mover == self._me else self.replies
        scored = candidate_turns(state, mover, top, self.turns if max_turns is None else max_turns,
                                 evaluate, use_ranker=self.which == "game", diverse=self.diverse,
                                 beam=self.beam if max_turns is None else 0,
                                 deadline=self._deadline if deadline is None else deadline)
        rank = len(node.edges)
        best = scored[0][0] if scored else 0.0
        for value, moves in scored:
            key = tuple(str(m) for m in moves)
            if key in node.keys:
                continue
            node.keys.add(key)
            # progressive bias: the evaluation's verdict, fading as visits accumulate
            prior = 2 * _logistic((value - best) / self.scale)
            node.edges.append(_Edge(moves, rank, state.players, prior))
            rank += 1

    def _resolve_chance(self, state: State[Any], record: bool = False) -> tuple[str, ...]:
        """Play the chance moves due now, sampled with the bot's generator; with ``record``,
        their texts (the key of a closed-loop child)."""
        drawn: list[str] = []
        while state.to_move == CHANCE:
            move = state.sample_chance(self.rng)
            if record:
                drawn.append(str(move))
        return tuple(drawn)

    def _rollout(self, state: State[Any], evaluate: Any, players: int, me: int,
                 baseline: float) -> list[float]:
        rng = self.rng
        turns_left = self.horizon
        start_turn = state.turn
        while True:
            mover = state.to_move
            if mover is None:
                break
            if turns_left >= 0 and state.turn - start_turn >= turns_left:
                break
            if mover == CHANCE:
                state.sample_chance(rng)
                continue
            if self.rollout == "greedy":
                state = self._greedy_turn(state, mover, evaluate)
                continue
            state.play(rng.choice(state.legal_moves()), check=False)
        return self._reward(state, evaluate, players, me, baseline)

    def _greedy_turn(self, state: State[Any], mover: int, evaluate: Any) -> State[Any]:
        """The rollout's greedy policy: ``mover``'s best whole turn by the evaluation (the
        game's turn ranker where it has one; one decision at a time where whole turns are
        more than ``turns``)."""
        key = state.key() if self.memo_greedy else None
        moves = self._greedy_memo.get(key) if key is not None else None
        if moves is None:
            best = candidate_turns(state, mover, 1, self.turns, evaluate,
                                   use_ranker=self.which == "game", beam=self.beam,
                                   deadline=self._deadline)
            if not best:
                state.play(self.rng.choice(state.legal_moves()), check=False)
                return state
            moves = best[0][1]
            if key is not None:
                self._greedy_memo[key] = moves
        else:
            self.greedy_memo_hits += 1
        for move in moves:
            state.play(move, check=False)
        return state

    def _depth_reference(self, depth: int, margins: list[float]) -> list[float]:
        """``ref=depth``: the mean margin per seat of the leaves seen so far ``depth`` turns
        past the root, this one included (the last entry counts the leaves)."""
        sums = self._depth_ref.get(depth)
        if sums is None:
            sums = self._depth_ref[depth] = [0.0] * (len(margins) + 1)
        for i, m in enumerate(margins):
            sums[i] += m
        sums[-1] += 1.0
        n = sums[-1]
        return [sums[i] / n for i in range(len(margins))]

    def _reward(self, state: State[Any], evaluate: Any, players: int, me: int,
                baseline: float) -> list[float]:
        over = state.is_over
        if over:
            values = [float(s.total) for s in state.scores()]
            winners = state.winners()
        else:
            values = [evaluate(state, s) for s in range(players)]
            winners = []
        scale = self.scale
        if players > 2 and self.versus == "each":
            return self._reward_each(state, values, winners, players)
        if players == 1:
            margins = [values[0] - baseline]
        else:
            margins = [values[s] - max(values[o] for o in range(players) if o != s)
                       for s in range(players)]
        if self.ref == "depth":
            mean = self._depth_reference(state.turn - self._root_turn, margins)
            margins = [m - r for m, r in zip(margins, mean, strict=True)]
        if players == 1:
            return [_logistic(margins[0] / scale)]
        out = []
        for s in range(players):
            r = _logistic(margins[s] / scale)
            if over:
                r = 0.5 * r + (0.5 / len(winners) if s in winners else 0.0)
            out.append(r)
        return out


    def _reward_each(self, state: State[Any], values: list[float], winners: list[int],
                     players: int) -> list[float]:
        """``versus=each``: a seat's reward is the mean, over the other seats, of the two-seat
        reward against that seat alone (the logistic of the margin; at the end, half of it plus
        half of the pairwise result: ahead 1, level 1/2, the tie-break from ``winners``)."""
        margins = [values[s] - values[o] for s in range(players) for o in range(players) if o != s]
        if self.ref == "depth":
            mean = self._depth_reference(state.turn - self._root_turn, margins)
            margins = [m - r for m, r in zip(margins, mean, strict=True)]
        over = state.is_over
        out = []
        i = 0
        for s in range(players):
            total = 0.0
            for o in range(players):
                if o == s:
                    continue
                r = _logistic(margins[i] / self.scale)
                i += 1
                if over:
                    won = s in winners
                    if won != (o in winners):
                        result = 1.0 if won else 0.0
                    else:
                        diff = values[s] - values[o]
                        result = 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5
                    r = 0.5 * r + 0.5 * result
                total += r
            out.append(total / (players - 1))
        return out


def candidate_turns(state: State[Any], seat: int, top: int, max_turns: int, evaluate: Any,
                    use_ranker: bool = True, diverse: bool = False, beam: int = 0,
                    deadline: float | None = None) -> list[tuple[float, tuple[Any, ...]]]:
    """The best ``top`` whole turns of ``seat``, or single decisions when turns are too many.

    A game's turn ranker is used if it has one (one that walks every whole turn, marked
    ``exhaustive``, only where no ``beam`` is asked and no ``deadline`` set, and then with
    ``diverse`` every turn it ranks is a candidate). Otherwise up to
    ``max_turns`` whole turns are enumerated; if there are more, this node searches one
    decision at a time instead: every legal move (up to ``3 x top``), ranked by the
    evaluation right after it, and the turn goes on at the next node. ``beam`` (a width, 0:
    off): whole turns found by a beam search (:func:`~meeple.core.turns.beam_turns`) instead
    of all of them. ``diverse``: see :func:`diverse_top`. ``deadline``: the whole-turn listing
    raises :class:`~meeple.core.turns.OutOfTime` once that :func:`time.perf_counter` value is
    past.
    """
    ranker = turn_ranker_for(state.game_name) if use_ranker else None
    exhaustive = getattr(ranker, "exhaustive", False)
    if ranker is not None and not (exhaustive and (beam > 0 or deadline is not None)):
        if diverse:
            return diverse_top(ranker(state, seat, None) if exhaustive
                               else ranked_turns(state, seat, 4 * top), top)
        return ranked_turns(state, seat, top)[:top]
    if beam > 0:
        found = beam_turns(state, lambda after: evaluate(after, seat), beam)
        if found:
            return diverse_top(found, top) if diverse else found[:top]
    turns = expand_turns(state, limit=max_turns + 1, deadline=deadline) if max_turns > 0 else []
    if 0 < len(turns) <= max_turns:
        scored = [(evaluate(after, seat), moves) for moves, after in turns]
    else:
        scored = []
        for move in state.legal_moves():
            after = state.clone()
            after.play(move, check=False)
            scored.append((evaluate(after, seat), (move,)))
        top = 3 * top
    scored.sort(key=lambda t: -t[0])
    return diverse_top(scored, top) if diverse else scored[:top]


def diverse_top(scored: list[tuple[float, tuple[Any, ...]]],
                top: int) -> list[tuple[float, tuple[Any, ...]]]:
    """The best ``top`` of ``scored`` (best first) such that every distinct first decision
    (the pencil, marker or tool taken) is represented by its best turn, as far as ``top``
    allows: taking what the opponent needs may be worth more than the evaluation of one's
    own sheet says, and the search can only find that among its candidates."""
    leaders: list[int] = []
    firsts: set[Any] = set()
    for i, (_value, moves) in enumerate(scored):
        if moves[0] not in firsts:
            firsts.add(moves[0])
            leaders.append(i)
    chosen = set(leaders[:top])
    for i in range(len(scored)):
        if len(chosen) >= top:
            break
        chosen.add(i)
    return [scored[i] for i in sorted(chosen)]


def common_random_numbers(base: int, visit: int) -> Rng:
    """The generator for the ``visit``-th trial of any root turn: every root turn's k-th
    trial sees the same dice and draws (as far as the games stay in step), so the turns are
    compared on equal luck and the differences between their means are far less noisy."""
    return Rng.derive(base, visit)


def _mean_var(edge: _Edge, seat: int) -> tuple[float, float]:
    """The mean and the sample variance of ``seat``'s rewards through ``edge`` (n >= 2)."""
    n = edge.n
    mean = edge.w[seat] / n
    return mean, max(0.0, (edge.sq - n * mean * mean) / (n - 1))


def _logistic(x: float) -> float:
    if x < -30:
        return 0.0
    if x > 30:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def _try_play(state: State[Any], moves: Sequence[Any]) -> State[Any] | None:
    """``state`` after ``moves`` if each is legal in turn (in this determinisation), else None.
    The first turn tried is played on ``state`` itself when it is the only move."""
    if state.illegal_reason(moves[0]) is not None:
        return None
    if len(moves) == 1:
        state.play(moves[0], check=False)
        return state
    node = state.clone()
    try:
        node.play(moves[0], check=False)
        for m in moves[1:]:
            node.play(m)
    except IllegalMove:
        return None
    return node


register_bot("mcts", MctsBot)
