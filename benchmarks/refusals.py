# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Count false refusals per grounding rule in oracle runs of the household benchmark.

With the oracle in place of the LLM every answer is right, so every error sentence a step
ends with is a right answer refused. Reads the ``steps.jsonl`` of each variant under the
given ``l3mp bench household --oracle --out`` directories and prints, per variant, how many
steps each rule refused (a step counts once per rule) and the re-prompts spent. Usage::

    python benchmarks/refusals.py out/oracle/seed0 out/oracle/seed7 [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

# rule -> what its sentences say (first match wins)
RULES: list[tuple[str, re.Pattern[str]]] = [(name, re.compile(rx)) for name, rx in [
    ('not in the given facts', r'it is not one of the facts given'),
    ('entity not given', r'is not among the entities given'),
    ('relevance (not mentioned)', r'which the report does not mention'),
    ('part scope', r'is not about anything'),
    ('unknown name', r'which no entity of the world model carries'),
    ('read-back', r'the model does not read|asked again'),
    ('choice', r'does not settle on one'),
    ('restated / no change', r'already holds: no change|states no change'),
    ('exactly-one / rules', r'would have (none|\d+) of|would be both|would hold without'),
    ('reconcile (goal)', r'cannot both hold \(rule'),
    ('goal about other things', r'the goal names .* but the task is about'),
    ('verifier (other)', r'cannot (REMOVE|ADD)|unknown (entity|predicate)|argument'),
    ('planner', r'no plan|unsolvable|timeout|already'),
]]


def rule_of(sentence: str) -> str:
    """Return the rule an error sentence comes from."""
    for name, rx in RULES:
        if rx.search(sentence):
            return name
    return 'other'


def count(run: Path) -> dict[str, dict[str, int]]:
    """Return ``{variant: {rule: refused steps, ...}}`` for one output directory."""
    out: dict[str, dict[str, int]] = {}
    for steps in sorted(run.glob('*/steps.jsonl')):
        c: Counter[str] = Counter()
        for line in steps.read_text(encoding='utf-8').splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            c['steps'] += 1
            c['reprompts'] += int(rec.get('reprompts') or 0)
            wrong = (not rec.get('diff_correct') if rec['kind'] == 'change'
                     else not rec.get('success'))
            if wrong:
                c['wrong steps'] += 1
            for rule in {rule_of(e) for e in rec.get('errors') or []}:
                c[rule] += 1
        out[steps.parent.name] = dict(c)
    return out


def main(argv: list[str] | None = None) -> int:
    """Print one table per run directory."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('runs', nargs='+', type=Path)
    ap.add_argument('--json', type=Path, default=None)
    args = ap.parse_args(argv)
    total: dict[str, Counter[str]] = defaultdict(Counter)
    everything = {}
    for run in args.runs:
        got = count(run)
        everything[str(run)] = got
        for variant, c in got.items():
            total[variant].update(c)
    rules = ['steps', 'wrong steps', 'reprompts', *[n for n, _ in RULES], 'other']
    variants = sorted(total)
    print('| rule | ' + ' | '.join(variants) + ' |')
    print('|---|' + '---|' * len(variants))
    for rule in rules:
        if any(total[v].get(rule) for v in variants) or rule in ('steps', 'wrong steps'):
            print(f'| {rule} | ' + ' | '.join(str(total[v].get(rule, 0)) for v in variants)
                  + ' |')
    if args.json:
        args.json.write_text(json.dumps(everything, indent=1))
    return 0


if __name__ == '__main__':
    sys.exit(main())
