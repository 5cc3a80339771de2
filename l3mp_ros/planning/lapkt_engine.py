# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A unified-planning engine around LAPKT (the ``lapkt`` PyPI package).

LAPKT's planners are C++ objects behind pybind11; they print to the process's stdout and
offer no time limit. This engine therefore writes the problem as PDDL (UP's ``PDDLWriter``)
into a private temporary directory and runs LAPKT's own command-line driver
(``lapkt.parseargs.process_arguments`` + ``lapkt.load_planner.Planner``, i.e. what the
package's ``lapkt_cmd.py`` script does) with this interpreter in a new session. The whole
process group is killed at the deadline, output is captured, the plan file is parsed back
into UP ``ActionInstance`` objects and the directory is removed.

Searches (``search`` parameter):

* ``siw-then-bfsf`` (default, as in the L3M+P paper): LAPKT's ``SIW_PLUS_BFS_F_Planner``,
  serialized IW up to ``iw_bound`` (default 2), then the complete BFS(f) when SIW fails.
* ``bfws``: LAPKT's ``BFWS`` planner, variant ``bfws_variant`` (default ``DUAL-BFWS``:
  1-BFWS, then the complete BFWS(f5)).
* ``bfsf``: LAPKT's ``BFS_f_Planner`` (greedy best-first search with novelty, complete).
* ``siw``: LAPKT's ``SIW_Planner`` (serialized IW, incomplete).
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import IO, Any

import unified_planning as up
from unified_planning.engines import CompilationKind, Credits, Engine, LogLevel, LogMessage
from unified_planning.engines.mixins import OneshotPlannerMixin
from unified_planning.engines.results import PlanGenerationResult, PlanGenerationResultStatus
from unified_planning.exceptions import UPException
from unified_planning.io import PDDLReader, PDDLWriter
from unified_planning.model import ProblemKind
from unified_planning.plans import ActionInstance

__all__ = ['LAPKTPlanner', 'SEARCHES', 'BFWS_VARIANTS', 'compile_away']

#: search name → (LAPKT planner class, complete?)
SEARCHES: dict[str, tuple[str, bool]] = {
    'siw-then-bfsf': ('SIW_PLUS_BFS_F_Planner', True),
    'bfws': ('BFWS', True),
    'bfsf': ('BFS_f_Planner', True),
    'siw': ('SIW_Planner', False),
}

#: BFWS variants (LAPKT's ``--search_type`` choices) that end with a complete search.
BFWS_VARIANTS: dict[str, bool] = {
    'DUAL-BFWS': True,
    'DUAL-C-BFWS': True,
    'BFWS-f5': True,
    'BFWS-goalcount-only': True,
    'BFWS-f5-landmarks': True,
    'BFWS-f5-initstate-relevant': True,
    '1-BFWS': False,
    'k-BFWS': False,
    'k-C-BFWS': False,
    '1-C-BFWS': False,
    'k-M-BFWS': False,
    'k-M-C-BFWS': False,
    'POLY-BFWS': False,
}

_CREDITS = Credits(
    name='LAPKT',
    author='Nir Lipovetzky, Miquel Ramirez, Christian Muise, Anubhav Singh (LAPKT); '
    'UP integration: The l3mp_ros Authors',
    contact='https://github.com/LAPKT-dev/LAPKT-Public',
    website='http://lapkt.org/',
    license='MIT (LAPKT); Apache-2.0 (integration)',
    short_description='LAPKT width-based planners (SIW, BFS(f), BFWS) in a subprocess.',
    long_description='Lightweight Automated Planning ToolKit: serialized iterated width, '
    'SIW then BFS(f), and best-first width search, run through the lapkt package.',
)

# Runs LAPKT's own command-line driver; argv after '-c' is LAPKT's command line.
_DRIVER = (
    'from lapkt.parseargs import process_arguments\n'
    'from lapkt.load_planner import Planner\n'
    'print("PLANNER_EXIT_CODE:", Planner(process_arguments()).solve(), flush=True)\n'
)

# UP compilations, in the order applied, and the problem features each one removes.
COMPILATIONS: tuple[tuple[CompilationKind, frozenset[str]], ...] = (
    (CompilationKind.QUANTIFIERS_REMOVING,
     frozenset({'EXISTENTIAL_CONDITIONS', 'UNIVERSAL_CONDITIONS', 'FORALL_EFFECTS'})),
    (CompilationKind.CONDITIONAL_EFFECTS_REMOVING, frozenset({'CONDITIONAL_EFFECTS'})),
    (CompilationKind.DISJUNCTIVE_CONDITIONS_REMOVING, frozenset({'DISJUNCTIVE_CONDITIONS'})),
    (CompilationKind.NEGATIVE_CONDITIONS_REMOVING, frozenset({'NEGATIVE_CONDITIONS'})),
)

# Features LAPKT gets only after UP has compiled them away (measured on lapkt 0.2.1):
# its Tarski front end mistranslates disjunctive preconditions (plans that violate them)
# and fails on a quantifier over a type without objects ("No constants were defined!").
_PRECOMPILED = frozenset({'DISJUNCTIVE_CONDITIONS', 'EXISTENTIAL_CONDITIONS',
                          'UNIVERSAL_CONDITIONS', 'FORALL_EFFECTS'})

# Printed by every LAPKT planner on success; failures print no number or FLT_MAX.
_SOLVED = re.compile(r'Plan found with cost:\s*([0-9][0-9.eE+-]*)')
_EXIT = re.compile(r'^PLANNER_EXIT_CODE:', re.MULTILINE)
_RELAXED_UNSOLVABLE = 'ReachabilityLPUnsolvable'
_KILL_GRACE = 2.0


class LAPKTPlanner(Engine, OneshotPlannerMixin):
    """UP oneshot planner running a LAPKT search in a killable subprocess."""

    def __init__(
        self,
        search: str = 'siw-then-bfsf',
        iw_bound: int | None = None,
        max_novelty: int | None = None,
        bfws_variant: str = 'DUAL-BFWS',
        python: str | None = None,
    ) -> None:
        """Configure the search.

        :param search: one of ``SEARCHES`` (``siw-then-bfsf``, ``bfws``, ``bfsf``, ``siw``).
        :param iw_bound: maximum width for the SIW stages (LAPKT default for SIW: 2).
        :param max_novelty: novelty bound for BFS(f) / BFWS (LAPKT default: 2).
        :param bfws_variant: LAPKT BFWS ``--search_type`` when ``search='bfws'``.
        :param python: interpreter for the subprocess (default: this one).
        """
        Engine.__init__(self)
        OneshotPlannerMixin.__init__(self)
        if search not in SEARCHES:
            raise ValueError(
                f'unknown LAPKT search {search!r}; choose one of {", ".join(SEARCHES)}')
        if bfws_variant not in BFWS_VARIANTS:
            raise ValueError(
                f'unknown BFWS variant {bfws_variant!r}; choose one of '
                f'{", ".join(BFWS_VARIANTS)}')
        for label, value in (('iw_bound', iw_bound), ('max_novelty', max_novelty)):
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f'{label} must be a positive integer, not {value!r}')
        self._search = search
        self._iw_bound = iw_bound
        self._max_novelty = max_novelty
        self._bfws_variant = bfws_variant
        self._python = python or sys.executable

    # -- Engine metadata ---------------------------------------------------------------

    @property
    def name(self) -> str:
        """Engine name as registered in UP's factory."""
        return 'lapkt'

    @property
    def search(self) -> str:
        """Return the configured search name."""
        return self._search

    @staticmethod
    def get_credits(**kwargs: Any) -> Credits | None:
        """Credits shown by UP's factory."""
        return _CREDITS

    @staticmethod
    def supported_kind() -> ProblemKind:
        """Problem features this engine handles (tested in ``test/test_planning_engines.py``).

        Quantifiers and disjunctions are compiled away with UP before LAPKT sees them.
        """
        kind = ProblemKind(version=2)
        kind.set_problem_class('ACTION_BASED')
        kind.set_typing('FLAT_TYPING')
        kind.set_typing('HIERARCHICAL_TYPING')
        kind.set_conditions_kind('NEGATIVE_CONDITIONS')
        kind.set_conditions_kind('DISJUNCTIVE_CONDITIONS')
        kind.set_conditions_kind('EXISTENTIAL_CONDITIONS')
        kind.set_conditions_kind('UNIVERSAL_CONDITIONS')
        kind.set_conditions_kind('EQUALITIES')
        kind.set_effects_kind('CONDITIONAL_EFFECTS')
        kind.set_effects_kind('FORALL_EFFECTS')
        kind.set_quality_metrics('PLAN_LENGTH')
        return kind

    @staticmethod
    def supports(problem_kind: ProblemKind) -> bool:
        """Whether a problem of this kind can be given to LAPKT."""
        return problem_kind <= LAPKTPlanner.supported_kind()

    # -- solving -----------------------------------------------------------------------

    def _command(self, domain: str, problem: str, plan: str, log: str) -> list[str]:
        planner, _ = SEARCHES[self._search]
        cmd = [self._python, '-c', _DRIVER, planner, '-d', domain, '-p', problem,
               '--plan_file', plan, '--log_file', log]
        if self._search in ('siw-then-bfsf', 'siw'):
            cmd += ['--iw_bound', str(self._iw_bound or 2)]
        if self._search in ('siw-then-bfsf', 'bfsf', 'bfws') and self._max_novelty:
            cmd += ['--max_novelty', str(self._max_novelty)]
        if self._search == 'bfws':
            cmd += ['--search_type', self._bfws_variant]
        return cmd

    def _complete(self) -> bool:
        if self._search == 'bfws':
            return BFWS_VARIANTS[self._bfws_variant]
        return SEARCHES[self._search][1]

    def _solve(
        self,
        problem: up.model.AbstractProblem,
        heuristic: Callable[[up.model.state.State], float | None] | None = None,
        timeout: float | None = None,
        output_stream: IO[str] | tuple[IO[str], IO[str]] | None = None,
    ) -> PlanGenerationResult:
        assert isinstance(problem, up.model.Problem)
        if heuristic is not None:
            self._warn('LAPKT does not use a custom heuristic; it is ignored')
        started = time.monotonic()
        problem, back_maps = compile_away(problem, _PRECOMPILED & problem.kind.features)
        problem = without_effectless_actions(problem)
        writer = PDDLWriter(problem, needs_requirements=True)
        with tempfile.TemporaryDirectory(prefix='l3mp_lapkt_') as tmp:
            domain = os.path.join(tmp, 'domain.pddl')
            prob = os.path.join(tmp, 'problem.pddl')
            plan_path = os.path.join(tmp, 'plan.ipc')
            log_path = os.path.join(tmp, 'lapkt.log')
            writer.write_domain(domain)
            writer.write_problem(prob)
            cmd = self._command(domain, prob, plan_path, log_path)
            if timeout is not None:  # compiling and writing count against the budget
                timeout = max(0.05, timeout - (time.monotonic() - started))
            timed_out, retval, out, err = _run(cmd, tmp, timeout)
            plan_text = _read(plan_path)
            log_text = _read(log_path)
        seconds = time.monotonic() - started
        if output_stream is not None:
            streams = output_stream if isinstance(output_stream, tuple) else (
                output_stream, output_stream)
            if streams[0] is not None:
                streams[0].write(out)
            if streams[1] is not None:
                streams[1].write(err)
        logs = [LogMessage(LogLevel.INFO, out)]
        if err:
            logs.append(LogMessage(LogLevel.ERROR, err))
        if log_text:
            logs.append(LogMessage(LogLevel.DEBUG, log_text))
        metrics = {'engine_internal_time': f'{seconds:.3f}', 'search': self._search}

        def result(status: PlanGenerationResultStatus,
                   plan: up.plans.Plan | None = None) -> PlanGenerationResult:
            return PlanGenerationResult(status, plan, engine_name=self.name,
                                        metrics=metrics, log_messages=logs)

        if timed_out:
            return result(PlanGenerationResultStatus.TIMEOUT)
        if _RELAXED_UNSOLVABLE in err:
            # Tarski's grounder proved the goal unreachable even in the delete relaxation.
            return result(PlanGenerationResultStatus.UNSOLVABLE_PROVEN)
        if retval != 0 or not _EXIT.search(out):
            logs.append(LogMessage(
                LogLevel.ERROR, f'LAPKT exited with code {retval} without finishing its search'))
            return result(PlanGenerationResultStatus.INTERNAL_ERROR)
        if _found_plan(out) or _found_plan(log_text):
            try:
                plan = PDDLReader(problem.environment).parse_plan_string(
                    problem, plan_text, writer.get_item_named)
                for back in reversed(back_maps):
                    plan = plan.replace_action_instances(back)
            except (UPException, AssertionError, KeyError) as exc:
                logs.append(LogMessage(LogLevel.ERROR, f'cannot read LAPKT plan: {exc}'))
                return result(PlanGenerationResultStatus.INTERNAL_ERROR)
            return result(PlanGenerationResultStatus.SOLVED_SATISFICING, plan)
        if self._complete():
            return result(PlanGenerationResultStatus.UNSOLVABLE_PROVEN)
        return result(PlanGenerationResultStatus.UNSOLVABLE_INCOMPLETELY)

    def _warn(self, message: str) -> None:
        if self.error_on_failed_checks:
            raise UPException(message)
        import warnings

        warnings.warn(message, stacklevel=3)


def compile_away(
    problem: up.model.Problem, features: set[str] | frozenset[str],
) -> tuple[up.model.Problem, list[Callable[[ActionInstance], ActionInstance | None]]]:
    """Remove ``features`` from ``problem`` with UP's compilers (see ``COMPILATIONS``).

    Returns the compiled problem and the map-back functions, to apply to a plan's action
    instances in reverse order.
    """
    current, back_maps = problem, []
    for kind, removes in COMPILATIONS:
        if not (removes & features & current.kind.features):
            continue
        with problem.environment.factory.Compiler(
                problem_kind=current.kind, compilation_kind=kind) as compiler:
            compiled = compiler.compile(current, kind)
        current = compiled.problem
        back_maps.append(compiled.map_back_action_instance)
    return current, back_maps


def without_effectless_actions(problem: up.model.Problem) -> up.model.Problem:
    """Return ``problem`` without actions that have no effect (they never help a plan).

    UP's quantifier compilation leaves such actions when a ``forall`` effect ranges over a
    type with no objects; the PDDL writer then omits ``:effect``, which Tarski (LAPKT's
    reader) rejects.
    """
    empty = [a for a in problem.actions if isinstance(a, up.model.InstantaneousAction)
             and not a.effects and a.simulated_effect is None]
    if not empty:
        return problem
    pruned = problem.clone()
    kept = [a for a in pruned.actions if a.name not in {e.name for e in empty}]
    pruned.clear_actions()
    pruned.add_actions(kept)
    return pruned


def _found_plan(text: str) -> bool:
    for match in _SOLVED.finditer(text):
        try:
            if float(match.group(1)) < 1e30:
                return True
        except ValueError:
            continue
    return False


def _read(path: str) -> str:
    try:
        with open(path, encoding='utf-8', errors='replace') as handle:
            return handle.read()
    except OSError:
        return ''


def _run(
    cmd: list[str], cwd: str, timeout: float | None, env: dict[str, str] | None = None,
) -> tuple[bool, int, str, str]:
    """Run ``cmd`` in its own session; at the deadline kill the whole process group.

    Returns ``(timed_out, returncode, stdout, stderr)``; the child is always reaped.
    """
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        kill_group(proc)
        try:
            out, err = proc.communicate(timeout=_KILL_GRACE)
        except subprocess.TimeoutExpired:  # a grandchild holds the pipes open
            proc.kill()
            out, err = b'', b''
            proc.wait()
    except BaseException:
        kill_group(proc)
        proc.wait()
        raise
    return timed_out, proc.returncode, _text(out), _text(err)


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the process group led by ``proc`` (started with ``start_new_session``).

    Call it before ``proc`` is reaped, so its pid (the group id) cannot have been reused.
    """
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _text(data: bytes | None) -> str:
    return (data or b'').decode('utf-8', errors='replace')
