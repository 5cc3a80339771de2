# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What one check of a pipeline rules, and the shape every check has.

A check (:class:`Check`) has a name (its timing stage and its history entry), the
setting that switches it (a field of the pipeline's settings; None: always on), a test
of whether it applies to what is being read, and a :meth:`Check.judge` that returns a
:class:`Ruling`:

- ``PASS``: nothing to say;
- ``AMEND``: the reading goes on with a changed value (``value``) and ``notes``;
- ``REJECT``: ``errors`` (sent back to the model as the re-prompt, where the loop may);
- ``STOP``: the reading ends with ``verdict`` (no change, a restatement) and ``errors``;
- ``SKIP``: what is read changes nothing, as it says: the reading goes on without it;
- ``ASK``: the speaker is asked ``question`` before anything is written.

Any ruling may bar facts from the next answer (``barred``) and record why the reading is
in doubt (``doubts``). The lists the loops run are in :mod:`.pipeline`; a check is run
through :func:`judge`, which times it and notes in the trace what it did (``Trace.checks``),
and may be switched off by name (``skip_checks``, for ablations).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from ...stages import stage
from ...world.kg import Fact
from .attempts import Trace, Verdict

R = TypeVar('R', contravariant=True)


class Act(StrEnum):
    """What a ruling does to the reading."""

    PASS = 'pass'
    AMEND = 'amend'
    REJECT = 'reject'
    STOP = 'stop'
    SKIP = 'skip'
    ASK = 'ask'


@dataclass
class Ruling:
    """One check's ruling (see the module docstring)."""

    act: Act = Act.PASS
    #: AMEND: the changed value; STOP: the value the verdict keeps; ASK: the pending
    #: question's JSON. Any: each family amends with its own type (a draft with an Update or
    #: a Completion, a part with a Judged, a report with a Completion, a goal with a str or
    #: a Planned), and the reading that takes the ruling knows which (``take``).
    value: Any = None
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    barred: set[Fact] = field(default_factory=set)
    doubts: list[str] = field(default_factory=list)  # why the reading is in doubt
    verdict: Verdict | None = None  # STOP
    question: str | None = None  # ASK: the sentence the speaker is asked

    @classmethod
    def amend(cls, value: Any, notes: Iterable[str] = (), doubt: str | None = None
              ) -> Ruling:
        """Return a ruling that goes on with ``value`` (Any: see :attr:`value`)."""
        return cls(Act.AMEND, value, notes=list(notes), doubts=[doubt] if doubt else [])

    @classmethod
    def reject(cls, errors: Iterable[str], barred: Iterable[Fact] = ()) -> Ruling:
        """Return a ruling that refuses the reading with ``errors``."""
        return cls(Act.REJECT, errors=list(errors), barred=set(barred))

    @classmethod
    def stop(cls, verdict: Verdict, value: Any, errors: Iterable[str]) -> Ruling:
        """Return a ruling that ends the reading with ``verdict`` (Any: see :attr:`value`)."""
        return cls(Act.STOP, value, errors=list(errors), verdict=verdict)


class Check(Protocol, Generic[R]):
    """One check of a pipeline: small, with one job."""

    name: str  # its timing stage and history entry
    setting: str | None  # the settings field that switches it; None: always on

    def applies(self, reading: R) -> bool:
        """Tell whether the check has anything to judge in ``reading``."""
        ...

    def judge(self, reading: R) -> Ruling:
        """Return the check's ruling on ``reading``."""
        ...


class Judgeable(Protocol):
    """What a pipeline's checks read: it takes each ruling (:meth:`take`)."""

    def take(self, ruling: Ruling) -> None:
        """Apply ``ruling`` to what is being read."""
        ...


J = TypeVar('J', bound=Judgeable)

#: rulings after which no later check of the list runs
ENDS = frozenset({Act.STOP, Act.SKIP, Act.ASK})


def run(checks: Sequence[Check[J]], reading: J, settings: object, trace: Trace) -> None:
    """Run a pipeline: each enabled check that applies judges ``reading``, in order.

    The one loop of Algorithms 3 and 4: each ruling is timed and counted (:func:`judge`)
    and taken by ``reading``; a ``STOP``, ``SKIP`` or ``ASK`` ends the list (the reading
    ends, changes nothing, or waits on the speaker), the others go on to the next check,
    which sees the reading as the rulings before it left it.
    """
    for check in checks:
        if not enabled(check, settings) or not check.applies(reading):
            continue
        ruling = judge(check, reading, trace)
        reading.take(ruling)
        if ruling.act in ENDS:
            return


def enabled(check: Check[Any], settings: object) -> bool:
    """Tell whether ``settings`` switch ``check`` on (its setting, and not skipped by name)."""
    if check.name in getattr(settings, 'skip_checks', ()):
        return False
    return check.setting is None or bool(getattr(settings, check.setting))


def judge(check: Check[J], reading: J, trace: Trace) -> Ruling:
    """Return ``check``'s ruling on ``reading``, timed as its stage, noted in ``trace``.

    A ruling other than a bare pass (no notes, doubts or barred facts), or any LLM call
    made while judging, is counted under the check's name (``Trace.checks``).
    """
    calls = trace.usage.calls
    with stage(check.name):
        ruling = check.judge(reading)
    spent = trace.usage.calls - calls
    if spent or ruling.act is not Act.PASS or ruling.notes or ruling.barred or ruling.doubts:
        seen = trace.checks.setdefault(check.name, {'rulings': 0, 'calls': 0})
        seen['rulings'] += 1
        seen['calls'] += spent
    return ruling
