"""The policies ``meeple agent`` plays with, read from a spec:

- ``bot:<spec>``: a built-in bot (``bot:random``, ``bot:greedy``, ``bot:mcts:seconds=1``), made
  by :func:`meeple.bots.make_bot` as the server's bot seats make theirs, and asked with the
  seat's view of the position (``seen_by``), as they are;
- ``npz:<path>``: the policy file ``examples/train_masked_policy.py`` writes (arrays ``W``,
  ``b``, ``scale`` and ``meta``): the legal action of the highest ``W @ (x * scale) + b``;
- ``sb3:<path>``: a Stable-Baselines3 model zip (``sb3_contrib.MaskablePPO``, else
  ``stable_baselines3.PPO``), asked ``predict(observation, action_masks=mask,
  deterministic=True)`` (:class:`Sb3Policy`);
- ``py:<module>:<function>``: a Python callable ``function(observation, mask, info) -> int``
  (:data:`ACTION_CALLABLE`).

Every policy but ``bot:`` works on the RL envs' numbering (:mod:`meeple.rl.spaces`): the
observation ``{"observation": int16 vector, "action_mask": int8 vector}`` of the seat, and an
action index into the variant's action list; :func:`move_of` maps it back to the move's text.
A bad spec raises :class:`AgentError` naming what is wrong."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from meeple.bots import make_bot
from meeple.core.errors import MeepleError
from meeple.core.rng import Rng
from meeple.core.state import State

#: What a ``py:`` callable is: ``(observation, mask, info) -> action index``. ``observation``
#: is the env's dict (``observation``: the flat int16 vector, ``action_mask``: int8, 1 for
#: each legal action), ``mask`` that mask again, ``info`` a dict: ``game``, ``variant``,
#: ``players``, ``seat``, ``table``, ``legal_actions`` (the legal indices, sorted),
#: ``actions`` (every action's move text, by index) and ``state`` (the seat's view of the
#: position, a :class:`meeple.State`).
ACTION_CALLABLE = "function(observation: dict, mask: numpy int8 array, info: dict) -> int"

KINDS = ("bot", "npz", "sb3", "py")


class AgentError(MeepleError):
    """A bad spec, token, address or answer: one line for the person running the agent."""


@dataclass(frozen=True)
class Seat:
    """What a policy is told of the seat it plays: the table, the seat and its game."""

    table: str
    seat: int
    game: str
    variant: dict[str, Any] = field(default_factory=dict)


class Policy(Protocol):
    """Something that picks the move of a seat to move."""

    name: str

    def move(self, state: State[Any], where: Seat) -> str:
        """The text of the move ``where.seat`` plays in ``state`` (the whole position, as
        replayed from the table's record; a policy sees only ``state.seen_by(seat)``)."""


def load_policy(spec: str) -> Policy:
    """The policy a spec names; :class:`AgentError` for a bad one."""
    kind, sep, rest = spec.partition(":")
    if not sep or kind not in KINDS or not rest:
        raise AgentError(f"--policy {spec!r} is not a policy spec; give bot:<bot spec> (e.g. "
                         "bot:greedy), npz:<policy file>, sb3:<model zip> or "
                         "py:<module>:<function>")
    loaders: dict[str, Callable[[str], Policy]] = {
        "bot": BotPolicy.load, "npz": NpzPolicy.load, "sb3": Sb3Policy.load,
        "py": CallablePolicy.load}
    return loaders[kind](rest)


# ------------------------------------------------------------------------------ bots
@dataclass
class BotPolicy:
    """A built-in bot, one per seat played (a bot keeps what it learnt of its game)."""

    spec: str
    name: str = ""
    bots: dict[tuple[str, int], Any] = field(default_factory=dict)

    @classmethod
    def load(cls, spec: str) -> BotPolicy:
        try:
            make_bot(spec)
        except MeepleError as exc:
            raise AgentError(f"--policy bot:{spec}: {exc}") from None
        return cls(spec, f"bot:{spec}")

    def move(self, state: State[Any], where: Seat) -> str:
        key = (where.table, where.seat)
        bot = self.bots.get(key)
        if bot is None:
            bot = self.bots[key] = make_bot(self.spec, seed=hash(key) & 0x7FFFFFFF)
        view = state.seen_by(where.seat)
        return str(bot.choose(view, view.legal_moves()))


# ------------------------------------------------------------------------------ action policies
ActionFunction = Callable[[dict[str, Any], Any, dict[str, Any]], Any]


@dataclass
class ActionPolicy:
    """A policy over the RL envs' action numbers: builds the seat's observation and mask as
    the envs do, asks ``choose``, and maps the action back to its move. An action that is not
    legal (out of range, masked out, not a whole number) is reported on stderr and a random
    legal one is played in its place, so a table never waits on a broken policy."""

    name: str
    choose: ActionFunction
    #: the game the policy was trained on, if it says (None: any)
    game: str | None = None
    rng: Rng = field(default_factory=lambda: Rng(0))

    def move(self, state: State[Any], where: Seat) -> str:
        import numpy as np

        from meeple.rl.spaces import encoding

        if self.game is not None and self.game != state.game_name:
            raise AgentError(f"{self.name} was trained on {self.game}, not {state.game_name}")
        enc = encoding(state)
        mask = enc.mask(state)
        legal = [int(i) for i in np.flatnonzero(mask)]
        obs = {"observation": enc.observe(state, where.seat), "action_mask": mask}
        info = {"game": state.game_name, "variant": state.variant(), "players": state.players,
                "seat": where.seat, "table": where.table, "legal_actions": legal,
                "actions": enc.actions, "state": state.seen_by(where.seat)}
        action = self.choose(obs, mask, info)
        return move_of(enc.actions, legal, action, self.name, self.rng)


def move_of(actions: tuple[str, ...], legal: list[int], action: Any, name: str, rng: Rng
            ) -> str:
    """The move text of ``action`` (an index into ``actions``); an index not in ``legal`` is
    reported and replaced by a random legal one."""
    try:
        index = int(action.item() if hasattr(action, "item") else action)
    except (TypeError, ValueError):
        index = -1
    if index not in legal:
        print(f"meeple agent: {name} chose {action!r}, not a legal action now "
              f"({len(legal)} legal); playing a random legal one", file=sys.stderr)
        index = rng.choice(legal)
    return actions[index]


class NpzPolicy:
    """The linear policy file of ``examples/train_masked_policy.py``: greedy over the legal
    actions of ``W @ (observation * scale) + b``."""

    @staticmethod
    def load(path_text: str) -> ActionPolicy:
        import numpy as np

        path = Path(path_text)
        try:
            data = np.load(path, allow_pickle=False)
            w, b, scale = (np.asarray(data[k], np.float32) for k in ("W", "b", "scale"))
            meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
        except FileNotFoundError:
            raise AgentError(f"--policy npz:{path_text}: no such file") from None
        except KeyError as exc:
            raise AgentError(f"--policy npz:{path_text}: not a policy file of "
                             f"train_masked_policy.py (no array {exc.args[0]})") from None
        except (OSError, ValueError) as exc:
            raise AgentError(f"--policy npz:{path_text}: cannot read it as .npz ({exc})"
                             ) from None
        if w.ndim != 2 or b.shape != (w.shape[0],) or scale.shape != (w.shape[1],):
            raise AgentError(f"--policy npz:{path_text}: W {w.shape}, b {b.shape} and scale "
                             f"{scale.shape} do not fit together")
        game = meta.get("game") if isinstance(meta, dict) else None

        def choose(obs: dict[str, Any], mask: Any, info: dict[str, Any]) -> int:
            x = obs["observation"].astype(np.float32)
            if x.shape != scale.shape or mask.shape != b.shape:
                raise AgentError(f"--policy npz:{path_text} has {w.shape[1]} inputs and "
                                 f"{w.shape[0]} actions; this table's variant has {x.shape[0]} "
                                 f"and {mask.shape[0]}")
            logits = w @ (x * scale) + b
            logits[mask == 0] = -np.inf
            return int(np.argmax(logits))

        return ActionPolicy(f"npz:{path_text}", choose, game if isinstance(game, str) else None)


class Sb3Policy:
    """A Stable-Baselines3 model through an adapter: loaded with
    ``sb3_contrib.MaskablePPO.load`` (the masked PPO that fits these envs), else
    ``stable_baselines3.PPO.load``; asked ``predict`` with the observation as the model was
    trained on it (a float observation space: the vector scaled to [0, 1] as
    :func:`meeple.rl.maskable_env` gives it; an int one: the env's int16 vector; a dict
    space: the env's whole dict) and, for a maskable model, ``action_masks``. Neither package
    is a dependency of meeple: install ``sb3-contrib`` beside it to use one."""

    @staticmethod
    def load(path_text: str) -> ActionPolicy:
        if not Path(path_text).is_file():
            raise AgentError(f"--policy sb3:{path_text}: no such file")
        try:
            from sb3_contrib import MaskablePPO
            model: Any = MaskablePPO.load(path_text, device="cpu")
            masked = True
        except ImportError:
            try:
                from stable_baselines3 import PPO
            except ImportError:
                raise AgentError("--policy sb3: needs Stable-Baselines3: pip install "
                                 "sb3-contrib (it brings stable-baselines3)") from None
            model = PPO.load(path_text, device="cpu")
            masked = False
        except Exception as exc:  # a zip that is not a model: its loader's own message
            raise AgentError(f"--policy sb3:{path_text}: cannot load it ({exc})") from None
        import numpy as np

        from meeple.bots.encoding import unit_bounds
        from meeple.rl.spaces import encoding

        space = model.observation_space
        whole = type(space).__name__ == "Dict"
        # a model trained on maskable_env takes the vector scaled to [0, 1] as float32
        scaled = not whole and np.issubdtype(space.dtype, np.floating)

        def choose(obs: dict[str, Any], mask: Any, info: dict[str, Any]) -> int:
            given: Any = obs if whole else obs["observation"]
            if scaled:
                low, span = unit_bounds(encoding(info["state"]))
                given = (obs["observation"].astype(np.float32) - low) / span
            if masked:
                action, _ = model.predict(given, action_masks=mask.astype(bool),
                                          deterministic=True)
            else:
                action, _ = model.predict(given, deterministic=True)
            return int(action)

        return ActionPolicy(f"sb3:{path_text}", choose)


class CallablePolicy:
    """``py:module:function``: the callable :data:`ACTION_CALLABLE` describes, imported from
    ``module`` (the working folder is on the path, so a file ``mine.py`` there is
    ``py:mine:choose``)."""

    @staticmethod
    def load(text: str) -> ActionPolicy:
        module_name, sep, function = text.rpartition(":")
        if not sep or not module_name or not function:
            raise AgentError(f"--policy py:{text}: give py:<module>:<function>, e.g. "
                             "py:mypolicy:choose")
        if "" not in sys.path:
            sys.path.insert(0, "")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise AgentError(f"--policy py:{text}: cannot import {module_name!r} ({exc})"
                             ) from None
        except Exception as exc:  # the module's own code failed as it loaded
            raise AgentError(f"--policy py:{text}: importing {module_name!r} failed: "
                             f"{type(exc).__name__}: {exc}") from None
        fn = getattr(module, function, None)
        if not callable(fn):
            raise AgentError(f"--policy py:{text}: {module_name} has no callable {function!r}")
        return ActionPolicy(f"py:{text}", fn)


__all__ = ["ACTION_CALLABLE", "KINDS", "ActionPolicy", "AgentError", "BotPolicy",
           "CallablePolicy", "NpzPolicy", "Policy", "Sb3Policy", "Seat", "load_policy",
           "move_of"]
