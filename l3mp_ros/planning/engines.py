# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Classical planners behind one call: ``solve(problem, engine, timeout)`` and ``validate``.

Engines come from unified-planning's factory: ``lapkt`` (this package's engine, run in a
killable subprocess; a problem with disjunctive or quantified conditions is compiled and
solved in a child interpreter killed at the deadline, as the compilation alone can take
exponential time), ``fast-downward`` (up-fast-downward, UP's own timeout, which kills the
planner's process group) and ``pyperplan`` (no timeout of its own: solved in a child
interpreter that is killed at the deadline). A problem with features an engine lacks
(e.g. conditional effects for pyperplan) is first rewritten with UP's compilers and the plan
is mapped back. Nothing here writes to stdout.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, NoReturn

import unified_planning as up
from unified_planning.engines import PlanGenerationResultStatus
from unified_planning.engines import ValidationResultStatus as _Valid
from unified_planning.environment import get_environment
from unified_planning.exceptions import UPException
from unified_planning.io import PDDLReader, PDDLWriter
from unified_planning.plans import ActionInstance, SequentialPlan, TimeTriggeredPlan

from l3mp_ros.config import ENGINES, NUMERIC_ENGINES, TEMPORAL_ENGINES
from l3mp_ros.planning import lapkt_engine, lapkt_warm
from l3mp_ros.planning.process import guarded, run_killable
from l3mp_ros.planning.status import Status

__all__ = ['ENGINES', 'EngineResult', 'expands_for_lapkt', 'register_engines', 'solve',
           'validate', 'plan_strings']

# conditions whose compilation for LAPKT can blow up (DNF of disjunctions and quantifiers)
_EXPANDING = frozenset({'DISJUNCTIVE_CONDITIONS', 'EXISTENTIAL_CONDITIONS',
                        'UNIVERSAL_CONDITIONS'})
_IN_PROCESS_EXPANSION = 64  # disjuncts compiled in-process (fast); more: in a child


def expansion(problem: up.model.Problem) -> int:
    """Estimate how many disjuncts UP's compilations make of the goals and preconditions.

    Quantifiers expand over the objects of their type (``exists`` into an ``or``,
    ``forall`` into an ``and``), then a conjunction multiplies its parts' disjuncts and a
    disjunction adds them (``not`` swaps the two; ``a -> b`` is ``not a or b``). Capped,
    so the walk stays cheap.
    """
    cap = 10 ** 9
    sizes: dict[tuple[int, bool], int] = {}

    def size(node: Any, negated: bool = False) -> int:
        key = (id(node), negated)
        if key in sizes:
            return sizes[key]
        if node.is_not():
            out = size(node.arg(0), not negated)
        elif node.is_implies():  # a -> b is (not a) or b
            left, right = size(node.arg(0), not negated), size(node.arg(1), negated)
            out = min(cap, left * right) if negated else min(cap, left + right)
        elif node.is_iff():  # (a and b) or (not a and not b): bounded above
            a, b = node.arg(0), node.arg(1)
            out = min(cap, 2 * max(size(a), size(a, True)) * max(size(b), size(b, True)))
        elif node.is_and() or node.is_or():
            parts = [size(a, negated) for a in node.args]
            if node.is_and() != negated:  # a conjunction after pushing negations in
                out = 1
                for p in parts:
                    out = min(cap, out * p)
            else:
                out = min(cap, sum(parts))
        elif node.is_exists() or node.is_forall():
            body = size(node.arg(0), negated)
            n = 1
            for v in node.variables():
                n = min(cap, n * max(1, len(list(problem.objects(v.type)))))
            if node.is_exists() != negated:
                out = min(cap, n * body)
            else:
                out = 1 if body <= 1 else min(cap, body ** min(n, 64))
        else:
            out = 1
        sizes[key] = out
        return out

    total = 0
    for goal in problem.goals:
        total = min(cap, total + size(goal))
    for action in problem.actions:  # an action becomes one action per disjunct
        for pre in getattr(action, 'preconditions', ()):
            total = min(cap, total + size(pre) - 1)
    return total


NUMERIC_FEATURES = frozenset({'INT_FLUENTS', 'REAL_FLUENTS'})
ALL_ENGINES = (*ENGINES, *NUMERIC_ENGINES, *TEMPORAL_ENGINES)


def is_numeric(problem: up.model.Problem) -> bool:
    """Return True when ``problem`` has numeric state (a numeric engine plans it)."""
    return bool(problem.kind.features & NUMERIC_FEATURES)


def expands_for_lapkt(problem: up.model.Problem) -> bool:
    """Return True when UP must expand ``problem`` for LAPKT beyond a quick compilation.

    Disjunctions and quantifiers over more than a few objects (:func:`expansion` above
    ``_IN_PROCESS_EXPANSION`` disjuncts): LAPKT then plans in a child interpreter on a
    compiled problem that can be exponentially larger; Fast Downward reads them itself.
    """
    return bool(problem.kind.features & _EXPANDING) and expansion(problem) > _IN_PROCESS_EXPANSION


# UP's factory has fast-downward and pyperplan (up-fast-downward, up-pyperplan); not lapkt.
_LAPKT_ENTRY = ('l3mp_ros.planning.lapkt_engine', 'LAPKTPlanner')

_STATUS: dict[PlanGenerationResultStatus, Status] = {
    PlanGenerationResultStatus.SOLVED_SATISFICING: Status.SOLVED,
    PlanGenerationResultStatus.SOLVED_OPTIMALLY: Status.SOLVED,
    PlanGenerationResultStatus.UNSOLVABLE_PROVEN: Status.UNSOLVABLE,
    PlanGenerationResultStatus.UNSOLVABLE_INCOMPLETELY: Status.UNSOLVABLE,
    PlanGenerationResultStatus.TIMEOUT: Status.TIMEOUT,
}

# an engine that cannot plan this kind of problem (a wider context cannot help)
_UNSUPPORTED = PlanGenerationResultStatus.UNSUPPORTED_PROBLEM.name


@dataclass
class EngineResult:
    """What one planner call produced.

    ``status`` is ``solved``, ``unsolvable``, ``timeout`` or ``error``; ``up_status`` is UP's
    status name (e.g. ``UNSOLVABLE_INCOMPLETELY`` vs ``UNSOLVABLE_PROVEN``); ``plan`` holds
    lowercase PDDL action strings such as ``(move_to_room the_robot kitchen bathroom)``.
    ``stages``: a portfolio's calls in order (``engine``, ``status``, ``seconds``), each
    with the time it was given (``budget``); ``engine`` is then the one that answered.
    """

    status: Status
    plan: list[str]
    up_plan: SequentialPlan | None
    engine: str
    seconds: float
    log: str = ''
    up_status: str = ''
    metrics: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    stages: list[dict[str, Any]] = field(default_factory=list)
    #: a temporal plan's start time and duration per step (``plan`` in start order)
    schedule: list[dict[str, float]] = field(default_factory=list)

    @property
    def solved(self) -> bool:
        """Return True when a plan was found."""
        return self.status == Status.SOLVED


class UnsupportedProblem(UPException):
    """The engine cannot plan this kind of problem, even after UP's compilations."""


def register_engines(env: up.environment.Environment | None = None) -> None:
    """Add ``lapkt`` to UP's factory and check it has ``fast-downward`` and ``pyperplan``.

    Idempotent. Also silences UP's credits banner (``credits_stream = None``).
    """
    env = env or get_environment()
    env.credits_stream = None
    factory = env.factory
    if 'lapkt' not in factory.engines:
        factory.add_engine('lapkt', *_LAPKT_ENTRY)
    missing = [name for name in ENGINES if name not in factory.engines]
    if missing:
        raise RuntimeError(f'unified-planning has no engine {", ".join(missing)}: install '
                           'up-fast-downward and up-pyperplan (requirements.txt)')


def plan_strings(plan: SequentialPlan | TimeTriggeredPlan | None) -> list[str]:
    """Return a plan as lowercase PDDL action strings (UP names; a temporal one by start)."""
    if plan is None:
        return []
    if isinstance(plan, TimeTriggeredPlan):
        return [_action_string(a) for _, a, _ in _timed(plan)]
    return [_action_string(a) for a in plan.actions]


def schedule_of(plan: TimeTriggeredPlan | None) -> list[dict[str, float]]:
    """Return each step's ``start`` and ``duration`` (seconds) of a temporal plan, by start."""
    if not isinstance(plan, TimeTriggeredPlan):
        return []
    return [{'start': float(start), 'duration': float(dur or 0)}
            for start, _, dur in _timed(plan)]


def makespan(schedule: list[dict[str, float]]) -> float:
    """Return when the last step of a schedule ends."""
    return max((s['start'] + s['duration'] for s in schedule), default=0.0)


def _timed(plan: TimeTriggeredPlan) -> list[tuple[Any, ActionInstance, Any]]:
    return sorted(plan.timed_actions, key=lambda t: (t[0], str(t[1])))


def solve(
    problem: up.model.Problem,
    engine: str,
    timeout: float,
    params: dict[str, Any] | None = None,
) -> EngineResult:
    """Plan for ``problem`` with ``engine`` (one of ``ENGINES``) within ``timeout`` seconds.

    Never raises for planner failures: an engine or compilation error gives ``status='error'``
    with the log. Raises ``ValueError`` for an unknown engine or a non-positive timeout.
    """
    if engine not in ALL_ENGINES:
        raise ValueError(f'unknown engine {engine!r}; choose one of {", ".join(ALL_ENGINES)}')
    if not timeout or timeout <= 0:
        raise ValueError(f'timeout must be a positive number of seconds, not {timeout!r}')
    register_engines(problem.environment)
    params = dict(params or {})
    started = time.monotonic()
    notes: list[str] = []
    try:
        _no_java(engine, problem)
        problem, notes = _without_costs_for(problem, engine)
        if engine in ('pyperplan', *TEMPORAL_ENGINES) or (
                engine == 'lapkt' and expands_for_lapkt(problem)):
            # pyperplan and TAMER have no timeout (Aries's server dies with the child); UP's
            # compilation of a disjunctive or quantified goal for LAPKT can grow exponentially
            # (over 20 minutes on one household goal): a child interpreter killed at the
            # deadline runs them
            _refuse_unsupported(problem.environment.factory.engine(engine), problem, engine)
            status, plan, log, metrics = _solve_in_child(problem, engine, timeout, params)
        else:
            engine_cls = problem.environment.factory.engine(engine)
            target, back_maps = _compile_for(engine_cls, problem, engine)
            status, plan, log, metrics = _solve_in_process(target, engine, timeout, params)
            if plan is not None:
                for back in reversed(back_maps):
                    plan = plan.replace_action_instances(back)
    except UnsupportedProblem as exc:
        return EngineResult(Status.ERROR, [], None, engine, time.monotonic() - started,
                            log=str(exc), up_status=_UNSUPPORTED, notes=notes)
    except Exception as exc:  # noqa: BLE001 - any engine failure becomes an 'error' result
        return EngineResult(Status.ERROR, [], None, engine, time.monotonic() - started,
                            log=f'{type(exc).__name__}: {exc}',
                            up_status=PlanGenerationResultStatus.INTERNAL_ERROR.name,
                            notes=notes)
    short = _STATUS.get(status, Status.ERROR)
    if short == Status.SOLVED and not isinstance(plan, (SequentialPlan, TimeTriggeredPlan)):
        short, log = Status.ERROR, (log + '\nengine reported success without a sequential or '
                                    'time-triggered plan')
    if short != Status.SOLVED:
        plan = None
    return EngineResult(
        short, plan_strings(plan), plan, engine, time.monotonic() - started,
        log=log if short == Status.ERROR else '', up_status=status.name, metrics=metrics,
        notes=notes, schedule=schedule_of(plan))


def _without_costs_for(problem: up.model.Problem,
                       engine: str) -> tuple[up.model.Problem, list[str]]:
    """Drop the action-cost metric for an engine that cannot use it; say so in a note."""
    if 'ACTIONS_COST' not in problem.kind.features:
        return problem, []
    if 'ACTIONS_COST' in problem.environment.factory.engine(engine).supported_kind().features:
        return problem, [f'{engine} plans with the action costs (:metric minimize '
                         '(total-cost))']
    plain = problem.clone()
    plain.clear_quality_metrics()
    return plain, [f'{engine} does not use action costs: planned without them (the plan is '
                   'valid; a cheaper one may exist, e.g. with fast-downward)']


def validate(problem: up.model.Problem,
             up_plan: SequentialPlan | TimeTriggeredPlan | None) -> tuple[bool, str]:
    """Check ``up_plan`` against ``problem`` with UP's sequential plan validator.

    A temporal plan is checked with UP's time-triggered plan validator (start times,
    durations, conditions at start, over all and at end).
    """
    if up_plan is None:
        return False, 'no plan to validate'
    factory = problem.environment.factory
    name = ('up_time_triggered_validator' if isinstance(up_plan, TimeTriggeredPlan)
            else 'sequential_plan_validator')
    with warnings.catch_warnings():
        # numeric problems whose functions are not all given (a distance between rooms
        # no road joins): UP cannot tell ahead whether it validates them, and does
        warnings.filterwarnings('ignore', message='We cannot establish whether')
        with factory.PlanValidator(name=name) as validator:
            try:
                result = validator.validate(problem, up_plan)
            except UPException as exc:
                return False, f'{type(exc).__name__}: {exc}'
    if result.status == _Valid.VALID:
        return True, ''
    messages = [m.message for m in (result.log_messages or []) if m.message]
    reason = ' '.join(messages) or (result.reason.name if result.reason else 'invalid plan')
    return False, reason


# -- internals -------------------------------------------------------------------------


def _action_string(action: ActionInstance) -> str:
    names = [action.action.name] + [str(p) for p in action.actual_parameters]
    return '(' + ' '.join(names).lower() + ')'


def _compile_for(engine_cls: type, problem: up.model.Problem,
                 name: str = '') -> tuple[up.model.Problem, list]:
    """Rewrite ``problem`` with UP compilers until ``engine_cls`` supports its kind.

    A compilation may bring in a feature of its own (removing an ``exists`` goal leaves a
    disjunction): passes repeat while they make progress. Raises ``UnsupportedProblem``
    naming what is left.
    """
    supported = engine_cls.supported_kind().features
    current, back_maps = problem, []
    for _ in range(len(lapkt_engine.COMPILATIONS)):
        if engine_cls.supports(current.kind):
            return current, back_maps
        missing = current.kind.features - supported
        compiled, more = lapkt_engine.compile_away(current, missing)
        if not more:
            break
        current, back_maps = compiled, back_maps + more
    if engine_cls.supports(current.kind):
        return current, back_maps
    _refuse(current.kind.features - supported, problem, engine_cls, name)


def _refuse_unsupported(engine_cls: type, problem: up.model.Problem, name: str) -> None:
    """Raise ``UnsupportedProblem`` if a feature is missing that no compilation removes.

    Cheap (no compilation runs): for engines planned in a child process, whose compilation
    could take long, so that the parent refuses at once what the child could never plan.
    """
    removable = frozenset().union(*(r for _, r in lapkt_engine.COMPILATIONS))
    left = problem.kind.features - engine_cls.supported_kind().features - removable
    if left:
        _refuse(left, problem, engine_cls, name)


def _refuse(left: Any, problem: up.model.Problem, engine_cls: type, name: str) -> NoReturn:
    factory = problem.environment.factory
    others = [n for n in ALL_ENGINES if n != name and n in factory.engines
              and left <= factory.engine(n).supported_kind().features]
    raise UnsupportedProblem(
        f'{name or engine_cls.__name__} cannot plan this problem: it needs '
        f'{", ".join(sorted(f.lower() for f in left))}, which no UP compilation removes; '
        + (f'use {" or ".join(others)}' if others else 'no installed engine supports that'))


def _solve_in_process(
    problem: up.model.Problem, engine: str, timeout: float, params: dict[str, Any],
) -> tuple[PlanGenerationResultStatus, up.plans.Plan | None, str, dict[str, str]]:
    # A stream makes UP's PDDL runner capture output and reap the killed process.
    sink = io.StringIO()
    factory = problem.environment.factory
    with factory.OneshotPlanner(name=engine, params=params) as planner:
        if engine == 'fast-downward':
            _private_sas_file(planner, timeout)
        elif engine in NUMERIC_ENGINES:
            _guard(planner, timeout)
        result = planner.solve(problem, timeout=timeout, output_stream=sink)
    log = '\n'.join(m.message for m in (result.log_messages or []) if m.message)
    return result.status, result.plan, log or sink.getvalue(), dict(result.metrics or {})


def _private_sas_file(planner: Any, timeout: float | None = None) -> None:
    """Make Fast Downward write its translator output next to the plan, not in our cwd.

    Its driver defaults to ``./output.sas``: concurrent calls would overwrite each other's.
    The driver also starts behind :func:`.process.guarded`: it dies with its caller and
    ends itself a little after ``timeout`` (UP's runner kills it at the deadline too).
    """
    base = planner._get_cmd

    def get_cmd(domain: str, problem: str, plan: str) -> list[str]:
        cmd = list(base(domain, problem, plan))
        sas = os.path.join(os.path.dirname(plan), 'output.sas')
        return guarded(cmd[:2] + ['--sas-file', sas] + cmd[2:], timeout)

    planner._get_cmd = get_cmd


def _guard(planner: Any, timeout: float) -> None:
    """Start a PDDL planner's command behind :func:`.process.guarded` (ENHSP's JVM).

    A JVM runs threads on both cores, so its CPU-time limit is twice the deadline; UP's
    runner still kills it at the deadline itself.
    """
    base = planner._get_cmd

    def get_cmd(domain: str, problem: str, plan: str) -> list[str]:
        return guarded(list(base(domain, problem, plan)), 2 * timeout)

    planner._get_cmd = get_cmd


_PACKAGES = {'enhsp': 'up-enhsp', 'aries': 'up-aries', 'tamer': 'up-tamer'}


def installed(engine: str, env: up.environment.Environment | None = None) -> bool:
    """Return True when UP's factory has ``engine`` (its package imports)."""
    return engine in (env or get_environment()).factory.engines


def _no_java(engine: str, problem: up.model.Problem) -> None:
    """Refuse an engine that is not installed, or has no Java runtime, in one line."""
    if not installed(engine, problem.environment):
        raise UnsupportedProblem(f'{engine} is not installed: pip install '
                                 f'{_PACKAGES.get(engine, engine)} (requirements.txt)')
    if engine in NUMERIC_ENGINES and shutil.which('java') is None:
        raise UnsupportedProblem(f'{engine} needs a Java runtime and none is installed: '
                                 'apt-get install default-jre-headless (make venv does it '
                                 'as root)')


def _child_env() -> dict[str, str]:
    """Our environment, with the directory holding ``l3mp_ros`` first on PYTHONPATH.

    A worker plans once: a warm LAPKT process would only start to be killed unused.
    """
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ)
    env[lapkt_warm.ENV] = 'off'
    env['PYTHONPATH'] = os.pathsep.join(
        p for p in (root, env.get('PYTHONPATH', '')) if p)
    return env


def _solve_in_child(
    problem: up.model.Problem, engine: str, timeout: float, params: dict[str, Any],
) -> tuple[PlanGenerationResultStatus, up.plans.Plan | None, str, dict[str, str]]:
    """Compile and solve in :mod:`.worker`, killed at the deadline (engines without one).

    Compilation may blow up too (conditional effects, quantified goals): the deadline
    bounds both.
    """
    writer = PDDLWriter(problem, needs_requirements=True)
    with tempfile.TemporaryDirectory(prefix='l3mp_plan_') as tmp:
        domain = os.path.join(tmp, 'domain.pddl')
        prob = os.path.join(tmp, 'problem.pddl')
        writer.write_domain(domain)
        writer.write_problem(prob)
        cmd = [sys.executable, '-m', 'l3mp_ros.planning.worker', engine, json.dumps(params),
               domain, prob, str(timeout)]
        timed_out, retval, out, err = run_killable(cmd, tmp, timeout, _child_env())
    log = (out + '\n' + err).strip()
    if timed_out:
        return PlanGenerationResultStatus.TIMEOUT, None, log, {}
    reply = None
    for line in reversed(out.splitlines()):
        if line.startswith('{'):
            try:
                reply = json.loads(line)
            except ValueError:
                reply = None
            break
    if retval != 0 or not isinstance(reply, dict):
        return PlanGenerationResultStatus.INTERNAL_ERROR, None, \
            f'{engine} worker exited with code {retval}\n{log}', {}
    status = PlanGenerationResultStatus[reply['status']]
    plan = None
    if reply.get('plan') is not None:
        lines = reply['plan']
        if reply.get('schedule') is not None:  # start: (action ...) [duration]
            pairs = zip(lines, reply['schedule'], strict=True)
            lines = [f'{s}: {step} [{d}]' for step, (s, d) in pairs]
        plan = PDDLReader(problem.environment).parse_plan_string(
            problem, '\n'.join(lines), writer.get_item_named)
    return status, plan, log, {}


register_engines()  # importing this module makes the engines available by name
