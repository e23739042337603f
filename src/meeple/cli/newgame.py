"""``meeple new-game NAME``: a small working game written from the template in ``template/``.

The template is a real game (a take-away race with an opening die roll, a compound turn and a
score pad), so the new package plays at once: the conformance suite, the browser and the RL
environments take it as it is, and its author changes the rules from there
(docs/adding-a-game.md). The games are found by walking ``meeple.games`` and the folders of
``MEEPLE_GAMES_PATH`` (:mod:`meeple.core.registry`), so nothing outside the new folder changes.
"""

from __future__ import annotations

import keyword
import re
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer

import meeple
from meeple.cli.common import app, console, refuse

#: What a game's name may be: a lowercase Python identifier (its package's name).
NAME_RULE = "a lowercase Python identifier: a letter, then letters, digits or _ (e.g. pebbles)"
NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
#: The longest name taken (it is a table's game, a URL part and a package name).
MAX_NAME = 30


def game_name_problem(name: str) -> str | None:
    """What is wrong with ``name`` for a new game, or None: the rule it breaks, or the game
    that already has it."""
    if not NAME.match(name) or len(name) > MAX_NAME or keyword.iskeyword(name):
        return f"{name[:40]!r} cannot name a game: it must be {NAME_RULE}, at most {MAX_NAME} letters"
    if name in {g.name for g in meeple.games()}:
        return f"a game named {name!r} exists already; choose another name"
    return None


def template_files(name: str) -> dict[str, str]:
    """The new game's files, by file name: the template with the name filled in."""
    title = name.replace("_", " ").title()
    words = {"{{name}}": name, "{{Title}}": title, "{{Class}}": title.replace(" ", "")}
    out = {}
    for item in (resources.files("meeple.cli") / "template").iterdir():
        if item.name.endswith(".tmpl"):
            text = item.read_text(encoding="utf-8")
            for key, value in words.items():
                text = text.replace(key, value)
            out[item.name.removesuffix(".tmpl")] = text
    return out


def games_folder() -> Path:
    """Where the games of this source tree are: ``meeple.games``' own folder."""
    return Path(str(resources.files("meeple.games")))


@app.command("new-game")
def new_game(
    name: Annotated[str, typer.Argument(help=f"the game's name: {NAME_RULE}")],
    into: Annotated[Path | None, typer.Option(
        "--into", help="the folder to write the game's package in (default: the games of this "
                       "source tree; another folder is found when MEEPLE_GAMES_PATH names it)",
    )] = None,
) -> None:
    """Write a small working game NAME from the template: rules, words, views, terminal and
    browser drawings, a how-to-play page and a recount for the conformance suite."""
    problem = game_name_problem(name)
    if problem is not None:
        raise refuse(problem)
    parent = into if into is not None else games_folder()
    if not parent.is_dir():
        raise refuse(f"--into {parent} is no folder: give a folder that exists")
    folder = parent / name
    if folder.exists():
        raise refuse(f"{folder} exists already: choose another name or folder")
    files = template_files(name)
    folder.mkdir()
    for filename, text in files.items():
        (folder / filename).write_text(text, encoding="utf-8")
    console.print(f"wrote {len(files)} files in {folder}: play it with "
                  f"[bold]meeple play {name}[/]; docs/adding-a-game.md says what to change")
