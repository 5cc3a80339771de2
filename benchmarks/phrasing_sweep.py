# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Say one fact of every predicate of a domain, as the robot says it, for judging by hand.

Usage::

    python benchmarks/phrasing_sweep.py DOMAIN STATE [DOMAIN STATE ...] [--json OUT] [--verbose]

``STATE`` is what ``l3mp kg init --domain DOMAIN --from STATE`` accepts: an ``l3mp/kg/v1``
snapshot or a PDDL problem file (told apart by content). For each predicate of the domain
(and each numeric function), a fact of it is taken from the state when there is one (the
first in sorted order), else the predicate is grounded with entities of the types it takes
(distinct ones where the state has enough), else the row says which type has no entity.
The sentence is the package's own: :class:`l3mp_ros.world.phrasing.Phrasing` on the
domain and KG of a world model built by :mod:`l3mp_ros.compose`, as ``l3mp kg show
--entity E`` says it. Prints one Markdown table per domain (predicate | fact | sentence);
``--json OUT`` writes every row. A domain that fails is reported and the others go on.

The package is imported normally, so a checkout of another commit is measured with
``PYTHONPATH=/path/to/checkout`` (``--verbose`` prints which ``l3mp_ros`` was imported).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import l3mp_ros
from l3mp_ros.compose import load_domain, open_world
from l3mp_ros.config import Config
from l3mp_ros.world.domain import DomainSchema, Predicate
from l3mp_ros.world.kg import Fact, KnowledgeGraph
from l3mp_ros.world.phrasing import Phrasing
from l3mp_ros.world.problem_file import kg_from_problem, looks_like_pddl


def read_kg(domain: DomainSchema, state: Path) -> tuple[KnowledgeGraph, list[str]]:
    """Read a snapshot or a problem file as ``l3mp kg init`` does; return it and notes."""
    text = state.read_text()
    if looks_like_pddl(text):
        imported = kg_from_problem(domain, text, str(state))
        return imported.kg, list(imported.notes)
    data = json.loads(text)
    if isinstance(data, dict) and isinstance(data.get('entities'), list):
        # the domain's constants are entities of every state (as kg init adds them)
        named = {e.get('name') for e in data['entities'] if isinstance(e, dict)}
        data = {**data, 'entities': data['entities'] + [
            {'name': n, 'type': t} for n, t in sorted(domain.constants.items())
            if n not in named]}
    return KnowledgeGraph.from_json(data), []


def ground(domain: DomainSchema, kg: KnowledgeGraph, pred: Predicate
           ) -> tuple[tuple[str, ...] | None, str]:
    """Return arguments for ``pred`` from the KG's entities, or None and why not."""
    args: list[str] = []
    for _, types in pred.params:
        fits = sorted(n for n, t in kg.entities.items() if domain.is_subtype(t, types))
        if not fits:
            return None, f'no entity of type {" or ".join(types)} in the state'
        unused = [n for n in fits if n not in args]
        args.append((unused or fits)[0])
    return tuple(args), ''


def sweep_domain(name: str, domain_path: Path, state_path: Path) -> dict[str, Any]:
    """Return one domain's rows: a sentence per predicate (and per function)."""
    loaded = load_domain(Config(domain=str(domain_path), store='', initial_state=''))
    kg, notes = read_kg(loaded.schema, state_path)
    kg.domain = kg.domain or loaded.schema.name
    world = open_world(Config(domain=str(domain_path), store='', initial_state=''), loaded,
                       kg=kg)
    domain = world.domain
    phrase = Phrasing(domain, world.kg)
    rows = []
    kinds = [('predicate', p) for p in sorted(domain.predicates.values(), key=_name)]
    kinds += [('function', f) for f in sorted(domain.functions.values(), key=_name)]
    for kind, pred in kinds:
        row: dict[str, Any] = {'domain': name, 'kind': kind, 'predicate': pred.name,
                               'signature': pred.signature(), 'source': '', 'fact': '',
                               'sentence': '', 'error': ''}
        have = sorted(f for f in world.kg.facts if f.predicate == pred.name)
        if have:
            fact, row['source'] = have[0], 'state'
        else:
            args, why = ground(domain, world.kg, pred)
            if args is None:
                row['source'], row['error'] = 'none', why
                rows.append(row)
                continue
            fact = Fact(pred.name, args, '0' if kind == 'function' else '')
            row['source'] = 'grounded'
        row['fact'], row['triplet'] = fact.pddl(), list(fact.triplet())
        row['types'] = [world.kg.entities.get(a, '') for a in fact.args]
        try:
            row['sentence'] = phrase.sentence(fact)
        except Exception as exc:  # noqa: BLE001 - a phrasing failure is a result
            row['error'] = f'{type(exc).__name__}: {exc}'
        rows.append(row)
    return {'domain': name, 'domain_file': str(domain_path), 'state': str(state_path),
            'pddl_name': domain.name, 'entities': len(world.kg.entities),
            'facts': len(world.kg.facts), 'notes': notes, 'rows': rows, 'error': ''}


def _name(p: Predicate) -> str:
    return p.name


def cell(text: str) -> str:
    """Return text fit for a Markdown table cell."""
    return ' '.join(str(text).split()).replace('|', '\\|')


def table(result: dict[str, Any]) -> str:
    """Return one domain's Markdown section."""
    head = f'## {result["domain"]}\n\n`{result["domain_file"]}` + `{result["state"]}`'
    if result['error']:
        return f'{head}\n\nFAILED: {cell(result["error"])}\n'
    lines = [head + f' ({result["entities"]} entities, {result["facts"]} facts)', '',
             '| predicate | fact | sentence |', '|---|---|---|']
    for r in result['rows']:
        fact = f'`{r["fact"]}`' + (' (grounded)' if r['source'] == 'grounded' else '') \
            if r['fact'] else '-'
        said = r['sentence'] or f'({r["error"]})'
        pred = r['predicate'] + (' (function)' if r['kind'] == 'function' else '')
        lines.append(f'| {cell(pred)} | {cell(fact)} | {cell(said)} |')
    return '\n'.join(lines) + '\n'


def main(argv: list[str] | None = None) -> int:
    """Sweep each domain and print its table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('pairs', nargs='+', metavar='DOMAIN STATE',
                    help='a PDDL domain file and its state (snapshot JSON or problem file)')
    ap.add_argument('--json', metavar='OUT', help='write every row to this JSON file')
    ap.add_argument('--verbose', action='store_true', help='say which l3mp_ros is imported')
    args = ap.parse_args(argv)
    if len(args.pairs) % 2:
        ap.error('give DOMAIN STATE pairs')
    if args.verbose:
        print(f'l3mp_ros: {l3mp_ros.__file__}', file=sys.stderr)
    results = []
    seen: dict[str, int] = {}
    for dpath, spath in zip(args.pairs[::2], args.pairs[1::2], strict=True):
        domain_path, state_path = Path(dpath).resolve(), Path(spath).resolve()
        name = domain_path.stem if domain_path.stem != 'domain' else domain_path.parent.name
        seen[name] = seen.get(name, 0) + 1
        name += f'-{seen[name]}' if seen[name] > 1 else ''
        try:
            result = sweep_domain(name, domain_path, state_path)
        except Exception as exc:  # noqa: BLE001 - one domain failing must not stop the rest
            result = {'domain': name, 'domain_file': str(domain_path),
                      'state': str(state_path), 'rows': [],
                      'error': f'{type(exc).__name__}: {" ".join(str(exc).split())[:300]}'}
        if args.verbose:
            print(f'{name}: {len(result["rows"])} rows {result["error"]}', file=sys.stderr)
        results.append(result)
        print(table(result))
    rows = [r for res in results for r in res['rows']]
    said = sum(bool(r['sentence']) for r in rows)
    print(f'{len(results)} domains ({sum(not r["error"] for r in results)} read), '
          f'{len(rows)} rows, {said} sentences')
    if args.json:
        out = Path(args.json)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({'l3mp_ros': l3mp_ros.__file__, 'domains': results},
                                  indent=1) + '\n')
    return 0 if all(not r['error'] for r in results) else 1


if __name__ == '__main__':
    sys.exit(main())
