"""The package's layers, and the one direction its imports may point.

Each layer may import the layers below it, never one above; no two modules import each other, even
through others or from inside a function. Only the adapters (and the public API they share) import
lazily, so that a cached run loads no LibCST. Lint-time code never imports torch or the tools.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set, Tuple

PACKAGE = Path(__file__).resolve().parents[1] / "inplace_lint"

# lowest first; a module belongs to the first layer whose prefix names it
LAYERS: List[Tuple[str, Tuple[str, ...]]] = [
    ("model", ("inplace_lint.model",)),            # value records, findings, errors: no behaviour
    ("knowledge", ("inplace_lint.knowledge",)),    # torch's facts, generated data
    ("syntax", ("inplace_lint.syntax",)),          # parsing, the first look, noqa comments
    ("project", ("inplace_lint.project",)),        # the program's files: root, imports, summary store
    ("analysis", ("inplace_lint.analysis",)),      # the abstract interpreter; reports typed events
    ("fixkit", ("inplace_lint.fixkit",)),          # building and applying edits
    ("rules", ("inplace_lint.rules",)),            # one unit per rule: events -> findings, fixes, docs
    ("engine", ("inplace_lint.engine",)),          # one lint: settings, selection, analysis, rules, cache
    ("explainer", ("inplace_lint.explainer",)),    # `explain`: runs the program, traces torch (imports it)
    ("api", ("inplace_lint",)),                    # inplace_lint/__init__.py: lint_source, fix_source
    ("adapters", ("inplace_lint.adapters", "inplace_lint.__main__")),  # CLI, flake8, LSP, outputs, explain
]
LAZY_ALLOWED = ("adapters", "api", "explainer")  # the explainer imports torch only when it runs


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> int:
    best, best_len = -1, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    return best


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(path: Path, modules: Set[str]) -> List[Tuple[str, int, bool]]:
    """(imported inplace_lint module, line, imported inside a function) for every import in ``path``."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: List[Tuple[str, int, bool]] = []

    def visit(node: ast.AST, local: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking_only(child):
                for sub in child.orelse:
                    visit(sub, local)
                continue
            inner = local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            targets: List[str] = []
            if isinstance(child, ast.Import):
                targets = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - child.level + 1]
                    source = ".".join(base + ([child.module] if child.module else []))
                else:
                    source = child.module or ""
                # `from p import m` imports the module p.m when there is one, else names of p
                targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                           for alias in child.names]
            for target in targets:
                # the module itself, else the package the name was taken from
                while target and target not in modules and "." in target:
                    target = target.rpartition(".")[0]
                if target in modules and target != name:
                    found.append((target, child.lineno, inner))
                elif target.split(".")[0] in ("torch", "tools"):
                    found.append((target, child.lineno, inner))
            visit(child, inner)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def import_graph() -> Dict[str, List[Tuple[str, int, bool]]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(path) for path in paths}
    return {module_name(path): imports_of(path, modules) for path in paths}


def test_every_module_has_a_layer():
    unplaced = [name for name in import_graph() if layer_of(name) < 0]
    assert unplaced == []


def test_imports_point_down_only():
    graph = import_graph()
    upward = []
    for source, targets in graph.items():
        for target, line, _local in targets:
            if target.split(".")[0] in ("torch", "tools"):
                continue
            if layer_of(target) > layer_of(source):
                upward.append(f"{source}:{line} -> {target} "
                              f"({LAYERS[layer_of(source)][0]} -> {LAYERS[layer_of(target)][0]})")
    assert upward == []


def test_no_import_cycle():
    graph = {source: {target for target, _, _ in targets if target in import_graph_modules()}
             for source, targets in import_graph().items()}
    cycles = [sorted(component) for component in strongly_connected(graph) if len(component) > 1]
    assert cycles == []


def test_lazy_imports_only_at_the_adapters_seam():
    lazy = [f"{source}:{line} -> {target}" for source, targets in import_graph().items()
            for target, line, local in targets
            if local and LAYERS[layer_of(source)][0] not in LAZY_ALLOWED
            and target.split(".")[0] not in ("torch", "tools")]
    assert lazy == []


def test_lint_time_code_never_imports_torch_or_the_tools():
    offenders = [f"{source}:{line} -> {target}" for source, targets in import_graph().items()
                 for target, line, _ in targets
                 if target.split(".")[0] in ("torch", "tools")
                 and not source.startswith("inplace_lint.explainer")]
    assert offenders == []


def import_graph_modules() -> Set[str]:
    return {module_name(path) for path in PACKAGE.rglob("*.py")}


def strongly_connected(graph: Dict[str, Set[str]]) -> List[Set[str]]:
    """Tarjan's algorithm, iterative (the graph is small, but recursion limits are not a design)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    on_stack: Set[str] = set()
    stack: List[str] = []
    components: List[Set[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components
