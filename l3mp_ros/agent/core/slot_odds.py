# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The answer call's own odds, per slot: how sure the model was of each part of a reading.

An update answer (``{"facts": [...]}``, :mod:`.grounding`) is written under a JSON-schema
grammar. Asked for the top log-probabilities of each generated token, llama.cpp (and
OpenAI-compatible endpoints) return them *before* the grammar mask, so the odds at a
token are renormalised here over the candidates the schema allows at that point; the mass
that fell outside is kept as a signal of its own (the model wanted to write something the
schema forbids: often "nothing changed" or a fact that is already so).

Only the tokens where the answer could have gone another way are scored (claim-
conditioned probability, Fadeeva et al. 2024): within each slot's value (the predicate,
each argument's entity, a unary fact's ``"true"``/``"false"``), between items (one more
fact or the end of the list) and at the start of an item (a fact stated or a fact
removed). A slot's probability is the product of its decisive tokens' renormalised
odds; its runners-up are the other values the allowed candidates spelt. A fact's score
is the product of its slots', a reading's the least of its facts' and of its stop.

The slot alternatives are read from the schema that was sent (``anyOf`` branches of
``prefixItems`` literals and a ``{"not": enum}`` branch); a reply whose tokens do not
hold its text, or a schema of another shape, gives no odds (``None``). A reply cut from
a longer generation (a fenced JSON block) is read where it sits in the tokens.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ...world.domain import DomainSchema
from ...world.kg import Fact

__all__ = ['FactOdds', 'ReplyOdds', 'SlotOdds', 'fact_of', 'reply_odds']

TopLogprobs = Sequence[tuple[str, Sequence[tuple[str, float]]]]

#: candidates asked for at each token of an update answer
ODDS_TOP = 10


@dataclass(frozen=True)
class SlotOdds:
    """One slot of a fact: the value written, its renormalised odds and runners-up."""

    value: str
    p: float  # P(this value | the schema allows it), from the decisive tokens
    outside: float  # the most probability mass that fell outside the schema at its tokens
    runners: tuple[tuple[str, float], ...] = ()  # other allowed values, most likely first


@dataclass(frozen=True)
class FactOdds:
    """One item of the answer: a fact stated (``removed`` False) or removed."""

    item: tuple[str, ...]  # as written: [predicate, argument, ...]
    removed: bool
    op: float  # P(stated vs removed) as written, at the item's first character
    more: float  # P(one more item) where this one began, rather than ending the list
    slots: tuple[SlotOdds, ...]

    @property
    def p(self) -> float:
        """Return the fact's score: its op's and its slots' odds multiplied."""
        return self.op * math.prod(s.p for s in self.slots)

    @property
    def outside(self) -> float:
        """Return the most mass the model put outside the schema on this fact."""
        return max((s.outside for s in self.slots), default=0.0)

    def to_json(self) -> dict[str, Any]:
        """Return the item, its odds and each slot as [value, p, outside, runners-up]."""
        return {'item': list(self.item), 'removed': self.removed, 'p': round(self.p, 4),
                'op': round(self.op, 4), 'more': round(self.more, 4),
                'slots': [[s.value, round(s.p, 4), round(s.outside, 4),
                           [[v, round(q, 4)] for v, q in s.runners[:3]]] for s in self.slots]}

    def weakest(self) -> tuple[int, SlotOdds] | None:
        """Return (index, slot) of the slot with the lowest odds, or None without slots."""
        if not self.slots:
            return None
        i = min(range(len(self.slots)), key=lambda k: self.slots[k].p)
        return i, self.slots[i]


@dataclass(frozen=True)
class ReplyOdds:
    """The odds of one whole answer."""

    facts: tuple[FactOdds, ...]
    stop: float  # P(ending the list where it ended), given the items before
    notes: tuple[str, ...] = field(default=())

    @property
    def p(self) -> float:
        """Return the reading's score: its weakest fact's, and its stop's, the least."""
        return min([f.p for f in self.facts] + [self.stop])

    @property
    def outside(self) -> float:
        """Return the most mass the model put outside the schema on any fact."""
        return max((f.outside for f in self.facts), default=0.0)

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-able summary (for records and benchmarks)."""
        return {'p': round(self.p, 4), 'stop': round(self.stop, 4),
                'outside': round(self.outside, 4), 'facts': [f.to_json() for f in self.facts]}


# -- the reply's strings, with their places ---------------------------------------------
@dataclass
class _Node:
    kind: str  # 'object', 'array', 'string', 'other'
    start: int  # index of its first character (a string: its opening quote)
    end: int  # one past its last character
    value: Any = None  # a string's text
    items: list[_Node] = field(default_factory=list)  # an array's items
    keys: dict[str, _Node] = field(default_factory=dict)  # an object's members


class _Scanner:
    """A JSON reader that keeps where each value sits in the text."""

    def __init__(self, text: str) -> None:
        self.text, self.i = text, 0

    def _ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in ' \t\r\n':
            self.i += 1

    def value(self) -> _Node:
        self._ws()
        if self.i >= len(self.text):
            raise ValueError('end of text')
        c = self.text[self.i]
        if c == '{':
            return self._object()
        if c == '[':
            return self._array()
        if c == '"':
            return self._string()
        start = self.i
        while self.i < len(self.text) and self.text[self.i] not in ',]} \t\r\n':
            self.i += 1
        return _Node('other', start, self.i, self.text[start:self.i])

    def _string(self) -> _Node:
        start, self.i = self.i, self.i + 1
        out: list[str] = []
        while self.i < len(self.text) and self.text[self.i] != '"':
            if self.text[self.i] == '\\':
                raise ValueError('escapes are not read')  # names never carry them
            out.append(self.text[self.i])
            self.i += 1
        if self.i >= len(self.text):
            raise ValueError('unterminated string')
        self.i += 1
        return _Node('string', start, self.i, ''.join(out))

    def _array(self) -> _Node:
        node = _Node('array', self.i, self.i)
        self.i += 1
        self._ws()
        if self.text[self.i:self.i + 1] == ']':
            self.i += 1
            node.end = self.i
            return node
        while True:
            node.items.append(self.value())
            self._ws()
            c = self.text[self.i:self.i + 1]
            self.i += 1
            if c == ']':
                node.end = self.i
                return node
            if c != ',':
                raise ValueError('bad array')

    def _object(self) -> _Node:
        node = _Node('object', self.i, self.i)
        self.i += 1
        self._ws()
        if self.text[self.i:self.i + 1] == '}':
            self.i += 1
            node.end = self.i
            return node
        while True:
            self._ws()
            key = self._string()
            self._ws()
            if self.text[self.i:self.i + 1] != ':':
                raise ValueError('bad object')
            self.i += 1
            node.keys[key.value] = self.value()
            self._ws()
            c = self.text[self.i:self.i + 1]
            self.i += 1
            if c == '}':
                node.end = self.i
                return node
            if c != ',':
                raise ValueError('bad object')


# -- the schema's alternatives ----------------------------------------------------------
def _options(spec: dict[str, Any]) -> list[str] | None:
    if 'const' in spec:
        return [str(spec['const'])]
    if 'enum' in spec and all(isinstance(v, str) for v in spec['enum']):
        return [str(v) for v in spec['enum']]
    return None


@dataclass
class _Branches:
    """The item shapes an update schema allows."""

    rows: list[list[list[str]]]  # per stated branch, per position, its allowed values
    removable: list[list[str]]  # the items a ``{"not": ...}`` may name

    @classmethod
    def of(cls, schema: dict[str, Any]) -> _Branches | None:
        try:
            items = schema['properties']['facts']['items']['anyOf']
        except (KeyError, TypeError):
            return None
        rows: list[list[list[str]]] = []
        removable: list[list[str]] = []
        for item in items:
            if item.get('type') == 'array':
                row = [_options(p) for p in item.get('prefixItems', [])]
                if any(r is None for r in row):
                    return None
                rows.append(row)  # type: ignore[arg-type]
            elif item.get('type') == 'object':
                enum = item.get('properties', {}).get('not', {}).get('enum')
                if not isinstance(enum, list):
                    return None
                removable.extend([str(x) for x in e] for e in enum)
            else:
                return None
        return cls(rows, removable)

    def allowed(self, removed: bool, chosen: Sequence[str], k: int) -> list[str]:
        """Return the values position ``k`` may take after ``chosen[:k]``."""
        head = tuple(chosen[:k])
        if removed:
            return list(dict.fromkeys(r[k] for r in self.removable
                                      if len(r) > k and tuple(r[:k]) == head))
        out: list[str] = []
        for row in self.rows:
            if len(row) > k and all(chosen[j] in row[j] for j in range(k)):
                out.extend(row[k])
        return list(dict.fromkeys(out))


# -- token odds ----------------------------------------------------------------------------
class _Tokens:
    """The generated tokens, where each begins, and their candidates' probabilities."""

    def __init__(self, steps: TopLogprobs) -> None:
        self.starts: list[int] = []
        at = 0
        for token, _ in steps:
            self.starts.append(at)
            at += len(token)
        self.tokens = [t for t, _ in steps]
        self.tops = [[(c, math.exp(lp)) for c, lp in top] for _, top in steps]
        self.text = ''.join(self.tokens)  # what was generated (a reply may be cut from it)

    def covering(self, pos: int) -> int | None:
        """Return the index of the token holding character ``pos``."""
        for i, s in enumerate(self.starts):
            if s <= pos < s + len(self.tokens[i]):
                return i
        return None

    def spanning(self, a: int, b: int) -> list[int]:
        """Return the tokens that hold any character in [a, b)."""
        return [i for i, s in enumerate(self.starts)
                if s < b and s + len(self.tokens[i]) > a and self.tokens[i]]

    def choice(self, pos: int, kinds: dict[str, str], chosen: str) -> float:
        """Return P(chosen) of the decision made at character ``pos``.

        ``kinds`` maps the first non-blank character a candidate writes at ``pos`` to the
        option it means. The decision falls at the token holding ``pos - 1`` when its
        candidates reach ``pos``. Candidates that stop short of it leave it to the next
        token: when the written token did so too, the next token's odds are theirs;
        otherwise they count for the options not written (a tokenizer merges a following
        ``,`` into ``"],``, so a bare ``"]`` means the end). Candidates writing anything
        else are outside the schema and left out.
        """
        i = self.covering(pos - 1)
        if i is None:
            return 1.0
        share = self._decide(i, pos, kinds)
        return share.get(chosen, 0.0)

    def _decide(self, i: int, pos: int, kinds: dict[str, str]) -> dict[str, float]:
        s = self.starts[i]
        fixed = self.text[s:pos] if s < pos else ''
        mass: dict[str, float] = {}
        defer = 0.0
        for cand, p in self.tops[i]:
            if not cand.startswith(fixed):
                continue
            rest = cand[len(fixed):].lstrip(' \t\r\n')
            if not rest:
                defer += p
            elif (kind := kinds.get(rest[0])) is not None:
                mass[kind] = mass.get(kind, 0.0) + p
        written = self.tokens[i][len(fixed):].lstrip(' \t\r\n')
        if not written and defer > 0 and i + 1 < len(self.tokens):
            for kind, q in self._decide(i + 1, self.starts[i + 1], kinds).items():
                mass[kind] = mass.get(kind, 0.0) + defer * q
        elif written and defer > 0:
            # a tokenizer merges what follows into the token when it can ('"],' for '"]'
            # and ','): a candidate that stops short means the other options
            chosen = kinds.get(written[0])
            rest = [k for k in dict.fromkeys(kinds.values()) if k != chosen]
            for kind in rest:
                mass[kind] = mass.get(kind, 0.0) + defer / len(rest)
        total = sum(mass.values())
        return {k: v / total for k, v in mass.items()} if total > 0 else {}

    def slot(self, a: int, b: int, value: str, options: Sequence[str]) -> SlotOdds:
        """Return the odds of the string value at [a, b) (inside its quotes)."""
        p, outside, prefix = 1.0, 0.0, 1.0
        alts: dict[str, float] = {}
        others = [o for o in options if o != value]
        before = self.covering(a - 1)
        steps = ([before] if before is not None else []) + self.spanning(a, b + 1)
        for i in dict.fromkeys(steps):
            s = self.starts[i]
            fixed = self.text[s:a] if s < a else ''
            said = self.text[a:s] if s > a else ''
            same = allowed = defer = 0.0
            here: dict[str, float] = {}
            for cand, q in self.tops[i]:
                if not cand.startswith(fixed):
                    continue
                r = said + cand[len(fixed):]
                if not r:
                    defer += q  # stops at the opening quote: the next token decides
                    continue
                mine = _spells(value, r)
                hits = [] if mine else [o for o in others if _spells(o, r)]
                if mine:
                    same += q
                if mine or hits:
                    allowed += q
                for o in hits:  # a candidate that leaves the written value here
                    here[o] = max(here.get(o, 0.0), q)
            if not (said + self.tokens[i][len(fixed):]):  # the written token stops short
                same, allowed = same + defer, allowed + defer
            if allowed <= 0:
                continue
            outside = max(outside, 1.0 - allowed)
            for o, q in here.items():
                alts[o] = max(alts.get(o, 0.0), prefix * q / allowed)
            ratio = same / allowed
            p *= ratio
            prefix *= ratio
        runners = tuple(sorted(alts.items(), key=lambda kv: (-kv[1], kv[0])))
        return SlotOdds(value, p, outside, runners)


def _spells(value: str, r: str) -> bool:
    """Tell whether the value text ``r`` (so far) can still be ``value`` closed by a quote."""
    whole = value + '"'
    return whole.startswith(r) or r.startswith(whole)


def reply_odds(text: str, steps: TopLogprobs | None,
               schema: dict[str, Any] | None) -> ReplyOdds | None:
    """Return the odds of an update answer's slots, or None when they cannot be read."""
    if not steps or not schema or not text:
        return None
    branches = _Branches.of(schema)
    tokens = _Tokens(steps)
    # the reply is the generated text, or the JSON cut from it (a fenced block, when an
    # endpoint did not hold the answer to its schema)
    at = tokens.text.find(text)
    if branches is None or at < 0:
        return None
    scanner = _Scanner(tokens.text)
    scanner.i = at
    try:
        root = scanner.value()
    except (ValueError, IndexError):
        return None
    listing = root.keys.get('facts') if root.kind == 'object' else None
    if listing is None or listing.kind != 'array' or not isinstance(
            schema['properties']['facts'], dict):
        return None
    facts: list[FactOdds] = []
    item_start = {'[': 'item', '{': 'item', ']': 'end'}
    cont = {',': 'more', ']': 'end'}
    more = tokens.choice(listing.start + 1, item_start, 'item' if listing.items else 'end')
    for n, node in enumerate(listing.items):
        got = _fact(tokens, branches, node, more)
        if got is None:
            return None
        facts.append(got)
        if n + 1 < len(listing.items):
            more = tokens.choice(node.end, cont, 'more')
    stop = 1.0
    limit = schema['properties']['facts'].get('maxItems')
    if listing.items and (limit is None or len(listing.items) < limit):
        stop = tokens.choice(listing.items[-1].end, cont, 'end')
    else:
        stop = more
    return ReplyOdds(tuple(facts), stop)


def _fact(tokens: _Tokens, branches: _Branches, node: _Node, more: float) -> FactOdds | None:
    removed = node.kind == 'object'
    inner = node.keys.get('not') if removed else node
    if inner is None or inner.kind != 'array' or any(x.kind != 'string' for x in inner.items):
        return None
    op = tokens.choice(node.start, {'[': 'stated', '{': 'removed'},
                       'removed' if removed else 'stated')
    chosen = [x.value for x in inner.items]
    slots = []
    for k, x in enumerate(inner.items):
        options = branches.allowed(removed, chosen, k)
        if x.value not in options:
            return None  # the schema does not allow what was written: not this shape
        slots.append(tokens.slot(x.start + 1, x.end - 1, x.value, options))
    return FactOdds(tuple(chosen), removed, op, more, tuple(slots))


def fact_of(domain: DomainSchema, item: list[str] | tuple[str, ...],
            removed: bool) -> tuple[Fact, bool] | None:
    """Return (fact, removed?) of an answer item; a unary ends in ``true``/``false``."""
    pred = domain.predicates.get(item[0])
    if pred is None:
        return None
    args = tuple(item[1:])
    if pred.arity == 1 and len(args) == 2:
        return Fact(item[0], (args[0],)), removed or args[1] == 'false'
    if pred.arity != len(args):
        return None
    return Fact(item[0], args), removed
