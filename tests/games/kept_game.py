"""A game made by ``meeple new-game`` in a folder of its own (one ``MEEPLE_GAMES_PATH`` names),
optionally given shipped sheets the way a game's author would add them: a ``sheets/`` folder
of TOML files, a variant that names one, and a factory that reads it. The CLI and server tests
of the lookups by the registry use it (tests/cli/test_games_from_registry.py,
tests/server/test_sheets_of_a_kept_game.py)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from meeple.cli import app

#: The sheets the game is given: each sets the base pile.
SHEETS = {"tall": 12, "short": 8}

#: What the factory does with a sheet: the pile its shipped file gives (the file found through
#: the registry, as the site finds it), or the pile of a sheet given as data.
READ_SHEET = '''
def sheet_pile(sheet: str | Mapping[str, Any]) -> int:
    import tomllib

    from meeple.core.registry import game_files

    if not isinstance(sheet, str):
        return int(sheet["pile"])
    if sheet not in SHEETS:
        raise BadVariant(f"no shipped sheet {sheet!r}; shipped: {', '.join(SHEETS)}")
    text = (game_files(NAME) / "sheets" / f"{sheet}.toml").read_text(encoding="utf-8")
    return int(tomllib.loads(text)["pile"])
'''


def make_kept_game(folder: Path, name: str, *, sheets: bool = False) -> Path:
    """``meeple new-game name --into folder``; with ``sheets``, the game ships :data:`SHEETS`
    and its variants include ``{"sheet": "tall"}``. Returns the game's folder."""
    res = CliRunner().invoke(app, ["new-game", name, "--into", str(folder)])
    assert res.exit_code == 0, res.output
    game = folder / name
    if not sheets:
        return game
    (game / "sheets").mkdir()
    for sheet, pile in SHEETS.items():
        (game / "sheets" / f"{sheet}.toml").write_text(f"pile = {pile}\n", encoding="utf-8")
    init = game / "__init__.py"
    text = init.read_text(encoding="utf-8")
    old = "variants=({\"pile\": PILES[0]},),"
    assert old in text
    init.write_text(text.replace(old, "variants=({\"pile\": PILES[0]}, {\"sheet\": \"tall\"}),"),
                    encoding="utf-8")
    rules = game / "rules.py"
    text = rules.read_text(encoding="utf-8")
    refuse = f'        raise BadVariant("{name.title()} has no sheets: leave the sheet out")\n'
    assert refuse in text
    text = text.replace(refuse, "        pile = sheet_pile(sheet)\n")
    text += f"\nNAME = {name!r}\nSHEETS = {list(SHEETS)!r}\n" + READ_SHEET
    rules.write_text(text, encoding="utf-8")
    return game
