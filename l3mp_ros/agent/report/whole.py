# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Whole readings: a reading that leaves out a thing the report names is not the whole change.

"Tomas walked to the nurse station and left the tablet he was carrying on the desk there"
read as Tomas's move alone is true, and a truthful speaker says yes to it: half a report
written. So before a reading is offered or written, each thing the report names that no
fact of the reading names (:func:`left_out`: not the one who acted in a part that changed
something, not an owner named only for what follows, not a place that only describes
another) is looked at. The domain says what could have changed about it
(:func:`possible`): a fact of a predicate a report may change naming it (one some action
changes, or that a functional or exclusive rule governs: where a person is, the chair they
sit on) and, in its other slots,
only things the report or the reading names, that does not hold after the reading and that
verifies with it (in place of the reading's own place for the same thing where the two
cannot both hold). When there are such facts, the speaker is asked about the thing, not
about the reading: "And the tablet: which is right? 1. The tablet is on the nurse station
desk. 2. The tablet is still in Tomas's hands. Or none of them?". Each option is a whole
reading: the reading with one of those facts, or the reading with what it leaves as it was
said out loud (:attr:`~..core.asking.Candidate.kept`: facts that still hold, facts that
still do not). No option is the reading alone, so a "yes" never writes half a report. No
model call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import TYPE_CHECKING

from ...retrieval.mention import DETERMINERS, word_tokens
from ...retrieval.mention_lists import owners_only, possessors
from ...text import STOPWORDS, WORD_RE, folded, name_words, same_root, word_root, words
from ...world.complete import complete, forced_removals
from ...world.english import PREPOSITIONS
from ...world.kg import Fact, KnowledgeGraph, Update
from ...world.phrasing import PEOPLE, Phrasing, lineage, written_names
from ...world.templates import Form
from ..core.asking import NOTHING_READ, SMALLER, Candidate
from ..core.clauses import goes_somewhere
from ..core.destinations import is_place, place_predicates, proper_things
from .context import changing
from .other_words import fits, holders
from .scope import STATIVE, state_words
from .subjects import sentence_start

if TYPE_CHECKING:
    from ...retrieval.mention import Mention
    from ...world.model import WorldModel
    from .reading import Reading

__all__ = ['LEFT_OUT', 'MAX_FACTS', 'Possible', 'guessed', 'in_history', 'left_out',
           'named_by_description', 'nearby', 'possible', 'said_order', 'said_states',
           'states_for', 'states_of', 'whole_readings']

LEFT_OUT = 'left out'  # a Candidate's source (+ the reading's index): made whole
MAX_FACTS = 3  # facts offered about one thing (the option that keeps it as it was is a 4th)


@dataclass(frozen=True)
class Possible:
    """One thing a reading leaves out, and what the reading could say of it."""

    entity: str
    #: per fact that verifies: (the reading with it, what it says of the thing: the fact
    #: and what it ends, the reading's facts it stands in place of, what it keeps as it
    #: was out loud: the other things still on a source, :func:`lying_on`)
    readings: tuple[tuple[Update, Update, frozenset[Fact], Update], ...]
    #: what holds of the thing after the reading that those facts would end (said "still")
    still: frozenset[Fact]
    #: those facts that would end nothing (said "not")
    never: frozenset[Fact]


def left_out(r: Reading, update: Update) -> list[str]:
    """Return the things the report names that ``update`` leaves out, in the order said.

    Not the one who acted in a part that changed something ("Lena capped the tube":
    Lena; the first person a part names: "In the kitchen, Ruth cleaned ..."), unless
    they are the subject of a part read as no change too ("Jonas woke up and switched on
    the light" read as the light alone); not an owner named for what
    follows ("Alice's office"); not a place that describes another mention ("the tube on
    the sink bench"); not company already where the reading puts another thing
    (:func:`company`). Then the things a part read as no change names, even when the
    reading names them ("Marta pumped up the tyres on Lisa's bike, took it off the stand
    ...": the bike, whose tyres the reading leaves out). Then a thing a possessive
    standing alone names (:func:`owned_alike`: "... with mine"), and a thing a clause says
    is in a state the reading says nothing of (:func:`in_a_state`: "Max's blanket is clean").
    """
    named = update.entities()
    owners = owners_only(r.req.kg, r.req.text, r.req.mentions)
    acted = ({a for a in r.actors if a} | first_people(r)) - set(r.idle) \
        - acted_on_nothing(r, update)
    out: list[str] = []
    for m in sorted(r.req.mentions, key=lambda m: m.start):
        e = m.resolved
        if not e or describes(r, m, update) or m.part is not None \
                or (e in named and states_only(r, update, e)) \
                or e in owners or e in acted or e in out or in_history(r, m) \
                or company(r, m, [e], update):
            continue  # (a part: named inside another's name, "the toy case key")
        out.append(e)
    for m in sorted(r.req.mentions, key=lambda m: m.start):  # "popped along to wardrobe"
        if m.resolved or m.describes is not None or named & set(m.candidates) \
                or named_by_description(r, m, named) or company(r, m, m.candidates, update):
            continue
        out += [e for e in m.candidates if e not in out and e not in owners and e not in acted]
    out += [e for e in skipped_things(r) if e not in out and e not in owners]
    out += [e for e in owned_alike(r) if e not in out and e not in named]
    # the clause read its "'s" as "is" ("the bowl's spotless"), never as an owner's
    out += [e for e in in_a_state(r, update) if e not in out]
    said = said_states(r, update)
    return out + [e for e in said if e not in out and e not in owners]


def asks_refused(r: Reading) -> bool:
    """Tell whether the reading leaves out a thing a part passed over as refused names.

    A refused part is passed over only to be asked about (``pass_refused``): "... so I've
    given the one by the sink a wash" names nothing the question could offer, and a
    truthful "yes" to the other parts' reading would write half the report.
    """
    left = set(left_out(r, r.req.kg.diff_to(r.work)))
    return any(e in left for part, _, _ in r.refused for m in r.req.mentions_in(part)
               for e in ([m.resolved] if m.resolved else m.candidates))


def tied(update: Update) -> set[str]:
    """Return the things a fact of ``update`` ties to another ("signed" alone ties none)."""
    return {a for f in update.add | update.remove if len(f.args) > 1 for a in f.args}


#: words that point back at a thing named before: "signed the form and given it back"
THING_PRONOUNS = frozenset('it them'.split())
#: words after such a pronoun that say where the thing went ("given it back to him", "left
#: it on the bench"); "left it dirty" says a state, not a place
GONE_WORDS = frozenset('back on in into onto to up down off out over through away round '
                       'across with at by under inside outside beside behind along'.split())


def pointed_back(r: Reading, entity: str) -> bool:
    """Tell whether a later "it" or "them", the object of a verb, points back at ``entity``.

    The nearest thing named before the pronoun that is no person: "I've signed Mr Lowe's
    form and given it back to him" acts on the form again, so the form's being signed is
    not all the report says of it; "capped the plasmid tube that was left open" is, and so
    are "wore the beige hoodie and now it needs washing" ("it" the subject of a state: the
    word before it a little word, a comma or a full stop between, or "it's") and "used the
    cereal bowl and left it dirty" (no word of where it went after it: :data:`GONE_WORDS`).
    """
    kg = r.req.kg
    people = Phrasing(r.req.world.domain, kg).proper
    text = folded(r.req.text)
    tokens = list(WORD_RE.finditer(text))
    things = sorted((m for m in r.req.mentions if m.resolved and m.part is None
                     and kg.entities.get(m.resolved) not in people), key=lambda m: m.end)
    for k, t in enumerate(tokens):
        if t.group() not in THING_PRONOUNS or k == 0:
            continue
        prev = tokens[k - 1]
        if prev.group().split("'")[0] in STOPWORDS - {'with'} \
                or any(c in ',.;:!?' for c in text[prev.end():t.start()]):
            continue  # a subject ("now it needs washing"), not what a verb acts on
        if k + 1 >= len(tokens) or tokens[k + 1].group() not in GONE_WORDS:
            continue  # "left it dirty": a state, not where it went
        before = [m for m in things if m.end <= k]
        if before and before[-1].resolved == entity:
            return True
    return False


def states_only(r: Reading, update: Update, entity: str) -> bool:
    """Tell whether ``update`` says all the report says of ``entity`` but for its states.

    It names the thing, in a fact tying it to another or in one of its states the report
    does not act on again (:func:`pointed_back`).
    """
    named = entity in update.entities()
    return entity in tied(update) or (named and not pointed_back(r, entity))


def company(r: Reading, m: Mention, things: Sequence[str], update: Update) -> bool:
    """Tell whether ``m`` names company already where ``update`` puts another thing.

    "set three's back in the nearside locker with the other two sets": "with" stands
    between ``m`` and the mention before it (or before a list ``m`` ends: "with the
    phone and the blue pen"), and each of ``things`` (what ``m`` may mean) already is
    where an added fact puts something else, a place named before ``m`` in its sentence:
    the sets are there, not moved. "Harold's gone out to the car park with his bag. He
    left the key inside locker 11": the bag in locker 11 is no company of the key.
    """
    said = [w.lower() for w in words(r.req.text)]
    if not things or not _led_by_with(said, r.req.mentions, m.start):
        return False
    places = r.req.world.constraints.place_predicates(exactly=False)
    kg = r.req.kg
    first = sentence_start(r.req.text, m.start)
    before = {c for o in r.req.mentions if first <= o.start and o.end <= m.start
              for c in ([o.resolved] if o.resolved else o.candidates)}
    c = r.req.world.constraints
    put = {c.place_of(f) for f in update.add if f.predicate in places and len(f.args) == 2
           and c.place_of(f) in before}
    return all(any(f.predicate in places and len(f.args) == 2 and c.thing_of(f) == e
                   and c.place_of(f) in put and f not in update.remove
                   for f in kg.facts_of(e)) for e in things)


#: words that join the things of a list: "with Helen's phone and the blue pen"
LIST_WORDS = frozenset('and the a an his her their its my our your both'.split())


def _led_by_with(said: list[str], mentions: Sequence[Mention], start: int) -> bool:
    """Tell whether "with" leads the mention at word ``start`` or the list it ends."""
    ends = sorted({o.end for o in mentions if o.end <= start}, reverse=True)
    for end in [*ends, 0]:
        if end > start:
            continue  # a mention inside the one just passed
        between = said[end:start]
        if 'with' in between:
            return True
        if not set(between) <= LIST_WORDS:
            return False
        start = min((o.start for o in mentions if o.end == end), default=0)
    return False


#: words that may follow a possessive standing for a thing: "with mine, and ...", "hers too"
AFTER_OWNER = frozenset('and too as well then but or so'.split())


def owned_alike(r: Reading) -> list[str]:
    """Return the things a possessive standing alone names, in the order said.

    "left Jo's mug on the mess table with mine" (read as "with Brenda's"): the thing
    named last before it with an owner's name (``jo_mug``) says the kind, and the thing
    of that name with this owner's (``brenda_mug``) is the one meant.
    """
    kg = r.req.kg
    people = proper_things(r.req.world, kg)
    text = folded(r.req.text)
    spans = [m.span() for m in WORD_RE.finditer(text)]
    out: list[str] = []
    for m in sorted(r.req.mentions, key=lambda m: m.start):
        if m.resolved not in people or not 0 < m.end <= len(spans):
            continue
        a, b = spans[m.end - 1]
        rest = text[b:].lstrip()
        if not text[a:b].endswith("'s") or rest and rest[0].isalnum() \
                and rest.split()[0] not in AFTER_OWNER:
            continue  # "Brenda's mug": the possessive has its noun
        owner = name_words(m.resolved)
        for o in sorted(r.req.mentions, key=lambda o: -o.end):
            if o.end > m.start or not o.resolved or o.resolved in people:
                continue
            said = name_words(o.resolved)
            other = next((p for p in people if name_words(p) == said[:len(name_words(p))]),
                         None)
            if other is None:
                continue
            alike = '_'.join(owner + said[len(name_words(other)):])
            if alike in kg.entities and alike not in out:
                out.append(alike)
            break
    return out


#: who may lead a clause that says what had happened to a thing: "the key card she had ..."
CLAUSE_SUBJECTS = frozenset('i you he she we they'.split())
#: words after "had" that make it a verb of having, not a past perfect: "the scanner he had
#: back", "the coat she had on"
HAVING = frozenset('to back with on in out up down off there here the a an his her their its '
                   'my your our no some'.split())


def in_history(r: Reading, m: Mention) -> bool:
    """Tell whether ``m`` is named in a clause of what had happened to a thing before.

    "passed Lena the key card she had picked up from her desk": the desk is where the card
    was before the report, not a thing the report changes. The clause follows the thing
    it describes at once, led by its subject (a pronoun or a mention) and "had" with a
    participle; no other mention stands between "had" and ``m``.
    """
    said = [w.lower() for w in words(r.req.text)]
    spans = sorted(((o.start, o.end) for o in r.req.mentions if o.end <= m.start),
                   key=lambda s: s[1])
    last = spans[-1][1] if spans else 0
    for j in range(m.start - 1, -1, -1):
        if said[j] == 'had':
            break
        if j < last:
            return False  # another mention between "had" and m: "had left it ... into X"
    else:
        return False
    if j + 1 >= len(said) or said[j + 1] in HAVING or j == 0:
        return False
    if said[j - 1] in CLAUSE_SUBJECTS:
        lead = j - 1
    else:
        lead = next((a for a, b in spans if b == j), -1)  # "the tube Mia had left ..."
    return lead > 0 and any(b == lead for _, b in spans if b < j)


def named_by_description(r: Reading, m: Mention, named: set[str] | frozenset[str]) -> bool:
    """Tell whether words describing ``m`` name a thing of its kind the reading names.

    "the charging cradle at the tills": "charging cradle" may mean two other cradles,
    while "the tills" named the till cradle the reading puts the scanner in: one thing.
    """
    kg = r.req.kg
    kinds = {kg.entities.get(c) for c in m.candidates} - {None}
    return bool(kinds) and any(o.describes == m.start and o.resolved in named
                               and kg.entities.get(o.resolved) in kinds
                               for o in r.req.mentions)


#: words that attach a place or a support to a thing ("the yard on the lead", "in the box")
PLACING = frozenset('on in inside at'.split())


def describes(r: Reading, m: Mention, update: Update) -> bool:
    """Tell whether ``m`` only says which thing another mention is: "the tube on the bench".

    A mention attached to another (:attr:`~...retrieval.mention.Mention.describes`) whose
    thing a fact ties to that one, or both to a third ("Ben at the tills": Ben and the till
    cradle on the shop floor), before the report or after ``update``; "out to the yard on
    the red slip lead" ties nothing to the lead yet: the lead is news, not a description.
    """
    if m.describes is None:
        return False
    head = next((o for o in r.req.mentions if o.start == m.describes), None)
    other = head.resolved if head is not None else None
    if other is None or not m.resolved \
            or not {w.lower() for w in words(r.req.text)[head.end:m.start]} & PLACING:
        return True  # "for Anna", "of the shelf": said of it, not where it is
    kg = r.req.kg
    near = joined_to(kg, m.resolved, update)  # "Ben at the tills": both on the shop floor
    return other in near or bool(near & joined_to(kg, other, update))


def joined_to(kg: KnowledgeGraph, entity: str, update: Update) -> set[str]:
    """Return what a fact joins to ``entity``, before the report or after ``update``."""
    facts = {f for f in kg.facts_of(entity) if f not in update.remove} | {
        f for f in update.add if entity in f.args}
    return {a for f in facts for a in f.args if a != entity}


#: words before a thing that something left ("out of the make-up chair", "off the rack")
SOURCE = (('from',), ('off',), ('out', 'of'), ('off', 'of'))


def sources(r: Reading) -> set[str]:
    """Return the things the report says something left: "is out of the make-up chair".

    A word of leaving (:data:`SOURCE`) among the words between the mention before and
    this one (at most five back).
    """
    said = words(r.req.text)
    out: set[str] = set()
    ends = sorted(m.end for m in r.req.mentions)
    for m in r.req.mentions:
        start = max([e for e in ends if e <= m.start] + [m.start - 5, 0])
        between = said[start:m.start]
        if any(tuple(between[k:k + len(s)]) == s for s in SOURCE
               for k in range(len(between) - len(s) + 1)):
            out.update(m.candidates)
    return out


def unnamed_from(r: Reading) -> dict[str, int]:
    """Return the things an unnamed thing is said to come off, with its count (0: not said).

    "the two empties off the rack": a determiner or a count, words that name nothing the
    graph knows, then a word of leaving (:data:`SOURCE`) right before the mention. Not
    "came in from the yard" (no determiner before the words) nor "took the book off the
    shelf" (the book is a mention: what left the shelf is named).
    """
    said = words(r.req.text)
    ends = sorted({m.end for m in r.req.mentions})
    out: dict[str, int] = {}
    for m in r.req.mentions:
        if not m.resolved or m.part is not None or any(
                o.start <= m.start and m.end <= o.end and o.end - o.start > m.end - m.start
                for o in r.req.mentions):
            continue  # named inside a longer mention ("Anna's bedroom" of its table)
        between = said[max([e for e in ends if e <= m.start], default=0):m.start]
        for s in SOURCE:
            k = next((k for k in range(len(between) - len(s), -1, -1)
                      if tuple(between[k:k + len(s)]) == s
                      and set(between[k + len(s):]) <= DETERMINERS), None)
            if k is None:
                continue
            phrase = between[:k]
            lead = [j for j, w in enumerate(phrase) if w in DETERMINERS or w.isdigit()
                    or w == 'both']
            content = phrase[lead[-1] + 1:] if lead else []
            if content and not any(w in STOPWORDS or w.isdigit() for w in content):
                counts = [int(w) for w in phrase[lead[0]:] if w.isdigit()]
                out[m.resolved] = counts[0] if counts else (2 if 'both' in phrase else 0)
            break
    return out


def lying_on(world: WorldModel, kg: KnowledgeGraph, update: Update, source: str,
             near: Sequence[str], count: int = 0, text: str | None = None) -> Possible | None:
    """Return what ``update`` could say of the things on ``source`` that it does not.

    "the two empties off the rack are on the kit trolley" read as the trolley's move alone:
    nothing about the rack itself changes, and the things it holds (where an action puts
    them) may have gone to a thing the report names. Only when it holds at most
    :data:`MAX_FACTS` such things the reading names none of; ``count`` of them (0: all of
    them, then each alone), each option saying the others are still there.
    """
    domain = world.domain
    places = {p for p in world.constraints.place_predicates(exactly=False)
              & domain.fluent_predicates() & changing(world, text)
              if p in domain.predicates and domain.predicates[p].arity == 2}
    c = world.constraints
    held = {f for f in kg.facts_of(source) if f.predicate in places and len(f.args) == 2
            and c.place_of(f) == source and f not in update.remove}
    things = sorted({c.thing_of(f) for f in held} - update.entities())
    if not things or len(things) > MAX_FACTS or count > len(things):
        return None
    sizes = [count] if count else sorted({len(things), 1}, reverse=True)
    groups = [g for n in sizes for g in combinations(things, n)]
    where = {e: k for k, e in enumerate(near)}
    at = where.get(source, 0)
    dests = sorted((e for e in dict.fromkeys([*near, *sorted(update.entities())])
                    if e != source and e not in things and e in kg.entities),
                   key=lambda e: (where.get(e, len(near)) < at,
                                  abs(where.get(e, len(near)) - at)))
    readings: list[tuple[Update, Update, frozenset[Fact], Update]] = []
    for d in dests:
        for g in groups:
            for pred in sorted(places):
                if not domain.accepts(pred, c.place_position(pred), kg.entities[d]) or not all(
                        domain.accepts(pred, c.thing_position(pred), kg.entities[t]) for t in g):
                    continue
                facts = {c.located(pred, t, d) for t in g}
                done = complete(kg, Update.of(update.remove, update.add | facts),
                                world.constraints, domain).update
                if facts <= done.add and not world.verifier.check(kg, done):
                    ended = {f for f in done.remove if f.args and c.thing_of(f) in g}
                    kept = Update.of([], {f for f in held if c.thing_of(f) not in g})
                    readings.append((done, Update.of(ended, facts), frozenset(), kept))
                    break
            if len(readings) >= MAX_FACTS:
                break
        if len(readings) >= MAX_FACTS:
            break
    if not readings:
        return None
    return Possible(source, tuple(readings), frozenset(f for f in held
                                                       if c.thing_of(f) in things), frozenset())


def offered(r: Reading, update: Update, entity: str, near: Sequence[str],
            states: dict[str, frozenset[str] | None], left: set[str]) -> Possible | None:
    """Return what ``update`` could say of ``entity``, or of the things on it.

    :func:`possible`; failing that, for a thing named as a verb's object
    (:func:`verbs_object`), where it may have gone though no action moves its kind; failing
    that, when an unnamed thing is said to have come off it (:func:`unnamed_from`), what it
    holds (:func:`lying_on`).
    """
    world, kg, called = r.req.world, r.req.kg, called_by_name(r)

    def said_of(last: bool, called: frozenset[str]) -> Possible | None:
        return possible(world, kg, update, entity, near, states_for(states, entity), last,
                        entity in left, in_placing(r, entity), r.req.text,
                        states_only(r, update, entity), entity in in_a_state(r, update),
                        called)

    got = said_of(in_last(r, entity), called)
    if got is None and entity in verbs_object(r):  # nothing else could be said of it
        got = said_of(True, called | {entity})
    if got is None and entity in left:
        taken = unnamed_from(r)
        if entity in taken:
            got = lying_on(world, kg, update, entity, near, taken[entity], r.req.text)
    return got


def verbs_object(r: Reading) -> frozenset[str]:
    """Return the things the report names as a verb's object ("rolled the mixed pallet in").

    A thing right after a word that is no preposition, no stopword, no other name and not
    its sentence's first, determiners and owners between: something was done to it, so
    where it is may have changed though no action moves its kind (people roll pallets, the
    robot does not), wherever in the report it is named. A place after a preposition
    ("from the yard") or a description is not.
    """
    said = [w.lower() for w in words(r.req.text)]
    named = {k for o in r.req.mentions for k in range(o.start, o.end)}
    out: set[str] = set()
    for m in r.req.mentions:
        if not m.resolved or m.describes is not None:
            continue
        k = m.start - 1
        while k >= 0 and k not in named and (said[k] in DETERMINERS or said[k] in _OWNING):
            k -= 1
        if k < 0 or k in named or said[k] in STOPWORDS or said[k] in PREPOSITIONS \
                or k <= sentence_start(r.req.text, m.start):
            continue
        out.add(m.resolved)
    return frozenset(out)


_OWNING = frozenset('his her their its my our your'.split())  # "took her coat"


def called_by_name(r: Reading) -> frozenset[str]:
    """Return the things the report calls by their own names, capitalised ("brought Meg")."""
    return frozenset(m.resolved for m in r.req.mentions if m.resolved and m.surface[:1].isupper()
                     and '_'.join(m.surface.lower().split()) == m.resolved)


def said_states(r: Reading, update: Update) -> dict[str, frozenset[str]]:
    """Return, per thing the report names, the one-place predicates it says in words.

    A predicate's own words, less those of the types it takes ("tyres" of
    ``tyres_inflated(bike)``), said in the report, and no fact of ``update`` of that
    predicate (which would be what the words say): "Marta pumped up the tyres on Lisa's
    bike, took it off the stand ..." read as the bike's move alone leaves its tyres out.
    Only words that neither name a thing ("out of the dryer" says nothing dry) nor stand
    just before one ("the dirty plate" is the plate, not a change) nor say a state goes on
    ("the cold room door is still open"), and only things the report names for sure.
    """
    domain, kg = r.req.world.domain, r.req.kg
    used = {f.predicate for f in update.add | update.remove}
    # words that name a thing ("the dryer") or describe it just before ("the dirty plate")
    naming = {k for m in r.req.mentions for k in range(max(0, m.start - 1), m.end)}
    said_words = words(r.req.text)
    going_on = {k for j, w in enumerate(said_words) if STATIVE.fullmatch(w)
                for k in (j + 1, j + 2)}  # "still open", "stayed shut"
    said = {word_root(w) for k, w in enumerate(said_words)
            if w not in STOPWORDS and k not in naming and k not in going_on}
    out: dict[str, set[str]] = {}
    for pred in changeable_of(r):
        own = state_words(domain, pred)[:1]
        if pred in used or not own or not any(same_root(own[0], x) for x in said):
            continue
        for e in said_order(r.req.mentions):
            t = kg.entities.get(e)
            if t is not None and domain.accepts(pred, 0, t):
                out.setdefault(e, set()).add(pred)
    for e, preds in shared_states(r, update).items():
        out.setdefault(e, set()).update(preds)
    return {e: frozenset(ps) for e, ps in out.items()}


#: words that open what a subject of two things joined by "and" does or is ("Lily and
#: Ben have both signed in", "the van and the trailer are back")
SUBJECT_NEXT = frozenset('both all each are were have had has is was'.split())


def shared_states(r: Reading, update: Update) -> dict[str, frozenset[str]]:
    """Return, per thing of a subject joined by "and", the states ``update`` gives the other.

    "Lily and Ben Fisher have both signed in" read as Lily signed in (and Ben's fees paid):
    what the clause says of its subject it says of both, so a one-place state the update
    gives one of them and not the other, that the other's type takes, is said of it too.
    Only for two things named side by side with "and" alone between them, the clause's
    verb right after ("both", "are", "have", ...).
    """
    domain, kg = r.req.world.domain, r.req.kg
    said = words(r.req.text)
    named = sorted((m for m in r.req.mentions if m.resolved and m.describes is None),
                   key=lambda m: m.start)
    states: dict[str, set[tuple[str, bool]]] = {}  # (predicate, added)
    for added, facts in ((True, update.add), (False, update.remove)):
        for f in facts:
            if len(f.args) == 1:
                states.setdefault(f.args[0], set()).add((f.predicate, added))
    out: dict[str, set[str]] = {}
    for a, b in zip(named, named[1:], strict=False):
        if a.resolved == b.resolved or said[a.end:b.start] != ['and'] \
                or b.end >= len(said) or said[b.end] not in SUBJECT_NEXT:
            continue
        for one, other in ((a.resolved, b.resolved), (b.resolved, a.resolved)):
            t = kg.entities.get(other)
            told = {pred for pred, _ in states.get(other, set())}
            for pred, added in states.get(one, set()):
                if pred in told or t is None or not domain.accepts(pred, 0, t) \
                        or (Fact(pred, (other,)) in kg) is added:
                    continue  # said of it too, or already so
                out.setdefault(other, set()).add(pred)
    return {e: frozenset(ps) for e, ps in out.items()}


def acted_on_nothing(r: Reading, update: Update) -> set[str]:
    """Return the actors, no people, whose sentences name nothing else ``update`` speaks of.

    "Max has wolfed the lot. Bowl's licked clean.": Max is the subject of the report, but
    what the reading says (the bowl no longer full) is in another sentence; an animal or a
    device that acts on nothing named is the one that changed (fed, flat, broken), so a
    reading without it leaves it out. People act on things ("Marta took it and left"):
    they stay accounted for as before: in a domain with no type that says person, every
    actor does.
    """
    kg, said, domain = r.req.kg, update.entities(), r.req.world.domain
    persons = {t for t in set(kg.entities.values())
               if PEOPLE & {w for a in lineage(domain, t) for w in words(a)}}
    out: set[str] = set()
    for a in ({a for a in r.actors if a} | first_people(r)) if persons else ():
        if kg.entities.get(a) in persons or a in said:
            continue
        own = [m for m in r.req.mentions if m.resolved == a]
        starts = {sentence_start(r.req.text, m.start) for m in own}
        if own and not any(m.resolved in said and m.resolved != a
                           and sentence_start(r.req.text, m.start) in starts
                           for m in r.req.mentions):
            out.add(a)
    return out


def first_people(r: Reading) -> set[str]:
    """Return the first person each part read as a change names: who acted in it.

    "In the kitchen, Ruth cleaned the baking dish": a part that opens with a place has no
    leading subject, yet Ruth acted. Not after a pronoun that can be the part's subject
    ("he's gone up to the deck with Freya", "I've brought Meg out here with me": Freya
    and Meg did not act, and a reading without them has left them out).
    """
    people, kg = Phrasing(r.req.world.domain, r.req.kg).proper, r.req.kg
    out: set[str] = set()
    for part in r.parts:
        if part in r.skipped:
            continue
        said = r.req.mentions_in(part) if r.several else r.req.mentions
        first = next((m for m in sorted(said, key=lambda m: m.start)
                      if m.resolved and kg.entities.get(m.resolved) in people), None)
        if first is not None and not PERSONAL & set(words(part)[:first.start]):
            out.add(first.resolved)
    return out


#: pronouns that stand for the person who acts ("it", "someone" stand for no one named)
PERSONAL = frozenset('i he she we they'.split())


def skipped_things(r: Reading) -> list[str]:
    """Return the things the parts read as no change name (not a describing place)."""
    return list(dict.fromkeys(m.resolved for part in r.skipped for m in r.req.mentions_in(part)
                              if m.resolved and m.describes is None))


def states_of(r: Reading, update: Update) -> dict[str, frozenset[str] | None]:
    """Return the things whose one-place facts count, and which (None: every one).

    Every one for the things a part read as no change names, for an actor no person whose
    sentence names nothing else the update speaks of (:func:`acted_on_nothing`: "Max has
    wolfed the lot"), and for the things a verb leaves in a new state (:func:`resulted`:
    "put the front shutter up"); those the report says in words and ``update`` does not
    (:func:`said_states`) for the rest; every one for a thing a clause says is in a state
    the update says nothing of (:func:`in_a_state`).
    """
    out: dict[str, frozenset[str] | None] = dict(said_states(r, update))
    out.update({e: None for e in (*r.idle, *skipped_things(r), *resulted(r),
                                  *in_a_state(r, update), *acted_on_nothing(r, update)) if e})
    return out


def in_a_state(r: Reading, update: Update) -> list[str]:
    """Return the things a clause says are in a state, of which ``update`` says none.

    "The machine's finished, so Max's blanket is clean" (:attr:`.reading.Reading.stative`)
    read as the blanket's move alone: the blanket's and the machine's one-place states count.
    """
    told = {f.args[0] for f in update.add | update.remove if len(f.args) == 1}
    return [e for e in r.stative if e not in told]


#: words that say the state a verb leaves its object in: "put the shutter up", "left the
#: door open", "got the dryer going"
RESULTS = frozenset('up down open shut closed off on out clean dry wet ready full empty '
                    'going running locked unlocked'.split())
#: words after which a thing is no verb's object ("at the forecourt", "and the van")
NOT_VERBS = frozenset('and or but at in on to into onto from with by of for off out over '
                      'through under near behind beside inside outside about than as'.split())
_CLAUSE_END = re.compile(r'[,.;:!?()\u2013\u2014-]')


def resulted(r: Reading) -> list[str]:
    """Return the things a verb leaves in a state, in the order said.

    "I've put the front shutter up so they can look": a verb, the thing (determiners and
    owners before it), then one word of :data:`RESULTS` that ends the clause (a comma, a
    full stop, "so", "and", the end). Not a person (said by name), not a thing after a
    preposition ("sat at the table up there").
    """
    kg, text = r.req.kg, r.req.text
    tokens = word_tokens(text)
    said = [t[2] for t in tokens]
    people = Phrasing(r.req.world.domain, kg).proper
    out: list[str] = []
    for m in sorted(r.req.mentions, key=lambda m: m.start):
        e, k = m.resolved, m.end
        if not e or m.part is not None or kg.entities.get(e) in people or k >= len(said) \
                or said[k] not in RESULTS:
            continue
        if k + 1 < len(said) and not _CLAUSE_END.search(text[tokens[k][1]:tokens[k + 1][0]]) \
                and said[k + 1] not in CLAUSE_WORDS:
            continue  # "put the pen up on the shelf": a place follows
        j = m.start
        while j and (said[j - 1] in DETERMINERS or said[j - 1].endswith("'s")):
            j -= 1
        if j == 0 or said[j - 1] in NOT_VERBS or _CLAUSE_END.search(
                text[tokens[j - 1][1]:tokens[j][0]]):
            continue  # the clause's subject, or the object of a preposition
        if e not in out:
            out.append(e)
    return out


#: words that may start the next clause right after a result ("up so they can look")
CLAUSE_WORDS = frozenset('so and but then because while when as now again too'.split())


def changeable_of(r: Reading) -> frozenset[str]:
    """Return the predicates whose facts a report may change (:func:`.context.changing`)."""
    return changing(r.req.world, r.req.text)


def nearby(r: Reading) -> list[str]:
    """Return what the report may name, in the order said.

    Each mention's one thing, or every thing a mention it could not settle may mean ("the
    yard": the back yard, the yard bike rack); not someone named only as an owner.
    """
    owners = owners_only(r.req.kg, r.req.text, r.req.mentions)  # "Michael's room": not him
    out: list[str] = []
    for m in sorted(r.req.mentions, key=lambda m: m.start):
        out += [e for e in m.candidates if e not in out and e not in owners]
    # an owner a pronoun may point back at: "took Bev's trowel ... and gave it back to her"
    return out + [e for e in possessors(r.req.kg, r.req.text) if e not in out]


def possible(world: WorldModel, kg: KnowledgeGraph, update: Update, entity: str,
             near: Sequence[str], states: bool | frozenset[str] = False,
             last: bool = True, left: bool = False, placing: bool = False,
             text: str | None = None, named: bool | None = None,
             reported: bool = False, called: frozenset[str] = frozenset()) -> Possible | None:
    """Return what ``update`` could say of ``entity`` that it does not, or None.

    ``near``: the things the report names, in the order said (the facts' other slots
    come from them and from the update, the nearer to the thing the earlier they are
    offered). With ``states`` (the thing is the subject of a part read as no change:
    "Jonas woke up and switched on the light"), its one-place facts count too, a holding
    one may end ("no longer asleep"); given as predicates, only theirs; otherwise only
    facts that tie it to another named thing (a room named for where something happened
    is not asked whether it is lit). A thing the reading names already gets only those
    one-place facts. Where a person is (a rule keeps it, no action changes it) counts
    only with ``last``: the thing is named in the report's last clause ("... and went out
    to the yard"), not one it went on from ("took the pen to the kitchen and came
    straight back in", "walked through the kitchen to the bathroom"), and only with things
    the report names (not where someone the reading moves was before). With ``left`` (the
    report says something left the thing: "out of the make-up chair"), a holding fact
    that ties it to another named thing may end too ("Marcus no longer sits on it").
    With ``placing`` (named in the last clause that places anyone, :func:`in_placing`),
    where a person is counts too, unless it ends a place the update gives ("walked
    through the kitchen to the bathroom": not the kitchen instead of the bathroom).
    ``text``: the report, which says whether who owns what may change
    (:func:`.context.changing`). ``named``: the reading says all the report says of the
    thing but for its states (None: the reading names it; :func:`states_only`).
    ``reported``: a clause says the thing is in a state (:func:`in_a_state`), so a
    one-place state no action changes (only reports: "in use", "out of order") counts
    too; elsewhere only people's do, and a state typed for any object only for a kind
    that holds it now (:func:`.other_words.fits`: rooms get wet, people do not).
    """
    domain, rules = world.domain, world.constraints
    after = kg.copy()
    after.apply(update)
    kind = kg.entities.get(entity)
    if kind is None:
        return None
    others = list(dict.fromkeys([*near, *sorted(update.entities())]))
    where = {e: k for k, e in enumerate(near)}
    home = where.get(entity, 0)
    found: list[tuple[tuple[int, int, str], Fact, bool]] = []
    fluent, people = domain.fluent_predicates(), Phrasing(domain, kg).proper
    held = holders(kg)
    if named is None:  # the reading names it: only its states count
        named = entity in update.entities()
    said = set(near)
    for pred in sorted(changing(world, text)):
        p = domain.predicates.get(pred)
        if p is None or p.arity == 0 or p.arity > 2 or (p.arity == 1 and not states) \
                or (p.arity == 2 and named) \
                or (p.arity == 1 and isinstance(states, frozenset) and pred not in states):
            continue
        for k in range(p.arity):
            if not domain.accepts(pred, k, kind):
                continue
            fills = [[entity] if j == k else
                     [o for o in others if o != entity and
                      (t := kg.entities.get(o)) is not None and domain.accepts(pred, j, t)]
                     for j in range(p.arity)]
            for args in _product(fills):
                f = Fact(pred, tuple(args))
                # a state of the thing, or a tie to what left it, that may end
                gone = f in after and (p.arity == 1 or left)
                if pred not in fluent and not (p.arity == 1 and reported) and (
                        (kg.entities.get(world.constraints.thing_of(f)) not in people
                         and world.constraints.thing_of(f) not in called)
                        or (not (last or placing) and not gone) or not set(args) <= said):
                    continue  # only people move where no action moves things (a bench)
                if p.arity == 1 and not gone and not fits(world, pred, kind,
                                                          held.get(pred, set())):
                    continue  # rooms get wet, people do not
                if pred not in fluent and not last and not gone and any(
                        old in update.add for old, _ in forced_removals(after, f, rules,
                                                                        domain)):
                    continue  # passed through on the way to where the update puts them
                if f in after and not gone:
                    continue
                far = max((abs(where.get(a, len(near)) - home) for a in args if a != entity),
                          default=0)
                found.append(((far, p.arity, _likely(f, gone, kind, held), f.text()), f, gone))
    if found and states is False:  # asked about already: a state it is in may have ended
        found += [((len(near) + 1, 1, 0, f.text()), f, True)
                  for f in held_states(world, after, entity, text)]
    found.sort(key=lambda x: x[0])
    readings: list[tuple[Update, Update, frozenset[Fact], Update]] = []
    still: set[Fact] = set()
    never: set[Fact] = set()
    for _, f, gone in found:
        changes = _with(world, kg, update, f, gone)
        if not changes:
            continue
        if gone:
            readings += [(change, Update.of([f], []), frozenset(update.add - change.add),
                          Update()) for change in changes]
            still.add(f)
        else:
            ended = {old for old, _ in forced_removals(after, f, rules, domain)}
            readings += [(change, Update.of(ended, [f]), frozenset(update.add - change.add),
                          Update()) for change in changes]
            if ended:
                still |= ended
            else:
                never.add(f)
        if len(readings) >= MAX_FACTS:
            readings = readings[:MAX_FACTS]
            break
    if not readings:
        return None
    return Possible(entity, tuple(readings), frozenset(still), frozenset(never))


def _likely(fact: Fact, gone: bool, kind: str, held: dict[str, set[str]]) -> int:
    """Rank a state of a thing among its others, the likelier first (0, 1, 2).

    A state it is in now, which the report may end ("my football's gone all squishy":
    no longer inflated), then one a thing of its kind is in now (other tents are pitched),
    then the rest: only :data:`MAX_FACTS` are offered, and in the names' order "dirty",
    "frozen", "full" took every place before "pitched" or "inflated". Two-place facts: 0.
    """
    if len(fact.args) != 1:
        return 0
    return 0 if gone else 1 if kind in held.get(fact.predicate, set()) else 2


def held_states(world: WorldModel, after: KnowledgeGraph, entity: str,
                text: str | None) -> list[Fact]:
    """Return the one-place states ``entity`` is in after the reading that a report may end.

    Offered beside what ties a thing asked about to the things named: "knocked over the
    blue carrier, so that's all the water gone" asks about the carrier, whose being full
    is as much in question as where it stands (and "kept as it was" then says "still
    full").
    """
    domain, kind = world.domain, after.entities.get(entity)
    return [f for pred in sorted(changing(world, text))
            if (p := domain.predicates.get(pred)) is not None and p.arity == 1
            and kind is not None and domain.accepts(pred, 0, kind)
            and (f := Fact(pred, (entity,))) in after]


def _product(fills: list[list[str]]) -> Iterable[list[str]]:
    """Return every choice of one value per slot (no value twice)."""
    if not fills:
        yield []
        return
    for head in fills[0]:
        for rest in _product(fills[1:]):
            if head not in rest:
                yield [head, *rest]


def _with(world: WorldModel, kg: KnowledgeGraph, update: Update, fact: Fact,
          gone: bool) -> list[Update]:
    """Return ``update`` with ``fact`` added (``gone``: removed), completed and verified.

    Beside the reading's own facts, and in place of each of its added facts about the same
    thing ("on the luggage trolley", not "on the front desk"; "dry", not "clean"): every
    such reading that verifies, the one beside first.
    """
    if gone:
        tries = [Update.of(update.remove | {fact}, update.add)]
    else:
        tries = [Update.of(update.remove, update.add | {fact})]
        tries += [Update.of(update.remove, (update.add - {g}) | {fact})
                  for g in sorted(update.add) if g.args and g.args[0] == fact.args[0]]
    out: list[Update] = []
    for stated in tries:
        done = complete(kg, stated, world.constraints, world.domain).update
        said = fact in (done.remove if gone else done.add)
        if said and done != update and done not in out \
                and not world.verifier.check(kg, done):
            out.append(done)
    return out


def whole_readings(world: WorldModel, r: Reading, readings: list[Candidate]) -> list[Candidate]:
    """Return ``readings`` with each one that leaves a named thing out made whole.

    A reading that leaves out a thing something could be said of becomes the options about
    that thing (the first such thing, in the order said): the reading with each possible
    fact, then the reading with the thing kept as it was, said out loud. What an option
    still leaves out of other things it keeps as it was, said too (a "yes" writes no half
    report), or asks about next (:func:`_options`). A state the first reading (the
    answer) gave a thing counts for the readings after it that leave the thing out
    ("closed the station door": without the door locked, the door no longer open is still
    asked about).
    """
    kg = r.req.kg
    near, left = nearby(r), sources(r)
    phrasing = Phrasing(world.domain, kg, names=written_names(r.req.text, kg))
    # the states the answer gave a thing count for a reading that leaves it out
    answered: dict[str, set[str]] = {}
    for f in (readings[0].update.add | readings[0].update.remove) if readings else ():
        if len(f.args) == 1:
            answered.setdefault(f.args[0], set()).add(f.predicate)
    out: list[Candidate] = []
    for n, reading in enumerate(readings):
        if reading.about:  # made whole already
            out.append(reading)
            continue
        states = states_of(r, reading.update)
        for e, preds in answered.items():
            if e not in states or states[e] is not None:
                states[e] = frozenset((states.get(e) or frozenset()) | preds)
        found = [p for e in left_out(r, reading.update)
                 if (p := offered(r, reading.update, e, near, states, left)) is not None]
        if n and readings:  # a thing the answer said something of that this one drops
            got = {p.entity for p in found}
            found += [p for e in dropped_things(r, readings[0].update, reading.update)
                      if e not in got and (p := as_answered(world, kg, readings[0].update,
                                                            reading.update, e)) is not None]
        if reading.source == NOTHING_READ:  # only what a clause says is in a state
            found = [p for p in found if p.entity in r.stative]
        if not found:
            out.append(reading)
            continue
        out += _options(world, r, readings, n, reading, found[0], found[1:], phrasing, near,
                        left, chain=True)
    return out


def _options(world: WorldModel, r: Reading, readings: list[Candidate], n: int,
             reading: Candidate, first: Possible, rest: list[Possible], phrasing: Phrasing,
             near: Sequence[str], left: set[str], chain: bool) -> list[Candidate]:
    """Return the options about ``first``, a thing ``reading`` leaves out.

    The reading with each fact possible of it, then kept as it was; what an option still
    leaves out of other things is kept as it was (said too: a "yes" writes no half
    report), but with ``chain`` a thing a clause says is in a state is asked next
    (:func:`_followed`, :attr:`~..core.asking.Candidate.follow`), built on the option
    chosen: "And the washing machine: ... no longer on" chosen, "And Max's blanket: which
    is right? ..." follows.
    """
    kg = r.req.kg
    out: list[Candidate] = []
    for change, said, instead, also in first.readings:
        words = ' '.join([*(phrasing.say(f) for f in sorted(said.add)),
                          *(phrasing.say(f, Form.NO_LONGER) for f in sorted(said.remove)),
                          *(phrasing.say(f, Form.NOT) for f in sorted(instead))])
        kept_states = states_of(r, change)
        others = [p for e in left_out(r, change) if e != first.entity
                  and (p := offered(r, change, e, near, kept_states, left)) is not None]
        if n and readings:
            got = {p.entity for p in others} | {first.entity}
            others += [p for e in dropped_things(r, readings[0].update, change)
                       if e not in got and (p := as_answered(
                           world, kg, readings[0].update, change, e)) is not None]
        option = Candidate(change, reading.confidence, _made_whole(reading, n), about=first.entity,
                           words=words, kept=also)
        out.append(_followed(world, r, readings, n, option, others, phrasing, near, left,
                             chain))
    kept_as_was = first.still | first.never
    if reading.source == NOTHING_READ or (
            kept_as_was and all(guessed(r, f.args[0]) for f in kept_as_was)):
        k = len(out) - len(first.readings)  # the question still leads with the reading
        out[k:] = [replace(c, base=reading.update) for c in out[k:]]
        return out  # "the cup" may be another cup, or nothing was read: "as it was" says nothing
    words = ' '.join([*(phrasing.say(f, Form.STILL) for f in sorted(first.still)),
                      *(phrasing.say(f, Form.NOT) for f in sorted(first.never))])
    option = Candidate(reading.update, reading.confidence, _made_whole(reading, n),
                       about=first.entity, kept=_kept([first]), words=words)
    out.append(_followed(world, r, readings, n, option, rest, phrasing, near, left, chain))
    return out


def _made_whole(reading: Candidate, n: int) -> str:
    """Return the source of an option made whole from ``reading``, the ``n``-th reading.

    A part of another reading (:data:`~..core.asking.SMALLER`) keeps saying so: its
    options are asked only after the readings the checks made.
    """
    head = f'{SMALLER} ' if reading.source.startswith(SMALLER) else ''
    return f'{head}{LEFT_OUT} {n}'


def _followed(world: WorldModel, r: Reading, readings: list[Candidate], n: int,
              option: Candidate, others: list[Possible], phrasing: Phrasing,
              near: Sequence[str], left: set[str], chain: bool) -> Candidate:
    """Return ``option`` with what it still leaves out kept as it was, or asked next.

    Asked next (with ``chain``): the first thing a clause says is in a state
    (:func:`in_a_state`), else the first thing called by its name that is not a person
    ("I've brought Meg and the big torch out here": a dog goes on its own, and kept where
    it was it would make every option false); a place or a thing offered beside it is no
    new question (the options about the red pen already say whether it is on the table).
    What is asked next is not said "still" as it was in ``option``, and a following option
    keeps nothing as it was that it changes: a speaker would refuse every option. What an
    option keeps as it was is said in its words (:func:`_saying_kept`).
    """
    if not others:
        return option
    stative = set(in_a_state(r, option.update)) if chain else set()
    nxt = next((p for p in others if p.entity in stative), None)
    if nxt is None and chain:
        people = phrasing.proper
        called = {e for e in called_by_name(r) if r.req.kg.entities.get(e) not in people}
        nxt = next((p for p in others if p.entity in called), None)
    rest = [p for p in others if p is not nxt]
    changed = option.update.add | option.update.remove  # said by the change itself
    kept = _kept(rest)
    kept = Update.of(kept.remove - changed, kept.add - changed)
    option = replace(option, kept=Update.of(kept.remove | option.kept.remove,
                                            kept.add | option.kept.add))
    if nxt is None:
        return _saying_kept(option, kept, phrasing)
    # what is asked next is not kept as it was ("Anna is still in her bedroom" beside the
    # mug, then "And Anna: ..."), nor is what a following option changes
    option = replace(option, kept=Update.of(
        {f for f in option.kept.remove if nxt.entity not in f.args},
        {f for f in option.kept.add if nxt.entity not in f.args}))
    option = _saying_kept(option, Update.of({f for f in kept.remove if nxt.entity not in f.args},
                                            {f for f in kept.add if nxt.entity not in f.args}),
                          phrasing)
    base = Candidate(option.update, option.confidence, option.source)
    follow = _options(world, r, readings, n, base, nxt, rest, phrasing, near, left,
                      chain=False)
    return replace(option, follow=tuple(replace(c, kept=Update.of(
        (c.kept.remove | option.kept.remove) - c.update.add,
        (c.kept.add | option.kept.add) - c.update.remove)) for c in follow))


def _saying_kept(option: Candidate, kept: Update, phrasing: Phrasing) -> Candidate:
    """Return ``option`` whose words also say what it keeps of other things as it was.

    The speaker judges an option by all it states (:meth:`.Candidate.option`): a thing kept
    as it was ("Meg is still in the kitchen") is said, or a person would say yes to the
    words and the robot would hold what they never heard.
    """
    said = [*(phrasing.say(f, Form.STILL) for f in sorted(kept.add)),
            *(phrasing.say(f, Form.NOT) for f in sorted(kept.remove))]
    said = [s for s in dict.fromkeys(said) if s not in option.words]
    if not said or not option.words:
        return option
    return replace(option, words=' '.join([option.words, *said]))


def dropped_things(r: Reading, answer: Update, update: Update) -> list[str]:
    """Return the named things ``answer`` says something of that ``update`` leaves out.

    In the order said; ``update`` names none of them. "Clover's in the small carrier and
    I've brought her through to the vet room": a reading after the answer that leaves
    Clover out is no whole reading, even though she leads her clause (whom
    :func:`left_out` excuses as the one who acted).
    """
    about = {f.args[0] for f in answer.add | answer.remove if f.args}
    named = update.entities()
    return [e for e in said_order(r.req.mentions) if e in about and e not in named]


def as_answered(world: WorldModel, kg: KnowledgeGraph, answer: Update, update: Update,
                entity: str) -> Possible | None:
    """Return what ``answer`` said of ``entity``, offered beside ``update``, or None.

    One option: ``update`` with the answer's facts about the thing (completed, verified);
    the thing kept as it was is the other ("Kayleigh is still at the laundry").
    """
    add = {f for f in answer.add if f.args and f.args[0] == entity}
    ends = {f for f in answer.remove if f.args and f.args[0] == entity}
    if not add and not ends:
        return None
    done = complete(kg, Update.of(update.remove | ends, update.add | add), world.constraints,
                    world.domain).update
    if not (add <= done.add and ends <= done.remove) or world.verifier.check(kg, done):
        return None
    still = frozenset(f for f in ends if f in kg)
    never = frozenset() if still else frozenset(add)
    return Possible(entity, ((done, Update.of(ends, add), frozenset(), Update()),), still, never)


def guessed(r: Reading, entity: str) -> bool:
    """Tell whether the report names ``entity`` only as one of what a mention may be.

    "left the dirty cup in the sink" with four cups: "cafe cup 1 is still held by Elena"
    is true and leaves the cup the report meant out, so it is no option; nor, about the
    sink, "cups 1, 2 and 3 are still where they were" (the cup meant may be a fourth). A
    guessed place of a thing the report does name keeps the option: "the scanner is still
    in the till cradle", asked about the office cradle "the charging cradle" may mean.
    """
    return not any(m.resolved == entity for m in r.req.mentions) and any(
        entity in m.candidates and len(m.candidates) > 1 for m in r.req.mentions)


def in_last(r: Reading, entity: str) -> bool:
    """Tell whether the report's last clause names ``entity`` (the whole, when one)."""
    said = r.req.mentions_in(r.parts[-1]) if r.several else r.req.mentions
    return any(m.resolved == entity for m in said)


def in_placing(r: Reading, entity: str) -> bool:
    """Tell whether the report's last clause that places anyone names ``entity``.

    Clauses after it that neither go anywhere nor name a place of anything the report
    names ("... and she's switched the spare radio on") leave people where that clause
    put them: "Grace is back on her chair in the wing and she's switched ...".
    """
    if not r.several:
        return in_last(r, entity)
    world, kg = r.req.world, r.req.kg
    wheres = frozenset().union(*(place_predicates(world, kg, m.resolved)
                                 for m in r.req.mentions if m.resolved))
    for part in reversed(r.parts):
        said = r.req.mentions_in(part)
        if part is r.parts[0] or goes_somewhere(part) or any(
                is_place(world, kg, c, wheres) for m in said for c in m.candidates):
            return any(m.resolved == entity for m in said)
    return False


def states_for(states: dict[str, frozenset[str] | None], entity: str) -> bool | frozenset[str]:
    """Return which one-place facts of ``entity`` count (:func:`possible`'s ``states``)."""
    if entity not in states:
        return False
    got = states[entity]
    return True if got is None else got


def _kept(found: Iterable[Possible]) -> Update:
    """Return what keeping ``found`` things as they were says: still so, still not so."""
    found = list(found)
    return Update.of({f for p in found for f in p.never}, {f for p in found for f in p.still})


def said_order(mentions: Iterable[Mention]) -> list[str]:
    """Return the resolved entities of ``mentions`` in the order said, once each."""
    return list(dict.fromkeys(m.resolved for m in sorted(mentions, key=lambda m: m.start)
                              if m.resolved))
