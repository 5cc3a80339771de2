# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""``l3mp chat``: a session at a terminal, each line handled as ``l3mp say`` handles one.

The agent is built once and the store stays open for the session; every line is one
:meth:`~l3mp_ros.agent.agent.Agent.say` turn (a report, a task, a question, the answer to
a question the robot asked back, "undo that"), its effect committed before the reply is
printed. A line that fails (the LLM unreachable, bad input) says why in one line and the
session goes on. Ctrl-D, Ctrl-C at the prompt, "exit" or "quit" leave it (exit 0).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from .common import add_store, known_errors
from .language_cmd import agent_from_args, agent_options

if TYPE_CHECKING:
    from ..agent import Agent

PROMPT = 'you> '
ROBOT = 'robot> '
LEAVE = frozenset({'exit', 'quit'})
MAX_LINE = 2000  # characters of one line (as the language node bounds an utterance)
GREETING = ('Hello. Tell me what changed, ask me where something is, or give me a task. '
            'Ctrl-D or "exit" leaves.')


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``chat``."""
    p = sub.add_parser('chat', help='talk with the robot at a terminal: each line is routed '
                       'as "say" routes it (reports, tasks, questions, answers to its '
                       'questions, "undo that"); Ctrl-D leaves')
    add_store(p)
    agent_options(p)
    p.set_defaults(func=cmd_chat)


def cmd_chat(args: argparse.Namespace) -> int:
    """Talk with the robot until the person leaves."""
    agent = agent_from_args(args)  # once: the store stays open for the whole session
    try:
        return session(agent)
    finally:
        agent.close()


def session(agent: Agent, out: TextIO | None = None) -> int:
    """Read lines at a prompt and say the robot's reply to each; return the exit code."""
    out = out if out is not None else sys.stdout
    _line_editing()
    print(ROBOT + GREETING, file=out, flush=True)
    while True:
        try:
            line = input(PROMPT)
        except (EOFError, KeyboardInterrupt):  # Ctrl-D, or Ctrl-C at the prompt
            print(file=out, flush=True)
            return 0
        text = line.strip()
        if not text:
            continue
        if text.lower().rstrip('.!') in LEAVE:
            return 0
        for said in reply(agent, text):
            print(said, file=out, flush=True)


def reply(agent: Agent, text: str) -> list[str]:
    """Return the robot's lines for one line the person typed (its effect committed)."""
    if len(text) > MAX_LINE:
        lines = [f'Sorry, I cannot use that: a line of {len(text)} characters (at most '
                 f'{MAX_LINE}).']
    else:
        try:
            lines = agent.say(text, source='cli').reply(agent.world)
        except known_errors() as exc:  # the LLM unreachable, a store error: this line only
            lines = [f'Sorry, that did not work: {_one_line(exc)}']
        except Exception as exc:  # noqa: BLE001 - one bad line must not end the session
            lines = [f'Sorry, something went wrong: {type(exc).__name__}: {_one_line(exc)}']
    first, *rest = lines
    return [ROBOT + first, *(' ' * len(ROBOT) + r for r in rest)]


def _one_line(exc: BaseException) -> str:
    """Return an exception's message on one line."""
    return ' '.join(str(exc).split()) or type(exc).__name__


def _line_editing() -> None:
    """Give the prompt line editing and history when the terminal has GNU readline."""
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401 - importing it is what turns it on for input()
        except ImportError:
            pass
