# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 3 (L3M+P): NL knowledge-graph updates, grounded, verified and retried.

retrieve (by default the ``link`` retriever: no LLM call) → refuse a report naming
someone no entity carries (:mod:`.clauses`) → resolve the report's mentions to the
entities it refers to (:mod:`l3mp_ros.retrieval.mentions`) → cut the report into the
changes it tells (:func:`.clauses.split_report`) → per part, one prompt whose static part
(role, the domain's predicates, examples derived from the domain) comes first and whose
variable part lists the context's typed entities, its facts and the report → a reply
constrained by a JSON schema built for this context (:mod:`.grounding`: with referents,
only changes among them, i.e. facts that do not hold yet and unary facts flipped;
otherwise ADD items typed per predicate signature; REMOVE items chosen among the retrieved
facts) → the domain's rules finish the update (:mod:`l3mp_ros.world.complete`: removals a
functional or exclusive rule forces, no-op ADDs dropped with a note) → semantic checks
(every stated fact is about something the report mentions, and about something its part
names) → verify → re-prompt with the error sentences (bounded) → facts saying different
things of one thing settled by a numbered choice asked in both orders → a yes/no reading of
each stated fact, entities written as the report wrote them → the parts' updates compose in
order (a part with no change keeps the whole report out) → apply atomically with
provenance, or reject and record why. Nothing unverified is applied (with
``verify=False``, the paper's ablation, only applicability is checked, without retries).
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..llm.prompting import ask_choice, ask_yes_no, yes_probability
from ..llm.protocol import ChatLLM, LLMError, Usage, llm_failure
from ..retrieval.base import Retrieval, Retriever, facts_about
from ..retrieval.link import name_words, named_fully, named_in, words
from ..retrieval.mentions import candidates, resolve, surfaces
from ..world.complete import Completion, complete
from ..world.kg import Fact, Update
from ..world.model import WorldModel
from . import clarify
from .clauses import (
    NOUN_STARTERS,
    SUBJECT_PRONOUNS,
    SUBORDINATORS,
    goes_somewhere,
    split_report,
    unknown_names,
)
from .examples import system_for
from .grounding import grounded_message
from .update_grounding import UpdateGrounding
from .wording import say

if TYPE_CHECKING:
    from ..memory.hooks import Memory

NO_CHANGE = 'the report states no change that the domain can represent'
RESTATED = 'every fact of the answer already holds: no change to apply'
# words by which a part points back at what earlier parts named: "opened it", "in there"
POINTING_BACK = frozenset({'it', 'its', 'them', 'they', 'their', 'there'})
# a part that may say nothing new: "X is still in the office", "as always"
STATIVE = re.compile(r'\b(still|as always|as usual|remains?|remained|stays?|stayed)\b', re.I)


@dataclass
class UpdateOutcome:
    """Result of one NL update."""

    text: str
    applied: bool = False
    update: Update | None = None
    errors: list[str] = field(default_factory=list)
    attempts: int = 0
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    retrieval_seconds: float = 0.0
    event_id: int | None = None
    context_size: int = 0
    implied: list[tuple[Fact, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)  # model, endpoint, reply hash
    history: list[dict[str, Any]] = field(default_factory=list)
    #: the report waits for the speaker to say which thing it means (:mod:`.clarify`)
    question: str | None = None
    clarify: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {'text': self.text, 'applied': self.applied,
                'diff': self.update.to_json() if self.update else None,
                'implied': [{'fact': list(f.triplet()), 'rule': r} for f, r in self.implied],
                'notes': self.notes, 'errors': self.errors, 'attempts': self.attempts,
                'usage': self.usage.to_dict(), 'seconds': round(self.seconds, 4),
                'retrieval_seconds': round(self.retrieval_seconds, 4),
                'event_id': self.event_id, 'context_size': self.context_size,
                'question': self.question, 'clarify': self.clarify,
                'history': self.history}


def changed_before(kg: Any, stated: Update) -> bool:
    """Return whether a restating part repeats what an earlier part changed in ``kg``."""
    return any(f not in kg for f in stated.add) or any(f in kg for f in stated.remove)


def own_content(kg: Any, part: str, done: Iterable[Completion]) -> set[str]:
    """Return the entities ``part`` names in full that no earlier part's change touched.

    A part that only repeats an earlier change ("... and has stopped", "... and turned
    off the light") names nothing new; "... and opened the tap of the kitchen sink" does,
    so a restatement cannot stand for it.
    """
    touched = {a for c in done for f in c.update.remove | c.update.add for a in f.args}
    return named_fully(kg.entities, part) - touched


def irrelevant(update: Update, mentioned: set[str]) -> set[Fact]:
    """Return the stated facts whose subject the report does not mention.

    The subject is a fact's first argument: the thing that moved, the person who went
    somewhere, the lamp switched on. None when nothing was linked.
    """
    if not mentioned:
        return set()
    return {f for f in update.remove | update.add if f.args and f.args[0] not in mentioned}


def relevance_errors(facts: set[Fact]) -> list[str]:
    """Return a sentence for each fact about something the report does not mention."""
    return [f'{f.text()} is about {f.args[0]}, which the report does not mention; '
            'change only what the report talks about' for f in sorted(facts)]


@dataclass
class PartScope:
    """What one part of a report can be about.

    A part with its own subject ("Sven went to the lab") must state facts about something
    it names; a part whose subject is elsewhere ("went to the lab", "hung them up") must
    state facts with at least one argument it names; a part naming nothing ("it works
    now") is not checked.
    """

    text: str
    named: set[str]
    own_subject: bool

    def outside(self, update: Update) -> set[Fact]:
        """Return the facts this part cannot be the source of."""
        if not self.named:
            return set()
        facts = update.remove | update.add
        if self.own_subject:
            return {f for f in facts if f.args and f.args[0] not in self.named}
        return {f for f in facts if not self.named & set(f.args)}


def part_scope(kg: Any, part: str, mentioned: Iterable[str] = (),
               earlier: Iterable[str] = ()) -> PartScope:
    """Return the scope of one part of a report.

    Besides what the part names by its words, a report mention whose head noun the part
    uses counts ("Victor switched the light off" after "going to Martin's bedroom": the
    report's linking resolved "the light" to martin_bedroom_light), and, when the part
    points back with "it", "them" or "there", what the earlier parts named or changed
    (``earlier``: "... and opened it on the bench" is about the bottle taken before).
    """
    first = part.split()[0] if part.split() else ''
    low = first.lower().split("'")[0]
    own = bool(first) and (first[:1].isupper() or low in NOUN_STARTERS) \
        and low not in SUBJECT_PRONOUNS and low not in SUBORDINATORS
    present = set(words(part))
    heads = {m for m in mentioned if kg.has_entity(m) and (
        (name_words(m) or [''])[-1] in present
        or (name_words(kg.entities[m]) or [''])[-1] in present)}
    tokens = {t.lower() for t in re.findall(r'[A-Za-z]+', part)}
    back = set(earlier) if tokens & POINTING_BACK else set()
    return PartScope(part, named_in(kg, part) | heads | back, own)


@dataclass(frozen=True)
class Going:
    """A report (part) telling that its subject went somewhere: where it is must change."""

    subject: str
    words: str  # the verb of going as written: "came into"
    places: frozenset[str]  # the predicates that say where the subject is

    def missing(self, stated: Update) -> bool:
        """Tell whether ``stated`` says nothing of where the subject is now."""
        return not any(f.args and f.args[0] == self.subject and f.predicate in self.places
                       for f in stated.add)

    def error(self) -> str:
        """Return the sentence that asks for the missing change."""
        return (f'the report says {self.subject} {self.words} somewhere: state where '
                f'{self.subject} is now')


def _said(text: str, part: str | None) -> str:
    """Return the head of a read-back question: the report, and the part asked about."""
    return f'Report: {" ".join(text.split())}\n' + (f'Part: {part}\n' if part else '')


@dataclass
class ReportContext:
    """What one report's answer may use: the grounding, and whom the report is about."""

    grounding: UpdateGrounding
    mentioned: set[str]  # the entities the report refers to (the relevance rule's subjects)
    written: dict[str, str]  # how the report wrote the entities it settled on
    mentions: list[Any] = field(default_factory=list)  # the report's resolved mentions


#: the least P(yes) / (P(yes) + P(no)) of a read-back "yes" (when the endpoint returns
#: token probabilities); see docs/decisions.md for its calibration
CONFIRM_MIN_YES = 0.0


class NLUpdater:
    """Run Algorithm 3 against a world model."""

    def __init__(self, world: WorldModel, llm: ChatLLM, retriever: Retriever, *,
                 max_attempts: int = 3, verify: bool = True, max_tokens: int = 200,
                 max_changes: int = 8, max_stated: int = 5, max_per_part: int = 3,
                 per_slot: int = 30,
                 split_clauses: bool = True, confirm: bool = True,
                 resolve_mentions: bool = True, changes_only: bool = True,
                 ask_back: bool = True, clarify_timeout: float = 300.0,
                 confirm_min_yes: float = CONFIRM_MIN_YES,
                 memory: Memory | None = None) -> None:
        self.world = world
        self.memory = memory  # l3mp_ros.memory.hooks.Memory or None (off)
        self.llm = llm
        self.retriever = retriever
        self.max_attempts = max(1, max_attempts)
        self.verify = verify
        self.max_tokens = max_tokens
        self.max_changes = max_changes
        self.max_stated = max_stated
        # one clause seldom states more; a small model pads its answer with repeats up to
        # the schema's limit, each costing generation time
        self.max_per_part = max(1, min(max_per_part, max_stated))
        self.per_slot = per_slot
        self.split_clauses = split_clauses
        self.confirm = confirm
        self.confirm_min_yes = confirm_min_yes  # least P(yes) a read-back "yes" needs
        self.resolve_mentions = resolve_mentions
        self.changes_only = changes_only
        self.ask_back = ask_back  # keep a report pending and ask when its referent is a guess
        self.clarify_timeout = clarify_timeout
        self._system: str | None = None

    def system(self) -> str:
        """Return the static system prompt (built once from the domain)."""
        if self._system is None:
            self._system = system_for('update', self.world.domain, self.world.constraints)
        return self._system

    def changing(self) -> frozenset[str]:
        """Return the predicates a report may change.

        Those some action changes, and those a functional or exclusive rule governs
        (where a person or a thing is: people move things no action of the robot moves).
        Relations nothing changes and no such rule keeps single (who owns what, which
        door joins which room) are not offered when only changes can be written.
        """
        rules = {p for r in self.world.constraints.rules
                 if r.kind in ('functional', 'exclusive') for p in r.predicates}
        return frozenset((self.world.domain.fluent_predicates() | rules)
                         & set(self.world.domain.predicates))

    def subject_predicates(self) -> frozenset[str]:
        """Return the predicates whose facts change about their first argument.

        Those some action changes, and those a functional or exclusive rule keys on the
        first argument (where a person is); not ``room_has``, which a rule keys on the
        furniture it places.
        """
        keyed = {p for r in self.world.constraints.rules
                 if r.kind in ('functional', 'exclusive') and r.key == 0 for p in r.predicates}
        return frozenset((self.world.domain.fluent_predicates() | keyed)
                         & set(self.world.domain.predicates))

    def going(self, kg: Any, text: str) -> Going | None:
        """Return the subject of ``text`` when it tells that this subject went somewhere.

        The subject is the report's first mention (within its first three words, before a
        verb of going, one candidate); it counts when a functional rule keyed on it keeps
        where it is (a person, a thing, the robot), so the answer must move it.
        """
        verb = goes_somewhere(text)
        if verb is None:
            return None
        at = len(words(text[:text.lower().find(verb.lower())]))
        first = next((m for m in resolve(kg, text, steady=self.world.domain.static_predicates())
                      if m.candidates), None)
        if first is None or first.start > 2 or first.end > at or first.resolved is None:
            return None
        subject, domain = first.resolved, self.world.domain
        kind = kg.entities.get(subject)
        places = frozenset(
            p for r in self.world.constraints.rules
            if r.kind == 'functional' and r.key == 0 and kind is not None
            and (not r.types or domain.is_subtype(kind, tuple(r.types)))
            for p in r.predicates if p in domain.predicates
            and len(domain.predicates[p].params) == 2
            and domain.is_subtype(kind, domain.predicates[p].params[0][1]))
        return Going(subject, verb, places) if places else None

    def grounding(self, kg: Any, retrieval: Retrieval,
                  about: Iterable[str] = ()) -> UpdateGrounding:
        """Return the entities and facts this report's answer may use.

        ``about``: the entities the report refers to (:func:`~l3mp_ros.retrieval.mentions.
        referents`); the answer's facts must be about one of them. Without them, the
        retriever's mentions. The retrieved facts are completed with every changeable
        fact about those entities: a retriever that missed where the remote lies would
        otherwise make "Joshua picked up the remote" impossible to write right.
        """
        ranked = retrieval.info.get('ranked') or sorted(retrieval.entities)
        about = list(about)
        mentioned = about or retrieval.info.get('mentioned')
        facts = set(retrieval.facts) | facts_about(kg, mentioned or (),
                                                   self.subject_predicates())
        return UpdateGrounding.build(self.world.domain, kg, [*about, *ranked], facts,
                               per_slot=self.per_slot, max_items=self.max_stated,
                               max_changes=self.max_changes,
                               subjects=frozenset(mentioned) if mentioned else None,
                               objects=frozenset(about) if about else None,
                               changes_only=bool(about) and self.changes_only,
                               changing=self.changing())

    def context(self, kg: Any, text: str, retrieval: Retrieval) -> ReportContext:
        """Return the context of one report: retrieval, mention resolution, grounding."""
        mentions = (resolve(kg, text, steady=self.world.domain.static_predicates())
                    if self.resolve_mentions else [])
        about = candidates(mentions)
        grounding = self.grounding(kg, retrieval, about)
        mentioned = set(about or retrieval.info.get('mentioned') or ())
        return ReportContext(grounding, mentioned, surfaces(mentions), mentions)

    def run(self, text: str, *, source: str = 'nl',
            retrieval: Retrieval | None = None) -> UpdateOutcome:
        """Update the KG from one report; never raises for LLM or input errors."""
        began = time.perf_counter()
        out = UpdateOutcome(text=text)
        text = (text or '').strip()
        if not text:
            out.errors = ['empty report']
            return self._finish(out, began, source, None)
        kg = self.world.snapshot()
        lexicon = {w for n in kg.entities for w in name_words(n)}
        unknown = unknown_names(text, lexicon) if self.verify else []
        if unknown:  # refused before any retrieval or LLM work
            out.errors = [f'the report names {", ".join(map(repr, unknown))}, which no entity '
                          'of the world model carries (a new entity is added with kg apply, '
                          'not from a report)']
            return self._finish(out, began, source, text)
        try:
            if retrieval is None:
                retrieval = self.retriever.retrieve(kg, text, self.llm)
        except LLMError as exc:
            out.errors = [llm_failure(exc, 'retrieval')]
            return self._finish(out, began, source, None)
        out.retrieval_seconds = retrieval.seconds
        out.usage.prompt_tokens += retrieval.prompt_tokens
        out.usage.completion_tokens += retrieval.completion_tokens
        out.usage.calls += 1 if (retrieval.prompt_tokens or retrieval.llm_seconds) else 0
        ctx = self.context(kg, text, retrieval)
        grounding, mentioned, written = ctx.grounding, ctx.mentioned, ctx.written
        out.context_size = len(grounding.facts)
        recalled = (self.memory.update_context(text, retrieval.facts)
                    if self.memory is not None else '')
        system = {'role': 'system', 'content': self.system()}
        parts = split_report(text, lexicon) if self.split_clauses else [text]
        work = kg
        completions: list[Completion] = []
        errors: list[str] = []
        completion: Completion | None = None
        restated = False
        several = len(parts) > 1
        earlier: set[str] = set()  # what the parts before this one named or changed
        for part in parts:
            ask = [system, {'role': 'user', 'content': recalled + grounded_message(
                kg, grounding.entities, grounding.facts, 'Report', part if several else text,
                whole=text if several else None)}]
            scope = (part_scope(kg, part, mentioned, earlier) if several and self.verify
                     else None)
            going = self.going(kg, part if several else text) if self.verify else None
            earlier |= named_in(kg, part)
            completion, errors, kind = self._ask(ask, grounding, work, mentioned, out,
                                                 part=scope, going=going)
            if (several and kind == 'restated' and completion is not None and completions
                    and self.verify and not STATIVE.search(part)
                    and changed_before(kg, completion.asked)
                    and own_content(kg, part, completions)):
                # the part names something no earlier part changed, yet the answer repeats
                # an earlier part's change: asked once more, those changes cannot be written
                done = frozenset(f for c in completions for f in c.update.add | c.update.remove)
                completion, errors, kind = self._ask(ask, grounding, work, mentioned, out,
                                                     part=scope, exclude=done, going=going)
                if completion is not None:
                    completion.notes.append(f'the first answer for "{part}" repeated an '
                                            "earlier part's change; asked again without it")
            if several and kind == 'no_change':
                if STATIVE.search(part):
                    errors = []  # "X is still in the office": nothing to change, as said
                    continue
                errors = [f'no change found for the part "{part}" of the report; '
                          'nothing is applied (a partial update would be wrong)']
            elif several and kind == 'restated' and completion is not None and (
                    STATIVE.search(part) or (changed_before(kg, completion.asked)
                                             and not own_content(kg, part, completions))):
                restated, errors = True, []
                continue  # the part repeats what holds ("still") or an earlier part did
            if not errors and completion is not None and self.confirm and self.verify:
                asked = part if several else None
                read: dict[str, bool] = {}  # read-back answers, by statement
                completion, errors, denied = self._read_back(text, asked, completion, work,
                                                             out, written, read)
                if denied:
                    # the answer added a fact the report does not say ("repaired" → also
                    # "the room is no longer lit"): asked once more with those facts
                    # barred; the new answer must pass the same read-back
                    again, again_errors, _ = self._ask(
                        ask, grounding, work, mentioned, out, part=scope,
                        exclude=frozenset(denied), going=going)
                    if again is not None and not again_errors:
                        again, again_errors, _ = self._read_back(text, asked, again, work,
                                                                 out, written, read)
                    if again is not None and not again_errors:
                        completion, errors = again, []
                        completion.notes.extend(
                            f'asked again without {f.text()}: the report does not say it'
                            for f in sorted(denied))
            if errors or completion is None:
                break
            completions.append(completion)
            earlier |= {a for f in completion.update.remove | completion.update.add
                        for a in f.args}
            work = work.copy()
            work.apply(completion.update)
        if errors:
            if completion is not None:
                out.update = completion.update
                out.implied = list(completion.implied)
                out.notes = list(completion.notes) + list(grounding.notes)
        elif not completions:
            errors = [RESTATED if restated else NO_CHANGE]
        else:
            net = kg.diff_to(work)
            out.update = net
            out.implied = [(f, r) for c in completions for f, r in c.implied
                           if f in net.remove]
            out.notes = [n for c in completions for n in c.notes] + list(grounding.notes)
            if several:
                out.notes.append(f'report read in {len(parts)} parts: ' + ' | '.join(parts))
            if self.ask_back and self.verify:
                stated = [c.stated for c in completions]
                doubt = clarify.doubt(kg, ctx.mentions, stated, self.world)
                if doubt is not None:
                    out.question = doubt.question()
                    out.clarify = {**doubt.to_json(), 'text': text,
                                   'stated': [u.to_json() for u in stated],
                                   'expires': time.time() + self.clarify_timeout}
                    errors = [f'the report does not say which {doubt.mention} it means; '
                              f'asked: {out.question}']
        out.errors = errors
        return self._finish(out, began, source, text)

    # -- asking back (:mod:`.clarify`) ------------------------------------------------
    def expire(self, now: float | None = None, source: str = 'nl') -> list[int]:
        """Log every question past its time as not applied; return their event ids."""
        done = []
        for qid, data in clarify.expired(self.world, now):
            self.world.reject(
                [f'no answer to "{data.get("question", "")}" in time: the report was not '
                 'applied'], source=source, utterance=data.get('text'),
                info={'clarifies': qid, 'expired': True})
            done.append(qid)
        return done

    def pending(self) -> tuple[int, dict[str, Any]] | None:
        """Return (event id, question) of the open question, if any."""
        self.expire()
        return clarify.open_question(self.world)

    def answers(self, text: str) -> bool:
        """Tell whether ``text`` answers the open question (no LLM call)."""
        open_ = self.pending()
        return open_ is not None and clarify.pick(
            self.world.snapshot(), open_[1].get('options') or [], text) is not None

    def answer(self, text: str, *, source: str = 'nl') -> UpdateOutcome | None:
        """Complete the open question's report with ``text``; None if it does not answer.

        The stated change is redone with the chosen thing, completed and verified on the
        graph as it is now, then applied (or rejected) with ``info.clarifies``.
        """
        began = time.perf_counter()
        open_ = self.pending()
        if open_ is None:
            return None
        qid, data = open_
        kg = self.world.snapshot()
        chosen = clarify.pick(kg, data.get('options') or [], text)
        if chosen is None:
            return None
        report = str(data.get('text') or '')
        out = UpdateOutcome(text=report)
        info: dict[str, Any] = {'clarifies': qid, 'answer': text}
        utterance = f'{report} [{text.strip()}]'
        if chosen == clarify.CANCEL:
            out.errors = ['the speaker withdrew the report: nothing is applied']
            res = self.world.reject(out.errors, source=source, utterance=utterance, info=info)
        else:
            stated = [Update.from_json(u) for u in data.get('stated') or []]
            net, errors = clarify.substituted(kg, stated, str(data.get('chosen')), chosen,
                                              self.world)
            info['chosen'] = chosen
            out.update = net
            out.errors = [f'with {chosen} the report no longer fits the world model: '
                          + '; '.join(errors)] if net is None else []
            if net is None:
                res = self.world.reject(out.errors, source=source, utterance=utterance,
                                        info=info)
            else:
                res = self.world.apply(net, source=source, utterance=utterance,
                                       verify=True, info=info)
                out.errors = res.errors
        out.applied, out.event_id = res.applied, res.event_id
        out.seconds = time.perf_counter() - began
        return out

    def _choose(self, text: str, part: str | None, completion: Completion, kg: Any,
                out: UpdateOutcome, written: dict[str, str] | None = None
                ) -> tuple[Completion, list[str]]:
        """Settle answers that say several different things about one thing; return errors.

        One clause seldom moves a thing *and* changes its state, or hands it over *and*
        gives it a new owner; a small model often adds such a second fact ("capped the
        tube" → sealed and held by Lena), and a yes/no reading of each, asked alone, agrees
        to both. Facts about one subject with different predicates, none implied by
        another through the rules, are put side by side: the model picks the one the
        report says, asked twice in opposite orders. The others are dropped when both
        picks agree; when they do not, nothing is applied.
        """
        stated = completion.stated
        said = _said(text, part)
        by_subject: dict[str, list[Fact]] = {}
        for fact in sorted(stated.add | stated.remove):
            if fact.args:
                by_subject.setdefault(fact.args[0], []).append(fact)
        dropped: dict[Fact, Fact] = {}
        for group in by_subject.values():
            group = self._independent(group, stated, kg)
            if len({f.predicate for f in group}) < 2:
                continue
            claims = [say(f, removed=f in stated.remove, domain=self.world.domain,
                          names=written) for f in group]
            picks = []
            for order in (list(range(len(group))), list(reversed(range(len(group))))):
                try:
                    k, reply = ask_choice(self.llm, 'choose', said, [claims[i] for i in order])
                except LLMError as exc:
                    return completion, [llm_failure(exc, 'choice')]
                out.usage.add(reply)
                picks.append(order[k] if k >= 0 else -1)
                out.history.append({'choose': [claims[i] for i in order],
                                    'reply': (reply.text or '')[:200]})
            if picks[0] < 0 or picks[0] != picks[1]:
                return completion, [f'the answer says {" and ".join(claims)}; asked which one '
                                    'the report says, the model does not settle on one; '
                                    'nothing is applied']
            dropped.update({f: group[picks[0]] for f in group if f != group[picks[0]]})
        if not dropped:
            return completion, []
        kept = Update.of(stated.remove - set(dropped), stated.add - set(dropped))
        settled = complete(kg, kept, self.world.constraints, self.world.domain)
        settled.notes.extend(f'dropped {f.text()}: asked which one the report says, the model '
                             f'chose {chosen.text()}' for f, chosen in sorted(dropped.items()))
        return settled, self.world.verifier.check(kg, settled.update)

    def _independent(self, group: list[Fact], stated: Update, kg: Any) -> list[Fact]:
        """Return the facts of ``group`` that no other fact of it implies by the rules.

        "held by Theo" implies "no longer kept in the fridge" (one place per item), and a
        ``requires`` rule ties "on the shelf" to "on shelf level 2", added or removed
        together: stating both is one change, not two.
        """
        implied: set[Fact] = {  # tied by a requires rule: both added, or both removed
            g for r in self.world.constraints.rules for f in group for g in group
            if g != f and (f in stated.add) == (g in stated.add) and r.ties(f, g)}
        for fact in group:
            alone = Update.of([fact] if fact in stated.remove else [],
                              [fact] if fact in stated.add else [])
            done = complete(kg, alone, self.world.constraints, self.world.domain).update
            implied |= {g for g in group if g != fact and (
                g in done.remove if g in stated.remove else g in done.add)}
        return [f for f in group if f not in implied]

    def _read_back(self, text: str, part: str | None, completion: Completion, kg: Any,
                   out: UpdateOutcome, written: dict[str, str] | None,
                   read: dict[str, bool]) -> tuple[Completion, list[str], set[Fact]]:
        """Check an answer against the report: choice, then yes/no per fact.

        Return (completion, errors, denied): ``denied`` are the stated facts the yes/no
        reading rejected (empty when the choice failed, the LLM failed or all were read).
        """
        completion, errors = self._choose(text, part, completion, kg, out, written)
        if errors:
            return completion, errors, set()
        errors, denied = self._confirm(text, part, completion, out, written, read)
        return completion, errors, denied

    def _confirm(self, text: str, part: str | None, completion: Completion,
                 out: UpdateOutcome, written: dict[str, str] | None = None,
                 read: dict[str, bool] | None = None) -> tuple[list[str], set[Fact]]:
        """Ask, fact by fact, whether the report says what the answer stated.

        Return (errors, denied facts); ``read`` keeps answers by statement, so a second
        answer is not asked again about a statement already read.

        A second, independent yes/no reading: a small model that wrote a plausible but
        unsaid fact ("almost empty" → no longer sealed) usually denies it when asked.
        Entities the report's words settled (``written``) are put as the report wrote
        them ("the goggles", not "safety goggles 1"): which thing is meant was decided
        by mention resolution; the model judges only what happened to it.
        """
        errors: list[str] = []
        denied: set[Fact] = set()
        read = {} if read is None else read
        said = _said(text, part)
        stated = completion.stated
        for fact in sorted(stated.add | stated.remove):
            claim = say(fact, removed=fact in stated.remove, domain=self.world.domain,
                        names=written)
            if claim not in read:
                try:
                    yes, reply = ask_yes_no(self.llm, 'confirm',
                                            f'{said}Statement: {claim}\nAnswer:')
                except LLMError as exc:
                    return [llm_failure(exc, 'confirmation')], set()
                out.usage.add(reply)
                p_yes = yes_probability(reply)
                out.history.append({'confirm': claim, 'reply': (reply.text or '')[:200],
                                    'fact': list(fact.triplet()),
                                    'removed': fact in stated.remove, 'p_yes': p_yes})
                # a hesitant yes is no: the model's own odds must clear the calibrated bar
                read[claim] = yes and (p_yes is None or p_yes >= self.confirm_min_yes)
            if not read[claim]:
                denied.add(fact)
                errors.append(f'asked again, the model does not read "{claim}" in the report; '
                              'nothing is applied')
        return errors, denied

    def _ask(self, messages: list[dict[str, str]], grounding: UpdateGrounding, kg: Any,
             mentioned: set[str], out: UpdateOutcome, part: PartScope | None = None,
             exclude: frozenset[Fact] = frozenset(), going: Going | None = None
             ) -> tuple[Completion | None, list[str], str]:
        """Ask for one answer, re-prompting with errors; return (completion, errors, kind).

        ``kind`` is ``ok``, ``no_change`` (empty answer), ``restated`` (everything stated
        already holds in ``kg``) or ``error``. With ``part``, stated facts must be about
        what that part names (see :func:`part_scope`). Facts in ``exclude`` cannot be
        written.
        """
        excluded: set[Fact] = set(exclude)  # items an earlier answer got wrong
        completion: Completion | None = None
        errors: list[str] = []
        attempts = self.max_attempts if self.verify else 1
        for attempt in range(1, attempts + 1):
            out.attempts += 1
            try:
                reply = self.llm.chat(messages, schema=grounding.update_schema(
                    frozenset(excluded), self.max_per_part if part is not None else None),
                    schema_name='kg_update', max_tokens=self.max_tokens)
            except LLMError as exc:
                return None, [llm_failure(exc)], 'error'
            out.usage.add(reply)
            out.provenance = {
                'model': getattr(getattr(self.llm, 'config', None), 'model', None),
                'endpoint': getattr(self.llm, 'base_url', None),
                'reply_sha256': hashlib.sha256((reply.text or '').encode()).hexdigest()}
            stated, errors = grounding.read_update(
                reply.data if reply.data is not None else reply.text, strict=self.verify)
            completion = None
            if not errors:
                completion = complete(kg, stated, self.world.constraints, self.world.domain)
                if stated.is_empty():
                    errors = [NO_CHANGE]
                    out.history.append({'attempt': attempt, 'reply': reply.text[:2000],
                                        'errors': list(errors)})
                    return None, errors, 'no_change'
                if completion.update.is_empty():
                    # Everything stated already holds: the report restates the graph (or
                    # the model could not say the change). A re-prompt pushed a small model
                    # into inventing a change, so this ends here, as a rejection.
                    errors = [RESTATED] + list(completion.notes)
                    out.history.append({'attempt': attempt, 'reply': reply.text[:2000],
                                        'errors': list(errors)})
                    return completion, errors, 'restated'
                else:
                    off = irrelevant(completion.stated, mentioned) if self.verify else set()
                    errors = relevance_errors(off)
                    if part is not None and not errors:
                        off = part.outside(completion.stated)
                        kept = Update.of(completion.stated.remove - off,
                                         completion.stated.add - off)
                        trimmed = complete(kg, kept, self.world.constraints,
                                           self.world.domain) if off else None
                        if trimmed is not None and not trimmed.update.is_empty():
                            # keep what this part says, drop what belongs elsewhere
                            completion = trimmed
                            completion.notes.extend(
                                f'dropped {f.text()}: not about anything "{part.text}" names'
                                for f in sorted(off))
                        else:
                            errors = [f'{f.text()} is not about anything "{part.text}" '
                                      'names; answer only what this part says'
                                      for f in sorted(off)]
                    excluded |= off
                    if not errors and going is not None and going.missing(completion.stated):
                        # "Bob came into the mailroom" answered with the mailroom door only:
                        # a partial update would be applied as if it were the whole
                        errors = [going.error()]
                    if not errors and self.verify:
                        errors = self.world.verifier.check(kg, completion.update)
            out.history.append({'attempt': attempt, 'reply': reply.text[:2000],
                                'errors': list(errors)})
            if not errors:
                return completion, [], 'ok'
            messages = messages + [
                {'role': 'assistant', 'content': reply.text},
                {'role': 'user', 'content': 'Your answer has errors:\n- ' + '\n- '.join(errors)
                 + '\nAnswer again with the corrected JSON.'}]
        return completion, errors, 'error'

    def _finish(self, out: UpdateOutcome, began: float, source: str,
                utterance: str | None) -> UpdateOutcome:
        info: dict[str, Any] = {'attempts': out.attempts, 'usage': out.usage.to_dict()}
        info.update(out.provenance)
        if out.implied or out.notes:
            info['implied'] = [{'fact': list(f.triplet()), 'rule': r} for f, r in out.implied]
            info['notes'] = list(out.notes)
        if out.clarify is not None:
            info['clarify'] = out.clarify
            res = self.world.reject(out.errors, source=source, utterance=utterance or out.text,
                                    update=out.update, info=info, status='clarify')
        elif out.errors or out.update is None:
            res = self.world.reject(out.errors or ['no update produced'], source=source,
                                    utterance=utterance or out.text, update=out.update,
                                    info=info)
        else:
            res = self.world.apply(out.update, source=source, utterance=utterance,
                                   verify=self.verify, info=info)
            out.errors = res.errors
        out.applied = res.applied
        out.event_id = res.event_id
        out.seconds = time.perf_counter() - began
        return out
