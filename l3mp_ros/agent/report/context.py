# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What an NL update may state: the JSON schema of one report's answer, and its reading.

``{"facts": [...]}`` states what is true *now*: each item a triplet of one of the domain's
predicates, each argument an enum of the context entities whose type fits that argument
(one ``anyOf`` branch per predicate; a unary fact ends in ``"true"`` or ``"false"``), or
``{"not": f}`` with ``f`` one of the retrieved binary facts (an enum), so removing a fact
that is not there cannot be written. Old values that a new fact replaces are removed by
the domain's rules (:mod:`l3mp_ros.world.complete`).

:func:`report_context` builds a report's :class:`ReportContext`: this grounding, the
report's resolved mentions and how it wrote the things it names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...config import default
from ...llm.handles import Tokenize, TupleHandles, branch_row, shorten_branch, token_pieces
from ...retrieval.base import Retrieval, facts_about
from ...retrieval.mention import Mention
from ...retrieval.mention_lists import candidates, surfaces
from ...text import name_words, same_root, word_root, words
from ...world.kg import FALSE, TRUE, Fact, KGError, KnowledgeGraph, Update
from ...world.model import WorldModel
from ..core.destinations import proper_things
from ..core.grounding import Grounding, fact_item, literal
from .scope import state_words
from .settings import UpdateSettings


@dataclass
class UpdateGrounding(Grounding):
    """The entities and facts one report's answer may use (Algorithm 3)."""

    max_changes: int = default('max_report_facts')  # facts one update may change
    subjects: frozenset[str] | None = None  # who an update may be about (first argument)
    # with ``changes_only``, what the other arguments of an update's facts may be: the
    # entities the report refers to; facts that hold already cannot be written then
    objects: frozenset[str] | None = None
    changes_only: bool = False
    changing: frozenset[str] | None = None  # predicates a report may change (None: all)
    #: the model's tokenizer: the schema then offers short handles of the names
    #: (:mod:`l3mp_ros.llm.handles`) and :meth:`read_update` reads them back
    tokenize: Tokenize | None = None
    _handles: tuple[TupleHandles, TupleHandles] | None = field(default=None, init=False,
                                                               repr=False)

    def about(self) -> frozenset[str]:
        """Return what an answer may be about: the referents when only changes are offered."""
        if not (self.changes_only and self.subjects):
            return frozenset()
        return self.subjects | (self.objects or frozenset())

    def _update_slots(self, pred: str,
                      objects: frozenset[str] | None = None) -> list[list[str]]:
        """Return the entities per argument of ``pred`` an update may use.

        The first argument is limited to :attr:`subjects`, the others to ``objects``.
        """
        slots = [self.slot(pred, i) for i in range(self.domain.predicates[pred].arity)]
        if self.subjects is not None and slots:
            slots[0] = [e for e in slots[0] if e in self.subjects]
        if objects is not None:
            slots[1:] = [[e for e in sl if e in objects] for sl in slots[1:]]
        return slots

    def _fact_schemas(self, exclude: frozenset[Fact] = frozenset()) -> list[dict[str, Any]]:
        """Return one branch per predicate (unary ones end in ``"true"``/``"false"``).

        Facts in ``exclude`` (items a previous answer got wrong) cannot be written: a
        binary predicate's excluded subjects get their own branch without those objects,
        an excluded unary fact's entity is left out of that predicate.
        """
        if self.changes_only:
            return self._change_schemas(exclude)
        out: list[dict[str, Any]] = []
        for name in sorted(self.domain.predicates):
            pred = self.domain.predicates[name]
            slots = self._update_slots(name)
            if any(not s for s in slots):
                continue
            head: dict[str, Any] = {'const': name}
            if pred.arity == 1:
                free = [e for e in slots[0] if Fact(name, (e,)) not in exclude]
                if free:
                    out.append(literal([head, {'enum': free}, {'enum': [TRUE, FALSE]}]))
                continue
            if pred.arity != 2:
                out.append(literal([head, *({'enum': s} for s in slots)]))
                continue
            taken: dict[str, set[str]] = {}
            for f in exclude:
                if f.predicate == name and len(f.args) == 2 and f.args[0] in slots[0]:
                    taken.setdefault(f.args[0], set()).add(f.args[1])
            free = [e for e in slots[0] if e not in taken]
            if free:
                out.append(literal([head, {'enum': free}, {'enum': slots[1]}]))
            for subject in sorted(taken):
                rest = [o for o in slots[1] if o not in taken[subject]]
                if rest:
                    out.append(literal([head, {'const': subject}, {'enum': rest}]))
        return out

    def _change_schemas(self, exclude: frozenset[Fact]) -> list[dict[str, Any]]:
        """Return branches that can only state a change, among the report's referents.

        A unary fact only flips (``"false"`` where it holds, ``"true"`` where it does
        not); a binary fact's object is a referent for which it does not hold yet. Only
        the predicates in :attr:`changing` are offered.
        """
        out: list[dict[str, Any]] = []
        for name in sorted(self.changing or self.domain.predicates):
            pred = self.domain.predicates[name]
            slots = self._update_slots(name, objects=self.objects)
            if any(not sl for sl in slots):
                continue
            head: dict[str, Any] = {'const': name}
            if pred.arity == 1:
                for value, holds in ((TRUE, False), (FALSE, True)):
                    ents = [e for e in slots[0] if (Fact(name, (e,)) in self.kg) == holds
                            and Fact(name, (e,)) not in exclude]
                    if ents:
                        out.append(literal([head, {'enum': ents}, {'const': value}]))
                continue
            if pred.arity != 2:
                out.append(literal([head, *({'enum': sl} for sl in slots)]))
                continue
            for subject in slots[0]:
                free = [o for o in slots[1] if o != subject
                        and Fact(name, (subject, o)) not in self.kg
                        and Fact(name, (subject, o)) not in exclude]
                if free:
                    out.append(literal([head, {'const': subject}, {'enum': free}]))
        return out

    def update_schema(self, exclude: frozenset[Fact] = frozenset(),
                      max_items: int | None = None) -> dict[str, Any]:
        """Return the JSON schema of an update in this context.

        ``{"facts": [...]}``: each item states a fact as it is *now*: a binary fact that
        became true, a unary one with object ``"true"`` or ``"false"``, or
        ``{"not": fact}`` for a listed binary fact that stopped holding. Facts in
        ``exclude`` cannot be written (see :meth:`_fact_schemas`). ``max_items`` overrides
        :attr:`max_items` (fewer for one clause of a report).
        """
        items = self._fact_schemas(exclude)
        binary = [fact_item(f) for f in self._removable(exclude)]
        short = self.handles()
        if short is not None:
            items = [shorten_branch(item, short[0]) for item in items]
            binary = [short[1].short_tuple(b) for b in binary]
        if binary:
            items.append({'type': 'object', 'properties': {'not': {'enum': binary}},
                          'required': ['not'], 'additionalProperties': False})
        limit = self.max_items if max_items is None else max_items
        facts = ({'type': 'array', 'items': {'anyOf': items}, 'maxItems': limit}
                 if items else {'type': 'array', 'maxItems': 0})
        return {'type': 'object', 'properties': {'facts': facts}, 'required': ['facts'],
                'additionalProperties': False}

    def _removable(self, exclude: frozenset[Fact] = frozenset()) -> list[Fact]:
        """Return the listed binary facts a ``{"not": fact}`` may name."""
        return [f for f in self.facts if len(f.args) >= 2 and f not in exclude
                and (self.subjects is None or f.args[0] in self.subjects)]

    def handles(self) -> tuple[TupleHandles, TupleHandles] | None:
        """Return the handles of stated facts and of ``{"not": fact}`` items, or None.

        Made once per context from every branch without exclusions, so that an answer
        asked again with facts barred uses the same handles. None without a tokenizer.
        """
        if self.tokenize is None:
            return None
        if self._handles is None:
            rows = [row for item in self._fact_schemas() if (row := branch_row(item))]
            removed = [fact_item(f) for f in self._removable()]
            pieces = token_pieces(self.tokenize, TupleHandles.names(
                rows + [[[s] for s in t] for t in removed]))
            self._handles = (TupleHandles(rows, pieces), TupleHandles.of_tuples(removed, pieces))
        return self._handles

    def _stated(self, item: object, add: list[Fact], remove: list[Fact], errors: list[str],
                negated: bool = False, strict: bool = True) -> None:
        if isinstance(item, dict):
            low = {str(k).lower(): v for k, v in item.items()}
            if 'not' not in low:
                errors.append(f'item {item!r} is neither a fact nor {{"not": fact}}')
                return
            self._stated(low['not'], add, remove, errors, negated=True, strict=strict)
            return
        false = (isinstance(item, (list, tuple)) and len(item) == 3
                 and (item[2] is False or str(item[2]).lower() == FALSE))
        if false:
            item = [item[0], item[1], TRUE]
        elif isinstance(item, (list, tuple)) and len(item) == 3 and item[2] is True:
            item = [item[0], item[1], TRUE]
        try:
            fact = self._fact(item, 'the')
        except KGError as exc:
            errors.append(str(exc))
            return
        if negated or false:
            if fact not in self.kg:
                if fact not in self.facts and len(fact.args) >= 2:
                    errors.append(f'cannot remove {fact.text()}: it is not one of the facts '
                                  'given')
                    return
                why = self.check_fact(fact)
                if why:
                    errors.append(why)
                return  # already false: nothing to remove
            if fact not in self.facts and len(fact.args) >= 2:
                errors.append(f'cannot remove {fact.text()}: it is not one of the facts given')
                return
            remove.append(fact)
            return
        why = self.check_fact(fact, strict=strict)
        if why:
            errors.append(why)
            return
        add.append(fact)

    def read_update(self, data: object, *, strict: bool = True) -> tuple[Update, list[str]]:
        """Turn a reply into an :class:`Update`; errors for anything outside the context.

        ``strict=False`` checks only that predicates and entities exist. Accepts this
        module's ``{"facts": [...]}``, the paper's ``{"remove": [...], "add": [...]}``
        lists, and the paper's text form ``REMOVE: ... ADD: ...``. Either way, at most
        :attr:`max_changes` facts may change.
        """
        if isinstance(data, str):
            try:
                update, errors = Update.parse(data), []
            except KGError as exc:
                return Update(), [f'could not read the update: {exc}']
        else:
            update, errors = self._read_json(data, strict=strict)
        changes = len(update.add) + len(update.remove)
        if changes > self.max_changes:
            errors.append(f'the update changes {changes} facts; one report may change at '
                          f'most {self.max_changes}')
        return update, errors

    def _read_json(self, data: object, *, strict: bool) -> tuple[Update, list[str]]:
        """Read a JSON reply's items into an :class:`Update` (see :meth:`read_update`)."""
        if not isinstance(data, dict):
            return Update(), ['the reply is not a JSON object {"facts": [...]}']
        lowered = {str(k).lower(): v for k, v in data.items()}
        errors: list[str] = []
        add: list[Fact] = []
        remove: list[Fact] = []
        for key in ('facts', 'add', 'remove'):
            items = lowered.get(key) or []
            if not isinstance(items, list):
                errors.append(f'"{key}" must be a list of [subject, predicate, object]')
                continue
            for item in items:
                if key == 'remove' and not isinstance(item, dict):
                    item = {'not': item}
                elif key == 'facts':
                    item = self._read_back(item)
                self._stated(item, add, remove, errors, strict=strict)
        if 'facts' not in lowered and 'add' not in lowered and 'remove' not in lowered:
            errors.append('the reply has no "facts" list')
        return Update.of(remove, add), errors

    def _read_back(self, item: object) -> object:
        """Return an answer item with the schema's handles read back to whole names."""
        short = self.handles()
        if short is None:
            return item
        if isinstance(item, dict):
            return {k: short[1].full(v) if str(k).lower() == 'not' else v
                    for k, v in item.items()}
        return short[0].full(item)


@dataclass
class ReportContext:
    """What one report's answer may use: the grounding, and whom the report is about."""

    grounding: UpdateGrounding
    mentioned: set[str]  # the entities the report refers to (the relevance rule's subjects)
    written: dict[str, str]  # how the report wrote the entities it settled on
    mentions: list[Mention] = field(default_factory=list)  # the report's resolved mentions

    def referents(self) -> list[str]:
        """Return the entities the report's resolved mentions name, in reading order."""
        return list(dict.fromkeys(m.resolved for m in self.mentions if m.resolved))


# words naming who owns a thing ("belongs to", "owner", "property"), and those saying it
# changes hands for good ("bought", "lent"): English words, no domain's
OWNING = frozenset('own owns owned owner owners belong belongs belonged belonging property '
                   'possess possessed possession'.split())
CHANGING_HANDS = OWNING | frozenset('buy buys bought sell sells sold lend lends lent borrow '
                                    'borrows borrowed keep keeps gift gifted inherit '
                                    'inherited donate donated'.split())


def owning(pred: str) -> bool:
    """Tell whether ``pred`` says who owns a thing (``belongs_to``, ``property_of``)."""
    return bool(OWNING & set(name_words(pred)))


def changing(world: WorldModel, text: str | None = None) -> frozenset[str]:
    """Return the predicates a report may change.

    Those some action changes, those a functional or exclusive rule governs (where a
    person or a thing is: people move things no action of the robot moves), and every
    one-place state (:func:`states`: a form signed, a hose tested, which only reports
    change). Relations nothing changes and no such rule keeps single (who owns what,
    which door joins which room) are not offered when only changes can be written. Given the
    report's ``text``, who owns what is offered only when it says so in words of owning
    or of changing hands ("it belongs to", "bought", "lent"): "Jo's mug", "my locker"
    say whose a thing is, not that it changed hands.
    """
    rules = {p for r in world.constraints.rules
             if r.kind.grouped for p in r.predicates}
    out = (world.domain.fluent_predicates() | rules | states(world)) \
        & set(world.domain.predicates)
    if text is not None and not CHANGING_HANDS & {w.lower() for w in words(text)}:
        out = {p for p in out if not owning(p)}
    return frozenset(out)


def states(world: WorldModel) -> frozenset[str]:
    """Return the one-place predicates no action changes: states only reports change.

    "Jo signed the checklist", "set three's passed its test": a domain whose robot never
    signs or tests declares ``signed`` for what people say, and a state only flips (the
    answer can write it only where it does not hold, or end it where it does). An action
    may read such a state ("the car is checked in" before it boards, "the alarm is set");
    what a thing has (``has_charger`` of a desk, a precondition of charging) is a fixed
    feature, not offered unless a rule changes it.
    """
    text = world.domain.text
    if not text:
        return frozenset()
    changed = world.domain.fluent_predicates()
    return frozenset(n for n, p in world.domain.predicates.items() if p.arity == 1
                     and n not in changed and not _having(n, text))


def _having(predicate: str, text: str) -> bool:
    """Tell whether a predicate's name says what a thing has ("has_charger", "hasOutlet").

    The reader lower-cases names, so the name is looked up as the domain wrote it.
    """
    written = re.search(rf'\(\s*({re.escape(predicate)})[\s)]', text, re.I)
    name = written.group(1) if written else predicate
    return re.match(r'(?:has|have)(?:[_\-]|[A-Z])', name) is not None


def subject_predicates(world: WorldModel) -> frozenset[str]:
    """Return the predicates whose facts change about their first argument.

    Those some action changes, those a functional or exclusive rule keys on the first
    argument (where a person is), and the one-place states (:func:`states`); not
    ``room_has``, which a rule keys on the furniture it places.
    """
    keyed = {p for r in world.constraints.rules
             if r.kind.grouped and r.key == 0 for p in r.predicates}
    return frozenset((world.domain.fluent_predicates() | keyed | states(world))
                     & set(world.domain.predicates))


def update_grounding(world: WorldModel, settings: UpdateSettings, kg: KnowledgeGraph,
                     retrieval: Retrieval, about: Iterable[str] = (),
                     tokenize: Tokenize | None = None,
                     text: str | None = None) -> UpdateGrounding:
    """Return the entities and facts a report's answer may use.

    ``about``: the entities the report refers to (:func:`~l3mp_ros.retrieval.mentions.
    referents`); the answer's facts must be about one of them. Without them, the
    retriever's mentions. The retrieved facts are completed with every changeable
    fact about those entities: a retriever that missed where the remote lies would
    otherwise make "Joshua picked up the remote" impossible to write right. With
    ``tokenize`` (the model's tokenizer) and ``settings.answer_handles``, the answer
    names things by short handles (:mod:`l3mp_ros.llm.handles`). ``text``: the report,
    which says whether who owns what may change (:func:`changing`).
    """
    ranked = retrieval.ranked or sorted(retrieval.entities)
    about = list(about)
    mentioned = about or retrieval.mentioned
    facts = set(retrieval.facts) | facts_about(kg, mentioned or (), subject_predicates(world))
    return UpdateGrounding.build(world.domain, kg, [*about, *ranked], facts,
                                 per_slot=settings.per_slot,
                                 max_changes=settings.max_report_facts,
                                 subjects=frozenset(mentioned) if mentioned else None,
                                 objects=frozenset(about) if about else None,
                                 changes_only=bool(about) and settings.changes_only,
                                 changing=changing(world, text),
                                 tokenize=tokenize if settings.answer_handles else None)


#: words between a verb of state and what it is said of ("locked *the* office"), or between
#: a thing and the state it is in ("the store's *been* locked up")
_BETWEEN = frozenset('the a an my his her their our its your this that is was been has had '
                     'have got now all still just'.split())


def stated_through(world: WorldModel, kg: KnowledgeGraph, text: str,
                   mentions: list[Mention]) -> list[str]:
    """Return what a state said right at a named thing that cannot take it is about.

    "Kofi locked the office up", "the store's been locked": a room is not locked, its
    door is. For a one-place state whose own last word (:func:`.scope.state_words`) is
    said right before a named thing (only little words between) or right after it, when
    the thing's type does not take the state, the one thing tied to it by a fact that
    does (the door joining the office) is what the words are about; none when several are.
    """
    domain = world.domain
    said = [word_root(w) for w in words(text)]
    preds = [p for p in sorted(changing(world, text)) if domain.predicates[p].arity == 1
             and state_words(domain, p)]
    places = world.constraints.place_predicates(exactly=False)
    out: list[str] = []
    for m in mentions:
        e = m.resolved
        kind = kg.entities.get(e) if e else None
        if kind is None:
            continue
        own = {word_root(w) for w in name_words(e)}  # "pitch six" says nothing pitched
        near = [w for w in (_next_word(said, m.start - 1, -1), _next_word(said, m.end, 1))
                if w is not None and w not in own]
        for pred in preds:
            word = state_words(domain, pred)[-1]
            if domain.accepts(pred, 0, kind) or not any(same_root(word, w) for w in near):
                continue
            # tied by what it is (the door joining the room), not by lying in it
            tied = {a for f in kg.facts_of(e) if f.predicate not in places
                    for a in f.args if a != e
                    and (t := kg.entities.get(a)) is not None and domain.accepts(pred, 0, t)}
            if len(tied) == 1 and not tied & {*(m.resolved for m in mentions), *out}:
                out.append(tied.pop())
    return out


def _next_word(said: list[str], k: int, step: int) -> str | None:
    """Return the first word from ``k`` on (going by ``step``) that is not a little word."""
    while 0 <= k < len(said) and said[k] in _BETWEEN:
        k += step
    return said[k] if 0 <= k < len(said) else None


def report_context(world: WorldModel, settings: UpdateSettings, kg: KnowledgeGraph,
                   retrieval: Retrieval, resolved: list[Mention],
                   tokenize: Tokenize | None = None, text: str | None = None) -> ReportContext:
    """Return the context of one report: its retrieval, resolved mentions and grounding.

    The mentions (:meth:`.request.Request.resolve`) ground the answer with
    ``resolve_mentions``; without it the retrieval's mentioned entities do.
    """
    mentions = resolved if settings.resolve_mentions else []
    about = candidates(mentions)
    if text is not None and about:
        about += stated_through(world, kg, text, mentions)
    grounding = update_grounding(world, settings, kg, retrieval, about, tokenize, text)
    mentioned = set(about or retrieval.mentioned)
    return ReportContext(grounding, mentioned,
                         surfaces(mentions, kg.entities, proper_things(world, kg)), mentions)
