"""The package's shape: its modules import each other in layers, without circles.

The imports are read from the source with :mod:`ast` (nothing is imported), all
of them: at the top of a module, inside functions (imported when first used)
and under ``if TYPE_CHECKING`` (a dependency all the same).  The floors, from
the bottom (docs/architecture.md):

- ``core``: what every notation needs (positions, diagnostics, findings and
  fixes, the code registry, bytes to text and line ends, files, grammars);
- the notations, siblings that never import each other: ``lostcities``
  (itself in floors: ``text``, then ``game``, then its tools) and ``freecell``;
- lint and reports (``tools``), and the features over the notations
  (``formats``, ``svg``, ``view``, ``engine``);
- the language server (``lsp``);
- the command line (``cli``);
- the package root (the public API).

A module may import its own floor and the floors below it, never one above,
and never the package root (``from .. import x`` inside the package would
reach any module through it).  The package root may import anything when a
name is first used; it imports nothing of a notation eagerly.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, FrozenSet, Iterator, List, Set, Tuple

import pytest

ROOT = Path(__file__).resolve().parent.parent / "lcnotation"
PACKAGE = "lcnotation"

#: Each part's layer, lowest first, by the longest dotted prefix of the module
#: name below ``lcnotation``.  A new subpackage needs a row here.
LAYERS: Dict[str, int] = {
    "grammar": 0, "core": 0,
    "lostcities.text": 1, "lostcities.game": 2, "lostcities": 3, "freecell": 3,
    "tools": 4, "formats": 4, "svg": 4, "view": 4, "archive": 4, "arrow": 4, "dask": 4,
    "engine": 4,
    "lsp": 5,
    "cli": 6,
}
#: The layer of the package root and of ``python -m lcnotation``.
TOP = 7
LAYER_NAMES = {0: "core", 1: "Lost Cities text", 2: "Lost Cities game",
               3: "a notation", 4: "lint, reports and features", 5: "the language server",
               6: "cli", TOP: "the package root"}
#: The notations: sibling packages that never import each other.
NOTATIONS = ("lostcities", "freecell")

# Known circles in the text layer, which the text-layer redesign removes (issue
# #12, helper arch-text): drop each line once its circle is gone.
KNOWN_CIRCLES: Set[FrozenSet[str]] = set()  # none left

# Known imports against the rules, each made only when a function is called,
# left for their owners to move (the lead decides): drop each line once gone.
KNOWN_EDGES: Set[Tuple[str, str]] = set()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> Dict[str, Path]:
    found = {module_name(p): p for p in ROOT.rglob("*.py")}
    # A compiled module (lostcities/_speedups.c) is known by its stub, which
    # imports nothing of the package.
    for stub in ROOT.rglob("*.pyi"):
        found.setdefault(module_name(stub), stub)
    # The grammar is data, installed as the subpackage lcnotation.grammar.
    found[f"{PACKAGE}.grammar"] = ROOT.parent / "grammar"
    return found


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(body: List[ast.stmt], top: bool) -> Iterator[Tuple[ast.stmt, bool]]:
    """Every import statement of ``body``, with whether it runs when the module
    is imported (at the top level, not under ``if TYPE_CHECKING``)."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node, top
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _walk(node.body, False)
            yield from _walk(node.orelse, top)
        else:
            eager = top and not isinstance(
                node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    stmts = [s for s in inner if isinstance(s, ast.stmt)]
                    stmts += [s for h in inner if isinstance(h, ast.ExceptHandler)
                              for s in h.body]
                    yield from _walk(stmts, eager)


def _target(importer: str, node: ast.stmt) -> Iterator[str]:
    """The package's modules that ``node`` (in module ``importer``) imports."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name == PACKAGE or alias.name.startswith(PACKAGE + "."):
                yield _known(alias.name)
        return
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        is_package = MODULES[importer].name == "__init__.py"
        base = importer.split(".")
        base = base[:len(base) - node.level + (1 if is_package else 0)]
        name = ".".join(base + ([node.module] if node.module else []))
    else:
        name = node.module or ""
        if name != PACKAGE and not name.startswith(PACKAGE + "."):
            return
    for alias in node.names:
        # ``from . import x`` imports the submodule x when there is one.
        sub = f"{name}.{alias.name}"
        yield sub if sub in MODULES else _known(name)


def _known(name: str) -> str:
    assert name in MODULES, f"import of {name}, which is not a module of the package"
    return name


def imports() -> Dict[str, Dict[str, bool]]:
    """For each module, the modules it imports, each with whether eagerly."""
    graph: Dict[str, Dict[str, bool]] = {}
    for name, path in MODULES.items():
        if path.is_dir():
            graph[name] = {}
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges = graph[name] = {}
        for node, eager in _walk(tree.body, True):
            for target in _target(name, node):
                if target != name:
                    edges[target] = edges.get(target, False) or eager
        if name == PACKAGE:
            for module, eager in _api_table(tree):
                target = _known(PACKAGE + module)
                edges[target] = edges.get(target, False) or eager
    return graph


def _api_table(tree: ast.Module) -> Iterator[Tuple[str, bool]]:
    """The modules of the package root's ``_API`` table, with whether each is
    imported with the package (it imports them with importlib)."""
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.target.id == "_API" and node.value is not None:
            for module, eager, _ in ast.literal_eval(node.value):
                yield module, eager
            return
    raise AssertionError("lcnotation/__init__.py has no _API table")


GRAPH = imports()


def layer(module: str, importer: bool = True) -> int:
    """``module``'s layer; the package root, when imported, counts as the highest
    layer it imports eagerly (none: :func:`test_the_root_imports_no_notation_eagerly`)."""
    parts = module.split(".")
    if len(parts) == 1 and not importer:
        return max((layer(t, False) for t in dependencies(module)), default=0)
    if len(parts) == 1 or parts[1] == "__main__":
        return TOP
    for n in range(len(parts) - 1, 0, -1):
        key = ".".join(parts[1:n + 1])
        if key in LAYERS:
            return LAYERS[key]
    raise AssertionError(
        f"{module}: the subpackage {parts[1]!r} has no layer; add it to LAYERS in "
        "tests/test_architecture.py and to docs/architecture.md")


def dependencies(module: str) -> Dict[str, bool]:
    """What counts of ``module``'s imports: for the package root, only the eager ones
    (it may import anything when a name is first used)."""
    edges = GRAPH[module]
    if module == PACKAGE:
        return {k: v for k, v in edges.items() if v}
    return {k: v for k, v in edges.items() if (module, k) not in KNOWN_EDGES}


def circles() -> List[Set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[Set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in dependencies(v):
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
                found.append(component)

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return found


def test_the_scan_sees_every_kind_of_import() -> None:
    # Eager, relative from a package, inside a function and under TYPE_CHECKING.
    assert GRAPH[PACKAGE]["lcnotation.core.display"] is True
    assert GRAPH[PACKAGE]["lcnotation.lostcities.text.reader"] is False
    assert GRAPH[PACKAGE]["lcnotation.lostcities.game.checker"] is False
    assert "lcnotation.lostcities.text.ast" in GRAPH["lcnotation.lostcities.game.state"]
    assert GRAPH["lcnotation.lostcities.game.checker"]["lcnotation.lostcities.game.violations"] is False
    assert set(GRAPH["lcnotation.lostcities.notation"]) >= {"lcnotation.lostcities.lint",
                                                            "lcnotation.core.codes"}
    assert len(MODULES) > 30


def test_no_import_circles() -> None:
    found = [c for c in circles() if frozenset(c) not in KNOWN_CIRCLES]
    assert not found, "modules that import each other: " + "; ".join(
        " <-> ".join(sorted(c)) for c in found)


def test_no_upward_imports() -> None:
    upward = []
    for module in sorted(GRAPH):
        if module == PACKAGE:
            continue  # the public API: lazy imports from anywhere
        for target in sorted(dependencies(module)):
            if layer(target, False) > layer(module):
                upward.append(f"{module} ({LAYER_NAMES[layer(module)]}) imports {target} "
                              f"({LAYER_NAMES[layer(target, False)]})")
    assert not upward, "imports from a lower layer up to a higher one:\n" + "\n".join(upward)


def test_the_root_imports_no_notation_eagerly() -> None:
    # ``import lcnotation`` (and so ``import lcnotation.freecell``) loads only the core.
    eager = {t for t, now in GRAPH[PACKAGE].items() if now}
    assert all(layer(t) == 0 for t in eager), sorted(eager)


def test_nothing_inside_imports_the_package_root() -> None:
    # Through the root, a low module could reach any module of the package.
    found = sorted(m for m in GRAPH if m != PACKAGE and PACKAGE in GRAPH[m]
                   and not m.endswith("__main__"))
    assert not found, f"modules that import lcnotation itself: {found}"


def test_the_notations_never_import_each_other() -> None:
    crossing = []
    for module in sorted(GRAPH):
        own = module.split(".")[1] if "." in module else ""
        if own not in NOTATIONS:
            continue
        for target in dependencies(module):
            other = target.split(".")[1] if "." in target else ""
            if other in NOTATIONS and other != own:
                crossing.append(f"{module} imports {target}")
    assert not crossing, "\n".join(crossing)


def test_commands_never_import_each_other() -> None:
    # What two commands share lives in a module that is no command (common, inputs).
    commands = {f"{PACKAGE}.cli.{name}" for name in (
        "lint", "fmt", "convert", "score", "importcmd", "exportcmd", "render", "view",
        "freecell", "explain", "completion", "server", "filtercmd", "dedupe", "split", "stats")}
    found = sorted(f"{m} imports {t}" for m in commands for t in GRAPH[m] if t in commands)
    assert not found, found


def test_no_private_names_cross_modules() -> None:
    found = []
    for name, path in MODULES.items():
        if path.is_dir():
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(
                    PACKAGE)):
                found += [f"{name} imports {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert not found, found


def test_the_core_imports_nothing_above_it() -> None:
    above = sorted(f"{m} imports {t}" for m in GRAPH if m.startswith(PACKAGE + ".core")
                   for t in GRAPH[m] if not t.startswith(PACKAGE + ".core"))
    assert not above, above


@pytest.mark.parametrize("source, expected", [
    ("from ..game import state\n", {"lcnotation.lostcities.game.state"}),
    ("def f():\n    from .state import GameState\n", {"lcnotation.lostcities.game.state"}),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ...tools.lint import x\n",
     {"lcnotation.tools.lint"}),
    # A name of the package root: the root itself (which a module must not import).
    ("from ... import board_svg\n", {"lcnotation"}),
    ("import lcnotation.cli\n", {"lcnotation.cli"}),
])
def test_scanning_finds(source: str, expected: Set[str]) -> None:
    tree = ast.parse(source)
    found = {t for node, _ in _walk(tree.body, True)
             for t in _target("lcnotation.lostcities.game.scoring", node)}
    assert found == expected
