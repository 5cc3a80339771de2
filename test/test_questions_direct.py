# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Questions about where things are and what holds them, answered from facts with no LLM.

The loopback server has no reply scripted: any LLM call would make the answer fail, so
each passing answer here was read from the graph.
"""

from l3mp_ros.agent.router import QuestionAnswerer, referred
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.world.kg import Fact, KnowledgeGraph

from .agent_fixtures import client, household_world

TV = Fact('in_person_hand', ('anna_bedroom_tv_remote', 'anna'))


def test_question_shapes_answered_from_the_graph(tmp_path):
    world = household_world(tmp_path)
    kg = world.kg
    with FakeOpenAI([]) as fake:
        qa = QuestionAnswerer(client(fake), FullRetriever(), schema=world.domain,
                              constraints=world.constraints)
        cases = {
            'Where did the red pen end up?': 'living room table',
            'Where is the red pen at the moment?': 'living room table',
            'Which room is Anna in?': "anna's bedroom",
            'Which part of the house is Jerry in?': 'living room',
            # a multi-word thing after a possessive is the thing, not the person
            "Where is Anna's bedroom TV remote?": "anna's hand",
            'Who is holding the TV remote of Anna?': "anna's hand",
        }
        for question, expect in cases.items():
            ans = qa.answer(kg, question)
            assert expect in ans.text.lower(), (question, ans.text)
            assert ans.facts and all(f in kg for f in ans.facts), question
        table = qa.answer(kg, 'What is on the living room table?')
        assert set(table.facts) == {f for f in kg.facts if f.args[-1] == 'living_room_table'
                                    and f.predicate == 'placed_at_table'}
        pens = qa.answer(kg, 'Which pen is on the living room table?')
        assert pens.facts == [Fact('placed_at_table', ('red_pen', 'living_room_table'))]
        assert fake.requests == []
    assert referred(kg, "Anna's bedroom TV remote", world.domain) == 'anna_bedroom_tv_remote'
    assert TV in kg


def test_other_questions_still_go_to_the_llm(tmp_path):
    world = household_world(tmp_path)
    reply = {'answer': 'Yes.', 'facts': []}
    with FakeOpenAI([{'content': reply}]) as fake:
        qa = QuestionAnswerer(client(fake), FullRetriever(), schema=world.domain)
        assert qa.direct(world.kg, 'Is the kitchen light on?') is None
        assert qa.direct(world.kg, 'Where is the moon?') is None  # nothing it names
        assert qa.answer(world.kg, 'Is the kitchen light on?').text == 'Yes.'
        assert len(fake.requests) == 1


def test_a_question_is_about_the_thing_not_its_owner_and_asks_when_two_fit(tmp_path):
    world = household_world(tmp_path)
    kg = world.kg
    kg.add_entity('toolcase_1', kg.entities['red_pen'])
    kg.add_entity('tool_case_2', kg.entities['red_pen'])
    kg.add_fact(Fact('in_person_hand', ('toolcase_1', 'anna')))
    kg.add_fact(Fact('placed_at_table', ('tool_case_2', 'living_room_table')))
    with FakeOpenAI([]) as fake:
        qa = QuestionAnswerer(client(fake), FullRetriever(), schema=world.domain,
                              constraints=world.constraints)
        # "Anna's tool case": the case Anna holds, not where Anna is
        ans = qa.answer(kg, "Where is Anna's toolcase?")
        assert ans.facts[0] == Fact('in_person_hand', ('toolcase_1', 'anna')), ans.text
        # "the tool case" fits both, in different places: the robot asks which
        ans = qa.answer(kg, 'Where is the tool case?')
        assert ans.text.startswith('Which tool case do you mean: '), ans.text
        assert 'tool case 2' in ans.text and 'toolcase 1' in ans.text and not ans.facts
        assert fake.requests == []


def test_words_near_the_thing_say_which_one_before_any_question():
    kg = KnowledgeGraph('shop')
    for name, type_ in [('priya', 'worker'), ('price_gun', 'tool'), ('tape_gun', 'tool'),
                        ('desk', 'desk'), ('till_cradle', 'cradle'), ('office_cradle', 'cradle'),
                        ('stock_cradle', 'cradle'), ('tills', 'counter'),
                        ('scanner_1', 'scanner')]:
        kg.add_entity(name, type_)
    for s, p, o in [('price_gun', 'carried_by', 'priya'), ('tape_gun', 'rests_on', 'desk'),
                    ('scanner_1', 'docked_in', 'till_cradle')]:
        kg.add_fact(Fact(p, (s, o)))
    qa = QuestionAnswerer(None, None)  # no LLM: an LLM call would raise
    # "pricing" is the price gun's word: no question
    assert qa.direct(kg, 'Who is holding the pricing gun?').facts == [
        Fact('carried_by', ('price_gun', 'priya'))]
    # the cradle "at the tills" is the till cradle, named more fully by the words after it
    assert referred(kg, 'the cradle at the tills') == 'till_cradle'
    # nothing tells the guns apart: asked
    assert qa.direct(kg, 'Where is the gun?').text.startswith('Which gun do you mean: ')
