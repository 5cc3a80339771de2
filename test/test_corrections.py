# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Answers that carry content (issue 69, Deliver 3): "No, he kept it in the living room."

The robot asks about a reading it doubts (the set-up of test_asking_back.py: the real
openai client against the loopback scripted server). An answer with content after its
yes/no is read with the report in one call and its reading asked about once more; a bare
yes or no costs no call; content that names nothing the readings are about is no answer.
"""

from l3mp_ros.agent.core.asking import content_of
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.testing.fake_openai import NO_OPTION

from .agent_fixtures import household_world
from .test_asking_back import EXTRA, HELD, OLD, REPORT, SCRIPT, WAS, _updater

PEN_ONLY = {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry']]}}
NONSENSE = {'content': {'facts': [['in_person_hand', 'red_pen', 'the_moon']]}}


def _asked(tmp_path, *more):
    world = household_world(tmp_path)
    fake = FakeOpenAI([*SCRIPT, *more], answers=NO_OPTION).start()
    updater = _updater(world, fake)
    out = updater.run(REPORT)
    assert str(out.status) == 'clarify'
    return world, fake, updater


def test_a_correction_is_read_in_one_call_and_asked_about_once_more(tmp_path):
    world, fake, updater = _asked(tmp_path, PEN_ONLY)
    before = world.kg.to_json()
    with fake:
        calls = len(fake.requests)
        assert updater.answers('No, he stayed in the living room with it.')
        then = updater.answer('No, he stayed in the living room with it.')
        assert len(fake.requests) == calls + 1  # one call reads the correction
        assert then.question.startswith('Then: ') and not then.applied
        assert world.kg.to_json() == before  # nothing written on one reading alone
        assert then.asked()['options'] == [{'remove': [list(OLD.triplet())],
                                            'add': [list(HELD.triplet())]}]
        done = updater.answer('yes')
        assert len(fake.requests) == calls + 1  # the bare yes costs nothing
    assert done.applied and HELD in world.kg and WAS in world.kg and EXTRA not in world.kg
    assert world.support_of(HELD).kind == 'confirmed'  # the speaker confirmed it


def test_a_correction_that_does_not_read_falls_back_to_its_no(tmp_path):
    world, fake, updater = _asked(tmp_path, NONSENSE)
    with fake:
        follow = updater.answer('No, it went somewhere else entirely.')
    assert follow.question.startswith('Then: ')  # the next reading, as after a bare no
    assert any('the correction did not read' in n for n in follow.notes)
    assert HELD not in world.kg


def test_content_alone_answers_only_about_what_the_readings_are_about(tmp_path):
    world, fake, updater = _asked(tmp_path)
    fake.stop()
    assert updater.answers("The red pen is in Jerry's hand.")
    assert not updater.answers('The kitchen light is off.')  # a new report, not an answer
    assert not updater.answers('the red pen is blue')  # says nothing of where
    assert not updater.answers(REPORT)  # a whole report again is a report


def test_the_content_of_an_answer_is_split_from_its_yes_or_no():
    assert content_of('No, she turned it on.') == ('no', 'she turned it on.')
    assert content_of('Yes, and Joana went in too.') == ('yes', 'Joana went in too.')
    assert content_of('The hat box is with Claire.') == (None, 'The hat box is with Claire.')
    for bare in ('yes', 'No.', "no, that's wrong", 'the second one', 'none of them',
                 'yes please'):
        assert content_of(bare)[1] == '', bare
