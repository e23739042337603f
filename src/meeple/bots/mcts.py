"""The ``mcts`` bot: information-set Monte Carlo tree search over whole turns.

Each iteration

1. **determinises** the seat's view (``view.sample_hidden(seat, rng)``: a full state consistent
   with what the seat sees), so the bot never reads the true hidden state;
2. **descends** an open-loop tree whose edges are whole turns (one decision at a time where a
   seat has more than ``turns`` whole turns; the root lists up to ``root_turns``, so greedy's
   best turn is a candidate). At each node the game's evaluation ranks the turns of the seat to
   move and the best ``top`` (at another seat's node: ``top`` at two seats, the single best
   with three or more) become the candidates, chosen by UCB1 (exploration ``c``) plus a
   progressive bias (``bias`` x prior / (visits + 1)), an unvisited one in rank order first; an
   edge tried ``expand`` times gets a child node. Chance is sampled, not part of the tree (a
   cached candidate not legal in this determinisation is skipped; new ones are added when none
   is legal); ``crn=1`` draws the chance after a root turn from a stream keyed by that turn's
   visit count (common random numbers); ``diverse=1`` keeps the best turn of every first
   decision among the candidates; ``others=greedy`` leaves the other seats out of the tree:
   they play greedy's turn in every determinisation; ``beam`` lists inner candidates by a beam
   search;
3. **rolls out** ``horizon`` more seat turns by the ``rollout`` policy (``random`` decisions or
   ``greedy`` whole turns; ``horizon=0``: the leaf is judged at once, ``-1``: to the end);
4. **scores** the result: at the end, half the win share plus half a logistic of the score
   margin over the best other seat (``versus=each``: each other seat in turn, averaged); before
   it, the logistic of the evaluation margin (``scale`` points per unit); solo, the rise of the
   evaluation over the root's, less the mean rise of the leaves so far at the same depth.
   With ``net=<name>`` a leaf before the end is judged by the game's nets of that name
   (:mod:`meeple.bots.learned`: the evaluation plus the net's correction, for every seat at
   once); candidates are still ranked by the evaluation alone (cheap). A variant the nets do
   not cover is judged by the evaluation, and :attr:`MctsBot.last_info`'s ``net`` says so.

The move played is the most visited root turn (ties: the better mean, then the better rank); the
whole turn is kept as a plan and replayed decision by decision.

Options are one frozen :class:`~meeple.bots.config.MctsConfig`, parsed once from the spec; what
a spec leaves out comes from the game's presets (``BotKnowledge.presets``, data in the game
package), then the general defaults. ``c``, ``expand``, ``scale``, ``turns`` and ``root_turns``
are fixed settings of the bot, not options (``experiments/research_mcts.py`` changes them and
the other research options removed). Budget: ``iterations`` (the same decisions for
a seed on every machine), ``cpu`` (CPU seconds of the searching thread: a loaded machine makes
the bot slower, not weaker) and ``seconds`` (a wall-clock safety cap; a search it stops says so
in :attr:`MctsBot.last_info`). docs/bots.md documents every option and preset; how each default
was found is in docs/research/mcts-options-history.md.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from meeple.bots.base import Bot, register_bot
from meeple.bots.config import MctsConfig, MctsSettings
from meeple.bots.evaluation import evaluation_for, ranked_turns, turn_ranker_for
from meeple.bots.greedy import Planner
from meeple.bots.knowledge import bot_knowledge
from meeple.core.errors import IllegalMove, MeepleError, UnknownGame
from meeple.core.rng import Rng
from meeple.core.state import CHANCE, State
from meeple.core.turns import OutOfTime, beam_turns, expand_turns

if TYPE_CHECKING:  # numpy: imported when a search has nets (meeple.bots stays numpy-free)
    from meeple.bots.learned import Judge, LearnedEvaluation, NetFile


def sheet_name(state: State[Any]) -> str | None:
    """The name of the sheet a state is played on (its ``sheet_data()["name"]``), if it has
    one: what a game's ``mcts_sheets`` presets are keyed by."""
    name = state.sheet_data().get("name")
    return name if isinstance(name, str) else None


def bot_presets(game: str) -> dict[str, Any]:
    """A game's bot presets (its package's ``BOTS.presets``; none for an unknown game)."""
    try:
        return dict(bot_knowledge(game).presets)
    except UnknownGame:
        return {}


#: The share of a ``seconds`` cap the root's listing of whole turns may take. Past it the root
#: lists single decisions instead (as an inner node does where whole turns are too many), so
#: the search still has the rest of the cap.
ROOT_LISTING_SHARE = 0.6


class _Edge:
    __slots__ = ("child", "moves", "n", "prior", "rank", "w")

    def __init__(self, moves: tuple[Any, ...], rank: int, players: int, prior: float = 0.5) -> None:
        self.moves = moves
        self.rank = rank
        self.prior = prior
        self.n = 0
        self.w = [0.0] * players
        self.child: _Node | None = None


class _Node:
    __slots__ = ("edges", "keys", "mover", "visits")

    def __init__(self) -> None:
        self.mover: int | None = None  # the seat whose candidates the edges are
        self.edges: list[_Edge] = []
        self.keys: set[tuple[str, ...]] = set()
        self.visits = 0


class MctsBot(Bot):
    """Information-set MCTS. Options: those of :class:`~meeple.bots.config.MctsConfig`
    (``iterations``, ``cpu``, ``seconds``, ``top``, ``horizon``, ``rollout``, ``others``,
    ``beam``, ``crn``, ``diverse``, ``versus``, ``bias``)."""

    name = "mcts"
    # The search's fixed settings (not options: a spec cannot change them; an experiment's
    # subclass or a test may set them on an instance).
    #: UCB1's exploration constant (rewards are in [0, 1])
    c: float = 0.7
    #: visits of an edge before its child node is made
    expand: int = 10
    #: points of margin per unit of the logistic reward (and of the progressive bias's prior)
    scale: float = 4.0
    #: above this many whole turns (and no turn ranker) a node lists single decisions
    turns: int = 300
    #: the same limit at the root, so greedy's turn is a candidate
    root_turns: int = 5000

    def __init__(self, seed: int = 0, config: MctsConfig | None = None,
                 nets: NetFile | None = None, **options: Any) -> None:
        super().__init__(seed)
        if config is not None and options:
            raise TypeError("give either a config or options, not both")
        #: nets given in memory (``meeple train``'s own matches): they judge the leaves
        #: whatever the spec's ``net``
        self.nets = nets
        #: a ``net`` the game does not have: played without (a difficulty's preset, e.g.
        #: ``expert`` before its game ships nets) rather than an error (a spec's own ``net``)
        self.play_without_missing_nets = False
        self._learned: dict[str, LearnedEvaluation | None] = {}  # by game (None: no such nets)
        self._net_note = ""  # what last_info["net"] says when no judge was bound
        self._judge: Judge | None = None  # the leaves' judge of the search under way
        #: the options as the spec gave them (``None``: the game's preset applies)
        self.spec = config if config is not None else MctsConfig.parse(options)
        self.options = self.spec.given()
        #: the options of the search under way (or the last one): the spec resolved for the
        #: game, sheet and number of seats in play
        self.cfg = self.spec.resolve(None, 2)
        self._resolved: dict[tuple[str, int, str | None], MctsSettings] = {}
        self._me = 0
        self._depth_ref: dict[int, list[float]] = {}
        self._deadline: float | None = None  # the wall-clock cap of the search, for listings
        self._root_turn = 0
        self._crn_base = 0
        self._replies = 1
        self.rng = Rng(seed)
        self.plan = Planner()
        self.last_iterations = 0
        #: what the last search did: iterations, CPU and wall seconds, and what stopped it
        #: (``iterations``, ``cpu``, ``wall-clock cap``, ``listing out of time``, ``one turn``)
        self.last_info: dict[str, Any] = {}
        self.memo_greedy = True  # off only in the test that checks it changes no decision
        self._greedy_memo: dict[Hashable, tuple[Any, ...]] = {}
        self.greedy_memo_hits = 0
        self.last_root: _Node | None = None  # the last search's tree, for inspection

    def resolve(self, game: str, players: int, sheet: str | None = None) -> MctsSettings:
        """The options this bot plays with in ``game`` at ``players`` seats on ``sheet``."""
        key = (game, players, sheet)
        cfg = self._resolved.get(key)
        if cfg is None:
            cfg = self._resolved[key] = self.spec.resolve(bot_presets(game), players, sheet)
        return cfg

    # ------------------------------------------------------------------ interface
    def choose(self, view: State[Any], legal_moves: Sequence[Any]) -> Any:
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

    # ------------------------------------------------------------------ search
    def search(self, view: State[Any], seat: int) -> tuple[Any, ...]:
        """The best whole turn for ``seat`` from ``view`` within the budget."""
        game = view.game_name
        presets = bot_presets(game)
        # only games with sheet presets pay for reading the sheet's name
        sheet = sheet_name(view) if presets.get("mcts_sheets") else None
        cfg = self.cfg = self.resolve(game, view.players, sheet)
        evaluate = evaluation_for(game)
        players = view.players
        self._replies = self.replies(players, cfg.top)
        # the budgets cover the whole decision, the root's ranking of candidate turns included
        start = time.perf_counter()
        cpu_start = time.thread_time()
        deadline = start + cfg.seconds if cfg.seconds else None
        cpu_deadline = cpu_start + cfg.cpu if cfg.cpu else None
        self._deadline = deadline
        root = _Node()
        self._me = seat
        first = view.sample_hidden(seat, self.rng)
        self._judge = self.leaf_judge(first)  # (draws nothing from the generator)
        stopped = "iterations"
        # the root lists up to root_turns whole turns, so greedy's choice is always a candidate,
        # unless that takes more than its share of the cap (then single decisions)
        try:
            self._add_candidates(root, first, evaluate, max(self.root_turns, self.turns),
                                 deadline=start + ROOT_LISTING_SHARE * cfg.seconds
                                 if cfg.seconds else None)
        except OutOfTime:
            stopped = "root listing out of time: single decisions"
            self._add_candidates(root, first, evaluate, 0)
        if len(root.edges) == 1:
            self.last_iterations = 0
            self._info(0, "one candidate", start, cpu_start)
            return root.edges[0].moves
        judge = self._judge
        baseline = judge(first, seat) if judge is not None else evaluate(first, seat)
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
        iterations = cfg.iterations
        while True:
            if iterations and done >= iterations:
                break
            # (one iteration always starts, however long the root's ranking took)
            if done and cpu_deadline is not None and time.thread_time() >= cpu_deadline:
                stopped = "cpu"
                break
            if done and deadline is not None and time.perf_counter() >= deadline:
                stopped = "wall-clock cap"
                break
            state = first if done == 0 else view.sample_hidden(seat, self.rng)
            state = state.clone()
            try:
                self._iterate(root, state, evaluate, players, seat, baseline)
            except OutOfTime:
                stopped = "wall-clock cap (in a listing)"
                break  # a listing passed the cap: this iteration is dropped, not counted
            done += 1
        self.last_iterations = done
        self.last_root = root
        self._info(done, stopped, start, cpu_start)
        return self._final_pick(root, seat).moves

    def _info(self, done: int, stopped: str, start: float, cpu_start: float) -> None:
        self.last_info = {
            "bot": "mcts", "iterations": done, "stopped": stopped,
            "cpu_seconds": round(time.thread_time() - cpu_start, 4),
            "wall_seconds": round(time.perf_counter() - start, 4),
            "capped": stopped.startswith("wall-clock") or stopped.startswith("root listing"),
        }
        if self.nets is not None or self.cfg.net is not None:
            name = self.cfg.net if self.nets is None else "(in memory)"
            self.last_info["net"] = name if self._judge is not None else self._net_note

    def check_game(self, game: str) -> None:
        """The nets the spec's ``net`` names exist in ``game`` (a MeepleError naming its nets
        if not)."""
        if self.spec.net is not None and self.nets is None:
            from meeple.bots.learned import nets_for
            nets_for(game, self.spec.net)

    def leaf_judge(self, state: State[Any]) -> Judge | None:
        """The judge of the leaves for ``state``'s variant: the in-memory nets, else the
        game's nets the spec's ``net`` names (found once per game); None without nets or for
        a variant they do not cover (the evaluation judges alone)."""
        if self.nets is None and self.cfg.net is None:
            return None
        from meeple.bots.learned import LearnedEvaluation, nets_for
        game = state.game_name
        if game not in self._learned:
            try:
                netfile = (self.nets if self.nets is not None
                           else nets_for(game, str(self.cfg.net)))
            except MeepleError:
                if not self.play_without_missing_nets:
                    raise
                self._learned[game] = None
            else:
                self._learned[game] = LearnedEvaluation(game, netfile.nets, evaluation_for(game))
        learned = self._learned[game]
        if learned is None:
            self._net_note = f"none: {game} ships no nets {self.cfg.net!r}"
            return None
        judge = learned.bind(state)
        if judge is None:
            self._net_note = "none for this variant"
        return judge

    def _final_pick(self, root: _Node, seat: int) -> _Edge:
        """The root turn to play: the most visited (ties: the better mean, then the better
        rank)."""
        return max(root.edges, key=lambda e: (e.n, e.w[seat] / e.n if e.n else 0.0, -e.rank))

    def _iterate(self, root: _Node, state: State[Any], evaluate: Any, players: int, me: int,
                 baseline: float) -> None:
        path: list[tuple[_Node, _Edge]] = []
        node: _Node | None = root
        own_rng = self.rng
        try:
            while node is not None:
                self._resolve_chance(state)
                if self.cfg.others == "greedy":
                    state = self._others_play_greedy(state, me, evaluate)
                mover = state.to_move
                if mover is None:
                    break
                picked = self._select(node, state, mover, evaluate)
                if picked is None:
                    break
                edge, state = picked
                path.append((node, edge))
                if node is root and self.cfg.crn:
                    self.rng = common_random_numbers(self._crn_base, edge.n)
                if edge.child is None and edge.n + 1 >= self.expand:
                    edge.child = _Node()
                    node = edge.child
                    continue
                node = edge.child
            if self.cfg.others == "greedy":
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

    def _others_play_greedy(self, state: State[Any], me: int, evaluate: Any) -> State[Any]:
        """``others=greedy``: the seats other than ``me`` play greedy's whole turn, chance
        drawn between turns, until ``me`` is to move or the game is over."""
        while True:
            self._resolve_chance(state)
            mover = state.to_move
            if mover is None or mover == me:
                return state
            state = self._greedy_turn(state, mover, evaluate)

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
            c, bias = self.c, self.cfg.bias
            for i, edge in enumerate(node.edges):
                if i in tried:
                    continue
                if edge.n == 0:
                    value = 1e9 - edge.rank
                else:
                    value = (edge.w[mover] / edge.n + c * math.sqrt(log_n / edge.n)
                             + bias * edge.prior / (edge.n + 1))
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
        """List the node's candidate turns: up to ``max_turns`` whole turns (``None``:
        :attr:`turns`; 0: single decisions). Raises :class:`OutOfTime` past ``deadline``
        (default: the search's cap)."""
        mover = state.to_move
        if mover is None or mover < 0:
            return
        node.mover = mover
        top = self.cfg.top if mover == self._me else self._replies
        scored = candidate_turns(state, mover, top, self.turns if max_turns is None else max_turns,
                                 evaluate, diverse=self.cfg.diverse,
                                 beam=self.cfg.beam if max_turns is None else 0,
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

    def _resolve_chance(self, state: State[Any]) -> None:
        """Play the chance moves due now, sampled with the bot's generator."""
        while state.to_move == CHANCE:
            state.sample_chance(self.rng)

    def _rollout(self, state: State[Any], evaluate: Any, players: int, me: int,
                 baseline: float) -> list[float]:
        rng = self.rng
        turns_left = self.cfg.horizon
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
            if self.cfg.rollout == "greedy":
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
            best = candidate_turns(state, mover, 1, self.turns, evaluate, beam=self.cfg.beam,
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

    def replies(self, players: int, top: int) -> int:
        """The candidates at a node where another seat moves: the single best turn with three
        or more seats (as ``greedy`` would play), else as many as the seat's own (``top``)."""
        return 1 if players >= 3 else top

    def _reference(self, state: State[Any], margins: list[float], players: int) -> list[float]:
        """A leaf's margins as its reward judges them: solo, less the mean of the leaves so far
        at the same depth (a solo score only grows, so against the root every deeper leaf
        would look better for its depth alone); with more seats, as they are."""
        if players != 1:
            return margins
        mean = self._depth_reference(state.turn - self._root_turn, margins)
        return [m - r for m, r in zip(margins, mean, strict=True)]

    def _depth_reference(self, depth: int, margins: list[float]) -> list[float]:
        """The mean margin per seat of the leaves seen so far ``depth`` turns past the root,
        this one included (the last entry counts the leaves)."""
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
        elif self._judge is not None:
            values = self._judge.seats(state, range(players))
            winners = []
        else:
            values = [evaluate(state, s) for s in range(players)]
            winners = []
        scale = self.scale
        if players > 2 and self.cfg.versus == "each":
            return self._reward_each(state, values, winners, players)
        if players == 1:
            margins = [values[0] - baseline]
        else:
            margins = [values[s] - max(values[o] for o in range(players) if o != s)
                       for s in range(players)]
        margins = self._reference(state, margins, players)
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
        margins = self._reference(state, margins, players)
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
    ``diverse`` every turn it ranks is a candidate; one marked ``capped`` (Reefs'), only
    where there are at most ``max_turns`` whole turns, as below). Otherwise up to
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
    ranks = ranker is not None and not (exhaustive and (beam > 0 or deadline is not None))
    # an exhaustive ranker with ``within`` keeps to max_turns, as the listing below does
    within = (getattr(ranker, "within", None)
              if ranks and exhaustive and getattr(ranker, "capped", False) else None)
    if ranks and within is None:
        return _ranker_turns(state, seat, top, ranker, exhaustive, diverse)
    if beam > 0:
        found = beam_turns(state, lambda after: evaluate(after, seat), beam)
        if found:
            return _best_of(found, top, diverse)
    if within is not None:
        every = within(state, seat, max_turns) if max_turns > 0 else None
        if every:
            return _best_of(every, top, diverse)
        turns = []  # none, or more than max_turns: single decisions, as below
    else:
        turns = (expand_turns(state, limit=max_turns + 1, deadline=deadline)
                 if max_turns > 0 else [])
    if 0 < len(turns) <= max_turns:
        scored = [(evaluate(after, seat), moves) for moves, after in turns]
    else:
        scored = _single_decisions(state, seat, evaluate)
        top = 3 * top
    scored.sort(key=lambda t: -t[0])
    return _best_of(scored, top, diverse)


def _ranker_turns(state: State[Any], seat: int, top: int, ranker: Any, exhaustive: bool,
                  diverse: bool) -> list[tuple[float, tuple[Any, ...]]]:
    """The game's turn ranker's best ``top`` turns; ``diverse``: from every turn an exhaustive
    ranker walks (else from ``4 x top``), see :func:`diverse_top`."""
    if diverse:
        return diverse_top(ranker(state, seat, None) if exhaustive
                           else ranked_turns(state, seat, 4 * top), top)
    return ranked_turns(state, seat, top)[:top]


def _best_of(scored: list[tuple[float, tuple[Any, ...]]], top: int,
             diverse: bool) -> list[tuple[float, tuple[Any, ...]]]:
    """The first ``top`` of ``scored`` (best first), or with ``diverse`` :func:`diverse_top`."""
    return diverse_top(scored, top) if diverse else scored[:top]


def _single_decisions(state: State[Any], seat: int,
                      evaluate: Any) -> list[tuple[float, tuple[Any, ...]]]:
    """Every legal move of ``seat`` on its own, with the evaluation right after it."""
    scored = []
    for move in state.legal_moves():
        after = state.clone()
        after.play(move, check=False)
        scored.append((evaluate(after, seat), (move,)))
    return scored


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
