"""What a client may ask of a bot: the budgets a server accepts in a seat's or a hint's spec.

A bot spec from the command line may ask for anything (a long experiment is the user's own
machine time). A spec a client sends to a server (a bot seat, a hint level) is held to
:data:`CLIENT_LIMITS`: every numeric option must be a finite number no larger than its limit,
and the spec itself at most :data:`MAX_SPEC_LENGTH` characters. :func:`client_spec` refuses
anything beyond them with a :class:`~meeple.core.errors.MeepleError` naming the option, the
value and the limit, before any bot is built. Named difficulties (``easy``, ``medium``,
``hard``) are presets within these limits. The limits are documented in docs/server.md.
"""

from __future__ import annotations

import math

from meeple.bots.base import BOTS, make_bot, parse_options
from meeple.core.errors import MeepleError

#: The longest bot spec a client may send.
MAX_SPEC_LENGTH = 200

#: The largest value of each numeric bot option a client may ask for. ``seconds`` and ``cpu``
#: are per decision (the server also stops any decision that outruns its deadline).
CLIENT_LIMITS: dict[str, float] = {
    "iterations": 20_000,
    "cpu": 10.0,
    "seconds": 10.0,
    "top": 64,
    "horizon": 200,
    "beam": 64,
    "bias": 100.0,
    "epsilon": 1.0,
}


def client_spec(spec: str, game: str | None = None) -> str:
    """``spec`` stripped, if a client may ask a server for it (a known bot, options within
    :data:`CLIENT_LIMITS`, and, given the ``game`` it is to play, what it names there, such
    as ``mcts``'s ``net``, there); otherwise :class:`MeepleError` saying what is over and what
    is allowed."""
    text = spec.strip()
    if not text:
        raise MeepleError(f"the bot spec is empty; bots: {', '.join(sorted(BOTS))}")
    if len(text) > MAX_SPEC_LENGTH:
        raise MeepleError(f"the bot spec is {len(text)} characters; at most {MAX_SPEC_LENGTH}")
    if not text.isprintable():
        raise MeepleError("a bot spec is printable text, e.g. mcts:iterations=500")
    rest = text.partition(":")[2]
    for key, value in parse_options(rest).items():
        limit = CLIENT_LIMITS.get(key)
        if limit is None or isinstance(value, str):
            continue  # a name or flag option: the bot itself checks it
        if not math.isfinite(value) or value > limit:
            raise MeepleError(
                f"bot option {key}={value} is over what a server table allows ({key} at most "
                f"{limit:g}); limits: " + ", ".join(f"{k} {v:g}" for k, v in CLIENT_LIMITS.items()))
    bot = make_bot(text)  # unknown bots and options, and values out of their own range, refused
    if game is not None:
        bot.check_game(game)  # e.g. nets the game does not have
    return text


__all__ = ["CLIENT_LIMITS", "MAX_SPEC_LENGTH", "client_spec"]
