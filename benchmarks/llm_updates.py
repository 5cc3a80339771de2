# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: an LLM's accuracy on generated household reports through Algorithm 3.

Each report of a generated change stream goes through the real pipeline (retriever,
prompt, verifier, re-prompts) against a KG equal to the ground truth before the change,
so errors do not compound; a report is correct when the applied diff equals the gold diff.
Defaults to the embedded local model; ``--llm URL --model M`` for a hosted one.
``python benchmarks/llm_updates.py --reports 20 --retriever search --out out/llm_updates``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from l3mp_ros import compose
from l3mp_ros.config import Config
from l3mp_ros.world.model import WorldModel
from l3mp_ros_bench.household.generator import StreamGenerator
from l3mp_ros_bench.household.household import generate_household, household_domain


def main() -> None:
    """Run the reports and print per-report results and totals."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--reports', type=int, default=20)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--retriever', default='link', choices=('full', 'select', 'search', 'link'))
    ap.add_argument('--no-verify', action='store_true')
    ap.add_argument('--no-confirm', action='store_true', help='no yes/no re-reading')
    ap.add_argument('--attempts', type=int, default=3)
    ap.add_argument('--llm', default=None, help='OpenAI-compatible URL (default: embedded)')
    ap.add_argument('--model', default='local')
    ap.add_argument('--cache', default='out/llm-cache')
    ap.add_argument('--out', type=Path, default=Path('out/llm_updates'))
    args = ap.parse_args()
    domain, constraints, _ = household_domain()
    house = generate_household(args.seed)
    gen = StreamGenerator(house, args.seed, task_every=10 ** 9)
    truth = house.kg.copy()
    cfg = Config(store='', llm_url=args.llm or '', llm_model=args.model,
                 llm_cache=args.cache or '', retriever=args.retriever,
                 max_attempts=args.attempts, verify=not args.no_verify,
                 confirm=not args.no_confirm)
    llm = compose.make_llm(cfg, lazy=False)
    retriever = compose.make_retriever(cfg)
    rows = []
    began = time.perf_counter()
    for i in range(args.reports):
        step = gen.next_step(truth, kind='change')
        world = WorldModel(domain, constraints, kg=truth.copy())
        agent = compose.build_agent(cfg, world, llm, retriever=retriever)
        out = agent.updater.run(step.text)
        truth.apply(step.diff)
        correct = out.applied and out.update == step.diff
        rows.append({'i': i, 'kind': step.subkind, 'text': step.text, 'applied': out.applied,
                     'correct': correct, 'attempts': out.attempts,
                     'prompt_tokens': out.usage.prompt_tokens,
                     'completion_tokens': out.usage.completion_tokens,
                     'seconds': round(out.seconds, 2), 'errors': out.errors[:3],
                     'gold': step.diff.to_json(),
                     'got': out.update.to_json() if out.update else None})
        print(f'{i:>3} {"OK " if correct else ("app" if out.applied else "rej")} '
              f'{step.subkind:<16} att={out.attempts} {out.seconds:6.1f}s  {step.text}',
              flush=True)
    n = len(rows)
    summary = {
        'model': args.model if args.llm else 'embedded Qwen2.5-Coder-1.5B-Instruct Q4_K_M',
        'retriever': args.retriever, 'verify': not args.no_verify, 'reports': n,
        'correct': sum(r['correct'] for r in rows) / n,
        'applied': sum(r['applied'] for r in rows) / n,
        'wrong_applied': sum(r['applied'] and not r['correct'] for r in rows) / n,
        'mean_attempts': sum(r['attempts'] for r in rows) / n,
        'prompt_tokens_per_report': sum(r['prompt_tokens'] for r in rows) / n,
        'completion_tokens_per_report': sum(r['completion_tokens'] for r in rows) / n,
        'wall_s': round(time.perf_counter() - began, 1),
    }
    print(json.dumps(summary, indent=2))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / 'llm_updates.json').write_text(json.dumps({'summary': summary, 'rows': rows},
                                                          indent=1))


if __name__ == '__main__':
    main()
