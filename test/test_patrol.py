# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Where an idle robot looks to confirm what it was told (issue 43), without ROS."""

import json
from pathlib import Path

import pytest

from l3mp_ros.planning.execute import execute_plan
from l3mp_ros.planning.planner import Planner
from l3mp_ros.tasking.lifecycle import TaskLifecycle
from l3mp_ros.tasking.patrol import load_patrol_spec, patrol_policy
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.support import SupportIndex

ROOT = Path(__file__).resolve().parent.parent
HOUSEHOLD = DomainSchema.load(ROOT / 'pddl' / 'household.pddl')


def _household() -> KnowledgeGraph:
    return KnowledgeGraph.from_json(json.loads(
        (ROOT / 'config' / 'household_state.json').read_text()))


def _told(index: SupportIndex, eid: int, facts, **info) -> None:
    index.apply(eid, float(eid), 'nl', Update(add=frozenset(facts)), info)


def test_the_place_with_the_most_worth_checking_comes_first_and_skips_wait():
    kg = _household()
    policy = patrol_policy(HOUSEHOLD, 'config/household_perception.yaml')
    index = SupportIndex()
    index.give(kg.facts, 1, 1.0)
    assert policy.choose(kg, index, 1) is None  # nothing told, all just set up: no move
    book = Fact('placed_at_table', ('book_hamlet', 'jerry_bedroom_table'))
    light = Fact('light_on', ('kitchen_light',))
    _told(index, 5, [book])
    _told(index, 6, [light], doubtful=True)  # doubtful weighs more
    ranked = policy.candidates(kg, index, 10)
    assert [v.place for v in ranked][:2] == ['kitchen', 'jerry_bedroom']
    assert not any(v.facts for v in ranked[2:])  # the others: only a little time unseen
    assert ranked[0].goal == '(agent_in_room the_robot kitchen)'
    assert ranked[0].facts == [light]
    # what the robot's own room holds is not a reason to move
    here = next(f.args[1] for f in kg.facts_with('agent_in_room'))
    _told(index, 7, [f for f in kg.facts if f.predicate == 'light_on'
                     and policy.places(kg).get(f.args[0]) == here])
    assert here not in {v.place for v in policy.candidates(kg, index, 10)}
    # a place that cannot be reached is skipped with its reason, not retried in a loop
    policy.skip('kitchen', 'no plan to reach it (unsolvable)', 10)
    assert policy.choose(kg, index, 11).place == 'jerry_bedroom'
    assert policy.status(11) == {'kitchen': 'no plan to reach it (unsolvable)'}
    assert policy.choose(kg, index, 10 + policy.retry_after).place == 'kitchen'
    # a sighting confirms: nothing told left to look at in the kitchen
    index.apply(20, 20.0, 'perception', Update(), {'confirmed': [list(light.triplet())]})
    assert 'kitchen' not in {v.place for v in policy.candidates(kg, index, 21) if v.facts}


def _perceivable_at(policy, kg, place):
    home = policy.places(kg)
    return sorted(f for f in kg.facts if f.predicate in policy.perceivable and f.args
                  and policy.where(f, home) == place)


def test_facts_unseen_for_long_make_a_place_worth_a_look_even_if_nothing_was_told():
    # a dropped report leaves an old fact wrong that was never told: only its age shows it
    kg = _household()
    policy = patrol_policy(HOUSEHOLD, 'config/household_perception.yaml')
    index = SupportIndex()
    index.give(kg.facts, 1, 1.0)
    here = policy.robot(kg)[1]
    assert policy.choose(kg, index, 1) is None  # just set up: nothing worth a move
    ranked = policy.candidates(kg, index, 3000)
    assert ranked and here not in {v.place for v in ranked}
    assert all(not v.facts and v.stale >= policy.stale_min for v in ranked)
    # more perceivable facts unseen as long: more to have gone wrong
    counts = {v.place: len(_perceivable_at(policy, kg, v.place)) for v in ranked}
    assert counts[ranked[0].place] == max(counts.values())
    # a look there confirms what it holds: that place drops out, the others stay
    best = ranked[0].place
    seen = _perceivable_at(policy, kg, best)
    index.apply(3000, 3000.0, 'perception', Update(),
                {'confirmed': [list(f.triplet()) for f in seen]})
    after = {v.place: v for v in policy.candidates(kg, index, 3001)}
    assert best not in after
    # ... and how often unseen facts go wrong is learnt: nothing was wrong, so less is
    # expected elsewhere; a look that finds an old fact wrong expects more again
    assert all(after[p].stale < v.stale for v in ranked if (p := v.place) in after)
    low = index.stale_rate()
    other = _perceivable_at(policy, kg, ranked[1].place)
    index.apply(3002, 3002.0, 'perception', Update(remove=frozenset(other[:1])), {})
    assert index.stale_rate() > low and index.stale_refuted == 1
    # a told fact nobody has seen still counts on top, doubtful more
    light = next(f for f in kg.facts if f.predicate == 'light_on'
                 and policy.where(f, policy.places(kg)) not in (here, best))
    place = policy.where(light, policy.places(kg))
    plain = {v.place: v.score for v in policy.candidates(kg, index, 3003)}.get(place, 0.0)
    _told(index, 3003, [light], doubtful=True)
    top = policy.choose(kg, index, 3004)
    assert top.place == place and top.facts == [light] and top.score > plain


def test_a_domain_without_a_patrol_section_or_a_wrong_predicate_is_refused(tmp_path):
    bare = tmp_path / 'p.yaml'
    bare.write_text('perceivable_predicates: [light_on]\n')
    assert load_patrol_spec(bare) is None
    with pytest.raises(ValueError, match='no "patrol" section'):
        patrol_policy(HOUSEHOLD, str(bare))
    bad = tmp_path / 'q.yaml'
    bad.write_text('perceivable_predicates: [light_on]\npatrol: {place_type: room, '
                   'robot_at: flies_over}\n')
    with pytest.raises(ValueError, match='flies_over'):
        patrol_policy(HOUSEHOLD, str(bad))


class _Outcome:
    def __init__(self, task_id, goal, steps, status='solved'):
        self.task_id, self.goal, self.text, self.status = task_id, goal, None, status
        self.steps = steps

    def to_json(self):
        return {'task_id': self.task_id, 'goal': self.goal, 'steps': self.steps,
                'status': self.status}


def test_any_task_pre_empts_a_patrol_and_none_starts_while_a_task_waits():
    tasks = TaskLifecycle(HOUSEHOLD, lambda g, t, x: _Outcome(t, g, ['(a)']), _household)
    out = tasks.start_patrol(_Outcome('patrol-1', '(agent_in_room the_robot kitchen)',
                                      ['(move the_robot living_room kitchen)']))
    assert out[0]['patrol'] and out[0]['status'] == 'solved' and tasks.patrolling()
    out = tasks.announce('t1', 'turn on the light')
    assert [(b['task_id'], b['status']) for b in out] == [('patrol-1', 'cancelled'),
                                                          ('t1', 'queued')]
    assert out[0]['reason'] == 'pre-empted by task t1' and tasks.active is None
    assert not tasks.idle()  # t1 waits to be planned: no patrol may start
    assert tasks.start_patrol(_Outcome('patrol-2', '(x)', ['(s)'])) == []
    tasks.submit(_Outcome('t1', '(light_on kitchen_light)', ['(s1)', '(s2)']))
    assert tasks.active.task_id == 't1' and not tasks.idle()
    assert tasks.start_patrol(_Outcome('patrol-3', '(x)', ['(s)'])) == []


def test_a_patrol_does_not_wait_for_a_yes_but_a_task_still_does():
    # confirm_plan on: patrol: idle is the consent to move unasked (a patrol is not said)
    tasks = TaskLifecycle(HOUSEHOLD, lambda g, t, x: _Outcome(t, g, ['(a)']), _household,
                          confirm=True, has_executor=lambda: True)
    out = tasks.start_patrol(_Outcome('patrol-1', '(agent_in_room the_robot kitchen)',
                                      ['(move the_robot living_room kitchen)']))
    assert out[0]['status'] == 'solved' and tasks.awaiting() is None
    out = tasks.announce('t1', 'turn on the light')
    out += tasks.submit(_Outcome('t1', '(light_on kitchen_light)', ['(s1)']))
    assert [(b['task_id'], b['status']) for b in out] == [
        ('patrol-1', 'cancelled'), ('t1', 'queued'), ('t1', 'awaiting_confirmation')]
    assert tasks.awaiting() == 't1'


def test_patrol_works_on_another_domain_ai2thor():
    domain = DomainSchema.load(ROOT / 'pddl' / 'ai2thor.pddl')
    policy = patrol_policy(domain, 'config/ai2thor_perception.yaml')
    kg = KnowledgeGraph('ai2thor')
    for name, t in (('the_robot', 'robot'), ('kitchen_1', 'room'), ('bedroom_1', 'room'),
                    ('countertop_1', 'surface'), ('fridge_1', 'fridge'),
                    ('bed_1', 'bed'), ('apple_1', 'food')):
        kg.add_entity(name, t)
    for f in (('robot_in_room', 'the_robot', 'kitchen_1'),
              ('robot_at', 'the_robot', 'countertop_1'),
              ('hand_empty', 'the_robot'), ('in_room', 'countertop_1', 'kitchen_1'),
              ('in_room', 'fridge_1', 'kitchen_1'), ('in_room', 'bed_1', 'bedroom_1'),
              ('in_room', 'apple_1', 'bedroom_1')):
        kg.add_fact(Fact(f[0], tuple(f[1:])))
    index = SupportIndex()
    index.give(kg.facts, 1, 1.0)
    apple = Fact('in_receptacle', ('apple_1', 'bed_1'))
    kg.add_fact(apple)
    _told(index, 2, [apple])
    visit = policy.choose(kg, index, 3)
    assert visit.place == 'bedroom_1' and visit.goal == '(robot_in_room the_robot bedroom_1)'
    plan = Planner(domain, engine='fast-downward', timeout=30.0).plan(kg, visit.goal)
    assert plan.ok and plan.steps


def test_a_told_fact_is_looked_for_where_it_says_the_thing_is():
    # "Helen took the blue pen" with the removal misheard: the KG still has the pen on
    # Anna's table (given) and in Helen's hand (told); Helen is in the kitchen
    kg = _household()
    policy = patrol_policy(HOUSEHOLD, 'config/household_perception.yaml')
    index = SupportIndex()
    index.give(kg.facts, 1, 1.0)
    held = Fact('in_person_hand', ('blue_pen', 'helen'))
    kg.add_fact(held)
    _told(index, 2, [held])
    home = policy.places(kg)
    assert policy.where(held, home) == 'kitchen'
    assert policy.where(Fact('placed_at_table', ('blue_pen', 'anna_bedroom_table')),
                        home) == 'anna_bedroom'
    visit = policy.choose(kg, index, 3)
    assert visit.place == 'kitchen' and visit.facts == [held]


def test_patrol_on_the_ai2thor_double_repairs_a_told_and_a_stale_wrong_fact():
    # another domain with a perception config: AI2-THOR through the controller double; the
    # robot sees only the room it is in (scene graphs of visible objects)
    from l3mp_ros.ai2thor import PlanExecutor, SceneGraphExtractor
    from l3mp_ros.ai2thor.double import ControllerDouble
    from l3mp_ros.world.constraints import Constraints
    from l3mp_ros.world.inputs import WorldInputs
    from l3mp_ros.world.model import WorldModel

    domain = DomainSchema.load(ROOT / 'pddl' / 'ai2thor.pddl')
    double = ControllerDouble()
    names = SceneGraphExtractor(ROOT / 'config' / 'ai2thor_types.yaml', double.house)

    def truth() -> set:
        graph = names.extract(double.last_event.metadata, all_objects=True)
        return {Fact.from_triplet(t) for t in graph['facts']}

    kg = KnowledgeGraph('ai2thor')
    for e in names.extract(double.last_event.metadata, all_objects=True)['entities']:
        kg.add_entity(e['name'], e['type'])
    for f in truth():
        kg.add_fact(f)
    world = WorldModel(domain, Constraints.load(ROOT / 'pddl' / 'ai2thor.constraints.yaml'),
                       kg)
    world.refresh_seen = 0.0
    inputs = WorldInputs(world, {'perception_config': 'config/ai2thor_perception.yaml',
                                 'max_scene_entities': 2000})
    policy = patrol_policy(domain, 'config/ai2thor_perception.yaml')
    robot = PlanExecutor(double, names)  # sees the visible objects of its room only

    def walk(steps: list[str]) -> None:
        """Execute on the double; effects as ``execution``, each frame merged."""
        for i, step in enumerate(steps):
            result = robot.execute_step(step, i)
            assert result['success'], result['error']
            done = execute_plan(domain, world.kg, [step])
            if done.ok and not done.update.is_empty():
                world.apply(done.update, source='execution', utterance=step)
            assert inputs.scene_graph(json.dumps(result['scene_graph'])) == []

    assert policy.robot(world.kg) == ('the_robot', 'kitchen_1')
    # misheard: "the phone is on the bed" (it is on the dresser)
    phone_said = Fact('in_receptacle', ('cellphone_1', 'bed_1'))
    assert world.apply(Update.of([Fact('in_receptacle', ('cellphone_1', 'dresser_1'))],
                                 [phone_said]), source='nl').applied
    # never said: someone put the statue on the bed
    double.relocate(names.object_id_of('statue_1'), names.object_id_of('bed_1'))
    statue_now = Fact('in_receptacle', ('statue_1', 'bed_1'))
    assert statue_now in truth() and statue_now not in world.kg
    visit = policy.choose(world.kg, world.support, world.last_event())
    assert visit.place == 'bedroom_1' and visit.facts == [phone_said]
    planner = Planner(domain, engine='fast-downward', timeout=60.0)
    plan = planner.plan(world.snapshot(), visit.goal)
    assert plan.ok and plan.steps
    walk(plan.steps)
    assert policy.robot(world.kg) == ('the_robot', 'bedroom_1')
    # what the robot saw there set both right: the told fact was refuted, the stale one found
    bedroom = {f for f in truth() if policy.where(f, policy.places(world.kg)) == 'bedroom_1'
               and f.predicate in policy.perceivable}
    assert bedroom <= world.kg.facts and phone_said not in world.kg
    assert world.support.refuted == 1 and world.support.stale_refuted >= 1
    assert world.kg.facts == truth()
    # nothing told now; while the robot is away someone moves the apple, unsaid. Nothing
    # points there but time: the kitchen's facts unseen since the start make it worth a look
    double.relocate(names.object_id_of('apple_1'), names.object_id_of('countertop_1'))
    visit = policy.choose(world.kg, world.support, world.last_event())
    assert visit.place == 'kitchen_1' and not visit.facts and visit.stale >= policy.stale_min
    planner = Planner(domain, engine='fast-downward', timeout=60.0)
    plan = planner.plan(world.snapshot(), visit.goal)
    walk(plan.steps)
    assert Fact('in_receptacle', ('apple_1', 'countertop_1')) in world.kg
    assert world.kg.facts == truth()
