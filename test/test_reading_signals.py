# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What a reading tells about itself at no extra call: the things it leaves unnamed, and
the parts of the report that changed nothing (signals of a partial reading)."""

from l3mp_ros.agent.report.update import NLUpdater
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.testing import FakeOpenAI

from .agent_fixtures import client, household_world

TOOK = {'facts': [['in_person_hand', 'red_pen', 'jerry']]}


def _read(tmp_path, text, script):
    world = household_world(tmp_path)
    with FakeOpenAI(script) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever())
        updater.settings.ask_below, updater.settings.confirm = 0.0, False
        return updater.run(text)


def test_a_whole_reading_names_everything_the_report_names(tmp_path):
    out = _read(tmp_path, 'Jerry took the red pen from the living room table.', [
        {'content': TOOK}])
    assert out.applied and out.unaccounted == []
    assert (out.parts, out.parts_read) == (1, 1)
    assert out.to_json()['unaccounted'] == [] and out.to_json()['parts'] == 1


def test_a_partial_reading_leaves_a_named_thing_out(tmp_path):
    """Two pens taken, one read: the blue pen is named by no fact, and is asked about
    (agent/report/whole.py), the half reading never written."""
    out = _read(tmp_path, 'Jerry took the red pen and the blue pen from the living room '
                'table.', [{'content': TOOK}])
    assert out.unaccounted == ['blue_pen'] and not out.applied
    assert 'And the blue pen: which is right?' in out.question
    assert (out.parts, out.parts_read) == (1, 1)


def test_a_part_that_changes_nothing_is_counted(tmp_path):
    """The report is not written (the kitchen its second part names is asked about),
    its parts still counted."""
    out = _read(tmp_path, 'Jerry took the red pen from the living room table and then he '
                'went to the kitchen.', [{'content': TOOK}, {'content': {'facts': []}}])
    assert not out.applied and (out.parts, out.parts_read) == (2, 1)
