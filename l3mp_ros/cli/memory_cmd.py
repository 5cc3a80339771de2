# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""``l3mp memory sync | episodes | search | ask | strategies``: the lifelong memory of a store.

``ask`` answers past-tense questions deterministically from the fact history (no LLM);
``--llm URL`` lets the LLM answer the other forms over the top-k episodes.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..config import Config
from ..memory.episodic import memory_file
from ..world.stores import is_url, open_store
from .common import CLIError, add_store, dump, print_answer


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``l3mp memory``."""
    p = sub.add_parser('memory', help='episodic and experience memory of a store')
    verbs = p.add_subparsers(dest='verb', required=True, metavar='VERB')

    def verb(name: str, helptext: str) -> argparse.ArgumentParser:
        q = verbs.add_parser(name, help=helptext)
        add_store(q)
        q.add_argument('--json', action='store_true')
        return q

    verb('sync', 'derive episodes from new events (and embed them)').add_argument(
        '--embed', action='store_true', help='also embed new episodes for search')
    q = verb('episodes', 'list episodes (optionally those touching an entity)')
    q.add_argument('--entity')
    q.add_argument('--limit', type=int, default=20)
    q = verb('search', 'episodic search (AriGraph score + embedding similarity)')
    q.add_argument('--text', required=True)
    q.add_argument('--facts', nargs='*', default=[], help='retrieved facts, "(p a b)" each')
    q.add_argument('-k', type=int, default=5)
    q.add_argument('--recent', type=int, default=0, help='newest episodes to skip')
    q = verb('ask', 'answer a question about the past')
    q.add_argument('--text', required=True)
    q.add_argument('--llm', default=None, help='OpenAI-compatible URL for non-deterministic '
                   'forms (default: $L3MP_LLM_URL; none: deterministic only)')
    q.add_argument('--model', default=None)
    verb('strategies', 'list stored strategies (experience memory)')
    p.set_defaults(func=cmd_memory)


def _store_path(args: argparse.Namespace) -> str:
    """Return the memory file of the store (checking that the store opens)."""
    if not is_url(args.store) and not Path(args.store).exists():
        raise CLIError(f'no store at {args.store} (create one with "l3mp kg init")')
    open_store(args.store).close()  # a clear error when it is not a store
    return str(memory_file(args.store))


def cmd_memory(args: argparse.Namespace) -> int:
    """Run one ``l3mp memory`` verb."""
    from ..memory.episodic import EpisodicMemory
    from ..memory.experience import ExperienceMemory
    from ..world.kg import Fact

    path = _store_path(args)
    if args.verb == 'strategies':
        exp = ExperienceMemory(path)  # strategies: in the memory file
        try:
            items = [s.to_json() for s in exp.all()]
        finally:
            exp.conn.close()
        if args.json:
            print(dump(items))
        for s in [] if args.json else items:
            print(f'[{s["id"]}] x{s["successes"]} {s["task_template"]}\n    '
                  f'{s["goal_template"]}')
        return 0
    embed = (args.verb == 'search' or (args.verb == 'sync' and args.embed)
             or (args.verb == 'ask' and bool(args.llm or os.environ.get('L3MP_LLM_URL'))))
    mem = EpisodicMemory(path, events=args.store, embedder=None if embed else False)
    try:
        made = mem.sync(embed=embed)
        if args.verb == 'sync':
            print(dump({'new_episodes': made, 'episodes': len(mem)}) if args.json
                  else f'{made} new episode(s); {len(mem)} in all')
            return 0
        if args.verb == 'episodes':
            eps = (mem.history(args.entity, limit=args.limit) if args.entity
                   else mem.episodes(mem.recent_ids(args.limit)))
            if args.json:
                print(dump([e.to_json() for e in eps]))
            for e in [] if args.json else eps:
                print(e.describe())
            return 0
        if args.verb == 'search':
            facts = [Fact.parse_pddl(f) for f in args.facts]
            found = mem.search(args.text, facts, args.k, recent=args.recent)
            if args.json:
                print(dump([s.to_json() for s in found]))
            for s in [] if args.json else found:
                print(f'{s.score:.3f} (rel {s.rel:.3f}, sim {s.sim:.3f}) {s.episode.describe()}')
            return 0
        return _ask(args, mem)
    finally:
        mem.close()


def _ask(args: argparse.Namespace, mem: object) -> int:
    from ..memory.qa import PastAnswerer

    with open_store(args.store) as store:
        kg = store.load_kg()
    url = args.llm if args.llm is not None else os.environ.get('L3MP_LLM_URL')
    llm = None
    if url:
        from ..compose import make_llm
        llm = make_llm(Config(llm_url='' if url == 'local' else url,
                              llm_model=args.model or os.environ.get('L3MP_LLM_MODEL',
                                                                     'local')), lazy=False)
    try:
        answer = PastAnswerer(mem, llm).answer(kg, args.text)  # type: ignore[arg-type]
    finally:
        if llm is not None:
            llm.close()
    if answer.error:
        raise CLIError(answer.error)
    print_answer(answer, args.json)
    return 0 if answer.method != 'none' else 1
