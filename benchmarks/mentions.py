# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: what mention resolution makes of every text of a set, and what a change moved.

Mention resolution (:mod:`l3mp_ros.retrieval.mentions`) decides which entities a report,
task or question may be about; a change to it changes prompts everywhere. This prints, for
every report of a set (read on the gold state just before it, as ``evaluate.py`` does) and
every task and question of an eval-set directory (on ``state_after_updates.json``), the
mentions and their candidates; ``--out`` keeps them as JSON and ``--against OLD.json``
lists only the texts whose resolution differs from an earlier dump. No LLM::

    python benchmarks/mentions.py ../shared/eval/lab ../shared/eval/warehouse \\
        benchmarks/data/office_reports.json benchmarks/data/ward_reports.json --out before.json
    # ... change retrieval/mentions.py or retrieval/narrowing.py ...
    python benchmarks/mentions.py ../shared/eval/lab ... --against before.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from state_questions import load_set

from l3mp_ros import compose
from l3mp_ros.retrieval.mentions import resolve
from l3mp_ros.world.kg import KnowledgeGraph


def texts_of(path: Path) -> tuple[Any, list[tuple[str, str, KnowledgeGraph]]]:
    """Return the domain and (key, text, state) of every report, task and question."""
    cfg, reports = load_set(path)
    domain = compose.load_domain(cfg).schema
    out = [(f'{path.name}:report:{i}', text, kg) for i, (text, kg, _, _) in
           enumerate(reports, 1)]
    after = path / 'state_after_updates.json'
    if path.is_dir() and after.is_file():
        kg = KnowledgeGraph.from_json(json.loads(after.read_text()))
        for part in ('nl_tasks', 'questions'):
            items = json.loads((path / f'{part}.json').read_text())
            out += [(f'{path.name}:{part}:{i}', it['text'], kg) for i, it in
                    enumerate(items, 1)]
    return domain, out


def dump(paths: list[Path]) -> dict[str, list[Any]]:
    """Return {key: [text, [[surface, candidates], ...]]} for every text of the sets."""
    got: dict[str, list[Any]] = {}
    for path in paths:
        domain, items = texts_of(path)
        for key, text, kg in items:
            ms = resolve(kg, text, steady=domain.static_predicates(),
                         predicates=domain.predicates)
            got[key] = [text, [[m.surface, m.candidates] for m in ms]]
    return got


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('sets', nargs='+', type=Path,
                    help='eval-set directories or l3mp/nl_reports/v1 files')
    ap.add_argument('--out', type=Path, help='write the resolution of every text as JSON')
    ap.add_argument('--against', type=Path, help='an earlier --out: print what differs')
    a = ap.parse_args(argv)
    got = dump(a.sets)
    if a.out:
        a.out.write_text(json.dumps(got, indent=0) + '\n')
    if a.against:
        old = json.loads(a.against.read_text())
        moved = [k for k in got if k in old and old[k] != got[k]]
        for k in moved:
            print(f'{k}  {got[k][0]}\n  before {old[k][1]}\n  now    {got[k][1]}')
        print(f'{len(moved)} of {len(got)} texts resolve differently')
    else:
        for k, (text, ms) in got.items():
            print(f'{k}  {text}\n  {ms}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
