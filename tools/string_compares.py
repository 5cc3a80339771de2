# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Count comparisons of ``status``/``kind`` values with string constants (issue 61).

    python tools/string_compares.py [ROOT] [--exclude DIR ...] [--total]

One line per comparison (``path:line: code``), then the total. A comparison counts when
one of its operands is *named* ``status`` or ``kind`` and another is a string constant or
a tuple, list or set of string constants (``ev.status == 'applied'``,
``rule.kind in ('functional', 'exclusive')``). An operand is named by:

* a variable: ``kind``;
* an attribute: ``rule.kind``, ``ev.status``;
* a subscript with a constant key: ``s['kind']``;
* a ``get`` with a constant first argument: ``event.get('status')``.

A comparison with an enum member (``ev.status == EventStatus.APPLIED``) does not count:
its operand is an attribute, not a string constant. ``--exclude`` leaves out a folder
under ``ROOT`` (e.g. ``--exclude agent``); ``--total`` prints the total only.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

NAMES = frozenset({'status', 'kind'})


def operand_name(node: ast.expr) -> str | None:
    """Return the name an operand goes by (see the module docstring), else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == 'get' and node.args
            and isinstance(node.args[0], ast.Constant)):
        return str(node.args[0].value)
    return None


def is_string_literal(node: ast.expr) -> bool:
    """Tell whether ``node`` is a string constant or a non-empty collection of them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.Set, ast.List)):
        return bool(node.elts) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
    return False


def counted(node: ast.Compare) -> bool:
    """Tell whether a comparison compares a ``status``/``kind`` with a string literal."""
    parts = [node.left, *node.comparators]
    return (any(operand_name(p) in NAMES for p in parts)
            and any(is_string_literal(p) for p in parts))


def comparisons(root: Path, exclude: tuple[str, ...] = ()) -> list[tuple[Path, int, str]]:
    """Return (file, line, code) of every counted comparison under ``root``, in order."""
    skip = [root / d for d in exclude]
    hits = []
    for path in sorted(root.rglob('*.py')):
        if any(path.is_relative_to(d) for d in skip):
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        hits += sorted((path, n.lineno, ast.unparse(n)) for n in ast.walk(tree)
                       if isinstance(n, ast.Compare) and counted(n))
    return hits


def main(argv: list[str] | None = None) -> int:
    """Print the comparisons and their total."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('root', nargs='?', default='l3mp_ros', type=Path)
    parser.add_argument('--exclude', action='append', default=[], metavar='DIR',
                        help='a folder under ROOT to leave out (repeatable)')
    parser.add_argument('--total', action='store_true', help='print the total only')
    args = parser.parse_args(argv)
    hits = comparisons(args.root, tuple(args.exclude))
    if not args.total:
        for path, line, code in hits:
            print(f'{path}:{line}: {code}')
    print(len(hits))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
