# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Episodic memory: AriGraph relevance, search, persistence across restarts, past QA."""

import json
import math
import uuid

import pytest

from l3mp_ros.cli import main
from l3mp_ros.compose import open_store_world
from l3mp_ros.memory.episodic import EpisodicMemory, arigraph_relevance, memory_file
from l3mp_ros.memory.hooks import Memory, MemoryConfig
from l3mp_ros.memory.qa import PastAnswerer, is_past_question, mentioned_entities
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.model import WorldModel
from l3mp_ros.world.store import Store
from l3mp_ros.world.stores import create_store

from .agent_fixtures import CONSTRAINTS, DOMAIN, STATE, client, household_world
from .pg_fixtures import postgres  # noqa: F401 (the session's PostgreSQL server)

F = Fact.parse_pddl


def test_relevance_formula_values():
    assert arigraph_relevance(0, 0) == 0.0
    assert arigraph_relevance(1, 1) == 0.0  # log(1): a one-fact episode carries no weight
    assert arigraph_relevance(2, 4) == pytest.approx(0.5 * math.log(4))
    assert arigraph_relevance(3, 3) == pytest.approx(math.log(3))


def test_relevance_and_search_on_hand_made_episodes(tmp_path):
    world = household_world(tmp_path)
    mem = EpisodicMemory(world.store.path, embedder=False, recent=0)
    a, b, c, d = (F('(light_on kitchen_light)'), F('(window_open kitchen_window)'),
                  F('(person_in_room jerry kitchen)'), F('(light_on bathroom_light)'))
    e = F('(in_person_hand red_pen jerry)')
    mem.add_episode(101, 1.0, 'nl', 'one', [a, b], [c, d])     # N=4, touches a,b,c -> n=3
    mem.add_episode(102, 2.0, 'nl', 'two', [a], [])             # N=1 -> rel 0
    mem.add_episode(103, 3.0, 'nl', 'three', [a, e], [])        # N=2, n=1
    mem.add_episode(104, 4.0, 'nl', 'four', [d, e], [])         # untouched
    rel = mem.relevance([a, b, c])
    assert set(rel) == {101, 102, 103}
    assert rel[101] == (3, 4, pytest.approx(3 / 4 * math.log(4)))
    assert rel[102] == (1, 1, 0.0)
    assert rel[103] == (1, 2, pytest.approx(0.5 * math.log(2)))
    found = mem.search('', [a, b, c], k=2, recent=0)
    assert [s.episode.id for s in found] == [101, 103]
    assert found[0].score == pytest.approx(1.0) and found[0].n == 3
    # the recent window (newest episodes) is excluded
    found = mem.search('', [a, b, c, e], k=3, recent=3)
    assert [s.episode.id for s in found] == [101]
    mem.close()


def _move(world: WorldModel, item, old, new, text, source='nl'):
    res = world.apply(Update.of([old], [new]), source=source, utterance=text)
    assert res.applied, res.errors
    return res.event_id


def _story(world):
    eids = [
        _move(world, F('(placed_at_table red_pen living_room_table)'),
              F('(placed_at_table red_pen living_room_table)'),
              F('(in_person_hand red_pen jerry)'), 'Jerry took the red pen from the table.'),
        _move(world, None, F('(in_person_hand red_pen jerry)'),
              F('(placed_at_table red_pen jerry_bedroom_table)'),
              'Jerry put the red pen on the table in his bedroom.'),
        _move(world, None, F('(placed_at_table red_pen jerry_bedroom_table)'),
              F('(in_person_hand red_pen anna)'), 'Anna took the red pen.'),
    ]
    return eids


def test_episodes_derive_from_events_and_survive_restart(tmp_path):
    world = household_world(tmp_path)
    path = world.store.path
    mem = EpisodicMemory(path, embedder=False)
    world.listeners.append(lambda eid, res: mem.sync())
    eids = _story(world)
    world.reject(['nonsense'], source='nl', utterance='blah')  # rejected: no episode
    assert len(mem) == 3 and mem.synced_event() == world.store.last_event_id()
    ep = mem.episodes([eids[0]])[0]
    assert ep.utterance.startswith('Jerry took') and ep.source == 'nl'
    assert ep.removed == [F('(placed_at_table red_pen living_room_table)')]
    assert ep.added == [F('(in_person_hand red_pen jerry)')]
    mem.close()
    world.close()
    # restart: episodes are in the store file; new events are derived incrementally
    store = Store(path)
    assert {r[0] for r in store._conn.execute('SELECT id FROM episodes')} == set(eids)
    store.close()
    world = open_store_world(path, DOMAIN, CONSTRAINTS)
    mem = EpisodicMemory(path, embedder=False)
    assert len(mem) == 3
    _move(world, None, F('(in_person_hand red_pen anna)'),
          F('(placed_at_table red_pen living_room_table)'), 'Anna put it back.')
    assert mem.sync() == 1 and mem.sync() == 0 and len(mem) == 4
    hist = mem.fact_history(F('(in_person_hand red_pen jerry)'))
    assert [(e, op) for e, op, _ in hist] == [(eids[0], 'add'), (eids[1], 'remove')]
    assert [e.id for e in mem.history('red_pen')][-3:] == eids[::-1]
    mem.close()
    world.close()


def test_embedding_search_and_index_persist(tmp_path):
    world = household_world(tmp_path)
    eids = _story(world)
    world.apply(Update.of([], [F('(light_on jerry_bedroom_light)')]), source='nl',
                utterance="Helen switched on the light in Jerry's bedroom.")
    mem = EpisodicMemory(world.store.path, recent=0)
    mem.sync(embed=True)
    found = mem.search('who turned the bedroom light on?', [], k=1)
    assert found[0].episode.utterance == "Helen switched on the light in Jerry's bedroom."
    found = mem.search('the red pen', [F('(in_person_hand red_pen jerry)')], k=2)
    assert {s.episode.id for s in found} <= set(eids) and found[0].rel > 0
    mem.close()
    mem = EpisodicMemory(world.store.path, recent=0)
    assert len(mem.index) == 4 and mem.embed_pending() == 0  # vectors came from SQLite
    mem.close()
    world.close()


def test_past_question_detection_and_mentions(tmp_path):
    assert is_past_question('Where was the red pen before Jerry took it?')
    assert is_past_question('who moved the mug?')
    assert is_past_question('When did I last see the remote?')
    assert not is_past_question('Where is the red pen?')
    world = household_world(tmp_path)
    names = mentioned_entities(world.kg, "Where was the red pen before Jerry's bedroom?")
    assert names == ['red_pen', 'jerry_bedroom']
    world.close()


def test_deterministic_past_answers(tmp_path):
    world = household_world(tmp_path)
    eids = _story(world)
    mem = EpisodicMemory(world.store.path, embedder=False)
    qa = PastAnswerer(mem)
    out = qa.answer(world.kg, 'Where was the red pen before Jerry took it?')
    assert out.method == 'history' and out.episodes == [eids[0]]
    assert out.facts == [F('(placed_at_table red_pen living_room_table)')]
    assert 'living room table' in out.text
    out = qa.answer(world.kg, 'Where was the red pen before Anna took it?')
    assert out.facts == [F('(placed_at_table red_pen jerry_bedroom_table)')]
    out = qa.answer(world.kg, 'Who moved the red pen?')
    assert out.text.startswith('Anna did') and out.episodes == [eids[2]]
    out = qa.answer(world.kg, 'When did I last see the red pen?')
    assert out.episodes == [eids[2]] and "the red pen was in Anna's hand." in out.text
    out = qa.answer(world.kg, 'Where was the book Dune before Jerry took it?')
    assert out.method == 'none'
    mem.close()
    world.close()


def test_llm_past_answer_and_agent_routing(tmp_path):
    from l3mp_ros.agent.agent import Agent
    from l3mp_ros.planning.planner import Planner
    from l3mp_ros.retrieval.full import FullRetriever

    world = household_world(tmp_path)
    eids = _story(world)
    world.apply(Update.of([], [F('(light_on jerry_bedroom_light)')]), source='nl',
                utterance="Helen switched on the light in Jerry's bedroom.")
    reply = {'content': {'answer': 'Helen switched it on.', 'events': [eids[-1] + 1, 999]}}
    with FakeOpenAI([reply]) as fake:
        llm = client(fake)
        memory = Memory(str(world.store.path), MemoryConfig(answer_past=True), llm=llm,
                        retriever=FullRetriever())
        agent = Agent(world, llm, FullRetriever(), Planner(world.domain, engine='pyperplan'),
                      memory=memory)
        out = agent.ask("What happened to the light in Jerry's bedroom earlier?")
        prompt = fake.requests[0]['messages'][1]['content']
        det = agent.ask('Who moved the red pen?')  # deterministic: no LLM call
        assert len(fake.requests) == 1
        agent.close()
    assert out.method == 'llm' and out.text == 'Helen switched it on.'
    assert out.episodes == [eids[-1] + 1]  # unknown event numbers are dropped
    assert '"Helen switched on the light in Jerry\'s bedroom."' in prompt
    assert json.dumps(out.to_json())
    assert det.method == 'history' and det.text.startswith('Anna did')


def test_episodes_in_update_prompt(tmp_path):
    from l3mp_ros.agent.report.update import NLUpdater
    from l3mp_ros.retrieval.full import FullRetriever

    world = household_world(tmp_path)
    _story(world)
    memory = Memory(str(world.store.path), MemoryConfig(episodic_k=2, recent_window=0))
    memory.attach(world)
    upd = {'remove': [['red_pen', 'in_person_hand', 'anna']],
           'add': [['red_pen', 'placed_at_table', 'anna_bedroom_table']]}
    with FakeOpenAI([{'content': upd}]) as fake:
        out = NLUpdater(world, client(fake), FullRetriever(), memory=memory).run(
            'Anna left the red pen on her table.')
        prompt = fake.requests[0]['messages'][1]['content']
    assert out.applied
    assert prompt.startswith('Relevant past events') and 'Anna took the red pen.' in prompt
    assert len(memory.episodic) == 4  # the listener synced the new episode
    memory.close()
    world.close()


@pytest.fixture(params=['sqlite', 'postgresql'])
def any_store(request, tmp_path):
    """A household store of either backend: (location, world model writing it)."""
    if request.param == 'sqlite':
        world = household_world(tmp_path)
        yield str(world.store.path), world
    else:
        server = request.getfixturevalue('postgres')
        url = server.create_database('mem_' + uuid.uuid4().hex[:12])
        kg = KnowledgeGraph.from_json(json.loads(STATE.read_text()))
        create_store(url, kg, domain_path=str(DOMAIN), constraints_path=str(CONSTRAINTS)).close()
        world = open_store_world(url)
        yield url, world
    world.close()


def test_memory_reads_any_store_through_its_event_log(any_store, tmp_path, capsys,
                                                      monkeypatch):
    """Episodes and "where was X / who moved it" on PostgreSQL as on SQLite."""
    location, world = any_store
    monkeypatch.setenv('HOME', str(tmp_path))  # a PostgreSQL store's memory file goes here
    eids = _story(world)
    path = memory_file(location)
    assert (path == world.store.path) == (not location.startswith('postgresql'))
    mem = EpisodicMemory(path, events=location, embedder=False)
    assert mem.sync() == 3 and len(mem) == 3 and mem.sync() == 0
    assert [e.id for e in mem.history('red_pen')] == eids[::-1]
    qa = PastAnswerer(mem, domain=world.domain)
    out = qa.answer(world.kg, 'Where was the red pen before Anna took it?')
    assert out.facts == [F('(placed_at_table red_pen jerry_bedroom_table)')]
    assert "the red pen was placed at Jerry's bedroom table" in out.text
    out = qa.answer(world.kg, 'Who moved the red pen?')
    assert out.text.startswith('Anna did') and out.episodes == [eids[2]]
    mem.close()
    # the CLI, on either store; new events are picked up on the next sync
    _move(world, None, F('(in_person_hand red_pen anna)'),
          F('(placed_at_table red_pen living_room_table)'), 'Anna put the pen back.')
    assert main(['memory', 'sync', '--store', location, '--json']) == 0
    assert json.loads(capsys.readouterr().out) == {'new_episodes': 1, 'episodes': 4}
    assert main(['memory', 'ask', '--store', location, '--llm', '',
                 '--text', 'Who moved the red pen?']) == 0
    assert 'Anna did' in capsys.readouterr().out


def test_contradicted_reports_are_marked(any_store, tmp_path, capsys, monkeypatch):
    """A report an observation later overrides is marked, said, and shown (any store)."""
    from l3mp_ros.world.inputs import LANGUAGE_SOURCES
    location, world = any_store
    monkeypatch.setenv('HOME', str(tmp_path))
    eids = _story(world)  # the last report: Anna took the red pen
    path = memory_file(location)
    mem = EpisodicMemory(path, events=location, embedder=False)
    assert mem.sync() == 3 and mem.contradicted() == {}
    # the robot sees the pen back on the table in Jerry's bedroom
    seen = Update.of([F('(in_person_hand red_pen anna)')],
                     [F('(placed_at_table red_pen jerry_bedroom_table)')])
    overridden = world.overrides(seen, LANGUAGE_SOURCES)
    assert overridden == [eids[2]]
    res = world.apply(seen, source='scene_graph', info={'overrides': overridden})
    assert res.applied, res.errors
    assert mem.sync() == 1 and mem.contradicted() == {eids[2]: [res.event_id]}
    ep = mem.episodes([eids[2]])[0]
    assert ep.contradicted_by == [res.event_id]
    assert ep.to_json()['contradicted_by'] == [res.event_id]
    assert f'contradicted by what was seen in event {res.event_id}' in ep.describe()
    assert mem.episodes([eids[1]])[0].contradicted_by == []
    qa = PastAnswerer(mem, domain=world.domain)
    out = qa.answer(world.kg, 'Where was the red pen before Anna took it?')
    assert out.episodes == [eids[2]]
    assert f'What I saw later (event {res.event_id}) contradicts that report.' in out.text
    out = qa.answer(world.kg, 'Where was the red pen before Jerry took it?')
    assert out.episodes == [eids[0]] and 'contradicts' not in out.text
    mem.close()
    # a memory file made before the contradiction table learns the marks once, on sync
    old = tmp_path / 'old_memory.db'
    mem = EpisodicMemory(old, events=location, embedder=False)
    mem.conn.execute('DROP TABLE episode_contradictions')
    mem.conn.execute("DELETE FROM memory_meta WHERE key = 'episodic_contradictions_from'")
    mem.close()
    mem = EpisodicMemory(old, events=location, embedder=False)
    assert mem.sync() == 4 and mem.contradicted() == {eids[2]: [res.event_id]}
    mem.close()
    assert main(['memory', 'episodes', '--store', location, '--entity', 'red_pen']) == 0
    assert f'contradicted by what was seen in event {res.event_id}' in capsys.readouterr().out
    # a rejected observation marks nothing
    bad = world.apply(Update.of([], [F('(in_person_hand red_pen nobody)')]),
                      source='scene_graph', info={'overrides': [eids[0]]})
    assert not bad.applied
    mem = EpisodicMemory(path, events=location, embedder=False)
    mem.sync()
    assert mem.contradicted() == {eids[2]: [res.event_id]}
    mem.close()
