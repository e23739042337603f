"""Every game package has one shape (docs/adding-a-game.md): the same modules with the same roles.

The checks read each registered game's package from its source (``ast``) and its ``GAME``
registration, so a fifth game that puts its announcements in its renderer, its factory in its
``__init__`` or breaks an import loop with an import inside a function fails here, named.
``test_a_package_that_breaks_the_shape_is_told_what_is_wrong`` shows each check failing.
"""

from __future__ import annotations

import ast
import importlib
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from meeple.core.layers import BotKnowledge, Learning
from meeple.core.present import Presentation
from meeple.core.registry import GameInfo, games
from meeple.core.state import CHANCE, State

#: The modules every game has, and the role each is checked for.
REQUIRED = ("__init__", "rules", "moves", "scoring", "words", "boards", "render", "learning")
#: Modules a game has only when it needs them: ``sheet`` (when it has sheets), ``evaluation``
#: and ``presets`` (when it overrides the bots' default, ``BOTS``), ``ranker`` (its turn
#: ranker, when it registers one). Any other module is the game's own (Pergola's ``solo``).
OPTIONAL = ("sheet", "evaluation", "presets", "ranker")

#: What an ``__init__.py`` may hold at its top level: its docstring, imports, assignments
#: (``GAME = GameInfo(...)``, ``__all__``) and expressions (a registration call): no ``def``,
#: ``class``, ``if``, loop or ``try``.
_INIT_STATEMENTS = (ast.Expr, ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign)


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _top_names(tree: ast.Module) -> set[str]:
    """The names a module defines at its top level (functions, classes, assignments)."""
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module, package: str, modules: set[str]) -> list[tuple[str, bool]]:
    """The package's own modules this module imports at run time, each with whether the import
    is inside a function; imports under ``if TYPE_CHECKING:`` are left out (types only)."""
    out: list[tuple[str, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for alt in child.orelse:
                    visit(alt, in_function)
                continue
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef
                                               | ast.Lambda)
            if isinstance(child, ast.ImportFrom) and child.module:
                if child.module == package:
                    out.extend((a.name if a.name in modules else "__init__", inner)
                               for a in child.names)
                elif child.module.startswith(package + "."):
                    out.append((child.module[len(package) + 1:].split(".")[0], inner))
            elif isinstance(child, ast.Import):
                out.extend((a.name[len(package) + 1:].split(".")[0], inner)
                           for a in child.names if a.name.startswith(package + "."))
            visit(child, inner)

    visit(tree, False)
    return out


def import_cycles(package: str, directory: Path) -> list[list[str]]:
    """Every loop of run-time imports between the package's modules (imports inside functions
    count: hiding an import in a function does not break a loop, it only delays it)."""
    modules = {p.stem for p in directory.glob("*.py")}
    graph = {m: {t for t, _ in _imports(_tree(directory / f"{m}.py"), package, modules)} - {m}
             for m in modules}
    cycles: set[tuple[str, ...]] = set()

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt in path:
                loop = path[path.index(nxt):]
                k = loop.index(min(loop))
                cycles.add(tuple(loop[k:] + loop[:k]))
            else:
                walk(nxt, [*path, nxt])

    for m in sorted(graph):
        walk(m, [m])
    return [list(c) for c in sorted(cycles)]


def _module_of(obj: Any) -> str:
    """The module that defines ``obj`` (a function, a class, or an instance of a class)."""
    return getattr(obj, "__module__", None) or type(obj).__module__


def shape_problems(package: str, info: GameInfo) -> list[str]:
    """What ``package`` (whose ``GAME`` is ``info``) does differently from the shape; empty when
    it has every required module with its role."""
    root = importlib.import_module(package)
    assert root.__file__ is not None
    directory = Path(root.__file__).parent
    problems: list[str] = []
    files = {p.stem for p in directory.glob("*.py")}
    missing = [m for m in REQUIRED if m not in files]
    problems += [f"{m}.py is missing" for m in missing]
    trees = {m: _tree(directory / f"{m}.py") for m in files}

    def defined_in(what: str, obj: Any, module: str) -> None:
        if obj is not None and _module_of(obj) != f"{package}.{module}":
            problems.append(f"{what} is defined in {_module_of(obj)}, not {module}.py")

    # each layer's record of the game (docs/layers.md): rules in GAME, words, views and
    # drawing in PRESENTATION, bot knowledge in BOTS
    pres = getattr(root, "PRESENTATION", None)
    bots = getattr(root, "BOTS", None)
    if not isinstance(pres, Presentation):
        problems.append("__init__.py builds no PRESENTATION (a core.present.Presentation)")
    if bots is not None and not isinstance(bots, BotKnowledge):
        problems.append("__init__.py's BOTS is no core.layers.BotKnowledge (leave it out for "
                        "the bots' default)")
        bots = None
    learning = getattr(root, "LEARNING", None)
    if not isinstance(learning, Learning):
        problems.append("__init__.py builds no LEARNING (a core.layers.Learning)")
    else:
        for part in ("actions", "layout", "observe"):  # actions None: the default
            defined_in(f"LEARNING.{part}", getattr(learning, part), "learning")

    # __init__.py only registers: imports and the GameInfo, no functions, classes or logic
    init = trees.get("__init__")
    if init is not None:
        for node in init.body:
            if not isinstance(node, _INIT_STATEMENTS):
                problems.append(f"__init__.py line {node.lineno}: a {type(node).__name__} "
                                "(it only imports and registers)")
        problems += [f"__init__.py line {node.lineno}: a lambda (name it in its module)"
                     for node in ast.walk(init) if isinstance(node, ast.Lambda)]

    has_state = False
    if "rules" in files:
        rules = importlib.import_module(f"{package}.rules")
        has_state = any(isinstance(v, type) and issubclass(v, State)
                        and v.__module__ == rules.__name__ for v in vars(rules).values())
        if not has_state:
            problems.append("rules.py defines no State subclass")
        defined_in("GAME.factory", info.factory, "rules")
        ran = {t for t, _ in _imports(trees["rules"], package, files)}
        problems += [f"rules.py does not import {m}.py" for m in ("moves", "sheet", "scoring")
                     if m in files and m not in ran]
    if "moves" in files:
        if "NOTATION_HELP" not in _top_names(trees["moves"]):
            problems.append("moves.py defines no NOTATION_HELP")
        else:
            moves = importlib.import_module(f"{package}.moves")
            if not (isinstance(moves.NOTATION_HELP, str) and moves.NOTATION_HELP.strip()):
                problems.append("moves.NOTATION_HELP is not a text")
            if pres is not None and pres.notation_help != moves.NOTATION_HELP:
                problems.append("PRESENTATION.notation_help is not moves.NOTATION_HELP")
        if has_state:
            state = info.factory(players=info.default_players, seed=0)
            first = (state.chance_outcomes()[0][0] if state.to_move == CHANCE
                     else state.legal_moves()[0])
            if type(first).__module__ != f"{package}.moves":
                problems.append(f"the moves are {type(first).__qualname__} of "
                                f"{type(first).__module__}, not a type of moves.py")
    if "words" in files:
        fn = next((n for n in trees["words"].body
                   if isinstance(n, ast.FunctionDef) and n.name == "announce"), None)
        if fn is None:
            problems.append("words.py defines no announce(before, after)")
        elif [a.arg for a in fn.args.args] != ["before", "after"]:
            problems.append("words.announce does not take (before, after)")
        if pres is not None:
            defined_in("PRESENTATION.announce", pres.announce, "words")
    if "scoring" in files and not any(isinstance(n, ast.FunctionDef | ast.ClassDef)
                                      for n in trees["scoring"].body):
        problems.append("scoring.py defines no function or class")
    if pres is not None:
        defined_in("PRESENTATION.view_board", pres.view_board, "boards")
        if pres.view_boards is not None:
            defined_in("PRESENTATION.view_boards", pres.view_boards, "boards")
        defined_in("PRESENTATION.view_layout", pres.view_layout, "boards")
        defined_in("PRESENTATION.board_model", pres.board_model, "boards")
        defined_in("PRESENTATION.layout_model", pres.layout_model, "boards")
        defined_in("PRESENTATION.draw", pres.draw, "render")
        if pres.draw_score is not None:
            defined_in("PRESENTATION.draw_score", pres.draw_score, "render")
    if bots is not None:
        defined_in("BOTS.evaluation", bots.evaluation, "evaluation")
    if "presets" in files and bots is not None:
        presets = importlib.import_module(f"{package}.presets")
        if bots.presets is not getattr(presets, "BOT_PRESETS", None):
            problems.append("BOTS.presets is not presets.BOT_PRESETS")
    if bots is not None and bots.turn_ranker is not None:
        defined_in("BOTS.turn_ranker", bots.turn_ranker, "ranker")
    elif "ranker" in files:
        problems.append("ranker.py exists but BOTS registers no turn ranker")
    elif "ranker" not in (root.__doc__ or ""):
        problems.append("no turn ranker, and the package docstring does not say why")
    if "render" in files:  # a drawing reads the view and the layout, never the engine
        problems += [f"render.py imports {target}.py (it draws from the view and the layout)"
                     for target, _ in _imports(trees["render"], package, files)
                     if target in ("rules", "sheet", "scoring")]
    problems += [f"an import loop: {' -> '.join([*c, c[0]])}"
                 for c in import_cycles(package, directory)]
    return problems


def _package_of(info: GameInfo) -> str:
    """The package whose ``GAME`` is ``info`` (the entry point's module)."""
    for name, module in list(sys.modules.items()):
        if isinstance(module, ModuleType) and getattr(module, "GAME", None) is info:
            return name
    raise LookupError(f"no imported package registers {info.name!r}")


def test_the_four_games_are_checked() -> None:
    assert {info.name for info in games()} >= {"gardens", "reefs", "takenokolor", "pergola"}


@pytest.mark.parametrize("info", games(), ids=lambda info: info.name)
def test_every_game_package_has_the_shape(info: GameInfo) -> None:
    package = _package_of(info)
    assert package == f"meeple.games.{info.name}"
    assert shape_problems(package, info) == []


def test_no_game_module_imports_its_package_inside_a_function() -> None:
    """The loops the shape removed (Gardens moves <-> sheet, Pergola rules <-> solo) stay gone,
    and no game hides a new one: every import of a sibling module inside a function is listed
    here (those that are left close no loop; they are left to a later tidy-up)."""
    found = set()
    for info in games():
        package = _package_of(info)
        directory = Path(importlib.import_module(package).__file__ or "").parent
        modules = {p.stem for p in directory.glob("*.py")}
        for m in sorted(modules):
            for target, inside in _imports(_tree(directory / f"{m}.py"), package, modules):
                if inside:
                    found.add(f"{info.name}.{m} -> {target}")
    assert found <= {"reefs.boards -> rules"}


def _write(directory: Path, files: dict[str, str]) -> None:
    directory.mkdir()
    for name, text in files.items():
        (directory / f"{name}.py").write_text(textwrap.dedent(text), encoding="utf-8")


def test_a_package_that_breaks_the_shape_is_told_what_is_wrong(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A made-up fifth game in the old shapes: its factory and a helper in ``__init__``, its
    announcements in the renderer, no words.py, no notation help, and a loop between moves and
    sheet hidden by an import inside a function."""
    _write(tmp_path / "fifthgame", {
        "__init__": """
            from meeple.core.registry import GameInfo
            from fifthgame.render import announce, render
            from fifthgame.rules import FifthState

            def make(players=1, seed=0):
                return FifthState()

            GAME = GameInfo(name="fifth", title="Fifth", min_players=1, max_players=1,
                            factory=make, variant_players=lambda v: (1, 1))
            """,
        "rules": """
            from fifthgame.moves import Move
            from fifthgame.sheet import SIZE

            class FifthState:
                moves = [Move()]
            """,
        "moves": """
            from fifthgame.sheet import SIZE

            class Move:
                pass
            """,
        "sheet": """
            SIZE = 3

            def field_moves():
                from fifthgame.moves import Move
                return [Move() for _ in range(SIZE)]
            """,
        "render": """
            from fifthgame.rules import FifthState

            def render(state, seat, colourblind):
                return ""

            def announce(before, after):
                return []
            """,
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        info = importlib.import_module("fifthgame").GAME
        problems = shape_problems("fifthgame", info)
    finally:
        for name in [m for m in sys.modules if m == "fifthgame" or m.startswith("fifthgame.")]:
            del sys.modules[name]
    for module in ("scoring", "words", "boards", "learning"):
        assert f"{module}.py is missing" in problems
    for module in ("sheet", "evaluation", "presets"):  # the bots' defaults stand in
        assert f"{module}.py is missing" not in problems
    assert any(p.startswith("__init__.py line 6: a FunctionDef") for p in problems)
    assert any(p.startswith("__init__.py line") and "lambda" in p for p in problems)
    assert "rules.py defines no State subclass" in problems
    assert "GAME.factory is defined in fifthgame, not rules.py" in problems
    assert "moves.py defines no NOTATION_HELP" in problems
    assert "__init__.py builds no PRESENTATION (a core.present.Presentation)" in problems
    assert "__init__.py builds no LEARNING (a core.layers.Learning)" in problems
    assert "no turn ranker, and the package docstring does not say why" in problems
    assert "an import loop: moves -> sheet -> moves" in problems
    assert "render.py imports rules.py (it draws from the view and the layout)" in problems
