# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The checks of a whole report's update, once its parts are composed (Algorithm 3).

They run in the order :data:`.pipeline.REPORT_CHECKS` lists, each on a :class:`Report`
(the reading, its outcome so far and what the checks may ask), and return a
:class:`~.rulings.Ruling` the update loop applies.
"""

from __future__ import annotations

import functools
import time

from ...llm.protocol import LLMError, llm_failure
from ...paths import share_dir
from ...retrieval.mention import Mention
from ...retrieval.mention_lists import opinion_only, owners_only
from ...text import STOPWORDS, predicate_roots, same_root, word_root, words
from ...world.complete import complete, support_removed, taken_with
from ...world.kg import Fact, Update
from ...world.model import WorldModel
from ...world.phrasing import Phrasing, written_names
from ...world.templates import Form
from ..core import clarify
from ..core.asking import (
    NOTHING_READ,
    WITH_DENIED,
    Candidate,
    Pending,
    confidence,
    option_json,
    read_odds,
    recomposed,
    with_back,
    without,
)
from ..core.attempts import DoubtReason
from ..core.decision import ReadingDecision
from ..core.destinations import acted_states, unworded_states, worded_gifts, worded_states
from ..core.request import people_of
from ..core.rulings import Act, Ruling
from ..core.switching import switched
from .other_words import ask as ask_other_words
from .other_words import candidates as other_candidates
from .place_questions import amend, check_places, where_after
from .reading import Reading, Report, UpdateOutcome
from .runner_ups import runner_ups
from .scope import unsaid
from .settings import UpdateSettings
from .smaller import said_of_all, smaller_readings
from .subjects import PutBy, amended_parts, going, put_by
from .whole import (
    PLACING,
    changeable_of,
    joined_to,
    left_out,
    nearby,
    offered,
    sources,
    states_of,
    whole_readings,
)


def finished(rep: Report, stated: Update) -> Ruling | None:
    """Return ``stated`` finished by the domain's rules as an amendment, or None if refused."""
    kg, world = rep.r.req.kg, rep.world
    done = complete(kg, stated, world.constraints, world.domain)
    if done.update.is_empty() or world.verifier.check(kg, done.update):
        return None
    return Ruling(Act.AMEND, done, doubts=[DoubtReason.AMENDED])


class PlaceCheck:
    """Where-questions, asked in both option orders, must not go against the update.

    The free diff most often goes wrong by leaving out a thing or person the report also
    moved, or by stopping at a place the report then leaves (:func:`.state_questions.
    check_places`). With ``place_amend`` the places both orders gave, for things that move,
    are taken into the update (doubtful: the patrol looks first); otherwise it stays out.
    Someone the report names only as an owner ("Michael's room") or as the one giving a
    view ("I reckon") is not asked about.
    """

    name, setting = 'place_check', 'place_check'

    def applies(self, rep: Report) -> bool:
        """Tell whether there is a verified update to check (not refused, not asked)."""
        return not rep.refused and rep.settings.verify and rep.out.update is not None

    def judge(self, rep: Report) -> Ruling:
        """Ask where each referent is; refuse, or take in the places given."""
        r = rep.r
        owners = owners_only(r.req.kg, r.req.text, r.ctx.mentions)  # "Michael's room"
        owners |= opinion_only(r.req.text, r.ctx.mentions)  # "Bulb's blown, I reckon."
        try:
            check = check_places(rep.llm, rep.world, r.req.kg, r.req.text, rep.update,
                                 [e for e in r.ctx.referents() if e not in owners],
                                 rep.out.trace, written=r.ctx.written,
                                 templates=rep.settings.templates, settled=r.settled)
        except LLMError as exc:
            return Ruling.reject([llm_failure(exc, 'place check')])
        stayed = [DoubtReason.PLACE] if check.stayed else []  # applied, its facts looked at first
        if not check.errors:
            return Ruling(doubts=stayed)
        amended = amend(rep.update, check) if rep.settings.place_amend else None
        got = finished(rep, amended) if amended is not None else None
        if got is None:
            return Ruling(Act.REJECT, errors=check.errors, doubts=stayed)
        got.notes = [f'asked where {e} is after the report, both orders of the options '
                     f'said "{said}" (the answer had "{was}"): taken into the update'
                     for e, was, said in check.against]
        got.doubts = [*stayed, *got.doubts]
        return got


class ActorCheck:
    """Whoever put a thing somewhere is where that place is, or is asked where they are.

    "Omar went into the cold room and brought the yoghurt out to the packing table"
    answered with Omar in the cold room: the packing table is in the stock room. The actor
    is asked where they are after the report (both orders, the place of what they put
    among the options, with ``ask_actor``); that place both orders give is taken in
    (doubtful). Otherwise, with ``ask_back``, the speaker is asked: the actor there, or the
    update as given (:meth:`ask`); without it the report stays out
    (:func:`.update_checks.put_by`).
    """

    name, setting = 'actor_check', 'place_check'

    def applies(self, rep: Report) -> bool:
        """Tell whether there is a verified update to check (not refused, not asked)."""
        return not rep.refused and rep.settings.verify and rep.out.update is not None

    def judge(self, rep: Report) -> Ruling:
        """Ask where the actor is; refuse, or take that place in."""
        r, world, kg = rep.r, rep.world, rep.r.req.kg
        after = kg.copy()  # the place check may have taken a place in: the update, not r.work
        after.apply(rep.update)
        parts = amended_parts(world, [c.update for c in r.done], rep.update)
        got = put_by(world, after, list(zip(r.actors, parts, strict=True)),
                     Phrasing(world.domain, kg).proper)
        c = world.constraints
        if got is None or any(len(f.args) == 2 and c.thing_of(f) == got.actor
                              and f in rep.update.add for f in r.settled):
            return Ruling()  # the words put the actor elsewhere: "gone through to the cafe"
        try:
            said = where_after(rep.llm, world, kg, r.req.text, got.actor, got.group,
                               [*r.ctx.referents(), got.zone], rep.out.trace,
                               written=r.ctx.written, templates=rep.settings.templates
                               ) if rep.settings.ask_actor else None
        except LLMError as exc:
            return Ruling.reject([llm_failure(exc, 'place check')])
        thing, place = c.thing_of(got.put), c.place_of(got.put)
        why = (f'{got.put.text()} puts {thing} at {place}, which is in {got.zone}, but the '
               f'update leaves {got.actor}, who put it there, elsewhere')
        there = {f for f in said or () if len(f.args) == 2 and c.place_of(f) == got.zone}
        if not there:
            asked = (f'; asked where {got.actor} is after the report, the two orders of the '
                     'options did not both say so') if rep.settings.ask_actor else ''
            pending = self.ask(rep, got) if rep.settings.ask_back else None
            if pending is None:
                return Ruling.reject([f'{why}{asked}; nothing is applied'])
            return Ruling(Act.ASK, pending.to_json(), question=pending.question,
                          errors=[f'{why}{asked}; asked: {pending.question}'])
        own = {f for f in rep.update.add if f.predicate in got.group
               and c.thing_of(f) == got.actor}
        done = complete(kg, rep.update.take_in(there, kg, old=own), world.constraints,
                        world.domain)
        errors = world.verifier.check(kg, done.update)
        if errors:
            return Ruling.reject([f'{why}; with {got.actor} there: {errors[0]}'])
        return Ruling(Act.AMEND, done, notes=[
            f'{why}: asked where {got.actor} is, both orders of the options said '
            f'{got.zone}; taken into the update'], doubts=[DoubtReason.AMENDED])

    @staticmethod
    def ask(rep: Report, got: PutBy) -> Pending | None:
        """Return the question to the speaker: the actor where they put the thing, or not.

        The readings: the update with the actor in ``got.zone`` (by the first of the
        actor's place predicates that verifies there), then the update as the model gave
        it. None when the first does not verify (the report stays out, as before).
        """
        kg, world = rep.r.req.kg, rep.world
        c = world.constraints
        own = {f for f in rep.update.add if f.predicate in got.group
               and c.thing_of(f) == got.actor}
        for predicate in got.group:
            placed = c.located(predicate, got.actor, got.zone)
            done = complete(kg, rep.update.take_in({placed}, kg, old=own), world.constraints,
                            world.domain).update
            if not done.is_empty() and not world.verifier.check(kg, done):
                break
        else:
            return None
        said = rep.r.stated()
        sure = confidence(said.add | said.remove, set(), read_odds(rep.out.trace.history),
                          rep.settings.reading_confidence)
        readings = [Candidate(done, sure, f'{got.actor} where {c.thing_of(got.put)} was put'),
                    Candidate(rep.update, sure, 'answer')]
        if rep.settings.ask_left_out:  # the actor kept where they were may leave out
            readings = whole_readings(world, rep.r, readings)  # where the report sent them
        return Pending.first(rep.r.req.text, readings, kg, world.domain,
                             rep.settings.clarify_timeout)


@functools.cache
def fitted() -> ReadingDecision:
    """Return the shipped fitted decision (``config/decision.json``), read once."""
    return ReadingDecision.load(share_dir() / 'config' / 'decision.json')


def not_sure(out: UpdateOutcome, settings: UpdateSettings) -> bool:
    """Tell whether a reading that passed every check is still not sure enough to write.

    ``readback``: its read-back confidence is below ``ask_below``; ``fitted``: the fitted
    decision's P(right) over its signals is below the fit's bar (:mod:`..core.decision`).
    """
    if settings.ask_decision == 'fitted':
        return fitted().asks(out.signals())
    return out.confidence is not None and out.confidence < settings.ask_below


class OtherWords:
    """States the report says in other words, asked of the model in one call (``ask_other_words``).

    "it's taken for the next hour", "Floor's dry": each one-place state of each named thing
    that the reading says nothing of is put to the model as the sentence of its change, in
    one yes/no-each call (:mod:`.other_words`); those it says yes to with P(yes) at least
    ``other_words_min_yes`` make the reading one that leaves a state out: it is asked about
    with them first (:class:`AskBack`, :func:`with_states`), never written with them on
    the model's word alone. A wrong one costs a question (the reading with it is offered
    first, then the reading without), asked about anyway or not: hence a high bar
    (docs/decisions.md "States said in other words").
    """

    name, setting = 'other_words', 'ask_other_words'

    def applies(self, rep: Report) -> bool:
        """Tell whether there is a verified update a question could complete."""
        return (not rep.refused and rep.settings.verify and rep.settings.ask_back
                and rep.out.update is not None)

    def judge(self, rep: Report) -> Ruling:
        """Ask which states the report says; keep those the reading leaves out."""
        r = rep.r
        kg = r.req.kg
        worded = unread_states(rep)
        changes = [(f, ends) for f, ends in other_candidates(
            rep.world, kg, r.req.text, r.req.mentions, rep.update) if f not in worded]
        if not changes:
            return Ruling()
        try:
            choice = ask_other_words(rep.llm, rep.world, kg, r.req.text, changes,
                                     rep.out.trace)
        except LLMError as exc:
            return Ruling.reject([llm_failure(exc, 'states in other words')])
        if choice is None:
            return Ruling()
        said = choice.said(rep.settings.other_words_min_yes)
        rep.other_words = said
        notes = [f'said in other words: {s} (P(yes) {p:.2f})' if p is not None else
                 f'said in other words: {s}'
                 for s, y, p in zip(choice.statements, choice.yes, choice.odds, strict=True)
                 if y]
        rep.out.notes.extend(notes)  # what the model said, kept on the outcome
        return Ruling()


def denied_last(r: Reading, readings: list[Candidate]) -> list[Candidate]:
    """Return ``readings`` with the groups that offer only what the read-back denied last.

    The readings go by group (the options about one thing left out,
    :attr:`~..core.asking.Candidate.about`, stay together; any other reading is a group
    alone), and the first group stays first (it is the answer, made whole). A group each
    of whose readings states nothing but facts the read-back denied and adds nothing the
    answer did not state, or repeats a reading before it ("the equipment room is no longer
    lit", denied twice, with the centrifuge "still out of order"), comes after the groups
    that keep something the model read in the report or offer something new: the speaker
    answers few questions.
    """
    said_all = r.stated()
    stated = said_all.add | said_all.remove

    def denied(c: Candidate) -> bool:
        said = (c.update.add | c.update.remove) & stated
        return bool(said) and said <= r.unsure and c.update.add <= stated
    groups: list[list[Candidate]] = []
    for c in readings:
        if groups and c.about and (c.about, c.source) == (groups[-1][0].about,
                                                          groups[-1][0].source):
            groups[-1].append(c)
        else:
            groups.append([c])
    if not groups:
        return []
    seen = {c.update for c in groups[0]}
    kept: list[Candidate] = list(groups[0])
    last: list[Candidate] = []
    for group in groups[1:]:
        moved = any(denied(c) for c in group) and all(
            denied(c) or c.update in seen for c in group)
        (last if moved else kept).extend(group)
        seen |= {c.update for c in group}
    return kept + last


class AskBack:
    """A reading the read-back denied part of is asked about, not refused (``ask_back``).

    The readings, the one that says the most first: the answer as the model gave it, then
    without the facts the read-back denied (a person asked about a reading that leaves out
    half of what happened would say "yes" to it). Each has a confidence from the model's
    own odds (:func:`.asking.confidence`); the speaker answers yes/no, then is offered the
    rest (:mod:`.asking`).
    """

    name, setting = 'ask_back', 'ask_back'

    def applies(self, rep: Report) -> bool:
        """Tell whether the read-back denied part of the reading, or it is not sure enough.

        Not sure enough: its confidence is below the calibrated ``ask_below``.
        """
        if rep.refused:
            return False
        low = not_sure(rep.out, rep.settings)
        r = rep.r
        return (bool(r.unsure or r.choices or r.trimmed or r.guessed or r.refused
                     or unsupported(rep)
                     or unsaid_of(rep) or moved_unsaid(rep) or unread_states(rep)
                     or unread_ends(rep) or described_places(rep)) or low
                or bool(left_out_of(rep))) and rep.out.update is not None

    def judge(self, rep: Report) -> Ruling:
        """Ask whether the reading is right."""
        r, world = rep.r, rep.world
        readings = self.readings(rep)
        if rep.settings.ask_left_out:
            readings = whole_readings(world, r, readings)
        readings = denied_last(r, [c for c in readings  # nothing read, nothing made whole
                                   if not (c.source == NOTHING_READ and c.update.is_empty())])
        pending = Pending.first(r.req.text, readings, r.req.kg, world.domain,
                                rep.settings.clarify_timeout, rep.settings.ask_together)
        doubts = [*(f'the part "{part}" could not be read ({"; ".join(why[:1])})'
                    for part, _, why in r.refused),
                  *(f'the read-back denied {f.text()}' for f in sorted(r.unsure)),
                  *(f'{f.text()} goes with what it needed (rule {rule})'
                    for f, rule in unsupported(rep)),
                  *(f'{f.text()} was left out: with it a rule of the domain fails'
                    for f in sorted(rep.r.trimmed)),
                  *(f'the model did not say where {world.constraints.thing_of(f)} went; '
                    f'{f.text()} is the one '
                    'place offered that fits' for f in sorted(rep.r.guessed)),
                  *('asked which one the report says, the model did not settle on one of '
                    + ', '.join(f.text() for f in sorted(g)) for g in r.choices),
                  *(f'the report does not say {f.predicate} of {f.args[0]}, it speaks of '
                    f'{other}' for f, other in unsaid_of(rep)),
                  *(f'the reading leaves out {e}, which the report names'
                    for e in left_out_of(rep)),
                  *(f'the reading leaves out {f.text()}, which the report says in its words'
                    for f in sorted(unread_states(rep) - rep.other_words.add)),
                  *(f'the reading leaves out {f.text()}, which the report says in other words'
                    for f in sorted(rep.other_words.add - rep.update.add)),
                  *(f'the reading leaves out the end of {f.text()}, which the report says in '
                    'other words' for f in sorted(unread_ends(rep))),
                  *(f'the reading gives {world.constraints.thing_of(f)} a place ({f.text()}), '
                    f'but the report has {world.constraints.thing_of(f)} neither act nor go '
                    'anywhere' for f in moved_unsaid(rep)),
                  *(f'the reading puts {world.constraints.thing_of(f)} where the report only '
                    f'says another thing is ({f.text()})' for f in sorted(described_places(rep)))]
        sure = pending.readings[0].confidence
        why = '; '.join(doubts) or (
            f'P(right) {fitted().p_right(rep.out.signals()):.2f} is below '
            f'{fitted().ask_below:.2f}' if rep.settings.ask_decision == 'fitted' else
            f"the reading's confidence {sure:.2f} is below {rep.settings.ask_below:.2f}")
        return Ruling(Act.ASK, pending.to_json(), question=pending.question,
                      errors=[f'{why}; asked: {pending.question}'])

    @staticmethod
    def readings(rep: Report) -> list[Candidate]:
        """Return the readings to offer: the answer, then without what is in doubt.

        Beside the answer (asked in one question with it), the answer with the facts the
        read-back denied where a part asked again left them out ("stayed on the dock with
        it": the pallet jack denied, the pallet given instead; both went). Then without
        each kind of denied fact (one predicate, added or ended) when it denied several
        kinds, and without all the denied facts; without the places of people who
        neither act nor go (:func:`moved_unsaid`); for each thing the choice did not
        settle, keeping one of its facts at a time (with the denied ones out too); then the
        parts' change as the model answered it, when the report checks took a place into
        it.
        """
        r, world = rep.r, rep.world
        odds, how = read_odds(rep.out.trace.history), rep.settings.reading_confidence
        said_all = r.stated()
        stated = said_all.add | said_all.remove
        readings = [Candidate(rep.update, confidence(stated, set(), odds, how), 'answer')]
        # "Dai is no longer on duty", denied, and no word of the report speaks of duty:
        # the answer without it comes first, the answer as it was after the others. Only
        # people's states: without a thing's ("the door is no longer open" for "shut the
        # door") the first reading offered was half the report, and a truthful "yes" to
        # it wrote half (fire station 19, leisure 24)
        people = people_of(world, r.req.kg)
        unspoken = {f for f in unspoken_states(r.req.text, r.unsure) if f.args[0] in people}
        first = without(r.req.kg, world, r.done, unspoken) if unspoken else None
        if first is not None and first != rep.update:
            readings = [Candidate(first, confidence(stated - unspoken, unspoken & stated,
                                                    odds, how), 'answer')]
        if r.dropped:  # the answer with what the read-back denied and a re-ask left out
            back = with_back(r.req.kg, world, r.done, r.dropped)
            if back is not None and back != rep.update:
                put = {f for u in r.dropped.values() for f in u.add | u.remove}
                readings.append(Candidate(back, confidence(stated | put, set(), odds, how),
                                          WITH_DENIED))
        # each kind of denied fact left out alone ("Ada is wet" denied beside the two
        # signings it denied too: the reading without the wetting alone may be the one),
        # then all of them
        kinds = sorted({(f.predicate, f in rep.update.remove) for f in r.unsure})
        drops = [({f for f in r.unsure if (f.predicate, f in rep.update.remove) == k},
                  f'without denied {k[0]}') for k in kinds] if len(kinds) > 1 else []
        drops += [(set(r.unsure), 'without denied')] if r.unsure else []
        moved = set(moved_unsaid(rep))
        if moved:  # "gave Marta the key": without Marta's move
            drops.append((r.unsure | moved, 'without moving whom the report has not go'))
        described = described_places(rep)
        if described:  # "in the red tote on the packing table": not onto the table
            drops.append((r.unsure | described, 'without a place said of another thing'))
        needed = needed_removals(rep)
        if needed:
            drops.append((r.unsure | needed, 'without the removal a rule needed'))
        drops += [(r.unsure | (group - {kept}), f'only {kept.text()} of {kept.args[0]}')
                  for group in r.choices for kept in sorted(group)]
        went = goers(rep)
        for drop, source in drops:
            rest = without(r.req.kg, world, r.done, drop)
            if rest is not None and went & placed(world, rep.update) - placed(world, rest):
                continue  # "Liam's taken his blanket through to ...": Liam went somewhere
            if rest is not None and all(rest != x.update for x in readings):
                sure = confidence(stated - drop, drop & stated, odds, how)
                readings.append(Candidate(rest, sure, source))
        if first is not None and all(rep.update != x.update for x in readings):
            readings.append(Candidate(rep.update, confidence(stated, set(), odds, how),
                                      WITH_UNSPOKEN))
        if r.unsure and r.stative and all(c.stated.add <= r.unsure
                                          and c.stated.remove <= r.unsure for c in r.done):
            # nothing read: what a clause says is in a state, from nothing (whole.py)
            readings.append(Candidate(Update.of(), confidence(set(), stated, odds, how),
                                      NOTHING_READ))
        parts = r.req.kg.diff_to(r.work)  # before the report checks took places in
        if not parts.is_empty() and all(parts != x.update for x in readings) \
                and not world.verifier.check(r.req.kg, parts):
            readings.append(Candidate(parts, confidence(stated, set(), odds, how),
                                      'parts as answered'))
        readings = with_states(rep, readings)
        # a runner-up that leaves out a state said in words goes after the one with it
        readings = with_states(rep, readings + runner_ups(rep, readings, rep.settings.runner_ups))
        # then parts of the first reading: never without where someone the report sends
        # went, nor leaving out a thing the report names ("I've shut it. And my radio's
        # just died": the door shut alone is half), nor all the first reading said of a
        # thing the report names or of a part of it (smaller.said_of_all)
        return readings + smaller_readings(
            rep, readings, rep.settings.smaller_readings,
            lambda u: not went & placed(world, rep.update) - placed(world, u)
            and said_of_all(r, world, readings[0].update, u) and not left_out(r, u))


WITH_UNSPOKEN = 'with a denied state no word of the report speaks of'


def unspoken_states(text: str, denied: set[Fact]) -> set[Fact]:
    """Return the denied one-argument states that no word of the report speaks of.

    The model may fill a part it cannot read with a state of a person it names ("Dai is no
    longer on duty" for "Reset the boiler"); the read-back denies it, and when asking
    again gives nothing better the reading keeps it to ask about. A state the report says
    in other words ("on shift from now") that the read-back denied is left out the same
    way, but only from the first reading offered: the answer with it stays an option.
    """
    said = {word_root(w) for w in words(text) if w not in STOPWORDS}
    out = set()
    for f in denied:
        own = predicate_roots(f.predicate)
        if len(f.args) == 1 and own and not any(same_root(a, b) for a in own for b in said):
            out.add(f)
    return out


def goers(rep: Report) -> set[str]:
    """Return who the report's parts say went somewhere (:func:`.subjects.going`)."""
    r, kg = rep.r, rep.r.req.kg
    out: set[str] = set()
    for part in r.parts:
        said = r.req.mentions_in(part) if r.several else r.req.mentions
        went = going(rep.world, kg, part if r.several else r.req.text, said)
        if went is not None:
            out |= {went.subject, *went.others}
    return out


def placed(world: WorldModel, update: Update) -> set[str]:
    """Return the things ``update`` gives a new place (a two-place fact added about them)."""
    return {world.constraints.thing_of(f) for f in update.add if len(f.args) == 2}


def unread_states(rep: Report) -> set[Fact]:
    """Return the states the report says in their words that the reading leaves out.

    "I've locked it and the alarm's set again" read without the alarm (``ask_stated``,
    :func:`~..core.destinations.worded_states`); "filled the blue carrier" read without it
    full (:func:`~..core.destinations.acted_states`, the verb of the action that makes it);
    "took her bike off the rack and handed it to her" read without Lisa holding it
    (:func:`~..core.destinations.worded_gifts`).
    """
    if not rep.settings.ask_stated or rep.out.update is None:
        return set()
    r, kg = rep.r, rep.r.req.kg
    people = Phrasing(rep.world.domain, kg).proper  # "... and handed it to her": Lisa has it
    gifts = {f for f in worded_gifts(rep.world, kg, r.req.text, r.req.mentions, people)
             if f not in kg}
    said = worded_states(rep.world, kg, r.req.text, r.req.mentions) | gifts | rep.other_words.add
    said |= switched(rep.world, kg, r.req.text, r.req.mentions)[0]  # "put the fan on"
    said |= acted_states(rep.world, kg, r.req.text, r.req.mentions)  # "filled the carrier"
    return {f for f in said if f not in rep.update.add}


def unread_ends(rep: Report) -> set[Fact]:
    """Return the states the report says have ended, which the reading keeps.

    "Floor's dry" read without the gym no longer wet (:class:`OtherWords`); "knocked the
    lights off" read without the lights no longer on (``ask_stated``,
    :func:`~..core.switching.switched`); "unplugged it" read without the amp no longer
    plugged in (:func:`~..core.destinations.unworded_states`).
    """
    if rep.out.update is None:
        return set()
    ends = set(rep.other_words.remove)
    if rep.settings.ask_stated:
        r = rep.r
        ends |= switched(rep.world, r.req.kg, r.req.text, r.req.mentions)[1]
        ends |= unworded_states(rep.world, r.req.kg, r.req.text, r.req.mentions)
    return {f for f in ends if f not in rep.update.remove}


def with_states(rep: Report, readings: list[Candidate]) -> list[Candidate]:
    """Return ``readings``, each that leaves out a state said in words after itself with it.

    The reading with the states (completed by the rules and verified) comes first: a
    speaker who is offered both says which is whole. In the answer, a state of the same
    thing whose predicate the report never says (:func:`unsaid_of`: "are dry now" read as
    clean) gives way to the one it says.
    """
    states, ends = unread_states(rep), unread_ends(rep)
    if not states and not ends:
        return readings
    r, kg, out = rep.r, rep.r.req.kg, []
    things = {f.args[0] for f in states | ends}
    instead = {f for f, _ in unsaid_of(rep) if len(f.args) == 1 and f.args[0] in things}
    for c in readings:
        if c.source == NOTHING_READ:  # only what a clause says is in a state
            out.append(c)
            continue
        if c.source == 'answer' and instead:  # "dry now" in place of "clean"
            more = recomposed(kg, rep.world, [
                *(Update.of(d.stated.remove - instead, d.stated.add - instead) for d in r.done),
                Update.of(ends, states)])
        else:
            more = recomposed(kg, rep.world, [c.update, Update.of(ends - c.update.remove,
                                                                  states - c.update.add)])
        if more is not None and more != c.update and all(more != x.update
                                                         for x in (*readings, *out)):
            out.append(Candidate(more, c.confidence, f'{c.source}, with what the words say'))
        out.append(c)
    return out


def left_out_of(rep: Report, update: Update | None = None) -> list[str]:
    """Return the named things a reading leaves out that something could be said of.

    The report's reading, or ``update``. Only with ``ask_left_out`` (:mod:`.whole`: such a
    reading is not the whole change).
    """
    if not rep.settings.ask_left_out or rep.out.update is None or not rep.settings.verify:
        return []
    r, update = rep.r, rep.update if update is None else update
    near, states, left = nearby(r), states_of(r, update), sources(r)
    return [e for e in left_out(r, update)
            if offered(r, update, e, near, states, left) is not None]


def unsupported(rep: Report) -> list[tuple[Fact, str]]:
    """Return the facts that went with what a ``requires`` rule needed, with its name.

    "Took the book from the shelf": its shelf level went with its place on the shelf.
    """
    return [x for c in rep.r.done for x in taken_with(c, rep.world.constraints)]


#: words that put a place after a thing to say where that thing is ("the red tote on the
#: packing table", "the trolley by the front desk")
WHERE_IT_IS = PLACING | {'by'}


def described_places(rep: Report) -> set[Fact]:
    """Return the stated places the report names only to say where another thing is.

    "Jonas priced up the batteries and the light bulbs in the red tote on the packing
    table" read with the batteries on the packing table: the table is named after the red
    tote, which stands on it already, so it says where the tote is, not where the
    batteries went. A stated added place fact whose place every mention of which follows
    another thing's mention with a word of where (:data:`WHERE_IT_IS`) and a determiner at
    most between (:attr:`~...retrieval.mention.Mention.describes`), that other thing holds
    the placed thing before the report (the batteries are in the tote: "left the remote
    for the TV in Sarah's bedroom on the table" puts the remote on the table) and is tied
    to the place (a fact joins them, or both to a third), and is neither the placed thing
    nor the place itself. Not of a person, nor of whatever the report
    says went somewhere ("walked it out to Omar on the dock": Nadia is on the dock too).
    """
    r, world = rep.r, rep.world
    kg, said = r.req.kg, words(r.req.text)
    heads = {m.start: m for m in r.req.mentions}
    wheres = world.constraints.place_predicates()

    before = Update.of([], [])

    def describes(m: Mention, thing: str, place: str) -> bool:
        head = heads.get(m.describes) if m.describes is not None else None
        other = head.resolved if head is not None else None
        if not other or other in (thing, place) or other not in joined_to(kg, thing, before) \
                or not {w.lower() for w in said[head.end:m.start]} & WHERE_IT_IS:
            return False
        near = joined_to(kg, other, before)
        return place in near or bool(near & joined_to(kg, place, before))
    out: set[Fact] = set()
    went: set[str] | None = None
    for f in r.stated().add:
        if len(f.args) != 2 or f.predicate not in wheres:
            continue
        thing = world.constraints.thing_of(f)
        went = goers(rep) | people_of(world, kg) if went is None else went
        if thing in went:
            continue
        place = next((a for a in f.args if a != thing), '')
        named = [m for m in r.req.mentions if m.resolved == place]
        if named and all(describes(m, thing, place) for m in named):
            out.add(f)
    return out


def moved_unsaid(rep: Report) -> list[Fact]:
    """Return the places the reading gives people the report neither has act nor go.

    "Kofi came out of the office and gave Marta the office key" read with Marta in the
    office: Marta only receives. A person's place that only a rule keeps (no action moves
    people) changes for whoever acts in a part (:attr:`.reading.Reading.actors`, a part's
    leading subject), the first person the report names ("After going to the kitchen,
    Martin opened the tap"), the first person a part without a subject names, or whoever
    goes somewhere (:func:`.subjects.going`: "Lucy and Ben went ..."); for anyone else it
    is in doubt, and asked about (``ask_moved``).
    """
    r, world = rep.r, rep.world
    if not rep.settings.ask_moved or rep.out.update is None:
        return []
    kg = r.req.kg
    people, fluent = Phrasing(world.domain, kg).proper, world.domain.fluent_predicates()
    moved = [f for f in sorted(rep.update.add) if len(f.args) == 2 and f.predicate not in fluent
             and kg.entities.get(world.constraints.thing_of(f)) in people]
    if not moved:
        return []

    def said_in(part: str | None) -> list[Mention]:
        said = r.req.mentions_in(part) if r.several and part is not None else r.req.mentions
        return sorted(said, key=lambda m: m.start)

    owners = owners_only(kg, r.req.text, r.req.mentions)  # "Anna's room": not Anna

    def first_person(part: str | None) -> str:
        return next((m.resolved for m in said_in(part) if m.resolved
                     and m.resolved not in owners and kg.entities.get(m.resolved) in people), '')

    movers = {a for a in [*r.actors, *r.idle] if a} | {first_person(None)} | goers(rep)
    for part, actor in zip([p for p in r.parts if p not in r.skipped
                            and p not in r.said_before], r.actors, strict=False):
        if actor is None:
            movers.add(first_person(part))
    return [f for f in moved if world.constraints.thing_of(f) not in movers]


def unsaid_of(rep: Report) -> list[tuple[Fact, str]]:
    """Return the stated facts whose predicate the report does not say (:func:`unsaid`)."""
    stated = rep.r.stated()
    return unsaid(rep.world.domain, rep.r.req.kg, rep.r.req.text, stated)


def needed_removals(rep: Report) -> set[Fact]:
    """Return the stated removals whose loss took facts with them (:func:`unsupported`).

    Which side of a ``requires`` rule was meant is the report's: "the bag was only dusty"
    answered with the bin bags' price tag gone should not take them off the shelf.
    """
    return {g for c in rep.r.done for g in support_removed(c, rep.world.constraints)}


class Clarify:
    """A referent that was a guess keeps the report pending: the speaker is asked."""

    name, setting = 'clarify', 'clarify'

    def applies(self, rep: Report) -> bool:
        """Tell whether the update was verified (asking back needs it), not refused or asked."""
        return not rep.refused and bool(rep.settings.verify)

    def judge(self, rep: Report) -> Ruling:
        """Ask which thing a guessed mention means."""
        r = rep.r
        stated = [c.stated for c in r.done]
        doubt = clarify.ambiguity(r.req.kg, r.ctx.mentions, stated, rep.world, r.req.text)
        if doubt is None:
            return Ruling()
        question = doubt.question()
        pending = {**doubt.to_json(), 'text': r.req.text,
                   'stated': [u.to_json() for u in stated],
                   'expires': time.time() + rep.settings.clarify_timeout}
        for option in pending['options']:  # each with the change it would write
            change = rep.update if option['entity'] == doubt.chosen else clarify.substituted(
                r.req.kg, stated, doubt.chosen, option['entity'], rep.world)[0]
            option.update(option_json(change or Update.of()))
        then = self.then(rep, doubt)
        if then is not None:
            pending['then'] = then.to_json()
        return Ruling(Act.ASK, pending, question=question, errors=[
            f'the report does not say which {doubt.mention} it means; asked: {question}'])

    @staticmethod
    def then(rep: Report, doubt: clarify.Ambiguity) -> Pending | None:
        """Return the question after "none of them": the rest, the candidates as they were.

        "I've given the changing room floor a going-over with the mop. It's bone dry now":
        asked which mop, the speaker says none (no mop changed as read); the floor's drying
        may still be right. Offered with every candidate said to be as it was ("The blue
        mop is still hung on the mop hooks."), so a "yes" writes no half report; only when
        the reading without the guessed thing's facts leaves out nothing else
        (:func:`.whole.left_out`). None otherwise, or when nothing is left.
        """
        r, world, kg = rep.r, rep.world, rep.r.req.kg
        rest = recomposed(kg, world, clarify.without_guess([c.stated for c in r.done],
                                                           doubt.chosen))
        if rest is None:
            return None
        them = {o.entity for o in doubt.options}
        if any(e not in them for e in left_out_of(rep, rest)):
            return None  # another thing left out: not this reading's question
        changes = changeable_of(r)  # not "the door still connects to the store"
        held = Update.of((), {f for f in kg.facts if f.args and f.args[0] in them
                              and f.predicate in changes and not f.numeric})
        phrasing = Phrasing(world.domain, kg, names=written_names(r.req.text, kg))
        said = ' '.join(phrasing.say(f, Form.STILL) for f in sorted(held.add))
        reading = Candidate(rest, 0.0, f'without {doubt.chosen}', about=doubt.chosen,
                            kept=held, words=said)
        question = ' '.join(w for w in ('Then:', phrasing.change(rest), said, 'Is that right?')
                            if w)
        return Pending(r.req.text, [reading], [0], 2, question,
                       time.time() + rep.settings.clarify_timeout)
