# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""One calibrated decision over a reading's signals: write it, or ask the speaker first.

A reading carries signals that cost no call beyond those it made: the read-back's least
P(yes) (``confidence``), the answer call's own slot odds and the mass they put outside
the schema (:mod:`.slot_odds`), whether the answer had to be asked again, the things the
report names that no fact of the reading names, and the parts that changed nothing. A
logistic model over them, fitted on report sets (``benchmarks/fit_decision.py``, shipped
as ``config/decision.json``), gives P(the reading is right); the robot asks when it is
below the fitted ``ask_below``, set by selective risk control on held-out sets.

The features are read from a record (``UpdateOutcome.to_json()`` or a
``benchmarks/nl_reports.py`` row: the same names), so the fit and the robot read them
the same way.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ['FEATURES', 'ReadingDecision', 'features']


def _logit(p: float | None, missing: float = 1.0) -> float:
    p = min(max(missing if p is None else float(p), 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def _outside(rec: Mapping[str, Any]) -> float:
    return max((s[2] for f in rec.get('fact_odds') or [] for s in f['slots']), default=0.0)


#: name → how it is read from a record; a missing signal reads as "no doubt from it"
FEATURES: dict[str, Callable[[Mapping[str, Any]], float]] = {
    'slot': lambda r: _logit(r.get('slot_odds')),
    'outside': _outside,
    'readback': lambda r: _logit(r.get('confidence'), 0.95),
    'read': lambda r: float(r.get('confidence') is not None),
    'again': lambda r: float((r.get('attempts') or 1) > 1),
    'facts': lambda r: float(len(r.get('fact_odds') or [])),
    'unaccounted': lambda r: float(len(r.get('unaccounted') or [])),
    'parts_left': lambda r: float((r.get('parts') or 0) - (r.get('parts_read') or 0)),
}


def features(rec: Mapping[str, Any], names: tuple[str, ...]) -> list[float]:
    """Return the record's features, in ``names`` order."""
    return [FEATURES[n](rec) for n in names]


@dataclass(frozen=True)
class ReadingDecision:
    """A fitted logistic decision: P(right) of a reading, and the bar below which to ask."""

    names: tuple[str, ...]
    coef: tuple[float, ...]
    intercept: float
    ask_below: float

    @classmethod
    def load(cls, path: Path) -> ReadingDecision:
        """Read a fit written by ``benchmarks/fit_decision.py --out``; ValueError if bad."""
        try:
            data = json.loads(Path(path).read_text())
            names = tuple(str(n) for n in data['features'])
            coef = tuple(float(c) for c in data['coef'])
            out = cls(names, coef, float(data['intercept']), float(data['ask_below']))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f'{path}: not a reading decision ({exc})') from exc
        unknown = [n for n in names if n not in FEATURES]
        if unknown or len(coef) != len(names):
            raise ValueError(f'{path}: features {unknown or names} do not match its '
                             f'{len(coef)} coefficients')
        return out

    def p_right(self, rec: Mapping[str, Any]) -> float:
        """Return P(the reading is right) for a record."""
        z = self.intercept + sum(c * x for c, x in zip(self.coef, features(rec, self.names),
                                                       strict=True))
        return 1.0 / (1.0 + math.exp(-z))

    def asks(self, rec: Mapping[str, Any]) -> bool:
        """Tell whether the reading is asked about before it is written."""
        return self.p_right(rec) < self.ask_below
