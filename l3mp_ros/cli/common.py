# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by the CLI verbs."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

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


def open_world(store: str, domain: str | None = None,
               constraints: str | None = None) -> WorldModel:
    """Open a store (a SQLite file or a postgresql:// URL) as a world model."""
    if not is_url(store) and not Path(store).exists():
        raise CLIError(f'no store at {store} (create one with "l3mp kg init")')
    return WorldModel.open(store, domain, constraints, writer=cli_writer())


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
