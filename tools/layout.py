# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Print the package's shape: largest modules, longest functions, subpackage import graph.

    python tools/layout.py [--top 10] [--root l3mp_ros]

The import graph counts every ``import`` of another subpackage (top-level, inside
functions and under ``TYPE_CHECKING`` alike) and lists the cycles between subpackages
and between modules; test/test_imports.py fails on any of either. Exit status 1 when
there is a cycle.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from pathlib import Path

import networkx as nx


def modules(root: Path) -> dict[str, Path]:
    """Return dotted module name → file for every ``.py`` under the package ``root``."""
    out = {}
    for path in sorted(root.rglob('*.py')):
        parts = list(path.relative_to(root.parent).with_suffix('').parts)
        if parts[-1] == '__init__':
            parts = parts[:-1]
        out['.'.join(parts)] = path
    return out


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Return the absolute module names one module imports (relative imports resolved).

    ``from pkg import mod`` counts as importing ``pkg.mod`` only when that is a module
    of ``known`` (running ``pkg/__init__`` is not a dependency worth a cycle).
    """
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == '__init__.py' else name.rpartition('.')[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split('.')
                base = base[:len(base) - node.level + 1]
                mod = '.'.join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ''
            subs = {f'{mod}.{alias.name}' for alias in node.names}
            found.update(subs & known.keys())
            if subs - known.keys():
                found.add(mod)
    return found


def subpackage(module: str, top: str) -> str | None:
    """Return the first-level subpackage of ``module`` (``top.x`` for ``top.x.y``)."""
    parts = module.split('.')
    if parts[0] != top or len(parts) < 2:
        return None
    return '.'.join(parts[:2])


def import_graph(root: Path, modules_too: bool = False) -> nx.DiGraph:
    """Return the subpackage graph: an edge a → b when a module of a imports one of b.

    Top-level modules (``paths``, ``config``) are nodes like subpackages. With
    ``modules_too`` the nodes are the modules themselves.
    """
    top = root.name
    mods = modules(root)
    graph = nx.DiGraph()
    for name, path in mods.items():
        src = name if modules_too else subpackage(name, top)
        if src is None or src not in mods:
            continue
        graph.add_node(src)
        for target in imported(name, path, mods):
            dst = target if modules_too else subpackage(target, top)
            if dst and dst != src and dst in mods:
                graph.add_edge(src, dst)
    return graph


def cycles(graph: nx.DiGraph) -> list[list[str]]:
    """Return the import cycles of a graph (each as its sorted members)."""
    return sorted(sorted(c) for c in nx.simple_cycles(graph) if len(c) > 1)


def functions(root: Path) -> list[tuple[int, str]]:
    """Return (lines, qualified name) of every function and method."""
    out = []
    for name, path in modules(root).items():
        tree = ast.parse(path.read_text(), str(path))
        stack = [(tree, name)]
        while stack:
            node, prefix = stack.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    qual = f'{prefix}.{child.name}'
                    if not isinstance(child, ast.ClassDef):
                        out.append((child.end_lineno - child.lineno + 1, qual))
                    stack.append((child, qual))
    return sorted(out, reverse=True)


def main(argv: list[str] | None = None) -> int:
    """Print the report."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--top', type=int, default=10)
    ap.add_argument('--root', default=str(Path(__file__).resolve().parents[1] / 'l3mp_ros'))
    args = ap.parse_args(argv)
    root = Path(args.root)
    sizes = sorted(((len(p.read_text().splitlines()), n) for n, p in modules(root).items()),
                   reverse=True)
    print(f'## largest modules (of {len(sizes)}, {sum(s for s, _ in sizes)} lines)')
    for lines, name in sizes[:args.top]:
        print(f'{lines:6d}  {name}')
    print('\n## longest functions')
    for lines, name in functions(root)[:args.top]:
        print(f'{lines:6d}  {name}')
    graph = import_graph(root)
    print('\n## subpackage imports')
    deps = defaultdict(list)
    for a, b in graph.edges:
        deps[a].append(b.split('.', 1)[1])
    for node in sorted(graph.nodes):
        print(f'{node.split(".", 1)[1]:>10} -> {", ".join(sorted(deps[node])) or "-"}')
    found = cycles(graph)
    print(f'\n## subpackage cycles: {len(found)}')
    for cycle in found:
        print('  ' + ' <-> '.join(n.split('.', 1)[1] for n in cycle))
    between = cycles(import_graph(root, modules_too=True))
    print(f'\n## module cycles: {len(between)}')
    for cycle in between:
        print('  ' + ' <-> '.join(n.split('.', 1)[1] for n in cycle))
    return 1 if found or between else 0


if __name__ == '__main__':
    sys.exit(main())
