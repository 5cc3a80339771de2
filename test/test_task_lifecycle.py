# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The active-task state machine, the world-model replica and the node runtime (no ROS)."""

import pytest

from l3mp_ros.compose import build_agent, open_world
from l3mp_ros.config import Config
from l3mp_ros.schemas import validate
from l3mp_ros.tasking.lifecycle import FINISHED, TaskLifecycle
from l3mp_ros.world.kg import Fact, Update
from l3mp_ros.world.layout import marker_layout
from l3mp_ros.world.replica import ReplicaWorldModel, apply_request, kg_update_request

GOAL = '(placed_at_table red_pen jerry_bedroom_table)'
GOAL2 = '(placed_at_table blue_pen living_room_table)'


@pytest.fixture(scope='module')
def setup(tmp_path_factory):
    params = Config(store=str(tmp_path_factory.mktemp('kg') / 'kg.db'), retriever='full',
                    engine='fast-downward', plan_timeout=20.0)
    world = open_world(params)
    agent = build_agent(params, world, llm=object())
    return params, world, agent


@pytest.fixture
def manager(setup):
    _, world, agent = setup
    return TaskLifecycle(world.domain, lambda g, t, x: agent.plan_goal(g, task_id=t, text=x),
                         world.snapshot, max_replans=2)


def F(s, p, o='true'):
    return Fact.from_triplet((s, p, o))


def test_queue_feedback_and_done(setup, manager):
    _, world, agent = setup
    out = manager.submit(agent.plan_goal(GOAL, task_id='a'))
    assert [m['status'] for m in out] == ['solved'] and out[0]['revision'] == 0
    assert len(out[0]['steps']) == 3
    queued = manager.submit(agent.plan_goal(GOAL2, task_id='b'))
    assert queued[0]['status'] == 'queued' and manager.queue

    assert manager.on_feedback({'task_id': 'zzz', 'step': 0, 'status': 'succeeded'}) == []
    applied = []

    def effects(step):
        upd = manager.step_effects(world.snapshot(), step)
        applied.append(step)
        assert world.apply(upd, source='execution', utterance=step).applied

    msgs = []
    for i in range(3):
        msgs += manager.on_feedback({'task_id': 'a', 'step': i, 'status': 'succeeded'},
                                    effects)
    assert len(applied) == 3
    assert msgs[-2]['task_id'] == 'a' and msgs[-2]['status'] == 'done'
    assert msgs[-1]['task_id'] == 'b' and msgs[-1]['status'] == 'solved'
    assert msgs[-1]['revision'] == 1  # re-planned when its turn came
    assert manager.active.task_id == 'b'


def test_replan_on_breaking_event_not_on_confirming_one(setup, manager):
    _, world, agent = setup
    world_goal = '(placed_at_table book_hamlet living_room_table)'
    first = manager.submit(agent.plan_goal(world_goal, task_id='c'))[0]
    assert first['status'] == 'solved'
    # an unrelated change: no re-plan
    res = world.apply(Update.of([F('helen', 'person_in_room', 'kitchen')],
                                [F('helen', 'person_in_room', 'bathroom')]),
                      source='nl', utterance='helen went to the bathroom')
    assert manager.on_event(world.event_message(res.event_id, res)) == []
    # the book moved: the plan's first step no longer applies
    res = world.apply(Update.of([F('book_hamlet', 'placed_at_table', 'jerry_bedroom_table')],
                                [F('book_hamlet', 'placed_at_table', 'anna_bedroom_table')]),
                      source='nl', utterance="the hamlet book is in anna's room")
    out = manager.on_event(world.event_message(res.event_id, res))
    assert out and out[0]['revision'] == 1 and 'anna_bedroom' in ' '.join(out[0]['steps'])
    # a failed step re-plans too
    out = manager.on_feedback({'task_id': 'c', 'revision': 1, 'step': 0, 'status': 'failed',
                               'message': 'gripper slipped'})
    assert out[0]['revision'] == 2 and 'gripper slipped' in out[0]['reason']
    # stale feedback (old revision) is ignored
    assert manager.on_feedback({'task_id': 'c', 'revision': 0, 'step': 0,
                                'status': 'failed'}) == []


def test_already_satisfied_goal_is_done_at_once(setup, manager):
    _, world, agent = setup
    out = manager.submit(agent.plan_goal('(light_on kitchen_light)', task_id='d'))
    assert out[0]['status'] == 'done' and manager.active is None


def test_lifecycle_statuses_progress_and_status_query(setup, manager):
    _, world, agent = setup
    seen = manager.announce('e', text='bring the pen', goal=None)
    assert [m['status'] for m in seen] == ['queued'] and manager.pending
    assert manager.start('e')[0]['status'] == 'planning'
    with pytest.raises(ValueError, match='already in use'):
        manager.announce('e')
    goal = '(placed_at_table red_pen anna_bedroom_table)'
    if F('red_pen', 'placed_at_table', 'anna_bedroom_table') in world.snapshot():
        goal = '(placed_at_table red_pen living_room_table)'
    out = manager.submit(agent.plan_goal(goal, task_id='e', text='bring the pen'))
    n = len(out[0]['steps'])
    assert out[0]['status'] == 'solved' and n >= 2
    assert out[0]['progress'] == {'done': 0, 'total': n} and not manager.pending
    step = manager.on_feedback({'task_id': 'e', 'step': 0, 'status': 'succeeded'})
    assert step[0]['status'] == 'executing' and step[0]['progress'] == {'done': 1, 'total': n}
    assert f'step 1 of {n}' in step[0]['reason']
    assert validate('plan', step[0]) == []
    status = manager.status()
    assert status['active']['status'] == 'executing'
    assert status['active']['progress'] == {'done': 1, 'total': n}
    for i in range(1, n):
        done = manager.on_feedback({'task_id': 'e', 'step': i, 'status': 'succeeded'})
    assert done[0]['status'] == 'done'
    assert manager.status()['recent'][0]['task_id'] == 'e'
    with pytest.raises(ValueError, match='already done'):
        manager.cancel('e')
    with pytest.raises(KeyError):
        manager.cancel('nope')


def test_cancel_queued_active_pending_and_all(setup, tmp_path):
    params, _, _ = setup
    world = open_world(params.replace(store=str(tmp_path / 'fresh.db')))
    agent = build_agent(params, world, llm=object())
    manager = TaskLifecycle(world.domain, lambda g, t, x: agent.plan_goal(g, task_id=t, text=x),
                            world.snapshot)
    assert F('laundry_room_light', 'light_on') not in world.kg
    manager.submit(agent.plan_goal(GOAL, task_id='a'))
    manager.submit(agent.plan_goal(GOAL2, task_id='b'))
    manager.submit(agent.plan_goal('(light_on laundry_room_light)', task_id='c'))
    # a queued task: removed, the active one untouched
    out = manager.cancel('b')
    assert [(m['task_id'], m['status']) for m in out] == [('b', 'cancelled')]
    assert [t.task_id for t in manager.queue] == ['c'] and manager.active.task_id == 'a'
    # the active task: cancelled, the next one starts (re-planned)
    out = manager.cancel('a')
    assert [(m['task_id'], m['status']) for m in out][0] == ('a', 'cancelled')
    assert manager.active is not None and manager.active.task_id == 'c'
    # waiting to be planned: the job finds it cancelled and does not plan
    manager.announce('p')
    assert manager.cancel('p')[0]['status'] == 'cancelled'
    assert manager.start('p') is None
    # cancelled while planning: the plan that comes back is dropped
    manager.announce('q')
    manager.start('q')
    manager.cancel('q')
    assert manager.submit(agent.plan_goal(GOAL2, task_id='q')) == []
    assert manager.active.task_id == 'c'
    # all
    manager.announce('r')
    out = manager.cancel(None)
    assert {m['task_id'] for m in out} == {'c', 'r'}
    assert manager.active is None and not manager.queue and not manager.pending
    # a failed planning job
    manager.announce('s')
    manager.start('s')
    assert manager.abandon('s', 'planning failed: boom')[0]['status'] == 'failed'


def test_replica_follows_writer_and_forwards_updates(setup):
    params, world, _ = setup
    replica_box = []

    def send(body):  # the "transport": the writer applies and the replica sees the event
        assert validate('kg_update', body) == []
        res = apply_request(world, body)
        replica_box[0].on_event(world.event_message(res.event_id, res))

    replica = ReplicaWorldModel(world.domain, world.constraints, params.store, send,
                                timeout=2.0)
    replica_box.append(replica)
    assert replica.kg.facts == world.kg.facts
    upd = Update.of([F('anna', 'person_in_room', 'anna_bedroom')],
                    [F('anna', 'person_in_room', 'kitchen')])
    res = replica.apply(upd, source='nl', utterance='anna is in the kitchen')
    assert res.applied and res.event_id == world.store.last_event_id()
    assert F('anna', 'person_in_room', 'kitchen') in replica.kg
    bad = replica.apply(Update.of([], [F('anna', 'person_in_room', 'bathroom')]), source='nl')
    assert not bad.applied and bad.errors
    # writes the replica missed are replayed from the store on the next event
    world.apply(Update.of([F('anna', 'person_in_room', 'kitchen')],
                          [F('anna', 'person_in_room', 'bathroom')]), source='nl')
    res = world.apply(Update.of([F('jerry', 'person_in_room', 'living_room')],
                                [F('jerry', 'person_in_room', 'kitchen')]), source='nl')
    replica.on_event(world.event_message(res.event_id, res))
    assert replica.kg.facts == world.kg.facts
    # the newest events never heard (lost on the volatile topic): refresh reads them from
    # the log, one rejection among them; nothing left to follow, it reads nothing again
    assert replica.refresh() == 0
    world.apply(Update.of([F('anna', 'person_in_room', 'bathroom')],
                          [F('anna', 'person_in_room', 'kitchen')]), source='nl')
    world.reject(['garbage'], source='nl', utterance='?')
    world.apply(Update.of([F('jerry', 'person_in_room', 'kitchen')],
                          [F('jerry', 'person_in_room', 'living_room')]), source='nl')
    assert replica.kg.facts != world.kg.facts
    assert replica.refresh() == 3
    assert replica.kg.facts == world.kg.facts
    assert replica.last_event_id == world.store.last_event_id()
    assert replica.refresh() == 0
    replica.close()


def test_marker_layout_groups_by_room(setup):
    _, world, _ = setup
    ents, lines = marker_layout(world.kg, domain=world.domain)
    rooms = {n: r for n, _, r, _ in ents}
    assert rooms['kitchen_fridge'] == 'kitchen' and rooms['milk'] == 'kitchen'
    assert len(ents) == len(world.kg.entities)
    assert all(len(x) == 3 for x in lines)


def test_execute_none_publishes_plans_as_planned_and_never_blocks(setup):
    _, world, agent = setup
    manager = TaskLifecycle(world.domain, lambda g, t, x: agent.plan_goal(g, task_id=t, text=x),
                            world.snapshot, execute='none')
    on, off = toggles(world)[:2]
    first = manager.submit(agent.plan_goal(on, task_id='a'))
    second = manager.submit(agent.plan_goal(off, task_id='b'))
    statuses = [(m['task_id'], m['status']) for m in first + second]
    assert statuses == [('a', 'planned'), ('b', 'planned')]  # nothing executed them
    assert first[0]['steps'] and 'no executor' in first[0]['reason']
    assert manager.active is None and not manager.queue
    with pytest.raises(ValueError, match='execute must be one of'):
        TaskLifecycle(world.domain, manager.plan_goal, world.snapshot, execute='later')


def test_kg_update_schema_names_what_is_wrong():
    ok = kg_update_request(Update.of([], [F('anna', 'person_in_room', 'kitchen')]),
                           source='nl', utterance='anna is in the kitchen')
    assert validate('kg_update', ok) == []
    assert validate('kg_update', kg_update_request(None, source='nl', utterance=None,
                                                   errors=['no change'])) == []
    for bad, where in (({**ok, 'diff': {'add': 'oops'}}, 'diff'),
                       ({**ok, 'new_entities': [{'name': 'x'}]}, 'new_entities'),
                       ({**ok, 'verify': 'yes'}, 'verify')):
        errors = validate('kg_update', bad)
        assert errors and where in errors[0]


def toggles(world):
    """Goals that each need steps and stay so while nothing executes: flip one light."""
    kg = world.snapshot()
    lights = sorted(n for n, t in kg.entities.items() if t == 'light')
    return [f'(not (light_on {n}))' if F(n, 'light_on') in kg else f'(light_on {n})'
            for n in lights]


class FakeClock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_silent_execution_times_out_and_the_queue_drains(setup):
    _, world, agent = setup
    clock = FakeClock()
    manager = TaskLifecycle(world.domain, lambda g, t, x: agent.plan_goal(g, task_id=t, text=x),
                            world.snapshot, execution_timeout=30.0, clock=clock)
    ids = [f't{i}' for i in range(5)]
    out = []
    # a burst of 5 goals, no executor attached
    for tid, goal in zip(ids, toggles(world)[:5], strict=True):
        out += manager.submit(agent.plan_goal(goal, task_id=tid))
    assert [m['status'] for m in out] == ['solved'] + ['queued'] * 4
    clock.now += 29.0
    assert manager.check_timeout() == [] and not manager.overdue()
    assert manager.status()['active']['waiting_s'] == 29.0
    # feedback on the active task restarts its step clock
    manager.on_feedback({'task_id': 't0', 'step': 0, 'status': 'started'})
    clock.now += 29.0
    assert manager.check_timeout() == []
    finals: dict[str, str] = {}
    for _ in range(10):
        clock.now += 31.0
        for body in manager.check_timeout():
            if body['status'] in FINISHED:
                finals[body['task_id']] = body['status']
                assert body['reason'] == 'execution_timeout'
                assert 'no execution feedback' in body['errors'][0]
    assert finals == dict.fromkeys(ids, 'failed')  # every task reached a final status
    assert manager.active is None and not manager.queue
    assert [t['status'] for t in manager.status()['recent']] == ['failed'] * 5


def test_no_timeout_under_execute_none_or_zero(setup):
    _, world, agent = setup
    clock = FakeClock()
    manager = TaskLifecycle(world.domain, lambda g, t, x: agent.plan_goal(g, task_id=t, text=x),
                            world.snapshot, clock=clock)  # execution_timeout 0: wait for ever
    goal = '(not (light_on laundry_room_light))'
    if F('laundry_room_light', 'light_on') not in world.snapshot():
        goal = '(light_on laundry_room_light)'
    assert manager.submit(agent.plan_goal(goal, task_id='w'))[0]['status'] == 'solved'
    clock.now += 1e6
    assert manager.check_timeout() == [] and manager.active.task_id == 'w'


def test_no_executor_under_feedback_ends_planned_at_once_and_drains(setup):
    """Five goals, nothing publishes execution_feedback: all planned at once, no time-out."""
    _, world, agent = setup
    clock = FakeClock()
    executors = []
    manager = TaskLifecycle(world.domain, lambda g, t, x: agent.plan_goal(g, task_id=t, text=x),
                            world.snapshot, execution_timeout=120.0, clock=clock,
                            has_executor=lambda: bool(executors))
    ids = [f'n{i}' for i in range(5)]
    out = []
    for tid, goal in zip(ids, toggles(world)[:5], strict=True):
        out += manager.submit(agent.plan_goal(goal, task_id=tid))
    assert [(m['task_id'], m['status']) for m in out] == [(t, 'planned') for t in ids]
    assert all('nothing publishes execution_feedback' in m['reason'] for m in out)
    assert out[0]['steps'] and manager.active is None and not manager.queue
    executors.append('bridge')  # an executor appears: the next plan waits for it
    late = manager.submit(agent.plan_goal(toggles(world)[0], task_id='n5'))
    assert late[0]['status'] == 'solved' and manager.active.task_id == 'n5'


def test_confirm_waits_for_yes_or_no_and_times_out(setup):
    _, world, agent = setup
    clock = FakeClock()
    manager = TaskLifecycle(world.domain, lambda g, t, x: agent.plan_goal(g, task_id=t, text=x),
                            world.snapshot, clock=clock, confirm=True, confirm_timeout=60.0,
                            has_executor=lambda: True)
    goals = toggles(world)[:3]
    first = manager.submit(agent.plan_goal(goals[0], task_id='c0'))
    second = manager.submit(agent.plan_goal(goals[1], task_id='c1'))
    assert [(m['task_id'], m['status']) for m in first + second] == [
        ('c0', 'awaiting_confirmation'), ('c1', 'queued')]
    assert manager.awaiting() == 'c0'
    # feedback for a plan nobody said yes to is ignored
    assert manager.on_feedback({'task_id': 'c0', 'step': 0, 'status': 'succeeded'}) == []
    with pytest.raises(LookupError):
        manager.confirm_plan(True, 'c1')
    yes = manager.confirm_plan(True)
    assert [(m['task_id'], m['status'], m['reason']) for m in yes] == [
        ('c0', 'solved', 'confirmed')]
    with pytest.raises(LookupError, match='no plan is waiting'):
        manager.confirm_plan(True)
    steps = len(yes[0]['steps'])
    done = []
    for i in range(steps):
        done += manager.on_feedback({'task_id': 'c0', 'step': i, 'status': 'succeeded'})
    assert [(m['task_id'], m['status']) for m in done][-2:] == [
        ('c0', 'done'), ('c1', 'awaiting_confirmation')]  # the next one asks too
    no = manager.confirm_plan(False)
    assert no[0]['task_id'] == 'c1' and no[0]['status'] == 'cancelled'
    assert no[0]['reason'] == 'declined' and manager.active is None
    manager.submit(agent.plan_goal(goals[2], task_id='c2'))
    clock.now += 59.0
    assert manager.check_timeout() == []
    clock.now += 2.0
    silent = manager.check_timeout()
    assert silent[0]['status'] == 'cancelled' and silent[0]['reason'] == 'not confirmed'
    assert 'confirm_timeout' in silent[0]['errors'][0]


def test_yes_no_and_what_is_said():
    from l3mp_ros.tasking.requests import spoken, yes_no
    from l3mp_ros.world.domain import DomainSchema
    from l3mp_ros.world.kg import KnowledgeGraph
    from l3mp_ros.world.phrasing import Phrasing

    from .agent_fixtures import DOMAIN, STATE

    assert [yes_no(t) for t in ('Yes', 'yes!', 'Go ahead.', 'no', "Don't", 'no way',
                                'yes, bring the pen', '')] == [
        True, True, True, False, False, None, None, None]
    body = {'status': 'awaiting_confirmation', 'utterance': 'tidy up',
            'steps': [f'(s{i})' for i in range(10)]}
    said = spoken(body)
    assert said.startswith('For "tidy up" I would do 10 steps: (s0); (s1)')
    assert '(s7); and 2 more. Shall I go ahead? Say yes or no.' in said
    # with the world's words (as the planner node says it): each step a sentence
    domain, kg = DomainSchema.load(DOMAIN), KnowledgeGraph.loads(STATE.read_text())
    body['steps'] = ['(move_to_room the_robot kitchen bathroom)'] * 9 + [
        '(turn_on_light the_robot bathroom_light bathroom)']
    said = spoken(body, Phrasing(domain, kg).steps)
    assert said.startswith('For "tidy up" I would do 10 steps: Move from the kitchen to the '
                           'bathroom. Move from')
    assert said.endswith('bathroom. And 2 more. Shall I go ahead? Say yes or no.')
    assert '(' not in said and '_' not in said
