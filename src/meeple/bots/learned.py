"""Learned evaluations: a small neural net that corrects a game's evaluation.

The game's evaluation (``BotKnowledge.evaluation``) judges a position in points: the score so
far plus credit for what is under way. A :class:`ValueNet` learns what it misses: it reads the
flat observation the RL envs give the seat (:mod:`meeple.bots.encoding`), each value scaled to
[0, 1] by its block's bounds, and answers how many points the seat will finish with beyond
what the evaluation says now. So

    learned(state, seat) = evaluation(state, seat) + net(observation of seat)

and a net that answers 0 everywhere judges exactly as the game's evaluation. ``meeple train``
(:mod:`meeple.sim.train`) fits the nets on self-play games of the ``mcts`` bot that searches
with them (expert iteration); the ``expert`` difficulty plays ``mcts`` with a game's shipped
nets.

A net is a multi-layer perceptron: ReLU hidden layers, one linear output. Inference is numpy
only, one matrix product a layer. The observation differs by seat count and sheet, so a file
holds one net per variant (:func:`variant_key`); a variant without one has no learned
evaluation.

**Names.** A bot names a game's nets (``mcts:net=expert``), never a path: :func:`nets_for`
finds ``expert`` among the nets registered in this process (:func:`register_nets`: tests, and
``meeple train``'s workers with the nets of the run under way), else in the game package's
``nets/`` folder (``nets/expert.npz``), found through the registry as its ``sheets/`` are. A name
is :data:`NET_NAME`: lower-case letters, digits and hyphens, so it can never reach outside
that folder.

**The file** (``.npz``, read with ``allow_pickle=False``): ``meta``, a JSON string
(``format``, ``game``, ``nets``: for each variant key its ``inputs`` and ``layers``, and
whatever the run that made it recorded under ``made_by``), and for each variant key ``k`` and
layer ``i`` the arrays ``k/w{i}`` (inputs x outputs, float32) and ``k/b{i}``.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from meeple.bots.config import NET_NAME, NET_NAME_RULE
from meeple.bots.encoding import Encoding, encoding, unit_bounds
from meeple.bots.evaluation import Evaluation, evaluation_for
from meeple.core.errors import MeepleError
from meeple.core.registry import game_files
from meeple.core.state import State

#: The file format this module writes and reads.
FORMAT = 1

#: The largest net file read (bytes): a shipped net is well under 1 MB.
MAX_FILE_BYTES = 64 * 1024 * 1024

#: The folder of a game's package that holds the nets it ships, one ``<name>.npz`` each.
NETS_FOLDER = "nets"

#: Nets made available in this process without a file, by (game, name).
_REGISTERED: dict[tuple[str, str], NetFile] = {}
#: Shipped net files read so far, by (game, name) (read once per process).
_LOADED: dict[tuple[str, str], NetFile] = {}
_LOCK = threading.Lock()


def check_net_name(name: object) -> str:
    """``name`` if it is a net's name (:data:`NET_NAME`), else a MeepleError saying what a
    name may be."""
    if not isinstance(name, str) or NET_NAME.fullmatch(name) is None:
        raise MeepleError(f"a net's name is {NET_NAME_RULE} (a name, never a file or path), "
                          f"not {name!r}")
    return name


def register_nets(game: str, name: str, netfile: NetFile) -> None:
    """Make ``netfile`` game ``game``'s nets called ``name`` in this process (before any file
    of that name): how a test or a training run's workers play with nets not shipped."""
    check_net_name(name)
    if netfile.game != game:
        raise MeepleError(f"the nets are {netfile.game}'s, not {game}'s")
    with _LOCK:
        _REGISTERED[(game, name)] = netfile


def unregister_nets(game: str, name: str) -> None:
    """Forget nets :func:`register_nets` made available (a shipped file of that name, if any,
    is found again)."""
    with _LOCK:
        _REGISTERED.pop((game, name), None)


def shipped_nets(game: str) -> list[str]:
    """The names of the nets game ``game``'s package ships (its ``nets/*.npz``), in order."""
    folder = game_files(game) / NETS_FOLDER
    if not folder.is_dir():
        return []
    return sorted(p.name.removesuffix(".npz") for p in folder.iterdir()
                  if p.name.endswith(".npz") and NET_NAME.fullmatch(p.name[:-4]))


def nets_for(game: str, name: str) -> NetFile:
    """Game ``game``'s nets called ``name``: registered in this process, else its package's
    ``nets/<name>.npz`` (read once, then kept). A name that is no :data:`NET_NAME`, or names
    no nets of the game, is a MeepleError naming the nets there are."""
    check_net_name(name)
    key = (game, name)
    with _LOCK:
        found = _REGISTERED.get(key) or _LOADED.get(key)
    if found is not None:
        return found
    path = game_files(game) / NETS_FOLDER / f"{name}.npz"
    if not path.is_file():
        there = sorted(set(shipped_nets(game)) | {n for g, n in _REGISTERED if g == game})
        raise MeepleError(f"{game} has no nets called {name!r}; its nets: "
                          f"{', '.join(there) if there else 'none'}")
    loaded = NetFile.from_bytes(path.read_bytes(), f"{game}'s nets {name!r}")
    if loaded.game != game:
        raise MeepleError(f"{game}'s nets {name!r} are {loaded.game}'s")
    with _LOCK:
        return _LOADED.setdefault(key, loaded)


def variant_key(state: State[Any]) -> str:
    """What a net is trained for: the seat count and the variant's options (which fix the
    sheet), e.g. ``2p{"level": 1}``."""
    return f"{state.players}p" + json.dumps(state.variant(), sort_keys=True, default=str)


class ValueNet:
    """One variant's net: ``weights`` is ``[(w0, b0), (w1, b1), ...]``, ``w`` inputs x outputs;
    the last layer has one output."""

    def __init__(self, weights: Sequence[tuple[np.ndarray, np.ndarray]]) -> None:
        if not weights:
            raise MeepleError("a value net needs at least one layer")
        self.weights = [(np.asarray(w, np.float32), np.asarray(b, np.float32).reshape(-1))
                        for w, b in weights]
        for i, (w, b) in enumerate(self.weights):
            if w.ndim != 2 or w.shape[1] != b.shape[0]:
                raise MeepleError(f"value net layer {i}: weights {w.shape} and biases "
                                  f"{b.shape} do not fit")
            if i and w.shape[0] != self.weights[i - 1][0].shape[1]:
                raise MeepleError(f"value net layer {i} takes {w.shape[0]} inputs, the layer "
                                  f"before gives {self.weights[i - 1][0].shape[1]}")
        if self.weights[-1][0].shape[1] != 1:
            raise MeepleError("a value net's last layer has one output")
        self.inputs = int(self.weights[0][0].shape[0])

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The net's answers for a batch ``x`` (rows of :attr:`inputs` floats)."""
        h = np.asarray(x, np.float32)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(self.weights):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        out: np.ndarray = h[:, 0]
        return out

    @property
    def hidden(self) -> list[int]:
        """The widths of the hidden layers."""
        return [int(w.shape[1]) for w, _ in self.weights[:-1]]


@dataclass
class NetFile:
    """The nets of one game, by variant key, with what made them."""

    game: str
    nets: dict[str, ValueNet]
    made_by: dict[str, Any] = field(default_factory=dict)

    def to_bytes(self) -> bytes:
        arrays: dict[str, np.ndarray] = {}
        for key, net in self.nets.items():
            for i, (w, b) in enumerate(net.weights):
                arrays[f"{key}/w{i}"] = w
                arrays[f"{key}/b{i}"] = b
        meta = {"format": FORMAT, "game": self.game, "made_by": self.made_by,
                "nets": {k: {"inputs": n.inputs, "layers": len(n.weights)}
                         for k, n in self.nets.items()}}
        buf = io.BytesIO()
        arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
        np.savez_compressed(buf, **arrays)  # type: ignore[arg-type]
        return buf.getvalue()

    def save(self, path: Path) -> None:
        """Write the file (to a temporary name first, so a reader never sees half of it)."""
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(self.to_bytes())
        tmp.replace(path)

    @classmethod
    def from_bytes(cls, data: bytes, what: str = "net file") -> NetFile:
        if len(data) > MAX_FILE_BYTES:
            raise MeepleError(f"{what}: {len(data)} bytes, more than a net file may hold "
                              f"({MAX_FILE_BYTES})")
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                if not isinstance(meta, dict) or meta.get("format") != FORMAT:
                    raise MeepleError(f"{what}: not a meeple value-net file of format {FORMAT}")
                nets = {}
                for key, info in dict(meta["nets"]).items():
                    layers = int(info["layers"])
                    nets[str(key)] = ValueNet([(z[f"{key}/w{i}"], z[f"{key}/b{i}"])
                                               for i in range(layers)])
                return cls(str(meta["game"]), nets, dict(meta.get("made_by") or {}))
        except MeepleError:
            raise
        except Exception as exc:  # a zip, JSON or array that is not what it should be
            raise MeepleError(f"{what}: not a meeple value-net file ({type(exc).__name__}: "
                              f"{exc})") from None

    @classmethod
    def load(cls, path: Path) -> NetFile:
        """Read a net file (a path the program chose: a client never names one)."""
        try:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                raise MeepleError(f"{path}: {size} bytes, more than a net file may hold "
                                  f"({MAX_FILE_BYTES})")
            data = path.read_bytes()
        except OSError as exc:
            raise MeepleError(f"cannot read the net file {path}: {exc.strerror}") from None
        return cls.from_bytes(data, str(path))


class LearnedEvaluation:
    """A game's evaluation corrected by its nets. :meth:`bind` gives the judge of one variant
    (the net :func:`variant_key` picks; ``None`` for a variant without one, which the game's
    evaluation judges alone): a search binds once, at its root, and calls the judge at every
    leaf."""

    def __init__(self, game: str, nets: Mapping[str, ValueNet],
                 base: Evaluation | None = None) -> None:
        self.game = game
        self.nets = dict(nets)
        self.base = base or evaluation_for(game)
        self._judges: dict[str, Judge | None] = {}

    def bind(self, state: State[Any]) -> Judge | None:
        """The judge of ``state``'s variant, or None if it has no net."""
        key = variant_key(state)
        if key not in self._judges:
            net = self.nets.get(key)
            self._judges[key] = (Judge(encoding(state), net, self.base)
                                 if net is not None else None)
        return self._judges[key]

    def __call__(self, state: State[Any], seat: int) -> float:
        """The learned evaluation of one position (binds each time: for tests and one-off
        looks; a search uses :meth:`bind`)."""
        judge = self.bind(state)
        return judge(state, seat) if judge is not None else self.base(state, seat)


class Judge:
    """The learned evaluation of one variant: its encoding, its net and the game's
    evaluation."""

    def __init__(self, enc: Encoding, net: ValueNet, base: Evaluation) -> None:
        if net.inputs != enc.size:
            raise MeepleError(f"{enc.game}: the net takes {net.inputs} inputs, this variant's "
                              f"observation has {enc.size}")
        self.enc, self.net, self.base = enc, net, base
        self.low, self.span = unit_bounds(enc)
        self._observe = enc.record.observe
        self._encode = enc.encode

    def features(self, state: State[Any], seats: Sequence[int]) -> np.ndarray:
        """The net's inputs for ``seats``: each one's observation scaled to [0, 1]. Read from
        ``state`` as it is: the game's ``observe`` reads only what the seat's view shows, so a
        search's determinised state needs no ``seen_by`` copy."""
        x = np.stack([self._encode(self._observe(state, s)) for s in seats]).astype(np.float32)
        out: np.ndarray = (x - self.low) / self.span
        return out

    def __call__(self, state: State[Any], seat: int) -> float:
        return self.base(state, seat) + float(self.net.predict(self.features(state, (seat,)))[0])

    def seats(self, state: State[Any], seats: Sequence[int]) -> list[float]:
        """The learned evaluation of several seats of one state, the net run once on all."""
        out = self.net.predict(self.features(state, seats))
        return [self.base(state, s) + float(d) for s, d in zip(seats, out, strict=True)]
