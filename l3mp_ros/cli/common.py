# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by the CLI verbs."""

from __future__ import annotations

import argparse
import json
import os
import socket
from dataclasses import fields
from pathlib import Path
from typing import Any

from .. import config
from ..config import Config
from ..schemas import WireError, loads
from ..world.constraints import ConstraintError
from ..world.domain import DomainError
from ..world.kg import KGError
from ..world.model import WorldModel
from ..world.store import StoreError
from ..world.stores import is_url

MAX_FILE_BYTES = 512_000_000  # a KG snapshot file; nesting is bounded as on the wire


class CLIError(Exception):
    """A user-facing error with an exit code (2: bad input)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def known_errors() -> tuple[type[BaseException], ...]:
    """Return the exception types that become a one-line message and exit 2."""
    errors: list[type[BaseException]] = [KGError, DomainError, ConstraintError, StoreError,
                                         OSError, json.JSONDecodeError, ValueError]
    try:
        from ..llm.protocol import LLMError
        errors.insert(0, LLMError)
    except ImportError:
        pass
    return tuple(errors)


def read_json(path: str) -> object:
    """Read a JSON file with one-line errors."""
    p = Path(path)
    if not p.is_file():
        raise CLIError(f'no such file: {path}')
    try:
        return loads(p.read_text(), max_bytes=MAX_FILE_BYTES, what=path)
    except WireError as exc:
        raise CLIError(f'malformed JSON in {path}: {exc}') from None


def cli_writer() -> str:
    """Return who writes from this command: ``cli@<host>:<pid>`` (recorded in events)."""
    return f'cli@{socket.gethostname()}:{os.getpid()}'


def open_existing_store(store: str, domain: str | None = None,
                        constraints: str | None = None) -> WorldModel:
    """Open a store (a SQLite file or a postgresql:// URL) as a world model."""
    if not is_url(store) and not Path(store).exists():
        raise CLIError(f'no store at {store} (create one with "l3mp kg init")')
    from ..compose import open_store_world

    return open_store_world(store, domain, constraints, writer=cli_writer())


def print_answer(answer: object, as_json: bool) -> None:
    """Print an answer (``.text``, cited ``.facts``) or its JSON form."""
    if as_json:
        print(dump(answer.to_json()))  # type: ignore[attr-defined]
        return
    print(answer.text)  # type: ignore[attr-defined]
    for f in answer.facts:  # type: ignore[attr-defined]
        print(f'  {f.text()}')


def dump(data: object) -> str:
    """Return JSON text for stdout."""
    return json.dumps(data, indent=2, sort_keys=False)


# -- options declared once, mapped onto Config ----------------------------------------
def add_store(p: argparse.ArgumentParser, *, made: bool = True) -> None:
    """Declare ``--store``: the KG store a verb reads (``made=False``: the one it creates)."""
    p.add_argument('--store', required=True,
                   help='KG store: a SQLite file or a postgresql:// URL'
                        + (' (made with "l3mp kg init")' if made else ' to create'))


def config_option(p: argparse.ArgumentParser, name: str, *flags: str, **kw: Any) -> None:
    """Declare an option for the :class:`Config` field ``name``.

    Its destination is the field; default, type, choices and help come from the field
    unless given. A boolean field is a switch: ``--no-x`` when it defaults to true.
    """
    value = config.default(name)
    kw.setdefault('dest', name)
    kw.setdefault('help', config.describe(name))
    if isinstance(value, bool):
        kw.setdefault('action', 'store_false' if value else 'store_true')
        flag = f'--{"no-" if value else ""}{name.replace("_", "-")}'
    else:
        kw.setdefault('type', type(value))
        if config.choices(name):
            kw.setdefault('choices', config.choices(name))
        flag = f'--{name.replace("_", "-")}'
    kw.setdefault('default', value)
    p.add_argument(*(flags or (flag,)), **kw)


def add_llm_options(p: argparse.ArgumentParser, *, api_key: bool = False,
                    timeout: float | None = None) -> None:
    """Declare ``--llm``, ``--model``, ``--cache``, ``--llm-timeout`` (and ``--api-key``)."""
    p.add_argument('--llm', default=None,
                   help='OpenAI-compatible base URL, or "local" for the embedded model '
                        '(default: $L3MP_LLM_URL, else local)')
    p.add_argument('--model', default=None, help='model name (default: $L3MP_LLM_MODEL)')
    p.add_argument('--cache', default=None, help='directory of cached LLM replies '
                                                 '(reproducible runs; default: $L3MP_LLM_CACHE)')
    config_option(p, 'llm_timeout', **({'default': timeout} if timeout is not None else {}))
    if api_key:
        p.add_argument('--api-key', default=None,
                       help='API key (default: $L3MP_LLM_API_KEY, then $OPENAI_API_KEY)')


def llm_settings(args: argparse.Namespace) -> dict[str, Any]:
    """Return the :class:`Config` LLM fields of the options, the environment filling gaps."""
    url = args.llm if args.llm is not None else os.environ.get('L3MP_LLM_URL', '')
    out: dict[str, Any] = {
        'llm_url': '' if url in (None, '', 'local') else url,
        'llm_model': args.model or os.environ.get('L3MP_LLM_MODEL')
        or config.default('llm_model'),
        'llm_cache': args.cache or os.environ.get('L3MP_LLM_CACHE', '')}
    if getattr(args, 'llm_timeout', None) is not None:
        out['llm_timeout'] = args.llm_timeout
    return out


def config_fields(args: argparse.Namespace) -> dict[str, Any]:
    """Return the options whose destination is a :class:`Config` field (those set)."""
    return {f.name: getattr(args, f.name) for f in fields(Config)
            if getattr(args, f.name, None) is not None}


def config_from_args(args: argparse.Namespace, **settings: Any) -> Config:
    """Return the :class:`Config` of the options (:func:`config_fields`) and ``settings``."""
    return Config(**{**config_fields(args), **settings})
