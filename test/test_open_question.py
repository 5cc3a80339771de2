# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A report no change was read in is asked about ("What changed with Jerry?"), not refused.

The open question has no options; "I don't know" ends it with nothing written and no
call; an answer with content is read with the report in one call and asked about once
more ("Then: ... Is that right?"); a report that names nothing of the world is not asked.
"""

from l3mp_ros.agent.report.update import NO_CHANGE, NLUpdater
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.testing.fake_openai import DEFAULT_ANSWERS
from l3mp_ros.world.events import EventStatus
from l3mp_ros.world.kg import Fact

from .agent_fixtures import client, household_world

REPORT = 'Jerry is feeling rather tired today.'
NOTHING = {'content': {'facts': []}}
KITCHEN = Fact('person_in_room', ('jerry', 'kitchen'))
NO = {**DEFAULT_ANSWERS, 'confirm': {'content': {'answer': 'no'}}}  # nothing already so


def _updater(world, fake, ask_open=True):
    updater = NLUpdater(world, client(fake), FullRetriever())
    updater.settings.ask_open = ask_open
    return updater


def test_no_change_read_asks_what_changed_and_i_dont_know_ends_it(tmp_path):
    world = household_world(tmp_path)
    before = world.kg.to_json()
    with FakeOpenAI([NOTHING], answers=NO) as fake:
        updater = _updater(world, fake)
        out = updater.run(REPORT)
        assert out.status is EventStatus.CLARIFY and not out.applied
        assert out.question == 'I could not tell what changed. What changed with Jerry?'
        assert out.asked() == {'text': out.question, 'options': []}
        assert out.errors[0].startswith(NO_CHANGE)
        calls = len(fake.requests)
        assert updater.answers("I don't know.")
        done = updater.answer("I don't know.")
        assert len(fake.requests) == calls  # no call to end it
    assert not done.applied and 'nothing is written' in done.errors[0]
    assert updater.pending() is None and world.kg.to_json() == before


def test_an_answer_with_content_is_read_and_asked_once_more(tmp_path):
    world = household_world(tmp_path)
    moved = {'content': {'facts': [['person_in_room', 'jerry', 'kitchen']]}}
    with FakeOpenAI([NOTHING, moved], answers=NO) as fake:
        updater = _updater(world, fake)
        assert updater.run(REPORT).question is not None
        calls = len(fake.requests)
        then = updater.answer('He went off to the kitchen.')
        assert len(fake.requests) == calls + 1  # the answer read with the report, one call
        assert then.question is not None
        assert then.question.startswith('Then: Jerry is in the kitchen.'), then.question
        assert KITCHEN not in world.kg
        done = updater.answer('yes')
    assert done.applied and KITCHEN in world.kg


def test_a_report_naming_nothing_or_without_the_setting_is_refused_as_before(tmp_path):
    for k, (text, ask_open) in enumerate((('It is pouring with rain outside.', True),
                                          (REPORT, False))):
        world = household_world(tmp_path / str(k))
        with FakeOpenAI([NOTHING], answers=NO) as fake:
            out = _updater(world, fake, ask_open).run(text)
        assert out.question is None and out.status is EventStatus.REJECTED, out.errors
        assert not out.applied and not any('asked' in e for e in out.errors), out.errors


def test_a_report_that_only_speaks_to_the_robot_is_not_asked_about(tmp_path):
    """ "Thanks for all your help this morning, robot, you're a star.": the robot is spoken
    to, not of; asked "What changed with the robot?" the speaker could only say "nothing".
    A thing spoken of beside it is still asked about, an item of a list is no address."""
    cases = (("Thanks for all your help this morning, robot, you're a star.", None),
             ('Well done, robot!', None),
             ('Thanks, robot, Jerry is feeling rather tired today.', 'What changed with Jerry?'))
    for k, (text, question) in enumerate(cases):
        world = household_world(tmp_path / str(k))
        with FakeOpenAI([NOTHING], answers=NO) as fake:
            out = _updater(world, fake).run(text)
        if question is None:
            assert out.question is None and out.status is EventStatus.REJECTED, out.errors
        else:
            assert out.question is not None and out.question.endswith(question), out.question
        assert not out.applied


def test_a_state_said_in_words_is_asked_about_before_what_changed(tmp_path):
    """ "The juice glass is empty now." read as no change: the report says ``glass_empty``
    of the juice glass in its own word, so that state is offered at no call ("Just to
    check: ..."), a yes writes it; a report whose words say no state is asked openly."""
    world = household_world(tmp_path)
    empty = Fact('glass_empty', ('juice_glass',))
    assert empty not in world.kg
    with FakeOpenAI([NOTHING], answers=NO) as fake:
        updater = _updater(world, fake)
        out = updater.run('The juice glass is empty now.')
        assert out.status is EventStatus.CLARIFY and not out.applied
        assert out.question.startswith('Just to check:') and 'empty' in out.question, \
            out.question
        (option,) = out.asked()['options']  # completed by the rules: the juice is gone
        assert option['add'] == [list(empty.triplet())]
        assert option['remove'] == [['juice_glass', 'glass_has_liquid', 'orange_juice']]
        assert 'says a state in words' in out.errors[0]
        calls = len(fake.requests)
        done = updater.answer('yes')
        assert len(fake.requests) == calls
    assert done.applied and empty in world.kg
    # said of a window, "open" is its state; "no" ends the talk with nothing written
    world = household_world(tmp_path / 'w')
    with FakeOpenAI([NOTHING], answers=NO) as fake:
        updater = _updater(world, fake)
        out = updater.run("Jerry's bedroom window is open.")
        assert 'open' in out.question and out.asked()['options'][0]['add'] == [
            ['jerry_bedroom_window', 'window_open', 'true']]
        done = updater.answer('no')
    assert not done.applied and Fact('window_open', ('jerry_bedroom_window',)) not in world.kg
    # a state said to go on is not asked about: "still open" says nothing new
    world = household_world(tmp_path / 's')
    with FakeOpenAI([NOTHING], answers=NO) as fake:
        out = _updater(world, fake).run("Jerry's bedroom window is still open.")
    assert out.question is None or 'open' not in out.question


def test_a_report_every_reading_of_which_was_refused_is_asked_about_not_refused(tmp_path):
    """Every answer named a place the world does not have: the report is asked about openly
    with the reason kept ("What changed with Jerry?"), "I don't know" writes nothing; with
    ``ask_refused`` off (the default) it is refused in silence, as before."""
    nowhere = {'content': {'facts': [['person_in_room', 'jerry', 'garage_loft']]}}
    for k, asks in enumerate((True, False)):
        world = household_world(tmp_path / str(k))
        before = world.kg.to_json()
        with FakeOpenAI([nowhere] * 6, answers=NO) as fake:
            updater = _updater(world, fake)
            updater.settings.ask_refused = asks
            out = updater.run('Jerry went up to the loft.')
            assert not out.applied and 'garage_loft' in out.errors[0], out.errors
            if not asks:
                assert out.status is EventStatus.REJECTED and out.question is None
                continue
            assert out.status is EventStatus.CLARIFY, out.errors
            assert out.question == 'I could not tell what changed. What changed with Jerry?'
            assert out.errors[0].endswith(f'asked: {out.question}')
            calls = len(fake.requests)
            done = updater.answer("I don't know.")
            assert len(fake.requests) == calls
        assert not done.applied and updater.pending() is None
        assert world.kg.to_json() == before


def test_a_failed_call_is_not_asked_about(tmp_path):
    """The model could not be reached: the report is refused to be sent again, never asked
    about (the person said nothing unclear)."""
    world = household_world(tmp_path)
    with FakeOpenAI([{'status': 503}] * 12, answers=NO) as fake:
        updater = _updater(world, fake)
        updater.settings.ask_refused = True
        out = updater.run('Jerry went up to the loft.')
    assert out.question is None and out.status is EventStatus.REJECTED, out.errors
    assert any('LLM' in e for e in out.errors), out.errors
