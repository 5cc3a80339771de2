# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Sweep a directory of PDDL domains and problems through the package, as a new user would.

Layout: ``DIR/<name>/domain.pddl`` beside one or more problem files (any other ``.pddl``).
For each problem:

- ``init``: ``l3mp kg init --domain domain.pddl --from problem.pddl`` into a fresh SQLite
  store. When the CLI refuses the problem file (a version without PDDL import), the problem
  is converted to an ``l3mp/kg/v1`` snapshot with unified-planning's reader (objects and true
  atoms of ``:init``) and that is tried instead (``json`` in the table).
- ``plan <engine>``: ``l3mp plan --goal '<the problem's :goal>' --engine E --json``.
- ``UP-direct``: unified-planning's reader on the two files and Fast Downward through UP's
  ``OneshotPlanner``, the same timeout: what a user gets without this package. A problem
  Fast Downward cannot take (numbers, time) goes to ENHSP when it can, else to the engine
  UP picks for its kind; the cell names that engine.

Nothing of the package is imported: the CLI runs as a child with this process's
``PYTHONPATH``, so a checkout of another commit can be swept
(``PYTHONPATH=/tmp/base python benchmarks/pddl_sweep.py DIR``). Prints a Markdown table
(and ``--json`` a file with every row). Domains are not shipped: fetch them (IPC
collections, PlanSys2 examples) into a directory of your own.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = [sys.executable, '-c', 'import sys; from l3mp_ros.cli import main; sys.exit(main())']


def goal_text(problem: str) -> str:
    """Return the ``(:goal ...)`` block of a problem text."""
    text = re.sub(r';[^\n]*', '', problem)
    m = re.search(r'\(\s*:goal\b', text, re.I)
    if m is None:
        return ''
    depth, i = 0, m.start()
    for j in range(i, len(text)):
        depth += {'(': 1, ')': -1}.get(text[j], 0)
        if depth == 0:
            return ' '.join(text[i:j + 1].split())
    return ''


def run(cmd: list[str], timeout: float) -> tuple[int, str, str]:
    """Run a command; return (exit code, stdout, stderr); 124 on timeout."""
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                             env=dict(os.environ, L3MP_DOMAIN_CACHE='off'))
    except subprocess.TimeoutExpired:
        return 124, '', 'timed out'
    return out.returncode, out.stdout, out.stderr


def first_line(text: str) -> str:
    """Return the first non-empty line, shortened for a table cell."""
    for line in text.splitlines():
        if line.strip():
            return ' '.join(line.split())[:110].replace('|', '/')
    return ''


def to_snapshot(domain: Path, problem: Path) -> dict:
    """Convert a problem to an l3mp/kg/v1 snapshot with unified-planning's reader."""
    from unified_planning.io import PDDLReader

    up_problem = PDDLReader().parse_problem(str(domain), str(problem))
    constants = {o.name for o in PDDLReader().parse_problem(str(domain)).all_objects}
    entities = [{'name': o.name, 'type': o.type.name} for o in up_problem.all_objects
                if o.name not in constants]
    facts = []
    for fnode, value in up_problem.explicit_initial_values.items():
        if value.is_bool_constant() and value.is_true():
            args = [str(a) for a in fnode.args]
            name = fnode.fluent().name
            facts.append([name] if not args else [args[0], name, 'true'] if len(args) == 1
                         else [args[0], name, *args[1:]])
    return {'schema': 'l3mp/kg/v1', 'domain': '', 'entities': entities,
            'facts': facts}


def up_direct(domain: Path, problem: Path, timeout: float) -> tuple[str, float]:
    """Solve with UP's reader and Fast Downward (else ENHSP, else UP's pick) in a child."""
    code = ('import sys, unified_planning as up\n'
            'from unified_planning.io import PDDLReader\n'
            'from unified_planning.shortcuts import OneshotPlanner\n'
            'up.shortcuts.get_environment().credits_stream = None\n'
            'try:\n'
            '    p = PDDLReader().parse_problem(sys.argv[1], sys.argv[2])\n'
            'except Exception as e:\n'
            '    print("parse-error:", " ".join(str(e).split())[:80]); sys.exit()\n'
            'try:\n'
            '    env = up.shortcuts.get_environment()\n'
            '    names = [n for n in ("fast-downward", "enhsp") if n in env.factory.engines\n'
            '             and env.factory.engine(n).supports(p.kind)]\n'
            '    with (OneshotPlanner(name=names[0]) if names\n'
            '          else OneshotPlanner(problem_kind=p.kind)) as pl:\n'
            '        r = pl.solve(p, timeout=float(sys.argv[3]))\n'
            '    print(r.status.name, "" if pl.name == "Fast Downward" else f"({pl.name})")\n'
            'except Exception as e:\n'
            '    print("error:", type(e).__name__, " ".join(str(e).split())[:80])\n')
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            out = subprocess.run([sys.executable, '-c', code, str(domain.resolve()),
                                  str(problem.resolve()), str(timeout)],
                                 capture_output=True, text=True, cwd=tmp, timeout=timeout + 30)
            status = first_line(out.stdout) or first_line(out.stderr) or 'no output'
        except subprocess.TimeoutExpired:
            status = 'TIMEOUT'
    status = status.replace('SOLVED_SATISFICING', 'solved').replace('SOLVED_OPTIMALLY', 'solved')
    return status, time.monotonic() - t0


def sweep_problem(domain: Path, problem: Path, engines: list[str], timeout: float,
                  with_up: bool, context: str = 'auto') -> dict:
    """Run one problem through init, plan per engine and UP-direct."""
    row: dict = {'domain': domain.parent.name, 'problem': problem.stem}
    with tempfile.TemporaryDirectory(prefix='l3mp_sweep_') as tmp:
        store = os.path.join(tmp, 'kg.db')
        code, out, err = run([*CLI, 'kg', 'init', '--domain', str(domain), '--from',
                              str(problem), '--store', store, '--no-verify'], 120)
        row['init'] = 'pddl' if code == 0 else 'no'
        row['init_error'] = '' if code == 0 else first_line(err or out)
        if code != 0:
            try:
                snap = os.path.join(tmp, 'state.json')
                Path(snap).write_text(json.dumps(to_snapshot(domain, problem)))
                code, out, err = run([*CLI, 'kg', 'init', '--domain', str(domain), '--from',
                                      snap, '--store', store, '--no-verify'], 120)
                if code == 0:
                    row['init'] = 'json'
                else:
                    row['init_error'] = first_line(err or out)
            except Exception as exc:  # noqa: BLE001 - UP's reader refuses the problem
                row['init_error'] = 'UP: ' + ' '.join(str(exc).split())[:100]
        goal = goal_text(problem.read_text())
        for engine in engines:
            if row['init'] == 'no':
                row[engine] = '-'
                continue
            t0 = time.monotonic()
            code, out, err = run([*CLI, 'plan', '--store', store, '--goal', goal,
                                  '--engine', engine, '--timeout', str(timeout), '--json',
                                  '--context', context],
                                 timeout + 60)
            try:
                doc = json.loads(out)
                cell = doc['status']
                if doc['status'] == 'solved':
                    by = doc.get('solved_by') or doc.get('engine', engine)
                    cell += f' ({len(doc["steps"])}' + (f', {by})' if by != engine else ')')
                elif doc.get('errors'):
                    row[f'{engine}_error'] = doc['errors'][0][:160]
                if doc.get('notes'):
                    row[f'{engine}_notes'] = doc['notes']
            except (ValueError, KeyError, TypeError):
                cell = 'fail'
                row[f'{engine}_error'] = first_line(err or out)
            row[engine] = cell
            row[f'{engine}_s'] = round(time.monotonic() - t0, 1)
    if with_up:
        row['up'], row['up_s'] = up_direct(domain, problem, timeout)
        row['up_s'] = round(row['up_s'], 1)
    return row


def table(rows: list[dict], engines: list[str]) -> str:
    """Return the Markdown table of the rows."""
    head = ['domain', 'problem', 'init', *[f'plan {e}' for e in engines],
            'UP-direct (FD, else named)']
    lines = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    for r in rows:
        cells = [r['domain'], r['problem'], r['init'],
                 *[str(r.get(e, '')) for e in engines], str(r.get('up', ''))]
        lines.append('| ' + ' | '.join(cells) + ' |')
    solved = {e: sum(str(r.get(e, '')).startswith('solved') for r in rows) for e in engines}
    up_ok = sum(str(r.get('up', '')).startswith('solved') for r in rows)
    loaded = len({r['domain'] for r in rows if r['init'] != 'no'})
    lines.append('')
    lines.append(f'{len({r["domain"] for r in rows})} domains, {len(rows)} problems; '
                 f'domains loaded: {loaded}; init ok: {sum(r["init"] != "no" for r in rows)}; '
                 + '; '.join(f'{e} solved {n}' for e, n in solved.items())
                 + f'; UP-direct solved {up_ok}')
    return '\n'.join(lines)


def main(argv: list[str] | None = None) -> int:
    """Sweep the directory and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('directory', type=Path)
    ap.add_argument('--engines', default='lapkt,fast-downward')
    ap.add_argument('--timeout', type=float, default=30.0, help='seconds per planner call')
    ap.add_argument('--only', help='regular expression on domain directory names')
    ap.add_argument('--context', choices=('auto', 'full'), default='auto',
                    help='l3mp plan --context (auto: the widening a task gets; full: the whole '
                         'state at once, as a planner given the problem file)')
    ap.add_argument('--no-up', action='store_true', help='skip the UP-direct column')
    ap.add_argument('--json', type=Path, help='write every row (with errors) here')
    ap.add_argument('--up-from', type=Path, help='take the UP-direct column from the --json '
                    'rows of an earlier sweep (it does not depend on this package)')
    ap.add_argument('--table-only', action='store_true',
                    help='print the table of the --json rows without sweeping')
    args = ap.parse_args(argv)
    engines = [e for e in args.engines.split(',') if e]
    earlier = {}
    if args.up_from:
        earlier = {(r['domain'], r['problem']): r for r in json.loads(args.up_from.read_text())}
    if args.table_only:
        rows = json.loads(args.json.read_text())
        for r in rows:
            old = earlier.get((r['domain'], r['problem']), {})
            if 'up' in old and 'up' not in r:
                r['up'], r['up_s'] = old['up'], old.get('up_s')
        print(table(rows, engines))
        return 0
    rows = []
    for ddir in sorted(p for p in args.directory.iterdir() if (p / 'domain.pddl').is_file()):
        if args.only and not re.search(args.only, ddir.name):
            continue
        for prob in sorted(ddir.glob('*.pddl')):
            if prob.name == 'domain.pddl':
                continue
            old = earlier.get((ddir.name, prob.stem))
            row = sweep_problem(ddir / 'domain.pddl', prob, engines, args.timeout,
                                not args.no_up and old is None, args.context)
            if old is not None and 'up' in old:
                row['up'], row['up_s'] = old['up'], old.get('up_s')
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    print(table(rows, engines))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == '__main__':
    sys.exit(main())
