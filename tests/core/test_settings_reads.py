"""Only ``meeple.settings`` reads the environment: every ``MEEPLE_*`` setting is read there, once,
into one model that is passed down (docs/settings.md).

The check reads each module of ``src/`` as Python (``ast``), not as text, so a docstring that
names ``os.environ`` is no read. A read is any use of ``os.environ`` (or ``environ`` imported
from ``os``), ``os.getenv``, or a command-line option's ``envvar=`` (typer reads the variable
itself). A child process's environment built from this one is not a read of a setting, and is
allowed: ``os.environ`` unpacked into a dict display (``{**os.environ, "X": "1"}``), copied
(``os.environ.copy()``) or given to ``dict(...)``, as ``subprocess``'s ``env=`` takes it. A
write (``os.environ[...] = ...``, ``setdefault``, ``update``, ``putenv``) is refused too: no
module hands a value to another through the environment.

The model itself is the composition root: each section's class lives in the package that reads
it, and only the commands (``meeple.cli``), the server's ``app`` and ``site`` and the model's
own module import ``meeple.settings``; every other module imports its own section
(:func:`settings_imports`).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "meeple"
#: The one module that reads the environment.
ALLOWED = SRC / "settings.py"
#: The one other read, by design: the registry finds the games in every process, the bot, hint
#: and simulation workers that ``spawn`` starts included, before any settings are built; it
#: reads MEEPLE_GAMES_PATH (extra folders of game packages, as PYTHONPATH is for modules), and
#: the rules engine may not depend on the settings module (it sits below everything).
REGISTRY = SRC / "core" / "registry.py"


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _is_environ(node: ast.AST, names: set[str]) -> bool:
    """``os.environ`` (or ``os.environb``), or a name imported as ``environ`` from os."""
    if isinstance(node, ast.Attribute) and node.attr in ("environ", "environb"):
        return isinstance(node.value, ast.Name) and node.value.id == "os"
    return isinstance(node, ast.Name) and node.id in names


def _copied_for_a_child(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether this use of the environment copies it whole (a child process's env)."""
    parent = parents.get(node)
    if isinstance(parent, ast.Dict):  # {**os.environ, ...}: a key of None is an unpacking
        return any(key is None and value is node for key, value in
                   zip(parent.keys, parent.values, strict=True))
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and \
            parent.func.id == "dict" and parent.args == [node]:
        return True
    if isinstance(parent, ast.Attribute) and parent.attr == "copy":
        return isinstance(parents.get(parent), ast.Call)
    return False


def _is_os_call(node: ast.AST, names: set[str]) -> bool:
    """``os.getenv`` / ``os.putenv`` / ``os.unsetenv``, or ``getenv`` imported from os."""
    if isinstance(node, ast.Attribute) and node.attr in ("getenv", "putenv", "unsetenv"):
        return isinstance(node.value, ast.Name) and node.value.id == "os"
    return isinstance(node, ast.Name) and node.id in names & {"getenv", "putenv"}


def environment_reads(source: str) -> list[int]:
    """The lines of ``source`` that read (or write) the environment other than by copying it
    whole for a child process (module docstring)."""
    tree = ast.parse(source)
    parents = _parents(tree)
    names = {alias.asname or alias.name for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.module == "os"
             for alias in node.names if alias.name in ("environ", "environb", "getenv",
                                                        "putenv")}
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            continue
        if _is_environ(node, names - {"getenv", "putenv"}):
            if not _copied_for_a_child(node, parents):
                lines.append(node.lineno)
        elif _is_os_call(node, names):
            lines.append(node.lineno)
        elif isinstance(node, ast.keyword) and node.arg == "envvar":
            lines.append(node.value.lineno)
    return sorted(set(lines))


def test_the_check_finds_each_kind_of_read_and_allows_a_childs_copy() -> None:
    reads = {
        "import os\nos.environ.get('MEEPLE_X')\n": [2],
        "import os\nx = os.environ['MEEPLE_X']\n": [2],
        "import os\nif 'MEEPLE_X' in os.environ: pass\n": [2],
        "import os\nos.getenv('MEEPLE_X')\n": [2],
        "from os import environ\nenviron.get('MEEPLE_X')\n": [2],
        "from os import getenv as g\ng('MEEPLE_X')\n": [2],
        "import os\nos.environ.setdefault('MEEPLE_X', '1')\n": [2],
        "import os\nos.environ['MEEPLE_X'] = '1'\n": [2],
        "import typer\ntyper.Option(envvar='MEEPLE_X')\n": [2],
        "def f(env=None):\n    import os\n    env = os.environ if env is None else env\n": [3],
    }
    for source, lines in reads.items():
        assert environment_reads(source) == lines, source
    allowed = ("import os, subprocess\nsubprocess.run(['x'], env={**os.environ, 'A': '1'})\n"
               "env = dict(os.environ)\nother = os.environ.copy()\n"
               "'''os.environ.get in a docstring'''\n")
    assert environment_reads(allowed) == []


#: The modules that may import the whole settings model (the composition root's users): the
#: commands build it from the environment, the app passes each part its section, the site
#: holds it, ``serve``'s processes build it (meeple.web.serving: with --workers each process
#: is its own root); every other module imports only its own section's class.
COMPOSERS = ("meeple.cli", "meeple.server.app", "meeple.server.site", "meeple.settings",
             "meeple.web.serving")
SETTINGS = "meeple.settings"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def settings_imports(source: str, module: str, package: bool = False) -> list[int]:
    """The lines of ``source`` (the module ``module``; ``package``: an ``__init__``) that
    import ``meeple.settings``: ``import meeple.settings``, ``from meeple.settings import``,
    ``from meeple import settings``, their relative spellings and ``import_module`` of the
    name, at any depth (in a function or under ``TYPE_CHECKING`` too)."""
    here = module.split(".") if package else module.split(".")[:-1]
    lines = []
    for node in ast.walk(ast.parse(source)):
        named: list[str] = []
        if isinstance(node, ast.Import):
            named = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*here[:len(here) - node.level + 1], *([base] if base else [])])
            named = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Call) and node.args and \
                isinstance(node.args[0], ast.Constant) and \
                getattr(node.func, "attr", getattr(node.func, "id", "")) in \
                ("import_module", "__import__"):
            named = [str(node.args[0].value)]
        if any(name == SETTINGS or name.startswith(SETTINGS + ".") for name in named):
            lines.append(node.lineno)
    return sorted(set(lines))


def test_the_check_finds_each_spelling_of_importing_the_settings_model() -> None:
    found = {
        "import meeple.settings\n": [1],
        "import meeple.settings as s\n": [1],
        "from meeple.settings import Settings\n": [1],
        "from meeple import settings\n": [1],
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from meeple.settings import "
        "Settings\n": [3],
        "def f():\n    from meeple.settings import Settings\n": [2],
        "import importlib\nimportlib.import_module('meeple.settings')\n": [2],
        "from meeple.sections import Section\nfrom meeple.server.table.settings import "
        "BotSettings\nfrom meeple import sections\n": [],
    }
    for source, lines in found.items():
        assert settings_imports(source, "meeple.server.quotas") == lines, source
    # relative spellings, resolved from where the module is
    assert settings_imports("from .. import settings\n", "meeple.server.quotas") == [1]
    assert settings_imports("from ..settings import Settings\n", "meeple.server.quotas") == [1]
    assert settings_imports("from .settings import Settings\n", "meeple.server.quotas") == []
    assert settings_imports("from .settings import Settings\n", "meeple",
                            package=True) == [1]
    assert settings_imports("from . import settings\n", "meeple.server.features.chat",
                            package=True) == []


def test_only_the_composition_root_imports_the_settings_model() -> None:
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        module = module_name(path)
        if any(module == c or module.startswith(c + ".") for c in COMPOSERS):
            continue
        lines = settings_imports(path.read_text("utf-8"), module, path.name == "__init__.py")
        if lines:
            found[module] = lines
    assert found == {}, ("import your own section's class (meeple.sections, "
                         "meeple.server.table.settings, a feature's settings module ...), not "
                         f"the whole model in meeple.settings: {found}")
    app = SRC / "server" / "app.py"
    assert settings_imports(app.read_text("utf-8"), "meeple.server.app")  # (it sees the root)


def test_only_the_settings_module_reads_the_environment() -> None:
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        if path == ALLOWED:
            continue
        lines = environment_reads(path.read_text("utf-8"))
        if path == REGISTRY and len(lines) == 1 and "GAMES_PATH_ENV" in \
                path.read_text("utf-8").splitlines()[lines[0] - 1]:
            continue
        if lines:
            found[str(path.relative_to(SRC.parent))] = lines
    assert found == {}, ("read the setting through meeple.settings.Settings (docs/settings.md),"
                         f" not the environment: {found}")
    assert environment_reads(ALLOWED.read_text("utf-8"))  # (the check sees the one that does)
