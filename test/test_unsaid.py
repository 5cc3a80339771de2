# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A reading's predicate the report never says, though it says another (:func:`unsaid`)."""

import json
from pathlib import Path

import pytest

from l3mp_ros.agent.report.scope import unsaid
from l3mp_ros.text import same_root, word_root
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update

ROOT = Path(__file__).resolve().parent.parent
OPEN = Fact('door_open', ('bob_door',))
LOCKED = Fact('door_locked', ('bob_door',))


@pytest.fixture(scope='module')
def office():
    domain = DomainSchema.load(ROOT / 'test/data/office.pddl')
    kg = KnowledgeGraph.from_json(json.loads((ROOT / 'test/data/office_state.json').read_text()))
    return domain, kg


@pytest.mark.parametrize('a, b, same', [
    ('unlocked', 'locked', True), ('opened', 'open', True), ('charging', 'charged', True),
    ('tag', 'tagged', True), ('repaired', 'paired', True), ('dried', 'dry', False),
    ('open', 'over', False), ('at', 'at', False), ('lights', 'light', True)])
def test_word_roots(a, b, same):
    assert same_root(word_root(a), word_root(b)) is same


def test_unlocked_read_as_open_says_another_predicate(office):
    domain, kg = office
    assert unsaid(domain, kg, "Someone unlocked Bob's door.", Update.of([], [OPEN])) == [
        (OPEN, 'door_locked')]
    # said in words: nothing to doubt
    assert unsaid(domain, kg, "Someone opened Bob's door.", Update.of([], [OPEN])) == []
    # the predicate it says is stated too: the reading speaks of it
    assert unsaid(domain, kg, "Someone unlocked Bob's door.", Update.of([LOCKED], [OPEN])) == []


def test_words_of_names_say_no_predicate(office):
    domain, kg = office
    # "door" names the door (and its type): it says neither door_open nor door_locked
    assert unsaid(domain, kg, "Bob's door.", Update.of([], [OPEN])) == []
    # "delivered" says a predicate of letters and parcels, not of doors
    assert unsaid(domain, kg, 'The letter for Bob was delivered.', Update.of([], [OPEN])) == []


def test_a_word_the_stated_predicates_have_speaks_of_them():
    """Oracle seed 7, step 13: "Chloe ... placed the book "Matilda" on the table" is
    ``placed_at_table``; "placed" is a word of ``placed_at_shelf`` too, and the removal of
    ``in_person_hand`` is never said ("hand"): neither is a doubt."""
    domain = DomainSchema.load(ROOT / 'pddl/household.pddl')
    kg = KnowledgeGraph.from_json(json.loads((ROOT / 'config/household_state.json').read_text()))
    assert kg.type_of('book_hamlet') == 'book' and kg.type_of('anna') == 'person'
    held = Fact('in_person_hand', ('book_hamlet', 'anna'))
    table = Fact('placed_at_table', ('book_hamlet', 'jerry_bedroom_table'))
    text = 'Anna walked into Jerry\'s room and placed the book "Hamlet" on the table.'
    assert unsaid(domain, kg, text, Update.of([held], [table])) == []
    # a relation (where the book is) is the place check's to weigh, not a state's word
    assert unsaid(domain, kg, text, Update.of([], [held])) == []


@pytest.fixture(scope='module')
def household():
    domain = DomainSchema.load(ROOT / 'pddl/household.pddl')
    kg = KnowledgeGraph.from_json(json.loads((ROOT / 'config/household_state.json').read_text()))
    return domain, kg


def test_a_word_of_a_state_the_thing_already_has_describes_it(household):
    """AI2-THOR harness: "I moved the dirty mug from the cabinet to the countertop" was asked
    about (the mug was dirty already: "dirty" describes it). The blue shirt is dry."""
    domain, kg = household
    dry = Fact('cloth_is_dry', ('blue_shirt',))
    clean = Fact('cloth_is_clean', ('blue_shirt',))
    assert dry in kg and clean not in kg
    table = Fact('placed_at_table', ('blue_shirt', 'anna_bedroom_table'))
    assert unsaid(domain, kg, 'Anna put the dry blue shirt on her table.',
                  Update.of([], [table])) == []
    # "clean": a state the shirt does not have, so the report says it changed
    assert unsaid(domain, kg, 'Anna put the clean blue shirt on her table.',
                  Update.of([], [table])) == [(table, 'cloth_is_clean')]
    # "clean now" read as dry: the report says the shirt's cleanliness changed
    assert unsaid(domain, kg, 'The blue shirt is clean now.', Update.of([], [dry])) == [
        (dry, 'cloth_is_clean')]
