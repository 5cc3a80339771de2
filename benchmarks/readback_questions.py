# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: how well does a yes/no read-back tell right statements from wrong ones?

Two steps, both resumable (one JSON row per item under ``--out``):

1. **collect**: every report of each set is run through the update pipeline on the gold
   state before it (an ``evaluate.py`` set directory: the reports one after another; an
   ``nl_reports.py`` set: each on the initial state). Every yes/no read-back the pipeline
   asks is kept with its statement, the report part it was asked about, P(yes) and whether
   the gold change has the fact (``readbacks.jsonl``).
2. **ask**: each kept statement is asked again in a question form (``--form``) and scored:
   right statements read "yes", wrong ones read "yes", and the AUC of P(yes) (or, for
   ``contrast``, of P(yes) minus P(yes) of the opposite statement), per set.

Forms: ``statement`` (the pipeline's own: "Statement: ..."), ``question`` ("Question:
after the report, is it true that ...?"), ``contrast`` (the statement against its
opposite, "is still ..." / "is not ...")::

    python benchmarks/readback_questions.py ../shared/eval/warehouse ../shared/eval/lab \\
        benchmarks/data/office_reports.json benchmarks/data/ward_reports.json \\
        --form statement --form question --out out/readback_questions

``--llm URL --model M`` measures another model the same way (docs/decisions.md, issue 45).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

from runlog import RunLog
from state_questions import load_set

from l3mp_ros import compose
from l3mp_ros.agent.report.read_back import read_back_question, report_head
from l3mp_ros.config import Config
from l3mp_ros.llm.prompting import ask_yes_no, yes_probability

FORMS = ('statement', 'question', 'contrast')


def collect(sets: list[Path], llm_url: str, model: str, log: RunLog, limit: int = 0) -> None:
    """Run every report on the gold state before it; keep each yes/no read-back, labelled."""
    llm = None
    for path in sets:
        name = path.name if path.is_dir() else path.stem
        cfg, items = load_set(path)  # (text, state before, gold, reject) per report
        cfg = dataclasses.replace(cfg, llm_url=llm_url, llm_model=model)
        domain = compose.load_domain(cfg)
        for i, (text, kg, gold, _) in enumerate(items, 1):
            key = f'{name}:{i}'
            if limit and i > limit:
                break
            if key in log.done:
                continue
            llm = llm or compose.make_llm(cfg, lazy=False)
            world = compose.open_world(cfg, domain, kg=kg.copy())
            out = compose.build_agent(cfg, world, llm).updater.run(text)
            said = {True: {f.triplet() for f in gold.remove},
                    False: {f.triplet() for f in gold.add}}
            read = [{'claim': h['confirm'], 'part': h.get('part'), 'fact': h['fact'],
                     'removed': h['removed'], 'p_yes': h.get('p_yes'),
                     'right': tuple(h['fact']) in said[bool(h['removed'])]}
                    for h in out.history if 'confirm' in h]
            log.add({'i': key, 'set': name, 'text': text, 'applied': out.applied,
                     'readbacks': read})
            print(f'{key:24s} {len(read)} read-back(s) {text[:60]}', flush=True)


def opposite(claim: str) -> str | None:
    """Return the statement's opposite: "is now X" → "is not X", "no longer" → "still"."""
    if ' no longer ' in claim:
        return claim.replace(' no longer ', ' still ', 1)
    if ' now ' in claim:
        return claim.replace(' now ', ' not ', 1)
    return None


def question(form: str, text: str, part: str | None, claim: str) -> str:
    """Return the read-back's user message in ``form`` (the pipeline's own for statement)."""
    if form == 'question':
        return (f'{report_head(text, part)}Question: after the report, is it true that '
                f'{claim}?\nAnswer:')
    return read_back_question(text, part, claim)


def auc(pos: list[float], neg: list[float]) -> float:
    """Return the probability that a right statement scores above a wrong one."""
    if not pos or not neg:
        return float('nan')
    return sum((p > n) + 0.5 * (p == n) for p in pos for n in neg) / (len(pos) * len(neg))


def ask(form: str, collected: RunLog, llm: Any, log: RunLog) -> list[dict[str, Any]]:
    """Ask every kept statement in ``form``; return the scored rows."""
    def p_yes(q: str) -> float:
        _, reply = ask_yes_no(llm, 'confirm', q)
        p = yes_probability(reply)
        return 0.5 if p is None else p
    for row in collected.rows:
        for k, r in enumerate(row['readbacks']):
            key = f"{row['i']}:{k}"
            if key in log.done:
                continue
            base = 'question' if form == 'question' else 'statement'
            p = p_yes(question(base, row['text'], r['part'], r['claim']))
            other = opposite(r['claim']) if form == 'contrast' else None
            c = p_yes(question(base, row['text'], r['part'], other)) if other else None
            log.add({'i': key, 'set': row['set'], 'claim': r['claim'], 'right': r['right'],
                     'p_yes': p, 'p_opposite': c, 'p_pipeline': r['p_yes']})
    return log.rows


def score(form: str, rows: list[dict[str, Any]]) -> list[str]:
    """Return one line per set: right read yes, wrong read yes, AUC."""
    def value(r: dict[str, Any]) -> float:
        if form == 'contrast':
            return r['p_yes'] - (r['p_opposite'] if r['p_opposite'] is not None else 0.5)
        return r['p_yes']
    bar = 0.0 if form == 'contrast' else 0.5
    lines = []
    for name in sorted({r['set'] for r in rows}):
        pos = [value(r) for r in rows if r['set'] == name and r['right']]
        neg = [value(r) for r in rows if r['set'] == name and not r['right']]
        lines.append(f'{form:10s} {name:16s} right read yes {sum(v > bar for v in pos)}/'
                     f'{len(pos)}  wrong read yes {sum(v > bar for v in neg)}/{len(neg)}  '
                     f'AUC {auc(pos, neg):.3f}')
    return lines


def main(argv: list[str] | None = None) -> int:
    """Collect the read-backs of the sets, then score each form."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('sets', nargs='+', type=Path)
    ap.add_argument('--form', action='append', choices=FORMS,
                    help='question form to score (repeatable; default: statement)')
    ap.add_argument('--llm', default='', help='OpenAI-compatible URL (default: embedded)')
    ap.add_argument('--model', default='local')
    ap.add_argument('--limit', type=int, default=0, help='first N reports of each set')
    ap.add_argument('--out', type=Path, default=Path('out/readback_questions'))
    args = ap.parse_args(argv)
    collected = RunLog(args.out, 'readbacks')
    collect(args.sets, args.llm, args.model, collected, args.limit)
    llm = compose.make_llm(Config(store='', llm_url=args.llm, llm_model=args.model), lazy=False)
    lines = []
    for form in args.form or ['statement']:
        lines += score(form, ask(form, collected, llm, RunLog(args.out, f'form_{form}')))
    (args.out / 'summary.txt').write_text('\n'.join(lines) + '\n')
    print('\n'.join(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
