"""Shared pieces of the command line: the Typer app, the consoles, variant options, and saving
a game record so that it is never lost (:func:`save_record`)."""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from typer.core import TyperCommand, TyperGroup

import meeple
from meeple.core.errors import MeepleError
from meeple.core.records import FileProblem, check_output_file

#: Written in a command's help where it names the games: ``{games}`` (every game's name),
#: ``{titles}`` (every game's title) or ``{games with OPTION}`` (the titles of the games that
#: offer OPTION). :class:`GamesHelpCommand` fills them in from the registry when the help is
#: shown, so a game found on ``MEEPLE_GAMES_PATH`` is listed with no edit here, and a command
#: that is run rather than explained loads no game for its help.
GAMES_IN_HELP = re.compile(r"\{(games|titles)(?: with (\w+))?\}")


def game_names(conjunction: str = "or") -> str:
    """The registry's game names as a list a sentence can hold: ``gardens, pergola, reefs or
    takenokolor``."""
    return _listed([g.name for g in meeple.games()], conjunction)


def _listed(items: list[str], conjunction: str) -> str:
    if len(items) <= 1:
        return "".join(items) or "none"
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def games_in_help(text: str) -> str:
    """``text`` with each :data:`GAMES_IN_HELP` mark replaced by what the registry holds."""

    def fill(mark: re.Match[str]) -> str:
        what, option = mark.groups()
        found = [g for g in meeple.games() if option is None or option in g.options]
        return _listed([g.name if what == "games" else g.title for g in found],
                       "or" if what == "games" else "and")

    return GAMES_IN_HELP.sub(fill, text)


def _fill_games(command: TyperCommand | TyperGroup) -> None:
    if command.help:
        command.help = games_in_help(command.help)
    for param in command.params:
        text = getattr(param, "help", None)
        if text:
            param.help = games_in_help(text)  # type: ignore[attr-defined]


class GamesHelpCommand(TyperCommand):
    """A command whose help names the registry's games (:data:`GAMES_IN_HELP`)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _fill_games(self)
        super().format_help(ctx, formatter)


class GamesHelpGroup(TyperGroup):
    """A group of commands whose own help names the registry's games (:data:`GAMES_IN_HELP`)."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _fill_games(self)
        super().format_help(ctx, formatter)


app = typer.Typer(
    name="meeple",
    cls=GamesHelpGroup,
    help="Play, study and train agents on {titles}.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

class FullConsole(Console):
    """A Rich console that never cuts or wraps what it prints into a pipe or a file.

    On a terminal it is a plain :class:`~rich.console.Console` (wrapped to the window). When
    the output is not a terminal (``meeple games | less``, ``> report.txt``), Rich would assume
    80 columns and cut wide tables with "…"; here each ``print`` is laid out as wide as its
    content needs instead.
    """

    def print(self, *objects: Any, **kwargs: Any) -> None:
        if self.is_terminal or not objects or kwargs.get("width") is not None:
            super().print(*objects, **kwargs)
            return
        wide = self.options.update_width(100_000)
        need = 0
        for obj in objects:
            renderable = (self.render_str(obj, markup=kwargs.get("markup"), highlight=False)
                          if isinstance(obj, str) else obj)
            try:
                need = max(need, Measurement.get(self, wide, renderable).maximum)
            except Exception:  # not measurable: Rich's own layout
                continue
        before = self._width
        self._width = max(self.width, need)
        try:
            super().print(*objects, **kwargs)
        finally:
            self._width = before


console = FullConsole(highlight=False)
err_console = FullConsole(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print a clear error (``message`` is Rich markup) and return the Exit to raise."""
    err_console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(code)


def refuse(message: str, code: int = 2) -> typer.Exit:
    """:func:`fail` for plain text: brackets in ``message`` (``[pond]``, a path) are kept as
    they are, not read as markup."""
    return fail(escape(message), code)


def variant_options(
    game: str,
    level: int | None = None,
    sheet: str | None = None,
    challenge: int | None = None,
    option: list[str] | None = None,
) -> dict[str, Any]:
    """Keyword arguments for ``meeple.new_game`` from the common CLI options.

    ``--level``, ``--sheet`` and ``--challenge`` are shortcuts; ``--option key=value`` passes any
    other option a game offers (``meeple games`` lists them). An option the game does not have,
    a value it does not offer, and two values for one option (``--level 2 --option level=3``)
    are refused with what is allowed; the game itself refuses options that contradict each
    other (``--level 2 --sheet level-1``).
    """
    info = meeple.game_info(game)
    out: dict[str, Any] = {}
    given: dict[str, str] = {}
    shortcuts = (("level", level), ("challenge", challenge), ("sheet", sheet))
    for key, value in shortcuts:
        if value is not None:
            out[key] = value
            given[key] = f"--{key} {value}"
    for item in option or []:
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key:
            raise MeepleError(f"--option {item!r} must be written key=value "
                              f"({_offered(info)})")
        if key != "sheet" and key not in info.options:
            raise MeepleError(f"--option {item!r}: {info.title} has no option {key!r} "
                              f"({_offered(info)})")
        allowed = info.options.get(key, ())
        parsed: Any = value
        if any(isinstance(a, int) and not isinstance(a, bool) for a in allowed):
            try:
                parsed = int(value)
            except ValueError:
                parsed = value
        if value in ("None", "none") and None in allowed:
            parsed = None
        if allowed and parsed not in allowed:
            shown = ", ".join(str(a) for a in allowed)
            raise MeepleError(f"--option {item!r}: {key}={value} is not offered by "
                              f"{info.title}; {key} can be {shown}")
        if key in out and out[key] != parsed:
            raise MeepleError(f"{given[key]} and --option {item} contradict each other; "
                              f"give {key} once")
        out[key] = parsed
        given[key] = f"--option {item}"
    return out


def _offered(info: Any) -> str:
    opts = "; ".join(f"{k}: {', '.join(str(v) for v in vals)}" if vals else k
                     for k, vals in info.options.items())
    return f"{info.title} options: {opts}" if opts else f"{info.title} has no options"


def check_game(game: str) -> None:
    try:
        meeple.game_info(game)
    except MeepleError as exc:
        raise refuse(str(exc)) from None


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    with path.open("a", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")


# -- saving a game record: never lost --------------------------------------------------------

RECORDS_FOLDER = "meeple-records"


def default_record_name(game: str, seed: int | None) -> str:
    """``<game>-seed<seed>-<yyyymmdd-hhmmss>.json``: the name a record gets by default."""
    return f"{game}-seed{seed}-{time.strftime('%Y%m%d-%H%M%S')}.json"


def record_path_problem(path: Path) -> str | None:
    """Why a record cannot be written at ``path`` (None if it can)."""
    try:
        check_output_file(path)
    except FileProblem as exc:
        return exc.problem
    return None


def check_record_path(path: Path | None, game: str) -> None:
    """Before a game: say now if ``--record PATH`` cannot be used and where the record will go
    instead (see :func:`save_record`), so nobody finds out after the whole game."""
    if path is None:
        return
    if path.is_dir():
        err_console.print(f"[yellow]note:[/] --record {path} is a folder: the record will be "
                          f"saved in it as {game}-seed<seed>-<date>-<time>.json")
        return
    problem = record_path_problem(path)
    if problem is not None:
        err_console.print(f"[yellow]note:[/] --record {path}: {problem}; the record will be "
                          f"saved in ./{RECORDS_FOLDER}/ instead (or in "
                          f"{Path(tempfile.gettempdir()) / RECORDS_FOLDER} if that cannot be "
                          "written)")


def _record_targets(path: Path | None, game: str, seed: int | None) -> list[Path]:
    """Where to try to save, in order: the path asked for (a file inside it when it is a
    folder), then ``./meeple-records/<default name>``, then the same in the temp folder."""
    name = default_record_name(game, seed)
    fallback = [Path(RECORDS_FOLDER) / name, Path(tempfile.gettempdir()) / RECORDS_FOLDER / name]
    if path is None:
        return fallback
    return [path / name if path.is_dir() else path, *fallback]


def _write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, so that a
    failure half-way never leaves a half-written record (or destroys an older one)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_record(record: Any, path: Path | None, game: str) -> Path:
    """Save a game record (a ``State`` or its ``record()`` dict) as indented JSON and return
    where it went.

    ``path`` None: ``./meeple-records/<game>-seed<seed>-<date>-<time>.json``. ``path`` a folder:
    that name inside it. If the file cannot be written there (a missing folder, no permission,
    not a regular file, a full disk), the failure is printed and the record goes to
    ``./meeple-records/`` (created if needed), and failing that to ``meeple-records`` in the
    temp folder. If even that fails the record is printed, so it is never lost.
    """
    rec = record if isinstance(record, dict) else record.record()
    text = json.dumps(rec, indent=1)
    targets = _record_targets(path, game, rec.get("seed"))
    for i, target in enumerate(targets):
        explicit = path is not None and i == 0
        try:
            if explicit:
                problem = record_path_problem(target)
                if problem is not None:
                    raise OSError(problem)
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
            _write_atomically(target, text)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            err_console.print(f"[yellow]note:[/] the record cannot be saved to {target}: "
                              f"{reason}")
            continue
        if i > 0 and path is not None:
            err_console.print(f"[yellow]note:[/] saved to {target} instead")
        return target
    err_console.print("[bold red]error:[/] the record could not be saved anywhere; here it is, "
                      "copy it into a .json file to replay it:")
    print(text)
    raise typer.Exit(2)
