# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What Algorithm 3 reads a report with, and the judge of one part's answer.

:class:`UpdateSettings` (the updater's knobs), :class:`UpdateOutcome` (what one report
came to), :class:`Reading` (the state the part loop carries, on the
:class:`~.update_grounding.ReportContext`) and
:class:`PartQuestion`: one part's prompt and the judge of its answers for the loop of
:mod:`.attempts` (read the reply, complete it by the domain's rules, keep it to what the
report and its part are about, verify).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...llm.protocol import ChatLLM, LLMReply
from ...retrieval.link import named_in
from ...retrieval.mention_lists import owners_only
from ...text import words
from ...world.complete import Completion, complete, needed
from ...world.events import EventStatus
from ...world.kg import Fact, KnowledgeGraph, Update
from ...world.model import WorldModel
from ..core.asking import confidence, read_odds
from ..core.attempts import Attempts, Chat, Judged, Messages, Trace, Traced, Verdict
from ..core.clauses import goes_somewhere
from ..core.destinations import coming_to, settled_places
from ..core.grounding import grounded_message
from ..core.request import Request
from ..core.rulings import Act, Check, Ruling, run
from ..core.slot_odds import FactOdds, ReplyOdds, fact_of, reply_odds
from .context import ReportContext
from .scope import STATIVE, Scope, changed_before, own_content, part_scope
from .settings import UpdateSettings
from .stative import in_request
from .subjects import GoingSubject, going, leading_subject, part_actor, place_ahead

# one clause seldom states more; a small model pads its answer with repeats up to the
# schema's limit, each costing generation time
MAX_PER_PART = 3
UPDATE_TOKENS = 200  # tokens one answer may take
NO_CHANGE = 'the report states no change that the domain can represent'
RESTATED = 'every fact of the answer already holds: no change to apply'


@dataclass
class UpdateOutcome(Traced):
    """Result of one NL update."""

    text: str
    applied: bool = False
    update: Update | None = None
    errors: list[str] = field(default_factory=list)
    trace: Trace = field(default_factory=Trace)  # attempts, usage, history, provenance
    seconds: float = 0.0
    retrieval_seconds: float = 0.0
    event_id: int | None = None
    context_size: int = 0
    implied: list[tuple[Fact, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: the report waits for the speaker to say which thing it means (:mod:`.clarify`)
    question: str | None = None
    clarify: dict[str, Any] | None = None
    #: the reading's confidence from the read-back's odds (:func:`.asking.confidence`);
    #: None when nothing was read back with odds
    confidence: float | None = None
    #: what the report said that held already (a restatement: "already so")
    already: list[Fact] = field(default_factory=list)
    #: the reading's score from its answers' own slot odds (:mod:`..core.slot_odds`): the
    #: least of its stated facts' and of each answer's stop; None without log-probabilities
    slot_odds: float | None = None
    #: per stated fact of the reading, its odds (JSON: item, p, slots with runners-up)
    fact_odds: list[dict[str, Any]] = field(default_factory=list)
    #: things the report names (resolved, not a description of another) that no fact of
    #: the reading names: a reading that may leave part of the report out
    unaccounted: list[str] = field(default_factory=list)
    #: the parts the report was cut into, and how many of them changed something
    parts: int = 0
    parts_read: int = 0

    def event_info(self) -> dict[str, Any]:
        """Return what the event log keeps of this outcome: cost, provenance, doubts, notes."""
        info: dict[str, Any] = {'attempts': self.attempts, 'usage': self.usage.to_dict()}
        info.update(self.trace.provenance)
        if self.confidence is not None:
            info['confidence'] = round(self.confidence, 4)
        if self.trace.doubts:  # written, but the world model's support marks it doubtful
            info['doubtful'], info['doubts'] = True, list(self.trace.doubts)
        if self.implied or self.notes:
            info['implied'] = [{'fact': list(f.triplet()), 'rule': r} for f, r in self.implied]
            info['notes'] = list(self.notes)
        return info

    @property
    def status(self) -> EventStatus:
        """Return what became of the report: applied, rejected, or waiting (clarify)."""
        if self.clarify is not None:
            return EventStatus.CLARIFY
        return EventStatus.APPLIED if self.applied else EventStatus.REJECTED

    def asked(self) -> dict[str, Any] | None:
        """Return the question the report waits on (its text and options), or None.

        Each option carries the change it would write (``remove``/``add`` fact lists, as
        ``kg show --json``): the contract of ``l3mp update --json`` while a report waits.
        """
        if self.clarify is None:
            return None
        options = [{k: o[k] for k in ('remove', 'add', 'entity', 'description') if k in o}
                   for o in self.clarify.get('options') or []]
        return {'text': self.question, 'options': options}

    def signals(self) -> dict[str, Any]:
        """Return what the fitted decision reads (:mod:`..core.decision`), as records do."""
        return {'confidence': self.confidence, 'slot_odds': self.slot_odds,
                'fact_odds': self.fact_odds, 'attempts': self.attempts,
                'unaccounted': self.unaccounted, 'parts': self.parts,
                'parts_read': self.parts_read}

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {'text': self.text, 'status': str(self.status), 'applied': self.applied,
                'diff': self.update.to_json() if self.update else None,
                'implied': [{'fact': list(f.triplet()), 'rule': r} for f, r in self.implied],
                'notes': self.notes, 'errors': self.errors, 'attempts': self.attempts,
                'usage': self.usage.to_dict(), 'seconds': round(self.seconds, 4),
                'retrieval_seconds': round(self.retrieval_seconds, 4),
                'event_id': self.event_id, 'context_size': self.context_size,
                'question': self.asked(), 'clarify': self.clarify,
                'confidence': self.confidence,
                'slot_odds': self.slot_odds, 'fact_odds': self.fact_odds,
                'unaccounted': self.unaccounted, 'parts': self.parts,
                'parts_read': self.parts_read,
                'already': [list(f.triplet()) for f in self.already],
                'history': self.history, 'stages': self.trace.stages.to_json(),
                'checks': self.trace.checks}


@dataclass
class Reading:
    """One report read part by part: the state Algorithm 3's loop carries."""

    req: Request
    ctx: ReportContext
    system: dict[str, str]  # the static system message
    recalled: str  # what episodic memory recalls for the report ('' without memory)
    parts: list[str]
    work: KnowledgeGraph  # the graph after the parts accepted so far
    done: list[Completion] = field(default_factory=list)
    earlier: set[str] = field(default_factory=set)  # what earlier parts named or changed
    actor: str | None = None  # the last part's leading subject (for a part without one)
    actors: list[str | None] = field(default_factory=list)  # who acted, per accepted part
    #: the own leading subjects of the parts read as no change (not a subject carried on:
    #: "... and put them back" repeating the part before it)
    idle: list[str | None] = field(default_factory=list)
    #: the parts read as no change that do not say things stayed ("still"): a clause the
    #: reading may leave out (:mod:`.whole`)
    skipped: list[str] = field(default_factory=list)
    #: parts whose answer repeated, or that the answers so far cover: what earlier parts
    #: of the report changed (read ahead)
    said_before: list[str] = field(default_factory=list)
    #: parts passed over whose every answer the checks refused: (part, its last answer,
    #: why), asked about with the reading (``pass_refused``)
    refused: list[tuple[str, Completion | None, tuple[str, ...]]] = field(
        default_factory=list)
    restated: bool = False  # a part repeated what holds
    last: Completion | None = None  # the answer of the part that stopped the loop
    errors: list[str] = field(default_factory=list)
    listing: str = 'full'  # what the prompts list (Grounding.shown)
    how: str = 'least'  # how the read-back's odds make the reading's confidence
    unsure: set[Fact] = field(default_factory=set)  # facts the read-back denied, kept to ask
    #: facts of one thing the read-back's choice did not settle on, kept to ask which
    choices: list[frozenset[Fact]] = field(default_factory=list)
    #: stated facts left out because with them a ``requires`` rule fails (asked about)
    trimmed: set[Fact] = field(default_factory=set)
    #: places taken for a subject of going the model never placed (asked about)
    guessed: set[Fact] = field(default_factory=set)
    #: per part (its index in ``done``), the stated facts the read-back denied and the
    #: answer asked again left out: a whole reading may still need them (asked about)
    dropped: dict[int, Update] = field(default_factory=dict)
    #: facts the report's words settle (not read back, not asked where: destinations.py)
    settled: set[Fact] = field(default_factory=set)
    #: every answer's odds, in order: (the fact an item states, removed?, its odds), and
    #: each answer's P(stop) (:mod:`..core.slot_odds`)
    odds: list[tuple[Fact, bool, FactOdds]] = field(default_factory=list)
    stops: list[tuple[frozenset[tuple[Fact, bool]], float]] = field(default_factory=list)

    @property
    def several(self) -> bool:
        """Tell whether the report was cut into parts."""
        return len(self.parts) > 1

    @functools.cached_property
    def stative(self) -> tuple[str, ...]:
        """Return the things a clause says are in a state (:func:`.stative.in_request`).

        Found once per report: the whole-reading checks ask for them per reading and per
        thing.
        """
        return in_request(self.req)

    def changed(self) -> frozenset[Fact]:
        """Return every fact the accepted parts added or removed."""
        return frozenset(f for c in self.done for f in c.update.add | c.update.remove)

    def stated(self) -> Update:
        """Return what the accepted parts' answers stated, before the rules completed it."""
        return Update.of({f for c in self.done for f in c.stated.remove},
                         {f for c in self.done for f in c.stated.add})

    def compose(self, out: UpdateOutcome) -> None:
        """Set the outcome: the parts' net change and its notes, or why there is none."""
        out.errors = list(self.errors)
        out.parts, out.parts_read = len(self.parts), len(self.done)
        if self.errors and self.errors[0] == RESTATED and self.last is not None:
            out.already = sorted(f for f in self.last.asked.add if f in self.req.kg)
        if self.errors:
            if self.last is not None:
                out.update = self.last.update
                out.implied = list(self.last.implied)
                out.notes = list(self.last.notes) + list(self.ctx.grounding.notes)
            return
        if not self.done:
            out.errors = [RESTATED if self.restated else NO_CHANGE]
            return
        net = self.req.kg.diff_to(self.work)
        odds = read_odds(out.trace.history)
        stated = self.stated()
        out.confidence = confidence(stated.add | stated.remove, set(), odds, self.how) \
            if odds else None
        self._slot_odds(out)
        named = {a for f in net.add | net.remove for a in f.args}
        out.unaccounted = sorted({m.resolved for m in self.req.mentions
                                  if m.resolved and m.describes is None} - named)
        out.update = net
        out.implied = [(f, rule) for c in self.done for f, rule in c.implied if f in net.remove]
        out.notes = [n for c in self.done for n in c.notes] + list(self.ctx.grounding.notes)
        if self.several:
            out.notes.append(f'report read in {len(self.parts)} parts: ' + ' | '.join(self.parts))

    def _slot_odds(self, out: UpdateOutcome) -> None:
        """Score the composed reading by its stated facts' slot odds (latest answer's)."""
        said: dict[tuple[Fact, bool], FactOdds] = {(f, gone): o for f, gone, o in self.odds}
        facts = [(f, gone) for c in self.done
                 for gone, fs in ((False, c.stated.add), (True, c.stated.remove))
                 for f in sorted(fs)]
        found = [said[k] for k in facts if k in said]
        if not found:
            return
        keys = set(facts)
        stops = [p for written, p in self.stops if written & keys]
        out.slot_odds = min([o.p for o in found] + stops)
        out.fact_odds = [{'fact': list(f.triplet()), 'removed': gone, **said[(f, gone)]
                          .to_json()} for f, gone in facts if (f, gone) in said]

    def covered(self, world: WorldModel, part: str) -> None:
        """Pass over a part the answers so far cover (:func:`covered`), as a restated one.

        Its subject counts as a part read as no change does (``idle``), what it names as an
        earlier part's; the clause is said before (``said_before``), not skipped: every
        thing it names is in the changes so far, so the reading leaves none of it out
        ("Bob came into the mailroom | and shut its door", the door read ahead).
        """
        said = self.req.mentions_in(part)
        self._idle(world, part)
        self.said_before.append(part)
        self.earlier |= named_in(self.req.kg, part)
        scope = part_scope(self.req.kg, part, self.ctx.mentioned, self.earlier)
        _, self.actor = part_actor(world, self.req.kg, part, scope, self.actor, said)

    def confirmed(self, part: str) -> None:
        """Note a part whose answer repeats earlier parts' changes: said, not idle."""
        self.said_before.append(part)
        self.earlier |= named_in(self.req.kg, part)

    def passed(self, world: WorldModel, part: str) -> None:
        """Note a part that changes nothing: its own subject idle, the clause skipped.

        Skipped unless it says things stayed ("still"): a clause the reading may leave out
        (:mod:`.whole`).
        """
        self._idle(world, part)
        if not STATIVE.search(part):
            self.skipped.append(part)

    def _idle(self, world: WorldModel, part: str) -> None:
        """Note the leading subject of a part that changes nothing as idle."""
        said = self.req.mentions_in(part) if self.several else self.req.mentions
        self.idle.append(leading_subject(world, self.req.kg, part, said))

    def accept(self, completion: Completion, actor: str | None = None) -> None:
        """Compose one part's change (``actor``: who acted in it) onto the ones before it."""
        self.done.append(completion)
        self.actors.append(actor)
        self.earlier |= {a for f in completion.update.remove | completion.update.add
                         for a in f.args}
        self.work = self.work.copy()
        self.work.apply(completion.update)


#: words by which a part says more of a thing named before it
BACK_REFERENCES = frozenset('it them him her its their one ones there'.split())


def covered(r: Reading, part: str) -> bool:
    """Tell whether the answers so far already give what a later ``part`` names.

    "After going to Victor's bedroom | Victor grabbed the book from the table": the first
    answer gave the book in Victor's hand too, so asking the second part would only get the
    same facts back (refused as a restatement, at the price of a call). Covered when the
    part names something, every thing it names (not an owner) is in the changes accepted
    so far, and those changes name a thing that only this or a later part names: the model
    read ahead. Not when the part says more of something named before it (a pronoun after
    its first word, or an earlier part's thing other than its subject): "Theo took the PBS
    out of the fridge | and opened it on the sink bench", answered first with the PBS on
    the bench, still has its opening to read.
    """
    if not r.done or not r.several:
        return False
    # "... and opened it on the bench": more said of a thing named before (a pronoun, or
    # the thing named again), which the answers so far may have left out
    if {w.lower() for w in words(part)[1:]} & BACK_REFERENCES:
        return False
    mentions = r.req.mentions_in(part)
    said = {m.resolved for m in mentions if m.resolved and m.describes is None}
    changed = {a for f in r.changed() for a in f.args}
    if not said or not said <= changed:
        return False
    at = r.parts.index(part)
    before = {m.resolved for p in r.parts[:at] for m in r.req.mentions_in(p) if m.resolved}
    subject = leading_subject(r.req.world, r.req.kg, part, mentions)
    return bool(said - before) and said & before <= {subject}


def widened(first: UpdateOutcome) -> tuple[UpdateOutcome, str]:
    """Return a fresh outcome for the second reading, and why there is one.

    The first reading stays in the trace (its history, usage, attempts and stages).
    """
    why = ('refused: ' + '; '.join(first.errors) if first.errors
           else 'in doubt: ' + ', '.join(first.trace.doubts) if first.trace.doubts
           else "a part only repeated an earlier part's change")
    trace = first.trace  # usage, attempts, stages and history go on counting
    trace.history.append({'widened': why, 'diff': first.update.to_json()
                          if first.update is not None else None})
    trace.doubts = []
    return UpdateOutcome(text=first.text, trace=trace, context_size=first.context_size,
                         retrieval_seconds=first.retrieval_seconds), why


def earlier_going(q: PartQuestion, changed: Iterable[Fact]) -> set[Fact]:
    """Return the facts of ``changed`` (the earlier parts') that are this part's going.

    The places of this part's subjects of going, when the earlier parts that gave them
    said what they name themselves too: a part that names other things ("Tom grabbed his
    coffee off the counter") answered with nothing but a later part's going ("and
    wandered through to the workshop") left its own words unread. A part naming nothing
    else ("Liam's finished his break") had nothing else to say. Empty without a subject
    of going.
    """
    if q.going is None or q.scope is None:
        return set()
    subjects = {q.going.subject, *q.going.others}
    going = {f for f in changed if len(f.args) == 2 and f.predicate in q.going.places
             and q.going.thing(f) in subjects}
    places = {a for f in going for a in f.args}
    own = (q.scope.earlier & q.ctx.mentioned) - subjects - places - q.scope.named
    return going if not own or set(changed) - going else set()


@dataclass
class PartQuestion:
    """One part's question: its prompt, what its answer may state, and the judge.

    :meth:`judge` reads a reply, completes it by the domain's rules and checks it; the
    stated facts outside what the report or its part is about are barred from the next
    attempt (:attr:`excluded`). :meth:`barring` starts a fresh question with facts barred.
    """

    world: WorldModel
    settings: UpdateSettings
    llm: ChatLLM
    trace: Trace
    ctx: ReportContext
    kg: KnowledgeGraph  # the graph the answer changes (after the parts accepted before)
    messages: Messages
    checks: Sequence[AnswerCheck]  # the answer checks, in order (:mod:`.pipeline`)
    scope: Scope | None  # what a part of several may be about
    going: GoingSubject | None  # the subject a report of going must move
    report: str = ''  # the whole report (where-questions are asked about it)
    #: the graph before the report (a part's kg is after earlier parts)
    before: KnowledgeGraph | None = None
    actor: str | None = None  # who acts in this part (None: not known)
    excluded: set[Fact] = field(default_factory=set)
    #: places a where-question gave in both option orders (no yes/no reading needed)
    placed: set[Fact] = field(default_factory=set)
    #: of those, places taken as the one new place the report offers (not asked)
    only: set[Fact] = field(default_factory=set)
    #: where the part's words put its subjects of going ("went into the store room"):
    #: taken for one the answer leaves unplaced, not asked (``settled_places``)
    worded: frozenset[Fact] = frozenset()
    #: where the next part happens, for a subject of going this part does not place
    #: (:func:`.subjects.place_ahead`), or where the speaker is, for one who came
    #: (:func:`~..core.destinations.coming_to`): offered to the speaker, never written
    #: unasked
    ahead: frozenset[Fact] = frozenset()
    #: where-questions asked for this part and their answers (kept across re-prompts)
    answered: dict[tuple[str, tuple[str, ...]], frozenset[Fact] | None] = field(
        default_factory=dict)
    #: the places those questions offered (their options' facts), for the speaker
    offered: dict[str, list[frozenset[Fact]]] = field(default_factory=dict)
    #: where each answer's slot odds go (the reading's :attr:`Reading.odds`, ``stops``)
    seen: list[tuple[Fact, bool, FactOdds]] = field(default_factory=list)
    stops: list[tuple[frozenset[tuple[Fact, bool]], float]] = field(default_factory=list)
    propose: Chat = field(init=False)

    def __post_init__(self) -> None:
        # with handles the answer names things by short handles: no odds are read
        odds = self.settings.slot_odds if self.ctx.grounding.tokenize is None else 0
        self.propose = Chat(self.llm, self.trace, self.schema, 'kg_update', UPDATE_TOKENS,
                            logprobs=odds)

    @classmethod
    def asking(cls, world: WorldModel, settings: UpdateSettings, llm: ChatLLM,
               checks: Sequence[AnswerCheck], r: Reading, part: str,
               trace: Trace) -> PartQuestion:
        """Return the question asked for one part of ``r``, judged by ``checks``.

        Its prompt, what its answer may be about (the part's scope, a subject said to go
        somewhere) and who acts in it.
        """
        kg, text, g, verify = r.req.kg, r.req.text, r.ctx.grounding, settings.verify
        entities, facts = g.shown(r.listing, g.about())
        ask = [r.system, {'role': 'user', 'content': r.recalled + grounded_message(
            kg, entities, facts, 'Report', part if r.several else text,
            whole=text if r.several else None)}]
        scope = part_scope(kg, part, r.ctx.mentioned, r.earlier) if r.several and verify \
            else None
        said = r.req.mentions_in(part) if r.several else r.req.mentions
        goes = going(world, kg, part if r.several else text, said,
                     r.actor if r.several else None) if verify else None
        if r.several:  # "... and came back in" acts with the part before
            actor, r.actor = part_actor(world, kg, part, scope, r.actor, said)
        else:
            actor = leading_subject(world, kg, text, said)
        r.earlier |= named_in(kg, part)
        worded = settled_places(world, kg, part if r.several else text, said,
                                [goes.subject, *goes.others], goes.places) \
            if goes is not None and settings.settled_places else set()
        if worded and r.several and goes_somewhere(part) is None:  # taken along: the whole
            worded &= settled_places(world, kg, text, r.req.mentions,  # report must agree
                                     [goes.subject, *goes.others], goes.places)
        k = r.parts.index(part) if r.several and part in r.parts else -1
        ahead = place_ahead(world, kg, part, said, r.req.mentions_in(r.parts[k + 1]), goes) \
            if 0 <= k < len(r.parts) - 1 and not worded else frozenset()
        if not worded and goes is not None and settings.settled_places:  # "come in"
            worded = coming_to(world, kg, part if r.several else text, goes.words,
                               [goes.subject, *goes.others], goes.places, r.req.speaker)
            ahead = ahead or frozenset(worded)  # a refused part is asked about with them
        return cls(world, settings, llm, trace, r.ctx, r.work, ask, checks, scope, goes,
                   text, before=kg, actor=actor, worded=frozenset(worded), seen=r.odds,
                   stops=r.stops, ahead=ahead)

    def barring(self, facts: Iterable[Fact]) -> PartQuestion:
        """Return the same question with ``facts`` barred from the answer."""
        return dataclasses.replace(self, excluded=set(facts))

    def schema(self) -> dict[str, Any]:
        """Return the JSON schema of an answer; a part of several may state fewer items."""
        return self.ctx.grounding.update_schema(
            frozenset(self.excluded), MAX_PER_PART if self.scope is not None else None)

    def judge(self, reply: LLMReply) -> Judged[Completion]:
        """Read one reply and judge it; what is wrong becomes the re-prompt."""
        stated, errors = self.ctx.grounding.read_update(
            reply.data if reply.data is not None else reply.text, strict=self.settings.verify)
        judged = self.check(stated) if not errors else Judged(Verdict.INVALID, errors=errors)
        judged.record = {'reply': reply.text[:2000], 'errors': list(judged.errors)}
        odds = self._odds(reply)
        if odds is not None:
            judged.record['odds'] = {'p': round(odds.p, 4), 'stop': round(odds.stop, 4),
                                     'outside': round(odds.outside, 4)}
        judged.feedback = ('Your answer has errors:\n- ' + '\n- '.join(judged.errors)
                           + '\nAnswer again with the corrected JSON.')
        return judged

    def _odds(self, reply: LLMReply) -> ReplyOdds | None:
        """Read the answer's slot odds and keep them, per fact, for the reading."""
        if not reply.top_logprobs:
            return None
        odds = reply_odds(reply.text, reply.top_logprobs, self.propose.sent)
        if odds is None:
            return None
        facts = [got for f in odds.facts if (got := self._fact_of(f)) is not None]
        self.seen.extend(facts)
        self.stops.append((frozenset((f, gone) for f, gone, _ in facts), odds.stop))
        return odds

    def _fact_of(self, odds: FactOdds) -> tuple[Fact, bool, FactOdds] | None:
        """Return (fact, removed?, odds) of one answer item (a unary ends in true/false)."""
        got = fact_of(self.world.domain, odds.item, odds.removed)
        return None if got is None else (*got, odds)

    def complete(self, stated: Update) -> Completion:
        """Return ``stated`` finished by the domain's rules on this part's graph.

        With ``fill_needed``, a fact a ``requires`` rule needs that the answer left out is
        added when exactly one thing the report names fits it (:func:`.complete.needed`).
        """
        done = complete(self.kg, stated, self.world.constraints, self.world.domain)
        if not self.settings.fill_needed:
            return done
        named = {m.resolved for m in self.ctx.mentions if m.resolved}
        filled = needed(self.kg, done.update, self.world.constraints, self.world.domain, named)
        if not filled:
            return done
        more = complete(self.kg, Update.of(stated.remove, stated.add | {f for f, _ in filled}),
                        self.world.constraints, self.world.domain)
        more.filled = filled
        more.asked = stated
        more.notes.extend(f'added {f.text()}: rule {rule} needs such a fact, and of what '
                          'the report names only this fits' for f, rule in filled)
        return more

    def check(self, stated: Update) -> Judged[Completion]:
        """Run the answer checks (:data:`.pipeline.ANSWER_CHECKS`) on a read answer."""
        d = Draft(self, stated)
        run(self.checks, d, self.settings, self.trace)
        if d.verdict is not None:
            return d.verdict
        return Judged(Verdict.INVALID if d.errors else Verdict.ACCEPTED, d.completion, d.errors)


@dataclass
class Draft:
    """One answer being checked: what it stated and its completion by the domain's rules."""

    q: PartQuestion  # the part's question
    stated: Update
    completion: Completion | None = None
    narrated: list[str] = field(default_factory=list)  # notes of the narrative check
    again: set[Fact] = field(default_factory=set)  # places an earlier part already gave
    errors: list[str] = field(default_factory=list)
    verdict: Judged[Completion] | None = None  # a check ended the reading with this

    @property
    def done(self) -> Completion:
        """Return the completion (set by :class:`Complete`)."""
        assert self.completion is not None
        return self.completion

    def take(self, ruling: Ruling) -> None:
        """Apply one answer check's ruling (barred facts and doubts go to the question)."""
        self.q.excluded |= ruling.barred
        for why in ruling.doubts:
            self.q.trace.doubt(why)
        if ruling.act is Act.STOP:
            self.verdict = Judged(ruling.verdict or Verdict.INVALID, ruling.value, ruling.errors)
        elif ruling.act is Act.AMEND and isinstance(ruling.value, Update):
            self.stated, self.narrated = ruling.value, list(ruling.notes)
        elif ruling.act is Act.AMEND:
            self.completion = ruling.value
        elif ruling.act is Act.REJECT:
            self.errors = list(ruling.errors)


@dataclass
class PartAnswer:
    """One part's answer, as the part checks read it."""

    r: Reading
    part: str
    q: PartQuestion  # the part's question
    got: Judged[Completion]  # the answer the loop settled on
    loop: Attempts
    fast: bool  # the first of two readings (``widen``): one answer, the first doubt ends it
    llm: ChatLLM
    world: WorldModel
    settings: UpdateSettings
    skipped: bool = False  # a check ruled that the part changes nothing, as it says

    def repeats_earlier(self) -> bool:
        """Tell whether the answer repeats an earlier part's change.

        Only when the part names something no earlier part changed: then it is asked again.
        """
        r, got, kg = self.r, self.got, self.r.req.kg
        return (r.several and got.verdict is Verdict.RESTATED and got.value is not None
                and bool(r.done) and self.settings.verify and not STATIVE.search(self.part)
                and changed_before(kg, got.value.asked) and own_content(kg, self.part, r.done)
                and not self.went_before())

    def confirms_earlier(self) -> bool:
        """Tell whether the answer repeats exactly what earlier parts of this report changed.

        "Alice stepped out into the hall [answered: the door open, and the hall from the
        words] | and she left her door open [answered: the door open]": the first answer
        read ahead; this part is said, not idle, and what it names is in the reading. Only
        when the repeated facts name every thing the part names (its subject and owners
        aside): "... | and turned the standpipe on" answered with the hose of the part
        before was not read at all, and "... | and went out the front to wait for her
        bike" answered with Lisa's going alone says nothing of the bike.
        """
        r, got = self.r, self.got
        if not (r.several and got.verdict is Verdict.RESTATED and got.value is not None
                and r.done):
            return False
        asked = got.value.asked
        said_facts = asked.add | asked.remove  # "| and shut its door": a removal alone
        if not said_facts or not said_facts <= r.changed():
            return False
        said = r.req.mentions_in(self.part)
        owners = owners_only(r.req.kg, self.part, said)
        named = {m.resolved for m in said if m.resolved and m.describes is None} - owners
        named.discard(self.q.actor)
        return named <= asked.entities()

    def went_before(self) -> bool:
        """Tell whether an earlier part already took this part's going to a place it names.

        "Tom grabbed his coffee off the counter and wandered through to the workshop": the
        first part answered with Tom at the workshop; the second, answered the same, says
        nothing new, and asked again without it, it has nothing left to say.
        """
        q, got = self.q, self.got
        if q.going is None or q.scope is None or got.value is None:
            return False
        changed, asked = self.r.changed(), got.value.asked
        going = earlier_going(q, changed)
        return bool(asked.add) and bool(going) and not asked.remove - changed \
            and all(f in going and q.world.constraints.place_of(f) in q.scope.named
                    for f in asked.add)

    def take(self, ruling: Ruling) -> None:
        """Apply one part check's ruling to the settled answer."""
        if ruling.act is Act.SKIP:
            self.skipped = True
        elif ruling.act is Act.STOP:
            self.got = Judged(ruling.verdict or Verdict.INVALID, ruling.value, ruling.errors)
        elif ruling.act is Act.AMEND:
            self.got = ruling.value
        elif ruling.act is Act.REJECT:
            self.got.errors = list(ruling.errors)


@dataclass
class Report:
    """One report's composed update, as the report checks read it."""

    r: Reading
    out: UpdateOutcome  # its outcome so far
    world: WorldModel
    llm: ChatLLM
    settings: UpdateSettings
    #: states the report says in other words that the reading leaves out (:mod:`.other_words`)
    other_words: Update = field(default_factory=lambda: Update.of([], []))

    @property
    def update(self) -> Update:
        """Return the update the checks judge."""
        assert self.out.update is not None
        return self.out.update

    def take(self, ruling: Ruling) -> None:
        """Apply one report check's ruling to the outcome (doubts go to its trace)."""
        out = self.out
        for why in ruling.doubts:
            out.trace.doubt(why)
        if ruling.act is Act.AMEND:
            out.update, out.implied = ruling.value.update, list(ruling.value.implied)
            out.notes.extend(ruling.notes)
            out.errors = []
        elif ruling.act is Act.REJECT:
            out.errors = list(ruling.errors)
        elif ruling.act is Act.ASK:
            out.question, out.clarify = ruling.question, ruling.value
            out.errors = list(ruling.errors)

    @property
    def refused(self) -> bool:
        """Tell whether the update is refused or waits on a question (no check applies)."""
        return bool(self.out.errors) or self.out.clarify is not None


#: a check of one part's answer (:mod:`.answer_checks`)
AnswerCheck = Check[Draft]
#: a check of one part's settled answer (:mod:`.part_checks`)
PartCheck = Check[PartAnswer]
#: a check of the report's composed update (:mod:`.report_checks`)
ReportCheck = Check[Report]
