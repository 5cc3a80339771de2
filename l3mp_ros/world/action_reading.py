# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The rules that read an action's words into a sentence template (:mod:`.action_templates`).

:func:`rule_action` reads the action's name words and parameters by general English
(:mod:`.english`) and what the domain's predicates say (:class:`DomainWords`: where things
are, parts, the nouns naming a type) and what the action's own conditions and effects say
(the doer's place, what it changes, what moves from where to where); no word of any
domain. The rules, in order, are listed in :mod:`.action_templates`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from . import english as en
from .action_templates import ActionTemplate, Params, check_action, doer_index, doer_types
from .domain import DomainSchema
from .templates import _noun_like, _split, _type_words, rule_template

VERSION = 1  # of these rules: a phrasebook made by other rules is made again
_NOT_SAID_PREPS = frozenset(('by', 'of'))  # "held by {1}" says who, not where
_ONLY_PARTICLES = frozenset(('up', 'down', 'away', 'back', 'over'))  # never "up {x}"


def _fits(domain: DomainSchema, types: Iterable[str], accepted: Iterable[str]) -> bool:
    """Tell whether an argument of ``types`` may stand where ``accepted`` types may."""
    accepted = tuple(accepted)
    return any(domain.is_subtype(t, accepted) or any(
        t != 'object' and a != t and domain.is_subtype(a, t) for a in accepted) for t in types)


@dataclass(frozen=True)
class _Relation:
    """A binary predicate read as "<first> is <prep> <second>" (``agent_in_room``: in)."""

    predicate: str
    first: tuple[str, ...]
    second: tuple[str, ...]
    prep: str


@dataclass(frozen=True)
class _Part:
    """A noun a predicate says as an argument's part (``faucet_on``: "{0}'s faucet")."""

    owner: tuple[str, ...]
    noun: str


class DomainWords:
    """What a domain's predicates and actions tell about how its actions are said."""

    def __init__(self, domain: DomainSchema) -> None:
        self.domain = domain
        self.doer = doer_types(domain)
        self.relations: list[_Relation] = []
        self.parts: list[_Part] = []
        self.aliases: list[tuple[tuple[str, ...], str]] = []  # (types, the noun naming them)
        for name, decl in sorted(domain.predicates.items()):
            t = rule_template(name, decl.params, domain)
            said = set(re.findall(r'[a-z]+', t.text.lower()))
            m = re.fullmatch(r'(?:([a-z]+) )?([a-z]+) \{1\}', t.rest)
            if decl.arity == 2 and t.subject == '{0}' and m and m.group(2) in en.PREPOSITIONS \
                    and m.group(2) not in _NOT_SAID_PREPS:
                self.relations.append(_Relation(name, decl.params[0][1], decl.params[1][1],
                                                m.group(2)))
            for slot, noun in re.findall(r"\{(\d)\}'s ([a-z]+)", t.text):
                self.parts.append(_Part(decl.params[int(slot)][1], noun))
            if decl.arity in (1, 2):
                kinds = _type_words(domain, [t for _, ts in decl.params for t in ts])
                for w in _split(name):
                    if w not in said and w not in kinds and len(w) > 2 and _noun_like(w):
                        self.aliases.append((decl.params[0][1], w))
        self.atoms = _atoms(domain.text or '')

    def relation(self, first: Iterable[str] | None, second: Iterable[str]) -> str | None:
        """Return the preposition of the first relation of ``first`` to ``second``.

        ``first`` None: any thing's relation to ``second`` (where things are).
        """
        for r in self.relations:
            if _fits(self.domain, second, r.second) and (
                    first is None or _fits(self.domain, first, r.first)):
                return r.prep
        return None

    def place(self, types: Iterable[str], first: Iterable[str] | None = None) -> str | None:
        """Return the place preposition things (of ``first``) are said with at ``types``."""
        for r in self.relations:
            if r.prep in en.PLACE_PREPOSITIONS and _fits(self.domain, types, r.second) and (
                    first is None or _fits(self.domain, first, r.first)):
                return r.prep
        return None


Atom = tuple[str, tuple[str, ...], bool]  # predicate, arguments (without ?), holds after


def _atoms(text: str) -> dict[str, tuple[list[Atom], list[Atom]]]:
    """Return each action's condition atoms and effect atoms (``not``: False) in its text."""
    low = re.sub(r';[^\n]*', '', text.lower())
    out: dict[str, tuple[list[Atom], list[Atom]]] = {}
    for chunk in re.split(r'\(:(?:durative-)?action\s+', low)[1:]:
        name = chunk.split(None, 1)[0] if chunk.split() else ''
        pre, _, eff = chunk.partition(':effect')
        out[name] = (_read_atoms(pre), _read_atoms(eff))
    return out


def _read_atoms(text: str) -> list[Atom]:
    """Return the atoms ``(p ?x ?y)`` of a condition or effect, each with its polarity."""
    got = []
    for m in re.finditer(r'\(\s*([\w-]+)((?:\s+\?[\w-]+)+)\s*\)', text):
        args = tuple(a.lstrip('?') for a in m.group(2).split())
        got.append((m.group(1), args, not text[:m.start()].rstrip().endswith('(not')))
    return got


# -- reading an action's words --------------------------------------------------------------
def _action_words(name: str) -> list[str]:
    """Return an action name's words, a verb's glued particle split: ``pickup`` → pick, up."""
    toks = _split(name) or [name]
    head = toks[0]
    for p in ('up', 'down', 'out', 'off'):
        if head.endswith(p) and len(head) - len(p) >= 3 and head != p:
            return [head[:-len(p)], p, *toks[1:]]
    return toks


def _prep_named(name: str) -> str | None:
    """Return the preposition a parameter's name says (``from``, ``loc-from``), or None."""
    preps = [w for w in _split(name) if w in en.PREPOSITIONS]
    return preps[-1] if preps else None


class _Reading:
    """One action's words read into a sentence (see the module docstring for the rules)."""

    def __init__(self, action: str, params: Params, known: DomainWords) -> None:
        self.params, self.known, self.d = list(params), known, known.domain
        self.doer = doer_index(params, known.doer)
        self.free = [i for i in range(len(params)) if i != self.doer]
        toks = _action_words(action)
        if self.doer is not None and len(toks) > 1 and toks[0] in self._words(0):
            toks = toks[1:]  # robot_move: the doer's word
        self.verb, self.body = toks[0], toks[1:]
        if self.verb in en.VERB_PARTICLE and not (self.body and self.body[0] in en.PARTICLES):
            self.body = [en.VERB_PARTICLE[self.verb], *self.body]
        self.names = [n.lower() for n, _ in params]
        atoms = known.atoms.get(action.lower())
        self.pre, self.eff = atoms if atoms is not None else ([], [])
        named = {a for _, args, _ in self.eff for a in args}
        self.changed = {i for i, n in enumerate(self.names) if atoms is None or n in named}
        self.moves = self._moves()
        self.out: list[str] = []
        self.obj: int | None = None
        self.noun_object: int | None = None  # where a noun took the object's place
        self.settled = True
        self.used: set[str] = set()

    def _moves(self) -> dict[str, str]:
        """Return the arguments a thing moves between: "from" the one left, "to" the other.

        The effect ends a place relation of a thing and makes the same relation of it to
        another (``(not (at ?t ?a)) (at ?t ?b)``: "from {a} to {b}").
        """
        places = {r.predicate for r in self.known.relations}
        ends: dict[tuple[str, str], set[str]] = {}
        makes: dict[tuple[str, str], set[str]] = {}
        for p, args, holds in self.eff:
            if p in places and len(args) == 2:
                (makes if holds else ends).setdefault((p, args[0]), set()).add(args[1])
        out: dict[str, str] = {}
        for key, gone in ends.items():
            made = makes.get(key, set())
            if made - gone and gone - made:
                out.update({a: 'from' for a in gone - made})
                out.update({a: 'to' for a in made - gone})
        return out

    def _words(self, i: int) -> set[str]:
        name, types = self.params[i]
        return _type_words(self.d, types) | ({name.lower()} if len(name) > 1 else set())

    def _match(self, j: int) -> tuple[int, int] | None:
        """Return (words, argument) the name's words from ``j`` name, if they name one.

        The longest phrase first ("shelf level"), then the argument's own type over its
        parameter's name over a supertype's word, then the later argument
        (``pickup_from_item``: the second item).
        """
        best: tuple[int, int, int] | None = None  # (words, closeness, argument)
        for i in self.free:
            name, types = self.params[i]
            phrases = [(t, 3) for t in types] + [(name, 2)] + [
                (a, 1) for t in types for a in self.d.ancestors(t) if a not in ('object', t)]
            for phrase, close in phrases:
                ws = _split(phrase)
                if len(phrase) > 1 and ws and self.body[j:j + len(ws)] == ws:
                    best = max(best or (0, 0, -1), (len(ws), close, i))
            if j < len(self.body) and self.body[j] in self._words(i):
                best = max(best or (0, 0, -1), (1, 0, i))
        return (best[0], best[2]) if best else None

    def _particle(self, w: str, j: int, i: int) -> bool:
        """Tell whether ``w`` right after the verb is a particle with ``i`` its object.

        "turn on {l}", "pick up {m}"; not when another argument the action changes could be
        the object ("hang {x} on {k}'s hook").
        """
        if j != 0 or w not in en.PARTICLES or self.obj is not None:
            return False
        return w in _ONLY_PARTICLES or not any(
            o != i and o in self.changed and not self.context(o) for o in self.free)

    def slot(self, i: int) -> str:
        """Take argument ``i`` as said; return its slot."""
        if i in self.free:
            self.free.remove(i)
        return '{' + str(i) + '}'

    def owner(self, noun: str) -> int | None:
        """Return the argument ``noun`` is a part of (a predicate says "{x}'s noun")."""
        for part in self.known.parts:
            if part.noun == noun:
                for i in self.free:
                    if _fits(self.d, self.params[i][1], part.owner):
                        return i
        return None

    def named(self, noun: str) -> int | None:
        """Return the argument ``noun`` names (a predicate drops it for its subject)."""
        for types, w in self.known.aliases:
            if w == noun:
                for i in self.free:
                    if _fits(self.d, self.params[i][1], types):
                        return i
        return None

    def noun(self, w: str, after: str | None = None, j: int = -1) -> None:
        """Say a name's noun that is no argument: a part, the argument it names, "the" w.

        ``after``: the preposition before it (at ``j``), the part's owner then not the
        object unless it is a particle's ("turn on {s}'s faucet").
        """
        i = self.owner(w)
        if i is not None:
            if after is None or self._particle(after, j, i):
                self.obj = i if self.obj is None else self.obj
            self.out.append(f"{self.slot(i)}'s {w}")
            return
        i = self.named(w)
        if i is not None and self.obj is None and after is None:
            self.obj = i
            self.out.append(self.slot(i))
            return
        if self.out and self.out[-1] not in en.PREPOSITIONS and _noun_like(self.out[-1]) \
                and '{' not in self.out[-1]:
            self.out.append(w)  # a compound: "the water tank"
            return
        if self.obj is None and self.noun_object is None and after is None and not any(
                '{' in o for o in self.out):
            self.noun_object = len(self.out) + 2
        self.out += ['the', w]

    def _into(self, i: int) -> list[str]:
        """Say the argument the name names after the verb, or a thing put in or out of it.

        ``load_truck`` whose effect makes ``(in ?pkg ?truck)``: "load {pkg} into {truck}";
        ends it: "unload {pkg} from {truck}".
        """
        preps = {r.predicate: r.prep for r in self.known.relations
                 if r.prep in en.PLACE_PREPOSITIONS}
        for p, args, holds in self.eff:
            if p in preps and len(args) == 2 and args[1] == self.names[i] \
                    and args[0] in self.names:
                x = self.names.index(args[0])
                if x in self.free and x != i and x != self.doer:
                    self.obj = x
                    prep = {'in': 'into', 'on': 'onto'}.get(preps[p], preps[p])
                    return [self.slot(x), prep if holds else 'from', self.slot(i)]
        return [self.slot(i)]

    def walk(self) -> str | None:
        """Say the name's words in order; return a last preposition left without object."""
        body, j = self.body, 0
        while j < len(body):
            w = body[j]
            if w in en.PREPOSITIONS:
                nxt = body[j + 1] if j + 1 < len(body) else None
                m = self._match(j + 1) if nxt is not None else None
                if nxt is None:
                    return w
                if m is not None:
                    self._prep_phrase(w, j, *m)
                    j += 1 + m[0]
                    continue
                self.out.append(w)
                if nxt not in en.PREPOSITIONS:
                    self.noun(nxt, w, j)
                    j += 1
                j += 1
                continue
            m = self._match(j)
            if m is not None:
                k, i = m
                j += k
                nxt = body[j] if j < len(body) else None
                if self.obj is None:
                    self.obj = i
                    if nxt is not None and _noun_like(nxt) and self._match(j) is None \
                            and not nxt.isdigit() and nxt not in en.GLUED_STATES \
                            and nxt not in en.PARTICLES:  # run_washer_cycle: "{w}'s cycle"
                        self.out.append(f"{self.slot(i)}'s {nxt}")
                        j += 1
                    else:
                        self.out += self._into(i)
                else:  # switch_tv_channel: a second argument after the object
                    self.out += ['to', self.slot(i)]
                continue
            if any(w in self._words(i) for i in (self.doer,) if i is not None):
                j += 1  # the doer's word
                continue
            owned = self.owner(w) is not None or self.named(w) is not None
            if not owned and (w.isdigit() or not _noun_like(w) or w in en.GLUED_STATES):
                self.out.append(w)  # "open", "shut", "2"
            else:
                self.noun(w)
            j += 1
        return None

    def _prep_phrase(self, w: str, j: int, k: int, i: int) -> None:
        """Say ``w`` and the argument the name's next words name (or the named ones)."""
        by_name = [p for p in self.free if _prep_named(self.params[p][0])]
        if any(_prep_named(self.params[p][0]) == w for p in by_name):
            for p in by_name:  # move_to_room: "from {1} to {2}" in the parameters' order
                prep = _prep_named(self.params[p][0]) or w
                self.out += [prep, self.slot(p)]
                self.used.add(prep)
            return
        if self._particle(w, j, i):
            self.obj = i  # turn_on_light: "turn on {l}"
        else:
            self.used.add(w)
        self.out += [w, self.slot(i)]

    def context(self, i: int) -> bool:
        """Tell whether argument ``i`` is only where the doer is ("in {r}", said last).

        A condition puts the doer there (``agent_in_room ?a ?r``; without the action's text,
        the doer may be somewhere of its type) and the action does not change it
        (``inspect ?w`` does: "inspect {w}").
        """
        if self.doer is None or self.names[i] in self.moves:
            return False
        doer, me = self.params[self.doer][1], self.names[i]
        if self.known.place(self.params[i][1], doer) is None:
            return False
        if not self.pre and not self.eff:
            return i not in self.changed
        places = {r.predicate for r in self.known.relations if r.prep in en.PLACE_PREPOSITIONS}
        if any(me in args and not (p in places and args[1:] == (me,))
               for p, args, _ in self.eff):
            return False  # inspected ?w: what the action is about
        return any(p in places and args == (self.names[self.doer], me)
                   for p, args, _ in self.pre)

    def pair(self, i: int) -> bool:
        """Tell whether ``i`` and the next are two places in a row ("from a to b").

        Only without the action's text (with it, :meth:`_moves` reads the effect).
        """
        k = self.free.index(i) if i in self.free else -1
        if k < 0 or k + 1 >= len(self.free):
            return False
        j = self.free[k + 1]
        return not self.eff and j == i + 1 and self.params[i][1] == self.params[j][1] \
            and not _prep_named(self.params[i][0]) and not _prep_named(self.params[j][0]) \
            and self.known.place(self.params[i][1]) is not None

    def object(self) -> None:
        """Choose the object when the name did not say it, and put it after the verb."""
        if self.obj is not None:
            return
        paired = {j for i in self.free if self.pair(i) for j in (i, i + 1)}
        cands = [i for i in self.free if not self.context(i) and i not in paired
                 and not _prep_named(self.params[i][0]) and self.names[i] not in self.moves]
        changed = [i for i in cands if i in self.changed]
        pick = (changed or [None])[0]
        if pick is None:
            return
        self.obj = pick
        if self.noun_object is not None:  # remove_padlock: "remove the padlock from {d}"
            prep = 'from' if self.verb in en.VERBS_TAKING else 'of'
            self.out[self.noun_object:self.noun_object] = [prep, self.slot(pick)]
            self.settled = False
            return
        self.out.insert(0, self.slot(pick))

    def trailing(self, w: str, placed_before: bool) -> None:
        """Say a last preposition of the name: before its argument, or as a particle."""
        others = [i for i in self.free if not self.context(i)
                  and not _prep_named(self.params[i][0])]
        x = others[0] if others else None
        by_name = [p for p in self.free if _prep_named(self.params[p][0]) == w]
        if by_name:
            self._prep_phrase(w, len(self.body), 0, by_name[0])
            return
        place = x is not None and bool(self.known.place(self.params[x][1]))
        if x is not None and w not in _ONLY_PARTICLES and (
                w not in en.PARTICLES or place):  # put_on: "put {o} on {r}"
            self.out += ['out of' if w == 'out' else w, self.slot(x)]
            self.used.add(w)
        elif placed_before:  # toggle_on: "toggle on {t}"
            self.out.insert(0, w)
        else:  # switch_light_on: "switch the light on"
            self.out.append(w)

    def prep(self, i: int) -> tuple[str, bool]:
        """Return the preposition of a remaining argument, and whether it is said last.

        Its parameter's name; the doer's place; a relation the action ends ("from") or
        makes ("on", "into") between the object and it; a relation of their types ("from"
        after a verb that takes away); "to" after a verb that gives; where things are;
        else "with".
        """
        types = self.params[i][1]
        named = _prep_named(self.params[i][0])
        if named:
            return named, False
        if self.names[i] in self.moves:
            return self.moves[self.names[i]], False
        if self.context(i):
            return self.known.place(types, self.params[self.doer or 0][1]) or 'at', True
        preps = {r.predicate: r.prep for r in self.known.relations}
        obj = self.names[self.obj] if self.obj is not None else None
        cands: list[str] = []
        for p, args, holds in sorted(self.eff, key=lambda a: a[1][:1] != (obj,)):
            if p in preps and len(args) == 2 and args[1] == self.names[i]:
                prep = preps[p] if holds else 'from'
                cands.append('into' if prep == 'in' else prep)
        taking = self.verb in en.VERBS_TAKING and not cands
        objtypes = self.params[self.obj][1] if self.obj is not None else None
        moving = bool(self.moves) or any(_prep_named(n) for n in self.names) \
            or any(map(self.pair, self.free))
        for rel in ('to' if self.verb in en.VERBS_GIVING else None,
                    self.known.relation(objtypes, types) if objtypes is not None else None,
                    self.known.place(types),
                    'via' if moving and i not in self.changed else None):
            if rel is not None and taking and rel in en.PLACE_PREPOSITIONS:
                cands.append('from')
            if rel is not None:
                cands.append(rel)
        for c in cands:
            if c not in self.used:
                return c, False
        self.settled = False
        return 'with', False

    def rest(self) -> str:
        """Say the arguments the name did not: in order, the doer's place last."""
        now, last = [], []
        free = list(self.free)
        k = 0
        while k < len(free):
            i = free[k]
            nxt = free[k + 1] if k + 1 < len(free) else None
            if nxt is not None and self.pair(i):  # drive: "from a to b"
                now += ['from', self.slot(i), 'to', self.slot(nxt)]
                k += 2
                continue
            prep, at_end = self.prep(i)
            self.used.add(prep)
            (last if at_end else now).extend([prep, self.slot(i)])
            k += 1
        return ' '.join([*self.out, *now, *last])


def rule_action(action: str, params: Params, known: DomainWords) -> ActionTemplate:
    """Return the template an action's words and the domain's predicates give."""
    r = _Reading(action, params, known)
    left = r.walk()
    before = r.obj is None
    r.object()
    if left is not None:
        r.trailing(left, before and r.obj is not None)
    got = ActionTemplate(action, r.verb, r.rest(), len(params), r.doer, settled=r.settled)
    if check_action(got):  # a name the rules cannot place every argument of: list them
        slots = ' '.join(f'{{{i}}}' for i in range(len(params)) if i != r.doer)
        got = ActionTemplate(action, r.verb, f'{" ".join(r.body)} {slots}'.strip(),
                             len(params), r.doer, settled=False)
    return got


def action_rules(domain: DomainSchema) -> dict[str, ActionTemplate]:
    """Return every action's template by the rules."""
    known = DomainWords(domain)
    return {n: rule_action(n, a.params, known) for n, a in sorted(domain.actions.items())}
