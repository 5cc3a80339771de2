# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Embodied experiments of the paper (Sec. V-B, Table II) on the AI2-THOR controller double.

One *instance* of a task type (:mod:`.tasks`) runs in-process, without ROS:

1. A seeded :class:`ControllerDouble` (``randomize=True``, ``visibility='distance'``: the
   robot sees what lies within 1.5 m, not the whole room) draws the initial state; the task
   makes it non-trivial. The robot's KG starts as the full scene graph (it knows the house).
2. The agent plans the task: with the ``oracle`` LLM the goal is the task's goal written
   from the robot's KG (what a perfect LLM would write), otherwise Algorithm 4
   (``Agent.task``) asks the LLM. Plans come from the project's :class:`Planner`.
3. :class:`PlanExecutor` runs the plan one step at a time (``approach=False``: the robot
   acts where it believes things are). After every step the scene graph of the *visible*
   objects updates the KG (perception, both modes).
4. State changes are scheduled at random steps of the first plan (1 or 2 per instance); when
   one is due, a change that can happen now (reset, addition or relocation, see
   :mod:`.tasks`) is applied in the simulator. In ``l3mp`` mode the person also *says* it:
   the templated report goes through the NL update pipeline (Algorithm 3; with the oracle,
   the gold diff between the robot's KG and the changed ground truth of that object is
   applied instead). In ``visual_only`` mode nobody says anything.
5. Re-planning, as :class:`~l3mp_ros.tasking.lifecycle.TaskLifecycle` does it: when a step fails,
   or when a KG change leaves the remaining steps unable to reach the goal (written anew
   from the KG: a report of a newly dirty dish extends "wash the dishes"; with an LLM, every
   applied report re-runs Algorithm 4, since only the LLM can rewrite its goal). At most
   ``max_replans`` re-plans and ``max_steps`` executed steps.
6. Success: the task's goal written from the simulator's ground truth holds there
   (``SceneGraphExtractor.goal_holds`` on full-observability metadata).

:func:`run_experiment` runs N instances of one task type in one mode and returns a
JSON-ready summary; :func:`table_markdown` renders Table II.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from l3mp_ros import paths
from l3mp_ros.ai2thor.double import ControllerDouble
from l3mp_ros.ai2thor.executor import PlanExecutor
from l3mp_ros.ai2thor.scene_graph import SceneGraphExtractor, parse_literals
from l3mp_ros.compose import load_domain, make_llm
from l3mp_ros.config import Config
from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.model import WorldModel
from l3mp_ros.world.perceive import PerceptionError, load_perceivable, scene_graph_update
from l3mp_ros_bench.ai2thor.tasks import KINDS, PAPER_TABLE_II, TASK_TYPES, TASKS, Change, World

MODES = ('l3mp', 'visual_only')
DOMAIN = 'pddl/ai2thor.pddl'
TYPES = 'config/ai2thor_types.yaml'
PERCEPTION = 'config/ai2thor_perception.yaml'
SCHEMA = 'l3mp/bench_ai2thor/v1'


@dataclass
class Settings:
    """Knobs of one experiment."""

    engine: str = 'fast-downward'
    plan_timeout: float = 20.0
    max_replans: int = 6
    max_steps: int = 80
    changes: tuple[int, int] = (1, 2)  # changes per instance (min, max)
    visibility: str = 'distance'
    retriever: str = 'full'


@dataclass
class Instance:
    """One task instance: simulator, ground truth, robot world model and agent."""

    task: str
    index: int
    seed: int
    rng: random.Random
    sim: ControllerDouble
    extractor: SceneGraphExtractor
    truth: World
    params: dict[str, Any]
    text: str
    world: WorldModel
    agent: Any
    executor: PlanExecutor
    log: list[dict[str, Any]] = field(default_factory=list)
    gold: Update | None = None  # the last verbal report's gold diff (for scripted LLMs)

    @property
    def spec(self) -> Any:
        """Return the task type."""
        return TASK_TYPES[self.task]

    def goal(self, kg: KnowledgeGraph | None = None) -> str:
        """Return the task's goal written from ``kg`` (default: the robot's KG)."""
        return self.spec.goal(kg if kg is not None else self.world.snapshot(), self.params)

    def truth_goal(self) -> list[str]:
        """Return the success condition: the goal written from the ground truth."""
        return self.spec.goal_literals(self.truth.kg(), self.params)

    def success(self) -> bool:
        """Return True when the task's goal holds in the simulator."""
        return self.extractor.goal_holds(self.truth.metadata, self.truth_goal())


_SHARED: dict[str, Any] = {}


def _shared() -> tuple[DomainSchema, Constraints, set[str]]:
    if not _SHARED:
        _SHARED['loaded'] = load_domain(Config(domain=DOMAIN))
        _SHARED['perceivable'] = load_perceivable(PERCEPTION)
    loaded = _SHARED['loaded']
    return loaded.schema, loaded.constraints, _SHARED['perceivable']


def instance_seed(seed: int, task: str, index: int) -> int:
    """Return the simulator seed of one instance (same for both modes)."""
    return random.Random(f'{seed}:{task}:{index}').randrange(2 ** 31)


def kg_of(graph: Mapping[str, Any], domain: str = 'ai2thor') -> KnowledgeGraph:
    """Return a KG holding a scene graph's entities and facts."""
    kg = KnowledgeGraph(domain)
    for e in graph['entities']:
        kg.add_entity(e['name'], e['type'])
    for t in graph['facts']:
        kg.add_fact(Fact.from_triplet(t))
    return kg


def make_instance(task: str, index: int, seed: int = 0, llm: Any = None,
                  settings: Settings | None = None) -> Instance:
    """Build instance ``index`` of ``task`` (deterministic in ``seed``)."""
    from l3mp_ros.compose import build_agent, open_world

    if task not in TASK_TYPES:
        raise ValueError(f'unknown task {task!r}: expected one of {", ".join(TASKS)}')
    s = settings or Settings()
    domain, _, _ = _shared()
    iseed = instance_seed(seed, task, index)
    rng = random.Random(iseed)
    sim = ControllerDouble(seed=iseed, randomize=True, visibility=s.visibility)
    ex = SceneGraphExtractor(paths.resolve(TYPES), sim.house)
    truth = World(sim, ex)
    ex.extract(truth.metadata, all_objects=True)  # name every object once, in a fixed order
    params = TASK_TYPES[task].setup(truth, rng)
    kg = kg_of(ex.extract(truth.metadata, all_objects=True, stamp=0.0), domain.name)
    cfg = Config(domain=DOMAIN, retriever=s.retriever, engine=s.engine,
                 plan_timeout=s.plan_timeout, max_attempts=3)
    world = open_world(cfg, _SHARED['loaded'], kg=kg)  # in memory, over the truth's KG
    agent = build_agent(cfg, world, llm=llm if llm is not None else object())
    executor = PlanExecutor(sim, ex, all_objects=False, approach=False)
    return Instance(task, index, iseed, rng, sim, ex, truth, params,
                    TASK_TYPES[task].text(params), world, agent, executor)


def gold_diff(inst: Instance, objects: Iterable[str]) -> Update:
    """Return what a perfect reader of the report changes: the objects' facts → the truth."""
    _, _, perceivable = _shared()
    truth = inst.truth.kg()
    kg = inst.world.snapshot()
    remove: set[Fact] = set()
    add: set[Fact] = set()
    for name in objects:
        def mine(facts: Iterable[Fact], name: str = name) -> set[Fact]:
            return {f for f in facts if f.args and f.args[0] == name
                    and f.predicate in perceivable}
        believed, real = mine(kg.facts_of(name)), mine(truth.facts_of(name))
        remove |= believed - real
        add |= real - believed
    return Update.of(remove, add)


class Runner:
    """Execute one instance in one mode (see the module docstring)."""

    def __init__(self, inst: Instance, mode: str, oracle: bool,
                 settings: Settings | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f'unknown mode {mode!r}: expected one of {", ".join(MODES)}')
        self.inst = inst
        self.mode = mode
        self.oracle = oracle
        self.s = settings or Settings()
        self.steps: list[str] = []
        self.next = 0
        self.goal = ''
        self.replans: dict[str, int] = {'failure': 0, 'report': 0, 'perception': 0,
                                        'finished': 0}
        self.plan_calls = 0
        self.executed = 0
        self.failed_steps = 0
        self.reports = {'applied': 0, 'rejected': 0}
        self.changes: list[dict[str, Any]] = []
        self.status = 'running'

    # -- planning -----------------------------------------------------------------
    def plan(self) -> bool:
        """(Re-)plan the task; return False when no plan exists."""
        self.plan_calls += 1
        if self.oracle:
            self.goal = self.inst.goal()
            out = self.inst.agent.plan_goal(self.goal, text=self.inst.text)
        else:
            out = self.inst.agent.task(self.inst.text)
            self.goal = out.goal or ''
        self.steps, self.next = list(out.steps), 0
        self.inst.log.append({'event': 'plan', 'status': out.status, 'goal': self.goal,
                              'steps': len(self.steps), 'errors': list(out.errors)[:2]})
        return out.status in ('solved', 'already_satisfied')

    def valid(self) -> bool:
        """Return True when the remaining steps reach the goal in the robot's KG."""
        from l3mp_ros.planning.execute import execute_plan
        from l3mp_ros.planning.problem import GoalError, goal_holds

        kg = self.inst.world.snapshot()
        goal = self.inst.goal(kg) if self.oracle else self.goal
        result = execute_plan(self.inst.world.domain, kg, self.steps[self.next:])
        if not result.ok:
            return False
        try:
            return goal_holds(self.inst.world.domain, result.kg, goal)
        except GoalError:
            return False

    def replan(self, why: str) -> bool:
        """Re-plan for a reason; return False when the instance is over."""
        if sum(self.replans.values()) >= self.s.max_replans:
            self.status = 'gave_up'
            return False
        self.replans[why] += 1
        if not self.plan():
            self.status = 'no_plan'
            return False
        return True

    # -- world changes ------------------------------------------------------------
    def perceive(self, graph: Mapping[str, Any]) -> bool:
        """Apply a frame of visible objects; return True when the KG changed."""
        domain, constraints, perceivable = _shared()
        world = self.inst.world
        try:
            update, new = scene_graph_update(world.kg, dict(graph), perceivable, domain,
                                             constraints)
        except PerceptionError as exc:
            self.inst.log.append({'event': 'perception_error', 'errors': exc.errors[:3]})
            return False
        if update.is_empty() and not new:
            return False
        res = world.apply(update, source='perception', new_entities=new)
        return res.applied

    def report(self, change: Change) -> bool:
        """Tell the robot about a change (l3mp mode); return True when the KG changed."""
        inst = self.inst
        inst.gold = gold_diff(inst, change.objects)
        if self.oracle:
            if inst.gold.is_empty():
                return False
            res = inst.world.apply(inst.gold, source='nl', utterance=change.text)
            ok, errors = res.applied, res.errors
        else:
            out = inst.agent.update(change.text, source='nl')
            ok, errors = out.applied, out.errors
        self.reports['applied' if ok else 'rejected'] += 1
        inst.log.append({'event': 'report', 'text': change.text, 'applied': ok,
                         'errors': list(errors)[:2]})
        return ok

    def maybe_change(self, due: list[int]) -> bool:
        """Apply a due change (if one can happen now); return True when the KG changed."""
        if not due or self.executed < due[0]:
            return False
        inst = self.inst
        truth = inst.truth.kg()
        options = inst.spec.changes(inst.truth, truth, inst.params, inst.rng)
        if not options:
            return False  # nothing can happen yet: stays due
        due.pop(0)
        kind = inst.rng.choice(sorted({c.kind for c in options}))  # kinds equally likely
        change = inst.rng.choice([c for c in options if c.kind == kind])
        change.apply()
        self.changes.append({'kind': change.kind, 'objects': list(change.objects),
                             'after_step': self.executed, 'text': change.text})
        inst.log.append({'event': 'change', 'kind': change.kind, 'text': change.text})
        if self.mode == 'l3mp':
            return self.report(change)
        return False

    # -- the episode ----------------------------------------------------------------
    def schedule(self) -> list[int]:
        """Draw the executed-step counts after which changes happen (from the first plan)."""
        n = self.inst.rng.randint(*self.s.changes)
        last = max(len(self.steps) - 1, 1)
        return sorted(self.inst.rng.randint(1, last) for _ in range(n))

    def run(self) -> dict[str, Any]:
        """Run the episode; return its record."""
        began = time.perf_counter()
        inst = self.inst
        due: list[int] = []
        if self.plan():
            due = self.schedule()
        else:
            self.status = 'no_plan'
        while self.status == 'running':
            if self.next >= len(self.steps):
                if self.valid():
                    self.status = 'done'
                    break
                if not self.replan('finished'):
                    break
                continue
            if self.executed >= self.s.max_steps:
                self.status = 'step_limit'
                break
            result = inst.executor.execute_step(self.steps[self.next], self.next)
            self.executed += 1
            changed = self.perceive(result['scene_graph'])
            if not result['success']:
                self.failed_steps += 1
                inst.log.append({'event': 'failed', 'step': result['action'],
                                 'error': result['error'][:200]})
                self.maybe_change(due)
                self.replan('failure')
                continue
            self.next += 1
            reported = self.maybe_change(due)
            if reported and not self.oracle:
                # an LLM-written goal is text: only Algorithm 4 can widen it (a new dirty dish)
                self.replan('report')
            elif (changed or reported) and self.next < len(self.steps) and not self.valid():
                self.replan('report' if reported else 'perception')
        success = inst.success()
        return {
            'task': inst.task, 'index': inst.index, 'seed': inst.seed, 'mode': self.mode,
            'text': inst.text, 'success': success, 'status': self.status,
            'steps_executed': self.executed, 'failed_steps': self.failed_steps,
            'plan_calls': self.plan_calls, 'replans': dict(self.replans),
            'changes': self.changes, 'reports': dict(self.reports),
            'truth_goal': inst.truth_goal(), 'last_goal': self.goal,
            'seconds': round(time.perf_counter() - began, 3),
        }


def resolve_llm(llm: Any) -> tuple[Any, bool]:
    """Return ``(client or None, oracle)`` for ``'oracle'``, ``'local'``, a URL or a client."""
    if llm is None or llm == 'oracle':
        return None, True
    if isinstance(llm, str):
        url = '' if llm == 'local' else llm
        return make_llm(Config(llm_url=url, llm_model='local' if not url else 'default'),
                        lazy=False), False
    return llm, False


def run_instance(task: str, index: int, mode: str, seed: int = 0, llm: Any = 'oracle',
                 settings: Settings | None = None) -> dict[str, Any]:
    """Run one instance and return its record."""
    client, oracle = resolve_llm(llm)
    inst = make_instance(task, index, seed, client, settings)
    return Runner(inst, mode, oracle, settings).run()


def run_experiment(task: str, instances: int, mode: str, seed: int = 0, llm: Any = 'oracle',
                   settings: Settings | None = None,
                   progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Run ``instances`` instances of ``task`` in ``mode``; return the summary and records."""
    if task not in TASK_TYPES:
        raise ValueError(f'unknown task {task!r}: expected one of {", ".join(TASKS)}')
    if mode not in MODES:
        raise ValueError(f'unknown mode {mode!r}: expected one of {", ".join(MODES)}')
    if instances < 1:
        raise ValueError('instances must be at least 1')
    s = settings or Settings()
    client, oracle = resolve_llm(llm)
    began = time.perf_counter()
    records = []
    for i in range(instances):
        inst = make_instance(task, i, seed, client, s)
        rec = Runner(inst, mode, oracle, s).run()
        records.append(rec)
        if progress is not None:
            progress(rec)
    kinds = {k: 0 for k in KINDS}
    for r in records:
        for c in r['changes']:
            kinds[c['kind']] += 1
    wins = sum(r['success'] for r in records)
    return {
        'schema': SCHEMA, 'simulator': 'controller_double', 'task': task, 'mode': mode,
        'llm': 'oracle' if oracle else str(llm if isinstance(llm, str) else 'client'),
        'seed': seed, 'instances': instances, 'successes': wins,
        'success_rate': round(100.0 * wins / instances, 1),
        'paper_success_rate': PAPER_TABLE_II[mode][task],
        'changes': kinds,
        'replans': {k: sum(r['replans'][k] for r in records) for k in records[0]['replans']},
        'mean_steps': round(sum(r['steps_executed'] for r in records) / instances, 2),
        'settings': {'engine': s.engine, 'max_replans': s.max_replans,
                     'max_steps': s.max_steps, 'changes_per_instance': list(s.changes),
                     'visibility': s.visibility},
        'seconds': round(time.perf_counter() - began, 2),
        'records': records,
    }


def table_markdown(summaries: Iterable[Mapping[str, Any]]) -> str:
    """Render Table II (ours next to the paper's) from experiment summaries."""
    got: dict[tuple[str, str], Mapping[str, Any]] = {
        (s['mode'], s['task']): s for s in summaries}
    tasks = [t for t in TASKS if any((m, t) in got for m in MODES)]
    head = '| success rate % | ' + ' | '.join(TASK_TYPES[t].label for t in tasks) + ' |'
    lines = [head, '|---|' + '---|' * len(tasks)]
    names = {'l3mp': 'L3M+P', 'visual_only': 'Visual only'}
    for mode in MODES:
        if not any((mode, t) in got for t in tasks):
            continue
        cells = []
        for t in tasks:
            s = got.get((mode, t))
            cells.append(f'{s["success_rate"]:g} ({s["successes"]}/{s["instances"]})'
                         if s else '–')
        lines.append(f'| {names[mode]} (controller double) | ' + ' | '.join(cells) + ' |')
    for mode in MODES:
        lines.append(f'| {names[mode]} (paper, AI2-THOR) | '
                     + ' | '.join(str(PAPER_TABLE_II[mode][t]) for t in tasks) + ' |')
    return '\n'.join(lines) + '\n'


def literals_text(goal: str | Iterable[str]) -> list[str]:
    """Return a goal's literals as text (for reports)."""
    return [('(not ' if not pos else '') + f.pddl() + (')' if not pos else '')
            for f, pos in parse_literals(goal)]
