# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Short handles for the names an answer schema offers: a name's fewest telling tokens.

A schema-constrained answer copies predicate and entity names token by token, and every
token is one forward pass of the model (~75 ms on two cores), though after a name's first
token or two the grammar leaves no choice. A *handle* is the shortest run of a name's
leading tokens (the model's own tokenizer) that no sibling name starts with; the schema
offers handles and the reader maps them back. The model chooses at the tokens where the
names part, as with whole names, and the tokens the grammar would have forced are never
generated. A name that is a prefix of a sibling ("lena" beside "lena_serum_tube") keeps
its whole name.

:class:`TupleHandles` gives handles for string tuples such as ``[predicate, arg, ...]``:
the first strings among themselves, then each position among the strings that tuples with
the same first string offer there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

__all__ = ['LiteralHandles', 'Tokenize', 'TupleHandles', 'branch_row', 'handles',
           'literal_rows', 'shorten_branch', 'token_pieces', 'tokenizer']

#: the model's tokens of each text (its pieces, joined = the text), or None
Tokenize = Callable[[list[str]], 'list[list[str]] | None']


def handles(names: Iterable[str], pieces: dict[str, list[str]]) -> dict[str, str]:
    """Return each name's handle among ``names``: its shortest telling run of tokens.

    ``pieces`` holds each name's tokens; a name without them keeps its whole name.
    """
    names = sorted(set(names))
    out: dict[str, str] = {}
    for name in names:
        out[name] = name
        prefix = ''
        for piece in pieces.get(name) or ():
            prefix += piece
            if prefix != name and not any(o != name and o.startswith(prefix) for o in names):
                out[name] = prefix
                break
    return out


class TupleHandles:
    """Handles for string tuples whose first string says which kind of tuple it is.

    Position 0: handles among every tuple's first string; position k > 0: among the
    strings at position k of the tuples that share the first string. Tuples with other
    first strings, or strings never offered, are read back as written.
    """

    def __init__(self, rows: Iterable[Sequence[Iterable[str]]],
                 pieces: dict[str, list[str]]) -> None:
        """``rows``: per tuple shape, the strings each position may hold (position 0 first)."""
        heads: set[str] = set()
        at: dict[tuple[str, int], set[str]] = {}
        for row in rows:
            row = [list(r) for r in row]
            if not row:
                continue
            heads.update(row[0])
            for head in row[0]:
                for k, values in enumerate(row[1:], 1):
                    at.setdefault((head, k), set()).update(values)
        self._heads = handles(heads, pieces)
        self._at = {key: handles(values, pieces) for key, values in at.items()}
        self._back_heads = {h: n for n, h in self._heads.items()}
        self._back_at = {key: {h: n for n, h in m.items()} for key, m in self._at.items()}

    @classmethod
    def of_tuples(cls, tuples: Iterable[Sequence[str]],
                  pieces: dict[str, list[str]]) -> TupleHandles:
        """Return the handles of whole tuples (one row each)."""
        return cls([[[s] for s in t] for t in tuples], pieces)

    @staticmethod
    def names(rows: Iterable[Sequence[Iterable[str]]]) -> set[str]:
        """Return every string of ``rows`` (what the tokenizer is asked for)."""
        return {s for row in rows for values in row for s in values}

    def short(self, head: str, position: int, value: str) -> str:
        """Return the handle of ``value`` at ``position`` of a tuple whose first is ``head``."""
        if position == 0:
            return self._heads.get(value, value)
        return self._at.get((head, position), {}).get(value, value)

    def short_tuple(self, values: Sequence[str]) -> list[str]:
        """Return a whole tuple as its handles."""
        return [self.short(values[0], k, v) for k, v in enumerate(values)]

    def full(self, item: Any) -> Any:
        """Return an answer's tuple with its handles read back (anything else as is)."""
        if not isinstance(item, (list, tuple)) or not item or not isinstance(item[0], str):
            return item
        head = self._back_heads.get(item[0], item[0])
        out: list[Any] = [head]
        for k, value in enumerate(item[1:], 1):
            back = self._back_at.get((head, k), {})
            out.append(back.get(value, value) if isinstance(value, str) else value)
        return out

    def saved(self) -> int:
        """Return how many characters the handles leave out, summed over the distinct names."""
        maps = [self._heads, *self._at.values()]
        return sum(len(n) - len(h) for m in maps for n, h in m.items())


def tokenizer(llm: Any, wanted: bool) -> Tokenize | None:
    """Return ``llm``'s tokenizer when handles are ``wanted`` and it has one, else None."""
    return getattr(llm, 'tokenize', None) if wanted else None


def token_pieces(tokenize: Tokenize | None, names: Iterable[str]) -> dict[str, list[str]]:
    """Return each name's tokens from ``tokenize``; {} when it cannot tell (no handles)."""
    names = sorted(set(names))
    if tokenize is None or not names:
        return {}
    try:
        got = tokenize(names)
    except Exception:  # noqa: BLE001 - whole names are always right, only slower
        return {}
    if not got or len(got) != len(names):
        return {}
    return {n: p for n, p in zip(names, got, strict=True) if ''.join(p) == n}


def _named(value: Any) -> bool:
    """Tell whether a schema string is a name (not ``?x``, ``true`` as a type, numbers...)."""
    return isinstance(value, str) and value[:1].isalpha() and all(
        c.isalnum() or c in '_-' for c in value)


def branch_row(node: Any) -> list[list[str]] | None:
    """Return the strings each position of a ``[name, ...]`` branch holds, or None.

    A branch is a fixed-length array schema (``prefixItems``) whose first item is a
    ``const`` string.
    """
    items = node.get('prefixItems') if isinstance(node, dict) else None
    if not (isinstance(items, list) and items and isinstance(items[0], dict)
            and isinstance(items[0].get('const'), str)):
        return None
    return [[p['const']] if 'const' in p else
            [v for v in p.get('enum') or () if isinstance(v, str)]
            for p in items if isinstance(p, dict)]


def shorten_branch(node: dict[str, Any], short: TupleHandles) -> dict[str, Any]:
    """Return a ``[name, ...]`` branch with its strings as handles (others as they are)."""
    if branch_row(node) is None:
        return node
    items = node['prefixItems']
    head = items[0]['const']
    out = []
    for k, p in enumerate(items):
        if 'const' in p:
            out.append({**p, 'const': short.short(head, k, p['const'])})
        elif 'enum' in p:
            out.append({**p, 'enum': [short.short(head, k, v) if isinstance(v, str) else v
                                      for v in p['enum']]})
        else:
            out.append(p)
    return {**node, 'prefixItems': out}


def literal_rows(schema: Any) -> list[list[list[str]]]:
    """Return the rows (:func:`branch_row`) of every ``[name, ...]`` branch in ``schema``."""
    rows: list[list[list[str]]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            row = branch_row(node)
            if row is not None:
                rows.append(row)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(schema)
    return rows


class LiteralHandles:
    """One schema's ``[name, ...]`` branches offered as handles, and its answers read back.

    Every branch of the schema shares one :class:`TupleHandles`; strings that are not
    names (``?x``) keep their whole form.
    """

    def __init__(self, schema: dict[str, Any], tokenize: Tokenize | None) -> None:
        rows = literal_rows(schema)
        names = {n for n in TupleHandles.names(rows) if _named(n)}
        self.short = TupleHandles(rows, token_pieces(tokenize, names))
        self.schema = self._shorten(schema)

    def _shorten(self, node: Any) -> Any:
        if isinstance(node, list):
            return [self._shorten(v) for v in node]
        if not isinstance(node, dict):
            return node
        if branch_row(node) is not None:
            return shorten_branch(node, self.short)
        return {k: self._shorten(v) for k, v in node.items()}

    def expand(self, data: Any) -> Any:
        """Return ``data`` with every ``[handle, ...]`` list read back to whole names."""
        if isinstance(data, dict):
            return {k: self.expand(v) for k, v in data.items()}
        if isinstance(data, list):
            if data and isinstance(data[0], str):
                return self.short.full(data)
            return [self.expand(v) for v in data]
        return data
