"""Everything a client sends, checked before anything else reads it.

A client is hostile until checked. This module holds the server's checks of input that the
request models alone cannot express:

- :func:`loads_strict`, the one JSON parser for request bodies and WebSocket frames: UTF-8
  only, no ``NaN``/``Infinity``/overflowing floats, integers within 64 bits, no lone surrogate
  in any string, no key twice in one object, at most :data:`MAX_DEPTH` levels of nesting and
  :data:`MAX_NODES` values, all checked without recursion on text already bounded in size;
- :class:`StrictJsonBodies`, the ASGI middleware that puts every JSON request body through it
  (and refuses bodies over :data:`MAX_BODY` bytes) before FastAPI parses it, so a hostile body
  gets a 422 that says what was wrong instead of a server error;
- :func:`checked_variant`, the variant of a new table: only the game's options with offered
  values, and a ``sheet`` only by the name of a shipped sheet (never a path: the server opens
  no file a client names);
- :func:`checked_text`, ids: printable text of bounded length (no control characters,
  which PostgreSQL would refuse to store);
- :func:`checked_name`, people's and seats' names: NFKC-normalised, not blank, no invisible
  or formatting characters, no letters of two look-alike scripts.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import meeple
from meeple.core.errors import BadVariant
from meeple.core.registry import game_sheets

#: The largest JSON request body accepted, in bytes (a table on an own sheet is the largest).
MAX_BODY = 512 * 1024
#: The deepest nesting of arrays and objects accepted in a body or a frame (a sheet needs 6).
MAX_DEPTH = 32
#: The most values (numbers, strings, arrays, objects) in one body or frame.
MAX_NODES = 100_000
#: Integers in a body or frame: within a signed 64-bit integer.
INT_MIN, INT_MAX = -(1 << 63), (1 << 63) - 1
#: The largest integer a path or query parameter takes (a seat, a version, a move count).
MAX_PARAM = (1 << 31) - 1

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BadInput(ValueError):
    """Input refused before it was read: the message says what was wrong and what is allowed."""


def _constant(name: str) -> Any:
    raise BadInput(f"{name} is not a JSON number; numbers are finite decimals")


def _float(text: str) -> float:
    value = float(text)
    if value != value or value in (float("inf"), float("-inf")):
        raise BadInput(f"the number {text[:40]} is out of range; numbers are finite decimals")
    return value


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > 19:
        raise BadInput(f"the integer {text[:24]}... has {len(digits)} digits; integers are "
                       f"within 64 bits ({INT_MIN} to {INT_MAX})")
    value = int(text)
    if not INT_MIN <= value <= INT_MAX:
        raise BadInput(f"the integer {text} is beyond 64 bits; integers are within "
                       f"{INT_MIN} to {INT_MAX}")
    return value


def _check_string(s: str) -> None:
    if not s.isascii():
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            raise BadInput("a string holds a lone surrogate (\\ud800-\\udfff without its "
                           "pair); strings are valid Unicode") from None


def _object(pairs: list[tuple[str, Any]], what: str) -> dict[str, Any]:
    """A JSON object, refused when a key appears in it twice (JSON leaves that undefined: a
    parser may keep the first or the last, and two readers of one body could disagree)."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                shown = ascii(key[:40]) + ("..." if len(key) > 40 else "")
                raise BadInput(f"{what} repeats the key {shown} in one object; each key may "
                               f"appear once in an object")
            seen.add(key)
    return value


def check_tree(value: Any, what: str = "the JSON") -> None:
    """Refuse a parsed JSON value nested deeper than :data:`MAX_DEPTH`, with more than
    :data:`MAX_NODES` values, or holding a string that is not valid Unicode (keys too). Walks
    with a stack of its own, never recursion."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    nodes = 0
    while stack:
        item, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise BadInput(f"{what} holds more than {MAX_NODES} values")
        if isinstance(item, str):
            _check_string(item)
        elif isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise BadInput(f"{what} is nested more than {MAX_DEPTH} levels deep")
            if isinstance(item, dict):
                for key, sub in item.items():
                    _check_string(key)
                    stack.append((sub, depth + 1))
            else:
                stack.extend((sub, depth + 1) for sub in item)


def loads_strict(raw: bytes | str, what: str = "the JSON") -> Any:
    """``raw`` parsed as strict JSON (see the module's doc), or :class:`BadInput` saying why
    not. ``raw`` must already be bounded in size by the caller."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadInput(f"{what} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset "
                           f"{exc.start}); send JSON as UTF-8") from None
    else:
        text = raw
    try:
        value = json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int,
                           object_pairs_hook=lambda pairs: _object(pairs, what))
    except json.JSONDecodeError as exc:
        raise BadInput(f"{what} is not JSON: {exc.msg} (line {exc.lineno}, column "
                       f"{exc.colno})") from None
    except RecursionError:
        raise BadInput(f"{what} is nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:  # BadInput from a hook, or Python's own number limits
        if isinstance(exc, BadInput):
            raise
        raise BadInput(f"{what} holds a number out of range: {exc}") from None
    check_tree(value, what)
    return value


def _detail(status: int, detail: str) -> bytes:
    return json.dumps({"detail": detail}).encode("utf-8")


class StrictJsonBodies:
    """ASGI middleware: every request body (but those of the paths in ``raw_paths``, which
    take a file of their own format) must be strict JSON of at most :data:`MAX_BODY` bytes;
    otherwise the request is answered 413 or 422 with ``{"detail": ...}`` and never reaches
    the app. A body that passes is handed on unchanged."""

    def __init__(self, app: ASGIApp, raw_suffixes: tuple[str, ...] = ("/check",)) -> None:
        self.app = app
        self.raw_suffixes = raw_suffixes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS") or \
                str(scope.get("path", "")).endswith(self.raw_suffixes):
            await self.app(scope, receive, send)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = bool(message.get("more_body"))
            if len(body) > MAX_BODY:
                await self._refuse(send, 413, f"the request body is over {MAX_BODY} bytes; at "
                                              f"most {MAX_BODY} are accepted")
                return
        if body.strip():
            try:
                loads_strict(bytes(body), "the request body")
            except BadInput as exc:
                await self._refuse(send, 422, str(exc))
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(send: Send, status: int, detail: str) -> None:
        payload = _detail(status, detail)
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(payload)).encode())]})
        await send({"type": "http.response.body", "body": payload})


def checked_variant(game: str, variant: dict[str, Any]) -> dict[str, Any]:
    """The variant of a new table of ``game`` as a client asked for it, refused with
    :class:`BadVariant` unless every key is one of the game's options with an offered value,
    or ``sheet`` naming a shipped sheet that the game's variants use. The server never opens a
    file a client names: a sheet of one's own is sent as its text (``sheet`` of the request)."""
    info = meeple.game_info(game)
    sheet_games = any("sheet" in v for v in info.variants)
    for key, value in variant.items():
        if key == "sheet" and key not in info.options:
            names = game_sheets(info.name) if sheet_games else []
            if not names:
                raise BadVariant(f"{info.title} has no option 'sheet'; options: "
                                 f"{', '.join(sorted(info.options)) or 'none'}")
            if not isinstance(value, str) or value not in names:
                raise BadVariant(f"sheet={str(value)[:80]!r} is not a shipped {info.title} "
                                 f"sheet; choose from {', '.join(names)} (a sheet of your own "
                                 f"goes in the request's 'sheet' as the file's text)")
            continue
        if key not in info.options:
            raise BadVariant(f"{info.title} has no option {key[:40]!r}; options: "
                             f"{', '.join(sorted(info.options)) or 'none'}")
        if isinstance(value, (dict, list, bool)):
            raise BadVariant(f"{key} takes one of {', '.join(map(repr, info.options[key]))}, "
                             f"not {type(value).__name__}")
    return dict(variant)


def checked_text(value: str, what: str, max_length: int) -> str:
    """``value`` if it is printable text of 1 to ``max_length`` characters; else
    :class:`BadInput` naming ``what`` and what is allowed."""
    if not 0 < len(value) <= max_length:
        raise BadInput(f"{what} must be 1 to {max_length} characters, not {len(value)}")
    if not value.isprintable():
        raise BadInput(f"{what} must be printable text (no control characters such as "
                       f"newlines or NUL)")
    _check_string(value)
    return value


#: Characters Unicode counts as letters or symbols that show nothing (so ``isprintable``
#: lets them pass): the Hangul fillers, the Braille blank, the combining grapheme joiner,
#: the Khmer inherent vowels and the Mongolian vowel separator.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180e")
#: The scripts whose letters look alike (Latin a, Cyrillic а, Greek α): a name's letters may
#: be of one of them, not of two.
LOOK_ALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")
#: The most combining marks in a row on one letter (Thai and Vietnamese need 2; "Zalgo" text
#: stacks dozens over its neighbours' lines).
MAX_MARKS = 3
#: What a name may be, said in every refusal of one.
NAME_RULE = ("letters, digits, punctuation and single spaces, with letters of at most one of "
             "the look-alike scripts Latin, Greek and Cyrillic in each word")


def _code(ch: str) -> str:
    return f"U+{ord(ch):04X}" + (f" {unicodedata.name(ch)}" if unicodedata.name(ch, "") else "")


def _one_script(scripts: dict[str, str], what: str) -> None:
    """Refuse a word whose letters come from two of the look-alike scripts (``scripts``: the
    first letter of each found in it): ``Pаypal`` with a Cyrillic ``а`` passes for another
    name; ``Ann Иван``, a word of each, does not."""
    if len(scripts) > 1:
        found = " and ".join(f"{s.title()} (U+{ord(c):04X} {c})" for s, c in scripts.items())
        raise BadInput(f"{what} mixes letters of {found} in one word, which look alike; a "
                       f"name is {NAME_RULE}")


def checked_name(value: str, what: str = "a name", max_length: int = 60) -> str:
    """A person's or seat's name as it is kept: ``value`` NFKC-normalised (full-width and
    other compatibility forms become the plain letters they look like: ``Ａｎｎ`` is ``Ann``),
    with its spaces at the ends dropped and inner runs made one space; or :class:`BadInput`
    naming what was wrong and what a name may be. Refused: a blank name, control characters,
    invisible and formatting characters (category Cf: zero-width spaces and joiners, the
    bidi controls such as U+202E; and :data:`INVISIBLE`), private-use and unassigned code
    points, more than :data:`MAX_MARKS` combining marks in a row, and letters of two of the
    look-alike scripts (:data:`LOOK_ALIKE_SCRIPTS`) in one word."""
    if len(value) > 4 * max_length:  # (bounds the work below; the exact count comes after)
        raise BadInput(f"{what} must be 1 to {max_length} characters, not {len(value)}")
    _check_string(value)
    text = unicodedata.normalize("NFKC", value)
    marks = 0
    scripts: dict[str, str] = {}
    for ch in text:
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Zl", "Zp"):
            raise BadInput(f"{what} holds a control character ({_code(ch)}); a name is "
                           f"{NAME_RULE}, on one line")
        if cat == "Cf" or ch in INVISIBLE:
            raise BadInput(f"{what} holds an invisible or formatting character ({_code(ch)}: "
                           f"zero-width characters, joiners and bidi controls are not "
                           f"allowed); a name is {NAME_RULE}")
        if cat in ("Co", "Cn", "Cs"):
            raise BadInput(f"{what} holds a private-use or unassigned code point "
                           f"(U+{ord(ch):04X}); a name is {NAME_RULE}")
        if cat == "Zs" and ch != " ":
            raise BadInput(f"{what} holds an unusual space ({_code(ch)}); a name is "
                           f"{NAME_RULE}")
        if ch == " ":  # a word ends: a name may hold words of different scripts
            _one_script(scripts, what)
            scripts = {}
            marks = 0
            continue
        if cat in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                raise BadInput(f"{what} stacks more than {MAX_MARKS} combining marks on one "
                               f"letter; a name is {NAME_RULE}")
            continue
        marks = 0
        if ch.isalpha():
            script = unicodedata.name(ch, "").split(" ", 1)[0]
            if script in LOOK_ALIKE_SCRIPTS:
                scripts.setdefault(script, ch)
    _one_script(scripts, what)
    name = " ".join(part for part in text.split(" ") if part)
    if not name:
        raise BadInput(f"{what} is blank; a name is 1 to {max_length} characters of "
                       f"{NAME_RULE}")
    if len(name) > max_length:
        raise BadInput(f"{what} must be 1 to {max_length} characters, not {len(name)} "
                       f"(after normalisation)")
    return name


__all__ = ["MAX_BODY", "MAX_DEPTH", "MAX_NODES", "MAX_PARAM", "NAME_RULE", "BadInput",
           "StrictJsonBodies", "check_tree", "checked_name", "checked_text", "checked_variant",
           "loads_strict"]
