"""No circles of imports in ``src/meeple``, and none hidden by an import inside a function.

The import graph is read from the source with :mod:`ast`: an edge for every ``import meeple...``
or ``from meeple... import`` (to the submodule when the name imported is one), leaving out
imports under ``if TYPE_CHECKING:`` (annotations only, never run). Imports a package's
``__init__`` makes Python run implicitly are not edges: only what a module writes.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "meeple"

#: Imports inside a function kept on purpose, by (importing module, imported module): what
#: only one rarely used command needs and is slow to import, so every other command starts
#: without it.
START_UP = {
    ("meeple.cli.serve", "meeple.store"): "SQLAlchemy and Alembic, for `meeple serve` only",
    ("meeple.cli.serve", "meeple.web"): "FastAPI and the whole server, for `meeple serve` only",
    ("meeple.cli.serve", "meeple.server.table.protocol"): "the server package (FastAPI), for "
                                                    "`meeple schema --protocol` only",
    ("meeple.cli.serve", "meeple.server.edge"): "the server's edge settings (uvicorn, "
                                                "Starlette), for `meeple serve` only",
    ("meeple.cli.serve", "meeple.settings"): "pydantic-settings, for `meeple serve` only",
    ("meeple.cli.serve", "meeple.web.serving"): "the whole server, for `meeple serve` only",
    ("meeple.cli.serve", "meeple.server.workers"): "uvicorn's supervisor, for `meeple serve "
                                                   "--workers` only",
    ("meeple.cli.online", "meeple.settings"): "pydantic-settings, for `meeple join` only",
    ("meeple.cli.reports", "meeple.settings"): "pydantic-settings, for `meeple reports` only",
    ("meeple.cli.reports", "meeple.cli.serve"): "its database choice (`database_of`), for "
                                               "`meeple reports` only",
    ("meeple.cli.reports", "meeple.store"): "SQLAlchemy, for `meeple reports` only",
    ("meeple.cli.reports", "meeple.server.features.chat.store"): "SQLAlchemy, for `meeple reports` only",
    ("meeple.cli.reports", "meeple.store.ratings"): "SQLAlchemy, for `meeple reports` only",
    ("meeple.cli.agent", "meeple.agent.http"): "httpx and websockets, for `meeple agent` only",
    ("meeple.cli.agent", "meeple.agent.policies"): "the bots, for `meeple agent` only",
    ("meeple.cli.agent", "meeple.agent.runner"): "the agent's loop, for `meeple agent` only",
    ("meeple.cli.agent", "meeple.settings"): "pydantic-settings, for `meeple agent` only",
    ("meeple.cli.train", "meeple.sim.train"): "numpy and the learner, for `meeple train` only",
    ("meeple.agent.policies", "meeple.rl.spaces"): "numpy and Gymnasium (the rl extra), for "
                                                   "the npz: and sb3: policies only",
    ("meeple.agent.policies", "meeple.bots.encoding"): "numpy, for the sb3: policy only",
    ("meeple.bots.mcts", "meeple.bots.learned"): "numpy, for a search with nets (mcts:net=..., "
                                                 "expert) only: import meeple.bots stays "
                                                 "without numpy",
    ("meeple.server", "meeple.server.app"): "FastAPI, SQLAlchemy and the store, which a bot "
                                            "worker (it imports meeple.server.table.botpool) never "
                                            "needs: it starts in half the time",
}

#: A feature package's wire() imports its own modules when called: the table core imports
#: the accounts' and chat's modules, and so their packages, before the routes can load.
ELSEWHERE: set[tuple[str, str]] = {
    ("meeple.server.features.accounts", "meeple.server.features.accounts.passkey_routes"),
    ("meeple.server.features.accounts", "meeple.server.features.accounts.routes"),
    ("meeple.server.features.accounts", "meeple.server.features.accounts.sessions"),
    ("meeple.server.features.accounts", "meeple.server.features.accounts.token_routes"),
    ("meeple.server.features.chat", "meeple.server.features.chat.routes"),
    ("meeple.server.features.chat", "meeple.server.features.chat.service"),
    ("meeple.server.features.chat", "meeple.server.features.chat.store"),
    ("meeple.server.features.mail", "meeple.server.features.mail.mailer"),
    ("meeple.server.features.mail", "meeple.server.features.mail.notices"),
    ("meeple.server.features.mail", "meeple.server.features.mail.routes"),
    ("meeple.server.features.playnow", "meeple.server.features.playnow.routes"),
    ("meeple.server.features.profiles", "meeple.server.features.profiles.routes"),
    ("meeple.server.features.ratings", "meeple.server.features.ratings.routes"),
    ("meeple.server.features.rules", "meeple.server.features.rules.routes"),
    ("meeple.server.features.sheets", "meeple.server.features.sheets.routes"),
    ("meeple.server.features.solo", "meeple.server.features.solo.routes"),
    ("meeple.server.features.tablelife", "meeple.server.features.tablelife.routes"),
    ("meeple.server.features.challenges", "meeple.server.features.challenges.routes"),
    ("meeple.server.features.events", "meeple.server.features.events.routes"),
    ("meeple.server.features.events", "meeple.server.features.events.service"),
    ("meeple.server.features.tournaments", "meeple.server.features.tournaments.routes"),
    # load_stores: every feature's store module (its rows, its account-erased hook), imported
    # when the app is made, not by whoever imports one feature's package
    ("meeple.server.features", "meeple.server.features.accounts.passkey_store"),
    ("meeple.server.features", "meeple.server.features.accounts.store"),
    ("meeple.server.features", "meeple.server.features.chat.store"),
    ("meeple.server.features", "meeple.server.features.mail.store"),
    ("meeple.server.features", "meeple.server.features.playnow.store"),
    ("meeple.server.features", "meeple.server.features.challenges.rows"),
    ("meeple.server.features", "meeple.server.features.challenges.store"),
    ("meeple.server.features", "meeple.server.features.tournaments.store"),
    ("meeple.server.features", "meeple.store.models"),
}

#: Circles closed only by imports inside functions, removed by the same changes.
CIRCLES_ELSEWHERE = [
    {"meeple.server.table.botpool", "meeple.server.table.service"},
    {"meeple.games.gardens.moves", "meeple.games.gardens.sheet"},
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def _targets(node: ast.Import | ast.ImportFrom, module: str) -> list[str]:
    """The meeple modules an import statement names."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".")
            if MODULES[module].name != "__init__.py":
                package.pop()
            package = package[:len(package) - node.level + 1]
            base = ".".join([*package, base] if base else package)
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                 for a in node.names]
    return [n for n in names if n in MODULES]


def imports(module: str) -> Iterator[tuple[str, bool, int]]:
    """(imported module, inside a function, line) for every meeple import ``module`` makes,
    TYPE_CHECKING blocks left out."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))

    def walk(node: ast.AST, in_function: bool) -> Iterator[tuple[str, bool, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.orelse:
                    yield from walk_one(stmt, in_function)
                continue
            yield from walk_one(child, in_function)

    def walk_one(node: ast.AST, in_function: bool) -> Iterator[tuple[str, bool, int]]:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for target in _targets(node, module):
                yield target, in_function, node.lineno
        inside = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        yield from walk(node, inside)

    yield from walk(tree, False)


def graph(with_functions: bool) -> dict[str, set[str]]:
    return {m: {t for t, in_fn, _ in imports(m) if t != m and (with_functions or not in_fn)}
            for m in MODULES}


def circles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(component)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_reader_sees_the_imports_it_must() -> None:
    # guards the checks below against a reader that finds nothing: known edges of each kind
    state = {t for t, in_fn, _ in imports("meeple.core.state") if not in_fn}
    assert {"meeple.core.errors", "meeple.core.turns"} <= state
    assert "meeple.core.state" not in {t for t, *_ in imports("meeple.core.turns")}  # TYPE_CHECKING
    serve = {t for t, in_fn, _ in imports("meeple.cli.serve") if in_fn}
    assert "meeple.web" in serve
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]


def test_no_circle_of_module_level_imports() -> None:
    assert circles(graph(with_functions=False)) == []


def test_no_import_inside_a_function_closes_a_circle() -> None:
    found = circles(graph(with_functions=True))
    unexpected = [sorted(c) for c in found if not any(c <= known for known in CIRCLES_ELSEWHERE)]
    assert unexpected == [], f"import circles broken by imports inside functions: {unexpected}"


def _allowed(module: str, target: str) -> bool:
    if (module, target) in START_UP:
        return True
    return any(target == t and (module == m or (m.endswith(".") and module.startswith(m)))
               for m, t in ELSEWHERE)


def test_no_meeple_import_inside_a_function_but_the_listed_ones() -> None:
    found = sorted({(m, t, line) for m in MODULES for t, in_fn, line in imports(m)
                    if in_fn and not _allowed(m, t)})
    assert found == [], ("import these at the top of the module (or, for a slow import only "
                         f"one command needs, list it in START_UP with the reason): {found}")


def test_every_start_up_exception_is_still_there() -> None:
    # a list of exceptions that no longer apply hides the next one
    inside = {(m, t) for m in MODULES for t, in_fn, _ in imports(m) if in_fn}
    assert set(START_UP) <= inside
