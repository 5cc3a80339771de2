# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The LLM contract every layer codes against: config, reply, usage, errors, protocol.

:class:`ChatLLM` is what the pipelines need of a client (``chat`` returning an
:class:`LLMReply`-like object); :class:`~l3mp_ros.llm.client.LLMClient` is the real one,
the benchmarks' oracle and the tests' scripted doubles are others. :class:`Answer` is
what a question gets back, from the KG (agent) or from episodes (memory). It imports
nothing of the package at run time, so every layer may import it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..config import default

if TYPE_CHECKING:
    from ..world.kg import Fact

LOCAL_URLS = (None, '', 'local')


class LLMErrorKind(StrEnum):
    """Why an LLM call failed (:attr:`LLMError.kind`)."""

    UNREACHABLE = 'unreachable'  # no connection to the endpoint
    TIMEOUT = 'timeout'  # no answer in time, retries included
    HTTP = 'http'  # the endpoint answered with an HTTP error (``status``)
    PROTOCOL = 'protocol'  # an answer that is not a chat completion
    CONFIG = 'config'  # the client cannot be set up as configured


class LLMError(RuntimeError):
    """The LLM call failed: unreachable endpoint, timeout after retries, HTTP error.

    ``kind`` is one of ``'unreachable'``, ``'timeout'``, ``'http'``, ``'protocol'``,
    ``'config'`` (:class:`LLMErrorKind`); ``status`` is the HTTP status when there was one.
    """

    def __init__(self, message: str, *, url: str | None = None,
                 kind: LLMErrorKind = LLMErrorKind.PROTOCOL,
                 status: int | None = None, attempts: int = 0) -> None:
        super().__init__(message)
        self.url = url
        self.kind = kind
        self.status = status
        self.attempts = attempts


@dataclass
class LLMConfig:
    """Where and how to call the LLM."""

    base_url: str | None = None  # None or 'local' -> embedded server
    model: str = 'local'
    api_key: str | None = None  # else env OPENAI_API_KEY, else 'none'
    temperature: float = 0.0
    seed: int = 0
    timeout: float = default('llm_timeout')  # seconds one call may take, retries included
    max_retries: int = 3  # retries after the first attempt (within ``timeout``)
    backoff: float = 0.5  # first retry delay; doubles each retry (capped at 30 s)
    max_tokens: int = 512
    cache_dir: str | None = None
    json_schema: bool = True  # use response_format json_schema when the endpoint supports it

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None,
                 **overrides: Any) -> LLMConfig:
        """Build a config from ``L3MP_LLM_URL``, ``_MODEL``, ``_API_KEY``, ``_CACHE``.

        Keyword ``overrides`` that are not ``None`` win over the environment.
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for key, name in (('base_url', 'L3MP_LLM_URL'), ('model', 'L3MP_LLM_MODEL'),
                          ('api_key', 'L3MP_LLM_API_KEY'), ('cache_dir', 'L3MP_LLM_CACHE')):
            value = env.get(name, '').strip()
            if value:
                values[key] = value
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise TypeError(f'LLMConfig has no field(s): {", ".join(unknown)}')
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    @property
    def is_local(self) -> bool:
        """Tell whether the config asks for the embedded offline server."""
        return self.base_url in LOCAL_URLS

    def resolved_api_key(self) -> str:
        """Return the API key to send: config, then ``OPENAI_API_KEY``, then ``'none'``."""
        return self.api_key or os.environ.get('OPENAI_API_KEY') or 'none'


@dataclass
class LLMReply:
    """One chat completion."""

    text: str
    data: Any | None  # tolerant JSON parse of text; None when unparseable
    prompt_tokens: int
    completion_tokens: int
    latency_s: float  # wall time of chat(), retries and backoff included (cache: original)
    cached: bool
    attempts: int  # HTTP attempts made (0 for a cache hit)
    finish_reason: str | None = None  # 'length' means max_tokens cut the reply
    prompt_cached: int = 0  # prompt tokens the server reused from its prompt cache
    #: per generated token, (token, [(candidate, logprob), ...]) when asked (``logprobs``)
    top_logprobs: list[tuple[str, list[tuple[str, float]]]] | None = None
    prompt_seconds: float = 0.0  # the server's time to evaluate the prompt (0: not told)
    generate_seconds: float = 0.0  # the server's time to generate the reply (0: not told)


@dataclass
class Usage:
    """Running totals of LLM calls (per client, update or task)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    retries: int = 0
    cached: int = 0
    prompt_cached: int = 0  # prompt tokens the server did not have to evaluate

    def add(self, reply: LLMReply) -> Usage:
        """Count one reply in place; returns ``self``."""
        self.calls += 1
        self.prompt_tokens += reply.prompt_tokens
        self.completion_tokens += reply.completion_tokens
        self.latency_s += reply.latency_s
        self.retries += max(0, reply.attempts - 1)
        self.cached += int(reply.cached)
        self.prompt_cached += reply.prompt_cached
        return self

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (JSON-ready)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass
class Answer:
    """An answer with the KG facts it cites."""

    question: str
    text: str
    facts: list[Fact] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    seconds: float = 0.0
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {'question': self.question, 'answer': self.text,
                'facts': [list(f.triplet()) for f in self.facts], 'error': self.error,
                'usage': self.usage.to_dict(), 'seconds': round(self.seconds, 4)}


@runtime_checkable
class ChatLLM(Protocol):
    """An LLM client: ``chat(messages, schema=..., schema_name=..., max_tokens=...)`` → reply.

    ``model`` and ``endpoint`` name where answers come from (an event's provenance);
    ``None`` when the client does not know (yet).
    """

    @property
    def model(self) -> str | None:
        """Return the model's name at the endpoint."""
        ...

    @property
    def endpoint(self) -> str | None:
        """Return the endpoint's URL."""
        ...

    def chat(self, messages: list[dict[str, str]], *, schema: dict | None = None,
             schema_name: str = 'reply', max_tokens: int | None = None) -> Any:
        """Send chat messages; ``reply.data`` is the parsed JSON (or None).

        ``max_tokens``: the most tokens the reply may take (None: the client's default).
        """
        ...


def reply_tokens(reply: Any) -> tuple[int, int]:
    """Return ``(prompt_tokens, completion_tokens)`` of a reply, 0 when unknown."""
    return (int(getattr(reply, 'prompt_tokens', 0) or 0),
            int(getattr(reply, 'completion_tokens', 0) or 0))


class LLMFailure(str):
    """An error sentence saying an LLM call failed (typed: nobody matches its wording).

    ``unavailable``: the endpoint could not be reached or did not answer in time, as
    opposed to a request it refused (too long for its context, ...).
    """

    unavailable: bool

    def __new__(cls, text: str, *, unavailable: bool) -> LLMFailure:
        """Return the sentence ``text``, marked as an LLM failure."""
        self = super().__new__(cls, text)
        self.unavailable = unavailable
        return self


def llm_failure(exc: Exception, during: str = '') -> LLMFailure:
    """Describe an LLM failure: unreachable/timeout vs a request the endpoint refused."""
    where = f' during {during}' if during else ''
    if (getattr(exc, 'kind', '') == LLMErrorKind.HTTP
            and getattr(exc, 'status', None) in (400, 413, 422)):
        return LLMFailure(f'LLM refused the request{where} (prompt too long for its '
                          f'context?): {exc}', unavailable=False)
    return LLMFailure(f'LLM unavailable{where}: {exc}', unavailable=True)


def llm_unavailable(errors: list[str]) -> bool:
    """Tell whether ``errors`` say that the LLM could not be reached."""
    return any(isinstance(e, LLMFailure) and e.unavailable for e in errors)
