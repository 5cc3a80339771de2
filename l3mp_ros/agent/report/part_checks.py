# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The checks between one part's accepted answer and the next part (Algorithm 3).

They run in the order :data:`.pipeline.PART_CHECKS` lists, on a :class:`PartAnswer` (the
part, its question and the answer the propose–judge loop settled on) and may ask the part
again (an amended answer), skip it (it changes nothing, as it says), or end the reading.
"""

from __future__ import annotations

from typing import Any

from ...stages import stage
from ...world.complete import Completion, support_removed
from ...world.constraints import RuleKind
from ...world.kg import Fact, KnowledgeGraph, Update
from ...world.model import WorldModel
from ..core.attempts import DoubtReason, Judged, Verdict
from ..core.clauses import goes_somewhere
from ..core.destinations import (
    settled_gifts,
    settled_places,
    settled_puts,
    settled_states,
    settled_takes,
    settled_wearing,
)
from ..core.rulings import Act, Ruling
from ..core.switching import switched
from .answer_checks import Where
from .read_back import StatedReadBack, said_in
from .reading import PartAnswer
from .scope import STATIVE, changed_before, own_content, part_scope
from .subjects import going, part_actor


class RepeatedPart:
    """A part whose answer repeats an earlier part's change is asked again without it."""

    name, setting = 'repeated_part', None

    def applies(self, a: PartAnswer) -> bool:
        """Tell whether the answer repeats an earlier part's change."""
        return a.repeats_earlier()

    def judge(self, a: PartAnswer) -> Ruling:
        """Ask again with earlier changes barred (the first reading of two: give up)."""
        a.loop.trace.doubt(DoubtReason.REPEATED)
        if a.fast:
            return Ruling.stop(Verdict.INVALID, a.got.value, [
                f'the answer for "{a.part}" repeated an earlier part\'s change'])
        q = a.q.barring(a.r.changed())
        with stage('propose'):
            again = a.loop.run(q.messages, q.propose, q.judge)
        if again.value is not None:
            again.value.notes.append(f'the first answer for "{a.part}" repeated an earlier '
                                     "part's change; asked again without it")
        return Ruling.amend(again)


class InDoubt:
    """On the first of two readings (``widen``), an answer in doubt ends the reading."""

    name, setting = 'in_doubt', None

    def applies(self, a: PartAnswer) -> bool:
        """Tell whether a first reading's accepted answer is in doubt."""
        return a.fast and a.got.accepted and bool(a.loop.trace.doubts)

    def judge(self, a: PartAnswer) -> Ruling:
        """End the reading: it is read again on every fact."""
        return Ruling.stop(Verdict.INVALID, a.got.value, [
            f'the answer for "{a.part}" is in doubt ({", ".join(a.loop.trace.doubts)})'])


class Still:
    """A part that says "still", or only repeats an earlier change, changes nothing.

    A part with no change that does not say so makes the whole report fail: a partial
    update would be wrong.
    """

    name, setting = 'still', None

    def applies(self, a: PartAnswer) -> bool:
        """Tell whether the report has several parts and this one found no change."""
        return a.r.several and a.got.verdict in (Verdict.NO_CHANGE, Verdict.RESTATED)

    def judge(self, a: PartAnswer) -> Ruling:
        """Skip the part, or refuse the report (noting a restatement on the reading)."""
        r, got, part, kg = a.r, a.got, a.part, a.r.req.kg
        if got.verdict is Verdict.NO_CHANGE:
            if STATIVE.search(part):
                return Ruling(Act.SKIP)  # "X is still in the office": nothing to change
            # "Sam here", "it's gloomy up here": left to the whole-reading check (what it
            # names is asked about); not a going read as nothing ("Dave's come back out":
            # no place named, so nothing would ask where he went)
            if a.settings.skip_idle_parts and goes_somewhere(part) is None:
                return Ruling(Act.SKIP)
            return Ruling.reject([f'no change found for the part "{part}" of the report; '
                                  'nothing is applied (a partial update would be wrong)'])
        if got.value is not None and (STATIVE.search(part) or a.went_before() or (
                changed_before(kg, got.value.asked) and not own_content(kg, part, r.done))):
            r.restated = True
            return Ruling(Act.SKIP)
        return Ruling()


def rule_causes(world: WorldModel, kg: KnowledgeGraph, done: Completion) -> set[Fact]:
    """Return the stated facts by which a ``requires`` rule fails or takes facts with it.

    A stated removal of what a rule's ``if`` facts need (the domain's completion took
    those facts with it: :func:`~l3mp_ros.world.complete.unsupported`), and a stated
    addition of an ``if`` fact with nothing of its ``then`` after the update.
    """
    rules = {x.name: x for x in world.constraints.rules if x.kind == RuleKind.REQUIRES}
    out = support_removed(done, world.constraints)
    after = kg.copy()
    after.apply(done.update)
    for g in done.stated.add:
        for rule in rules.values():
            k = rule.key
            if g.predicate in rule.if_ and len(g.args) > k and not any(
                    h.predicate in rule.then and len(h.args) > k and h.args[k] == g.args[k]
                    for h in after.facts_of(g.args[k])):
                out.add(g)
    return out


def to_ask(a: PartAnswer, got: Judged[Any], facts: set[Fact], kept: set[Fact], why: str
           ) -> Ruling:
    """Return ``got`` as the part's answer; ``facts`` go to ``kept`` for the speaker."""
    kept |= facts
    a.loop.trace.doubt(DoubtReason.AMENDED)
    got.value.notes.extend(f'{f.text()}: {why} (asked)' for f in sorted(facts))
    return Ruling.amend(got)


class RuleTrim:
    """A part refused by the domain's rules is kept without the facts a rule failed by.

    "The oat flakes aren't damaged after all, the bag was only dusty" answered with the
    bin bags' price tag gone as well: goods on a shelf need a tag, so the tag's removal
    takes them off the shelf and the update breaks "one place per item"; every re-prompt
    gave the same. Without the facts by which a ``requires`` rule failed
    (:func:`rule_causes`) the rest may verify: kept, and the speaker is asked
    (``ask_back``; :class:`.report_checks.AskBack`), never written unasked.
    """

    name, setting = 'rule_trim', 'ask_back'

    def applies(self, a: PartAnswer) -> bool:
        """Tell whether the loop ended on a refused answer."""
        return not a.fast and bool(a.settings.verify) and a.got.verdict is Verdict.INVALID

    def judge(self, a: PartAnswer) -> Ruling:
        """Return the first refused answer that passes without the facts a rule failed by.

        The answers in the order given: a re-prompt tends to push a small model into
        inventing more, so the first answer that trims to a passing one is kept.
        """
        for got in a.loop.judged or [a.got]:
            done = got.value
            if got.accepted or not isinstance(done, Completion) or done.update.is_empty():
                continue
            drop = rule_causes(a.world, a.q.kg, done)
            if not drop:
                continue
            stated = done.stated
            kept = a.q.check(Update.of(stated.remove - drop, stated.add - drop))  # every check
            if kept.accepted and kept.value is not None:
                return to_ask(a, kept, drop, a.r.trimmed,
                              'left out: with it a rule of the domain fails')
        return Ruling()


class GoingAsk:
    """A part of going the model never placed its subject in is asked about (``ask_back``).

    "Omar pushed the robot out onto the dock and came straight back in": every answer of
    the second part left Omar on the dock, and the where-question did not settle. Each
    place that question offered is tried in the part's first refused answer; when exactly
    one passes every answer check, it is kept and the speaker is asked, never written
    unasked.
    """

    name, setting = 'going_ask', 'ask_back'

    def applies(self, a: PartAnswer) -> bool:
        """Tell whether a part of going ended refused after its where-question."""
        return (not a.fast and bool(a.settings.verify) and a.got.verdict is Verdict.INVALID
                and a.q.going is not None and bool(a.q.offered))

    def judge(self, a: PartAnswer) -> Ruling:
        """Return the one offered place that makes the answer pass, to be asked about."""
        q = a.q
        base = next((g.value for g in a.loop.judged or [a.got]
                     if isinstance(g.value, Completion)), None)
        if base is None:
            return Ruling()
        passing: list[tuple[frozenset[Fact], Judged[Any]]] = []
        for subject, options in q.offered.items():
            own = {f for f in base.stated.add if len(f.args) == 2
                   and f.predicate in q.going.places and q.going.thing(f) == subject}
            for facts in options:
                if all(f in q.kg for f in facts) or Where(q).left_from(facts):
                    continue  # where it is already, or where it came from
                got = q.check(base.stated.take_in(facts, q.kg, old=own))
                if got.accepted and got.value is not None:
                    passing.append((facts, got))
        if len(passing) != 1:
            return Ruling()
        facts, got = passing[0]
        return to_ask(a, got, set(facts), a.r.guessed,
                      'one place the where-question offered, the only one the answer passes with')


class GoingAhead:
    """A part of going that names no place to go, refused, goes to where the next part is.

    "Elena came in from the yard | and Amara handed her a coffee": every answer of the
    first part read ahead (the cup) and none placed Elena. The part is answered with where
    the next part happens (:attr:`.reading.PartQuestion.ahead`), kept for the speaker
    (``ask_back``), never written unasked; what it read ahead is left to the next part.
    """

    name, setting = 'going_ahead', 'ask_back'

    def applies(self, a: PartAnswer) -> bool:
        """Tell whether a part of going with a place ahead ended refused."""
        return (not a.fast and bool(a.settings.verify) and a.got.verdict is Verdict.INVALID
                and a.q.going is not None and bool(a.q.ahead))

    def judge(self, a: PartAnswer) -> Ruling:
        """Return the place ahead as the part's answer, when it passes the answer checks."""
        got = a.q.check(Update.of((), a.q.ahead))
        if not got.accepted or got.value is None:
            return Ruling()
        return to_ask(a, got, set(a.q.ahead), a.r.guessed,
                      'where the next part happens, the part naming no place to go')


class ReadAhead:
    """A part every answer of which was about later parts only is passed over, not refused.

    "Elena came in | and Amara handed her cup one": when every answer to a part names only
    what a later part names (the model read ahead), the part is passed over as one read as
    no change is (``skip_idle_parts``): the later part reads it, and what this part names
    is left to the whole-reading check. Not a part of going (its subject must move), nor
    the last part.
    """

    name, setting = 'read_ahead', 'skip_idle_parts'

    def applies(self, a: PartAnswer) -> bool:
        """Tell whether a part of several ended refused, each answer outside its scope."""
        r, q = a.r, a.q
        if a.fast or not r.several or a.got.verdict is not Verdict.INVALID or q.scope is None \
                or a.part == r.parts[-1] or goes_somewhere(a.part) is not None:
            return False
        later = {m.resolved for p in r.parts[r.parts.index(a.part) + 1:]
                 for m in r.req.mentions_in(p) if m.resolved}
        answers = [g.value for g in a.loop.judged or [a.got]]
        return bool(answers) and all(
            isinstance(v, Completion) and (stated := v.stated.add | v.stated.remove)
            and q.scope.outside(v.stated) == stated
            and all(later & set(f.args) for f in stated) for v in answers)

    def judge(self, a: PartAnswer) -> Ruling:
        """Pass the part over."""
        a.loop.trace.history.append({'read_ahead': a.part})
        return Ruling(Act.SKIP)


class ReadBack:
    """Read the answer back (:class:`.read_back.StatedReadBack`).

    The read-back most often denies a fact the model added beside the right one
    ("repaired" → also "the room is no longer lit"): the part is asked once more with the
    denied facts barred (on the first of two readings, the denial is the answer's error),
    and the new answer must pass the same read-back.
    """

    name, setting = 'read_back', 'confirm'

    def applies(self, a: PartAnswer) -> bool:
        """Tell whether there is an accepted, verified answer to read back."""
        return a.got.accepted and bool(a.settings.verify)

    def judge(self, a: PartAnswer) -> Ruling:
        """Return the answer as read back (amended), or the read-back's errors."""
        r, q, trace = a.r, a.q, a.loop.trace
        # the part's going, or the report's ("Raj has finished on plot 3 [answered: in the
        # greenhouse] and come up to the greenhouse")
        went = q.going or (going(a.world, r.req.kg, r.req.text, r.req.mentions)
                           if r.several else None)
        settled = settled_places(a.world, r.req.kg, r.req.text, r.req.mentions,
                                 [went.subject, *went.others], went.places) \
            if went is not None and a.settings.settled_places else set()
        if a.settings.settled_places:
            settled |= settled_gifts(a.world, r.req.kg, r.req.text, r.req.mentions)
            said = r.req.mentions_in(a.part) if r.several else r.req.mentions
            settled |= settled_states(a.world, a.part if r.several else r.req.text, said,
                                      a.got.value.stated.add)
            settled |= switched(a.world, r.req.kg, a.part if r.several else r.req.text,
                                said)[0] & a.got.value.stated.add  # "put the fan on"
            # what the last clause's actor took or put, whichever part's answer gives it
            # ("After going to his room | Victor grabbed the book": the first answers both)
            last = r.parts[-1] if r.several else r.req.text
            if r.several and a.part != last:  # its actor as the last part will have it
                said = r.req.mentions_in(last)
                scope = part_scope(r.req.kg, last, r.ctx.mentioned, r.earlier)
                actor, _ = part_actor(a.world, r.req.kg, last, scope, r.actor, said)
            else:
                actor = q.actor
            settled |= settled_takes(a.world, r.req.kg, last, said, actor)
            settled |= settled_puts(a.world, r.req.kg, last, said)
            settled |= settled_wearing(a.world, r.req.kg, last, said, actor)
        r.settled |= settled

        def named(part: str) -> list[str]:
            return [e for m in r.req.mentions_in(part)
                    for e in ([m.resolved] if m.resolved else m.candidates)]

        check = StatedReadBack(a.llm, a.world, a.settings.confirm_min_yes,
                               lambda f: f in q.placed or f in settled,
                               templates=a.settings.templates,
                               together=a.settings.read_back_together,
                               where_said=(lambda f, p: said_in(f, p, named))
                               if a.settings.read_back_where_said else None)
        asked = a.part if r.several else None
        read: dict[str, bool] = {}  # read-back answers, by statement
        completion, errors, denied = check.check(r.req.text, asked, a.got.value, r.work,
                                                 trace, r.ctx.written, read)
        read_back = Judged(Verdict.INVALID if errors else Verdict.ACCEPTED, completion, errors)
        if check.unsettled and errors and a.settings.ask_back and not a.fast:
            a.r.choices.append(frozenset(check.unsettled))  # the speaker says which
            return Ruling.amend(Judged(Verdict.ACCEPTED, completion))
        if not denied:
            return Ruling.amend(read_back)
        trace.doubt(DoubtReason.DENIED)
        if a.fast:
            return Ruling.amend(Judged(Verdict.INVALID, completion, errors or [
                'the read-back denied ' + ', '.join(f.text() for f in sorted(denied))]))
        barred = q.barring(denied)
        again = a.loop.run(barred.messages, barred.propose, barred.judge)
        if not again.accepted:
            return self.unsure(a, read_back, denied)
        completion, errors, _ = check.check(r.req.text, asked, again.value, r.work,
                                            trace, r.ctx.written, read)
        if errors:
            return self.unsure(a, read_back, denied)
        completion.notes.extend(f'asked again without {f.text()}: the report does not '
                                'say it' for f in sorted(denied))
        first = read_back.value.stated  # the answer read back, before it was asked again
        r.dropped[len(r.done)] = Update.of(denied & first.remove, denied & first.add)
        return Ruling.amend(Judged(Verdict.ACCEPTED, completion))

    @staticmethod
    def unsure(a: PartAnswer, read_back: Judged[Any], denied: set[Any]) -> Ruling:
        """Return the read-back's refusal, or (``ask_back``) the answer kept to ask about.

        The speaker is asked about it once the report is read (:class:`.report_checks.
        AskBack`); the denied facts are kept on the reading.
        """
        if not a.settings.ask_back or read_back.value is None or read_back.value.update.is_empty():
            return Ruling.amend(read_back)
        a.r.unsure |= denied
        return Ruling.amend(Judged(Verdict.ACCEPTED, read_back.value))
