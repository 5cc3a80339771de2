# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Report splitting and unknown names: English word shapes, no domain words."""

import pytest

from l3mp_ros.agent.clauses import split_report, unknown_names

LEX = {'red', 'blue', 'pen', 'pens', 'jerry', 'anna', 'kitchen', 'table', 'light', 'door'}


@pytest.mark.parametrize('text,parts', [
    ('Jerry took the red pen and went to the kitchen.',
     ['Jerry took the red pen', 'went to the kitchen.']),
    ('Anna took off her scarf and her hat and hung them by the door.',
     ['Anna took off her scarf and her hat', 'hung them by the door.']),
    ('Jerry put the cup down, then walked out and closed the door.',
     ['Jerry put the cup down', 'walked out', 'closed the door.']),
    ('The light is off again, and Anna locked the door.',
     ['The light is off again', 'Anna locked the door.']),
    ('The kettle boiled; Anna poured the tea.', ['The kettle boiled', 'Anna poured the tea.']),
    ('Jerry moved the lamp to the desk, and it works now.',
     ['Jerry moved the lamp to the desk', 'it works now.']),
    ("After going to Anna's room, Jerry switched the light off.",
     ["After going to Anna's room", 'Jerry switched the light off.']),
    ('Having fed the cat, Anna took the red pen and went out.',
     ['Having fed the cat', 'Anna took the red pen', 'went out.']),
])
def test_clauses_are_cut_at_verbs_and_new_subjects(text, parts):
    assert split_report(text, LEX) == parts


@pytest.mark.parametrize('text', [
    'Jerry took the red and blue pens.',          # "and blue": a word that names things
    'Jerry and Anna went to the kitchen.',        # too short on the left
    'Anna gave the pen to Jerry and Anna.',       # a name without a verb after it
    'It is raining, the whole garden is wet.',    # a bare comma is not a boundary
    'Anna put two cups and three plates away.',   # numbers start noun phrases
    'While in the kitchen, Anna locked the door.',  # where she was: no change of its own
    'After lunch, Anna locked the door.',            # no participle: not a change
])
def test_noun_phrases_are_not_split(text):
    assert split_report(text, LEX) == [text]


def test_unknown_names():
    assert unknown_names('We have a new cook, Marguerite, she starts today.', LEX) == [
        'Marguerite']
    assert unknown_names("Anna gave Jerry's red pen to Jerry.", LEX) == []
    assert unknown_names('Jerry came home on Monday with a TV.', LEX) == []  # days, acronyms
    assert unknown_names('Marguerite is here.', LEX) == []  # sentence-initial: not judged


def test_named_in_prefers_the_fuller_name_and_knows_rare_words():
    from l3mp_ros.retrieval.link import named_in
    from l3mp_ros.world.kg import KnowledgeGraph
    kg = KnowledgeGraph.from_json({'entities': [
        {'name': 'blue_key_card', 'type': 'card'}, {'name': 'jug_blue', 'type': 'jug'},
        {'name': 'safety_goggles_1', 'type': 'gear'}, {'name': 'safety_goggles_2', 'type': 'gear'},
        {'name': 'rover', 'type': 'robot'}, {'name': 'hall', 'type': 'room'},
        {'name': 'den', 'type': 'room'}, {'name': 'attic', 'type': 'room'},
        {'name': 'cellar', 'type': 'room'}], 'facts': []})
    assert named_in(kg, 'grabbed the blue jug') == {'jug_blue'}
    assert named_in(kg, 'put on the goggles') == {'safety_goggles_1', 'safety_goggles_2'}
    assert named_in(kg, 'the robot went to the hall') == {'rover', 'hall'}
    assert named_in(kg, 'went to a room') == set()  # four rooms: the type names none
