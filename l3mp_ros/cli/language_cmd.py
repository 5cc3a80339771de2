# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""``l3mp update | task | ask | say``: the language pipelines from the command line."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .. import paths
from ..compose import store_config
from ..config import Config
from ..config import default as config_default
from ..llm.protocol import LLMError
from ..planning.status import Status
from ..text import UtteranceKind
from ..world.phrasing import Phrasing
from ..world.stores import is_url
from ..world.templates import Form
from .common import (
    CLIError,
    add_llm_options,
    add_store,
    cli_writer,
    config_fields,
    config_option,
    dump,
    llm_settings,
    print_answer,
)

if TYPE_CHECKING:
    from ..agent import Agent
    from ..agent.report.reading import UpdateOutcome
    from ..agent.task.outcome import TaskOutcome


def _common(p: argparse.ArgumentParser) -> None:
    add_store(p)
    p.add_argument('--text', required=True, help='the utterance')
    agent_options(p)
    p.add_argument('--json', action='store_true')


def agent_options(p: argparse.ArgumentParser) -> None:
    """Declare the options of the agent a language verb builds (``say``, ``chat``)."""
    config_option(p, 'retriever', help='context retrieval: link (embedder, no LLM call), '
                  'search (R^S, paper Algorithms 1-2), select (R+), full (R-)')
    config_option(p, 'verify', help='ablation: skip the verifier')
    config_option(p, 'confirm', help='skip the yes/no re-reading of each stated fact (one '
                  'short LLM call per fact; keeps wrong updates out, also denies some right '
                  'ones)')
    config_option(p, 'place_check', help='skip asking where each referent is after the '
                  'report (keeps partial and half-way updates out, costs a call per thing)')
    config_option(p, 'settled_places', help='read back also what the words settle ("went to '
                  'the hall", "took the pen", "left the keycard in the hall")')
    config_option(p, 'place_amend', help='keep the report out instead of taking in a new place '
                  'both orders of a where-question gave')
    config_option(p, 'ask_going', help='re-prompt instead of asking where someone who went '
                  'somewhere is')
    config_option(p, 'ask_actor', help='keep the report out instead of asking where someone '
                  'who put a thing somewhere is')
    config_option(p, 'clarify', help='guess instead of asking back which thing a report means')
    config_option(p, 'ask_back', help='keep a report the robot is unsure of out instead of '
                  'asking the speaker whether its reading is right')
    config_option(p, 'clarify_timeout')
    config_option(p, 'prompt_context')
    config_option(p, 'answer_handles')
    add_llm_options(p)
    config_option(p, 'max_attempts', '--attempts')
    config_option(p, 'engine')
    config_option(p, 'plan_timeout', '--timeout', help='planner timeout (s)')
    config_option(p, 'report_timeout',
                  help='seconds all LLM calls of this request may take (0: no bound)')
    config_option(p, 'answer_past', '--memory', action='store_true')
    config_option(p, 'episodic_k')
    config_option(p, 'experience')


def _prepare_options(p: argparse.ArgumentParser) -> None:
    p.add_argument('--store', default=None, help="a KG store: prepare its domain's prompts "
                   '(default: the shipped household domain)')
    p.add_argument('--domain', default=None, help='a PDDL domain file instead of a store '
                   '(its <domain>.constraints.yaml beside it is used when present)')
    add_llm_options(p)


def cmd_prepare(args: argparse.Namespace) -> int:
    """Evaluate a domain's static prompts once, so later first reports skip them."""
    from ..agent.core.examples import system_for
    from ..compose import load_domain, make_llm

    if args.store is not None:
        cfg = agent_config(args)
    else:
        domain = args.domain or config_default('domain')
        if not Path(paths.resolve(domain)).is_file():
            raise CLIError(f'no domain file at {domain}')
        cfg = Config(domain=domain, **llm_settings(args))
    try:
        loaded = load_domain(cfg)
    except (OSError, ValueError) as exc:
        raise CLIError(f'cannot load the domain: {exc}') from None
    llm = make_llm(cfg, lazy=False)
    try:
        for kind in ('update', 'goal'):
            system = system_for(kind, loaded.schema, loaded.constraints)
            began = time.perf_counter()
            try:
                reply = llm.chat([{'role': 'system', 'content': system},
                                  {'role': 'user', 'content': '.'}], max_tokens=1)
            except LLMError as exc:
                raise CLIError(f'cannot reach the LLM: {exc}') from None
            print(f'{kind} prompt of {loaded.schema.name}: {reply.prompt_tokens} tokens, '
                  f'{reply.prompt_cached} already cached, {time.perf_counter() - began:.1f} s')
    finally:
        close = getattr(llm, 'close', None)
        if callable(close):
            close()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the language verbs."""
    for verb, helptext, func in (
            ('update', 'apply a reported change (Algorithm 3)', cmd_update),
            ('task', 'plan an NL task (Algorithm 4)', cmd_task),
            ('ask', 'answer a question from the KG', cmd_ask),
            ('say', 'route an utterance (report, task or question) and handle it', cmd_say)):
        p = sub.add_parser(verb, help=helptext)
        _common(p)
        p.set_defaults(func=func)
    p = sub.add_parser('prepare', help="evaluate a domain's static prompts once: the embedded "
                       'model keeps them, so a first report after a restart skips them')
    _prepare_options(p)
    p.set_defaults(func=cmd_prepare)


def agent_config(args: argparse.Namespace) -> Config:
    """Return the configuration of a language verb: the store's domain, the options."""
    if not is_url(args.store) and not Path(args.store).exists():
        raise CLIError(f'no store at {args.store} (create one with "l3mp kg init")')
    return store_config(args.store, **{**config_fields(args), **llm_settings(args)})


def agent_from_args(args: argparse.Namespace) -> Agent:
    """Build an agent on the store (the domain recorded in it)."""
    from ..compose import build_agent as compose_agent  # the pipelines load on demand
    from ..retrieval.embed_server import use_resident

    use_resident()  # one short call: the resident embedding server saves the model load
    cfg = agent_config(args)
    try:
        return compose_agent(cfg, writer=cli_writer(), warm=True)
    except LLMError as exc:
        raise CLIError(f'cannot reach the LLM: {exc}') from None


def _run(args: argparse.Namespace, kind: UtteranceKind | None) -> int:
    """Handle ``args.text`` as a ``kind`` of utterance (None: as the router says)."""
    agent = agent_from_args(args)
    try:
        turn = agent.say(args.text, kind, source='cli')
        steps = turn.task.steps if turn.task is not None else []
        phrasing = Phrasing(agent.world.domain, agent.world.snapshot())
        said = phrasing.steps(steps) if steps and not args.json else []
        if turn.report is not None and turn.report.already and not args.json:
            said = [phrasing.say(f, Form.ALREADY) for f in turn.report.already]
    finally:
        agent.close()
    if turn.failed is not None:
        raise CLIError(turn.failed)
    if kind is None and not args.json:
        print(f'({turn.kind})')
    if turn.report is not None:
        return _print_report(turn.report, args.json, said)
    if turn.task is not None:
        return _print_task(turn.task, args.json, said)
    print_answer(turn.answer, args.json)
    return 0


def _print_report(out: UpdateOutcome, as_json: bool, already: list[str] | None = None) -> int:
    """Print what became of a report; return its exit code (1: not applied).

    A report of what already holds says so first (``already``: its sentences).
    """
    if as_json:
        print(dump(out.to_json()))
    elif out.applied:
        print(f'applied after {out.attempts} attempt(s) (event {out.event_id}):')
        print(out.update.text())
    elif out.question:
        print(out.question)
        print(f'not applied yet: the report waits for the answer (l3mp say --text ...; '
              f'event {out.event_id})', file=sys.stderr)
    else:
        if already:
            print(' '.join(already))
        print(f'rejected after {out.attempts} attempt(s); the KG is unchanged:',
              file=sys.stderr)
        for e in out.errors:
            print(f'  - {e}', file=sys.stderr)
    return 0 if out.applied else 1


def _print_task(out: TaskOutcome, as_json: bool, said: list[str] | None = None) -> int:
    """Print a task's goal, status and plan; return its exit code (1: no plan).

    For a person each step is a sentence, numbered (``said``: the steps in sentences,
    :meth:`~l3mp_ros.world.phrasing.Phrasing.steps`); ``--json`` keeps the PDDL steps.
    """
    if as_json:
        print(dump(out.to_json()))
    else:
        print(f'goal: {out.goal}')
        print(f'status: {out.status}')
        for i, step in enumerate(said or out.steps, 1):
            print(f'{i}. {step}')
        for e in out.errors:
            print(f'  - {e}', file=sys.stderr)
    return 0 if Status(out.status).ok else 1


def cmd_update(args: argparse.Namespace) -> int:
    """Apply a reported change."""
    return _run(args, UtteranceKind.REPORT)


def cmd_task(args: argparse.Namespace) -> int:
    """Plan a task."""
    return _run(args, UtteranceKind.TASK)


def cmd_ask(args: argparse.Namespace) -> int:
    """Answer a question."""
    return _run(args, UtteranceKind.QUESTION)


def cmd_say(args: argparse.Namespace) -> int:
    """Route and handle an utterance."""
    return _run(args, None)
