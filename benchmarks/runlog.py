# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A resumable benchmark run: one JSON row per item in ``<out>/<name>.jsonl``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class RunLog:
    """The rows of a run so far; :meth:`add` appends one, :meth:`finish` the summary."""

    def __init__(self, out: Path, name: str) -> None:
        out.mkdir(parents=True, exist_ok=True)
        self.out = out
        self.path = out / f'{name}.jsonl'
        self.rows: list[dict[str, Any]] = ([json.loads(line) for line in
                                            self.path.read_text().splitlines()]
                                           if self.path.exists() else [])
        self.done = {r['i'] for r in self.rows}

    def add(self, row: dict[str, Any]) -> None:
        """Keep one item's row (on disk at once: a rerun resumes after it)."""
        self.rows.append(row)
        self.done.add(row['i'])
        with self.path.open('a') as fh:
            fh.write(json.dumps(row) + '\n')

    def finish(self, line: str) -> None:
        """Write and print the run's summary line."""
        (self.out / 'summary.txt').write_text(line + '\n')
        print(line)


def p95(values: list[float]) -> float:
    """Return the 95th percentile (nearest rank) of sorted ``values``."""
    return values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
