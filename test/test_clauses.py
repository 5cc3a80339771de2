# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Report splitting and unknown names: English word shapes, no domain words."""

import pytest

from l3mp_ros.agent.core.clauses import describes, split_report, split_task, unknown_names

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
    ('Anna: I took the red pen and I went to the kitchen.',
     ['Anna: I took the red pen', 'I went to the kitchen.']),
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
    'Anna: Jerry and I went to the kitchen.',     # a speaker's opening is no word of it
    'Yard to office: Jerry and Anna went out.',
    'The cook and I are back in the kitchen.',    # "I are": a subject of two
    'The cook and me went to the kitchen.',       # "me" never opens a clause
])
def test_noun_phrases_are_not_split(text):
    assert split_report(text, LEX) == [text]


def test_unknown_names():
    assert unknown_names('We have a new cook, Marguerite, she starts today.', LEX) == [
        'Marguerite']
    assert unknown_names("Anna gave Jerry's red pen to Jerry.", LEX) == []
    assert unknown_names('Jerry came home on Monday with a TV.', LEX) == []  # days, acronyms
    assert unknown_names('Marguerite is here.', LEX) == []  # sentence-initial: not judged
    # a name that kept its possessive, "noahs_ark": known; another name's possessive is not
    assert unknown_names("Gareth's got Noah's ark out.", LEX | {'gareth', 'noahs', 'ark'}) == []
    assert unknown_names("Then Marguerite's pen went.", LEX | {'marguerites'}) == []
    assert unknown_names("Then Marguerite's pen went.", LEX) == ["Marguerite's"]
    assert unknown_names('Then Marguerite pens it.', LEX | {'marguerites'}) == ['Marguerite']


def test_a_group_or_a_title_is_not_someone_new():
    # a capitalised word after "the" names a group or a body, not a new person
    assert unknown_names('Anna took the Scouts to the kitchen.', LEX) == []
    assert unknown_names('Anna said the Council closed the door.', LEX) == []
    # a title before a known name, its words one space apart
    assert unknown_names('Then Chief Inspector Jerry went out.', LEX) == []
    assert unknown_names("Then Station Officer Anna's pen went.", LEX) == []
    # a name before a comma is not a title: "Saturdays, Marguerite, Anna's going ..."
    assert unknown_names('A new cook starts on Saturdays, Marguerite, Anna will show her.',
                         LEX) == ['Saturdays', 'Marguerite']
    assert unknown_names('A new cook, Marguerite Smith. Anna knows.', LEX) == [
        'Marguerite', 'Smith']
    # without an article, or after "a", a new name is still someone new
    assert unknown_names('Anna took Scouts to the kitchen.', LEX) == ['Scouts']
    assert unknown_names('We have a Marguerite starting.', LEX) == ['Marguerite']
    # after a colon a sentence starts ("Anna: Scouts are here"), as after a full stop
    assert unknown_names('Anna on the radio: Scouts are here.', LEX) == []
    assert unknown_names('Anna on the radio: the new cook is Marguerite.', LEX) == [
        'Marguerite']


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


TASK_LEX = {'laura', 'phone', 'kitchen', 'sink', 'light', 'lucy', 'bedroom', 'burgundy',
            'hoodie', 'laundry', 'basket', 'nora', 'glass', 'tall', 'tomatoes', 'table'}


@pytest.mark.parametrize('text,parts', [
    # a sentence that only describes is left out; a request naming nothing itself gets
    # the description's subject for "it" / "them"
    ("Laura's phone is ringing. Please answer it.", ["Please answer Laura's phone."]),
    ('The dishes are dirty. Wash all of them, please.', ['Wash all of the dishes, please.']),
    ('The water is running in the kitchen sink. Could you turn it off?',
     ['Could you turn the water off?']),
    ('Nora is thirsty. Bring her the tall glass.', ['Bring her the tall glass.']),
    ("It is too dark: switch on the light in Lucy's bedroom, please.",
     ["switch on the light in Lucy's bedroom, please."]),
    ("Please pick up Laura's phone, it is ringing.", ["Please pick up Laura's phone"]),
    # a clause naming nothing joins the next: "wash and dry" is one request
    ('Please wash and dry the burgundy hoodie and put it in the laundry basket.',
     ['Please wash and dry the burgundy hoodie', 'put it in the laundry basket.']),
    # a sentence naming nothing stays with its neighbour: the task is asked whole
    ('I would like the tomatoes on the table. Can you see to it?',
     ['I would like the tomatoes on the table. Can you see to it?']),
    ('Nora is thirsty. Fill the tall glass and hand it over, please.',
     ['Fill the tall glass and hand it over, please']),
    # requests that mention a state are not descriptions
    ('Make sure the light is off.', ['Make sure the light is off.']),
    ('Everything should be clean.', ['Everything should be clean.']),
    # a description alone is all there is to ask
    ('The light in the kitchen is on.', ['The light in the kitchen is on.']),
])
def test_a_task_is_cut_into_requests_without_its_descriptions(text, parts):
    assert split_task(text, TASK_LEX) == parts


def test_a_request_rewritten_with_the_descriptions_subject_keeps_its_place():
    # "it" became "the weather": the sentence is no longer the text's, and finding it
    # there by value raised ValueError before
    got = split_task('Please bring the tall glass to Nora. The weather is nice. Please do it.',
                     TASK_LEX)
    assert got[0] == 'Please bring the tall glass to Nora.' and len(got) == 2


def test_what_describes_and_what_asks():
    assert describes("Laura's phone is ringing", TASK_LEX)
    assert describes('it is ringing') and describes('The dishes are dirty')
    assert not describes('Please tell me if the light is on', TASK_LEX)
    assert not describes('Switch off the light', TASK_LEX)
    assert not describes('Bob is here', TASK_LEX)  # a name the world does not hold
