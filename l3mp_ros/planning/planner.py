# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The planner facade: goal + KG (+ context) → a validated plan, widening the context.

L3M+P plans on the retrieved subgraph only (small problems are fast), so a plan must be
checked against the whole KG: a fact left out of the context may make a step inapplicable,
or a quantified goal may range over objects the context lacked. ``Planner.plan`` therefore
validates every plan with UP's sequential plan validator on the problem built from the
*whole* KG and, when no plan is found or the plan is invalid there, widens the context and
plans again. The steps, each tried only when it adds facts to the previous one:

1. ``context``: the given facts (``'auto'``: every fact within two hops of the goal's
   objects, plus the facts of every entity of the goal's quantified types).
2. ``neighbours``: plus every fact of the entities one hop beyond the context's entities.
3. ``types``: plus the facts of every entity whose type is *relevant*: the types of the goal's
   objects, the goal's quantified types, and the parameter types of every action with an
   effect on a goal predicate (the actions that can achieve or undo a goal literal).
4. ``full``: the whole KG.

Agent entities (see :func:`~l3mp_ros.planning.up_problem.agent_types`) and their facts are in
every problem.

A durative domain is first planned natively by the temporal engines (``aries``, then
``tamer``) on the whole KG: a plan keeps each step's start and duration (``schedule``) and
must pass UP's time-triggered plan validator (TAMER's plans sometimes do not). The portfolio
falls back to the compiled (sequential) domain when no temporal engine gives a valid plan,
can run, or is installed (a note says why).

The whole ``plan`` call is bounded by ``timeout`` seconds; each attempt gets the
time left.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from unified_planning.model import Problem
from unified_planning.plans import ActionInstance, SequentialPlan

from l3mp_ros import schemas
from l3mp_ros.config import ENGINE_SETTINGS, PORTFOLIO, TEMPORAL_ENGINES
from l3mp_ros.planning.execute import StepError, parse_step
from l3mp_ros.planning.problem import Goal, GoalError, goal_holds, parse_goal
from l3mp_ros.planning.status import Status
from l3mp_ros.planning.up_problem import ProblemError, build_problem, required_entities
from l3mp_ros.world.domain import DURATIVE_NOTE, DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph

if TYPE_CHECKING:
    from l3mp_ros.planning.engines import EngineResult

__all__ = ['PLAN_SCHEMA', 'PlanResult', 'Planner', 'WIDENING_STEPS', 'relevant_types']

PLAN_SCHEMA = schemas.PLAN_SCHEMA
WIDENING_STEPS = ('context', 'neighbours', 'types', 'full')
#: the share of the deadline a portfolio gives the temporal engine (at least 1 s)
TEMPORAL_SHARE = 0.5
TEMPORAL_NOTE = ('durative actions planned natively by {engine}: each step has a start time '
                 "and a duration (schedule), validated by UP's time-triggered validator")
NO_TEMPORAL_NOTE = ('no temporal engine is installed (pip install up-aries up-tamer, '
                    'requirements.txt): planned on the compiled domain')
Context = set[Fact] | frozenset[Fact] | Literal['full', 'auto'] | None


@dataclass
class PlanResult:
    """What ``Planner.plan`` found.

    ``status``: ``solved``, ``already_satisfied``, ``unsolvable``, ``timeout``,
    ``invalid_goal``, ``unsupported`` (the engine cannot plan this kind of problem, even
    after UP's compilations: no context widening is tried) or ``error``. ``engine`` is the
    setting (``portfolio`` or one engine), ``solved_by`` the engine whose plan this is,
    ``engine_seconds`` the planner time per engine over all attempts.
    """

    status: Status
    steps: list[str] = field(default_factory=list)
    goal: str = ''
    engine: str = ''
    widening: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    problem_size: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    attempts: list[dict[str, Any]] = field(default_factory=list)
    proven: bool | None = None
    notes: list[str] = field(default_factory=list)
    solved_by: str | None = None
    engine_seconds: dict[str, float] = field(default_factory=dict)
    #: a temporal plan: ``start`` and ``duration`` of each step (steps in start order)
    schedule: list[dict[str, float]] = field(default_factory=list)

    @property
    def makespan(self) -> float | None:
        """Return when a temporal plan's last step ends (None for a sequential plan)."""
        if not self.schedule:
            return None
        return max(s['start'] + s['duration'] for s in self.schedule)

    @property
    def ok(self) -> bool:
        """Return True when there is a plan to run (empty when already satisfied)."""
        return Status(self.status).ok

    def to_json(self, task_id: str | None = None, utterance: str | None = None) -> dict:
        """Return the ``l3mp/plan/v1`` message body."""
        return schemas.plan(
            task_id=task_id, utterance=utterance, goal=self.goal, steps=self.steps,
            status=self.status, engine=self.engine, timings=self.timings,
            widening=self.widening, problem_size=self.problem_size, errors=self.errors,
            unsolvable_proven=self.proven, attempts=self.attempts, solved_by=self.solved_by,
            engine_seconds=self.engine_seconds,
            **({'notes': list(self.notes)} if self.notes else {}),
            **({'schedule': [dict(s) for s in self.schedule], 'makespan': self.makespan}
               if self.schedule else {}))


def relevant_types(domain: DomainSchema, kg: KnowledgeGraph, goal: Goal) -> set[str]:
    """Types of the goal's objects and quantifiers and of the goal predicates' achievers."""
    types = {kg.type_of(o) or domain.constants.get(o) for o in goal.objects}
    types |= set(goal.quantified_types)
    for action in domain.up_problem.actions:
        touched = {e.fluent.fluent().name.lower() for e in action.effects}
        if touched & goal.predicates:
            types |= {p.type.name.lower() for p in action.parameters}
    types.discard(None)
    return {t for t in types if t}


def _engine_words(engine: str) -> str:
    if engine == PORTFOLIO:
        from l3mp_ros.planning.portfolio import STAGES
        return f'the portfolio ({", ".join(STAGES)})'
    return engine


def plan_on(problem: Problem, steps: list[str]) -> SequentialPlan:
    """Turn PDDL step strings into a UP plan over ``problem``'s actions and objects."""
    actions = []
    for step in steps:
        name, args = parse_step(step)
        if not problem.has_action(name):
            raise StepError(f'unknown action "{name}" in {step}')
        missing = [a for a in args if not problem.has_object(a)]
        if missing:
            raise StepError(f'unknown object(s) {", ".join(missing)} in {step}')
        actions.append(ActionInstance(problem.action(name),
                                      tuple(problem.object(a) for a in args)))
    return SequentialPlan(actions, problem.environment)


@dataclass
class _Run:
    """One ``plan`` call: what it was asked, its clock, and the result its stages fill."""

    kg: KnowledgeGraph
    text: str | Goal  # the goal as given
    context: Context
    engine: str
    timeout: float
    strict: bool
    started: float
    result: PlanResult
    parsed: Goal | None = None  # the goal, once read
    full_problem: Problem | None = None  # the whole KG's problem, built once
    #: the last attempt's status; None: its plan failed validation on the whole KG
    last: Status | None = Status.ERROR

    @property
    def goal(self) -> Goal:
        """Return the goal as the first stage parsed it."""
        assert self.parsed is not None
        return self.parsed

    @property
    def timings(self) -> dict[str, float]:
        """Return the seconds per phase (``build``, ``plan``, ``validate``, ``total``)."""
        return self.result.timings

    @property
    def deadline(self) -> float:
        """Return when the whole call must end (``time.monotonic`` seconds)."""
        return self.started + self.timeout

    def done(self, status: Status) -> PlanResult:
        """Finish the call with ``status``; the total time counts until now."""
        self.result.status = status
        self.result.timings['total'] = time.monotonic() - self.started
        return self.result


class Planner:
    """Plan goals on a KG with an engine setting, validating on the whole KG.

    ``engine``: ``portfolio`` (:mod:`.portfolio`) or one of ``ENGINES``; ``engine_params``
    go to that engine (to the portfolio's LAPKT stage).
    """

    def __init__(self, domain: DomainSchema, engine: str = PORTFOLIO, timeout: float = 30.0,
                 engine_params: dict[str, Any] | None = None,
                 include_types: set[str] | None = None, auto_depth: int = 2) -> None:
        if engine not in ENGINE_SETTINGS:
            raise ValueError(f'unknown engine {engine!r}; choose one of '
                             f'{", ".join(ENGINE_SETTINGS)}')
        self.domain = domain
        self.engine = engine
        self.timeout = float(timeout)
        self.engine_params = dict(engine_params or {})
        self.include_types = include_types
        self.auto_depth = auto_depth

    @staticmethod
    def warm() -> None:
        """Load the planning engines in the background (:func:`l3mp_ros.planning.warm`)."""
        from l3mp_ros import planning

        planning.warm()

    # -- contexts ----------------------------------------------------------------------

    def auto_context(self, kg: KnowledgeGraph, goal: Goal) -> set[Fact]:
        """Facts within ``auto_depth`` hops of the goal's objects and the quantified types."""
        names = set(goal.objects)
        for name, t in kg.entities.items():
            if goal.quantified_types and self.domain.is_subtype(t, tuple(goal.quantified_types)):
                names.add(name)
        return kg.subgraph_facts(names, self.auto_depth)

    def _widenings(self, kg: KnowledgeGraph, goal: Goal, context: Context):
        """Yield (step name, facts) in widening order, skipping steps that add nothing."""
        full = set(kg.facts)
        if context == 'full':
            yield 'full', full
            return
        facts = self.auto_context(kg, goal) if context in (None, 'auto') else set(context)
        yield 'context', facts
        seen = len(facts)
        core = {a for f in facts for a in f.args} | set(goal.objects)
        core |= required_entities(self.domain, kg, self.include_types)
        facts = facts | kg.subgraph_facts(core, 2)
        if len(facts) > seen and len(facts) < len(full):
            seen = len(facts)
            yield 'neighbours', facts
        wanted = tuple(relevant_types(self.domain, kg, goal))
        if wanted:
            for name, t in kg.entities.items():
                if self.domain.is_subtype(t, wanted):
                    facts |= kg.facts_of(name)
        if len(facts) > seen and len(facts) < len(full):
            yield 'types', facts
        yield 'full', full

    # -- native temporal planning ------------------------------------------------------
    def _native(self, kg: KnowledgeGraph, goal: Goal, name: str, deadline: float,
                result: PlanResult, timings: dict[str, float], pinned: bool) -> Status:
        """Plan a durative domain with a temporal engine on the whole KG; return the status.

        Solved: ``result`` holds the steps in start order and their schedule, validated by
        UP's time-triggered validator. Otherwise the status says why; the portfolio then
        plans the compiled domain, with a note.
        """
        from l3mp_ros.planning import engines

        left = deadline - time.monotonic()
        budget = left if pinned else max(min(left, 1.0), left * TEMPORAL_SHARE)
        attempt: dict[str, Any] = {'widening': 'full', 'facts': len(kg), 'temporal': True}
        result.attempts.append(attempt)
        t0 = time.monotonic()
        try:
            problem = build_problem(self.domain, kg, kg.facts, goal,
                                    include_types=self.include_types,
                                    extra_objects=kg.entities, timed=True)
        except ProblemError as exc:
            result.errors.append(str(exc))
            attempt['status'] = Status.ERROR
            return Status.ERROR
        attempt['build'] = time.monotonic() - t0
        timings['build'] += attempt['build']
        attempt['objects'] = len(problem.all_objects)
        res = engines.solve(problem, name, max(budget - attempt['build'], 0.05))
        attempt.update(plan=res.seconds, status=res.status, up_status=res.up_status,
                       engine=name)
        timings['plan'] += res.seconds
        result.engine_seconds[name] = round(result.engine_seconds.get(name, 0.0)
                                            + res.seconds, 3)
        status = res.status
        if res.solved:
            t0 = time.monotonic()
            valid, reason = engines.validate(problem, res.up_plan)
            attempt['validate'] = time.monotonic() - t0
            timings['validate'] += attempt['validate']
            attempt['valid'] = valid
            if valid:
                result.solved_by, result.steps = name, list(res.plan)
                result.schedule, result.widening = res.schedule, 'full'
                result.problem_size = {'objects': attempt['objects'],
                                       'init': len(problem.explicit_initial_values)}
                result.notes = [n for n in result.notes if n != DURATIVE_NOTE]
                result.notes.append(TEMPORAL_NOTE.format(engine=name))
                return Status.SOLVED
            attempt['invalid_reason'] = reason
            status, why = Status.ERROR, f'its plan failed validation: {reason}'
        elif res.up_status == engines.PlanGenerationResultStatus.UNSUPPORTED_PROBLEM.name:
            status, why = Status.UNSUPPORTED, res.log.strip()
        else:
            why = f'{res.status}' + (f': {res.log.strip()[-300:]}' if res.log.strip() else '')
        if pinned:
            result.errors.append(f'{name} (temporal planning): {why}')
        else:
            result.notes.append(f'temporal engine {name} gave no plan ({why}); planned on the '
                                'compiled domain')
        return status

    @staticmethod
    def _temporal_engines(engine: str, result: PlanResult) -> tuple[str, ...]:
        """Return the temporal engines to try, in order; say in ``result`` what applies.

        Pinned: that engine alone, and nothing is compiled. The portfolio skips an engine
        that is not installed; with none, one note says so (the compiled domain is planned).
        """
        from l3mp_ros.planning import engines

        if engine != PORTFOLIO:
            result.notes = [n for n in result.notes if n != DURATIVE_NOTE]
            return (engine,)
        names = tuple(n for n in TEMPORAL_ENGINES if engines.installed(n))
        if not names:
            result.notes.append(NO_TEMPORAL_NOTE)
        return names

    # -- planning ----------------------------------------------------------------------

    def plan(self, kg: KnowledgeGraph, goal: str | Goal, context: Context = 'auto',
             engine: str | None = None, timeout: float | None = None, *,
             strict: bool = False) -> PlanResult:
        """Find a plan for ``goal`` valid on the whole ``kg``, widening ``context`` if needed.

        ``strict``: the goal text must be exactly one formula (a goal a person wrote). The
        stages run in order; the first that returns a status ends the call: read the goal,
        check whether it already holds, plan a durative domain natively, plan on each
        widening of the context. When none does, :meth:`_give_up` says why.
        """
        from l3mp_ros import planning

        planning.wait_warm()  # never import unified-planning beside a warm thread
        engine = engine or self.engine
        timeout = float(timeout if timeout is not None else self.timeout)
        started = time.monotonic()
        timings: dict[str, float] = {'build': 0.0, 'plan': 0.0, 'validate': 0.0}
        goal_text = goal.text if isinstance(goal, Goal) else str(goal)
        result = PlanResult(Status.ERROR, goal=goal_text, engine=engine, timings=timings,
                            notes=list(self.domain.notes))
        run = _Run(kg, goal, context, engine, timeout, strict, started, result)
        for stage in (self._read_goal, self._already_holds, self._plan_temporal,
                      self._plan_widening):
            status = stage(run)
            if status is not None:
                return run.done(status)
        return run.done(self._give_up(run))

    def _read_goal(self, run: _Run) -> Status | None:
        """Parse and check the goal against the domain and the KG."""
        try:
            run.parsed = parse_goal(self.domain, run.kg, run.text, strict=run.strict)
        except GoalError as exc:
            run.result.errors = list(exc.errors)
            return Status.INVALID_GOAL
        run.result.goal = run.parsed.text
        return None

    def _already_holds(self, run: _Run) -> Status | None:
        """End the call when the goal holds on the KG already (the empty plan)."""
        if goal_holds(self.domain, run.kg, run.goal):
            run.result.widening = None
            return Status.ALREADY_SATISFIED
        return None

    def _plan_temporal(self, run: _Run) -> Status | None:
        """Plan a durative domain with the temporal engines (a pinned one: no fallback)."""
        if not (self.domain.durative
                and (run.engine == PORTFOLIO or run.engine in TEMPORAL_ENGINES)):
            return None
        for name in self._temporal_engines(run.engine, run.result):
            native = self._native(run.kg, run.goal, name, run.deadline, run.result,
                                  run.timings, pinned=run.engine != PORTFOLIO)
            if native == Status.SOLVED or run.engine != PORTFOLIO:  # pinned: no fallback
                return native
        return None

    def _plan_widening(self, run: _Run) -> Status | None:
        """Plan on the context, then on each wider one, until a plan holds on the whole KG.

        None when every step was tried without a valid plan (:meth:`_give_up`).
        """
        for step, facts in self._widenings(run.kg, run.goal, run.context):
            left = run.deadline - time.monotonic()
            if left <= 0:
                run.result.errors.append(f'no time left before the "{step}" attempt')
                return Status.TIMEOUT
            status = self._attempt(run, step, facts, left)
            if status is not None:
                return status
        return None

    def _attempt(self, run: _Run, step: str, facts: set[Fact], left: float) -> Status | None:
        """Build, solve and validate one widening step's problem; None: try the next step."""
        attempt: dict[str, Any] = {'widening': step, 'facts': len(facts)}
        run.result.attempts.append(attempt)
        problem = self._build(run, step, facts, attempt)
        if problem is None:
            return Status.ERROR
        res = self._solve(run, problem, attempt, left)
        run.last = res.status
        from l3mp_ros.planning import engines

        up = engines.PlanGenerationResultStatus  # UP's finer status, by name
        if res.up_status == up.UNSUPPORTED_PROBLEM.name:  # a wider context cannot help
            run.result.errors.append(res.log)
            return Status.UNSUPPORTED
        if res.status == Status.ERROR:
            run.result.errors.append(f'{_engine_words(run.engine)} failed on the "{step}" '
                                     f'problem: {res.log.strip()[-500:]}')
        if res.status == Status.TIMEOUT:
            run.result.errors.append(f'{_engine_words(run.engine)} found no plan within the '
                                     f'time limit ({run.timeout:g} s) on the "{step}" problem')
            return Status.TIMEOUT
        if res.status == Status.UNSOLVABLE and step == 'full':
            run.result.proven = res.up_status == up.UNSOLVABLE_PROVEN.name
            run.result.problem_size = {'objects': attempt['objects'], 'init': attempt['init']}
        if not res.solved:
            return None
        return self._validate(run, step, res, attempt)

    def _build(self, run: _Run, step: str, facts: set[Fact],
               attempt: dict[str, Any]) -> Problem | None:
        """Build one step's problem (the whole KG's is kept); None when it cannot be built."""
        t0 = time.monotonic()
        try:
            # the whole KG includes entities without facts (a grinder that only
            # appears as an action parameter)
            problem = build_problem(self.domain, run.kg, facts, run.goal,
                                    include_types=self.include_types,
                                    extra_objects=run.kg.entities if step == 'full' else ())
            if step == 'full':
                run.full_problem = problem
        except ProblemError as exc:
            run.result.errors.append(str(exc))
            attempt['status'] = Status.ERROR
            return None
        attempt['build'] = time.monotonic() - t0
        run.timings['build'] += attempt['build']
        attempt['objects'] = len(problem.all_objects)
        attempt['init'] = sum(1 for v in problem.explicit_initial_values.values()
                              if v.is_true())
        return problem

    def _solve(self, run: _Run, problem: Problem, attempt: dict[str, Any],
               left: float) -> EngineResult:
        """Run the engine setting on one step's problem; count its time and notes."""
        # the engines load on the first plan
        from l3mp_ros.planning import portfolio

        res = portfolio.solve(problem, run.engine, max(left - attempt['build'], 0.05),
                              self.engine_params)
        attempt['plan'] = res.seconds
        run.result.notes += [n for n in res.notes if n not in run.result.notes]
        run.timings['plan'] += res.seconds
        attempt['status'] = res.status
        attempt['up_status'] = res.up_status
        attempt['engine'] = res.engine
        if res.stages:
            attempt['engines'] = res.stages
        seconds = run.result.engine_seconds
        for stage in res.stages or [{'engine': res.engine, 'seconds': res.seconds}]:
            seconds[stage['engine']] = round(seconds.get(stage['engine'], 0.0)
                                             + stage['seconds'], 3)
        return res

    def _validate(self, run: _Run, step: str, res: EngineResult,
                  attempt: dict[str, Any]) -> Status | None:
        """Check a step's plan on the whole KG's problem; SOLVED if it holds, else None."""
        from l3mp_ros.planning import engines

        t0 = time.monotonic()
        if run.full_problem is None:
            run.full_problem = build_problem(self.domain, run.kg, run.kg.facts, run.goal,
                                             include_types=self.include_types,
                                             extra_objects=run.kg.entities)
            run.timings['build'] += time.monotonic() - t0
            t0 = time.monotonic()
        try:
            valid, reason = engines.validate(run.full_problem,
                                             plan_on(run.full_problem, res.plan))
        except StepError as exc:
            valid, reason = False, str(exc)
        attempt['validate'] = time.monotonic() - t0
        run.timings['validate'] += attempt['validate']
        attempt['valid'] = valid
        if valid:
            run.result.solved_by = res.engine
            run.result.steps = list(res.plan)
            run.result.widening = step
            run.result.problem_size = {'objects': attempt['objects'], 'init': attempt['init']}
            return Status.SOLVED
        attempt['invalid_reason'] = reason
        run.last = None
        return None

    @staticmethod
    def _give_up(run: _Run) -> Status:
        """Return the status of a call in which no attempt gave a valid plan."""
        if run.last == Status.UNSOLVABLE:
            how = 'proven' if run.result.proven else 'not proven (incomplete search)'
            run.result.errors.append(f'no plan exists on the whole KG ({how})')
            return Status.UNSOLVABLE
        if run.last is None:
            run.result.errors.append('the plan found on the whole KG failed validation')
        return Status.ERROR
