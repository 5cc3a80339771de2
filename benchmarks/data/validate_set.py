# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Check a hand-written report set (``l3mp/nl_reports/v1``) against its own domain.

No language model is involved: the domain, constraints and initial state are loaded
through the project's library (:mod:`l3mp_ros.compose`, as ``benchmarks/nl_reports.py``
does) and every gold diff is checked the way the world model would check it::

    python benchmarks/data/validate_set.py benchmarks/data/ward_reports.json

Checks: the set's header and paths; the constraints fit the domain; the initial state
passes the verifier; for each report, its facts name known entities whose types fit the
predicate signatures, removed facts hold in the initial state and added ones do not, and
the diff applied to the initial state passes the world model's verifier
(``verifier.check(kg, update)``, as ``l3mp_ros/agent/update.py`` uses it) and leaves a
state whose every rule holds. Reports with empty diffs (rejects, ambiguous ones) may not
carry facts; a report marked ``"ambiguous": true`` has an empty diff and at least two
distinct ``candidates`` that exist and share one type. One line per problem; exit status 1
when there is any, 0 (with a one-line summary) otherwise. Paths in the set are relative to
the repository root.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from l3mp_ros import compose
from l3mp_ros.config import Config
from l3mp_ros.world.kg import Fact, KGError, KnowledgeGraph, Update

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = 'l3mp/nl_reports/v1'
KINDS = ('change', 'disambiguated', 'reject', 'ambiguous')


def facts_of(rep: dict, side: str, where: str, problems: list[str]) -> list[Fact] | None:
    """Return the facts of one side of a gold diff, or None (problems noted)."""
    items = rep.get(side)
    if not isinstance(items, list):
        problems.append(f'{where}: "{side}" must be a list of triplets')
        return None
    out = []
    for t in items:
        if not isinstance(t, list) or not all(isinstance(x, str) for x in t):
            problems.append(f'{where}: {side} item {t!r} is not a list of strings')
            return None
        try:
            out.append(Fact.from_triplet(t))
        except KGError as exc:
            problems.append(f'{where}: {side} {t!r}: {exc}')
            return None
    if len(set(out)) != len(out):
        problems.append(f'{where}: {side} lists a fact twice')
    return out


def check_report(i: int, rep: dict, world, state: KnowledgeGraph) -> list[str]:
    """Return the problems of report ``i`` (1-based) judged alone on the initial state."""
    where = f'report {i}'
    problems: list[str] = []
    text = rep.get('text')
    if not isinstance(text, str) or not text.strip():
        return [f'{where}: no "text"']
    where = f'report {i} ({text[:50]!r})'
    remove = facts_of(rep, 'remove', where, problems)
    add = facts_of(rep, 'add', where, problems)
    if remove is None or add is None:
        return problems
    gold = Update.of(remove, add)
    kind = rep.get('kind')
    if kind is not None and kind not in KINDS:
        problems.append(f'{where}: unknown kind {kind!r} (one of {", ".join(KINDS)})')
    ambiguous = rep.get('ambiguous', False)
    if not isinstance(ambiguous, bool):
        problems.append(f'{where}: "ambiguous" must be true or false')
    if (kind == 'ambiguous') != bool(ambiguous) and kind is not None:
        problems.append(f'{where}: kind {kind!r} disagrees with "ambiguous": {ambiguous}')
    if kind in ('reject', 'ambiguous') and not gold.is_empty():
        problems.append(f'{where}: a {kind} case must have empty remove and add lists')
    if kind in ('change', 'disambiguated') and gold.is_empty():
        problems.append(f'{where}: a {kind} case needs a non-empty gold diff')
    if 'candidates' in rep and not ambiguous:
        problems.append(f'{where}: "candidates" given but the report is not ambiguous')
    if ambiguous:
        problems.extend(check_candidates(where, rep.get('candidates'), state))
        if not gold.is_empty():
            problems.append(f'{where}: an ambiguous case must have empty remove and add lists')
    if gold.is_empty():
        return problems

    verifier = world.verifier
    for fact in sorted(gold.remove | gold.add):
        for err in verifier.check_fact(fact, state.entities):
            problems.append(f'{where}: {err}')
    if problems:
        return problems
    for fact in sorted(gold.remove & gold.add):
        problems.append(f'{where}: {fact.text()} is both removed and added')
    for fact in sorted(gold.remove):
        if fact not in state:
            problems.append(f'{where}: removed fact {fact.text()} does not hold in the '
                            'initial state')
    for fact in sorted(gold.add):
        if fact in state:
            problems.append(f'{where}: added fact {fact.text()} already holds in the '
                            'initial state')
    if problems:
        return problems
    for err in verifier.check(state, gold):
        problems.append(f'{where}: verifier: {err}')
    if problems:
        return problems
    after = state.copy()
    after.apply(gold)
    for err in verifier.check_state(after):
        problems.append(f'{where}: state after the diff: {err}')
    return problems


def check_candidates(where: str, cands: object, state: KnowledgeGraph) -> list[str]:
    """Return the problems of an ambiguous case's ``candidates``."""
    if not isinstance(cands, list) or not all(isinstance(c, str) for c in cands):
        return [f'{where}: an ambiguous case needs "candidates", a list of entity names']
    problems = []
    names = [c.lower() for c in cands]
    if len(set(names)) < 2:
        problems.append(f'{where}: an ambiguous case needs at least two distinct candidates')
    missing = [c for c in names if not state.has_entity(c)]
    for c in missing:
        problems.append(f'{where}: candidate {c} is not an entity of the initial state')
    types = {state.type_of(c) for c in names if c not in missing}
    if len(types) > 1:
        problems.append(f'{where}: candidates are of different types '
                        f'({", ".join(f"{c}: {state.type_of(c)}" for c in names)})')
    return problems


def main(argv: list[str] | None = None) -> int:
    """Check the set; print one line per problem; return 1 when there is any."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('set', type=Path, help='an l3mp/nl_reports/v1 JSON file')
    args = ap.parse_args(argv)
    try:
        spec = json.loads(args.set.read_text())
    except (OSError, ValueError) as exc:
        print(f'{args.set}: cannot read: {exc}')
        return 1
    problems: list[str] = []
    if spec.get('schema') != SCHEMA:
        problems.append(f'schema is {spec.get("schema")!r}, not {SCHEMA!r}')
    for key in ('domain', 'constraints', 'state'):
        if not isinstance(spec.get(key), str) or not (ROOT / spec[key]).is_file():
            problems.append(f'"{key}": {spec.get(key)!r} is no file under {ROOT}')
    reports = spec.get('reports')
    if not isinstance(reports, list) or not reports:
        problems.append('"reports" must be a non-empty list')
    if problems:
        print('\n'.join(problems))
        return 1

    cfg = Config(domain=str(ROOT / spec['domain']),
                 constraints=str(ROOT / spec['constraints']), store='')
    try:
        domain = compose.load_domain(cfg)
        state = KnowledgeGraph.from_json(json.loads((ROOT / spec['state']).read_text()))
    except Exception as exc:  # a malformed domain, constraints or state: say which, stop
        print(f"cannot load the set's domain, constraints or state: {exc}")
        return 1
    for p in domain.constraints.check_against(domain.schema):
        problems.append(f'constraints: {p}')
    if state.domain and state.domain.lower() != domain.schema.name:
        problems.append(f'state is for domain {state.domain!r}, not {domain.schema.name!r}')
    world = compose.open_world(cfg, domain, kg=state.copy())
    for err in world.verifier.check_state(state):
        problems.append(f'initial state: {err}')

    texts = Counter(r.get('text') for r in reports if isinstance(r, dict))
    for t, n in sorted(texts.items(), key=lambda kv: str(kv[0])):
        if n > 1:
            problems.append(f'the report {t!r} appears {n} times')
    kinds: Counter[str] = Counter()
    for i, rep in enumerate(reports, 1):
        if not isinstance(rep, dict):
            problems.append(f'report {i}: not an object')
            continue
        problems.extend(check_report(i, rep, world, state))
        empty = not rep.get('remove') and not rep.get('add')
        kinds[rep.get('kind') or ('ambiguous' if rep.get('ambiguous')
                                  else 'reject' if empty else 'change')] += 1

    for p in problems:
        print(p)
    if problems:
        print(f'{args.set}: {len(problems)} problem(s)')
        return 1
    counts = ', '.join(f'{k} {kinds[k]}' for k in KINDS if kinds[k])
    print(f'{args.set}: OK: {len(reports)} reports ({counts}); domain {domain.schema.name}, '
          f'{len(state.entities)} entities, {len(state.facts)} facts, '
          f'{len(domain.constraints.rules)} rules')
    return 0


if __name__ == '__main__':
    sys.exit(main())
