# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""``l3mp kg``: create, change, show and audit a KG store."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from .. import paths
from ..compose import constraints_beside, make_phrasebook
from ..config import Config
from ..schemas import WireError, loads
from ..world.constraints import Constraints
from ..world.domain import DomainSchema
from ..world.events import EventStatus, verdict
from ..world.kg import KGError, KnowledgeGraph, Update
from ..world.model import WorldModel
from ..world.phrasebook import PHRASEBOOK_META, Phrasebook
from ..world.phrasing import Phrasing
from ..world.problem_file import (
    ProblemImportError,
    kg_from_problem,
    looks_like_pddl,
    problem_text,
    unknown_name,
)
from ..world.store import Event
from ..world.stores import create_store, open_store
from ..world.templates import TemplateError
from ..world.verify import Verifier
from .common import (
    CLIError,
    add_llm_options,
    add_store,
    cli_writer,
    dump,
    llm_settings,
    open_existing_store,
    read_json,
)

DEFAULT_DOMAIN = 'pddl/household.pddl'


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``kg`` verbs."""
    kg = sub.add_parser('kg', help='knowledge-graph store: init, apply, show, export, history, '
                        'verify')
    verbs = kg.add_subparsers(dest='verb', required=True, metavar='VERB')

    p = verbs.add_parser('init', help='create a store from a KG snapshot (l3mp/kg/v1 JSON) '
                         'or a PDDL problem file (its objects and :init)')
    p.add_argument('--domain', default=DEFAULT_DOMAIN, help='PDDL domain file')
    p.add_argument('--constraints', help='state-constraint YAML (default: beside the domain)')
    p.add_argument('--from', dest='state', required=True,
                   help='KG snapshot JSON or PDDL problem file (told apart by content)')
    add_store(p, made=False)
    p.add_argument('--force', action='store_true', help='overwrite an existing store')
    p.add_argument('--no-verify', action='store_true', help='skip the state check')
    p.add_argument('--phrases', choices=('model', 'rules'),
                   default=os.environ.get('L3MP_PHRASES', 'model'),
                   help="how each predicate's sentence template is made: the predicate's "
                        'words, and the model where they do not settle it (model, default: '
                        '$L3MP_PHRASES, else model), or the words alone (rules); '
                        '<domain>.phrases.yaml overrides either (docs/pddl.md)')
    add_llm_options(p)
    p.set_defaults(func=cmd_init)

    p = verbs.add_parser('apply', help='verify and apply a REMOVE/ADD update')
    add_store(p)
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument('--update',
                      help='"REMOVE: (a, p, b), ... ADD: (...)" or JSON {"remove": [], "add": []}')
    what.add_argument('--batch', metavar='FILE',
                      help='one update a line (either form; - for stdin), each verified and '
                           'committed on its own, in order; every line is parsed before any '
                           'is applied')
    p.add_argument('--source', default='cli')
    p.add_argument('--utterance', help='the sentence this update came from (provenance)')
    p.add_argument('--json', action='store_true')
    p.set_defaults(func=cmd_apply)

    p = verbs.add_parser('show', help='print the KG')
    add_store(p)
    p.add_argument('--json', action='store_true', help='print the l3mp/kg/v1 snapshot')
    p.add_argument('--summary', action='store_true', help='counts only')
    p.add_argument('--facts', action='store_true',
                   help='each fact as (subject, predicate, object), not in a sentence')
    p.add_argument('--entity', help='only the facts of this entity, each with what it rests on '
                   '(seen, told, given or done; when, by whom; seen since?)')
    p.add_argument('--perception', default=None,
                   help='perception config (which predicates can be seen; default: the '
                        "configuration's perception_config)")
    add_pddl_options(p)
    p.set_defaults(func=cmd_show)

    p = verbs.add_parser('export', help='write the KG as a PDDL problem (--pddl) or a '
                         'snapshot (l3mp/kg/v1 JSON)')
    add_store(p)
    add_pddl_options(p)
    p.add_argument('--out', help='write here instead of stdout')
    p.set_defaults(func=cmd_export)

    p = verbs.add_parser('history', help='print the event log')
    add_store(p)
    p.add_argument('--json', action='store_true')
    p.add_argument('--limit', type=int, help='only the newest N events')
    p.set_defaults(func=cmd_history)

    p = verbs.add_parser('verify', help='check the whole stored state against its domain')
    add_store(p)
    p.set_defaults(func=cmd_verify)


def add_pddl_options(p: argparse.ArgumentParser) -> None:
    """Add ``--pddl``, ``--goal`` and ``--name`` (the PDDL problem form of the KG)."""
    p.add_argument('--pddl', action='store_true',
                   help="print the state as a PDDL problem file of the store's domain")
    p.add_argument('--goal', help="with --pddl: the problem's :goal (default: (and))")
    p.add_argument('--name', default='state', help="with --pddl: the problem's name")


def read_state(path: str, domain: DomainSchema) -> KnowledgeGraph:
    """Read a KG snapshot or a PDDL problem file (by content) with one-line errors."""
    p = paths.resolve(path)
    if not p.is_file():
        raise CLIError(f'no such file: {path}')
    try:
        text = p.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise CLIError(f'cannot read {path}: {exc}') from None
    if looks_like_pddl(text):
        try:
            imported = kg_from_problem(domain, text, str(path))
        except ProblemImportError as exc:
            raise CLIError(f'{exc}; no store created') from None
        for note in imported.notes:
            print(f'note: {note}', file=sys.stderr)
        if imported.goal:
            print(f"note: the problem's goal is not stored; plan it with: l3mp plan --goal "
                  f'"{imported.goal[:200]}"', file=sys.stderr)
        return imported.kg
    if not text.lstrip().startswith(('{', '[')):
        raise CLIError(f'{path} is neither a KG snapshot (l3mp/kg/v1 JSON) nor a PDDL problem '
                       '(define (problem ...) ...)')
    data = read_json(str(p))
    if isinstance(data, dict) and isinstance(data.get('entities'), list):
        # the domain's constants are entities of every state
        named = {e.get('name') for e in data['entities'] if isinstance(e, dict)}
        data = {**data, 'entities': data['entities'] + [
            {'name': n, 'type': t} for n, t in sorted(domain.constants.items())
            if n not in named]}
    try:
        return KnowledgeGraph.from_json(data)
    except KGError as exc:
        unknown = re.search(r"unknown entities \['([^']+)'", str(exc))
        if unknown and domain.has_type(unknown.group(1)):
            raise CLIError(f'{exc}: {unknown_name(domain, unknown.group(1))}') from None
        raise


def cmd_init(args: argparse.Namespace) -> int:
    """Create a store."""
    dpath = paths.resolve(args.domain)
    if not dpath.is_file():
        raise CLIError(f'no such domain file: {args.domain}')
    cpath = paths.resolve(args.constraints) if args.constraints else constraints_beside(dpath)
    if cpath is not None and not cpath.is_file():
        raise CLIError(f'no such constraints file: {args.constraints}')
    domain = DomainSchema.load(dpath)
    constraints = Constraints.load(cpath)
    problems = constraints.check_against(domain)
    if problems:
        raise CLIError(f'constraints do not fit the domain: {"; ".join(problems)}')
    kg = read_state(args.state, domain)
    kg.domain = kg.domain or domain.name
    if kg.domain != domain.name:
        raise CLIError(f'the state is for domain "{kg.domain}" but {dpath} is "{domain.name}"')
    clash = sorted(n for n in kg.entities if domain.has_type(n))
    if clash:
        raise CLIError(f'entities named like a type of the domain (rename them): '
                       f'{", ".join(clash[:10])}; no store created')
    if not args.no_verify:
        errors = Verifier(domain, constraints).check_state(kg)
        if errors:
            print(f'the state violates {len(errors)} rule(s); no store created:', file=sys.stderr)
            for e in listed(errors):
                print(f'  - {e}', file=sys.stderr)
            return 1
    try:  # a bad phrases file refuses the store before it is made
        book, note = make_phrasebook(Config(**llm_settings(args)), domain,
                                     model=args.phrases == 'model')
    except TemplateError as exc:
        raise CLIError(str(exc)) from None
    store = create_store(args.store, kg, writer=cli_writer(), domain_path=str(dpath),
                         constraints_path=str(cpath) if cpath else None, overwrite=args.force,
                         meta={PHRASEBOOK_META: json.dumps(book.to_json())})
    store.close()
    print(f'created {args.store}: domain {domain.name}, {len(kg.entities)} entities, '
          f'{len(kg.facts)} facts')
    print(phrases_line(book, note))
    return 0


def phrases_line(book: Phrasebook, note: str = '') -> str:
    """Return what ``kg init`` says of the domain's sentence templates and where they came from."""
    counts = book.counts()
    made = ', '.join(f'{counts[k]} from {w}' for k, w in (
        ('rule', "the predicates' words"), ('model', 'the model'),
        ('user', 'the phrases file')) if counts.get(k))
    lines = [f'sentences: {len(book.templates)} predicate templates, {made}'
             + (f'; {counts["unsettled"]} the words did not settle' if counts.get('unsettled')
                else '') + (f' ({note})' if note else '')]
    lines += [f'  {p}: "{t.text}" ({t.source.value}{"" if t.settled else ", unsettled"})'
              for p, t in sorted(book.templates.items()) if t.source.value != 'rule'
              or not t.settled]
    acts = book.counts(of_actions=True)
    if book.actions:  # how a plan's steps are said
        made = ', '.join(f'{acts[k]} from {w}' for k, w in (
            ('rule', "the actions' words"), ('user', 'the phrases file')) if acts.get(k))
        lines.append(f'plan steps: {len(book.actions)} action templates, {made}'
                     + (f'; {acts["unsettled"]} with a preposition guessed'
                        if acts.get('unsettled') else ''))
        lines += [f'  {a}: "{t.text}" (user)' for a, t in sorted(book.actions.items())
                  if t.source.value == 'user']
    return '\n'.join(lines)


MAX_LISTED = 20  # errors printed for one rejected update (the rest are counted)


def parse_update(text: str) -> Update:
    """Parse the text form or the JSON form of an update; refuse one changing nothing."""
    stripped = text.strip()
    if stripped.startswith('{'):
        try:
            update = Update.from_json(loads(stripped, what='the update'))
        except WireError as exc:
            raise CLIError(f'malformed JSON update: {exc}') from None
    else:
        update = Update.parse(text)
    if update.is_empty():
        raise CLIError('the update changes nothing: give at least one fact to REMOVE or ADD')
    return update


def listed(errors: list[str], limit: int = MAX_LISTED) -> list[str]:
    """Return at most ``limit`` errors and a line counting the rest."""
    if len(errors) <= limit:
        return list(errors)
    return [*errors[:limit], f'... and {len(errors) - limit} more']


def read_batch(name: str) -> list[Update]:
    """Parse every update of a batch file (``-``: stdin); any bad line refuses the batch."""
    if name == '-':
        text = sys.stdin.read()
    else:
        p = Path(name)
        if not p.is_file():
            raise CLIError(f'no such file: {name}')
        text = p.read_text()
    updates = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            updates.append(parse_update(line))
        except (CLIError, KGError, ValueError, KeyError, TypeError) as exc:
            raise CLIError(f'{name}:{n}: {exc}; nothing applied') from None
    return updates


def cmd_apply_batch(args: argparse.Namespace) -> int:
    """Apply the updates of a batch, one transaction each; one line out per update."""
    updates = read_batch(args.batch)
    world = open_existing_store(args.store)
    rejected = 0
    try:
        for n, update in enumerate(updates, 1):
            result = world.apply(update, source=args.source, utterance=args.utterance)
            rejected += not result.applied
            if args.json:
                print(json.dumps({'n': n, **result.to_json()}), flush=True)
            else:
                status = verdict(result.applied)
                print(f'{n}: {status} (event {result.event_id})'
                      + ''.join(f'\n  - {e}' for e in listed(result.errors)), flush=True)
    finally:
        world.close()
    return 1 if rejected else 0


def cmd_apply(args: argparse.Namespace) -> int:
    """Verify and apply an update (or a batch of them)."""
    if args.batch is not None:
        return cmd_apply_batch(args)
    update = parse_update(args.update)
    world = open_existing_store(args.store)
    try:
        result = world.apply(update, source=args.source, utterance=args.utterance)
    finally:
        world.close()
    if args.json:
        print(dump(result.to_json()))
    elif result.applied:
        print(f'applied (event {result.event_id}):')
        print(result.update.text())  # with any value a new number replaced
    else:
        print(f'rejected (event {result.event_id}); the store is unchanged:', file=sys.stderr)
        for e in listed(result.errors):
            print(f'  - {e}', file=sys.stderr)
    return 0 if result.applied else 1


def summary(kg: KnowledgeGraph) -> str:
    """Return a short human summary of a KG."""
    types = Counter(kg.entities.values())
    preds = Counter(f.predicate for f in kg.facts)
    lines = [f'domain {kg.domain}: {len(kg.entities)} entities, {len(kg.facts)} facts',
             'entities by type: ' + ', '.join(f'{t} {n}' for t, n in sorted(types.items())),
             'facts by predicate: ' + ', '.join(f'{p} {n}' for p, n in sorted(preds.items()))]
    return '\n'.join(lines)


def pddl_state(args: argparse.Namespace) -> str:
    """Return the store's state as a PDDL problem (the goal checked on the domain)."""
    from ..planning.problem import GoalError, parse_goal

    world = open_existing_store(args.store)
    try:
        goal = None
        if args.goal is not None:
            try:
                goal = parse_goal(world.domain, world.kg, args.goal, strict=True).text
            except GoalError as exc:
                raise CLIError(f'invalid goal: {"; ".join(exc.errors)}') from None
        return problem_text(world.domain, world.kg, goal, args.name)
    finally:
        world.close()


def cmd_export(args: argparse.Namespace) -> int:
    """Write the KG as a PDDL problem or a snapshot."""
    if args.pddl:
        text = pddl_state(args)
    else:
        if args.goal is not None:
            raise CLIError('--goal needs --pddl (a snapshot has no goal)')
        world = open_existing_store(args.store)
        text = world.kg.dumps() + '\n'
        world.close()
    if args.out:
        try:
            Path(args.out).write_text(text)
        except OSError as exc:
            raise CLIError(f'cannot write {args.out}: {exc.strerror}') from None
    else:
        sys.stdout.write(text)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """Print the KG."""
    if args.pddl:
        sys.stdout.write(pddl_state(args))
        return 0
    if args.goal is not None:
        raise CLIError('--goal needs --pddl')
    world = open_existing_store(args.store)
    kg = world.kg
    world.close()
    said = Phrasing(world.domain, kg)
    if args.entity and not kg.has_entity(args.entity.lower()):
        raise CLIError(f'unknown entity: {args.entity}')
    if args.entity:
        return _show_entity(world, args)
    if args.json:
        print(kg.dumps())
        return 0
    print(summary(kg))
    if args.summary:
        return 0
    facts = sorted(kg.facts_of(args.entity.lower())) if args.entity else sorted(kg.facts)
    print()
    for f in facts:  # in English; --facts: the facts as the update text writes them
        print(f.text() if args.facts else said.say(f))
    return 0


def _show_entity(world: WorldModel, args: argparse.Namespace) -> int:
    """Print one entity's facts with their support (``--json``: as JSON)."""
    from ..config import Config
    from ..world.perceive import load_perceivable
    from ..world.phrasing import Phrasing
    from ..world.support import SupportKind, describe
    try:
        perceivable = load_perceivable(args.perception or Config().perception_config)
    except ValueError as exc:
        raise CLIError(f'perception config: {exc}') from None
    name = args.entity.lower()
    kg = world.kg
    phrase = Phrasing(world.domain, kg)
    rows = []
    for f in sorted(kg.facts_of(name)):
        s = world.support.get(f)
        see = f.predicate in perceivable
        rows.append({'fact': list(f.triplet()), 'perceivable': see,
                     'support': s.to_json() if s is not None else None,
                     'said': describe(phrase.sentence(f), s, see) if s is not None else None})
    if args.json:
        print(dump({'entity': name, 'type': kg.entities[name], 'facts': rows}))
        return 0
    print(f'{name} - {kg.entities[name]}: {len(rows)} facts')
    for r, f in zip(rows, sorted(kg.facts_of(name)), strict=True):
        s = r['support']
        tag = '?' if s is None else s['kind'] + (' doubtful' if s['doubtful'] else '') + (
            '' if s['kind'] == SupportKind.SEEN or not r['perceivable'] else
            ', confirmed' if s['confirmed'] else ', unconfirmed')
        print(f'{f.text()}  [{tag}]')
        if r['said']:
            print(f'    {r["said"]}')
    return 0


def format_event(e: Event) -> str:
    """Return one event as readable lines."""
    when = datetime.fromtimestamp(e.time, tz=UTC).strftime('%Y-%m-%d %H:%M:%S')
    head = f'#{e.id} {when} {e.status:<8} {e.source}'
    lines = [head + (f'  "{e.utterance}"' if e.utterance else '')]
    if e.new_entities:
        ents = ', '.join(f'{n} - {t}' for n, t in sorted(e.new_entities.items()))
        lines.append(f'    new entities: {ents}')
    if e.update is not None and not e.update.is_empty():
        for line in e.update.text().splitlines():
            lines.append('    ' + line)
    for err in e.errors:
        lines.append(f'    ! {err}')
    if e.status == EventStatus.INIT:
        lines.append(f'    {e.info.get("entities")} entities, {e.info.get("facts")} facts')
    return '\n'.join(lines)


def cmd_history(args: argparse.Namespace) -> int:
    """Print the event log."""
    with open_store(args.store) as store:
        events = store.history()
    if args.limit is not None:
        events = events[-args.limit:] if args.limit > 0 else []
    if args.json:
        print(dump([e.to_json() for e in events]))
    else:
        for e in events:
            print(format_event(e))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Check the whole state."""
    world = open_existing_store(args.store)
    errors = world.verifier.check_state(world.kg)
    world.close()
    for e in listed(errors):
        print(f'  - {e}')
    print(f'{len(errors)} violation(s)')
    return 1 if errors else 0
