# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: one yes/no call per statement, or one call for all of a part's statements?

Reads the read-backs of ``benchmarks/nl_reports.py`` runs (each ``confirm`` step keeps the
report, the part, the statement, its P(yes) and whether the gold change has it), asks the
statements of each report part again in ONE call (:func:`l3mp_ros.llm.prompting.
ask_yes_no_each`, each answer's own token odds), and prints, on the same statements, the
AUROC of right vs wrong and the yes/no agreement with the gold change, one call each
against one call for all, with the calls each way::

    python benchmarks/readback_batch.py out/lab out/retail --cache /tmp/batch_cache
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from readback_odds import read_backs
from sklearn.metrics import roc_auc_score

from l3mp_ros import compose
from l3mp_ros.agent.report.read_back import report_head
from l3mp_ros.config import Config
from l3mp_ros.llm.prompting import ask_yes_no_each


def groups(path: Path) -> dict[tuple[str, str | None], list[dict]]:
    """Return the read-back rows of a run by (report, part), each statement once."""
    import json

    texts = {json.loads(line)['i']: json.loads(line)['text']
             for line in path.read_text().splitlines()}
    parts = {}
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        for step in rec.get('history') or []:
            if 'confirm' in step:
                parts[(rec['i'], step['confirm'])] = step.get('part')
    out: dict[tuple[str, str | None], list[dict]] = defaultdict(list)
    for row in read_backs(path):
        key = (texts[row['report']], parts.get((row['report'], row['statement'])))
        if all(r['statement'] != row['statement'] for r in out[key]):
            out[key].append(row)
    return out


def main(argv: list[str] | None = None) -> int:
    """Ask each part's statements in one call; compare with one call each."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('runs', nargs='+', type=Path, help='nl_reports.py --out directories')
    ap.add_argument('--llm', default='local')
    ap.add_argument('--model', default='local')
    ap.add_argument('--cache', default='', help='directory of cached LLM replies')
    args = ap.parse_args(argv)
    llm = compose.make_llm(Config(llm_url='' if args.llm == 'local' else args.llm,
                                  llm_model=args.model, llm_cache=args.cache), lazy=False)
    pooled = []
    for run in args.runs:
        rows, calls_each, calls_one = [], 0, 0
        for (text, part), got in groups(run / 'reports.jsonl').items():
            yes, odds, _ = ask_yes_no_each(llm, 'confirm_all', report_head(text, part),
                                           [r['statement'] for r in got])
            calls_each += len(got)
            calls_one += 1
            for r, y, p in zip(got, yes, odds, strict=True):
                rows.append({**r, 'yes_one': y, 'p_one': p})
        pooled += rows
        _print(run.name, rows, calls_each, calls_one)
    if len(args.runs) > 1:
        _print('all', pooled, 0, 0)
    return 0


def _print(name: str, rows: list[dict], each: int, one: int) -> None:
    labels = [r['right'] for r in rows]
    scored = [r for r in rows if r['p_one'] is not None]
    both = len(set(labels)) == 2 and len(scored) == len(rows)
    auc_each = roc_auc_score(labels, [r['p_yes'] for r in rows]) if both else float('nan')
    auc_one = roc_auc_score(labels, [r['p_one'] for r in rows]) if both else float('nan')
    agree_each = sum(r['yes'] == r['right'] for r in rows)
    agree_one = sum(r['yes_one'] == r['right'] for r in rows)
    calls = f'; calls {each} each vs {one} for all' if each else ''
    print(f'{name}: {len(rows)} statements ({sum(labels)} right): AUROC one call each '
          f'{auc_each:.3f}, one for all {auc_one:.3f}; yes/no as gold {agree_each} vs '
          f'{agree_one}{calls}')


if __name__ == '__main__':
    sys.exit(main())
