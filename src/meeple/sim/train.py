"""``meeple train``: expert iteration on CPU. A search bot plays itself, a value net learns
from its games, and the next generation searches with that net.

**The learned evaluation** is residual (:mod:`meeple.bots.learned`): for a seat,
``learned(state, seat) = evaluation(state, seat) + net(observation of seat in [0, 1])``. At every
position where a seat begins a turn, a self-play game records for every seat its features
(the observation scaled to [0, 1]) and the game's evaluation; at the end, its final score. The
net is fitted to what the hand-written evaluation misses about the final margin between the
seats (``final - evaluation``, less its mean over the position's seats; or the seat's own score
with ``target="score"``, :func:`residual_targets`). A net
answering 0 judges exactly as the evaluation, so generation 1's search (no net yet) is hard's.

**The search bot** is ``mcts`` with hard's options for the game and seat count (its budget
replaced by ``iterations`` when given, which also makes every game a pure function of its seed),
its leaves judged by the learned evaluation (:func:`search_bot`).

**A generation**: ``games`` self-play games with the current nets, run by the simulator's
workers (:func:`meeple.sim.runner.map_tasks`: this process, a local pool or a Dask cluster);
their positions saved (``data-NNN.npz``); a numpy MLP fitted on the positions of the last
``window`` generations (whole games held out) (:func:`fit_value_net`); the nets written as a checkpoint
(``gen-NNN.npz``, :class:`~meeple.bots.learned.NetFile` with ``made_by``); the search bot with
them played against ``hard`` and ``medium`` over ``eval_games`` seeded games, seats rotated
(the same seeds every generation); ``run.json`` and ``curve.png`` rewritten; ``best.npz`` is the
generation that scored best against hard. Generation 0 is the evaluation of the search with
no net, the curve's starting point.

A run stopped at any point resumes from its last checkpoint (:func:`train` with ``resume``):
the generation under way is played again from its seeds, so a resumed run gives the nets an
uninterrupted one gives.
"""

from __future__ import annotations

import hashlib
import json
import math
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

import meeple
from meeple.bots import Bot, MctsBot, difficulty_spec, make_bot
from meeple.bots.base import parse_options
from meeple.bots.config import MctsConfig
from meeple.bots.encoding import encoding
from meeple.bots.evaluation import evaluation_for
from meeple.bots.learned import Judge, NetFile, ValueNet, variant_key
from meeple.core.errors import MeepleError
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.sim.runner import map_tasks, play_game, rotated
from meeple.sim.stats import wilson, win_share

#: The file in a run's folder that holds its settings and per-generation results.
RUN_FILE = "run.json"
#: The learning curve's picture in a run's folder.
CURVE_FILE = "curve.png"
#: The bot spec that stands for the search bot in a line-up.
SEARCH = "search"
#: The bots each generation is measured against, by default (``--against``).
OPPONENTS = ("hard", "medium")
#: What a net may be fitted to (:func:`residual_targets`).
TARGETS = ("margin", "score")
#: The target of a run written before ``target`` was a setting (they learnt the score).
EARLIER_RUNS_TARGET = "score"
#: Settings a resumed run may change: they say when to stop, not what is computed.
FREE_ON_RESUME = ("generations",)


class TrainError(MeepleError):
    """A run that cannot start or resume (bad settings, an out folder holding another run)."""


@dataclass(frozen=True)
class TrainSettings:
    """Everything that decides what a run computes (written to ``run.json``)."""

    game: str
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)
    generations: int = 10
    games: int = 40
    iterations: int = 400
    eval_games: int = 20
    hidden: tuple[int, ...] = (64, 64)
    window: int = 4
    epochs: int = 60
    batch: int = 256
    lr: float = 1e-3
    decay: float = 1e-4
    seed: int = 0
    against: tuple[str, ...] = OPPONENTS
    #: what the net learns (:func:`residual_targets`): ``margin`` (default) or ``score``
    target: str = "margin"

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["hidden"] = list(self.hidden)
        out["against"] = list(self.against)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TrainSettings:
        known = {f.name for f in fields(cls)}
        kw = {k: v for k, v in data.items() if k in known}
        kw["hidden"] = tuple(kw.get("hidden", ()))
        kw["against"] = tuple(kw.get("against", OPPONENTS))
        kw.setdefault("target", EARLIER_RUNS_TARGET)
        return cls(**kw)


# ---------------------------------------------------------------------- the search bot

def search_options(game: str, players: int, iterations: int,
                   sheet: str | None = None) -> dict[str, Any]:
    """The search bot's mcts options: hard's for the game and seat count; with ``iterations``
    (> 0) its budget is that many iterations alone (no CPU or wall-clock limit), so a game is
    the same on every machine."""
    spec = difficulty_spec("hard", game, players, sheet)
    name, _, rest = spec.partition(":")
    if name != "mcts":
        raise TrainError(f"{game}: hard plays {spec!r}, not mcts; meeple train searches with mcts")
    opts = parse_options(rest) if rest else {}
    if iterations > 0:
        opts.update(iterations=iterations, cpu=0, seconds=0)
    MctsConfig.parse(opts)  # refuses what mcts would refuse
    return opts


def search_bot(game: str, nets: NetFile | None, options: dict[str, Any], seed: int) -> MctsBot:
    """The search bot of a run: mcts with ``options``, its leaves judged with ``nets`` (given
    in memory: the ``nets`` of :class:`~meeple.bots.mcts.MctsBot`; a variant they do not cover,
    or no nets, plays as plain ``mcts``)."""
    del game  # the nets name their game
    return MctsBot(seed=seed, config=MctsConfig.parse(dict(options)),
                   nets=nets if nets is not None and nets.nets else None)


_NET_CACHE: dict[str, NetFile] = {}


def nets_from_bytes(blob: bytes | None) -> NetFile | None:
    """A worker's copy of the nets sent with a task (decoded once per worker)."""
    if blob is None:
        return None
    digest = hashlib.sha1(blob).hexdigest()
    nets = _NET_CACHE.get(digest)
    if nets is None:
        if len(_NET_CACHE) > 4:
            _NET_CACHE.clear()
        nets = _NET_CACHE[digest] = NetFile.from_bytes(blob, "the run's nets")
    return nets


def _maker(game: str, blob: bytes | None,
           options: dict[str, Any]) -> Callable[[str, int], Bot]:
    nets = nets_from_bytes(blob)

    def make(spec: str, seed: int) -> Bot:
        return search_bot(game, nets, options, seed) if spec == SEARCH else make_bot(spec, seed)

    return make


# ---------------------------------------------------------------------- self-play data

#: A self-play task: game, variant options, seats, seed, search options, nets (file bytes).
SelfPlayTask = tuple[str, dict[str, Any], int, int, dict[str, Any], bytes | None]


def selfplay_game(task: SelfPlayTask) -> dict[str, Any]:
    """One self-play game, as compact arrays: for the first position of each turn and each
    seat, its features ``x`` (float32 rows), the game's evaluation ``base`` and its final score
    ``final``; with the variant ``key``, ``scores`` and ``winners``.

    The first position of a turn is where the search judges its leaves (the state a whole turn
    leaves behind), so where a turn opens with a chance draw (Takenokolor's rolls, Pergola's
    card) it is the position before that draw: a net fitted only on positions after the draw
    would judge leaves it never saw."""
    game, options, players, seed, search, blob = task
    evaluate = evaluation_for(game)
    rows: list[np.ndarray] = []
    base: list[float] = []
    judge: list[Judge] = []
    last_turn = [-1]

    def record(state: State[Any]) -> None:
        if state.turn == last_turn[0]:
            return
        last_turn[0] = state.turn
        if not judge:
            enc = encoding(state)
            judge.append(Judge(enc, zero_net(enc.size), evaluate))
        seats = range(state.players)
        rows.append(judge[0].features(state, seats))
        base.extend(evaluate(state, s) for s in seats)

    rec = play_game(game, options, (SEARCH,) * players, seed,
                    make=_maker(game, blob, search), on_move=record)
    finals = [float(s["total"]) for s in rec["scores"]]
    state = meeple.new_game(game, players=players, seed=seed, **options)
    width = judge[0].enc.size if judge else encoding(state).size
    return {"key": variant_key(state), "seed": seed,
            "x": np.concatenate(rows) if rows else np.zeros((0, width), np.float32),
            "base": np.asarray(base, np.float32),
            "final": np.asarray(finals * len(rows), np.float32),
            "scores": finals, "winners": rec["winners"]}


def residual_targets(final: np.ndarray, base: np.ndarray, players: int,
                     target: str) -> np.ndarray:
    """What the net is fitted to, row by row (a position's rows are its seats in order).

    ``score``: ``final - evaluation``, what the evaluation misses about the seat's own final
    score. ``margin``: that residual less the mean of the position's residuals over its seats.
    The search ranks a leaf by the seat's learned value less its opponents' (the reward's
    logistic of the margin), so only the differences between seats' corrections matter: a
    common part (points still to come for everyone) costs the fit capacity and adds error,
    and does not move a single decision. With two seats a seat's target is half the residual of
    the final margin, so ``net(a) - net(b)`` learns ``(final_a - final_b) - (eval_a - eval_b)``."""
    residual: np.ndarray = (final - base).astype(np.float32)
    if target == "score" or players < 2 or len(residual) == 0:
        return residual
    by_position = residual.reshape(-1, players)
    centred: np.ndarray = (by_position - by_position.mean(axis=1, keepdims=True)).reshape(-1)
    return centred


def zero_net(inputs: int) -> ValueNet:
    """A net that answers 0: the game's evaluation unchanged."""
    return ValueNet([(np.zeros((inputs, 1), np.float32), np.zeros(1, np.float32))])


# ---------------------------------------------------------------------- the learner

def forward_with(params: Sequence[np.ndarray], x: np.ndarray) -> np.ndarray:
    """An MLP's answers (``params``: weights and biases by turns, ReLU between layers)."""
    h = x
    for i in range(0, len(params), 2):
        h = h @ params[i] + params[i + 1]
        if i + 2 < len(params):
            h = np.maximum(h, 0.0)
    out: np.ndarray = h[:, 0]
    return out


def held_out_shrink(pred: np.ndarray, target: np.ndarray) -> float:
    """How much of a fitted net's answer to keep, in [0, 1]: the least-squares factor ``a`` of
    ``a * pred`` for ``target`` on the held-out games (both as deviations from the training
    mean). A net that learnt noise (its held-out answers uncorrelated with the truth) is shrunk
    toward answering the mean, i.e. toward the game's evaluation alone, so the search cannot be
    led by errors the held-out games show; one that generalises keeps (nearly) all of it."""
    den = float(np.dot(pred, pred))
    if den <= 0.0:
        return 0.0
    return min(1.0, max(0.0, float(np.dot(pred, target)) / den))


def fit_value_net(x: np.ndarray, y: np.ndarray, hidden: Sequence[int], seed: int,
                  epochs: int = 60, batch: int = 256, lr: float = 1e-3, decay: float = 1e-4,
                  holdout: float = 0.1, patience: int = 8,
                  groups: np.ndarray | None = None) -> tuple[ValueNet, dict[str, Any]]:
    """Fit an MLP (ReLU hidden layers ``hidden``, one linear output) to ``y`` from ``x`` with
    Adam on the Huber loss of the standardised target, L2 weight decay ``decay``; a held-out
    share ``holdout`` of the rows (at least one; with ``groups``, a label per row such as its
    game, that share of the groups, whole: the positions of one game share its final score, so
    a held-out row whose game is also trained on would reward memorising that game) decides
    early stopping (``patience`` epochs
    without a better held-out loss) and the weights kept. Seeded: the same data and seed give
    the same net. Returns the net (in the target's units) and its stats: ``val_mse`` (the
    held-out mean squared error, target units) against ``zero_mse`` (a net answering 0: the
    game's evaluation alone), ``mean_mse`` (a net answering the training targets' mean) and
    ``shrink``, the share of its answer kept (:func:`held_out_shrink`)."""
    x = np.asarray(x, np.float32)
    y = np.asarray(y, np.float32).reshape(-1)
    n = len(y)
    if n < 2:
        raise TrainError(f"a value net needs at least 2 positions to fit, not {n}")
    rng = np.random.default_rng(seed)
    labels = np.unique(groups) if groups is not None else np.zeros(0)
    if len(labels) >= 2:
        chosen = rng.permutation(labels)[:max(1, round(holdout * len(labels)))]
        kept_out = np.isin(np.asarray(groups), chosen)
        val, tr = np.flatnonzero(kept_out), rng.permutation(np.flatnonzero(~kept_out))
    else:
        order = rng.permutation(n)
        cut = max(1, round(holdout * n))
        val, tr = order[:cut], order[cut:]
    n_val = len(val)
    mu = float(y[tr].mean())
    sd = float(y[tr].std()) or 1.0
    z = (y - mu) / sd
    sizes = [x.shape[1], *hidden, 1]
    params: list[np.ndarray] = []
    for i in range(len(sizes) - 1):
        params.append((rng.standard_normal((sizes[i], sizes[i + 1])) *
                       math.sqrt(2.0 / sizes[i])).astype(np.float32))
        params.append(np.zeros(sizes[i + 1], np.float32))
    moment = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8

    def forward(xb: np.ndarray) -> list[np.ndarray]:
        acts = [xb]
        h = xb
        for i in range(0, len(params), 2):
            h = h @ params[i] + params[i + 1]
            if i + 2 < len(params):
                h = np.maximum(h, 0.0)
            acts.append(h)
        return acts

    def loss(xb: np.ndarray, zb: np.ndarray) -> float:
        return float(_huber(forward(xb)[-1][:, 0] - zb).mean())

    best = (loss(x[val], z[val]), [p.copy() for p in params], 0)
    step = 0
    epoch = 0
    for epoch in range(1, epochs + 1):
        perm = tr[rng.permutation(len(tr))]
        for start in range(0, len(perm), batch):
            idx = perm[start:start + batch]
            acts = forward(x[idx])
            err = acts[-1][:, 0] - z[idx]
            grad = (np.clip(err, -1.0, 1.0) / len(idx)).astype(np.float32)[:, None]
            step += 1
            for i in range(len(params) - 2, -1, -2):
                gw = acts[i // 2].T @ grad + decay * params[i]
                gb = grad.sum(axis=0)
                if i:
                    grad = (grad @ params[i].T) * (acts[i // 2] > 0)
                for j, g in ((i, gw), (i + 1, gb)):
                    moment[j] = beta1 * moment[j] + (1 - beta1) * g
                    second[j] = beta2 * second[j] + (1 - beta2) * g * g
                    mhat = moment[j] / (1 - beta1 ** step)
                    vhat = second[j] / (1 - beta2 ** step)
                    params[j] -= (lr * mhat / (np.sqrt(vhat) + eps)).astype(np.float32)
        held = loss(x[val], z[val])
        if held < best[0]:
            best = (held, [p.copy() for p in params], epoch)
        elif epoch - best[2] >= patience:
            break
    kept = best[1]
    alpha = held_out_shrink(forward_with(kept, x[val]), z[val])
    # answer in the target's units: the last layer's answer (a deviation from the training
    # targets' mean, in standard deviations) shrunk by alpha, scaled back by sd, shifted by mu
    kept[-2] = kept[-2] * (alpha * sd)
    kept[-1] = kept[-1] * (alpha * sd) + mu
    net = ValueNet([(kept[i], kept[i + 1]) for i in range(0, len(kept), 2)])
    pred = net.predict(x[val])
    stats = {"positions": n, "held_out": n_val, "epochs": epoch, "best_epoch": best[2],
             "shrink": round(alpha, 4),
             "val_mse": float(np.mean((pred - y[val]) ** 2)),
             "zero_mse": float(np.mean(y[val] ** 2)),
             "mean_mse": float(np.mean((y[val] - mu) ** 2))}
    return net, stats


def _huber(e: np.ndarray) -> np.ndarray:
    a = np.abs(e)
    out: np.ndarray = np.where(a <= 1.0, 0.5 * e * e, a - 0.5)
    return out


# ---------------------------------------------------------------------- evaluation

#: A match task: game, variant options, bots by seat, seed, search options, nets.
MatchTask = tuple[str, dict[str, Any], tuple[str, ...], int, dict[str, Any], bytes | None]


def match_game(task: MatchTask) -> dict[str, Any]:
    """One evaluation game (the search bot is the spec :data:`SEARCH`): seats, scores,
    winners."""
    game, options, bots, seed, search, blob = task
    rec = play_game(game, options, bots, seed, make=_maker(game, blob, search))
    return {"seed": seed, "bots": list(bots), "winners": rec["winners"],
            "scores": [s["total"] for s in rec["scores"]]}


def eval_seeds(settings: TrainSettings) -> list[int]:
    """The evaluation's game seeds: the same every generation, so generations are compared on
    the same deals."""
    return [Rng.derive(settings.seed, 0xE7A1, i).next_u64() >> 1
            for i in range(settings.eval_games)]


def evaluate_against(settings: TrainSettings, opponent: str, search: dict[str, Any],
                     blob: bytes | None, workers: int, cluster: str | None) -> dict[str, Any]:
    """The search bot's win share against ``opponent`` (ties shared, A4) with its Wilson 95 %
    interval: one search seat, the others ``opponent``, seats rotated game by game."""
    lineup = (SEARCH,) + (opponent,) * (settings.players - 1)
    tasks: list[MatchTask] = []
    for i, seed in enumerate(eval_seeds(settings)):
        seats, _ = rotated(lineup, i)
        tasks.append((settings.game, dict(settings.options), seats, seed, search, blob))
    won = 0.0
    for res in map_tasks(match_game, tasks, workers, cluster):
        won += sum(win_share(res, s) for s, b in enumerate(res["bots"]) if b == SEARCH)
    n = len(tasks)
    low, high = wilson(won, n)
    return {"games": n, "share": won / n, "low": low, "high": high}


# ---------------------------------------------------------------------- the run

def selfplay_seeds(settings: TrainSettings, generation: int) -> list[int]:
    return [Rng.derive(settings.seed, generation, i).next_u64() >> 1
            for i in range(settings.games)]


def validate(settings: TrainSettings) -> dict[str, Any]:
    """Refuse (:class:`TrainError`) settings a run cannot use; return the search options."""
    try:
        info = meeple.game_info(settings.game)
    except MeepleError as exc:
        raise TrainError(str(exc)) from None
    checks = ((settings.players >= 1, "--players must be at least 1"),
              (settings.generations >= 1, "--generations must be at least 1"),
              (settings.games >= 1, "--games (self-play games a generation) must be at least 1"),
              (settings.iterations >= 0, "--iterations must be 0 (hard's own budget) or more"),
              (settings.eval_games >= 0, "--eval-games must be 0 (no evaluation) or more"),
              (bool(settings.hidden) and all(1 <= h <= 4096 for h in settings.hidden),
               "--hidden takes 1 to 4096 units a layer, e.g. 64,64"),
              (settings.window >= 1, "--window (generations of data kept) must be at least 1"),
              (settings.epochs >= 1, "--epochs must be at least 1"),
              (settings.batch >= 1, "--batch must be at least 1"),
              (0 < settings.lr < 1, "--lr must be between 0 and 1"),
              (settings.decay >= 0, "--decay must be 0 or more"),
              (settings.seed >= 0, "--seed must be 0 or more"),
              (settings.target in TARGETS,
               f"--target {settings.target!r}: give one of {', '.join(TARGETS)}"))
    for ok, message in checks:
        if not ok:
            raise TrainError(message)
    if not settings.against or SEARCH in settings.against:
        raise TrainError("--against takes one or more bot specs or difficulties, e.g. "
                         "hard,medium")
    for spec in settings.against:
        make_bot(spec, 0)  # an unknown bot or option is refused with what exists
    variant = {k: v for k, v in settings.options.items() if k != "sheet"}
    seats = info.player_range(variant)
    if settings.players not in seats:
        raise TrainError(f"{info.title} takes {seats.start} to {seats.stop - 1} players, "
                         f"not {settings.players}")
    state = meeple.new_game(settings.game, players=settings.players, seed=0, **settings.options)
    name = state.sheet_data().get("name")
    return search_options(settings.game, settings.players, settings.iterations,
                          name if isinstance(name, str) else None)


def command_line(settings: TrainSettings) -> str:
    """The ``meeple train`` command that computes ``settings`` (every setting spelt out, so
    the command alone remakes the nets)."""
    words = ["meeple", "train", settings.game]
    for key, value in settings.to_json().items():
        if key in ("game", "options"):
            continue
        if isinstance(value, list):
            value = ",".join(str(v) for v in value)
        words += [f"--{key.replace('_', '-')}", str(value)]
    for key, value in sorted(settings.options.items()):
        words += ["--option", f"{key}={value}"]
    return " ".join(shlex.quote(w) for w in words)


def read_run(out: Path) -> dict[str, Any] | None:
    """The run recorded in ``out`` (its ``run.json``), or None."""
    path = out / RUN_FILE
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TrainError(f"{path} is not a meeple train run file ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("settings"), dict):
        raise TrainError(f"{path} is not a meeple train run file (no settings)")
    return data


def check_out(out: Path, settings: TrainSettings, resume: bool) -> dict[str, Any] | None:
    """The run to continue in ``out`` (None: a new one); refuses an out folder that is a file,
    holds another game's run, holds a run without ``resume``, or a run with other settings."""
    if out.exists() and not out.is_dir():
        raise TrainError(f"--out {out} is a file; give a folder for the run")
    run = read_run(out) if out.is_dir() else None
    if run is None:
        return None
    old = run["settings"]
    if old.get("game") != settings.game:
        raise TrainError(f"--out {out} holds a run of {old.get('game')!r}, not "
                         f"{settings.game!r}; give another --out")
    if not resume:
        raise TrainError(f"--out {out} holds a run of {settings.game} already; give --resume "
                         "to continue it, or another --out")
    new = settings.to_json()
    old = {"target": EARLIER_RUNS_TARGET, **old}
    differ = sorted(k for k in set(old) | set(new)
                    if k not in FREE_ON_RESUME and old.get(k) != new.get(k))
    if differ:
        said = "; ".join(f"{k}: run {old.get(k)!r}, now {new.get(k)!r}" for k in differ)
        raise TrainError(f"--resume with other settings than the run in {out} ({said}); give "
                         "the run's settings, or another --out")
    return run


#: A generation's positions of one variant: features, targets, the seed of each row's game.
Positions = tuple[np.ndarray, np.ndarray, np.ndarray]


def save_data(path: Path, by_key: dict[str, Positions]) -> None:
    arrays: dict[str, np.ndarray] = {"keys": np.array(json.dumps(sorted(by_key)))}
    for i, key in enumerate(sorted(by_key)):
        arrays[f"{i}/x"], arrays[f"{i}/y"], arrays[f"{i}/game"] = by_key[key]
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
    tmp.replace(path)


def load_data(path: Path) -> dict[str, Positions]:
    with np.load(path, allow_pickle=False) as z:
        keys = json.loads(str(z["keys"]))
        return {k: (z[f"{i}/x"], z[f"{i}/y"], z[f"{i}/game"]) for i, k in enumerate(keys)}


def _atomic_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def gen_path(out: Path, generation: int, kind: str = "gen") -> Path:
    return out / f"{kind}-{generation:03d}.npz"


def plot_curve(path: Path, run: dict[str, Any]) -> None:
    """The learning curve: the search bot's win share against each opponent per generation,
    with Wilson 95 % intervals (generation 0: no net)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    colours = {"hard": "#b22222", "medium": "#1f5fa8"}
    against = run["settings"].get("against", OPPONENTS)
    for k, opp in enumerate(against):
        pts = [(g["generation"], g["eval"][opp]) for g in run["generations"]
               if opp in g.get("eval", {})]
        if not pts:
            continue
        # side by side, so that the intervals of two opponents do not hide each other
        xs = [p[0] + 0.06 * (k - (len(against) - 1) / 2) for p in pts]
        ys = [p[1]["share"] for p in pts]
        err = [[p[1]["share"] - p[1]["low"] for p in pts],
               [p[1]["high"] - p[1]["share"] for p in pts]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=f"against {opp}",
                    color=colours.get(opp))
    ax.axhline(1.0 / run["settings"]["players"], color="grey", linestyle="--", linewidth=1,
               label="equal share")
    ax.set_xlabel("generation (0: no net)")
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    ax.set_ylabel("win share (95 % interval)")
    ax.set_ylim(0, 1)
    st = run["settings"]
    ax.set_title(f"meeple train {st['game']}: {st['players']} seats, {st['games']} games and "
                 f"{st['eval_games']} evaluation games a generation, seed {st['seed']}",
                 fontsize=10)
    ax.legend(loc="best", fontsize=9)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def run_evaluation(settings: TrainSettings, search: dict[str, Any], blob: bytes | None,
                   workers: int, cluster: str | None) -> dict[str, Any]:
    if settings.eval_games == 0:
        return {}
    return {opp: evaluate_against(settings, opp, search, blob, workers, cluster)
            for opp in settings.against}


def train(settings: TrainSettings, out: Path, workers: int = 1, cluster: str | None = None,
          minutes: float | None = None, resume: bool = False, command: str | None = None,
          log: Callable[[str], None] = lambda _msg: None) -> dict[str, Any]:
    """Run (or with ``resume`` continue) a training run in ``out``; returns its run record.

    Every check is made before anything is written. ``minutes``: no new generation starts
    once that much time has passed since this call (the one under way finishes)."""
    search = validate(settings)
    if workers < 1:
        raise TrainError(f"--workers must be at least 1, not {workers}")
    if minutes is not None and minutes <= 0:
        raise TrainError(f"--minutes must be more than 0, not {minutes}")
    run = check_out(out, settings, resume)
    started = time.monotonic()
    cmd = command or command_line(settings)
    if run is None:
        run = {"settings": settings.to_json(), "search": search, "command": cmd,
               "generations": [], "best": None}
    run["settings"] = settings.to_json()
    run.setdefault("commands", []).append(cmd)
    out.mkdir(parents=True, exist_ok=True)
    done = [g for g in run["generations"] if g["generation"] > 0]
    current: NetFile | None = NetFile.load(gen_path(out, done[-1]["generation"])) if done else None
    if not any(g["generation"] == 0 for g in run["generations"]):
        t0 = time.monotonic()
        log("generation 0 (no net): evaluating")
        result = run_evaluation(settings, search, None, workers, cluster)
        run["generations"].insert(0, {"generation": 0, "eval": result,
                                      "seconds": round(time.monotonic() - t0, 2)})
        _finish_generation(out, run)
    for generation in range(len(done) + 1, settings.generations + 1):
        if minutes is not None and time.monotonic() - started >= 60 * minutes:
            log(f"--minutes {minutes} used: stopping before generation {generation}")
            break
        current = _generation(settings, search, out, run, generation, current, cmd,
                              workers, cluster, log)
    return run


def _selfplay(settings: TrainSettings, search: dict[str, Any], out: Path, generation: int,
              current: NetFile | None, workers: int, cluster: str | None,
              log: Callable[[str], None]) -> tuple[dict[str, Positions], int]:
    """A generation's self-play games, their positions saved as ``data-NNN.npz``; returns the
    positions by variant key and the number of games."""
    blob = current.to_bytes() if current is not None else None
    tasks: list[SelfPlayTask] = [
        (settings.game, dict(settings.options), settings.players, seed, search, blob)
        for seed in selfplay_seeds(settings, generation)]
    log(f"generation {generation}: {len(tasks)} self-play games")
    parts: dict[str, list[Positions]] = {}
    for res in map_tasks(selfplay_game, tasks, workers, cluster):
        target = residual_targets(res["final"], res["base"], settings.players, settings.target)
        parts.setdefault(res["key"], []).append(
            (res["x"], target, np.full(len(target), res["seed"], np.int64)))
    data = {k: (np.concatenate([p[0] for p in v]), np.concatenate([p[1] for p in v]),
                np.concatenate([p[2] for p in v])) for k, v in parts.items()}
    save_data(gen_path(out, generation, "data"), data)
    return data, len(tasks)


def _fit_window(settings: TrainSettings, out: Path, generation: int
                ) -> tuple[dict[str, ValueNet], dict[str, Any]]:
    """One net per variant key, fitted on the positions of the replay window (the last
    ``window`` generations' data)."""
    window = [load_data(gen_path(out, g, "data"))
              for g in range(max(1, generation - settings.window + 1), generation + 1)]
    nets: dict[str, ValueNet] = {}
    fit: dict[str, Any] = {}
    for key in sorted({k for d in window for k in d}):
        x = np.concatenate([d[key][0] for d in window if key in d])
        y = np.concatenate([d[key][1] for d in window if key in d])
        games = np.concatenate([d[key][2] for d in window if key in d])
        nets[key], fit[key] = fit_value_net(
            x, y, settings.hidden, seed=int(Rng.derive(settings.seed, generation, 0xF17)
                                            .next_u64() >> 33),
            epochs=settings.epochs, batch=settings.batch, lr=settings.lr,
            decay=settings.decay, groups=games)
    return nets, fit


def _generation(settings: TrainSettings, search: dict[str, Any], out: Path,
                run: dict[str, Any], generation: int, current: NetFile | None, cmd: str,
                workers: int, cluster: str | None, log: Callable[[str], None]) -> NetFile:
    """One generation: self-play with the current nets, a fit on the replay window, its
    checkpoint, and its evaluation against the ``--against`` bots (written to run.json)."""
    t0 = time.monotonic()
    data, games = _selfplay(settings, search, out, generation, current, workers, cluster, log)
    play_seconds = time.monotonic() - t0
    t1 = time.monotonic()
    nets, fit = _fit_window(settings, out, generation)
    fit_seconds = time.monotonic() - t1
    games_so_far = sum(g.get("games", 0) for g in run["generations"]) + games
    made = NetFile(settings.game, nets, made_by={
        "command": cmd, "seed": settings.seed, "settings": settings.to_json(),
        "search": search, "generation": generation, "games": games_so_far,
        "seconds": round(sum(g.get("seconds", 0) for g in run["generations"])
                         + time.monotonic() - t0, 1)})
    made.save(gen_path(out, generation))
    log(f"generation {generation}: fitted "
        + ", ".join(f"{k} held-out mse {v['val_mse']:.2f} (zero net {v['zero_mse']:.2f}, "
                    f"the mean {v['mean_mse']:.2f})"
                    for k, v in fit.items()))
    t2 = time.monotonic()
    result = run_evaluation(settings, search, made.to_bytes(), workers, cluster)
    stats = {"generation": generation, "games": games,
             "positions": sum(len(v[1]) for v in data.values()), "fit": fit,
             "eval": result, "play_seconds": round(play_seconds, 2),
             "fit_seconds": round(fit_seconds, 2),
             "eval_seconds": round(time.monotonic() - t2, 2),
             "seconds": round(time.monotonic() - t0, 2)}
    run["generations"] = [g for g in run["generations"] if g["generation"] < generation]
    run["generations"].append(stats)
    _finish_generation(out, run)
    if result:
        log(f"generation {generation}: " + ", ".join(
            f"against {o} {r['share']:.2f} ({r['low']:.2f}-{r['high']:.2f})"
            for o, r in result.items()))
    return made


def _finish_generation(out: Path, run: dict[str, Any]) -> None:
    """``best.npz`` (the generation best against the first ``--against`` bot, hard by
    default; the last one if none was evaluated), ``run.json`` and the curve."""
    first = run["settings"].get("against", OPPONENTS)[0]
    scored = [g for g in run["generations"] if g["generation"] > 0 and first in g["eval"]]
    trained = [g for g in run["generations"] if g["generation"] > 0]
    if scored:
        best = max(scored, key=lambda g: (g["eval"][first]["share"], g["generation"]))
    else:
        best = trained[-1] if trained else None
    if best is not None:
        run["best"] = best["generation"]
        NetFile.load(gen_path(out, best["generation"])).save(out / "best.npz")
    _atomic_json(out / RUN_FILE, run)
    plot_curve(out / CURVE_FILE, run)
