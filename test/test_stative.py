# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A thing said to be in a state in words not its predicate's (agent/report/stative.py).

"The cereal bowl's spotless now": no word of ``dish_is_clean`` stands in the report, yet a
reading that moves the bowl and says nothing of its states has left a clause out. The
clause is found by its shape (a thing, a form of "to be", words that name nothing), the
thing's one-place states are asked about, and a second such thing is asked about once
the first question is answered (agent/report/whole.py, ``Candidate.follow``).
"""

import pytest

from l3mp_ros.agent.core.asking import MAX_QUESTIONS, Pending
from l3mp_ros.agent.core.destinations import proper_things
from l3mp_ros.agent.core.request import mentions_of
from l3mp_ros.agent.report.stative import stated, unsaid
from l3mp_ros.world.kg import Fact, Update

from .agent_fixtures import household_world, reported

BOWL_CLEAN = Fact('dish_is_clean', ('cereal_bowl',))  # not so in the first state
MUG_CLEAN = Fact('dish_is_clean', ('coffee_mug',))  # so in the first state
BOWL_MOVED = Fact('placed_at_table', ('cereal_bowl', 'living_room_table'))
REPORT = ("Jerry put the cereal bowl on the living room table. The cereal bowl's spotless "
          'now, and the coffee mug is filthy.')
MOVE_ONLY = [{'content': {'facts': [list(BOWL_MOVED.triplet())]}}]


@pytest.fixture
def world(tmp_path):
    return household_world(tmp_path)


def _stated(world, text):
    return stated(world.kg, text, mentions_of(world, world.kg, text),
                  proper_things(world, world.kg))


@pytest.mark.parametrize('text,things', [
    ("The cereal bowl's spotless now.", ['cereal_bowl']),
    ('The blue shirt is soaking.', ['blue_shirt']),
    ('The coffee mug has been scrubbed.', ['coffee_mug']),
    ("The blue shirt's been washed, so it's lovely and fresh.", ['blue_shirt']),
    ("The cereal bowl's spotless and the coffee mug is filthy.", ['cereal_bowl', 'coffee_mug']),
    # a deed, a place, a going, no change, a possessive, a thing a preposition governs
    ("Jerry's taken the red pen to the kitchen.", []),
    ("The red pen's on the living room table.", []),
    ("Jerry's gone out.", []),
    ('The blue shirt is still damp.', []),
    ("The blue shirt isn't dry.", []),
    ("Jerry's switched it off.", []),
    ("Jerry's just washed his blue shirt.", []),
    ("Jerry's blue shirt needs a wash.", []),
    ('The door to the kitchen is open.', []),
    ("The blue shirt's filthy, as always.", []),
    ('The blue shirt is soaking as usual.', []),
    ("The shelf in Anna's bedroom is dusty.", []),
    # a person's "'s" before a word no mention names is her thing, unless a participle
    ("After Jerry's nap, Jerry's been refreshed.", ['jerry']),
    ("Jerry's break is over, Anna's tired.", []),
    ("Anna's worn out.", []),
    ("Anna's exhausted now.", ['anna']),
    # a person's "'s" before a word no mention names is her thing, unless a participle
    ("After Jerry's nap, Jerry's been refreshed.", ['jerry']),
    ("Jerry's break is over, Anna's tired.", []),
    ("Anna's exhausted now.", ['anna']),
    # a word of place ending the clause, a verb of becoming: of a thing, a state
    ("The living room TV is on, and Jerry's in the kitchen.", ['living_room_tv']),
    ("The kitchen light's off.", ['kitchen_light']),
    ("The blue shirt's gone all soggy and cold.", ['blue_shirt']),
    ('The blue shirt has turned cold, so Jerry moved it.', ['blue_shirt']),
    ('The blue shirt has got a stain.', []),
    ("The kitchen light's gone out.", ['kitchen_light']),
    ("Jerry's up.", []),
    ("Jerry's gone off.", []),
    ("The blue shirt's gone.", []),
    ("The blue shirt's gone to the wash.", []),
    ("The red pen's on the living room table.", []),
    ("The kitchen light's off in the kitchen.", []),
    # "it" is the thing named last before it in its sentence, never a person
    ('Jerry moved the blue shirt, it is soaking.', ['blue_shirt']),
    ('Jerry came in, it is raining.', []),
    ('Jerry moved the blue shirt. It is raining.', []),
])
def test_a_clause_of_being_says_a_state_of_its_thing(world, text, things):
    assert _stated(world, text) == things, text


def test_the_states_offered_are_the_thing_s_flips_the_reading_leaves_out(world):
    text = "The cereal bowl's spotless now."
    said = mentions_of(world, world.kg, text)
    got = unsaid(world, world.kg, text, said, Update.of([], []))
    assert got == {'cereal_bowl': [(BOWL_CLEAN, False)]}  # it begins: the bowl is not clean
    text = "The coffee mug's filthy now."
    got = unsaid(world, world.kg, text, mentions_of(world, world.kg, text), Update.of([], []))
    assert got == {'coffee_mug': [(MUG_CLEAN, True)]}  # it ends: the mug is clean now
    # a reading that says a state of the thing leaves nothing out
    assert unsaid(world, world.kg, text, mentions_of(world, world.kg, text),
                  Update.of([MUG_CLEAN], [])) == {}


@pytest.fixture
def asked(tmp_path):
    world, fake, updater, out = reported(tmp_path, MOVE_ONLY, REPORT)
    yield world, fake, updater, out
    fake.__exit__(None, None, None)


def _pick(out, fact, removed=False):
    """Return the ordinal answer that picks the option adding (``removed``: removing) ``fact``."""
    options = out.asked()['options']
    k = next(k for k, o in enumerate(options)
             if list(fact.triplet()) in o['remove' if removed else 'add'])
    return ('the first one', 'the second one', 'the third one', 'the fourth one')[k]


def test_the_first_thing_is_asked_about_and_the_other_is_not_kept_as_it_was(asked):
    world, _, _, out = asked
    assert not out.applied and 'And the coffee mug: which is right?' in out.question
    assert BOWL_MOVED not in world.kg
    options = out.asked()['options']
    mug_dirty = [o for o in options if list(MUG_CLEAN.triplet()) in o['remove']]
    assert len(mug_dirty) == 1
    # the bowl is asked about next: this option says nothing of its being clean
    assert all(list(BOWL_CLEAN.triplet()) not in o['remove'] + o['add'] for o in mug_dirty)
    assert any('the reading leaves out cereal_bowl' in e for e in out.errors), out.errors


def test_the_second_thing_is_asked_once_the_first_is_chosen_and_both_are_written(asked):
    world, fake, updater, out = asked
    calls = len(fake.requests)
    then = updater.answer(_pick(out, MUG_CLEAN, removed=True))
    assert not then.applied and 'And the cereal bowl: which is right?' in then.question
    assert 'The coffee mug is no longer clean.' in then.question  # what was chosen leads
    assert MUG_CLEAN in world.kg  # nothing written yet
    done = updater.answer(_pick(then, BOWL_CLEAN))
    assert done.applied and len(fake.requests) == calls  # no model call for the answers
    assert BOWL_MOVED in world.kg and BOWL_CLEAN in world.kg and MUG_CLEAN not in world.kg


def test_the_first_thing_kept_as_it_was_still_asks_about_the_second(asked):
    world, _, updater, out = asked
    options = out.asked()['options']
    k = next(k for k, o in enumerate(options) if list(MUG_CLEAN.triplet()) in o['add'])
    then = updater.answer(('the first one', 'the second one', 'the third one',
                           'the fourth one')[k])
    assert not then.applied and 'And the cereal bowl: which is right?' in then.question
    done = updater.answer(_pick(then, BOWL_CLEAN, removed=True))  # "is not clean"
    assert done.applied and BOWL_MOVED in world.kg
    assert MUG_CLEAN in world.kg and BOWL_CLEAN not in world.kg


def test_none_of_them_to_the_second_question_writes_nothing(asked):
    world, _, updater, out = asked
    before = world.kg.to_json()
    then = updater.answer(_pick(out, MUG_CLEAN, removed=True))
    done = updater.answer('none of them')
    assert not done.applied and then.question and world.kg.to_json() == before


def test_a_chosen_option_that_leaves_a_thing_out_writes_nothing_when_questions_are_used_up(
        asked):
    world, _, _, out = asked
    pending = Pending.from_json(out.clarify)
    k = next(k for k in pending.offered if pending.readings[k].follow)
    assert pending.then(k, world.kg, world.domain, 60.0) is not None
    pending.asked = MAX_QUESTIONS
    assert pending.then(k, world.kg, world.domain, 60.0) is None


def test_the_next_question_survives_the_pending_event_s_json(asked):
    _, _, _, out = asked
    pending = Pending.from_json(out.clarify)
    again = Pending.from_json(pending.to_json())
    assert [r.follow for r in again.readings] == [r.follow for r in pending.readings]
    assert any(r.follow for r in again.readings)
    assert all(c.about == 'cereal_bowl' for r in again.readings for c in r.follow)


def _leisure(tmp_path):
    """The leisure centre's world (a development set's domain: lanes, lockers, people)."""
    from .agent_fixtures import dev_world

    return dev_world(tmp_path, 'leisure')


def test_a_thing_is_offered_the_states_of_its_kind_only_those_reports_change_too(tmp_path):
    """A lane a clause says is "taken" is offered being in use (a state no action changes,
    only reports) and never being locked or wet (typed for any object, held by no lane)."""
    from l3mp_ros.agent.report.whole import possible

    world = _leisure(tmp_path)
    kg = world.kg
    text = "Fiona: it's taken for the next hour. I've moved the yellow kickboards to lane one."
    moved = Update.of([Fact('onsurface', ('yellow_kickboards', 'lane_2'))],
                      [Fact('onsurface', ('yellow_kickboards', 'lane_1'))])
    got = possible(world, kg, moved, 'lane_1', ['lane_1', 'yellow_kickboards'], True,
                   text=text, reported=True)
    said = {f.predicate for _, what, _, _ in got.readings for f in what.add | what.remove}
    assert 'inuse' in said, said
    assert not said & {'islocked', 'iswet'}, said
    # a lane no clause says is in a state: only states actions change (none of a lane's)
    other = possible(world, kg, moved, 'lane_1', ['lane_1', 'yellow_kickboards'], True,
                     text=text)
    assert other is None or not {f.predicate for _, what, _, _ in other.readings
                                 for f in what.add} & {'inuse', 'outoforder'}
    # a person is offered none of a thing's states ("Fiona is locked")
    person = possible(world, kg, moved, 'fiona', ['fiona', 'lane_1'], True, text=text)
    offered = {f.predicate for _, what, _, _ in (person.readings if person else ())
               for f in what.add}
    assert not offered & {'islocked', 'iswet', 'outoforder', 'inuse'}, offered


# "The cereal bowl's spotless now.": the model puts the bowl on the table instead, and the
# read-back denies it (twice: the part asked again writes it again). Nothing is left read.
BOWL_ON_TABLE = {'content': {'facts': [list(BOWL_MOVED.triplet())]}}


def _nothing_read(tmp_path, script):
    from l3mp_ros.agent.report.settings import UpdateSettings
    from l3mp_ros.agent.report.update import NLUpdater
    from l3mp_ros.retrieval.full import FullRetriever
    from l3mp_ros.testing import FakeOpenAI
    from l3mp_ros.testing.fake_openai import NO_OPTION

    from .agent_fixtures import client, read_back_reply

    world = household_world(tmp_path)
    fake = FakeOpenAI([BOWL_ON_TABLE, read_back_reply(0.2, 'no'), *script],
                      answers=NO_OPTION).start()
    updater = NLUpdater(world, client(fake), FullRetriever(),
                        UpdateSettings(place_check=False, settled_places=False))
    return world, fake, updater, updater.run("The cereal bowl's spotless now.")


def test_a_reading_the_read_back_denied_whole_asks_what_the_clause_says_from_nothing(tmp_path):
    """The bowl's states are offered alone too: not only beside the move the read-back denied.

    The bowl's "'s" is "is" (the clause read it so), not an owner's.
    """
    world, fake, updater, out = _nothing_read(tmp_path, [BOWL_ON_TABLE] * 3)
    with fake:
        assert not out.applied and BOWL_CLEAN not in world.kg
        pending = Pending.from_json(out.clarify)
        assert all(c.about == 'cereal_bowl' for c in pending.readings)
        # the answer made whole first (the move with the bowl clean, or kept as it was)
        assert 'And the cereal bowl: which is right?' in out.question
        alone = [c for c in pending.readings if BOWL_MOVED not in c.update.add]
        assert [c.update for c in alone] == [Update.of([], [BOWL_CLEAN])], alone
        assert not any(c.update.is_empty() for c in pending.readings)
        calls = len(fake.requests)
        then = updater.answer('none of them')
        assert then.question == 'Then: The cereal bowl is clean. Is that right?', then.question
        done = updater.answer('yes')
        assert len(fake.requests) == calls  # no model call for the answers
    assert done.applied and BOWL_CLEAN in world.kg and BOWL_MOVED not in world.kg
