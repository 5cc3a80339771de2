# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The ``l3mp`` command: KG, planning, language and benchmarks without ROS.

Exit codes: 0 success, 1 the request was understood but failed (rejected
update, no plan), 2 bad input (arguments, files, JSON, PDDL, unreachable LLM).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .. import __version__
from .common import CLIError, known_errors

# Subcommand modules, each with ``register(subparsers)``; ``func(args) -> int`` per verb.
# ``bench`` comes from the benchmark package beside this one, when it is installed.
COMMANDS = (*(f'{__name__}.{m}' for m in ('kg_cmd', 'demo_cmd', 'plan_cmd', 'language_cmd',
                                          'chat_cmd', 'thor_cmd', 'memory_cmd')),
            'l3mp_ros_bench.cli')


class HelpFormatter(argparse.HelpFormatter):
    """Show an option's default in ``--help`` (not for flags or options without one)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ''
        if ('default' in text or not action.option_strings or action.default in (
                None, False, True, argparse.SUPPRESS)):
            return text
        return f'{text} (default: %(default)s)'.lstrip()


def _formatted(parser: argparse.ArgumentParser) -> None:
    """Give ``parser`` and every sub-command's parser :class:`HelpFormatter`."""
    parser.formatter_class = HelpFormatter
    for action in parser._actions:
        if action.option_strings and not action.help and action.default not in (
                None, False, True, argparse.SUPPRESS):
            action.help = 'default: %(default)s'
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _formatted(child)


def build_parser() -> argparse.ArgumentParser:
    """Return the full argument parser."""
    parser = argparse.ArgumentParser(prog='l3mp', description=__doc__.splitlines()[0])
    parser.add_argument('--version', action='version', version=f'l3mp {__version__}')
    sub = parser.add_subparsers(dest='command', required=True, metavar='COMMAND')
    for name in COMMANDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                continue  # not installed
            raise
        module.register(sub)
    _formatted(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; never let a traceback reach the user for known errors."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except CLIError as exc:
        print(f'l3mp: error: {exc}', file=sys.stderr)
        return exc.code
    except known_errors() as exc:
        msg = ' '.join(str(exc).split())
        print(f'l3mp: error: {msg}', file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print('l3mp: interrupted', file=sys.stderr)
        return 130


if __name__ == '__main__':
    sys.exit(main())
