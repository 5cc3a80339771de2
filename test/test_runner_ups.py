# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Readings from the answer slots' runners-up (agent/report/runner_ups.py), over the talk."""

import json
import math

from l3mp_ros.agent.core.decision import ReadingDecision
from l3mp_ros.agent.core.slot_odds import fact_of
from l3mp_ros.agent.report import report_checks
from l3mp_ros.agent.report.update import NLUpdater
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.world.kg import Fact

from .agent_fixtures import client, household_world

REPORT = 'Jerry walked past the bathroom into the kitchen.'


def _answer(weights):
    text = json.dumps({'facts': [['person_in_room', 'jerry', 'kitchen']]})
    at = text.index('kitchen')
    steps = [[c, [[x, math.log(p)] for x, p in weights] if i == at else [[c, 0.0]]]
             for i, c in enumerate(text)]
    return {'content': text, 'logprobs': steps}


def _updater(world, fake, runner_ups):
    updater = NLUpdater(world, client(fake), FullRetriever())
    s = updater.settings
    s.confirm, s.ask_below, s.ask_decision, s.runner_ups = False, 0.0, 'fitted', runner_ups
    return updater


def test_after_a_no_the_runner_up_is_offered_and_taken(tmp_path, monkeypatch):
    monkeypatch.setattr(report_checks, 'fitted',
                        lambda: ReadingDecision(('read',), (0.0,), -5.0, 0.5))  # always ask
    world = household_world(tmp_path)
    with FakeOpenAI([_answer([('k', 0.7), ('b', 0.3)])]) as fake:
        updater = _updater(world, fake, 2)
        # one reading at a time, no options about the bathroom the words name
        updater.settings.ask_left_out = updater.settings.ask_together = False
        out = updater.run(REPORT)
        calls = len(fake.requests)  # the answer, and the where-question of the reading
        assert out.question is not None and 'kitchen' in out.question
        assert 'bathroom' not in out.question
        then = updater.answer('no')
        assert then.question is not None and 'bathroom' in then.question
        [option] = then.asked()['options']
        assert option['add'] == [['jerry', 'person_in_room', 'bathroom']]
        done = updater.answer('yes')
        assert len(fake.requests) == calls  # the runner-up and the talk cost no call
    assert done.applied and Fact('person_in_room', ('jerry', 'bathroom')) in world.kg
    assert Fact('person_in_room', ('jerry', 'kitchen')) not in world.kg


def test_a_runner_up_already_offered_and_denied_is_not_asked_again(tmp_path, monkeypatch):
    """"Jerry walked past the bathroom into the kitchen": the options about the bathroom
    already put Jerry there; after "none of them" the runner-up that says the same is not
    offered again, and nothing is written."""
    monkeypatch.setattr(report_checks, 'fitted',
                        lambda: ReadingDecision(('read',), (0.0,), -5.0, 0.5))
    world = household_world(tmp_path)
    before = world.kg.to_json()
    with FakeOpenAI([_answer([('k', 0.7), ('b', 0.3)])]) as fake:
        updater = _updater(world, fake, 2)
        out = updater.run(REPORT)
        there = [['jerry', 'person_in_room', 'bathroom']]
        assert any(o['add'] == there for o in out.asked()['options'])
        then = updater.answer('none of them')
    assert then.question is None and not then.applied and world.kg.to_json() == before


def test_without_runner_ups_a_no_ends_the_talk(tmp_path, monkeypatch):
    monkeypatch.setattr(report_checks, 'fitted',
                        lambda: ReadingDecision(('read',), (0.0,), -5.0, 0.5))
    for runner_ups, weights in ((0, [('k', 0.7), ('b', 0.3)]),
                                (2, [('k', 0.97), ('b', 0.03)])):  # too unlikely to offer
        world = household_world(tmp_path / str(runner_ups))
        before = world.kg.to_json()
        with FakeOpenAI([_answer(weights)]) as fake:
            updater = _updater(world, fake, runner_ups)
            assert updater.run(REPORT).question is not None
            out = updater.answer('no')
        assert out.question is None and not out.applied and world.kg.to_json() == before


def test_an_answer_item_is_read_as_a_fact(tmp_path):
    domain = household_world(tmp_path).domain
    assert fact_of(domain, ['light_on', 'kitchen_light', 'false'], False) == (
        Fact('light_on', ('kitchen_light',)), True)
    assert fact_of(domain, ['person_in_room', 'jerry', 'kitchen'], True) == (
        Fact('person_in_room', ('jerry', 'kitchen')), True)
    assert fact_of(domain, ['nope', 'x'], False) is None
    assert fact_of(domain, ['person_in_room', 'jerry'], False) is None
