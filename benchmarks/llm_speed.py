# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: the embedded server's speed on recorded requests, per server setting.

Replays the requests of an LLM reply cache (``--cache`` / ``L3MP_LLM_CACHE`` of any run:
each entry keeps its messages, schema and max_tokens) in the order they were first made,
against a fresh embedded server per setting (``--speculative none ngram-simple ...``
times ``--repack on off``, llama.cpp's repacked CPU weight layout, times ``--spin 0
20000``, OpenMP spins before a waiting thread sleeps), with no saved
prefix restored, and reports per setting: seconds per call (p50 / p95 / total), prompt
tokens evaluated and cached (llama.cpp's ``timings``), prompt and generation speed, and
how many replies are byte-identical to the recorded ones (greedy decoding: a faster
setting must not change answers)::

    python benchmarks/llm_speed.py --cache out/llmcache --limit 60 \\
        --speculative none ngram-simple ngram-map-k --out out/llm_speed
    python benchmarks/llm_speed.py --cache out/llmcache --limit 0 \\
        --speculative none --repack on off --out out/llm_layout

Run it on an otherwise idle machine: it measures time.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from pathlib import Path

import openai
from runlog import p95

from l3mp_ros.llm.local_server import LocalServer
from l3mp_ros.llm.local_settings import DEFAULT_REPACK, DEFAULT_SPIN, SPECULATIVE


def recorded(cache: Path, limit: int) -> list[dict]:
    """Return the cache's entries in the order they were made (first ``limit``)."""
    rows = []
    for path in cache.glob('*.json'):
        try:
            rec = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if isinstance(rec.get('request'), dict) and rec['request'].get('messages'):
            rows.append(rec)
    rows.sort(key=lambda r: r.get('created', 0))
    return rows[:limit] if limit else rows


def replay(rows: list[dict], speculative: str, repack: bool, spin: int) -> list[dict]:
    """Send every recorded request to a fresh server; return one measurement per call."""
    out = []
    with LocalServer(speculative=speculative, repack=repack, spin=spin,
                     prefixes=False) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key='none', max_retries=0,
                               timeout=600)
        for rec in rows:
            req = rec['request']
            extra = {}
            if req.get('schema') is not None:
                extra['response_format'] = {'type': 'json_schema', 'json_schema': {
                    'name': 'reply', 'schema': req['schema'], 'strict': True}}
            began = time.perf_counter()
            resp = client.chat.completions.create(
                model='local', messages=req['messages'], temperature=0.0, seed=0,
                max_tokens=req['max_tokens'], **extra)
            seconds = time.perf_counter() - began
            timings = (resp.model_extra or {}).get('timings') or {}
            text = resp.choices[0].message.content or ''
            out.append({'seconds': seconds, 'prompt_n': timings.get('prompt_n', 0),
                        'cache_n': timings.get('cache_n', 0),
                        'predicted_n': timings.get('predicted_n', 0),
                        'predicted_ms': timings.get('predicted_ms', 0.0),
                        'prompt_ms': timings.get('prompt_ms', 0.0),
                        'draft_n': timings.get('draft_n', 0),
                        'draft_accepted': timings.get('draft_n_accepted', 0),
                        'same': text == rec['text']})
    return out


def summary(mode: str, rows: list[dict]) -> str:
    """Return the one-line summary of one setting."""
    secs = [r['seconds'] for r in rows]
    gen_ms = sum(r['predicted_ms'] for r in rows)
    gen = sum(r['predicted_n'] for r in rows)
    read_ms = sum(r.get('prompt_ms', 0.0) for r in rows)
    read = sum(r['prompt_n'] for r in rows)
    drafted = sum(r['draft_n'] for r in rows)
    accepted = sum(r['draft_accepted'] for r in rows)
    return (f'{mode:30s} {len(rows)} calls: p50 {statistics.median(secs):.2f} s, '
            f'p95 {p95(secs):.2f} s, total {sum(secs):.1f} s; prompt evaluated p50 '
            f'{statistics.median(r["prompt_n"] for r in rows):.0f} tokens (cached p50 '
            f'{statistics.median(r["cache_n"] for r in rows):.0f}), read at '
            f'{1000 * read / max(read_ms, 1e-9):.1f} tokens/s; generation '
            f'{1000 * gen / max(gen_ms, 1e-9):.1f} tokens/s ({gen} tokens'
            + (f', drafts {accepted}/{drafted} accepted' if drafted else '')
            + f'); identical replies {sum(r["same"] for r in rows)}/{len(rows)}')


def main(argv: list[str] | None = None) -> int:
    """Replay the cache under each setting and print the summaries."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--cache', type=Path, required=True, help='LLM reply cache directory')
    ap.add_argument('--limit', type=int, default=60, help='first N requests (0: all)')
    ap.add_argument('--speculative', nargs='+', default=['none', 'ngram-simple'],
                    choices=SPECULATIVE)
    ap.add_argument('--repack', nargs='+', default=['on' if DEFAULT_REPACK else 'off'],
                    choices=('on', 'off'), help="llama.cpp's repacked CPU weight layout")
    ap.add_argument('--spin', nargs='+', type=int, default=[DEFAULT_SPIN],
                    help='OpenMP spins before a waiting thread sleeps (0: at once)')
    ap.add_argument('--out', type=Path, default=Path('out/llm_speed'))
    args = ap.parse_args(argv)
    rows = recorded(args.cache, args.limit)
    if not rows:
        print(f'no recorded requests in {args.cache}', file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    lines = []
    for mode in args.speculative:
        for layout, spin in itertools.product(args.repack, args.spin):
            name = f'{mode}-repack-{layout}-spin-{spin}'
            calls = replay(rows, mode, layout == 'on', spin)
            (args.out / f'{name}.jsonl').write_text(''.join(json.dumps(c) + '\n'
                                                            for c in calls))
            lines.append(summary(name, calls))
            print(lines[-1], flush=True)
    (args.out / 'summary.txt').write_text('\n'.join(lines) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
