# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What one part of a report can be about (:class:`Scope`), without a ROS graph."""

from l3mp_ros.agent.report.scope import Scope
from l3mp_ros.world.kg import Fact, Update

LIT = Fact('lights_on', ('office', 'true'))
OPEN = Fact('door_open', ('office_door', 'true'))
HALL = Fact('lights_on', ('hallway', 'true'))
BULBS = Fact('price_tagged', ('light_bulbs', 'true'))
# "Nadia unlocked her office, went in ... then switched the light on.": "the light" names
# the light bulbs by its words; the earlier parts named Nadia, the office and its door
PART = 'then switched the light on.'
EARLIER = {'nadia', 'office', 'office_door'}


def test_a_predicate_the_part_says_of_what_an_earlier_part_named_is_in_scope():
    scope = Scope(PART, {'light_bulbs'}, False, set(EARLIER))
    assert scope.outside(Update.of([], [LIT])) == set()
    assert scope.outside(Update.of([], [BULBS])) == set()  # what the part names by words


def test_without_the_earlier_parts_the_same_fact_is_outside():
    assert Scope(PART, {'light_bulbs'}, False).outside(Update.of([], [LIT])) == {LIT}


def test_a_predicate_the_part_does_not_say_stays_outside():
    scope = Scope(PART, {'light_bulbs'}, False, set(EARLIER))
    assert scope.outside(Update.of([OPEN], [LIT])) == {OPEN}


def test_a_said_predicate_of_something_no_earlier_part_named_stays_outside():
    scope = Scope(PART, {'light_bulbs'}, False, set(EARLIER))
    assert scope.outside(Update.of([], [HALL, LIT])) == {HALL}


def test_function_words_of_a_predicate_do_not_count_as_said():
    # "on" is said by the part and is a word of lights_on, but not a content word:
    # door_on would not be in scope by it
    on = Fact('door_on', ('office_door', 'true'))
    scope = Scope(PART, {'light_bulbs'}, False, set(EARLIER))
    assert scope.outside(Update.of([], [on])) == {on}


def test_a_part_with_its_own_subject_keeps_to_it():
    scope = Scope('Omar switched the light on.', {'omar'}, True, {'office'})
    assert scope.outside(Update.of([], [LIT])) == set()  # said, of the earlier office
    moved = Fact('at_zone', ('nadia', 'office'))
    assert scope.outside(Update.of([], [moved])) == {moved}
