# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A unified-planning engine around LAPKT (the ``lapkt`` PyPI package).

LAPKT's planners are C++ objects behind pybind11; they print to the process's stdout and
offer no time limit. :class:`LAPKTPlanner` is therefore a UP :class:`PDDLPlanner` (the
shape of UP's own Fast Downward engine): UP writes the problem as PDDL into a temporary
directory and runs LAPKT's own command-line driver (``lapkt.parseargs.process_arguments``
+ ``lapkt.load_planner.Planner``, i.e. what the package's ``lapkt_cmd.py`` script does)
with this interpreter in a new session, whose process group it terminates at the
deadline, and parses the plan file back. The driver runs as a fork of a warm process
(:mod:`.lapkt_warm`: the same files, output and bounds, without starting Python and
loading LAPKT again), or cold when none is ready. Before that, the features LAPKT's front end
mishandles are compiled away with UP (:func:`compile_away`), inside the same time budget,
and the plan is mapped back onto the original problem.

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
import sys
import tempfile
import time
from collections.abc import Callable
from typing import IO, Any

import unified_planning as up
from unified_planning.engines import CompilationKind, Credits, LogLevel, LogMessage
from unified_planning.engines.pddl_planner import PDDLPlanner
from unified_planning.engines.results import PlanGenerationResult, PlanGenerationResultStatus
from unified_planning.exceptions import UPException
from unified_planning.io import PDDLWriter
from unified_planning.model import ProblemKind
from unified_planning.plans import ActionInstance

from l3mp_ros.planning import lapkt_warm
from l3mp_ros.planning.process import run_killable

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
#: LAPKT's log file, beside the plan file
_LOG = 'lapkt.log'


class LAPKTPlanner(PDDLPlanner):
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
        PDDLPlanner.__init__(self, needs_requirements=True)
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
        self._log_text = ''  # LAPKT's log file of the current call (read beside the plan)
        self._plan_error: str | None = None

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

    # -- solving (UP's PDDLPlanner hooks) ---------------------------------------------

    def _get_cmd(self, domain_filename: str, problem_filename: str,
                 plan_filename: str) -> list[str]:
        # LAPKT writes execution.details into its working directory: make that the temp one
        driver = f'import os\nos.chdir({os.path.dirname(plan_filename)!r})\n{_DRIVER}'
        return [self._python, '-c', driver,
                *self._lapkt_args(domain_filename, problem_filename, plan_filename)]

    def _lapkt_args(self, domain_filename: str, problem_filename: str,
                    plan_filename: str) -> list[str]:
        """Return the driver's arguments: the planner, the files and the search options."""
        planner, _ = SEARCHES[self._search]
        log = os.path.join(os.path.dirname(plan_filename), _LOG)
        args = [planner, '-d', domain_filename, '-p', problem_filename,
                '--plan_file', plan_filename, '--log_file', log]
        if self._search in ('siw-then-bfsf', 'siw'):
            args += ['--iw_bound', str(self._iw_bound or 2)]
        if self._search in ('siw-then-bfsf', 'bfsf', 'bfws') and self._max_novelty:
            args += ['--max_novelty', str(self._max_novelty)]
        if self._search == 'bfws':
            args += ['--search_type', self._bfws_variant]
        return args

    def _plan_from_file(self, problem: up.model.Problem, plan_filename: str,
                        get_item_named: Callable[[str], Any]) -> up.plans.Plan | None:
        """Read the plan (None when unreadable) and LAPKT's log beside it."""
        log = os.path.join(os.path.dirname(plan_filename), _LOG)
        self._log_text = lapkt_warm.read_text(log)
        try:
            return super()._plan_from_file(problem, plan_filename, get_item_named)
        except (UPException, AssertionError, KeyError) as exc:
            self._plan_error = f'cannot read LAPKT plan: {exc}'
            return None

    def _result_status(self, problem: up.model.Problem, plan: up.plans.Plan | None,
                       retval: int, log_messages: list[LogMessage] | None = None,
                       ) -> PlanGenerationResultStatus:
        logs = log_messages if log_messages is not None else []
        out = ''.join(m.message for m in logs if m.level == LogLevel.INFO)
        err = ''.join(m.message for m in logs if m.level == LogLevel.ERROR)
        if _RELAXED_UNSOLVABLE in err:
            # Tarski's grounder proved the goal unreachable even in the delete relaxation.
            return PlanGenerationResultStatus.UNSOLVABLE_PROVEN
        if retval != 0 or not _EXIT.search(out):
            logs.append(LogMessage(
                LogLevel.ERROR, f'LAPKT exited with code {retval} without finishing its search'))
            return PlanGenerationResultStatus.INTERNAL_ERROR
        if _found_plan(out) or _found_plan(self._log_text):
            if plan is None:
                logs.append(LogMessage(LogLevel.ERROR, self._plan_error or 'no LAPKT plan'))
                return PlanGenerationResultStatus.INTERNAL_ERROR
            return PlanGenerationResultStatus.SOLVED_SATISFICING
        if self._complete():
            return PlanGenerationResultStatus.UNSOLVABLE_PROVEN
        return PlanGenerationResultStatus.UNSOLVABLE_INCOMPLETELY

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
        """Compile away what LAPKT mishandles, solve with UP's PDDL driver, map back."""
        assert isinstance(problem, up.model.Problem)
        if heuristic is not None:
            self._warn('LAPKT does not use a custom heuristic; it is ignored')
        started = time.monotonic()
        self._log_text, self._plan_error = '', None
        compiled, back_maps = compile_away(problem, _PRECOMPILED & problem.kind.features)
        compiled = without_effectless_actions(compiled)
        if timeout is not None:  # compiling and writing count against the budget
            timeout = max(0.05, timeout - (time.monotonic() - started))
        res = self._run_lapkt(compiled, timeout, output_stream)
        plan = res.plan if res.status in (PlanGenerationResultStatus.SOLVED_SATISFICING,
                                          PlanGenerationResultStatus.SOLVED_OPTIMALLY) else None
        for back in reversed(back_maps if plan is not None else []):
            plan = plan.replace_action_instances(back)
        logs = list(res.log_messages or [])
        if self._log_text:
            logs.append(LogMessage(LogLevel.DEBUG, self._log_text))
        metrics = {'engine_internal_time': f'{time.monotonic() - started:.3f}',
                   'search': self._search}
        return PlanGenerationResult(res.status, plan, engine_name=self.name, metrics=metrics,
                                    log_messages=logs)

    def _run_lapkt(
        self, problem: up.model.Problem, timeout: float | None,
        output_stream: IO[str] | tuple[IO[str], IO[str]] | None,
    ) -> PlanGenerationResult:
        """Write PDDL, run LAPKT's driver killed as a group at the deadline, read the plan.

        UP's own runner reads the planner's output line by line and only checks the clock
        between lines; a grounder that prints half a line and then works for minutes (a
        whole-KG problem) outlived its deadline by many minutes. Here the deadline is a
        ``communicate`` timeout followed by SIGKILL of the whole session.
        """
        writer = PDDLWriter(problem, self._needs_requirements, self._rewrite_bool_assignments)
        with tempfile.TemporaryDirectory() as tmp:
            domain, task = os.path.join(tmp, 'domain.pddl'), os.path.join(tmp, 'problem.pddl')
            plan_file = os.path.join(tmp, 'plan.txt')
            writer.write_domain(domain)
            writer.write_problem(task)
            started = time.monotonic()
            ran = lapkt_warm.run(self._python, self._lapkt_args(domain, task, plan_file),
                                 tmp, timeout)
            if ran is None:  # no warm process (busy, off, failed): LAPKT's driver, cold
                for stale in (plan_file, os.path.join(tmp, _LOG)):  # a failed warm child's
                    _remove(stale)
                left = None if timeout is None else max(
                    0.05, timeout - (time.monotonic() - started))
                ran = run_killable(self._get_cmd(domain, task, plan_file), tmp, left)
            timed_out, retval, out, err = ran
            seconds = time.monotonic() - started
            streams = (output_stream if isinstance(output_stream, tuple)
                       else (output_stream, output_stream))
            for stream, text in zip(streams, (out, err), strict=True):
                if stream is not None and text:
                    stream.write(text)
            logs = [LogMessage(LogLevel.INFO, out), LogMessage(LogLevel.ERROR, err)]
            plan = (self._plan_from_file(problem, plan_file, writer.get_item_named)
                    if os.path.isfile(plan_file) else None)
            if plan is None:
                self._log_text = lapkt_warm.read_text(os.path.join(tmp, _LOG))
        if timed_out:
            logs.append(LogMessage(LogLevel.ERROR, f'LAPKT killed at its {timeout:.1f} s limit'))
            status = PlanGenerationResultStatus.TIMEOUT
            plan = None
        else:
            status = self._result_status(problem, plan, retval, logs)
        return PlanGenerationResult(status, plan, engine_name=self.name, log_messages=logs,
                                    metrics={'engine_internal_time': f'{seconds:.3f}'})

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
    # UP recomputes a problem's kind on every access (~30 ms here): once per problem
    current_kind = current.kind if features else None
    for kind, removes in COMPILATIONS:
        if current_kind is None or not (removes & features & current_kind.features):
            continue
        with problem.environment.factory.Compiler(
                problem_kind=current_kind, compilation_kind=kind) as compiler:
            compiled = compiler.compile(current, kind)
        current = compiled.problem
        current_kind = current.kind
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


def _remove(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
