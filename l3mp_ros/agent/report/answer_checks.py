# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The checks of one part's answer (Algorithm 3), each a small object.

They run in the order :data:`.pipeline.ANSWER_CHECKS` lists, on a :class:`Draft`: the
facts the answer stated and, once the domain's rules have finished them, the completed
update. A check amends the draft, rejects it (the errors go back to the model), bars facts
from the next answer, or stops the reading with a verdict (no change, a restatement).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...llm.protocol import LLMError
from ...retrieval.mention import DETERMINERS
from ...retrieval.mention_lists import owners_only
from ...text import same_root, word_root, words
from ...world.domain import DomainSchema
from ...world.kg import Fact, KnowledgeGraph, Update
from ...world.phrasing import Phrasing
from ..core.attempts import DoubtReason, Verdict
from ..core.clauses import named_as_source
from ..core.destinations import written_as_owner
from ..core.rulings import Act, Ruling
from .place_questions import agreed_facts, as_said, changeable, place_groups, where_question
from .reading import NO_CHANGE, RESTATED, Draft, PartQuestion, earlier_going
from .scope import irrelevant, last_places, relevance_errors, state_words
from .subjects import place_kinds, zone_of


class Narrative:
    """Of several new places a narrative gives one thing, the one named last is kept."""

    name, setting = 'narrative', 'verify'

    def applies(self, d: Draft) -> bool:
        """Apply always: a narrative may tell several places."""
        return True

    def judge(self, d: Draft) -> Ruling:
        """Keep the last place named of each thing."""
        q = d.q
        stated, narrated = last_places(d.stated, q.ctx.mentions, q.world, q.kg)
        return Ruling.amend(stated, narrated, DoubtReason.NARRATIVE) if narrated else Ruling()


class Complete:
    """The domain's rules finish the answer: removals a rule forces, no-op ADDs dropped."""

    name, setting = 'complete', None

    def applies(self, d: Draft) -> bool:
        """Apply always."""
        return True

    def judge(self, d: Draft) -> Ruling:
        """Finish the stated facts by the rules; note what earlier parts placed."""
        completion = d.q.complete(d.stated)
        completion.notes.extend(d.narrated)
        d.again = placed_before(d.q, d.stated)  # what :class:`Restated` leaves to this part
        return Ruling.amend(completion)


class NoChange:
    """An answer stating nothing ends the part: no change the domain can represent.

    Unless a part of several says in its words where its subjects went ("The Hughes family
    have just come in to reception, they're here about Luna": :attr:`.reading.
    PartQuestion.worded`, one place for each, no word of what may only happen before the
    verb): that is the part's change. A report of one part the model reads as nothing
    stays nothing: the words complete a reading, they do not replace it.
    """

    name, setting = 'no_change', None

    def applies(self, d: Draft) -> bool:
        """Tell whether the answer stated nothing."""
        return d.stated.is_empty()

    def judge(self, d: Draft) -> Ruling:
        """End the part: no change; or take the places its words give those who went."""
        went = worded_going(d.q)
        if went:
            completion = d.q.complete(Update.of([], went))
            completion.notes.extend(f'{f.text()}: the place the words name right after '
                                    f'{d.q.going.thing(f)} went (the answer stated nothing)'
                                    for f in sorted(went))
            d.q.placed |= went
            return Ruling.amend(completion, doubt=DoubtReason.AMENDED)
        return Ruling.stop(Verdict.NO_CHANGE, None, [NO_CHANGE])


#: words before a verb of going that say it may not have happened ("will come in to ...")
NOT_DONE = frozenset("will would shall should can could may might must if unless when "
                     "once before about supposed ll d going want wants wanted hope "
                     "not never n't".split())


def worded_going(q: PartQuestion) -> frozenset[Fact]:
    """Return the places the words give every subject of a part's going, else nothing.

    Only a part of several; one place each (:attr:`.reading.PartQuestion.worded`), that
    does not hold yet, and no word of :data:`NOT_DONE` before the verb in its sentence.
    """
    going = q.going
    if going is None or not q.worded or q.scope is None:  # (no scope: a report of one part)
        return frozenset()
    subjects = [going.subject, *going.others]
    placed = [[f for f in q.worded if going.thing(f) == s] for s in subjects]
    if any(len(p) != 1 or p[0] in q.kg for p in placed):
        return frozenset()
    low = q.report.lower()
    at = low.find(going.words.lower())
    head = re.split(r'[.!?]\s', low[:max(0, at)])[-1]  # its sentence, before the verb
    if at < 0 or {w.lower() for w in words(head)} & NOT_DONE or "n't" in head \
            or "'ll" in head:
        return frozenset()
    return frozenset(p[0] for p in placed)


class Restated:
    """An answer all of which already holds restates the graph: no re-prompt.

    A re-prompt pushed a small model into inventing a change. Asked on the answer as
    completed, where places an earlier part of the report gave (:func:`placed_before`) are
    no restatement of this part; asked again by :class:`RestatedAfter` once the other
    checks amended it.
    """

    name, setting = 'restated', None

    def applies(self, d: Draft) -> bool:
        """Tell whether nothing is left to change."""
        return d.done.update.is_empty() and not d.again

    def judge(self, d: Draft) -> Ruling:
        """End the part: a restatement."""
        return Ruling.stop(Verdict.RESTATED, d.completion, [RESTATED, *d.done.notes])


class RestatedAfter(Restated):
    """:class:`Restated` asked again once the checks before it amended the answer."""

    name = 'restated_after'

    def applies(self, d: Draft) -> bool:
        """Tell whether nothing is left to change and nothing was refused."""
        return not d.errors and d.done.update.is_empty()


class Relevance:
    """Every stated fact is about something the report mentions."""

    name, setting = 'relevance', 'verify'

    def applies(self, d: Draft) -> bool:
        """Apply always (with verification)."""
        return True

    def judge(self, d: Draft) -> Ruling:
        """Refuse and bar the facts about what the report does not mention."""
        off = irrelevant(d.done.stated, d.q.ctx.mentioned)
        return Ruling.reject(relevance_errors(off), off) if off else Ruling()


def purposed(domain: DomainSchema, text: str, facts: Update) -> set[Fact]:
    """Return the one-place facts ``text`` says only as what someone means to do.

    "he's left his inspection form with Jo to sign": the predicate's last own word (its
    words less its types' and little words: ``dish_is_clean``, clean) written only right
    after "to" ("to sign", "to be signed", "for Jo to sign") is an aim, not a change;
    written anywhere else too ("signed it, for him to sign again") it may be one.
    """
    said = [w.lower() for w in words(text)]
    out: set[Fact] = set()
    for f in facts.add | facts.remove:
        own = state_words(domain, f.predicate)
        if not own:
            continue
        at = [k for k, w in enumerate(said) if same_root(word_root(w), own[-1])]
        if at and all(said[k - 1] == 'to' or said[max(0, k - 2):k] == ['to', 'be']
                      for k in at if k > 0) and 0 not in at:
            out.add(f)
    return out


class Purpose:
    """A state the report says only as an aim ("left it with Jo to sign") is no change."""

    name, setting = 'purpose', 'verify'

    def applies(self, d: Draft) -> bool:
        """Apply always (with verification)."""
        return True

    def judge(self, d: Draft) -> Ruling:
        """Drop the states said only after "to"; refuse an answer of nothing else."""
        off = purposed(d.q.world.domain, d.q.report, d.done.stated)
        if not off:
            return Ruling()
        stated = d.done.stated
        kept = d.q.complete(Update.of(stated.remove - off, stated.add - off))
        if not kept.update.is_empty():
            kept.notes.extend(f'dropped {f.text()}: the report says it as an aim ("to ...")'
                              for f in sorted(off))
            return Ruling(Act.AMEND, kept, barred=off)
        return Ruling.reject([f'{f.text()} is what someone means to do ("to ..."), not what '
                              'happened; leave it out' for f in sorted(off)], off)


class PartScope:
    """A part of several states only what that part names; the rest is dropped or refused."""

    name, setting = 'part_scope', None

    def applies(self, d: Draft) -> bool:
        """Tell whether a part of several is judged (and nothing refused yet)."""
        return d.q.scope is not None and not d.errors

    def judge(self, d: Draft) -> Ruling:
        """Drop what belongs to other parts, or refuse it."""
        part, completion = d.q.scope, d.done
        off = part.outside(completion.stated)
        if not off:
            return Ruling()
        kept = Update.of(completion.stated.remove - off, completion.stated.add - off)
        trimmed = d.q.complete(kept)
        if not trimmed.update.is_empty():
            trimmed.notes.extend(f'dropped {f.text()}: not about anything '
                                 f'"{part.text}" names' for f in sorted(off))
            return Ruling(Act.AMEND, trimmed, barred=off)
        return Ruling.reject([f'{f.text()} is not about anything "{part.text}" names; '
                              'answer only what this part says' for f in sorted(off)], off)


class Going:
    """A subject said to go somewhere must move; where it went may be asked.

    "Bob came into the mailroom" answered with the mailroom door only: a partial update
    would be applied as if it were the whole. The subject is asked where it is now (both
    option orders, with ``ask_going``), or else the answer is re-prompted. A later part of
    going answered with the place an earlier part gave ("... and came straight back in")
    is such too.
    """

    name, setting = 'going', 'verify'

    def applies(self, d: Draft) -> bool:
        """Tell whether a subject said to go somewhere is left where it was.

        Not when an earlier part of the report already put it in a place this part names
        ("Bev's come back up from her plot [answered: in the polytunnel] and gone into the
        polytunnel").
        """
        going = d.q.going
        return not d.errors and going is not None and bool(
            set(going.unplaced(self.moved(d))) - taken_before(d.q))

    @staticmethod
    def moved(d: Draft) -> Update:
        """Return the answer without the places an earlier part gave."""
        return Update.of(d.done.stated.remove, d.done.stated.add - d.again)

    def judge(self, d: Draft) -> Ruling:
        """Take in where it went (asked), or refuse."""
        q, moved = d.q, self.moved(d)
        where = Where(q).ask(moved) if q.settings.ask_going else None
        if not where:
            return Ruling.reject([q.going.error(moved)])
        completion = q.complete(moved.take_in(where, q.kg))
        completion.notes.extend(d.narrated)
        completion.notes.extend(
            f'{f.text()}: the place the words name right after {q.going.thing(f)} went' if f
            in q.worded else
            f'{f.text()}: the one new place the report offers for {q.going.thing(f)}, who '
            'went somewhere' if f in q.only else
            f'{f.text()}: asked where {q.going.thing(f)} is after the report, both orders '
            'of the options said so' for f in sorted(where))
        q.placed |= where
        return Ruling.amend(completion, doubt=DoubtReason.AMENDED)


class Verify:
    """The completed update verifies against the domain and its rules."""

    name, setting = 'verify', 'verify'

    def applies(self, d: Draft) -> bool:
        """Tell whether nothing was refused yet."""
        return not d.errors

    def judge(self, d: Draft) -> Ruling:
        """Refuse what breaks the domain's types or rules.

        Unless the answer verifies without what it says of things the report names only to
        say where another thing is ("put it on the empty plinth by the rocking horse",
        answered with the horse moved onto that plinth too): that answer goes on, in doubt.
        """
        q = d.q
        errors = q.world.verifier.check(q.kg, d.done.update)
        if not errors:
            return Ruling()
        described = describing_only(q)
        thing = q.world.constraints.thing_of
        kept = Update.of({f for f in d.stated.remove if f.args and thing(f) not in described},
                         {f for f in d.stated.add if f.args and thing(f) not in described})
        if not described or kept == d.stated or kept.is_empty():
            return Ruling.reject(errors)
        completion = q.complete(kept)
        if q.world.verifier.check(q.kg, completion.update):
            return Ruling.reject(errors)
        completion.notes.append(
            f'{errors[0]}; what the answer said of {", ".join(sorted(described))}, named only to '
            'say where another thing is, was dropped')
        return Ruling.amend(completion, doubt=DoubtReason.DESCRIBED)


def describing_only(q: PartQuestion) -> set[str]:
    """Return the things every mention of which only says where another thing is.

    "the empty plinth by the rocking horse": the horse (a mention attached to another by a
    preposition, :attr:`~...retrieval.mention.Mention.describes`); not an owner.
    """
    said: dict[str, bool] = {}
    owners = owners_only(q.kg, q.report, q.ctx.mentions)
    for m in q.ctx.mentions:
        if m.resolved:
            said[m.resolved] = said.get(m.resolved, True) and m.describes is not None
    return {e for e, only in said.items() if only and e not in owners}


def taken_before(q: PartQuestion) -> set[str]:
    """Return the subjects of going an earlier part put in a place this part names.

    Not when a part that named other things was answered with nothing but this going
    (:func:`.reading.earlier_going`).
    """
    if q.going is None or q.scope is None or q.before is None:
        return set()
    earlier = q.before.diff_to(q.kg)
    return {q.going.thing(f) for f in earlier_going(q, earlier.add | earlier.remove)
            if f in earlier.add and q.world.constraints.place_of(f) in q.scope.named}


def placed_before(q: PartQuestion, stated: Update) -> set[Fact]:
    """Return the places ``stated`` gives a part's subject of going that an earlier part gave.

    "Omar pushed the robot out onto the dock and came straight back in": the second
    part answered "Omar is on the dock" restates the first part, not this one. A place
    this part names is its own ("got up out of the armchair and went to stage left": the
    first part may have been answered with where the second one goes).
    """
    if q.going is None or q.scope is None or q.before is None:
        return set()
    subjects = {q.going.subject, *q.going.others}
    return {f for f in stated.add if f.predicate in q.going.places and len(f.args) == 2
            and q.going.thing(f) in subjects and f in q.kg and f not in q.before
            and q.world.constraints.place_of(f) not in q.scope.named}


@dataclass
class Where:
    """Where a subject of going went: asked among the report's places (:meth:`ask`)."""

    q: PartQuestion  # the part's question

    def ask(self, stated: Update) -> set[Fact]:
        """Return the new place of each subject a report of going left unplaced, or none.

        Each is asked where it is after the report among the report's referents of the
        right type and the rooms of the places the answer puts things (:meth:`zones`), in
        both option orders (once per part: a re-prompt reuses the answer); one such place,
        not named as where they came from, is taken without asking. Every subject needs a
        new place, else the answer goes back to the model as an error (empty set). A
        subject an earlier part moved is asked about on the graph before the report, so
        "as before" is where it was before the whole report (it may have come back) and
        the earlier part's place is one option among the others. A place the part's words
        name right after its verb of going (:attr:`.reading.PartQuestion.worded`) is taken
        without a call. A subject an earlier part moved who went "back" somewhere no
        option names ("popped back in to hang the keys up, then went back out to his
        lorry") is where it was before the report.
        """
        found: set[Fact] = set()
        for subject in self.q.going.unplaced(stated):
            worded = frozenset(f for f in self.q.worded if self.q.going.thing(f) == subject)
            if len(worded) == 1:  # "went into the store room": the words say where
                found |= worded
                continue
            try:
                got = self._place(stated, subject)
            except LLMError:
                return set()
            if not got:
                return set()
            found |= got
        return found

    def _place(self, stated: Update, subject: str) -> frozenset[Fact] | None:
        q, refs = self.q, self.q.ctx.referents()
        for group in place_groups(q.world, q.kg, subject, changeable(q.world)):
            if not set(group) & q.going.places:
                continue
            kg = q.before if self.moved_earlier(subject, group) else q.kg
            phrasing = Phrasing(q.world.domain, kg, legacy=not q.settings.templates)
            near = [z for z in dict.fromkeys([*self.zones(stated, subject, group),
                                              *self.sought(subject, group)]) if z not in refs]
            asked = where_question(q.world, kg, phrasing, subject,
                                   as_said(phrasing, subject, q.ctx.written), group,
                                   [*refs, *near])
            if asked is None and kg is not q.kg and self.went_back():
                back = frozenset(f for f in kg.facts_of(subject) if f.predicate in group
                                 and q.world.constraints.thing_of(f) == subject)
                if back:  # "popped back in to hang the keys up, then went back out"
                    q.trace.history.append({'state': f'Where is {subject} after the report?',
                                            'back': sorted(f.text() for f in back)})
                    return back
            if asked is None:
                continue
            if kg is q.kg and len(asked.options) == 2 and not self.left_from(asked.facts[1]):
                q.only |= asked.facts[1]  # the one place the report offers: where they went
                q.trace.history.append({'state': asked.text, 'options': asked.options,
                                        'only_option': True})
                return asked.facts[1]
            key = (asked.text, tuple(asked.options))
            q.offered.setdefault(subject, [])
            q.offered[subject] += [f for f in asked.facts if f and f not in q.offered[subject]]
            if key not in q.answered:  # a re-prompted part asks the same again
                q.answered[key] = agreed_facts(
                    q.llm, q.report, asked, q.trace,
                    lambda facts: bool(facts) and not all(f in q.kg for f in facts))
            if q.answered[key]:
                return q.answered[key]
        return None

    def went_back(self) -> bool:
        """Tell whether the verb of going says the subject went back ("went back out")."""
        return 'back' in self.q.going.words.lower().split()

    def left_from(self, facts: frozenset[Fact]) -> bool:
        """Tell whether the report names one of these places as where someone came from.

        "came back out of the cold room", "in from the yard": such a place is no answer
        to where they went.
        """
        said = words(self.q.report)
        return any(named_as_source(said, m.start) for m in self.q.ctx.mentions
                   if any(len(f.args) == 2
                          and m.resolved == self.q.world.constraints.place_of(f)
                          for f in facts))

    def zones(self, stated: Update, subject: str, group: tuple[str, ...]) -> list[str]:
        """Return where the places the answer puts other things are, of the subject's kind.

        "Lena came back out of the cold room with the ice bucket and left it on the sink
        bench": the room of the sink bench is where Lena went, though the report names
        only the bench.
        """
        kinds = place_kinds(self.q.world, group)
        out: list[str] = []
        for f in sorted(stated.add):
            if len(f.args) == 2 and self.q.world.constraints.thing_of(f) != subject:
                zone = zone_of(self.q.world, self.q.kg, self.q.world.constraints.place_of(f),
                               kinds)
                if zone is not None and zone not in out:
                    out.append(zone)
        return out

    def sought(self, subject: str, group: tuple[str, ...]) -> list[str]:
        """Return where those the part goes to meet are, of the subject's kind.

        "Dave's gone back in to ask Tom something": the room Tom is in is where Dave may
        have gone, though the report names no place. A person named right after "to" and
        one more word (a verb of purpose, not a determiner: "to the", "to his"), not as an
        owner ("to take Luna's bowl"), who is somewhere of the kind the subject's place
        takes.
        """
        q = self.q
        said = [w.lower() for w in words(q.report)]
        kinds = place_kinds(q.world, group)
        out: list[str] = []
        for m in q.ctx.mentions:
            e = m.resolved
            if e is None or e == subject or m.start < 2 or said[m.start - 2] != 'to' \
                    or said[m.start - 1] in DETERMINERS or written_as_owner(q.report, m):
                continue
            for f in sorted(q.kg.facts_of(e)):
                if len(f.args) == 2 and f.predicate in group \
                        and q.world.constraints.thing_of(f) == e:
                    zone = zone_of(q.world, q.kg, q.world.constraints.place_of(f), kinds)
                    if zone is not None and zone not in out:
                        out.append(zone)
        return out

    def moved_earlier(self, subject: str, group: tuple[str, ...]) -> bool:
        """Tell whether an earlier part of the report changed where ``subject`` is."""
        before, now = self.q.before, self.q.kg
        if before is None or before is now:
            return False

        def place(kg: KnowledgeGraph) -> set[Fact]:
            return {f for f in kg.facts_of(subject) if f.predicate in group
                    and self.q.world.constraints.thing_of(f) == subject}
        return place(before) != place(now)
