# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The fitted reading decision (agent/core/decision.py) and its use by AskBack."""

import json
import math

import pytest

from l3mp_ros.agent.core.decision import FEATURES, ReadingDecision, features
from l3mp_ros.agent.report import report_checks
from l3mp_ros.agent.report.update import NLUpdater
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.testing import FakeOpenAI

from .agent_fixtures import client, household_world

REC = {'confidence': 0.8, 'slot_odds': 0.5, 'attempts': 2, 'unaccounted': ['x', 'y'],
       'parts': 3, 'parts_read': 2,
       'fact_odds': [{'slots': [['a', 1.0, 0.25, []], ['b', 0.5, 0.75, []]]}]}


def test_features_read_a_record_as_the_fit_does():
    got = dict(zip(FEATURES, features(REC, tuple(FEATURES)), strict=True))
    assert got['readback'] == pytest.approx(math.log(0.8 / 0.2)) and got['read'] == 1.0
    assert got['slot'] == pytest.approx(0.0) and got['outside'] == 0.75
    assert got['again'] == 1.0 and got['facts'] == 1.0
    assert got['unaccounted'] == 2.0 and got['parts_left'] == 1.0
    # nothing read back, no odds: no doubt from those signals
    none = dict(zip(FEATURES, features({}, tuple(FEATURES)), strict=True))
    assert none['read'] == 0.0 and none['readback'] > 2.9 and none['slot'] > 9
    assert none['again'] == 0.0 and none['unaccounted'] == 0.0


def test_a_fit_is_read_and_checked(tmp_path):
    path = tmp_path / 'decision.json'
    path.write_text(json.dumps({'features': ['readback', 'again'], 'coef': [1.0, -2.0],
                                'intercept': 0.5, 'ask_below': 0.6}))
    d = ReadingDecision.load(path)
    z = 0.5 + math.log(4) - 2.0
    assert d.p_right(REC) == pytest.approx(1 / (1 + math.exp(-z)))
    assert d.asks(REC) and not d.asks({**REC, 'attempts': 1})
    for bad in ({'features': ['nope'], 'coef': [1.0], 'intercept': 0, 'ask_below': 0.5},
                {'features': ['again'], 'coef': [1.0, 2.0], 'intercept': 0, 'ask_below': 0.5},
                {'features': ['again'], 'coef': [1.0]}):
        path.write_text(json.dumps(bad))
        with pytest.raises(ValueError, match='decision'):
            ReadingDecision.load(path)
    path.write_text('{not json')
    with pytest.raises(ValueError, match='not a reading decision'):
        ReadingDecision.load(path)


def test_ask_back_follows_the_fitted_decision(tmp_path, monkeypatch):
    """A clear reading written under the read-back bar is asked about when the fit says
    so, and the question says why."""
    doubtful = ReadingDecision(('readback',), (1.0,), -10.0, 0.5)  # P(right) ~ 0: ask
    monkeypatch.setattr(report_checks, 'fitted', lambda: doubtful)
    script = [{'content': {'facts': [['in_person_hand', 'red_pen', 'jerry']]}}]
    for decision, asked in (('readback', False), ('fitted', True)):
        world = household_world(tmp_path / decision)
        with FakeOpenAI(script) as fake:
            updater = NLUpdater(world, client(fake), FullRetriever())
            updater.settings.confirm, updater.settings.ask_below = False, 0.0
            updater.settings.ask_decision = decision
            out = updater.run('Jerry took the red pen from the living room table.')
        assert (out.question is not None) == asked and out.applied != asked
    assert 'P(right) 0.00 is below 0.50' in ' '.join(out.errors)


def test_the_fit_sets_its_bar_by_selective_risk_control():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'benchmarks'))
    import fit_decision

    labels = [True, True, True, False, True, True, False, True]
    scores = [0.99, 0.95, 0.95, 0.9, 0.8, 0.8, 0.7, 0.6]
    bar = fit_decision.threshold(labels, scores, 0.0)
    assert bar['ask_below'] == 0.95 and bar['accepted'] == 3 and bar['wrong'] == 0
    assert fit_decision.threshold(labels, scores, 0.2)['ask_below'] == 0.95  # stops at 0.9
    assert fit_decision.threshold(labels, scores, 0.25)['ask_below'] == 0.8
    assert fit_decision.threshold([False, True], [0.9, 0.8], 0.0)['ask_below'] == 1.01
