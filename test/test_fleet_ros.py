# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A fleet over real DDS: two namespaced world models share one PostgreSQL store."""

import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from .pg_fixtures import postgres  # noqa: F401 (the session's server)
from .ros_fixtures import Probe, ros_session, spinning

pytestmark = pytest.mark.ros

from rclpy.parameter import Parameter  # noqa: E402

from l3mp_ros.nodes.world_model_node import WorldModelNode  # noqa: E402
from l3mp_ros.world.kg import Update  # noqa: E402
from l3mp_ros.world.model import WorldModel  # noqa: E402
from l3mp_ros.world.replica import kg_update_request  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TAKE = Update.parse('REMOVE: (red_pen, placed_at_table, living_room_table) '
                    'ADD: (red_pen, in_person_hand, jerry)')
GIVE = Update.parse('REMOVE: (red_pen, in_person_hand, jerry) '
                    'ADD: (red_pen, in_person_hand, anna)')
LIGHT = Update.parse('ADD: (laundry_room_light, light_on, true)')


@pytest.fixture(scope='module')
def ros_context():
    with ros_session():
        yield


@pytest.fixture
def spinner(ros_context):
    with spinning() as sp:
        yield sp


def test_two_robots_share_one_world_model(spinner, postgres):  # noqa: F811
    url = postgres.create_database('fleet_' + uuid.uuid4().hex[:10])
    params = [Parameter('store', value=url), Parameter('markers_rate', value=20.0)]
    one = spinner.add(WorldModelNode(namespace='robot1', parameter_overrides=params))
    two = spinner.add(WorldModelNode(namespace='robot2', parameter_overrides=params))
    probe = spinner.add(Probe(listen=('/robot1/events', '/robot2/events')))

    # robot 1 hears a report: applied there, pushed to robot 2 with robot 1 as the writer
    probe.publish('/robot1/kg_update', kg_update_request(TAKE, source='nl', utterance='take',
                                                         request_id='r1'))
    mine = probe.wait_json('/robot1/events', lambda e: e.get('request_id') == 'r1')
    assert mine['status'] == 'applied'
    theirs = probe.wait_json('/robot2/events', lambda e: e['id'] == mine['id'])
    assert theirs['status'] == 'applied' and theirs['diff'] == mine['diff']
    assert theirs['info']['writer'] == '/robot1/world_model'

    # robot 2 acts on what robot 1 saw; a stale copy of robot 1's report is refused there
    probe.publish('/robot2/kg_update', kg_update_request(GIVE, source='nl', utterance='give',
                                                         request_id='r2'))
    second = probe.wait_json('/robot2/events', lambda e: e.get('request_id') == 'r2')
    assert second['status'] == 'applied'
    probe.wait_json('/robot1/events', lambda e: e['id'] == second['id'])
    probe.publish('/robot1/kg_update', kg_update_request(TAKE, source='nl', utterance='again',
                                                         request_id='r3'))
    stale = probe.wait_json('/robot1/events', lambda e: e.get('request_id') == 'r3')
    assert stale['status'] == 'rejected'

    # an operator's CLI on a third machine: both robots publish it
    cli = [sys.executable, '-c', 'import sys; from l3mp_ros.cli import main; sys.exit(main())']
    done = subprocess.run(cli + ['kg', 'apply', '--store', url, '--update', LIGHT.text(),
                                 '--json'], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for topic in ('/robot1/events', '/robot2/events'):
        ev = probe.wait_json(topic, lambda e: e.get('utterance') is None
                             and e['status'] == 'applied'
                             and e['info'].get('writer', '').startswith('cli@'))
        assert ev['diff'] == LIGHT.to_json()

    # one state everywhere, the log gapless and within the rules
    probe.wait(lambda: one.world.snapshot().to_json() == two.world.snapshot().to_json())
    check = WorldModel.open(url)
    assert check.kg.to_json() == one.world.snapshot().to_json()
    assert check.verifier.check_state(check.kg) == []
    ids = [e.id for e in check.store.history()]
    assert ids == list(range(1, len(ids) + 1))
    check.close()
