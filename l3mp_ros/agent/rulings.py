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
in doubt (``doubts``). The lists the loops run are in :mod:`.pipeline`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from ..world.kg import Fact
from .attempts import Verdict

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
    value: Any = None  # AMEND: the changed value; STOP: the value the verdict keeps
    errors: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    barred: set[Fact] = field(default_factory=set)
    doubts: list[str] = field(default_factory=list)  # why the reading is in doubt
    verdict: Verdict | None = None  # STOP
    question: Any = None  # ASK

    @classmethod
    def amend(cls, value: Any, notes: Iterable[str] = (), doubt: str | None = None
              ) -> Ruling:
        """Return a ruling that goes on with ``value``."""
        return cls(Act.AMEND, value, notes=list(notes), doubts=[doubt] if doubt else [])

    @classmethod
    def reject(cls, errors: Iterable[str], barred: Iterable[Fact] = ()) -> Ruling:
        """Return a ruling that refuses the reading with ``errors``."""
        return cls(Act.REJECT, errors=list(errors), barred=set(barred))

    @classmethod
    def stop(cls, verdict: Verdict, value: Any, errors: Iterable[str]) -> Ruling:
        """Return a ruling that ends the reading with ``verdict``."""
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


def enabled(check: Any, settings: Any) -> bool:
    """Tell whether ``settings`` switch ``check`` on."""
    return check.setting is None or bool(getattr(settings, check.setting))
