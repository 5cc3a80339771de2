# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: reports read by state questions alone, on an eval set or a report set.

Each report is read on the gold state just before it (an eval-set directory such as
``../shared/eval/lab``: ``state.json`` + ``nl_updates.json``, gold diffs applied in order)
or on the initial state (an ``l3mp/nl_reports/v1`` file such as
``benchmarks/data/office_reports.json``). The entities its mentions resolve to are asked
:mod:`l3mp_ros.agent.report.place_questions`; the answers, completed by the domain's rules and
verified, are compared with the gold diff. ``--show`` prints the questions without asking::

    python benchmarks/state_questions.py ../shared/eval/warehouse --out out/sq_retail

``--check RUN`` measures the place check (:func:`~l3mp_ros.agent.report.place_questions.
check_places`) offline: on every update a run applied (``eval.jsonl`` of
``../shared/eval/evaluate.py`` or ``reports.jsonl`` of ``benchmarks/nl_reports.py``), each
on the state it was read on, it counts how often the check would have kept out a right
update and a wrong one.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

from runlog import RunLog

from l3mp_ros import compose
from l3mp_ros.agent.report import place_questions as sq
from l3mp_ros.config import Config
from l3mp_ros.llm.protocol import Usage
from l3mp_ros.retrieval.mention_lists import surfaces
from l3mp_ros.retrieval.mentions import resolve
from l3mp_ros.world.complete import complete
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.phrasing import Phrasing
from l3mp_ros_bench import state_reading as sr

ROOT = Path(__file__).resolve().parent.parent


def _update(rep: dict) -> Update:
    return Update.of([Fact.from_triplet(t) for t in rep.get('remove', [])],
                     [Fact.from_triplet(t) for t in rep.get('add', [])])


def load_set(path: Path) -> tuple[Config, list[tuple[str, KnowledgeGraph, Update, bool]]]:
    """Return the config and (text, state before, gold, reject) per report."""
    if path.is_dir():
        cfg = Config(domain=str(path / 'domain.pddl'),
                     constraints=str(path / 'domain.constraints.yaml'), store='')
        kg = KnowledgeGraph.from_json(json.loads((path / 'state.json').read_text()))
        items = []
        for rep in json.loads((path / 'nl_updates.json').read_text()):
            gold = _update(rep)
            items.append((rep['text'], kg.copy(), gold, rep.get('expect') == 'reject'))
            if not gold.is_empty():
                kg = kg.copy()
                kg.apply(gold)
        return cfg, items
    spec = json.loads(path.read_text())
    cfg = Config(domain=str(ROOT / spec['domain']), constraints=str(ROOT / spec['constraints']),
                 store='')
    kg = KnowledgeGraph.from_json(json.loads((ROOT / spec['state']).read_text()))
    return cfg, [(r['text'], kg, _update(r), _update(r).is_empty()) for r in spec['reports']]


def gold_option(q: sq.Question, after: KnowledgeGraph) -> int | None:
    """Return the option that holds in ``after`` (None when no option does)."""
    for k, facts in enumerate(q.facts):
        if all(f in after for f in facts) and not any(
                f in after for f in q.slot - facts):
            return k
    return None


def score_questions(items, cfg, domain, llm, out: Path, swap: bool = False) -> int:
    """Ask every question of every report; score it against the gold state after it."""
    out.mkdir(parents=True, exist_ok=True)
    from collections import Counter
    tally: Counter = Counter()
    with (out / 'questions.jsonl').open('w') as log:
        for i, (text, kg, gold, _reject) in enumerate(items, 1):
            world = compose.open_world(cfg, domain, kg=kg)
            after = kg.copy()
            after.apply(gold)
            mentions = resolve(kg, text, steady=domain.schema.static_predicates())
            ph = Phrasing(domain.schema, kg, legacy=True)
            trace = SimpleNamespace(usage=Usage(), history=[])
            ents, _ = sr.settle_mentions(llm, kg, text, mentions, ph, trace)
            written = surfaces(mentions)
            for e in ents:
                said = sq.as_said(ph, e, written)
                qs = sr.questions_for(world, kg, ph, e, ents, said)
                if swap:  # where-questions only, in both orders
                    qs = [q for q in qs if q.text.startswith('Where')]
                    qs += [sq.Question(q.entity, q.text, q.options[::-1], q.facts[::-1], q.slot)
                           for q in qs]
                else:
                    qs += [q for q in sr.questions_for(world, kg, ph, e, ents, said,
                                                       style='true')
                           if not q.text.startswith('Where')]
                for q in qs:
                    style = ('where' if q.text.startswith('Where') else
                             'changed' if q.text.startswith('About') else 'true')
                    want = gold_option(q, after)
                    if swap and q.options[-1].endswith('(as before).'):
                        style = 'where-swapped'
                    k = sq.ask(llm, sq.prompt_text('state'), ' '.join(text.split()), q, trace)
                    before = len(q.options) - 1 if style == 'where-swapped' else 0
                    kind = ('unanswerable' if want is None else 'right' if k == want
                            else 'false change' if want == before
                            else 'missed' if k == before else 'other option')
                    tally[style, kind] += 1
                    log.write(json.dumps({'i': i, 'style': style, 'q': q.text,
                                          'options': q.options,
                                          'want': want, 'got': k, 'kind': kind,
                                          'odds': q.odds}) + '\n')
                    if kind != 'right':
                        print(f'{i:3d} {kind:12s} {q.text} -> {q.options[k] if k >= 0 else k}'
                              f' (want {q.options[want] if want is not None else None})',
                              flush=True)
    for style in ('where', 'where-swapped', 'changed', 'true'):
        row = {k: tally[style, k] for k in ('right', 'false change', 'missed',
                                            'other option', 'unanswerable')}
        print(style, row)
    return 0


def _applied(row: dict) -> Update | None:
    applied = ('exact', 'wrong', 'let_in')  # let_in: a reject applied
    if row.get('kind', 'update') != 'update' or row.get('verdict') not in applied:
        return None
    if 'added' in row:  # evaluate.py
        return Update.of([Fact.from_triplet(t) for t in row['removed']],
                         [Fact.from_triplet(t) for t in row['added']])
    return _update(row['applied'] or {})


def check_run(items, cfg, domain, llm, run: Path, out: Path, stay: bool) -> int:
    """Run the place check on each update ``run`` applied; tally it against the verdicts."""
    from collections import Counter
    done = {r['i']: r for r in map(json.loads, run.read_text().splitlines())
            if 'i' in r and r.get('kind', 'update') == 'update'}
    tally: Counter = Counter()
    out.mkdir(parents=True, exist_ok=True)
    with (out / 'checks.jsonl').open('w') as log:
        for i, (text, kg, _gold, _reject) in enumerate(items, 1):
            row = done.get(i)
            update = _applied(row) if row else None
            if update is None:
                continue
            world = compose.open_world(cfg, domain, kg=kg)
            mentions = resolve(kg, text, steady=domain.schema.static_predicates(),
                               predicates=domain.schema.predicates)  # as the pipeline does
            ents = list(dict.fromkeys(m.resolved for m in mentions if m.resolved))
            trace = SimpleNamespace(usage=Usage(), history=[])
            began = time.perf_counter()
            c = sq.check_places(llm, world, kg, text, update, ents, trace,
                                written=surfaces(mentions), stay=stay)
            kept_out = bool(c.errors)
            verdict = 'exact' if row['verdict'] == 'exact' else 'wrong'  # a reject let in too
            tally[verdict, kept_out] += 1
            tally['asked'] += c.asked
            log.write(json.dumps({'i': i, 'verdict': row['verdict'], 'kept_out': kept_out,
                                  'asked': c.asked, 'errors': c.errors,
                                  'seconds': round(time.perf_counter() - began, 2),
                                  'history': trace.history}) + '\n')
            print(f"{i:3d} {row['verdict']:6s} {'KEPT OUT' if kept_out else 'passed  '} "
                  f"q={c.asked} {text[:60]} {c.errors[:1]}", flush=True)
    n = sum(v for k, v in tally.items() if k != 'asked')
    print(f"place check on {run}: right kept out {tally['exact', True]}/"
          f"{tally['exact', True] + tally['exact', False]}, wrong kept out "
          f"{tally['wrong', True]}/{tally['wrong', True] + tally['wrong', False]}; "
          f"{tally['asked'] / max(1, n):.1f} questions per update")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the set and print per-report verdicts and a summary line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('set', type=Path)
    ap.add_argument('--llm', default='local')
    ap.add_argument('--model', default='local')
    ap.add_argument('--cache', default=None)
    ap.add_argument('--show', action='store_true', help='print the questions, ask nothing')
    ap.add_argument('--questions', action='store_true',
                    help='score each question against the state the gold diff gives')
    ap.add_argument('--limit', type=int, default=0)
    ap.add_argument('--swap', action='store_true',
                    help='with --questions: ask each where-question in both option orders')
    ap.add_argument('--check', type=Path, default=None, metavar='RUN',
                    help="the place check on each update of RUN's log (eval.jsonl or "
                    'reports.jsonl)')
    ap.add_argument('--no-stay', action='store_true',
                    help='--check: "as before" against a move does not keep a report out')
    ap.add_argument('--out', type=Path, default=Path('out/state_questions'))
    args = ap.parse_args(argv)
    cfg, items = load_set(args.set)
    cfg.llm_url, cfg.llm_model, cfg.llm_cache = args.llm, args.model, args.cache or ''
    domain = compose.load_domain(cfg)
    llm = None if args.show else compose.make_llm(cfg, lazy=False)
    log = RunLog(args.out, 'reports')
    if args.check:
        return check_run(items[:args.limit or None], cfg, domain, llm, args.check, args.out,
                         not args.no_stay)
    if args.questions:
        return score_questions(items[:args.limit or None], cfg, domain, llm, args.out, args.swap)
    for i, (text, kg, gold, reject) in enumerate(items, 1):
        if i in log.done:
            continue
        world = compose.open_world(cfg, domain, kg=kg)
        mentions = resolve(kg, text, steady=domain.schema.static_predicates())
        if args.show:
            ents = list(dict.fromkeys(m.resolved for m in mentions if m.resolved))
            ph = Phrasing(domain.schema, kg, legacy=True)
            print(f'--- {i}: {text}\n    gold: {gold.to_json()}')
            for e in ents:
                for q in sr.questions_for(world, kg, ph, e, ents):
                    print('   ', q.text, q.options)
            continue
        trace = SimpleNamespace(usage=Usage(), history=[])
        began = time.perf_counter()
        said = Phrasing(domain.schema, kg, legacy=True)
        ents, guessed = sr.settle_mentions(llm, kg, text, mentions, said, trace)
        r = sr.read_report(llm, world, kg, text, ents, trace, written=surfaces(mentions))
        done = complete(kg, r.update, world.constraints, world.domain)
        errors = r.errors or ([] if not done.update.is_empty() else ['no change'])
        errors = errors or world.verifier.check(kg, done.update)
        applied = None if errors else done.update
        verdict = ('kept_out' if reject else 'unapplied') if applied is None else (
            'exact' if applied == gold else 'wrong')
        row = {'i': i, 'text': text, 'expect': 'reject' if reject else 'apply',
               'verdict': verdict, 'seconds': round(time.perf_counter() - began, 2),
               'asked': r.asked, 'calls': trace.usage.calls,
               'prompt_tokens': trace.usage.prompt_tokens,
               'prompt_cached': trace.usage.prompt_cached,
               'applied': applied.to_json() if applied else None,
               'stated': done.update.to_json(), 'gold': gold.to_json(), 'errors': errors[:3],
               'answers': r.answers, 'guessed': guessed}
        log.add(row)
        print(f"{i:3d} {verdict:9s} {row['seconds']:5.1f}s q={r.asked} {text[:70]}", flush=True)
    if args.show:
        return 0
    rows = log.rows
    due = [r for r in rows if r['expect'] == 'apply']
    count = {k: sum(r['verdict'] == k for r in rows) for k in
             ('exact', 'wrong', 'unapplied', 'kept_out')}
    secs = sorted(r['seconds'] for r in rows) or [0.0]
    log.finish(f"state questions: exact {count['exact']}/{len(due)}; wrong applied "
               f"{count['wrong']}/{len(rows)}; unapplied {count['unapplied']}; rejects kept "
               f"out {count['kept_out']}/{len(rows) - len(due)}; p50 "
               f"{statistics.median(secs):.1f} s; "
               f"{statistics.mean(r['calls'] for r in rows):.1f} calls per report")
    return 0


if __name__ == '__main__':
    sys.exit(main())
