# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The demo talks (issue 69, Deliver 5): a scripted person answers what the robot asks.

The person answers from what really happened (the story's truth), never from the robot's
words; ``l3mp demo`` runs the story through the library against the scripted loopback
LLM (the ROS demo over DDS: ``test_demo_ros.py``). The model reads Jerry's report with a
move the report never says (Jerry to his bedroom) and the read-back denies it: the robot
asks, the person says no to that reading and yes to the pen alone, which is written with
``confirmed`` support; "Anna went to the kitchen." (a slip) is written and taken back;
"Where is the red pen?" is answered from the confirmed fact. When the robot asks about
the slip too, the person (believing it for a moment) says yes; it is still taken back.
"""

from __future__ import annotations

import pytest

from l3mp_ros.agent.core.asking import NO, answer_of
from l3mp_ros.agent.core.clarify import pick
from l3mp_ros.agent.scripted import (
    HOUSEHOLD_NOTE,
    HOUSEHOLD_STORY,
    UNSURE,
    Heard,
    MoveKind,
    ScriptedPerson,
)
from l3mp_ros.cli import main
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.events import EventStatus
from l3mp_ros.world.kg import Fact, KnowledgeGraph
from l3mp_ros.world.store import Store

from .agent_fixtures import CONSTRAINTS, DOMAIN, STATE, read_back_reply

REPORT = HOUSEHOLD_STORY[0].text  # 'Jerry took the red pen from the living room table.'
SLIP = HOUSEHOLD_STORY[1].text  # 'Anna went to the kitchen.'
HELD = Fact('in_person_hand', ('red_pen', 'jerry'))
AWAY = Fact('person_in_room', ('anna', 'kitchen'))
PEN = {'remove': [['red_pen', 'placed_at_table', 'living_room_table']],
       'add': [['red_pen', 'in_person_hand', 'jerry']]}
MOVED = {'remove': [*PEN['remove'], ['jerry', 'person_in_room', 'living_room']],
         'add': [*PEN['add'], ['jerry', 'person_in_room', 'jerry_bedroom']]}
GONE = {'remove': [['anna', 'person_in_room', 'anna_bedroom']],
        'add': [['anna', 'person_in_room', 'kitchen']]}


def _last(request: dict) -> str:
    content = request['messages'][-1]['content']
    return content if isinstance(content, str) else ''


def respond(request: dict, slip_odds: float = 0.9) -> dict:
    """Answer the pipeline's calls for the household story (by schema, then by report).

    Jerry's report is read with a move it never says (to his bedroom), which the
    read-back denies (P(yes) 0.3) every time it is read; the slip is read as said, its
    read-back "yes" with P(yes) ``slip_odds`` (below the calibrated ``ask_below``, 0.70,
    the robot asks about it too, as the embedded model's odds made it do).
    """
    fmt = request.get('response_format') or {}
    name, text = (fmt.get('json_schema') or {}).get('name', ''), _last(request)
    statement = text.rsplit('Statement:', 1)[-1]
    if name == 'confirm':
        denied = REPORT in text and 'bedroom' in statement.lower()
        return read_back_reply(0.3, 'no') if denied else read_back_reply(
            slip_odds if SLIP in text else 0.9)
    if name == 'kg_update' and REPORT in text:
        return {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry'],
                                      ['person_in_room', 'jerry', 'jerry_bedroom']]}}
    if name == 'kg_update' and SLIP in text:
        return {'content': {'facts': [['person_in_room', 'anna', 'kitchen']]}}
    if name == 'pddl_goal':
        return {'content': {'goal': '(and (in_person_hand red_pen anna))'}}
    return {'content': {'answer': 'none'}}  # a place question: no option, no evidence


def _person() -> ScriptedPerson:
    person = ScriptedPerson(KnowledgeGraph.loads(STATE.read_text()), DomainSchema.load(DOMAIN),
                            Constraints.load(CONSTRAINTS))
    person.learn(HOUSEHOLD_STORY[0].happened)
    return person


def test_the_person_answers_from_what_really_happened():
    person = _person()
    assert person.answer({'options': [PEN]}) == ('Yes.', [])
    said, why = person.answer({'options': [MOVED]})
    assert said == 'No.'
    assert why == ['not so: "Jerry is in Jerry\'s bedroom."',
                   'still so: "Jerry is in the living room."']
    assert person.answer({'options': [MOVED, PEN]})[0] == 'The second one.'
    assert person.answer({'options': [MOVED, GONE]})[0] == 'None of them.'
    assert person.answer({'options': [GONE]})[0] == 'No.'  # the slip is not so
    # ... but while the person believes it (the rules take Anna out of her bedroom), yes
    person.believe(HOUSEHOLD_STORY[1].believed)
    assert person.answer({'options': [GONE]}) == ('Yes.', [])
    assert person.answer({'options': [PEN]}) == ('Yes.', [])
    person.remember()
    assert person.answer({'options': [GONE]})[0] == 'No.'
    assert person.answer({'options': [PEN]}) == ('Yes.', [])
    # a question whose options carry no change, or none at all, is not guessed at
    assert person.answer({'options': [{'entity': 'red_pen'}]})[0] == UNSURE
    assert person.answer(None)[0] == UNSURE
    assert not person.right({'remove': [], 'add': []})


def test_the_robot_reads_each_answer_the_person_gives():
    # without a model call: yes/no, an option by its place, none of them
    assert answer_of('Yes.', 1) == 0 and answer_of('No.', 1) == NO
    assert answer_of('The second one.', 2) == 1 and answer_of('None of them.', 3) == NO
    assert answer_of(UNSURE, 1) == NO
    kg = KnowledgeGraph.loads(STATE.read_text())
    options = [{'entity': 'living_room_tv_remote'}, {'entity': 'anna_bedroom_tv_remote'}]
    assert pick(kg, options, 'The second one.') == 'anna_bedroom_tv_remote'


def test_heard_tells_a_question_from_a_write():
    asked = Heard(['Just to check: ...'], {'id': 3, 'status': 'clarify', 'diff': None,
                                           'info': {'clarify': {'options': [PEN]}}})
    assert asked.question == {'options': [PEN]} and asked.written is None
    wrote = Heard(['Noted.'], {'id': 4, 'status': 'applied', 'diff': PEN, 'info': {}})
    assert wrote.question is None and HELD in wrote.written.add
    assert Heard(['The red pen is ...']).written is None


# the read-back's odds of the slip: below the asking bar or not, the slip is not asked
# about: where someone went, right after their verb of going, is not read back
# (settled_places)
@pytest.mark.parametrize('odds', [0.9, 0.6])
def test_l3mp_demo_asks_back_answers_confirms_takes_back_and_answers(
        tmp_path, capsys, odds):
    with FakeOpenAI(responder=lambda r: respond(r, odds), answers={}) as fake:
        code = main(['demo', '--out', str(tmp_path), '--llm', fake.base_url,
                     '--model', 'fake', '--retriever', 'full'])
    out = capsys.readouterr().out
    assert code == 0, out
    lines = out.splitlines()
    said = [ln.split('robot: ', 1)[1] for ln in lines if ln.startswith('   robot: ')]
    told = [ln.split('person: ', 1)[1] for ln in lines if ln.startswith('>> person: ')]
    # the robot asks about both readings at once (the pen said once, Jerry's move as the
    # first option); the person picks the pen alone
    assert said[0].startswith("The red pen is in Jerry's hand.") and said[0].endswith(
        "With that, which is right? 1. Jerry is in Jerry's bedroom. Jerry is no longer in "
        'the living room. 2. Nothing else. Or none of them?'), out
    assert told[:2] == [REPORT, 'The second one.'], out
    assert said[1].startswith("Noted. The red pen is in Jerry's hand."), out
    said, told = said[2:], told[2:]
    # the slip (never asked about: the person believes it for a moment) is written, and
    # the correction right after takes it back
    assert told[:2] == [SLIP, "No, that's wrong."], out
    assert said[0].startswith('Noted. Anna is in the kitchen.')
    assert said[1].startswith('Taken back. Anna is in the bathroom.'), out  # by hand, before
    # the where-answer is the robot's own, from the confirmed fact
    assert told[2] == 'Where is the red pen?'
    assert said[2].startswith("The red pen is in Jerry's hand."), out
    assert '(confirmed when I asked back)' in said[2], out
    assert HOUSEHOLD_NOTE in lines
    assert any('(red_pen, in_person_hand, jerry): confirmed (event #' in ln for ln in lines)
    assert any('(anna, person_in_room, kitchen): not held' in ln for ln in lines), out
    summary = lines[lines.index('== summary') + 1:]
    assert 'asked back 1 time, answered "The second one."' in summary[0], out
    assert '(support confirmed)' in summary[0], out
    assert 'taken back by event #' in summary[1] and 'took back event #' in summary[2]
    # what the store holds is what was printed
    store = Store(tmp_path / 'kg.db')
    try:
        kg = store.load_kg()
        assert HELD in kg and AWAY not in kg
        assert store.load_support().get(HELD).kind == 'confirmed'
        events = store.history()
    finally:
        store.close()
    confirmed = [e for e in events if e.info.get('support') == 'confirmed']
    assert len(confirmed) == 1 and HELD in confirmed[0].update.add
    assert confirmed[0].info['answer'] == 'The second one.'
    slip = next(e for e in events if e.status == EventStatus.APPLIED
                and (e.utterance or '').startswith(SLIP))
    assert AWAY in slip.update.add
    back = [e for e in events if e.info.get('withdraws') == slip.id]
    assert len(back) == 1 and back[0].status == EventStatus.APPLIED
    assert sum(e.status == EventStatus.CLARIFY for e in events) == 1
    assert [m.kind for m in HOUSEHOLD_STORY] == [MoveKind.REPORT, MoveKind.REPORT,
                                                 MoveKind.CORRECTION, MoveKind.QUESTION]
