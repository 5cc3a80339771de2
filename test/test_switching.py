# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Things switched on or off in words (agent/core/switching.py), no LLM."""

import pytest

from l3mp_ros.agent.core.request import mentions_of
from l3mp_ros.agent.core.switching import on_predicates, switched
from l3mp_ros.world.kg import Fact

from .agent_fixtures import household_world

LAUNDRY = Fact('light_on', ('laundry_room_light',))  # off in the household's first state
KITCHEN = Fact('light_on', ('kitchen_light',))  # on


@pytest.fixture
def world(tmp_path):
    return household_world(tmp_path)


def test_the_predicate_of_being_on_is_found_by_its_words(world):
    assert on_predicates(world, 'light') == ['light_on']
    assert on_predicates(world, 'tv') == ['tv_on']
    assert on_predicates(world, 'sink') == []  # faucet_on: the faucet, not the sink, is on
    assert on_predicates(world, 'book') == []


@pytest.mark.parametrize('text,on,off', [
    ('Jerry switched the laundry room light on.', {LAUNDRY}, set()),
    ('Jerry put the laundry room light on in there.', {LAUNDRY}, set()),
    ('Jerry turned on the laundry room light and went out.', {LAUNDRY}, set()),
    ('The laundry room light is back on.', {LAUNDRY}, set()),
    ("The laundry room light's on now, Anna is reading.", {LAUNDRY}, set()),
    ('Anna knocked the kitchen light off before bed.', set(), {KITCHEN}),
    ('Anna switched off the kitchen light.', set(), {KITCHEN}),
    # no change: the state goes on, it is turned round, or it holds already
    ('The kitchen light is still on.', set(), set()),
    ('The laundry room light is still off.', set(), set()),
    ("Anna hasn't switched the laundry room light on.", set(), set()),
    ('Jerry switched the kitchen light on.', set(), set()),
    ('Jerry turned the laundry room light off.', set(), set()),
    # "on" that places, or wears
    ('Jerry put the remote on the laundry room light.', set(), set()),
    ('Jerry put on the laundry room light and left.', set(), set()),
])
def test_switching_words_start_and_end_a_state(world, text, on, off):
    got = switched(world, world.kg, text, mentions_of(world, world.kg, text))
    assert got == (on, off), text
