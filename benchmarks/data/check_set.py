# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Check a directory evaluation set (the layout of ``../shared/eval/lab``) with the `l3mp` CLI.

Each set's ``validate.py`` gives its directory and, per question, the fact(s) after the
updates that carry the answer, and calls :func:`main`; from a set's directory:
``python validate.py [--l3mp PATH] [--work DIR] [--jobs N] [--write-after]``.

1. `l3mp kg init` from state.json, then `l3mp kg verify` (0 violations);
2. every case of nl_updates.json is checked against the gold state just before it
   (a replay of the gold diffs): a reject case has empty diffs and `"expect": "reject"`;
   any other case removes only facts that hold and adds only facts that do not, and
   `l3mp kg apply --update "REMOVE: ... ADD: ..."` on a fresh store made from that gold
   state exits 0 and leaves `l3mp kg verify` clean;
3. the same updates applied in order to one store: `l3mp kg verify` is clean, and
   `l3mp kg show --json` equals both the replayed gold and state_after_updates.json
   (--write-after rewrites that file from the store instead);
4. a fresh store from state_after_updates.json; every task of nl_tasks.json through
   `l3mp plan --engine fast-downward --timeout 60 --json`: exit 0, status "solved" (so the
   goal did not already hold) and 3-12 steps;
5. each question's answer fact (evidence) holds after the updates and one of its
   expect_any keywords is the entity that answers it.
Exit 0 when every check passes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def default_l3mp() -> str:
    if os.environ.get('L3MP'):
        return os.environ['L3MP']
    if Path('.venv/bin/l3mp').exists():
        return str(Path('.venv/bin/l3mp').resolve())
    return shutil.which('l3mp') or 'l3mp'


def run(cmd: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def key(t: list) -> tuple[str, ...]:
    return tuple('true' if x is True else str(x).lower() for x in t)


def update_text(u: dict) -> str:
    def fmt(ts: list) -> str:
        return ', '.join('(' + ', '.join(t) + ')' for t in ts)
    return f'REMOVE: {fmt(u["remove"])} ADD: {fmt(u["add"])}'


def snapshot(state: dict, facts: set) -> dict:
    return {'schema': state['schema'], 'domain': state['domain'],
            'entities': state['entities'], 'facts': [list(f) for f in sorted(facts)]}


def main(here: Path, evidence: list[list[list[str]]], argv: list[str] | None = None) -> int:
    """Run every check of the set in ``here``; return the exit status (0: all pass)."""
    ap = argparse.ArgumentParser()
    ap.add_argument('--l3mp', default=default_l3mp())
    ap.add_argument('--work', default=None,
                    help='scratch directory (default: a new temporary one)')
    ap.add_argument('--jobs', type=int, default=2, help='parallel fresh-store checks')
    ap.add_argument('--write-after', action='store_true')
    args = ap.parse_args(argv)
    work = Path(args.work or tempfile.mkdtemp(prefix=f'{here.name}_validate_'))
    work.mkdir(parents=True, exist_ok=True)
    L = args.l3mp
    domain, cons = str(here / 'domain.pddl'), str(here / 'domain.constraints.yaml')
    failures: list[str] = []

    def check(ok: bool, what: str) -> None:
        print(('ok   ' if ok else 'FAIL ') + what, flush=True)
        if not ok:
            failures.append(what)

    def init(src: str, store: str) -> subprocess.CompletedProcess:
        return run([L, 'kg', 'init', '--domain', domain, '--constraints', cons,
                    '--from', src, '--store', store, '--force'])

    def last_line(r: subprocess.CompletedProcess) -> str:
        lines = (r.stdout.strip() or r.stderr.strip()).splitlines()
        return lines[-1] if lines else ''

    # 1. initial state
    state = json.loads((here / 'state.json').read_text())
    store = str(work / 'updates.db')
    r = init(str(here / 'state.json'), store)
    check(r.returncode == 0, f'kg init state.json: {last_line(r)}')
    r = run([L, 'kg', 'verify', '--store', store])
    check(r.returncode == 0, f'kg verify initial: {last_line(r)}')
    names = {e['name'] for e in state['entities']}
    check(len(names) == len(state['entities']), f'{len(names)} distinct entities')
    facts = {key(f) for f in state['facts']}
    check(len(facts) == len(state['facts']), f'{len(facts)} distinct facts')

    # 2. each update on a fresh store from the gold state just before it
    updates = json.loads((here / 'nl_updates.json').read_text())
    check(len(updates) == 40, f'{len(updates)} update cases')
    befores: list[set] = []
    jobs = []
    for i, u in enumerate(updates, 1):
        befores.append(set(facts))
        if u.get('expect') == 'reject':
            check(not u['remove'] and not u['add'], f'update {i}: reject case, empty diff')
            continue
        check(u.get('expect') is None, f'update {i}: no "expect" on an applicable case')
        rem, add = [key(t) for t in u['remove']], [key(t) for t in u['add']]
        missing = [t for t in rem if t not in facts]
        present = [t for t in add if t in facts]
        unknown = [t for t in rem + add
                   if t[0] not in names or (t[2] != 'true' and t[2] not in names)]
        check(bool(rem or add) and not missing and not present and not unknown,
              f'update {i}: diff fits the gold state before it '
              f'(missing {missing}, already there {present}, unknown names {unknown})')
        src = work / f'before_{i:02d}.json'
        src.write_text(json.dumps(snapshot(state, facts)))
        jobs.append((i, u, str(src), str(work / f'u{i:02d}.db')))
        facts = (facts - set(rem)) | set(add)

    def fresh(job: tuple) -> tuple[int, str]:
        i, u, src, db = job
        r = init(src, db)
        if r.returncode:
            return i, f'init exit {r.returncode}: {last_line(r)}'
        r = run([L, 'kg', 'apply', '--store', db, '--update', update_text(u),
                 '--source', 'gold', '--utterance', u['text']])
        if r.returncode:
            return i, f'apply exit {r.returncode}: {r.stderr.strip()[:300]}'
        r = run([L, 'kg', 'verify', '--store', db])
        if r.returncode:
            return i, f'verify exit {r.returncode}: {r.stdout.strip()[-300:]}'
        return i, ''

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for i, err in pool.map(fresh, jobs):
            check(not err, f'update {i}: fresh store from the gold state before it: apply '
                           f'exit 0, verify clean {err}')

    # 3. all updates in order on one store
    for i, u in enumerate(updates, 1):
        if u.get('expect') == 'reject':
            continue
        r = run([L, 'kg', 'apply', '--store', store, '--update', update_text(u),
                 '--source', 'gold', '--utterance', u['text']])
        check(r.returncode == 0, f'update {i} in sequence: exit {r.returncode} '
                                 f'{r.stderr.strip()[:300]}')
    r = run([L, 'kg', 'verify', '--store', store])
    check(r.returncode == 0, f'kg verify after updates: {last_line(r)}')
    r = run([L, 'kg', 'show', '--store', store, '--json'])
    check(r.returncode == 0, 'kg show --json')
    after = json.loads(r.stdout)
    check({key(f) for f in after['facts']} == facts, 'stored state equals the replayed gold')
    after_path = here / 'state_after_updates.json'
    if args.write_after:
        after_path.write_text(r.stdout if r.stdout.endswith('\n') else r.stdout + '\n')
    saved = json.loads(after_path.read_text())
    check({key(f) for f in saved['facts']} == facts
          and {e['name']: e['type'] for e in saved['entities']}
          == {e['name']: e['type'] for e in after['entities']}
          and saved.get('domain') == state['domain'],
          f'state_after_updates.json equals the store after the updates '
          f'({len(saved["entities"])} entities, {len(saved["facts"])} facts)')

    # 4. tasks
    astore = str(work / 'after.db')
    r = init(str(after_path), astore)
    check(r.returncode == 0, f'kg init state_after_updates.json: {last_line(r)}')
    tasks = json.loads((here / 'nl_tasks.json').read_text())
    check(len(tasks) == 12, f'{len(tasks)} tasks')
    for i, t in enumerate(tasks, 1):
        r = run([L, 'plan', '--store', astore, '--goal', t['goal'], '--engine',
                 'fast-downward', '--timeout', '60', '--json'])
        try:
            res = json.loads(r.stdout)
        except json.JSONDecodeError:
            res = {'status': 'no json', 'errors': [r.stderr.strip()[:300]]}
        n = len(res.get('steps') or [])
        total = res.get('timings', {}).get('total', 0.0)
        check(r.returncode == 0 and res.get('status') == 'solved' and 3 <= n <= 12
              and t.get('state') == 'after_updates',
              f'task {i}: exit {r.returncode}, {res.get("status")}, {n} steps, '
              f'context {res.get("widening")}, {total:.2f} s {res.get("errors") or ""}')

    # 5. questions
    questions = json.loads((here / 'questions.json').read_text())
    check(len(questions) == 8, f'{len(questions)} questions')
    for i, (q, ev) in enumerate(zip(questions, evidence, strict=True), 1):
        hits = [k for k in q['expect_any'] if k in names]
        holds = all(key(f) in facts for f in ev)
        named = any(k in f for f in ev for k in hits)
        check(bool(hits) and holds and named,
              f'question {i}: evidence {ev} holds, keywords {hits} name its answer')

    print(f'{len(failures)} failure(s)')
    return 1 if failures else 0
