# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Generate natural-language reports with known gold changes for any typed PDDL domain.

Usage::

    python benchmarks/generate_reports.py DOMAIN STATE [--n 40] [--seed S] [--wordings K] \\
        [--constraints FILE] [--rejects 0.1] --out FILE.json

``STATE`` is what ``l3mp kg init --from`` accepts (an ``l3mp/kg/v1`` snapshot or a PDDL
problem file). From it the generator walks a random sequence of *applicable* grounded
actions of the domain: candidates are bound parameter by parameter, pruned by the
precondition atoms already bound, and each is run by the package's own executor
(:func:`l3mp_ros.planning.execute.execute_plan`: preconditions, conditional and quantified
effects, numbers); an action that changes nothing is skipped, the action schemas used least
so far are tried first, and undoing the previous step is taken only when nothing else
applies. Each applied action's change is the report's gold diff (``remove`` / ``add`` as
triplets, unary facts ending in ``true``), checked by the package's verifier
(:class:`l3mp_ros.world.verify.Verifier` with the domain's constraints, on the state before
it); a change that fails is dropped (counted) and another action is tried.

The text says what happened in one of these wordings (``--wordings K``: each report carries
K of them, drawn by the seed; the first is its ``text``, all are in ``variants``):

* ``facts``: every changed fact as a sentence of the package's phrasing
  (:class:`l3mp_ros.world.phrasing.Phrasing`: "The red pen is now in the robot's hand.",
  "... is no longer ..."), the added facts first;
* ``main``: only what holds now (the removed facts left to the reader), a removed fact kept
  only when it names a thing no other sentence names;
* ``event``: the action as an event, from its name and arguments ("The robot removed the
  red pen from the living room table."): the subject is the first agent-like argument (of
  the type that opens most of the domain's actions, or a type of names), the verb the
  action name's first word in the past tense, the name's other words in their order with the
  arguments whose type or parameter name they spell, parameters named by a preposition
  (``?from``, ``?to``) said with it; a changed thing the sentence does not name is added as
  a fact sentence, so every text names every changed thing;
* ``mix``: the event, then what now holds of the things other than the subject.

About ``--rejects`` (default 0.1) of the reports are reject cases (``remove`` and ``add``
empty, ``"expect": "reject"``): a report about a made-up thing of an existing type (said in
one of the wordings above), one with no representable change (a general remark that shares
no word with the domain), or a restatement of what holds ("... is still ...").

Nothing here is specific to a domain: every word comes from the domain's own names and the
package's phrasing. The set is *chained*: each report is read on the state the gold changes
of the reports before it left. ``benchmarks/nl_reports.py`` reads a set's ``"chained":
true`` that way (as it reads a directory set), so the output is an ``l3mp/nl_reports/v1``
JSON with ``"chained": true``, its state written beside it (``<out>.state.json``, the
initial KG with the domain's constants; an empty ``<out>.constraints.yaml`` when the domain
has no constraints file) and every path absolute::

    python benchmarks/generate_reports.py pddl/household.pddl config/household_state.json \\
        --out /tmp/household.json
    python benchmarks/nl_reports.py /tmp/household.json --out out/generated_household
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from unified_planning.model import FNode

from l3mp_ros import compose
from l3mp_ros.cli.common import CLIError
from l3mp_ros.cli.kg_cmd import read_state
from l3mp_ros.config import Config
from l3mp_ros.planning.execute import execute_plan
from l3mp_ros.world import english as en
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.phrasing import Phrasing, words
from l3mp_ros.world.templates import Form
from l3mp_ros.world.verify import Verifier

SCHEMA = 'l3mp/nl_reports/v1'
WORDINGS = ('facts', 'main', 'event', 'mix')
#: particles written glued to a verb in action names: ``pickup``, ``putdown``
GLUED_PARTICLES = ('up', 'down', 'off', 'out', 'away', 'back')
#: general English past tenses that :data:`l3mp_ros.world.english.IRREGULAR_PAST` lacks
MORE_PAST = {'shake': 'shook', 'swing': 'swung', 'throw': 'threw', 'break': 'broke',
             'wake': 'woke', 'choose': 'chose', 'hide': 'hid', 'draw': 'drew', 'grow': 'grew',
             'freeze': 'froze', 'stick': 'stuck', 'spin': 'spun', 'sweep': 'swept',
             'sleep': 'slept', 'feel': 'felt', 'pay': 'paid', 'lay': 'laid', 'say': 'said',
             'shut': 'shut', 'speak': 'spoke', 'steal': 'stole', 'strike': 'struck',
             'tear': 'tore', 'forget': 'forgot', 'fall': 'fell', 'rise': 'rose',
             'hear': 'heard', 'seek': 'sought', 'fight': 'fought', 'dig': 'dug'}
#: remarks about nothing a domain represents; one sharing a word with the domain is not used
REMARKS = ('It is raining outside.', 'The weather is lovely today.', 'It is getting late.',
           'Somebody is whistling a tune somewhere.', 'I had a long day.',
           'The sky is very clear tonight.', 'It is quite warm this afternoon.',
           'Someone laughed in the distance.', 'There was thunder a moment ago.',
           'Everyone seems to be in a good mood.')
_CONSONANTS = 'bdfklmnprstv'
_VOWELS = 'aeiou'
MAX_NODES = 200_000  # bindings tried per action schema and step


def past(verb: str) -> str:
    """Return the simple past: :func:`english.past`, a final consonant doubled (drop → dropped)."""
    if verb in MORE_PAST:
        return MORE_PAST[verb]
    said = en.past(verb)
    if said == verb + 'ed' and len(re.findall('[aeiou]+', verb)) == 1 \
            and re.search('[^aeiou][aeiou][^aeiouwxy]$', verb):
        return verb + verb[-1] + 'ed'
    return said


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _lower_the(text: str) -> str:
    return 'the ' + text[4:] if text.startswith('The ') else text


# ---------------------------------------------------------------------------------------
# the walk: applicable grounded actions, one after another
@dataclass(frozen=True)
class Step:
    """One applied action and its change of the KG."""

    action: str
    args: tuple[str, ...]
    update: Update

    @property
    def pddl(self) -> str:
        """Return ``(action arg ...)``."""
        return '(' + ' '.join((self.action, *self.args)) + ')'


def _atoms(node: FNode, out: list[tuple[str, tuple[tuple[bool, str], ...]]]) -> None:
    """Collect the positive atoms of a precondition's top-level conjunction."""
    if node.is_and():
        for arg in node.args:
            _atoms(arg, out)
        return
    if not node.is_fluent_exp() or not node.fluent().type.is_bool_type():
        return
    terms = []
    for arg in node.args:
        if arg.is_parameter_exp():
            terms.append((True, arg.parameter().name))
        elif arg.is_object_exp():
            terms.append((False, arg.object().name.lower()))
        else:
            return
    out.append((node.fluent().name, tuple(terms)))


class Walker:
    """Find applicable grounded actions of a domain on a KG (random, by a seeded RNG)."""

    def __init__(self, domain: DomainSchema, verifier: Verifier) -> None:
        self.domain = domain
        self.verifier = verifier
        self.uses: Counter[str] = Counter()
        self.seen: set[Update] = set()  # the changes taken so far
        self.dropped: dict[str, str] = {}  # action → the verifier's first error
        problem = domain.up_problem
        self.actions = [a for a in problem.actions if a.name in domain.actions]
        self._plan: dict[str, tuple[list[str], list[str], dict[int, list]]] = {}
        for action in self.actions:
            names = [p.name for p in action.parameters]
            atoms: list[tuple[str, tuple[tuple[bool, str], ...]]] = []
            for pre in action.preconditions:
                _atoms(pre, atoms)
            checks: dict[int, list] = {}
            for pred, terms in atoms:
                at = max((names.index(t) for is_param, t in terms if is_param), default=-1)
                checks.setdefault(at, []).append((pred, tuple(
                    (names.index(t) if is_param else -1, t) for is_param, t in terms)))
            types = [p.type.name.lower() for p in action.parameters]
            self._plan[action.name] = (names, types, checks)

    def _objects(self, kg: KnowledgeGraph, typ: str) -> list[str]:
        names = [n for n, t in kg.entities.items() if self.domain.is_subtype(t, typ)]
        names += [n for n, t in self.domain.constants.items()
                  if self.domain.is_subtype(t, typ) and n not in kg.entities]
        return sorted(names)

    def bindings(self, name: str, kg: KnowledgeGraph,
                 rng: random.Random) -> Iterator[tuple[str, ...]]:
        """Yield argument tuples of ``name`` whose positive precondition atoms hold."""
        names, types, checks = self._plan[name]
        facts = kg.facts
        objects = [self._objects(kg, t) for t in types]
        budget = [MAX_NODES]

        def holds(at: int, env: list[str]) -> bool:
            return all(Fact(pred, tuple(env[i] if i >= 0 else c for i, c in terms)) in facts
                       for pred, terms in checks.get(at, ()))

        def bind(i: int, env: list[str]) -> Iterator[tuple[str, ...]]:
            if i == len(names):
                yield tuple(env)
                return
            order = list(objects[i])
            rng.shuffle(order)
            for obj in order:
                budget[0] -= 1
                if budget[0] < 0:
                    return
                env.append(obj)
                if holds(i, env):
                    yield from bind(i + 1, env)
                env.pop()

        if holds(-1, []):
            yield from bind(0, [])

    def step(self, kg: KnowledgeGraph, rng: random.Random,
             last: Update | None = None) -> Step | None:
        """Return an applicable action that changes ``kg`` and verifies (None: none left).

        The schemas used least so far come first; a change made before, or one undoing
        ``last``, only when no other applies.
        """
        names = [a.name for a in self.actions]
        rng.shuffle(names)
        names.sort(key=lambda n: self.uses[n])
        fallback = None
        for name in names:
            for args in self.bindings(name, kg, rng):
                result = execute_plan(self.domain, kg, ['(' + ' '.join((name, *args)) + ')'])
                if not result.ok or result.update.is_empty():
                    continue
                step = Step(name, args, result.update)
                errors = self.verifier.check(kg, step.update)
                if errors:
                    self.dropped.setdefault(step.pddl, errors[0])
                    continue
                if step.update in self.seen or (last is not None
                                                and step.update == last.inverse()):
                    fallback = fallback or step
                    continue
                return self._taken(step)
        return self._taken(fallback) if fallback is not None else None

    def _taken(self, step: Step) -> Step:
        self.uses[step.action] += 1
        self.seen.add(step.update)
        return step


# ---------------------------------------------------------------------------------------
# the words
def actor_types(domain: DomainSchema) -> frozenset[str]:
    """Return the agent-like types: those that open at least a third of the actions.

    A type opens an action when the action's first parameter is of it or of a subtype.
    """
    firsts = [a.params[0][1] for a in domain.actions.values() if a.params]
    return frozenset(t for t in domain.types if t != 'object' and 3 * sum(
        any(domain.is_subtype(f, t) for f in first) for first in firsts) >= len(firsts) > 0)


def _segments(rest: Sequence[str], tw: Sequence[set[str]], pnames: Sequence[str],
              by_prep: Sequence[int], others: Sequence[int], placed: set[int]
              ) -> list[tuple[str, object]]:
    """Read an action name's words after its verb into segments, marking arguments placed.

    ``('arg', i)``: a word spelling argument i's type or parameter name (a type of several
    words taken whole); ``('preps', None)``: a word naming a parameter that is a preposition
    (``to`` of ``move_to_room``): all such parameters are said there; ``('prep', w)``, a
    preposition; ``('word', w)``, any other word. A word repeating the type of an argument
    already said is dropped.
    """
    segs: list[tuple[str, object]] = []
    j = 0
    while j < len(rest):
        tok = rest[j]
        j += 1
        if tok in {pnames[i] for i in by_prep} and not placed & set(by_prep):
            segs.append(('preps', None))
            placed.update(by_prep)
            while j < len(rest) and any(rest[j] in tw[i] for i in by_prep):
                j += 1
            continue
        hit = next((i for i in others if i not in placed
                    and (tok == pnames[i] or tok in tw[i])), None)
        if hit is not None:
            segs.append(('arg', hit))
            placed.add(hit)
            while j < len(rest) and rest[j] in tw[hit] and rest[j] not in en.PREPOSITIONS:
                j += 1
            continue
        if not any(tok in tw[i] for i in placed):
            segs.append(('prep' if tok in en.PREPOSITIONS else 'word', tok))
    return segs


@dataclass
class _Event:
    """An event sentence and the arguments it names."""

    text: str
    subject: int


class Speaker:
    """Say a step in words: facts as the package says them, the action as an event."""

    def __init__(self, domain: DomainSchema, kg: KnowledgeGraph) -> None:
        self.domain = domain
        self.kg = kg
        self.phrasing = Phrasing(domain, kg)
        self.actors = tuple(sorted(actor_types(domain)))

    # -- entities and facts -----------------------------------------------------------
    def entity(self, name: str) -> str:
        """Return how an entity is said ("the red pen", "Jerry")."""
        return self.phrasing.entity(name)

    def names(self, text: str, entity: str) -> bool:
        """Tell whether ``text`` names ``entity`` (as the phrasing says it, or its words)."""
        low = text.lower()
        said = self.entity(entity).lower()
        said = said[4:] if said.startswith('the ') else said
        return any(re.search(rf'(?<![\w-]){re.escape(w)}(?![\w-])', low)
                   for w in (said, ' '.join(words(entity))))

    def sentences(self, add: Sequence[Fact], remove: Sequence[Fact] = ()) -> list[str]:
        """Return the facts now holding (``is now``), then those no longer holding."""
        valued = {f.key for f in add if f.numeric}
        return [*(self.phrasing.say(f, Form.CHANGED) for f in sorted(add)),
                *(self.phrasing.say(f, Form.NO_LONGER) for f in sorted(remove)
                  if not (f.numeric and f.key in valued))]

    def _covering(self, text: str, update: Update, said: set[Fact]) -> list[str]:
        """Return sentences of the changed facts naming a changed thing ``text`` does not."""
        missing = {e for e in sorted(update.entities()) if not self.names(text, e)}
        add = [f for f in sorted(update.add) if f not in said and missing & set(f.args)]
        remove = [f for f in sorted(update.remove)
                  if f not in said and missing & set(f.args)]
        return self.sentences(add, remove)

    # -- the action as an event ---------------------------------------------------------
    def _type_words(self, types: Sequence[str]) -> set[str]:
        return {w for t in types for a in self.domain.ancestors(t) if a != 'object'
                for w in words(a)}

    def subject(self, name: str, args: Sequence[str]) -> int:
        """Return the index of the acting argument: the first agent-like one.

        A named one (a person, usually) of an agent-like type first, then the first
        parameter when it is agent-like, then the first agent-like argument.
        """
        params = self.domain.actions[name].params
        kinds = [self.kg.type_of(a) or self.domain.constants.get(a, '') for a in args]
        actor = [bool(self.actors) and (self.domain.is_subtype(kinds[i], self.actors) or any(
            self.domain.is_subtype(t, self.actors) for t in params[i][1]))
            for i in range(len(args))]
        for i, kind in enumerate(kinds):
            if actor[i] and kind in self.phrasing.proper:
                return i
        return next((i for i in range(len(args)) if actor[i]), 0)

    def _tokens(self, name: str, subject_words: set[str]) -> list[str]:
        toks = words(name) or [name]
        if len(toks) > 1 and toks[0] in subject_words:  # robot_move: "move"
            toks = toks[1:]
        for p in GLUED_PARTICLES:  # pickup: "pick up"
            if toks[0].endswith(p) and len(toks[0]) - len(p) >= 3:
                return [toks[0][:-len(p)], p, *toks[1:]]
        return toks

    def event(self, name: str, args: Sequence[str], update: Update) -> _Event:
        """Return the action said as what happened: "The robot picked up the red pen."."""
        params = self.domain.actions[name].params
        kinds = [self.kg.type_of(a) or self.domain.constants.get(a, '') for a in args]
        subj = self.subject(name, args)
        tw = [self._type_words((*params[i][1], kinds[i])) for i in range(len(args))]
        verb, *rest = self._tokens(name, tw[subj])
        pnames = [p.lower() for p, _ in params]
        by_prep = [i for i in range(len(args)) if i != subj and pnames[i] in en.PREPOSITIONS]
        others = [i for i in range(len(args)) if i != subj and i not in by_prep]
        placed = {subj}
        segs = _segments(rest, tw, pnames, by_prep, others, placed)
        particle = None
        if segs and segs[0][0] == 'prep' and segs[0][1] in en.PARTICLES and (
                len(segs) == 1 or segs[1][0] != 'arg'):
            particle = str(segs.pop(0)[1])
        obj = None
        phrasal = len(segs) > 1 and segs[0][0] == 'prep' and segs[0][1] in en.PARTICLES \
            and segs[1][0] == 'arg'  # turned on the light: the light is the object
        if not segs or (segs[0][0] == 'prep' and not phrasal):
            left = [i for i in others if i not in placed]
            movers = [i for i in left if any(f.args and f.args[0] == args[i]
                                             for f in update.add | update.remove)]
            obj = movers[0] if movers else (left[0] if len(left) == 1 and not segs else None)
        out = [_capital(self.entity(args[subj])), past(verb)]
        if obj is not None:
            placed.add(obj)
            if particle and segs and segs[0][0] == 'prep':
                out += [self._said(args[obj]), particle]  # took the tube out of the fridge
            else:
                out += [particle or '', self._said(args[obj])]
        else:
            out.append(particle or '')
            if segs and segs[0][0] == 'word':
                out.append('the')  # switched the light on, turned on the faucet
        said_preps = False
        for k, (kind, val) in enumerate(segs):
            if kind == 'arg':
                out.append(self._said(args[int(val)]))
            elif kind == 'preps':
                out += [f'{pnames[i]} {self._said(args[i])}' for i in by_prep]
                said_preps = True
            elif kind == 'prep':
                out.append(str(val))
                after = segs[k + 1][0] if k + 1 < len(segs) else None
                particle_like = val in en.PARTICLES and k > 0 and segs[k - 1][0] == 'word'
                nxt = next((i for i in others if i not in placed), None)
                if after in (None, 'prep') and not particle_like and nxt is not None:
                    out.append(self._said(args[nxt]))  # went through: the door
                    placed.add(nxt)
            else:
                out.append(str(val))
        if by_prep and not said_preps:
            out += [f'{pnames[i]} {self._said(args[i])}' for i in by_prep]
        return _Event(' '.join(w for w in out if w) + '.', subj)

    def _said(self, name: str) -> str:
        return _lower_the(self.entity(name))

    # -- the wordings ------------------------------------------------------------------
    def wordings(self, step: Step) -> dict[str, str]:
        """Return each wording's text of a step (a wording that adds nothing is left out)."""
        up = step.update
        add, remove = sorted(up.add), sorted(up.remove)
        out = {'facts': ' '.join(self.sentences(add, remove))}
        if add and remove:
            now = ' '.join(self.sentences(add))
            main = ' '.join([now, *self._covering(now, up, set(add))])
            if main != out['facts']:
                out['main'] = main
        event = self.event(step.action, step.args, up)
        out['event'] = ' '.join([event.text, *self._covering(event.text, up, set())])
        actor = step.args[event.subject]
        others = [f for f in add if not f.args or f.args[0] != actor] or add
        mixed = ' '.join([event.text, *self.sentences(others)])
        mixed = ' '.join([mixed, *self._covering(mixed, up, set(others))])
        if mixed != out['event']:
            out['mix'] = mixed
        return out


# ---------------------------------------------------------------------------------------
# reject cases
def made_up_name(kg: KnowledgeGraph, domain: DomainSchema, typ: str, proper: bool,
                 rng: random.Random) -> str:
    """Return a name no entity, type or predicate of the domain uses, for a thing of ``typ``."""
    used = set(kg.entities) | set(domain.types) | set(domain.predicates)
    used |= {w for n in kg.entities for w in words(n)}
    for _ in range(1000):
        if proper:  # a one-word name, as the domain's names are
            name = ''.join(rng.choice(_CONSONANTS) + rng.choice(_VOWELS)
                           for _ in range(rng.randint(2, 3))) + rng.choice('nlrs')
        else:
            name = '_'.join([*words(typ), str(rng.randint(2, 99))])
        if name not in used:
            return name
    raise RuntimeError(f'no free name for a {typ}')


def no_change_remark(domain: DomainSchema, kg: KnowledgeGraph, rng: random.Random) -> str:
    """Return a remark that shares no word with the domain's names."""
    vocab = {w for n in (*domain.types, *domain.predicates, *domain.actions, *kg.entities)
             for w in words(n)}
    fits = [r for r in REMARKS if not vocab & set(re.findall(r'[a-z]+', r.lower()))]
    return rng.choice(fits or list(REMARKS))


# ---------------------------------------------------------------------------------------
@dataclass
class Generated:
    """A generated set and what the walk did."""

    reports: list[dict]
    dropped: dict[str, str]
    ended_early: bool = False

    def counts(self) -> dict[str, object]:
        """Return the numbers of reports, rejects, drops, wordings and actions."""
        rejects = [r for r in self.reports if r['expect'] == 'reject']
        return {'reports': len(self.reports), 'apply': len(self.reports) - len(rejects),
                'rejects': len(rejects), 'dropped': len(self.dropped),
                'reject_kinds': dict(Counter(r['reject'] for r in rejects)),
                'wordings': dict(Counter(r['wording'] for r in self.reports
                                         if r['expect'] == 'apply')),
                'actions': dict(Counter(r['action'].strip('()').split()[0]
                                        for r in self.reports if r['expect'] == 'apply')),
                'ended_early': self.ended_early}


def _reject(kind: str, kg: KnowledgeGraph, domain: DomainSchema, speaker: Speaker,
            walker: Walker, rng: random.Random) -> dict | None:
    """Return one reject case of ``kind`` on ``kg`` (None when the state offers none)."""
    if kind == 'no_change':
        return {'text': no_change_remark(domain, kg, rng), 'remove': [], 'add': [],
                'expect': 'reject', 'reject': kind}
    if kind == 'restatement':
        held = sorted(f for f in kg.facts if not f.numeric and f.args
                      and f.predicate in domain.fluent_predicates())
        if not held:
            return None
        return {'text': speaker.phrasing.say(rng.choice(held), Form.STILL), 'remove': [],
                'add': [], 'expect': 'reject', 'reject': kind}
    # a made-up thing of an existing type, in a report of an action that could happen
    uses, seen = Counter(walker.uses), set(walker.seen)
    step = walker.step(kg, rng)
    walker.uses, walker.seen = uses, seen
    if step is None:
        return None
    changed = sorted(step.update.entities())
    if not changed:
        return None
    real = rng.choice(changed)
    typ = kg.type_of(real) or domain.constants.get(real, '')
    fake = made_up_name(kg, domain, typ, typ in speaker.phrasing.proper, rng)
    swap = {real: fake}
    fake_kg = kg.copy()
    fake_kg.add_entity(fake, typ)

    def moved(fact: Fact) -> Fact:
        return Fact(fact.predicate, tuple(swap.get(a, a) for a in fact.args), fact.value)

    fake_step = Step(step.action, tuple(swap.get(a, a) for a in step.args),
                     Update.of(map(moved, step.update.remove), map(moved, step.update.add)))
    texts = Speaker(domain, fake_kg).wordings(fake_step)
    kind_of = rng.choice(sorted(texts))
    return {'text': texts[kind_of], 'remove': [], 'add': [], 'expect': 'reject',
            'reject': 'unknown_entity', 'wording': kind_of, 'made_up': fake,
            'instead_of': real}


def generate(domain: DomainSchema, kg: KnowledgeGraph, verifier: Verifier, *, n: int = 40,
             seed: int = 0, wordings: int = 2, rejects: float = 0.1) -> Generated:
    """Return ``n`` chained reports on ``kg`` (``kg`` is not changed)."""
    rng = random.Random(seed)
    state = kg.copy()
    walker = Walker(domain, verifier)
    speaker = Speaker(domain, kg)
    n_rejects = min(round(n * rejects), n - 1)
    at = set(rng.sample(range(1, n), n_rejects)) if n_rejects else set()
    kinds = ['unknown_entity', 'no_change', 'restatement']  # in turn, from the first
    reports: list[dict] = []
    last: Update | None = None
    for i in range(n):
        if i in at:
            kind = kinds[sum(r['expect'] == 'reject' for r in reports) % len(kinds)]
            for k in (kind, *kinds):
                rep = _reject(k, state, domain, speaker, walker, rng)
                if rep is not None:
                    reports.append(rep)
                    break
            continue
        step = walker.step(state, rng, last)
        if step is None:
            return Generated(reports, walker.dropped, ended_early=True)
        texts = speaker.wordings(step)
        chosen = rng.sample(sorted(texts), min(max(1, wordings), len(texts)))
        reports.append({'text': texts[chosen[0]], **step.update.to_json(), 'expect': 'apply',
                        'wording': chosen[0], 'action': step.pddl,
                        'variants': [{'kind': k, 'text': texts[k]} for k in chosen]})
        state.apply(step.update)
        last = step.update
    return Generated(reports, walker.dropped)


def _dump(spec: dict) -> str:
    """Return the set as JSON, one report per line."""
    head = {k: v for k, v in spec.items() if k != 'reports'}
    lines = [json.dumps(head, indent=1)[:-2] + ',', ' "reports": [']
    lines += [' ' + json.dumps(r) + (',' if i < len(spec['reports']) - 1 else '')
              for i, r in enumerate(spec['reports'])]
    return '\n'.join([*lines, ' ]', '}']) + '\n'


def main(argv: list[str] | None = None) -> int:
    """Write a generated report set; print its counts."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('domain', type=Path)
    ap.add_argument('state', type=Path, help='an l3mp/kg/v1 snapshot or a PDDL problem file')
    ap.add_argument('--n', type=int, default=40, help='reports in the set (rejects included)')
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--wordings', type=int, default=2, metavar='K',
                    help='wordings kept per report, drawn by the seed (the first is its text)')
    ap.add_argument('--rejects', type=float, default=0.1, help='share of reject cases')
    ap.add_argument('--constraints', type=Path, default=None,
                    help='default: <domain>.constraints.yaml beside the domain, if any')
    ap.add_argument('--out', type=Path, required=True)
    args = ap.parse_args(argv)
    if args.n < 1 or not 0 <= args.rejects < 1 or args.wordings < 1:
        ap.error('--n and --wordings must be at least 1, --rejects in [0, 1)')
    try:
        loaded = compose.load_domain(Config(
            domain=str(args.domain.resolve()), store='', initial_state='',
            constraints=str(args.constraints.resolve()) if args.constraints else ''))
        kg = read_state(str(args.state.resolve()), loaded.schema)
    except (CLIError, OSError, ValueError) as exc:
        print(f'error: {exc}', file=sys.stderr)
        return 2
    kg.domain = kg.domain or loaded.schema.name
    got = generate(loaded.schema, kg, Verifier(loaded.schema, loaded.constraints), n=args.n,
                   seed=args.seed, wordings=args.wordings, rejects=args.rejects)
    out = args.out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    state_file = out.with_suffix('.state.json')
    state_file.write_text(kg.dumps() + '\n')
    constraints = loaded.constraints_path
    if constraints is None:
        constraints = out.with_suffix('.constraints.yaml')
        constraints.write_text(f'# {loaded.path.name} has no constraints file\nrules: []\n')
    spec = {'schema': SCHEMA,
            'about': (f'Generated by benchmarks/generate_reports.py from the actions of '
                      f'{loaded.path} on {args.state.resolve()} (seed {args.seed}). Chained: '
                      "each report is read on the state the gold changes before it left; "
                      "'remove'/'add' is the gold diff (the action's change), both empty for "
                      'a reject case.'),
            'domain': str(loaded.path), 'constraints': str(Path(constraints).resolve()),
            'state': str(state_file), 'chained': True,
            'generator': {'seed': args.seed, 'n': args.n, 'wordings': args.wordings,
                          'rejects': args.rejects, 'state_from': str(args.state.resolve()),
                          **got.counts()},
            'dropped': dict(sorted(got.dropped.items())),
            'reports': got.reports}
    out.write_text(_dump(spec))
    c = got.counts()
    print(f"{out}: {c['reports']} reports ({c['apply']} apply, {c['rejects']} rejects "
          f"{c['reject_kinds']}), {c['dropped']} actions dropped by the verifier"
          + ('; the walk ended early: no applicable action left' if got.ended_early else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
