# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Who "I" is: a report that opens by naming its speaker (agent/core/speaker.py)."""

import pytest

from l3mp_ros.agent.core.request import Request
from l3mp_ros.agent.core.speaker import third_person

from .agent_fixtures import household_world


@pytest.fixture
def world(tmp_path):
    return household_world(tmp_path)


@pytest.mark.parametrize('said, read', [
    ("Jerry: I've taken the red pen to my room.", "Jerry has taken the red pen to Jerry's room."),
    ("Anna here, I'm in the kitchen now.", 'Anna is in the kitchen now.'),
    ('Anna on the radio from the kitchen: the light is off, I switched it off myself.',
     'The light is off, Anna switched it off.'),
    ('Jerry again, me and Anna are in the living room.', 'Jerry and Anna are in the living room.'),
    ('Jerry: give me the red pen.', 'Give Jerry the red pen.'),
])
def test_an_opening_that_names_the_speaker_is_read_in_the_third_person(world, said, read):
    assert third_person(world, world.kg, said) == read
    assert Request.start(world, said).text == read


@pytest.mark.parametrize('said', [
    'Jerry, who was in the kitchen, took the red pen.',  # a name and a comma: no opening
    "I've taken the red pen.",  # no one named: "I" stays
    'Kitchen: the light is off.',  # a room, not a person
    'Bob: I took the red pen.',  # no such person
    'Anna went to the kitchen.',
])
def test_without_an_opening_naming_a_person_the_report_is_unchanged(world, said):
    assert third_person(world, world.kg, said) == said
