# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 4's goal checks, each alone: a :class:`GoalAnswer` built by hand, its ruling.

A task on the ``mini`` world is asked as Algorithm 4 asks it, its goal given as the reply
of a scripted LLM; the checks that plan use a real planner (Fast Downward, on the tiny
domain), those that ask the model get scripted yes/no or goal answers.
"""

import json

import pytest

from l3mp_ros.agent.core.attempts import Verdict
from l3mp_ros.agent.core.request import Request
from l3mp_ros.agent.core.rulings import Act, Ruling
from l3mp_ros.agent.task.goal_checks import (
    ALREADY_HOLDS,
    Contradictions,
    GoalAnswer,
    Held,
    Mentioned,
    Narrow,
    OneWay,
    Plan,
    Planned,
    Quantified,
    Reconcile,
    Suspect,
)
from l3mp_ros.agent.task.kinds import Kinds
from l3mp_ros.agent.task.left_out import LeftOut
from l3mp_ros.agent.task.outcome import Asking, TaskOutcome, TaskSettings
from l3mp_ros.agent.task.task import TaskPlanner
from l3mp_ros.llm.protocol import LLMReply
from l3mp_ros.planning.planner import Planner
from l3mp_ros.planning.status import Status
from l3mp_ros.retrieval.base import Retrieval
from l3mp_ros.world.model import WorldModel

from .check_fixtures import ScriptedLLM, covers, mini_world, ruled

LIGHT = "Switch on the light in Jerry's bedroom."
MOVE = "Move the robot to Jerry's bedroom."
YES, NO = {'answer': 'yes'}, {'answer': 'no'}


@pytest.fixture(scope='module')
def world() -> WorldModel:
    return mini_world()  # read, never written: one for the module


@pytest.fixture(scope='module')
def planner(world) -> Planner:
    return Planner(world.domain, engine='fast-downward', timeout=30)


def asking(world, planner, text, llm, settings) -> Asking:
    """Return the task asked as Algorithm 4 asks it: every fact retrieved."""
    req = Request.start(world, text)
    assert req is not None
    req.retrieval = Retrieval(facts=set(req.kg.facts))
    return TaskPlanner(world, llm, None, planner, settings)._asking(req, TaskOutcome('t', text))


def answer(world, planner, text, goal, *, llm=None, errors=(), data=None,
           **settings) -> GoalAnswer:
    """Return the goal answer ``goal`` (PDDL) to ``text``; ``data``: the reply's JSON."""
    s = TaskSettings(**settings)
    a = asking(world, planner, text, llm or ScriptedLLM(), s)
    data = {'goal': goal} if data is None else data
    g = GoalAnswer.read(a, LLMReply(json.dumps(data), data, 1, 1, 0.0, False, 1), world,
                        planner, s)
    assert g.goal == goal
    g.errors += errors
    return g


def planned(world, planner, text, goal, **kw) -> GoalAnswer:
    """Return the goal answer as planned by :class:`Plan`."""
    g = answer(world, planner, text, goal, **kw)
    g.take(ruled(Plan(), g))
    return g


def goal_of(ruling: Ruling) -> str:
    return ruling.value.goal if isinstance(ruling.value, Planned) else ruling.value


@covers(Contradictions)
def test_contradictions_leave_a_goal_without_one(world, planner):
    # Contradictions always amends: an untouched goal, without notes, is its pass
    g = answer(world, planner, LIGHT, '(and (lit jerry_bedroom))')
    ruling = ruled(Contradictions(), g)
    assert ruling.act is Act.AMEND and ruling.value == g.goal and not ruling.notes
    assert not Contradictions().applies(answer(world, planner, LIGHT, '(and (lit x))',
                                               errors=['refused']))


@covers(Contradictions)
def test_contradictions_keep_the_change(world, planner):
    g = answer(world, planner, LIGHT, '(and (lit jerry_bedroom) (not (lit jerry_bedroom)))')
    ruling = ruled(Contradictions(), g)
    assert ruling.act is Act.AMEND and ruling.value == '(and (lit jerry_bedroom))'
    assert ruling.notes == ['dropped not (jerry_bedroom, lit, true) from the goal: it holds now '
                            'and the goal also asks for the opposite, the change the task '
                            'wants']


@covers(Reconcile)
def test_reconcile_leaves_conjuncts_that_may_hold_together(world, planner):
    g = answer(world, planner, MOVE, '(and (in_room the_robot jerry_bedroom) (lit kitchen))')
    ruling = ruled(Reconcile(), g)
    assert ruling.act is Act.AMEND and ruling.value == g.goal and not ruling.notes


@covers(Reconcile)
def test_reconcile_drops_where_a_thing_is_now(world, planner):
    g = answer(world, planner, MOVE,
               '(and (in_room the_robot kitchen) (in_room the_robot jerry_bedroom))')
    ruling = ruled(Reconcile(), g)
    assert ruling.act is Act.AMEND and ruling.value == '(and (in_room the_robot jerry_bedroom))'
    assert ruling.notes == ['dropped (the_robot, in_room, kitchen) from the goal: it holds now '
                            'and (the_robot, in_room, jerry_bedroom) replaces it (rule '
                            'agent_room)']


@covers(Reconcile)
def test_reconcile_refuses_two_new_places_of_one_thing(world, planner):
    goal = '(and (in_hand dune the_robot) (placed_at dune jerry_shelf))'
    g = answer(world, planner, 'Take the dune book.', goal, read_back=False)
    ruling = ruled(Reconcile(), g)
    assert ruling.act is Act.REJECT and ruling.value == goal
    assert ruling.errors == ['(dune, in_hand, the_robot) and (dune, placed_at, jerry_shelf) '
                             'cannot both hold (rule item_location); the goal is the state '
                             'after the task: keep only the one the task asks for']
    g.take(ruling)
    assert g.errors == ruling.errors and not Reconcile().applies(g)


@covers(Reconcile)
def test_reconcile_drops_the_conjunct_the_model_does_not_read(world, planner):
    llm = ScriptedLLM(YES, NO)  # the robot holds it: yes; on Jerry's shelf: no
    goal = '(and (in_hand dune the_robot) (placed_at dune jerry_shelf))'
    ruling = ruled(Reconcile(), answer(world, planner, 'Take the dune book.', goal, llm=llm))
    assert ruling.act is Act.AMEND and ruling.value == '(and (in_hand dune the_robot))'
    assert ruling.notes[0].startswith('dropped (dune, placed_at, jerry_shelf) from the goal')
    assert llm.asked == ['outcome', 'outcome']


@covers(Held)
def test_held_leaves_a_goal_that_is_all_change(world, planner):
    g = answer(world, planner, LIGHT, '(and (lit jerry_bedroom))')
    ruling = ruled(Held(), g)
    assert ruling.act is Act.AMEND and ruling.value == g.goal and not ruling.notes


@covers(Held)
def test_held_drops_a_relation_that_holds_beside_the_change(world, planner):
    g = answer(world, planner, LIGHT, '(and (in_room the_robot kitchen) (lit jerry_bedroom))')
    ruling = ruled(Held(), g)
    assert ruling.act is Act.AMEND and ruling.value == '(and (lit jerry_bedroom))'
    assert ruling.notes == ['dropped (in_room the_robot kitchen) from the goal: it holds now '
                            'and the task asks for a change']
    assert g.a.out.trace.usage.calls == 0  # a relation is not asked about


@covers(Held)
def test_held_negates_a_state_the_model_says_the_task_wants(world, planner):
    llm = ScriptedLLM(YES)  # will Jerry's bedroom be lit? yes
    goal = '(and (in_room the_robot jerry_bedroom) (not (lit jerry_bedroom)))'
    ruling = ruled(Held(), answer(world, planner, LIGHT, goal, llm=llm))
    assert ruling.act is Act.AMEND
    assert ruling.value == '(and (in_room the_robot jerry_bedroom) (lit jerry_bedroom))'
    assert ruling.notes == ['negated (not (lit jerry_bedroom)): it holds now, and asked whether '
                            'the task wants it, the model answered yes']
    assert llm.asked == ['outcome']


ROOMS = 'Switch on the lights in all the rooms.'
DARK_ROOMS = '(and (forall (?x - room) (not (lit ?x))))'


@covers(Quantified)
def test_quantified_keeps_a_forall_the_model_confirms(world, planner):
    llm = ScriptedLLM(NO)  # will the kitchen be lit? no: as the forall says
    g = answer(world, planner, ROOMS, DARK_ROOMS, llm=llm)
    ruling = ruled(Quantified(), g)
    assert ruling.act is Act.AMEND and ruling.value == DARK_ROOMS and not ruling.notes
    assert llm.asked == ['outcome']
    assert not Quantified().applies(answer(world, planner, ROOMS, DARK_ROOMS, read_back=False))


@covers(Quantified)
def test_quantified_negates_a_forall_the_wrong_way_round(world, planner):
    llm = ScriptedLLM(YES)
    ruling = ruled(Quantified(), answer(world, planner, ROOMS, DARK_ROOMS, llm=llm))
    assert ruling.act is Act.AMEND and ruling.value == '(and (forall (?x - room) (lit ?x)))'
    assert ruling.notes == [f'negated what {DARK_ROOMS[5:-1]} asks of every one: asked whether '
                            'the task wants (kitchen, lit, true), the model answered yes']


@covers(Mentioned)
def test_mentioned_passes_a_goal_about_what_the_task_names(world, planner):
    g = answer(world, planner, MOVE, '(and (in_room the_robot jerry_bedroom))')
    assert g.a.mentioned == {'the_robot', 'jerry_bedroom'} and Mentioned().applies(g)
    assert ruled(Mentioned(), g).act is Act.PASS


@covers(Mentioned)
def test_mentioned_rejects_a_goal_about_something_else(world, planner):
    ruling = ruled(Mentioned(), answer(world, planner, MOVE, '(and (lit kitchen))'))
    assert ruling.act is Act.REJECT
    assert ruling.errors == ['the goal names kitchen but the task is about jerry_bedroom, '
                             'the_robot']


EVERYTHING = 'Put everything away.'  # a quantifier, no type named: one branch for all


@covers(Narrow)
def test_narrow_leaves_a_refused_goal_that_chose_no_type(world, planner):
    g = answer(world, planner, EVERYTHING, '(and (lit kitchen))', errors=['refused'])
    assert g.a.grounding.quantified is None and Narrow().applies(g)
    schema = g.a.schema
    ruling = ruled(Narrow(), g)
    assert ruling.act is Act.PASS and not ruling.notes and g.a.schema is schema
    assert not Narrow().applies(answer(world, planner, EVERYTHING, '(and (lit kitchen))'))


@covers(Narrow)
def test_narrow_asks_again_with_x_only_where_the_chosen_type_fits(world, planner):
    # Narrow only ever passes: its ruling is the note, and the next answer's schema
    # a forall over rooms whose literal does not read: the goal is refused as it is read
    data = {'goal': [{'forall': 'room', 'if': [], 'then': [['lit', 'book']], 'negate': False}]}
    g = answer(world, planner, EVERYTHING, None, data=data)
    assert g.errors == ['(book, lit, true): book is not among the entities given for this '
                        'request (no such entity)'] and Narrow().applies(g)
    schema = g.a.schema
    ruling = ruled(Narrow(), g)
    assert ruling.act is Act.PASS and ruling.notes == ['asked again with ?x where a room fits']
    assert g.a.schema != schema
    kinds = [b['properties']['forall'] for b in g.a.schema['properties']['goal']['items'][
        'anyOf'] if 'forall' in b.get('properties', {})]
    assert kinds == [{'const': 'room'}]


@covers(Plan)
def test_plan_plans_the_goal(world, planner):
    g = answer(world, planner, MOVE, '(and (in_room the_robot jerry_bedroom))')
    ruling = ruled(Plan(), g)
    assert ruling.act is Act.AMEND and ruling.value.status == Status.SOLVED
    assert ruling.value.plan.steps == ['(move the_robot kitchen jerry_bedroom)']
    g.take(ruling)
    assert g.a.out.status == Status.SOLVED and g.a.out.plan is ruling.value.plan


@covers(Plan)
def test_plan_records_a_refused_goal_as_invalid(world, planner):
    g = answer(world, planner, MOVE, '(and (lit kitchen))', errors=['the goal names kitchen'])
    ruling = ruled(Plan(), g)
    assert ruling.act is Act.AMEND and ruling.value.plan is None
    assert (ruling.value.status, ruling.value.errors) == (Status.INVALID_GOAL,
                                                          ['the goal names kitchen'])


@covers(OneWay)
def test_one_way_leaves_a_goal_that_may_go_either_way(world, planner):
    assert not OneWay().applies(planned(world, planner, MOVE,
                                        '(and (in_room the_robot jerry_bedroom))'))
    g = planned(world, planner, MOVE, '(and (in_room the_robot kitchen))')
    assert g.a.out.status == Status.ALREADY_SATISFIED and OneWay().applies(g)
    assert ruled(OneWay(), g).act is Act.PASS


@covers(OneWay)
def test_one_way_turns_a_literal_no_action_makes_true(world, planner):
    g = planned(world, planner, LIGHT, '(and (dark jerry_bedroom))')  # holds: suspect
    ruling = ruled(OneWay(), g)
    assert ruling.act is Act.AMEND and ruling.value.status == Status.SOLVED
    assert ruling.value.goal == '(and (not (dark jerry_bedroom)))'
    assert ruling.notes == ['negated (dark jerry_bedroom): it holds now, and no action makes '
                            'it true again, so the task asks for the change']


@covers(Suspect)
def test_suspect_keeps_a_goal_the_read_back_confirms(world, planner):
    # Suspect always amends with the planned goal: unchanged, without notes, is its pass
    llm = ScriptedLLM(YES)
    g = planned(world, planner, MOVE, '(and (in_room the_robot kitchen))', llm=llm)
    ruling = ruled(Suspect(), g)
    assert ruling.act is Act.AMEND and ruling.value.status == Status.ALREADY_SATISFIED
    assert not ruling.notes and not ruling.value.errors and llm.asked == ['outcome']
    assert g.a.flagged and not Suspect().applies(g)  # once per task


@covers(Suspect)
def test_suspect_plans_the_goal_as_read_back(world, planner):
    llm = ScriptedLLM(NO)  # will the robot be in the kitchen? no
    g = planned(world, planner, MOVE, '(and (in_room the_robot kitchen))', llm=llm)
    ruling = ruled(Suspect(), g)
    assert ruling.act is Act.AMEND and ruling.value.status == Status.SOLVED
    assert ruling.value.goal == '(and (not (in_room the_robot kitchen)))'
    assert ruling.notes == ['negated (in_room the_robot kitchen): asked whether the task wants '
                            '(the_robot, in_room, kitchen), the model answered no']


@covers(Suspect)
def test_suspect_sends_back_a_goal_that_already_holds(world, planner):
    g = planned(world, planner, MOVE, '(and (in_room the_robot kitchen))', read_back=False)
    ruling = ruled(Suspect(), g)
    assert ruling.act is Act.AMEND and ruling.value.status == Status.ALREADY_HOLDS
    assert ruling.value.errors == [ALREADY_HOLDS]
    g.take(ruling)
    assert g.verdict() == (Verdict.ALREADY_HOLDS, ALREADY_HOLDS)


@covers(Kinds)
def test_kinds_passes_a_goal_that_names_every_one(world, planner):
    g = planned(world, planner, ROOMS, '(and (lit jerry_bedroom) (lit kitchen))')
    ruling = ruled(Kinds(), g)
    assert ruling.act is Act.PASS and not ruling.notes and g.a.asked_kinds
    assert not Kinds().applies(g) and g.a.out.trace.usage.calls == 0


@covers(Kinds)
def test_kinds_asks_what_must_hold_of_every_one(world, planner):
    llm = ScriptedLLM({'goal': [['lit', '?x']]})
    g = planned(world, planner, ROOMS, '(and (lit jerry_bedroom))', llm=llm, read_back=False)
    ruling = ruled(Kinds(), g)
    assert ruling.act is Act.AMEND and ruling.value.status == Status.SOLVED
    assert ruling.value.goal == '(and (forall (?x - room) (lit ?x)))'
    assert ruling.notes == ['asked what must hold of all the rooms (the goal did not cover '
                            'them): (forall (?x - room) (lit ?x)); dropped (lit jerry_bedroom): '
                            'the answer says what holds of every one']
    assert llm.asked == ['pddl_goal']


BRING = 'Robot, bring the dune book to the bedroom of Jerry.'
THERE = '(and (in_room the_robot jerry_bedroom))'


@covers(LeftOut)
def test_left_out_passes_a_goal_that_names_everything(world, planner):
    g = planned(world, planner, BRING, '(and (in_room the_robot jerry_bedroom) '
                                       '(in_hand dune the_robot))')
    ruling = ruled(LeftOut(), g)
    assert ruling.act is Act.PASS and not ruling.notes and g.a.asked_left_out
    assert not LeftOut().applies(g)


@covers(LeftOut)
def test_left_out_asks_what_the_task_wants_of_a_thing_left_out(world, planner):
    llm = ScriptedLLM({'goal': [['in_hand', 'dune', 'the_robot']]})
    g = planned(world, planner, BRING, THERE, llm=llm)
    ruling = ruled(LeftOut(), g)
    assert ruling.act is Act.AMEND and ruling.value.status == Status.SOLVED
    assert ruling.value.goal == f'{THERE[:-1]} (in_hand dune the_robot))'
    assert ruling.notes == ['asked what the task wants of dune (the goal left it out): added '
                            '(and (in_hand dune the_robot))']
    assert llm.asked == ['pddl_goal']
