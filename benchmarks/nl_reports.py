# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmark: Algorithm 3 on a hand-written report set of any typed domain.

A set (``l3mp/nl_reports/v1`` JSON, e.g. ``benchmarks/data/office_reports.json``) names a
domain, its constraints, an initial state and reports with gold diffs (both empty: the
report must be rejected; ``ambiguous``: asking back which thing is meant is right).
Each report runs through the real pipeline on a fresh copy of the initial state; in a
*chained* set (``"chained": true``, as ``benchmarks/generate_reports.py`` writes, or a
directory set: :func:`load_set`) on the state the gold changes of the reports before it
left. Verdicts: ``exact`` (applied diff = gold), ``wrong`` (applied but not the gold diff,
reject cases included), ``unapplied`` (a change was due, none applied), ``kept_out`` (a
reject case rejected); a question asked back is not applied, and the summary counts them.
With ``--speaker gold`` a question is answered truthfully from the gold change
(:mod:`l3mp_ros_bench.speaker`, the evaluator's rule) and the report is judged on the graph
after the talk. Results go to ``<out>/reports.jsonl``; a rerun with
the same ``--out`` resumes. Defaults to the embedded model::

    python benchmarks/nl_reports.py --out out/office_reports
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path

from runlog import RunLog, p95

from l3mp_ros import compose
from l3mp_ros.agent.report.pipeline import check_names
from l3mp_ros.config import Config
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros_bench.speaker import converse

ROOT = Path(__file__).resolve().parent.parent


def load_set(path: Path) -> dict:
    """Return a report set: an ``l3mp/nl_reports/v1`` file, or an evaluation set directory.

    A directory (``domain.pddl``, ``domain.constraints.yaml``, ``state.json``,
    ``nl_updates.json``, as the team's evaluator reads) is *chained*: each report is read
    on the state the gold changes of the reports before it left.
    """
    if not path.is_dir():
        return json.loads(path.read_text())
    return {'domain': str(path / 'domain.pddl'),
            'constraints': str(path / 'domain.constraints.yaml'),
            'state': str(path / 'state.json'), 'chained': True,
            'reports': json.loads((path / 'nl_updates.json').read_text())}


def verdict(gold: Update, applied: Update | None) -> str:
    """Classify one outcome against its gold diff (a question asked back is not applied)."""
    if applied is None:
        return 'kept_out' if gold.is_empty() else 'unapplied'
    return 'exact' if applied == gold else 'wrong'


def summary(rows: list[dict]) -> str:
    """Return the one-line summary of a run."""
    due = [r for r in rows if r['expect'] == 'apply']
    count = {k: sum(r['verdict'] == k for r in rows) for k in
             ('exact', 'wrong', 'unapplied', 'kept_out')}
    secs = sorted(r['seconds'] for r in rows) or [0.0]
    tokens = statistics.mean(r['prompt_tokens'] + r['completion_tokens'] for r in rows) \
        if rows else 0
    # prompt tokens the server evaluated (not taken from its prompt cache): the main cost
    # of a call on a small local model
    fresh = statistics.median(r['prompt_tokens'] - r.get('prompt_cached', 0) for r in rows) \
        if rows else 0
    calls = statistics.mean(r.get('calls', 0) for r in rows) if rows else 0
    share = 100 * count['exact'] / max(1, len(due))
    asked = [r for r in rows if r.get('question')]
    return (f"reports exact {count['exact']}/{len(due)} ({share:.0f} %); "
            f"wrong applied {count['wrong']}/{len(rows)}; unapplied {count['unapplied']}; "
            f"rejects kept out {count['kept_out']}/{len(rows) - len(due)}; "
            f"asked back {len(asked)} ({sum(bool(r.get('ambiguous')) for r in asked)} on "
            f"{sum(bool(r.get('ambiguous')) for r in rows)} marked ambiguous); "
            f"questions answered {sum(r.get('asked', 0) for r in rows)} "
            f"({sum(r.get('asked', 0) for r in rows) / max(1, len(rows)):.2f} per report) "
            f"on {sum(bool(r.get('asked')) for r in rows)} reports, exact without a question "
            f"{sum(r['verdict'] == 'exact' and not r.get('asked') for r in rows)}/{len(due)}; "
            f"p50 {statistics.median(secs):.1f} s, p95 {p95(secs):.1f} s per report; "
            f"{tokens:.0f} tokens per report, p50 {fresh:.0f} prompt tokens evaluated, "
            f"{calls:.1f} calls")


def reuse(log: RunLog, run: Path, skipped: set[str]) -> None:
    """Copy into ``log`` the rows of ``run`` on which no check in ``skipped`` did anything.

    A check absent from a row's ``checks`` neither ruled nor called the model on that
    report, so switching it off leaves the report as it was (replies are deterministic).
    """
    for line in (run / 'reports.jsonl').read_text().splitlines():
        row = json.loads(line)
        if 'checks' not in row:
            raise SystemExit(f'{run}: rows without "checks" (a run before they were recorded)')
        if row['i'] not in log.done and not skipped & set(row['checks']):
            log.add(row)


def main(argv: list[str] | None = None) -> int:
    """Run the set and print per-report verdicts and the summary line."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('set', nargs='?', default=str(ROOT / 'benchmarks/data/office_reports.json'))
    ap.add_argument('--llm', default='local', help='OpenAI-compatible URL (default: embedded)')
    ap.add_argument('--model', default='local')
    ap.add_argument('--retriever', default='link', choices=('link', 'full', 'select', 'search'))
    ap.add_argument('--no-verify', action='store_true')
    ap.add_argument('--no-confirm', action='store_true', help='no yes/no re-reading')
    ap.add_argument('--no-place-check', action='store_true',
                    help='no where-questions against the update')
    ap.add_argument('--no-place-amend', action='store_true',
                    help='a new place both orders give keeps the update out (not taken in)')
    ap.add_argument('--attempts', type=int, default=3)
    ap.add_argument('--no-clarify', action='store_true', help='guess instead of asking back')
    ap.add_argument('--cache', default=None, help='directory of cached LLM replies')
    ap.add_argument('--speaker', choices=('gold', 'none'), default='none',
                    help='gold: answer the questions a report asks back, truthfully')
    ap.add_argument('--skip', action='append', default=[], metavar='CHECK',
                    help='switch one check of the pipeline off by name (ablations; repeatable)')
    ap.add_argument('--reuse', type=Path, default=None, metavar='RUN',
                    help="with --skip: take RUN's row of every report on which no skipped "
                         'check ruled or called the model (it cannot change there)')
    ap.add_argument('--prompt-phrasing', choices=('words', 'templates'), default='words',
                    help='how facts are put to the model (the setting prompt_phrasing)')
    ap.add_argument('--read-back-together', action='store_true',
                    help="a part's read-back in one call (read_back_together)")
    ap.add_argument('--read-back-where-said', action=argparse.BooleanOptionalAction,
                    default=None, help='read a fact back with its part only when the part '
                    'names all its things, else with the whole report (setting '
                    'read_back_where_said; default: the setting)')
    ap.add_argument('--no-left-out', action='store_true',
                    help='offer readings that leave a named thing out (ask_left_out off)')
    ap.add_argument('--runner-ups', type=int, default=None, metavar='N',
                    help="readings offered from the answer slots' runners-up (default: "
                         'config, runner_ups)')
    ap.add_argument('--ask-together', action=argparse.BooleanOptionalAction, default=None,
                    help='the first question offers every reading (default: config, '
                         'ask_together)')
    ap.add_argument('--ask-moved', action=argparse.BooleanOptionalAction, default=None,
                    help='ask about a person moved who neither acts nor goes (default: '
                         'config, ask_moved)')
    ap.add_argument('--settled-places', action=argparse.BooleanOptionalAction, default=None,
                    help='leave the place right after a verb of going unread (default: '
                         'config, settled_places)')
    ap.add_argument('--reading-confidence', choices=('least', 'product'), default=None,
                    help="a reading's confidence from the read-back's odds (default: config)")
    ap.add_argument('--ask-below', type=float, default=None,
                    help='the bar of asking back (default: config/asking.json)')
    ap.add_argument('--ask-decision', choices=('readback', 'fitted'), default='readback',
                    help='what says a reading is not sure enough (the setting ask_decision)')
    ap.add_argument('--out', type=Path, default=Path('out/nl_reports'))
    args = ap.parse_args(argv)
    unknown = set(args.skip) - check_names()
    if unknown:
        ap.error(f'unknown check(s) {sorted(unknown)}; the checks are {sorted(check_names())}')
    spec = load_set(Path(args.set))
    cfg = Config(domain=str(ROOT / spec['domain']), constraints=str(ROOT / spec['constraints']),
                 store='', llm_url=args.llm or '', llm_model=args.model,
                 llm_cache=args.cache or '', retriever=args.retriever,
                 max_attempts=args.attempts, verify=not args.no_verify,
                 confirm=not args.no_confirm, place_check=not args.no_place_check,
                 place_amend=not args.no_place_amend, ask_going=not args.no_place_amend,
                 ask_actor=not args.no_place_amend,
                 clarify=not args.no_clarify, prompt_phrasing=args.prompt_phrasing,
                 ask_decision=args.ask_decision,
                 **({'runner_ups': args.runner_ups} if args.runner_ups is not None else {}),
                 **({'ask_together': args.ask_together} if args.ask_together is not None
                    else {}),
                 **({'ask_moved': args.ask_moved} if args.ask_moved is not None else {}),
                 **({'settled_places': args.settled_places}
                    if args.settled_places is not None else {}),
                 ask_left_out=not args.no_left_out,
                 read_back_together=args.read_back_together,
                 **({'read_back_where_said': args.read_back_where_said}
                    if args.read_back_where_said is not None else {}),
                 **({'reading_confidence': args.reading_confidence}
                    if args.reading_confidence else {}),
                 **({'ask_below': args.ask_below} if args.ask_below is not None else {}))
    domain = compose.load_domain(cfg)
    state = json.loads((ROOT / spec['state']).read_text())
    golds = KnowledgeGraph.from_json(state)  # the state before each report (chained sets)
    log = RunLog(args.out, 'reports')
    if args.reuse is not None:
        reuse(log, args.reuse, set(args.skip))
    llm = compose.make_llm(cfg, lazy=False)
    retriever = compose.make_retriever(cfg)
    for i, rep in enumerate(spec['reports'], 1):
        gold = Update.of([Fact.from_triplet(t) for t in rep['remove']],
                         [Fact.from_triplet(t) for t in rep['add']])
        start = golds.copy()
        if spec.get('chained'):  # each report on the state the gold changes before it left
            golds.apply(Update.of(gold.remove & set(golds.facts), gold.add))
        if i in log.done:
            continue
        world = compose.open_world(cfg, domain, kg=start if spec.get('chained')
                                   else KnowledgeGraph.from_json(state))
        updater = compose.build_agent(cfg, world, llm, retriever=retriever).updater
        updater.settings = dataclasses.replace(updater.settings,
                                               skip_checks=frozenset(args.skip))
        began = time.perf_counter()
        before = world.snapshot()
        out = updater.run(rep['text'])
        after = before.copy()
        after.apply(gold)
        talk = converse(out, updater.answer,
                        set(after.facts) if args.speaker == 'gold' else None)
        net = before.diff_to(world.snapshot())
        row = {'i': i, 'text': rep['text'], 'expect': 'reject' if gold.is_empty() else 'apply',
               'verdict': verdict(gold, None if net.is_empty() else net),
               'asked': talk.asked, 'talk': talk.turns, 'confidence': out.confidence,
               'slot_odds': out.slot_odds, 'fact_odds': out.fact_odds,
               'unaccounted': out.unaccounted, 'parts': out.parts,
               'parts_read': out.parts_read,
               'proposed': out.update.to_json() if out.update else None,
               'seconds': round(time.perf_counter() - began, 2), 'attempts': out.attempts,
               'prompt_tokens': out.usage.prompt_tokens,
               'completion_tokens': out.usage.completion_tokens,
               'prompt_cached': out.usage.prompt_cached, 'calls': out.usage.calls,
               'applied': None if net.is_empty() else net.to_json(),
               'gold': gold.to_json(), 'errors': out.errors[:3],
               'question': out.question, 'ambiguous': bool(rep.get('ambiguous')),
               'checks': out.trace.checks, 'notes': out.notes, 'history': out.history}
        log.add(row)
        asked = f' (asked {talk.asked})' if talk.asked else (' (asked back)' if out.question
                                                             else '')
        print(f"{i:3d} {row['verdict']:9s} {row['seconds']:6.1f}s {rep['text'][:70]}{asked}",
              flush=True)
    log.finish(summary(log.rows))
    return 0


if __name__ == '__main__':
    sys.exit(main())
