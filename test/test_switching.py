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


TEA_ROOM = """(define (domain tea_room)
  (:requirements :strips :typing)
  (:types space robot person thing - object appliance lamp device - thing)
  (:predicates (at ?x - object ?s - space) (powered ?a - appliance) (lit ?l - lamp)
               (charging ?d - device) (full ?a - appliance))
  (:action switch-on :parameters (?r - robot ?a - appliance ?s - space)
    :precondition (and (at ?r ?s) (at ?a ?s) (not (powered ?a))) :effect (powered ?a))
  (:action switch-off :parameters (?r - robot ?a - appliance ?s - space)
    :precondition (and (at ?r ?s) (powered ?a)) :effect (not (powered ?a)))
  (:action light :parameters (?r - robot ?l - lamp ?s - space)
    :precondition (at ?r ?s) :effect (lit ?l))
  (:action fill :parameters (?r - robot ?a - appliance)
    :precondition (powered ?a) :effect (full ?a))
  (:action put_on_charge :parameters (?r - robot ?d - device ?s - space)
    :precondition (at ?r ?s) :effect (charging ?d)))
"""


@pytest.fixture
def tea_room():
    from l3mp_ros.world.domain import DomainSchema
    from l3mp_ros.world.kg import KnowledgeGraph
    from l3mp_ros.world.model import WorldModel
    kg = KnowledgeGraph.from_json({
        'entities': [{'name': n, 'type': t} for n, t in (
            ('tea_urn', 'appliance'), ('porch_lamp', 'lamp'), ('radio', 'device'),
            ('barn', 'space'), ('priya', 'person'), ('bot', 'robot'))],
        'facts': [['tea_urn', 'at', 'barn'], ['porch_lamp', 'at', 'barn'],
                  ['radio', 'at', 'barn'], ['priya', 'at', 'barn'], ['porch_lamp', 'lit', 'true'],
                  ['bot', 'at', 'barn']]})
    return WorldModel(DomainSchema.from_text(TEA_ROOM), kg=kg)


def test_the_state_an_action_of_switching_on_makes_is_being_on(tea_room):
    # powered: what switch-on makes; lit: its words; full (fill) and charging
    # (put_on_charge: no verb of switching) are no states of being on
    assert on_predicates(tea_room, 'appliance') == ['powered']
    assert on_predicates(tea_room, 'lamp') == ['lit']
    assert on_predicates(tea_room, 'device') == []


@pytest.mark.parametrize('text,on,off', [
    ("Priya here: the tea urn's on.", {Fact('powered', ('tea_urn',))}, set()),
    ('Priya switched the tea urn on and went out.', {Fact('powered', ('tea_urn',))}, set()),
    ('Priya turned the porch lamp off.', set(), {Fact('lit', ('porch_lamp',))}),
    ('Priya put the radio on.', set(), set()),
    ('The tea urn is still off.', set(), set()),
])
def test_switching_words_find_a_state_named_otherwise(tea_room, text, on, off):
    got = switched(tea_room, tea_room.kg, text, mentions_of(tea_room, tea_room.kg, text))
    assert got == (on, off), text


@pytest.mark.parametrize('text,on,off', [
    # "it"/"them" after a verb of switching: the nearest thing named before that can be on
    ('The porch lamp was still burning, so Priya flicked it off.',
     set(), {Fact('lit', ('porch_lamp',))}),
    ('The tea urn was cold, so Priya switched it on and went out.',
     {Fact('powered', ('tea_urn',))}, set()),
    ('The tea urn was cold, so Priya switched them on.', set(), set()),  # number disagrees
    ('The porch lamp is on; Priya did not switch it off.', set(), set()),
    ('Priya picked up the radio and switched it on.', set(), set()),  # the radio: no state
    ('Priya switched it on.', set(), set()),                           # nothing named before
    ('The porch lamp in the barn was on, so Priya switched it off.',
     set(), {Fact('lit', ('porch_lamp',))}),                           # not the barn
    ('The porch lamp was on and the radio was loud, so Priya switched it off.',
     set(), set()),                                                    # it: the radio
])
def test_a_pronoun_after_a_verb_of_switching_means_the_thing_named_before(
        tea_room, text, on, off):
    got = switched(tea_room, tea_room.kg, text, mentions_of(tea_room, tea_room.kg, text))
    assert got == (on, off), text
