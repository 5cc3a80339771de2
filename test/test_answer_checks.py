# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 3's answer checks, each alone: a :class:`Draft` built by hand, its ruling asserted.

Every draft is one part's answer on the ``mini`` world (``conftest.py``); no LLM is asked
(a scripted one is given where a check could ask, and must not be called).
"""

import pytest

from l3mp_ros.agent.core.attempts import DoubtReason, Verdict
from l3mp_ros.agent.core.rulings import Act
from l3mp_ros.agent.report.answer_checks import (
    Complete,
    Going,
    Narrative,
    NoChange,
    PartScope,
    Purpose,
    Relevance,
    Restated,
    RestatedAfter,
    Verify,
)
from l3mp_ros.agent.report.reading import Draft
from l3mp_ros.agent.report.update import NO_CHANGE, RESTATED, UpdateSettings
from l3mp_ros.retrieval.link import named_in
from l3mp_ros.world.complete import Completion
from l3mp_ros.world.kg import Fact, Update
from l3mp_ros.world.model import WorldModel

from .check_fixtures import ScriptedLLM, covers, fact, mini_world, question, reading, ruled

GOING = "Gary went into Jerry's bedroom."
WENT = fact('gary', 'in_room', 'jerry_bedroom')  # where Gary went
HERE = fact('gary', 'in_room', 'kitchen')  # where Gary is before the report
LIT = Fact('lit', ('jerry_bedroom',))
DARK = Fact('dark', ('jerry_bedroom',))
# a report of two parts: the second says where Gary went, not what he took
TWO = "Gary took the dune book from the kitchen table and went to Jerry's bedroom."
PARTS = ['Gary took the dune book from the kitchen table', "went to Jerry's bedroom."]
TOOK = fact('dune', 'in_hand', 'gary')


@pytest.fixture(scope='module')
def world() -> WorldModel:
    return mini_world()  # read, never written: one for the module


def draft(world, text, add=(), *, parts=None, part=None, completed=True, **settings) -> Draft:
    """Return one part's answer stating ``add``, completed by :class:`Complete`."""
    s = UpdateSettings(**settings)
    r = reading(world, text, parts, s)
    d = Draft(question(world, r, part, settings=s, llm=ScriptedLLM()), Update.of([], add))
    if completed:
        d.take(ruled(Complete(), d))
    return d


def second_part(world, text, first, answer=(LIT,), settings=None) -> Draft:
    """Return the answer ``answer`` to the second part of ``text`` (split at its first comma),
    the first part answered with ``first`` as asking it does (None: not answered)."""
    s = settings or UpdateSettings()
    parts = [p.strip() for p in text.split(',', 1)]
    r = reading(world, text, parts, s)
    r.earlier |= named_in(world.kg, parts[0])
    if first is not None:
        r.accept(Completion(first, implied=[(HERE, 'agent_room')]), 'gary')
    d = Draft(question(world, r, parts[1], settings=s, llm=ScriptedLLM()),
              Update.of([], answer))
    if answer:
        d.take(ruled(Complete(), d))
    return d


@covers(Narrative)
def test_narrative_passes_one_new_place(world):
    d = draft(world, GOING, [WENT], completed=False)
    ruling = ruled(Narrative(), d)
    assert ruling.act is Act.PASS and ruling.value is None and not ruling.doubts


@covers(Narrative)
def test_narrative_keeps_the_place_named_last(world):
    text = 'Gary took the dune book off the kitchen table and handed it to Jerry.'
    handed = fact('dune', 'in_hand', 'jerry')
    d = draft(world, text, [TOOK, handed], completed=False)
    ruling = ruled(Narrative(), d)
    assert ruling.act is Act.AMEND and ruling.value == Update.of([], [handed])
    assert len(ruling.notes) == 1 and ruling.notes[0].startswith('dropped (dune, in_hand, gary)')
    assert ruling.doubts == [DoubtReason.NARRATIVE]


@covers(Complete)
def test_complete_adds_the_removals_a_rule_forces(world):
    # Complete never passes: it always amends the draft with its completion
    d = draft(world, GOING, [WENT], completed=False)
    ruling = ruled(Complete(), d)
    assert ruling.act is Act.AMEND and isinstance(ruling.value, Completion)
    assert ruling.value.update == Update.of([HERE], [WENT])
    assert ruling.value.implied == [(HERE, 'agent_room')]


@covers(Complete)
def test_complete_of_what_holds_changes_nothing(world):
    d = draft(world, GOING, [HERE], completed=False)
    ruling = ruled(Complete(), d)
    assert ruling.act is Act.AMEND and ruling.value.update.is_empty()
    assert ruling.value.asked == Update.of([], [HERE]) and ruling.value.notes
    assert d.again == set()  # no earlier part placed Gary


@covers(NoChange)
def test_no_change_leaves_an_answer_that_states_something(world):
    assert not NoChange().applies(draft(world, GOING, [WENT], completed=False))


@covers(NoChange)
def test_no_change_stops_an_empty_answer(world):
    d = draft(world, 'Gary read the dune book.', completed=False)
    ruling = ruled(NoChange(), d)
    assert ruling.act is Act.STOP and ruling.verdict is Verdict.NO_CHANGE
    assert ruling.errors == [NO_CHANGE] and ruling.value is None


@covers(NoChange)
def test_an_empty_answer_to_a_going_the_words_place_takes_that_place(world):
    # "... and Gary went into Jerry's bedroom" answered with nothing: the words say where
    def second(text):
        return second_part(world, text, None, answer=())
    d = second("Gary read the dune book, then Gary went into Jerry's bedroom.")
    assert d.q.worded == {WENT}
    ruling = ruled(NoChange(), d)
    assert ruling.act is Act.AMEND and ruling.doubts == [DoubtReason.AMENDED]
    assert WENT in ruling.value.update.add and HERE in ruling.value.update.remove
    assert d.q.placed == {WENT}
    # a going that may not have happened is no change the words give
    for text in ("Gary read the dune book, then Gary will go into Jerry's bedroom.",
                 "Gary read the dune book, but Gary didn't go into Jerry's bedroom.",
                 "Gary read the dune book, if Gary went into Jerry's bedroom he is there."):
        assert ruled(NoChange(), second(text)).act is Act.STOP, text
    # a report of one part read as nothing stays nothing: the words complete a reading
    d = draft(world, GOING, completed=False)
    assert d.q.worded == {WENT} and ruled(NoChange(), d).act is Act.STOP


@covers(Restated)
def test_restated_leaves_a_change(world):
    assert not Restated().applies(draft(world, GOING, [WENT]))


@covers(Restated)
def test_restated_stops_an_answer_that_already_holds(world):
    d = draft(world, GOING, [HERE])
    ruling = ruled(Restated(), d)
    assert ruling.act is Act.STOP and ruling.verdict is Verdict.RESTATED
    assert ruling.value is d.completion and ruling.errors[0] == RESTATED
    assert ruling.errors[1:] == d.done.notes and len(ruling.errors) > 1  # why it holds
    d.again = {HERE}  # an earlier part placed Gary there: no restatement of this part
    assert not Restated().applies(d)


@covers(RestatedAfter)
def test_restated_after_leaves_a_change_or_a_refused_answer(world):
    assert not RestatedAfter().applies(draft(world, GOING, [WENT]))
    d = draft(world, GOING, [HERE])
    d.errors = ['refused by an earlier check']
    assert not RestatedAfter().applies(d)


@covers(RestatedAfter)
def test_restated_after_stops_what_the_checks_left_holding(world):
    d = draft(world, GOING, [HERE])
    d.again = {HERE}  # unlike Restated, asked again whatever an earlier part placed
    assert RestatedAfter().applies(d) and not Restated().applies(d)
    ruling = ruled(RestatedAfter(), d)
    assert ruling.act is Act.STOP and ruling.verdict is Verdict.RESTATED
    assert ruling.errors[0] == RESTATED and ruling.value is d.completion


@covers(Relevance)
def test_relevance_passes_facts_about_what_the_report_mentions(world):
    d = draft(world, GOING, [WENT])
    ruling = ruled(Relevance(), d)
    assert ruling.act is Act.PASS and not ruling.barred


@covers(Relevance)
def test_relevance_rejects_and_bars_a_fact_about_something_else(world):
    robot = fact('the_robot', 'in_room', 'jerry_bedroom')
    d = draft(world, GOING, [WENT, robot])
    ruling = ruled(Relevance(), d)
    assert ruling.act is Act.REJECT and ruling.barred == {robot}
    assert len(ruling.errors) == 1
    assert 'about the_robot, which the report does not mention' in ruling.errors[0]


@covers(PartScope)
def test_part_scope_leaves_a_report_of_one_part(world):
    d = draft(world, GOING, [WENT])
    assert d.q.scope is None and not PartScope().applies(d)


@covers(PartScope)
def test_part_scope_passes_what_the_part_names(world):
    d = draft(world, TWO, [WENT], parts=PARTS, part=PARTS[1])
    assert ruled(PartScope(), d).act is Act.PASS


@covers(PartScope)
def test_part_scope_drops_what_another_part_says(world):
    d = draft(world, TWO, [WENT, TOOK], parts=PARTS, part=PARTS[1])
    ruling = ruled(PartScope(), d)
    assert ruling.act is Act.AMEND and ruling.barred == {TOOK}
    assert ruling.value.update == Update.of([HERE], [WENT])
    assert ruling.value.notes[-1] == (f'dropped {TOOK.text()}: not about anything '
                                      f'"{PARTS[1]}" names')


@covers(PartScope)
def test_part_scope_rejects_an_answer_only_about_another_part(world):
    d = draft(world, TWO, [TOOK], parts=PARTS, part=PARTS[1])
    ruling = ruled(PartScope(), d)
    assert ruling.act is Act.REJECT and ruling.barred == {TOOK}
    assert ruling.errors == [f'{TOOK.text()} is not about anything "{PARTS[1]}" names; '
                             'answer only what this part says']


@covers(Going)
def test_going_leaves_a_subject_an_earlier_part_already_put_where_this_part_names(world):
    # "Gary took the dune book and Gary went to Jerry's bedroom": the first part was
    # answered with Gary's move too; the second, answered with something else beside it,
    # leaves Gary where the first part put him, which is where it says he went
    from l3mp_ros.agent.report.answer_checks import taken_before
    text = "Gary took the dune book, then Gary went to Jerry's bedroom."
    parts = ['Gary took the dune book', "then Gary went to Jerry's bedroom."]
    s = UpdateSettings(ask_going=False)
    r = reading(world, text, parts, s)
    r.earlier |= named_in(world.kg, parts[0])  # as asking the first part does
    r.accept(Completion(Update.of([HERE], [WENT, TOOK]), implied=[(HERE, 'agent_room')]),
             'gary')
    d = Draft(question(world, r, parts[1], settings=s, llm=ScriptedLLM()),
              Update.of([], [LIT]))
    d.take(ruled(Complete(), d))
    assert d.q.going is not None and taken_before(d.q) == {'gary'}
    assert not Going().applies(d)
    # read alone, the same answer leaves Gary behind
    alone = draft(world, GOING, [LIT])
    assert Going().applies(alone) and taken_before(alone.q) == set()
    # a first part answered with nothing but Gary's move said nothing of its own: the
    # move is this part's, and this answer leaves it out
    r = reading(world, text, parts, s)
    r.earlier |= named_in(world.kg, parts[0])
    r.accept(Completion(Update.of([HERE], [WENT]), implied=[(HERE, 'agent_room')]), 'gary')
    d = Draft(question(world, r, parts[1], settings=s, llm=ScriptedLLM()),
              Update.of([], [LIT]))
    d.take(ruled(Complete(), d))
    assert taken_before(d.q) == set() and Going().applies(d)


@covers(Going)
def test_going_back_where_no_option_names_is_going_back_where_one_was(world):
    # "Gary came back in for the dune book, then went back out to his car": no place is
    # named for the second going; Gary went back to where he was before the report
    moved = Update.of([HERE], [WENT])
    d = second_part(world, 'Gary came back in for the dune book, then Gary went back out to '
                    'his car.', moved)
    assert d.q.going is not None and d.q.going.subject == 'gary'
    ruling = ruled(Going(), d)
    assert ruling.act is Act.AMEND and HERE in ruling.value.update.add
    assert WENT in ruling.value.update.remove and d.q.llm.asked == []
    # a going that is not back: no place to take, the answer goes back to the model
    d = second_part(world, 'Gary came back in for the dune book, then Gary went out to his '
                    'car.', moved)
    assert ruled(Going(), d).act is Act.REJECT


@covers(Going)
def test_going_leaves_a_subject_that_moved(world):
    d = draft(world, GOING, [WENT])
    assert d.q.going is not None and d.q.going.subject == 'gary'
    assert not Going().applies(d)


@covers(Going)
def test_going_rejects_a_subject_left_where_it_was(world):
    d = draft(world, GOING, [LIT], ask_going=False)
    ruling = ruled(Going(), d)
    assert ruling.act is Act.REJECT
    assert ruling.errors == ['the report says gary went into somewhere: state where gary is now']


@covers(Going)
def test_going_takes_in_the_place_the_words_name_after_the_verb(world):
    d = draft(world, GOING, [LIT])  # "went into Jerry's bedroom": the words say where
    assert d.q.worded == {WENT}
    ruling = ruled(Going(), d)
    assert ruling.act is Act.AMEND and ruling.value.update == Update.of([HERE, DARK], [WENT, LIT])
    assert ruling.value.notes[-1] == (f'{WENT.text()}: the place the words name right after '
                                      'gary went')
    assert d.q.placed == {WENT} and not d.q.only and d.q.llm.asked == []


@covers(Going)
def test_going_takes_in_the_one_new_place_the_report_offers(world):
    # without the words' place (settled_places off): the report offers one new place
    d = draft(world, GOING, [LIT], settled_places=False)
    assert not d.q.worded
    ruling = ruled(Going(), d)
    assert ruling.act is Act.AMEND and ruling.doubts == [DoubtReason.AMENDED]
    assert ruling.value.update == Update.of([HERE, DARK], [WENT, LIT])
    assert ruling.value.notes[-1].startswith(f'{WENT.text()}: the one new place the report '
                                             'offers for gary')
    assert d.q.placed == {WENT} and d.q.only == {WENT}
    assert d.q.llm.asked == []  # nothing asked of the model


@covers(Going)
def test_going_to_meet_someone_offers_where_they_are(world):
    # "went back in to ask Jerry something": no place named; Jerry's room is where Gary went
    text = 'Gary went back in to ask Jerry something.'
    d = draft(world, text, [LIT])
    assert not d.q.worded
    ruling = ruled(Going(), d)
    assert ruling.act is Act.AMEND and ruling.value.update == Update.of([HERE, DARK], [WENT, LIT])
    assert ruling.value.notes[-1].startswith(f'{WENT.text()}: the one new place the report '
                                             'offers for gary')
    assert d.q.llm.asked == []


@pytest.mark.parametrize('text', [
    "Gary went back in to take Jerry's book.",  # Jerry as an owner: no one Gary meets
    'Gary went back in to the others with Jerry.',  # "to the": no verb of purpose
    'Gary went back in, Jerry said.',  # Jerry named, not after "to" and a verb
])
@covers(Going)
def test_going_offers_no_place_of_someone_not_met(world, text):
    d = draft(world, text, [LIT], ask_going=True)
    assert not d.q.worded
    ruling = ruled(Going(), d)
    assert ruling.act is Act.REJECT and ruling.errors[0].startswith(
        'the report says gary went')
    assert d.q.llm.asked == []  # no place to offer: nothing asked


@covers(Verify)
def test_verify_passes_a_valid_update(world):
    d = draft(world, GOING, [WENT])
    assert ruled(Verify(), d).act is Act.PASS


@covers(Verify)
def test_verify_rejects_what_breaks_a_rule(world):
    # the pen put on the table, its removal from Gary's hand left out: two places at once
    d = draft(world, GOING, completed=False)
    d.completion = Completion(Update.of([], [fact('red_pen', 'placed_at', 'kitchen_table')]))
    ruling = ruled(Verify(), d)
    assert ruling.act is Act.REJECT and len(ruling.errors) == 1
    assert 'rule item_location' in ruling.errors[0]
    d.errors = ['refused by an earlier check']
    assert not Verify().applies(d)


@covers(Verify)
def test_verify_drops_what_the_answer_says_of_a_thing_named_only_to_place_another(world):
    # "on the shelf by the blue pen": the blue pen says which shelf; an answer that also
    # moves it (twice, breaking a rule) goes on without it, in doubt; without the
    # description the same answer is refused
    moved = [fact('red_pen', 'placed_at', 'jerry_shelf'), fact('blue_pen', 'in_hand', 'gary'),
             fact('blue_pen', 'placed_at', 'kitchen_table')]
    d = draft(world, 'Gary put the red pen on the shelf by the blue pen.', moved)
    ruling = ruled(Verify(), d)
    assert ruling.act is Act.AMEND and ruling.doubts == ['described_dropped']
    assert ruling.value.update == Update.of([fact('red_pen', 'in_hand', 'gary')],
                                            [fact('red_pen', 'placed_at', 'jerry_shelf')])
    assert 'named only to say where another thing is' in ruling.value.notes[-1]
    d = draft(world, 'Gary put the red pen and the blue pen on the shelf.', moved)
    assert ruled(Verify(), d).act is Act.REJECT


def test_a_part_taking_something_along_takes_the_words_place_only_if_the_report_agrees(world):
    """ "Gary took the dune book through to Jerry's bedroom" is Gary going there; as the
    first part of "... and came back to the kitchen with it" the words' place is no longer
    where he is, so the part's question does not take it without asking."""
    alone = draft(world, "Gary took the dune book through to Jerry's bedroom.", [LIT])
    assert alone.q.going is not None and alone.q.worded == {WENT}
    text = "Gary took the dune book through to Jerry's bedroom and came back into the kitchen."
    parts = ["Gary took the dune book through to Jerry's bedroom",
             'and came back into the kitchen.']
    first = draft(world, text, [LIT], parts=parts, part=parts[0])
    assert first.q.going is not None and first.q.going.subject == 'gary'
    assert not first.q.worded


@covers(Purpose)
def test_a_state_said_only_as_an_aim_is_no_change(world):
    """ "left his inspection form with Jo to sign": signed is what is meant, not done."""
    aim = "Gary went into Jerry's bedroom for it to be lit."
    d = draft(world, aim, [WENT, LIT])
    got = ruled(Purpose(), d)
    assert got.act is Act.AMEND and LIT not in got.value.update.add
    assert WENT in got.value.update.add and got.barred == {LIT}
    alone = ruled(Purpose(), draft(world, aim, [LIT]))
    assert alone.act is Act.REJECT and 'not what happened' in alone.errors[0]
    # said as done, or as done and as an aim: a change
    for done in ("Gary went into Jerry's bedroom and it is lit now.",
                 "Gary went into Jerry's bedroom, lit it to read, for it to be lit."):
        assert ruled(Purpose(), draft(world, done, [WENT, LIT])).act is not Act.AMEND, done


@covers(Purpose)
@pytest.mark.parametrize('text,aim', [
    ('Martin left the plate in the sink to clean later.', True),
    ('Martin left the plate in the sink for Anna to clean.', True),
    ('Martin cleaned the plate to put it away.', False),
    ('Martin washed the plate clean.', False),
])
def test_a_states_own_word_after_to_is_an_aim(tmp_path, text, aim):
    from l3mp_ros.agent.report.answer_checks import purposed

    from .agent_fixtures import household_world
    world = household_world(tmp_path)
    clean = Fact('dish_is_clean', ('plate',))
    assert (purposed(world.domain, text, Update.of([], [clean])) == {clean}) is aim
