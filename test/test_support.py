# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Seen or told, per fact (issue 43): derived from the log, kept in both stores, restarts."""

import json
import sqlite3
import uuid
from pathlib import Path

import pytest

from l3mp_ros.cli import main
from l3mp_ros.compose import open_store_world
from l3mp_ros.world.inputs import WorldInputs
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.stores import create_store, open_store
from l3mp_ros.world.support import replay

from .pg_fixtures import postgres  # noqa: F401 (the session's server)

ROOT = Path(__file__).resolve().parent.parent
PEN_HERE = Fact('placed_at_table', ('red_pen', 'living_room_table'))
PEN_THERE = Fact('placed_at_table', ('red_pen', 'jerry_bedroom_table'))
MOVE = Update(remove=frozenset({PEN_HERE}), add=frozenset({PEN_THERE}))
BACK = MOVE.inverse()
PARAMS = {'perception_config': 'config/household_perception.yaml', 'max_scene_entities': 2000,
          'kg_update_sources': ['nl', 'execution'], 'kg_update_max_facts': 32}


def _state() -> KnowledgeGraph:
    return KnowledgeGraph.from_json(json.loads(
        (ROOT / 'config' / 'household_state.json').read_text()))


def _frame(room_facts: list[Fact], observed: list[str], robot: str | None = None) -> str:
    body = {'schema': 'l3mp/scene_graph/v1', 'entities': [], 'observed': observed,
            'facts': [list(f.triplet()) for f in room_facts], 'source': 'perception'}
    if robot:
        body['robot'] = robot
    return json.dumps(body)


def _kinds(world) -> dict:
    return {f: (s.kind, s.event_id, s.confirmed, s.doubtful, s.speaker, s.seen_robot)
            for f, s in world.support.rows.items()}


@pytest.fixture(params=['sqlite', 'postgresql'])
def location(request, tmp_path):
    if request.param == 'sqlite':
        loc = str(tmp_path / 'kg.db')
    else:
        loc = request.getfixturevalue('postgres').create_database('t_' + uuid.uuid4().hex[:12])
    create_store(loc, _state(), domain_path=str(ROOT / 'pddl' / 'household.pddl')).close()
    return loc


def test_seen_and_told_survive_a_restart_on_both_stores(location):
    world = open_store_world(location, writer='robot_a')
    assert world.support.get(PEN_HERE).kind == 'given'
    told = world.apply(MOVE, source='nl', utterance="Gary put the red pen on Jerry's table",
                       info={'speaker': 'gary'})
    assert told.applied
    s = world.support_of(PEN_THERE)
    assert (s.kind, s.speaker, s.confirmed) == ('told', 'gary', False)
    assert s.event_id == told.event_id
    inputs = WorldInputs(world, PARAMS)
    # the robot looks at Jerry's table: the told fact is confirmed by a sighting
    assert inputs.scene_graph(_frame([PEN_THERE], ['red_pen'])) == []
    s = world.support_of(PEN_THERE)
    assert s.kind == 'told' and s.confirmed and s.seen_robot == 'robot_a'
    # an unchanged frame seen again soon after writes nothing (already confirmed)
    last = world.last_event()
    assert inputs.scene_graph(_frame([PEN_THERE], ['red_pen'])) == []
    assert world.last_event() == last
    before = _kinds(world)
    world.close()
    again = open_store_world(location)
    assert _kinds(again) == before  # read from the table, not replayed
    with open_store(location) as store:
        # the table is current (written with each event), and the log replays to it
        assert store._support_upto() == str(store.last_event_id())
        assert store._fetch('SELECT COUNT(*) FROM support')[0][0] == len(before)
        rebuilt = replay(store.load_kg().facts, store.history())
    assert {f: (s.kind, s.event_id, s.confirmed) for f, s in rebuilt.rows.items()} == \
        {f: (k[0], k[1], k[2]) for f, k in before.items()}
    again.close()


def test_an_old_store_without_the_table_is_backfilled_from_its_log(tmp_path):
    loc = tmp_path / 'old.db'
    create_store(str(loc), _state(), domain_path=str(ROOT / 'pddl' / 'household.pddl')).close()
    world = open_store_world(str(loc))
    world.apply(MOVE, source='nl', info={'speaker': 'gary'})
    WorldInputs(world, PARAMS).scene_graph(_frame([PEN_THERE], ['red_pen']))
    want = _kinds(world)
    world.close()
    conn = sqlite3.connect(loc)  # what a store made before issue 43 looks like
    conn.execute('DROP TABLE support')
    conn.execute("DELETE FROM meta WHERE key = 'support_upto'")
    conn.commit()
    conn.close()
    world = open_store_world(str(loc))
    assert {f: k[:3] for f, k in _kinds(world).items()} == {f: k[:3] for f, k in want.items()}
    world.close()
    conn = sqlite3.connect(loc)
    assert conn.execute('SELECT COUNT(*) FROM support').fetchone()[0] == len(want)
    conn.close()


def test_a_report_contradicting_what_was_just_seen_is_marked_doubtful(tmp_path):
    loc = str(tmp_path / 'kg.db')
    create_store(loc, _state(), domain_path=str(ROOT / 'pddl' / 'household.pddl')).close()
    world = open_store_world(loc)
    inputs = WorldInputs(world, PARAMS)
    inputs.scene_graph(_frame([PEN_HERE], ['red_pen']))  # seen just now
    assert world.support_of(PEN_HERE).confirmed
    res = world.apply(MOVE, source='nl', info={'speaker': 'gary'})
    assert res.applied  # written (it may have moved since) but never silently trusted
    s = world.support_of(PEN_THERE)
    assert s.doubtful and not s.confirmed
    event = world.events(since_id=res.event_id - 1)[0]
    assert event.info['doubtful'] and event.info['contradicts_seen'] == [list(PEN_HERE.triplet())]
    # a report the pipeline itself doubted (info['doubtful']) is doubtful too
    res = world.apply(BACK, source='nl', info={'doubtful': True})
    assert world.support_of(PEN_HERE).doubtful
    # seeing it clears the doubt
    inputs.scene_graph(_frame([PEN_HERE], ['red_pen']))
    assert not world.support_of(PEN_HERE).doubtful and world.support_of(PEN_HERE).confirmed
    world.close()


def test_two_robots_observations_both_count(postgres):  # noqa: F811
    loc = postgres.create_database('t_' + uuid.uuid4().hex[:12])
    create_store(loc, _state(), domain_path=str(ROOT / 'pddl' / 'household.pddl')).close()
    a = open_store_world(loc, writer='robot_a')
    b = open_store_world(loc, writer='robot_b')
    a.apply(MOVE, source='nl', info={'speaker': 'gary'})
    light = Fact('light_on', ('kitchen_light',))
    assert light in a.kg
    b.refresh()
    WorldInputs(b, PARAMS).scene_graph(_frame([PEN_THERE], ['red_pen']))
    WorldInputs(a, PARAMS).scene_graph(_frame([light], ['kitchen_light']))
    a.refresh()
    b.refresh()
    for w in (a, b):
        assert w.support_of(PEN_THERE).seen_robot == 'robot_b'
        assert w.support_of(light).seen_robot == 'robot_a'
    a.close()
    b.close()
    c = open_store_world(loc)  # and after a restart, from the table
    assert c.support_of(PEN_THERE).seen_robot == 'robot_b'
    assert c.support_of(light).seen_robot == 'robot_a'
    c.close()


def test_kg_show_and_kg_query_say_what_a_fact_rests_on(tmp_path, capsys):
    loc = str(tmp_path / 'kg.db')
    create_store(loc, _state(), domain_path=str(ROOT / 'pddl' / 'household.pddl')).close()
    world = open_store_world(loc)
    world.apply(MOVE, source='nl', info={'speaker': 'gary'})
    inputs = WorldInputs(world, PARAMS)
    body, errors = inputs.query(json.dumps({'schema': 'l3mp/kg_query/v1', 'request_id': 'q',
                                            'entity': 'red_pen'}))
    assert errors == [] and body['ok']
    (entry,) = body['support']
    assert entry['kind'] == 'told' and entry['speaker'] == 'gary' and entry['perceivable']
    assert entry['said'].startswith('Gary said at ') and 'I have not seen it since' in \
        entry['said']
    world.close()
    assert main(['kg', 'show', '--store', loc, '--entity', 'red_pen']) == 0
    out = capsys.readouterr().out
    assert '[told, unconfirmed]' in out and 'Gary said at' in out
    assert main(['kg', 'show', '--store', loc, '--entity', 'red_pen', '--json']) == 0
    data = json.loads(capsys.readouterr().out)
    assert data['facts'][0]['support']['kind'] == 'told'
    assert main(['kg', 'show', '--store', loc, '--entity', 'red_pen', '--perception',
                 str(tmp_path / 'none.yaml')]) == 2


def test_an_answer_says_what_was_only_told_and_not_seen_since(tmp_path):
    from l3mp_ros.compose import build_agent
    from l3mp_ros.config import Config
    loc = str(tmp_path / 'kg.db')
    create_store(loc, _state(), domain_path=str(ROOT / 'pddl' / 'household.pddl')).close()
    world = open_store_world(loc)
    agent = build_agent(Config(retriever='full', store=loc), world, llm=object())
    before = agent.ask('Where is the red pen?')  # given: nothing to add
    assert 'said' not in before.text and before.facts == [PEN_HERE]
    world.apply(MOVE, source='nl', info={'speaker': 'gary'})
    told = agent.ask('Where is the red pen?')  # no LLM call: answered from its facts
    assert told.facts == [PEN_THERE]
    assert 'Gary said at ' in told.text and 'I have not seen it since.' in told.text
    WorldInputs(world, PARAMS).scene_graph(_frame([PEN_THERE], ['red_pen']))
    seen = agent.ask('Where is the red pen?')
    assert 'I saw it at ' in seen.text and 'not seen it since' not in seen.text
    world.close()
