# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Facts said as sentences, from the domain's own predicate and type names (no LLM).

Each predicate is said by its template (:mod:`.templates`: the domain's phrasebook, made
by rules, a model or the user's YAML), in the form asked for ("is", "is not", "was", "is no
longer"); names are said as people write them: no article before a proper or numbered
name ("Leia", "room 203", "bay 7"), possessives ("Claire's hat box"), the verb agreeing
with a plural name ("the alcohol swabs are"). With ``legacy=True`` the earlier reading of
the predicate's words (below) is kept: what the model is asked in the where-questions is
said that way until the templates are measured there (docs/decisions.md).

The earlier reading:
A predicate name is read as words; the words that only repeat an argument's type are
dropped, and what remains is the relation: ``(person_in_room jerry kitchen)`` → "Jerry is
in the kitchen", ``(in_person_hand red_pen jerry)`` (the type word in the middle) → "The
red pen is in Jerry's hand", ``(room_has kitchen fridge)`` → "The kitchen has the fridge",
``(light_on hall_light)`` → "The hall light is on". A numeric fact keeps its number:
``(= (battery_level robot1) 73.5)`` → "The robot1's battery level is 73.5". Entity names
become words; entities of a type whose members are all one-word names that no type or
predicate uses (people, usually) are said as names ("Jerry"), the others with "the".
Nothing here is specific to a domain: any typed PDDL domain gets its sentences this way.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

from ..text import TITLES, split_name
from . import english as en
from .action_reading import DomainWords, rule_action
from .action_templates import read_step
from .domain import DomainSchema
from .kg import Fact, KnowledgeGraph, Update
from .phrasebook import Phrasebook, domain_key, overrides_path, phrasebook_for, upgrade, vetted
from .templates import Form, verb_phrase

PREPOSITIONS = frozenset((
    'in', 'on', 'at', 'inside', 'under', 'near', 'next', 'beside', 'by', 'with', 'into',
    'onto', 'behind', 'above', 'below', 'from', 'to', 'of', 'over', 'off', 'out', 'within',
    'outside', 'around', 'between', 'for', 'part', 'connected', 'attached', 'assigned'))
_VERB_3RD = re.compile(r'^(has|contains|holds|owns|controls|needs|wants|likes|uses|'
                       r'supports|covers|opens|serves|feeds|powers|follows|leads|sees|'
                       r'knows|\w+[^s]s)$')


def _lower_article(text: str) -> str:
    return 'the ' + text[4:] if text.startswith('The ') else text


def possessive(said: str) -> str:
    """Return the possessive of a phrase: "Jerry's", "James'"."""
    return said + ("'" if said.endswith('s') else "'s")


words = split_name  # the words of a name: ``placed_at_table`` → placed, at, table
#: words of a type whose members are people, named ("person", "people")
PEOPLE = frozenset('person persons people human humans'.split())


def lineage(domain: DomainSchema | None, t: str) -> tuple[str, ...]:
    """Return ``t`` and its supertypes below ``object`` (just ``t`` without a domain)."""
    chain = domain.ancestors(t) if domain else (t,)
    return tuple(a for a in chain if a != 'object') or (t,)


def name_types(domain: DomainSchema | None, kg: KnowledgeGraph) -> frozenset[str]:
    """Return the types of names (people, usually): :attr:`Phrasing.proper`, no phrasebook read.

    Their members, and those of their supertypes, are all one-word names that no type
    or predicate uses (or such a name after a title, "mrs_patel", or after a given name
    when the group has it after a title: "ada_okoye" beside "mr_okoye"): not "apples"
    of a food type whose other members are "canned_beans".
    """
    used = set()
    for t in (domain.types if domain else set(kg.entities.values())):
        used.update(words(t))
    for p in (domain.predicates if domain else ()):
        used.update(words(p))

    def group_of(t: str) -> str:
        # the type's top ancestor (below object), or the highest that says person: people
        # share "mobile" or "agent" with robots and barrows in some domains, and are names
        chain = lineage(domain, t)
        return next((a for a in reversed(chain) if PEOPLE & set(words(a))), chain[-1])

    # the members of a type's group include every subtype's
    members: dict[str, list[str]] = {}
    for name, t in kg.entities.items():
        members.setdefault(group_of(t), []).append(name)

    def a_name(n: str, families: set[str]) -> bool:
        # "jerry"; "mrs_patel" (a title, then a name); "ada_okoye" when "mr_okoye" is
        # of the group (a given name, then a family's name)
        ws = words(n)
        return (len(ws) == 1 and n.isalpha() and n not in used) or (
            len(ws) == 2 and ws[1].isalpha() and ws[1] not in used
            and (ws[0] in TITLES or ws[1] in families and ws[0].isalpha()
                 and ws[0] not in used))

    def full_name(n: str) -> bool:
        # "oscar_reid", "mrs_van_dijk": one or two words of letters that no type or
        # predicate uses, after a title or not
        ws = words(n)
        rest = ws[1:] if ws and ws[0] in TITLES else ws
        return 1 <= len(rest) <= 2 and all(
            w.isalpha() and w not in used for w in rest)

    def names_only(t: str) -> bool:
        group = members[group_of(t)]
        families = {ws[1] for ws in map(words, group) if len(ws) == 2 and ws[0] in TITLES}
        if len(group) < 2:
            return False
        if all(a_name(n, families) for n in group):
            return True
        # people named in full: a group with a title among it ("mr_fisher"), or of a
        # type that says so ("person"), whose every member reads as a name
        titled = any(words(n)[:1] and words(n)[0] in TITLES for n in group)
        said = any(w in PEOPLE for a in lineage(domain, t) for w in words(a))
        return (titled or said) and all(full_name(n) for n in group)
    return frozenset(t for t in set(kg.entities.values()) if names_only(t))


#: what ends a sentence or opens a speaker's words: a capital after it proves no name
_OPENS = frozenset('.!?:;"\u201c(')


def written_names(text: str, kg: KnowledgeGraph) -> dict[str, str]:
    """Return the one-word entities ``text`` writes as names, as it writes them.

    "Sarah's back in from the yard with Bella.": ``bella`` is said "Bella", not "the
    bella", whatever its type's other members are called. A name counts when its word is
    capitalised somewhere other than at the start of a sentence or of someone's words
    (so "Milk's out of the fridge." makes no name of ``milk``).
    """
    out: dict[str, str] = {}
    if not text:
        return out
    for name in kg.entities:
        if not name.isalpha():
            continue
        word = name[:1].upper() + name[1:].lower()
        for m in re.finditer(rf'(?<![\w\'\u2019-]){re.escape(word)}(?![\w-])', text):
            before = text[:m.start()].rstrip()
            if before and before[-1] not in _OPENS:
                out[name] = word
                break
    return out


class Phrasing:
    """Sentences for the facts of one domain (and the names of one KG)."""

    def __init__(self, domain: DomainSchema | None, kg: KnowledgeGraph,
                 book: Phrasebook | None = None, *, legacy: bool = False,
                 names: dict[str, str] | None = None) -> None:
        self.domain = domain
        self.kg = kg
        self.names = names or {}  # entities written as an utterance wrote them
        self.proper = name_types(domain, kg)
        self.legacy = legacy or domain is None
        self.book = book if book is not None or self.legacy else _book(domain)
        self._rules: DomainWords | None = None  # an action's rules, when the book has none
        self._given: frozenset[str] | None = None  # given names (:meth:`_given_names`)
        self._family: dict[str, tuple[str, ...]] | None = None  # (:meth:`_family_names`)

    def _lineage(self, t: str) -> tuple[str, ...]:
        """Return ``t`` and its supertypes below ``object`` (just ``t`` without a domain)."""
        return lineage(self.domain, t)

    # -- entities ---------------------------------------------------------------------
    def entity(self, name: str) -> str:
        """Return how an entity is said: "Jerry", "the living room table", "room 203"."""
        if name in self.names:
            return self.names[name]
        if not self.legacy:
            return self._name(name)
        ws = words(name) or [name]
        if self.kg.entities.get(name) in self.proper:
            return ws[0].capitalize()
        owner = ws[0] if len(ws) > 1 else None
        if owner is not None and self.kg.entities.get(owner) in self.proper:
            # anna_bedroom_tv → "Anna's bedroom tv"
            return f'{possessive(owner.capitalize())} {" ".join(ws[1:])}'
        return ' '.join(ws) if ws[0] == 'the' else f'the {" ".join(ws)}'

    def _name(self, name: str) -> str:
        """Return a name as people write it (see the module docstring)."""
        ws = [w for w in re.split(r'[_\-\s]+', name) if w] or [name]
        low = [w.lower() for w in ws]
        if self.kg.entities.get(name) in self.proper:
            return ' '.join(w.capitalize() for w in low)
        if len(low) == 1 and len(low[0]) <= 2 and low[0].isalpha():  # blocks "a", "d"
            return low[0].upper()
        owner = low[0] if len(low) > 1 else None
        if owner is not None and (self.kg.entities.get(owner) in self.proper
                                  or owner in self._given_names()
                                  or self.names.get(owner) == owner.capitalize()):
            # "Ada's armbands" (ada_armbands) whether Ada is ``ada`` or ``ada_okoye``
            return f'{possessive(owner.capitalize())} {" ".join(low[1:])}'
        last = low[-1] if len(low) > 1 else None
        if last is not None and self.kg.entities.get(last) in self.proper:  # lab_coat_lena
            return f'{possessive(last.capitalize())} {" ".join(low[:-1])}'
        if low[0] == 'the':
            return ' '.join(low)
        family = self._family_names().get(owner or '', ())
        if len(family) == 1:  # "Mr Baxter's umbrella" (baxter_umbrella)
            return f'{possessive(self._name(family[0]))} {" ".join(low[1:])}'
        if family:  # a family's thing: "the Okoye gas bottle"
            low = [low[0].capitalize(), *low[1:]]
        low = self._type_last(name, low)
        if len(low) > 1 and len(low[-1]) == 1 and low[-1].isalpha():  # rack_a: "rack A"
            return ' '.join([*low[:-1], low[-1].upper()])
        numbered = any(c.isdigit() for c in low[-1])
        return ' '.join(low) if numbered else f'the {" ".join(low)}'

    def _given_names(self) -> frozenset[str]:
        """Return the given names of people named with their family's name, each of one.

        ``ada_okoye`` gives "ada" when no other such person is an Ada (a title is no
        given name: ``mr_okoye``).
        """
        if self._given is None:
            firsts = [words(n)[0] for n, t in self.kg.entities.items()
                      if t in self.proper and len(words(n)) == 2
                      and words(n)[0] not in TITLES]
            self._given = frozenset(w for w in firsts if firsts.count(w) == 1)
        return self._given

    def _family_names(self) -> dict[str, tuple[str, ...]]:
        """Return the family names of people named in full, each with its people.

        ``ada_okoye``, ``mr_okoye``: a thing whose name leads with a family's name is that
        one person's ("Mr Baxter's umbrella") or, of a family of several, the family's
        ("the Okoye gas bottle", not "the okoye gas bottle"); a name that is also a word of
        a type or predicate is no family's.
        """
        if self._family is None:
            used = {w for t in set(self.kg.entities.values()) for w in words(t)}
            used |= {w for p in (self.domain.predicates if self.domain else ()) for w in words(p)}
            out: dict[str, list[str]] = {}
            for n, t in sorted(self.kg.entities.items()):
                ws = words(n)
                if t in self.proper and len(ws) == 2 and ws[-1].isalpha() and ws[-1] not in used:
                    out.setdefault(ws[-1], []).append(n)
            self._family = {k: tuple(v) for k, v in out.items()}
        return self._family

    def _type_last(self, name: str, low: list[str]) -> list[str]:
        """Return a name that begins with its type said with the type last.

        ``door_lab_101`` (a door) → lab 101 door, ``book_dune`` → dune book; not when the
        rest is one label (``rack_a``, ``freezer_minus80``) or numbered inside.
        """
        kind = words(self.kg.entities.get(name) or '')
        k = len(kind)
        rest = low[k:]
        if not kind or low[:k] != kind or not rest or (len(rest) == 1 and (
                len(rest[0]) == 1 or any(c.isdigit() for c in rest[0]))):
            return low
        if any(any(c.isdigit() for c in w) for w in rest[:-1]):
            return low
        return [*rest, *kind]

    def plural(self, name: str) -> bool:
        """Tell whether a name is said as a plural: "the alcohol swabs" are."""
        ws = words(name)
        return bool(ws) and self.kg.entities.get(name) not in self.proper \
            and en.plural_noun(ws[-1])

    def say(self, fact: Fact, form: Form = Form.NOW) -> str:
        """Return the fact in ``form`` as one sentence: "Anna is no longer in the kitchen."."""
        if fact.numeric:
            return self.value(fact, be=verb_phrase('be', form))
        if self.book is None or self.book.get(fact.predicate) is None:
            return self._legacy_sentence(fact, past=form is Form.PAST)
        said = [self.entity(a) for a in fact.args]
        said = [said[0], *(_lower_article(w) for w in said[1:])] if said else said
        return self.book[fact.predicate].render(
            said, form, [self.plural(a) for a in fact.args])

    # -- predicates (legacy) --------------------------------------------------------------
    def _type_words(self, fact: Fact, index: int) -> set[str]:
        """Return the words of the types (and supertypes) of argument ``index``.

        Both the types the predicate accepts there and the argument's own count.
        """
        types = [self.kg.entities.get(fact.args[index], '')]
        p = self.domain.predicates.get(fact.predicate) if self.domain else None
        if p is not None and index < p.arity:
            types += p.params[index][1]
        return {w for t in filter(None, types) for a in self._lineage(t) for w in words(a)}

    def relation(self, fact: Fact, *, past: bool = False) -> str:
        """Return the fact without its subject: "is in the kitchen", "has the fridge"."""
        be = 'was' if past else 'is'
        toks = words(fact.predicate)
        args = fact.args
        first = self._type_words(fact, 0)
        while len(toks) > 1 and toks[0] in first:  # person_in_room: drop "person"
            toks = toks[1:]
        if len(args) == 1:
            if 'is' in toks[:-1]:
                toks = toks[len(toks) - toks[::-1].index('is'):]
            elif len(toks) > 1 and _VERB_3RD.match(toks[0]) and toks[0] not in PREPOSITIONS:
                head = 'had' if past and toks[0] == 'has' else toks[0]
                return ' '.join([head, *toks[1:]])  # has_charger: "has charger"
            elif len(toks) > 1 and toks[0] not in PREPOSITIONS:
                # faucet_on(sink): the relation is about a part: "'s faucet is on"
                said = self.entity(fact.args[0])
                return f"{possessive(said)[len(said):]} {' '.join(toks[:-1])} {be} {toks[-1]}"
            return f'{be} ' + ' '.join(toks)
        if len(args) == 2:
            second = self._type_words(fact, 1)
            while len(toks) > 1 and toks[-1] in second:  # placed_at_table: drop "table"
                toks = toks[:-1]
            inner = [i for i, w in enumerate(toks) if w in second and 0 < i < len(toks) - 1]
            if inner:  # in_person_hand: "in Jerry's hand"
                i = inner[0]
                tail = [w for w in toks[i + 1:] if w not in second]
                phrase = ' '.join([*toks[:i], possessive(self.entity(args[1])), *tail])
            else:
                phrase = ' '.join([*toks, self.entity(args[1])])
            head, _, rest = phrase.partition(' ')
            if head in ('is', 'are', 'was', 'were'):
                return f'{be} {rest}'
            if head not in PREPOSITIONS and _VERB_3RD.match(head):  # "has the fridge"
                return f'had {rest}' if past and head == 'has' else phrase
            return f'{be} {phrase}'
        rest = ', '.join(self.entity(a) for a in args[1:])
        return f'{be} {" ".join(toks)}: {rest}'

    def value(self, fact: Fact, *, past: bool = False, be: str | None = None) -> str:
        """Return a numeric fact as a sentence, its number kept.

        "The robot1's battery level is 73.5." (the words repeating the argument's type
        dropped, as for predicates), "The distance for the kitchen and the lab is 10.",
        "The total load is 5.".
        """
        be = be or ('was' if past else 'is')
        toks = words(fact.predicate) or [fact.predicate]
        if len(fact.args) == 1:
            first = self._type_words(fact, 0)
            while len(toks) > 1 and toks[0] in first:  # robot_speed: "speed"
                toks = toks[1:]
            text = f'{possessive(self.entity(fact.args[0]))} {" ".join(toks)}'
        elif fact.args:
            said = [self.entity(a) for a in fact.args]
            text = f'the {" ".join(toks)} for {", ".join(said[:-1])} and {said[-1]}'
        else:
            text = f'the {" ".join(toks)}'
        return f'{text[0].upper()}{text[1:]} {be} {fact.value}.'

    def sentence(self, fact: Fact, *, past: bool = False) -> str:
        """Return the fact as one sentence: "Jerry is in the kitchen."."""
        if not self.legacy:
            return self.say(fact, Form.PAST if past else Form.NOW)
        return self._legacy_sentence(fact, past=past)

    def _legacy_sentence(self, fact: Fact, *, past: bool = False) -> str:
        if fact.numeric:
            return self.value(fact, past=past)
        if not fact.args:
            return f'{" ".join(words(fact.predicate)).capitalize()}.'
        subject = self.entity(fact.args[0])
        relation = self.relation(fact, past=past)
        text = subject + relation if relation.startswith("'") else f'{subject} {relation}'
        return text[0].upper() + text[1:] + '.'

    def sentences(self, facts: Iterable[Fact], *, past: bool = False) -> str:
        """Return facts as sentences, one after another."""
        return ' '.join(self.sentence(f, past=past) for f in facts)

    def change(self, update: Update) -> str:
        """Return an applied update in words: what holds now, then what no longer does."""
        if not self.legacy:  # a number replaced by another is said once, as it is now
            valued = {(f.predicate, f.args) for f in update.add if f.numeric}
            gone = [f for f in sorted(update.remove)
                    if not (f.numeric and (f.predicate, f.args) in valued)]
            return ' '.join([*(self.say(f) for f in sorted(update.add)),
                             *(self.say(f, Form.NO_LONGER) for f in gone)])
        now = self.sentences(sorted(update.add))
        gone = '; '.join(_lower_article(self.sentence(f).rstrip('.'))
                         for f in sorted(update.remove))
        return ' '.join(p for p in (now, f'No longer: {gone}.' if gone else '') if p)

    # -- plans ------------------------------------------------------------------------
    def step(self, step: str) -> str:
        """Return a plan step as a sentence: "Pick up the red pen from the table.".

        By its action's template (:mod:`.action_templates`: the phrasebook's, the rules'
        without one); the doer is named when the KG holds more than one thing of its type
        ("Robot 1 moves from ..."). A step of an unknown action, or with another number of
        arguments, is returned as it is.
        """
        got = read_step(step)
        decl = self.domain.actions.get(got[0]) if got and self.domain is not None else None
        if got is None or decl is None or self.domain is None:
            return step
        name, args = got
        book = self.book if self.book is not None else _book(self.domain)
        t = book.action(name)
        if t is None:  # a phrasebook made without actions
            if self._rules is None:
                self._rules = DomainWords(self.domain)
            t = rule_action(name, decl.params, self._rules)
        if t.arity != len(args):
            return step
        said = [_lower_article(self.entity(a)) for a in args]
        many = t.doer is not None and sum(
            1 for e in self.kg.entities.values()
            if self.domain.is_subtype(e, decl.params[t.doer][1])) > 1
        return t.render(said, said[t.doer] if many and t.doer is not None else None)

    def steps(self, steps: Iterable[str]) -> list[str]:
        """Return a plan's steps as sentences, one each."""
        return [self.step(s) for s in steps]


_BOOKS: dict[int, Phrasebook] = {}


def _book(domain: DomainSchema) -> Phrasebook:
    """Return the domain's phrasebook (kept per domain object; made again when it changed)."""
    got = _BOOKS.get(id(domain))
    if got is None or got is not getattr(domain, '_phrasebook', None) \
            or got.domain_key != _key(domain):
        got = _BOOKS[id(domain)] = phrasebook_for(domain, phrasebook_dir())
        domain.__dict__['_phrasebook'] = got
    return got


_KEYS: dict[tuple[str, str, int | None], str] = {}


def _key(domain: DomainSchema) -> str:
    """Return the key of the domain's phrasebook as its text and overrides are now.

    The overrides file is read again only when it changed (its modification time): a
    ``Phrasing`` is made per answer and question.
    """
    over = overrides_path(domain.path) if domain.path else None
    try:
        stamp = over.stat().st_mtime_ns if over is not None else None
    except OSError:
        stamp = None
    at = (domain.text or domain.name, str(over), stamp)  # a string's hash is kept
    got = _KEYS.get(at)
    if got is None:
        text = over.read_text() if stamp is not None and over is not None else ''
        got = _KEYS[at] = domain_key(domain, text)
    return got


def adopt(domain: DomainSchema, data: str) -> bool:
    """Say ``domain``'s facts by the phrasebook a store keeps (its meta), if it still fits.

    It fits when it was made for this domain text and these overrides; otherwise (the
    domain or its phrases file changed since) the phrasebook is made again as usual.
    """
    try:
        book = Phrasebook.from_json(json.loads(data))
    except (ValueError, TypeError):
        return False
    if not book.fits(domain, _key(domain)):
        book = upgrade(book, domain)  # kept before actions had templates: add them
        if book is None:
            return False
    book = vetted(book, domain)
    _BOOKS[id(domain)] = book
    domain.__dict__['_phrasebook'] = book
    return True


def phrasebook_dir() -> Path | None:
    """Return where phrasebooks are kept (``L3MP_PHRASEBOOKS``: another directory, or off)."""
    env = os.environ.get('L3MP_PHRASEBOOKS', '')
    if env == 'off':
        return None
    return Path(env) if env else Path(os.environ.get('XDG_CACHE_HOME') or Path.home() / '.cache'
                                      ) / 'l3mp_ros' / 'phrasebooks'
