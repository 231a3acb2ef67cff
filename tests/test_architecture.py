"""The shape of the code: no module of pbem imports, even from inside a function, a module that
imports it back, and the core and the report framework name no game."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pbem"


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The pbem modules a module imports anywhere in it, relative imports and those for type checking
    included; `from package import module` is an import of that module (every submodule needs its
    package first, which is no cycle)."""
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = name.removesuffix(".__init__").split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    wanted = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else node.module
            inner = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules]
            wanted.update(inner or [base])
        elif isinstance(node, ast.Import):
            wanted.update(alias.name for alias in node.names)
    return {name for name in wanted if name in modules}


def test_relative_imports_are_read():
    modules = _modules()
    odds = _imports(PACKAGE / "rulesets" / "axis_allies" / "odds.py", modules)
    assert "pbem.rulesets.axis_allies.odds_sweep" in odds


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return groups


def test_no_module_imports_one_that_imports_it_back():
    modules = _modules()
    graph = {name: _imports(path, modules) - {name} for name, path in modules.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# The game-independent places: the core, the mail loop, the report framework, the command line and
# the registry.
NEUTRAL = [*(PACKAGE / "core").glob("*.py"), *(PACKAGE / "mail").glob("*.py"), *(PACKAGE / "render").glob("*.py"),
           PACKAGE / "cli.py", PACKAGE / "commands.py", PACKAGE / "rulesets" / "__init__.py"]


def test_the_core_and_the_report_framework_name_no_game():
    games = re.compile(r"aa-revised|aa-europe|undaunted-stalingrad|[\"']qmg[\"']|axis.allies|quartermaster")
    named = [f"{path.relative_to(ROOT)}:{number}" for path in NEUTRAL
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if games.search(line)]
    assert named == []


def test_the_core_and_the_report_framework_import_no_game():
    """They find a game through the registry only, so none of a game's types reach them."""
    modules = _modules()
    games = {name for name in modules if name.startswith("pbem.rulesets.")}
    imported = {f"{path.relative_to(ROOT)}: {sorted(_imports(path, modules) & games)}" for path in NEUTRAL
                if _imports(path, modules) & games}
    assert imported == set()


MAX_LINES = 700  # a module one can hold in one's head: cut a longer one along its seams


def test_no_module_is_longer_than_one_can_hold():
    long = {str(path.relative_to(ROOT)): n for path in PACKAGE.rglob("*.py")
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}
