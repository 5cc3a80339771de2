# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 3's part checks, each alone: a :class:`PartAnswer` built by hand, its ruling.

The answer the propose–judge loop settled on is judged by a few answer checks
(:data:`CHECKS`, no LLM) on the ``mini`` world; the checks that ask the model again or
read the answer back get a scripted LLM, and every scripted reply must be used.
"""

import pytest

from l3mp_ros.agent.core.attempts import Attempts, DoubtReason, Judged, Verdict
from l3mp_ros.agent.core.rulings import Act
from l3mp_ros.agent.report.answer_checks import Complete, Going, NoChange, Restated, Verify
from l3mp_ros.agent.report.part_checks import (
    GoingAhead,
    GoingAsk,
    InDoubt,
    ReadAhead,
    ReadBack,
    RepeatedPart,
    RuleTrim,
    Still,
)
from l3mp_ros.agent.report.reading import PartAnswer
from l3mp_ros.agent.report.update import UpdateSettings
from l3mp_ros.retrieval.link import named_in
from l3mp_ros.world.complete import Completion
from l3mp_ros.world.kg import Fact, Update
from l3mp_ros.world.model import WorldModel

from .check_fixtures import ScriptedLLM, covers, fact, mini_world, question, reading, ruled

#: the answer checks the part's question judges with (``ask_going`` off: nothing asked)
CHECKS = (Complete(), NoChange(), Restated(), Going(), Verify())
GOING = "Gary went into Jerry's bedroom."
WENT = fact('gary', 'in_room', 'jerry_bedroom')
HERE = fact('gary', 'in_room', 'kitchen')
LIT = Fact('lit', ('jerry_bedroom',))
# a report of two parts whose first part was accepted: Gary went into Jerry's bedroom
TWO = "Gary went into Jerry's bedroom and then took the blue pen."
PARTS = ["Gary went into Jerry's bedroom", 'then took the blue pen.']
TAKEN = fact('blue_pen', 'in_hand', 'gary')
YES, NO = {'answer': 'yes'}, {'answer': 'no'}


@pytest.fixture(scope='module')
def world() -> WorldModel:
    return mini_world()  # read, never written: one for the module


def answer(world, text, stated, *, parts=None, part=None, fast=False, llm=None,
           first=(WENT,), **settings) -> PartAnswer:
    """Return one part's settled answer: ``stated`` judged by :data:`CHECKS` (or a Judged).

    With ``parts``, the first part is accepted already (``first``: Gary went into Jerry's
    bedroom).
    """
    # the read-back tests ask about Gary's move: read back unless a test settles it
    s = UpdateSettings(**{'ask_going': False, 'settled_places': False, **settings})
    llm = llm or ScriptedLLM()
    r = reading(world, text, parts, s)
    if parts:
        r.earlier |= named_in(world.kg, parts[0])  # as asking the first part does
        r.accept(Completion(Update.of([HERE], list(first)), implied=[(HERE, 'agent_room')]),
                 'gary')
    q = question(world, r, part, CHECKS, s, llm)
    got = q.check(Update.of([], stated)) if isinstance(stated, list | tuple) else stated
    return PartAnswer(r, part or r.parts[0], q, got, Attempts(llm, q.trace, s.attempts),
                      fast, llm, world, s)


def repeated(world, **kw) -> PartAnswer:
    """Return the second part of :data:`TWO` answered with the first part's change."""
    return answer(world, TWO, [WENT], parts=PARTS, part=PARTS[1], **kw)


@covers(RepeatedPart)
def test_repeated_part_leaves_an_answer_of_its_own(world):
    a = answer(world, TWO, [TAKEN], parts=PARTS, part=PARTS[1])
    assert a.got.accepted and not RepeatedPart().applies(a)


@covers(RepeatedPart)
def test_repeated_part_asks_again_without_the_earlier_change(world):
    llm = ScriptedLLM({'facts': [['in_hand', 'blue_pen', 'gary']]})
    a = repeated(world, llm=llm)
    assert a.got.verdict is Verdict.RESTATED and RepeatedPart().applies(a)
    ruling = ruled(RepeatedPart(), a)
    assert ruling.act is Act.AMEND and ruling.value.accepted
    assert ruling.value.value.update.add == {TAKEN}
    assert ruling.value.value.notes[-1] == (f'the first answer for "{PARTS[1]}" repeated an '
                                            "earlier part's change; asked again without it")
    assert llm.asked == ['kg_update'] and not llm.replies
    assert DoubtReason.REPEATED in a.loop.trace.doubts


@covers(RepeatedPart)
def test_a_part_of_going_an_earlier_part_already_took_is_not_asked_again(world):
    # "Gary took the blue pen and went into Jerry's bedroom", the first part answered with
    # Gary's move: the second part, answered the same, is done (asked again without it,
    # it would have nothing left to say, and its subject would not go anywhere)
    text = "Gary took the blue pen, then Gary went into Jerry's bedroom."
    parts = ['Gary took the blue pen', "then Gary went into Jerry's bedroom."]
    a = answer(world, text, [WENT], parts=parts, part=parts[1], first=(WENT, TAKEN))
    assert a.got.verdict is Verdict.RESTATED and a.q.going is not None
    assert a.went_before() and not RepeatedPart().applies(a)
    assert ruled(Still(), a).act is Act.SKIP
    # a first part that said only where Gary went said nothing of its own: asked again
    alone = answer(world, text, [WENT], parts=parts, part=parts[1])
    assert not alone.went_before() and RepeatedPart().applies(alone)
    # ... unless it named nothing else: "Gary finished his tea" has nothing to say
    text = "Gary finished his tea, then Gary went into Jerry's bedroom."
    parts = ['Gary finished his tea', "then Gary went into Jerry's bedroom."]
    tea = answer(world, text, [WENT], parts=parts, part=parts[1])
    assert tea.went_before() and not RepeatedPart().applies(tea)
    # a part that names somewhere else is still asked again
    b = repeated(world)
    assert not b.went_before() and RepeatedPart().applies(b)


@covers(RepeatedPart)
def test_repeated_part_ends_a_first_reading(world):
    a = repeated(world, fast=True)
    ruling = ruled(RepeatedPart(), a)
    assert ruling.act is Act.STOP and ruling.verdict is Verdict.INVALID
    assert ruling.errors == [f'the answer for "{PARTS[1]}" repeated an earlier part\'s change']
    assert a.llm.asked == []


@covers(InDoubt)
def test_in_doubt_leaves_an_answer_without_doubts(world):
    a = answer(world, GOING, [WENT], fast=True)
    assert a.got.accepted and not InDoubt().applies(a)
    a.loop.trace.doubt(DoubtReason.REPROMPTED)
    a.fast = False  # the second reading keeps what is in doubt
    assert not InDoubt().applies(a)


@covers(InDoubt)
def test_in_doubt_ends_a_first_reading_in_doubt(world):
    a = answer(world, GOING, [WENT], fast=True)
    a.loop.trace.doubt(DoubtReason.REPROMPTED)
    ruling = ruled(InDoubt(), a)
    assert ruling.act is Act.STOP and ruling.verdict is Verdict.INVALID
    assert ruling.errors == [f'the answer for "{GOING}" is in doubt (reprompted)']
    assert ruling.value is a.got.value


@covers(Still)
def test_still_passes_a_restatement_that_names_something_new(world):
    a = repeated(world)
    assert ruled(Still(), a).act is Act.PASS and not a.r.restated
    assert not Still().applies(answer(world, GOING, Judged(Verdict.NO_CHANGE)))  # one part


@covers(Still)
def test_still_skips_a_part_that_says_still(world):
    text = "Gary went into Jerry's bedroom. Jerry is still in his bedroom."
    parts = ["Gary went into Jerry's bedroom.", 'Jerry is still in his bedroom.']
    a = answer(world, text, Judged(Verdict.NO_CHANGE), parts=parts, part=parts[1])
    assert Still().applies(a) and ruled(Still(), a).act is Act.SKIP
    restated = answer(world, text, [WENT], parts=parts, part=parts[1])
    assert restated.got.verdict is Verdict.RESTATED
    assert ruled(Still(), restated).act is Act.SKIP and restated.r.restated


@covers(Still)
def test_still_rejects_a_part_with_no_change_that_does_not_say_so(world):
    a = answer(world, TWO, Judged(Verdict.NO_CHANGE), parts=PARTS, part=PARTS[1],
               skip_idle_parts=False)
    ruling = ruled(Still(), a)
    assert ruling.act is Act.REJECT
    assert ruling.errors == [f'no change found for the part "{PARTS[1]}" of the report; '
                             'nothing is applied (a partial update would be wrong)']
    # by default the part is passed over (what it names is left to the whole reading),
    # unless it goes somewhere
    a = answer(world, TWO, Judged(Verdict.NO_CHANGE), parts=PARTS, part=PARTS[1])
    assert ruled(Still(), a).act is Act.SKIP
    went = answer(world, TWO, Judged(Verdict.NO_CHANGE), parts=PARTS, part=PARTS[0])
    assert ruled(Still(), went).act is Act.REJECT


BETWEEN = Fact('between', ('red_pen', 'kitchen_table', 'jerry_shelf'))


@covers(RuleTrim)
def test_rule_trim_passes_a_refusal_no_rule_caused(world):
    assert not RuleTrim().applies(answer(world, GOING, [WENT]))  # accepted: nothing to trim
    a = answer(world, GOING, [WENT, fact('dune', 'in_room', 'kitchen')])  # a type error
    assert a.got.verdict is Verdict.INVALID and RuleTrim().applies(a)
    assert ruled(RuleTrim(), a).act is Act.PASS and not a.r.trimmed


@covers(RuleTrim)
def test_rule_trim_keeps_the_answer_without_what_a_rule_failed_by(world):
    a = answer(world, GOING, [WENT, BETWEEN])  # between needs the pen placed: refused
    assert a.got.verdict is Verdict.INVALID and 'between_needs_place' in a.got.errors[0]
    ruling = ruled(RuleTrim(), a)
    assert ruling.act is Act.AMEND and ruling.value.accepted
    assert ruling.value.value.update == Update.of([HERE], [WENT])
    assert ruling.value.value.notes[-1] == (f'{BETWEEN.text()}: left out: with it a rule of '
                                            'the domain fails (asked)')
    assert a.r.trimmed == {BETWEEN} and DoubtReason.AMENDED in a.loop.trace.doubts
    a.fast = True  # the first of two readings is read again instead
    assert not RuleTrim().applies(a)


@covers(GoingAsk)
def test_going_ask_passes_when_no_offered_place_is_new(world):
    a = answer(world, GOING, [LIT])  # Gary left in the kitchen: refused
    assert a.got.verdict is Verdict.INVALID and not GoingAsk().applies(a)  # nothing offered
    a.q.offered = {'gary': [frozenset({HERE})]}  # offered only where he is
    assert ruled(GoingAsk(), a).act is Act.PASS and not a.r.guessed


@covers(GoingAsk)
def test_going_ask_keeps_the_one_offered_place_the_answer_passes_with(world):
    a = answer(world, GOING, [LIT])
    a.q.offered = {'gary': [frozenset({HERE}), frozenset({WENT})]}
    ruling = ruled(GoingAsk(), a)
    assert ruling.act is Act.AMEND and ruling.value.accepted
    assert WENT in ruling.value.value.update.add and LIT in ruling.value.value.update.add
    assert ruling.value.value.notes[-1] == (
        f'{WENT.text()}: one place the where-question offered, the only one the answer '
        'passes with (asked)')
    assert a.r.guessed == {WENT}


CAME = ['Gary came in from the kitchen', 'and took the blue pen.']


def came(world, stated, parts=CAME) -> PartAnswer:
    """Return the first part of "Gary came in from the kitchen and took the blue pen."."""
    s = UpdateSettings(ask_going=False, settled_places=True)
    llm = ScriptedLLM()
    r = reading(world, ' '.join(parts), parts, s)
    q = question(world, r, parts[0], CHECKS, s, llm)
    return PartAnswer(r, parts[0], q, q.check(Update.of([], stated)),
                      Attempts(llm, q.trace, s.attempts), False, llm, world, s)


def test_where_the_next_part_happens_is_ahead_of_a_part_naming_no_place(world):
    # the blue pen is on Jerry's shelf, in Jerry's bedroom; Gary came from the kitchen
    assert came(world, [TAKEN]).q.ahead == {WENT}
    # a place named after the verb that he did not leave: no guess
    assert not came(world, [TAKEN], ['Gary came in for the red pen', 'and took the blue pen.']
                    ).q.ahead
    # what the next part names where he came from does not count (the dune book)
    assert came(world, [TAKEN], ['Gary came in from the kitchen',
                                 'and took the blue pen and the dune book.']).q.ahead == {WENT}
    # only what the next part names: the pen in a third part is no place ahead
    assert not came(world, [TAKEN], ['Gary came in from the kitchen', 'and sat down',
                                     'then took the blue pen.']).q.ahead


@covers(GoingAhead)
def test_going_ahead_answers_a_refused_part_with_where_the_next_part_happens(world):
    a = came(world, [TAKEN])  # read ahead, Gary left in the kitchen: refused
    assert a.got.verdict is Verdict.INVALID
    ruling = ruled(GoingAhead(), a)
    assert ruling.act is Act.AMEND and ruling.value.accepted
    assert ruling.value.value.update == Update.of([HERE], [WENT])  # the pen left to part two
    assert a.r.guessed == {WENT}  # asked, never written unasked
    assert ruling.value.value.notes[-1].endswith('the part naming no place to go (asked)')


@covers(GoingAhead)
def test_going_ahead_passes_without_a_place_ahead(world):
    a = came(world, [TAKEN], ['Gary came in for the red pen', 'and took the blue pen.'])
    assert a.got.verdict is Verdict.INVALID and not GoingAhead().applies(a)


@covers(ReadBack)
def test_read_back_keeps_an_answer_read_back_as_given(world):
    # ReadBack always amends (with the answer as read back): this is its pass
    llm = ScriptedLLM(YES)
    a = answer(world, GOING, [WENT], llm=llm)
    ruling = ruled(ReadBack(), a)
    assert ruling.act is Act.AMEND and ruling.value.accepted
    assert ruling.value.value is a.got.value and not ruling.value.errors
    assert llm.asked == ['confirm'] and not a.loop.trace.doubts


@covers(ReadBack)
def test_read_back_leaves_the_place_the_words_settle_unread(world):
    # "Gary went into Jerry's bedroom": the bedroom is settled by the words
    # (settled_places); only the light is read back
    llm = ScriptedLLM(YES)
    a = answer(world, GOING, [WENT, LIT], llm=llm, settled_places=True)
    ruling = ruled(ReadBack(), a)
    assert ruling.act is Act.AMEND and ruling.value.accepted
    assert llm.asked == ['confirm'] and not llm.replies
    assert [h['fact'] for h in a.loop.trace.history if 'confirm' in h] == [list(LIT.triplet())]


@covers(ReadBack)
def test_read_back_leaves_a_later_parts_settled_place_unread_in_an_earlier_part(world):
    # "Gary picked up his tea and went into Jerry's bedroom": the first part answered with
    # where the second part says he went: the words settle it there too
    text = "Gary finished his tea and went into Jerry's bedroom."
    parts = ['Gary finished his tea', "went into Jerry's bedroom."]
    llm = ScriptedLLM(YES)
    a = answer(world, text, [WENT, LIT], parts=parts, part=parts[0], llm=llm,
               settled_places=True, first=())
    assert a.q.going is None
    ruling = ruled(ReadBack(), a)
    assert ruling.act is Act.AMEND and ruling.value.accepted
    assert [h['fact'] for h in a.loop.trace.history if 'confirm' in h] == [list(LIT.triplet())]


@covers(ReadBack)
def test_read_back_denial_refuses_a_first_reading(world):
    llm = ScriptedLLM(YES, NO)  # in_room read back first, then lit
    a = answer(world, GOING, [WENT, LIT], llm=llm, fast=True)
    ruling = ruled(ReadBack(), a)
    assert ruling.act is Act.AMEND and ruling.value.verdict is Verdict.INVALID
    assert len(ruling.value.errors) == 1 and 'does not read' in ruling.value.errors[0]
    assert a.loop.trace.doubts == [DoubtReason.DENIED] and not llm.replies


@covers(ReadBack)
def test_read_back_denial_asks_the_part_again_without_the_denied_fact(world):
    llm = ScriptedLLM(YES, NO, {'facts': [['in_room', 'gary', 'jerry_bedroom']]})
    a = answer(world, GOING, [WENT, LIT], llm=llm)
    ruling = ruled(ReadBack(), a)
    assert ruling.act is Act.AMEND and ruling.value.accepted
    assert ruling.value.value.update == Update.of([HERE], [WENT])
    assert ruling.value.value.notes[-1] == (f'asked again without {LIT.text()}: the report '
                                            'does not say it')
    assert a.r.dropped == {0: Update.of([], [LIT])}
    assert llm.asked == ['confirm', 'confirm', 'kg_update']  # the kept fact is not asked again


@covers(ReadBack)
def test_read_back_denied_twice_is_kept_to_ask_the_speaker(world):
    again = {'facts': [['in_room', 'gary', 'jerry_bedroom'], ['lit', 'jerry_bedroom', 'true']]}
    llm = ScriptedLLM(YES, NO, again)
    a = answer(world, GOING, [WENT, LIT], llm=llm)
    ruling = ruled(ReadBack(), a)
    assert ruling.act is Act.AMEND and ruling.value.accepted
    assert ruling.value.value.update.add == {WENT, LIT}  # the first answer, kept
    assert a.r.unsure == {LIT} and not llm.replies


def read_ahead(world, text, parts, part, stated) -> PartAnswer:
    """Return ``part`` of ``text`` answered with ``stated``, judged with the part's scope."""
    from l3mp_ros.agent.report.answer_checks import PartScope
    s = UpdateSettings(ask_going=False, settled_places=False)
    llm = ScriptedLLM()
    r = reading(world, text, parts, s)
    q = question(world, r, part, (Complete(), NoChange(), Restated(), PartScope(), Going(),
                                  Verify()), s, llm)
    return PartAnswer(r, part, q, q.check(Update.of([], stated)),
                      Attempts(llm, q.trace, s.attempts), False, llm, world, s)


SAT = "Jerry sat down and Gary put the dune book on Jerry's shelf."
SAT_PARTS = ['Jerry sat down', "and Gary put the dune book on Jerry's shelf."]
ON_SHELF = fact('dune', 'placed_at', 'jerry_shelf')


@covers(ReadAhead)
def test_read_ahead_passes_over_a_part_answered_only_with_a_later_part(world):
    a = read_ahead(world, SAT, SAT_PARTS, SAT_PARTS[0], [ON_SHELF])
    assert a.got.verdict is Verdict.INVALID and 'is not about anything' in a.got.errors[0]
    assert ruled(ReadAhead(), a).act is Act.SKIP


@covers(ReadAhead)
def test_read_ahead_leaves_a_part_of_going_the_last_part_and_answers_of_its_own(world):
    going = ['Jerry went into the kitchen', "and Gary put the dune book on Jerry's shelf."]
    a = read_ahead(world, ' '.join(going), going, going[0], [ON_SHELF])
    assert a.got.verdict is Verdict.INVALID and not ReadAhead().applies(a)  # Jerry must move
    a = read_ahead(world, SAT, SAT_PARTS, SAT_PARTS[1], [fact('jerry', 'in_room', 'kitchen')])
    assert not ReadAhead().applies(a)  # the last part
    pen = fact('blue_pen', 'placed_at', 'kitchen_table')
    a = read_ahead(world, SAT, SAT_PARTS, SAT_PARTS[0], [pen])
    assert a.got.verdict is Verdict.INVALID and not ReadAhead().applies(a)  # no later part's
