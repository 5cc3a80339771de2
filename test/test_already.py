# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A report of what already holds (agent/report/already.py): said so, nothing written."""

from l3mp_ros.agent.report.already import candidates
from l3mp_ros.agent.report.context import subject_predicates
from l3mp_ros.agent.report.update import NO_CHANGE, RESTATED, NLUpdater
from l3mp_ros.agent.turn import Turn
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.testing.fake_openai import DEFAULT_ANSWERS
from l3mp_ros.text import UtteranceKind
from l3mp_ros.world.kg import Fact

from .agent_fixtures import client, household_world

REPORT = 'Jerry put the red pen on the living room table.'  # where it lies
NOTHING = {'content': {'facts': []}}
PEN = Fact('placed_at_table', ('red_pen', 'living_room_table'))


def _pick(phrase):
    """Answer a read-back yes when its statement says ``phrase``, else no."""
    def answer(request):
        said = request['messages'][-1]['content']
        statement = said.split('Statement:', 1)[-1]
        return {'content': {'answer': 'yes' if phrase in statement else 'no'}}
    return answer


def _run(tmp_path, phrase, *, ask_already=True):
    world = household_world(tmp_path)
    before = world.kg.to_json()
    with FakeOpenAI([NOTHING], answers={**DEFAULT_ANSWERS, 'confirm': _pick(phrase)}) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever())
        updater.settings.ask_already = ask_already
        updater.settings.ask_open = False  # no open question after (test_open_question.py)
        out = updater.run(REPORT)
        asked = [r for r in fake.requests
                 if r['response_format']['json_schema']['name'] == 'confirm']
    assert not out.applied and world.kg.to_json() == before  # nothing is ever written
    return world, out, asked


def test_a_restated_fact_is_said_to_be_so_already(tmp_path):
    world, out, asked = _run(tmp_path, 'red pen')
    assert out.already == [PEN] and out.errors == [RESTATED]
    statements = [r['messages'][-1]['content'].split('Statement: ')[1] for r in asked]
    assert len(asked) == len(candidates(world, world.kg, ['jerry', 'red_pen',
                                                          'living_room_table']))
    assert 'The red pen is placed at the living room table\nAnswer:' in statements
    said = Turn(REPORT, UtteranceKind.REPORT, report=out).reply(world)
    assert said == ['The red pen is already placed at the living room table.'], said


def test_none_of_them_keeps_the_report_as_no_change(tmp_path):
    _, out, asked = _run(tmp_path, 'no such phrase')
    assert out.already == [] and out.errors == [NO_CHANGE] and len(asked) >= 2


def test_without_the_setting_no_call_is_made(tmp_path):
    _, out, asked = _run(tmp_path, 'red pen', ask_already=False)
    assert asked == [] and out.errors == [NO_CHANGE]


def test_only_facts_that_may_change_and_are_about_the_things_named(tmp_path):
    world = household_world(tmp_path)
    got = candidates(world, world.kg, ['jerry', 'red_pen', 'living_room_table'])
    assert PEN in got and Fact('person_in_room', ('jerry', 'living_room')) in got
    fluent = subject_predicates(world)
    named = ('jerry', 'red_pen', 'living_room_table')
    assert all(f.predicate in fluent and f.args[0] in named for f in got)
    assert candidates(world, world.kg, []) == []


def test_the_last_no_of_a_talk_asks_whether_it_was_already_so(tmp_path, monkeypatch):
    """The issue's case: the model reads the remote as taken, the speaker says no; the
    robot then finds the report restates where it lies and says so (two calls)."""
    from l3mp_ros.agent.core.decision import ReadingDecision
    from l3mp_ros.agent.report import report_checks
    monkeypatch.setattr(report_checks, 'fitted',
                        lambda: ReadingDecision(('read',), (0.0,), -5.0, 0.5))  # ask
    world = household_world(tmp_path)
    before = world.kg.to_json()
    taken = {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry']]}}
    with FakeOpenAI([taken], answers={**DEFAULT_ANSWERS, 'confirm': _pick('red pen')}) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever())
        updater.settings.ask_decision = 'fitted'
        out = updater.run(REPORT)
        assert out.question is not None and "Jerry's hand" in out.question
        calls = len(fake.requests)
        done = updater.answer('No.')
        assert len(fake.requests) > calls  # the facts read back, one yes/no each
    assert done.already == [PEN] and not done.applied and world.kg.to_json() == before
    said = Turn(REPORT, UtteranceKind.REPORT, report=done).reply(world)
    assert said == ['The red pen is already placed at the living room table.'], said
    # a yes writes as before, and a no without the setting asks nothing more
    world2 = household_world(tmp_path / 'b')
    with FakeOpenAI([taken], answers={**DEFAULT_ANSWERS, 'confirm': _pick('red pen')}) as fake:
        updater = NLUpdater(world2, client(fake), FullRetriever())
        updater.settings.ask_decision, updater.settings.ask_already = 'fitted', False
        updater.run(REPORT)
        calls = len(fake.requests)
        done = updater.answer('No.')
        assert len(fake.requests) == calls and done.already == []


def test_l3mp_say_says_it_is_already_so(tmp_path, capsys):
    """The CLI prints the sentence before why nothing was written (stderr)."""
    from l3mp_ros.cli.language_cmd import _print_report
    _, out, _ = _run(tmp_path, 'red pen')
    assert _print_report(out, False, ['The red pen is already on the table.']) == 1
    got = capsys.readouterr()
    assert got.out == 'The red pen is already on the table.\n'
    assert 'the KG is unchanged' in got.err and RESTATED in got.err
