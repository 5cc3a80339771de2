# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""OpenAI-compatible chat client with retries, accounting, JSON output and a cache.

One :class:`LLMClient` talks to any OpenAI-compatible endpoint (OpenAI, vLLM, Ollama,
llama.cpp server) through the ``openai`` package; the embedded server on 127.0.0.1 is
asked with the standard library's ``http.client`` instead (the same request body), since
importing ``openai`` costs about a second of every CLI call (the senders:
:mod:`l3mp_ros.llm.transport`). It
always sends ``temperature`` and ``seed``, retries transport errors, timeouts, 429 and
5xx with exponential backoff, counts tokens and latency per call (:class:`LLMReply`) and
in total (:class:`Usage`), asks for JSON-schema structured output when given a schema
(falling back to plain text for endpoints that reject ``response_format``), parses
replies tolerantly, and can keep an on-disk cache of replies for reproducible benchmark
runs (:mod:`l3mp_ros.llm.reply_cache`).

``base_url`` ``None`` or ``'local'`` means the embedded offline model
(:mod:`l3mp_ros.llm.resident`), started on first use.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from l3mp_ros import stages
from l3mp_ros.llm import resident
from l3mp_ros.llm.parse import extract_json
from l3mp_ros.llm.prefixes import PrefixFiles, prefix_files
from l3mp_ros.llm.protocol import (
    LOCAL_URLS,
    LLMConfig,
    LLMError,
    LLMErrorKind,
    LLMReply,
    Usage,
)
from l3mp_ros.llm.reply_cache import ReplyCache, cache_key
from l3mp_ros.llm.transport import TRANSPORTS, HTTPSender, OpenAISender, TransportFailure

__all__ = ['LOCAL_URLS', 'LLMClient', 'LLMConfig', 'LLMError', 'LLMReply', 'LazyLLM',
           'Usage']

_FALLBACK_STATUSES = (400, 422)
_MAX_BACKOFF_S = 30.0


def _local_server() -> tuple[str, PrefixFiles]:
    """Return the shared embedded server's base URL and its prefix files.

    Starts the server if none answers; the files are those of its model, build and
    weight layout.
    """
    server = resident.shared_server()
    return str(server.base_url), prefix_files(repack=server.repack)


class LLMClient:
    """Chat completions against one OpenAI-compatible endpoint (thread-safe).

    ``transport`` (one of :data:`TRANSPORTS`) defaults to ``http`` for the embedded
    server and ``openai`` for every other endpoint; both send the same request body.
    """

    def __init__(self, config: LLMConfig, *, transport: str | None = None) -> None:
        # the embedded server exits when idle: a local client finds (or starts) it again
        self._local = config.is_local
        self._prefixes: PrefixFiles | None = None
        if transport is None:
            transport = 'http' if config.is_local else 'openai'
        if transport not in TRANSPORTS:
            raise ValueError(f'transport must be one of {", ".join(TRANSPORTS)}, '
                             f'not {transport!r}')
        self.transport = transport
        if config.is_local:
            url, self._prefixes = _local_server()
            config = replace(config, base_url=url)
        self.config = config
        self.base_url = str(config.base_url).rstrip('/')
        self.usage = Usage()
        self.response_format_supported = config.json_schema
        self._lock = threading.Lock()
        self._cache = ReplyCache(config.cache_dir) if config.cache_dir else None
        self._sender = self._make_sender(self.base_url)
        self._budget = threading.local()  # an overall deadline set by budget()
        self._pieces: dict[str, list[str]] = {}  # tokenize(): each text's tokens, once

    def _make_sender(self, url: str) -> OpenAISender | HTTPSender:
        key = self.config.resolved_api_key()
        if self.transport == 'http':
            return HTTPSender(url, key)
        return OpenAISender(url, key, self.config.timeout)

    @contextlib.contextmanager
    def budget(self, seconds: float | None) -> Iterator[None]:
        """Bound every call made in this block (this thread) by one deadline.

        A pipeline that makes several calls for one report or task uses it, so the
        whole of it ends in ``seconds`` (an :class:`LLMError` of kind ``timeout``).
        """
        outer = getattr(self._budget, 'end', None)
        end = None if not seconds or seconds <= 0 else time.monotonic() + seconds
        if outer is not None and (end is None or outer < end):
            end = outer
        self._budget.end, self._budget.seconds = end, seconds
        try:
            yield
        finally:
            self._budget.end = outer

    def close(self) -> None:
        """Release the HTTP connection pool."""
        self._sender.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- public ------------------------------------------------------------------------
    #: ``chat(..., logprobs=N)`` is understood (endpoints that return none give ``None``)
    supports_logprobs = True

    @property
    def model(self) -> str | None:
        """Return the model's name at the endpoint."""
        return self.config.model

    @property
    def endpoint(self) -> str | None:
        """Return the endpoint's URL."""
        return self.base_url

    def chat(self, messages: list[dict[str, Any]], *, schema: dict[str, Any] | None = None,
             schema_name: str = 'reply', max_tokens: int | None = None,
             logprobs: int = 0) -> LLMReply:
        """Send ``messages`` and return the reply; raise :class:`LLMError` on failure.

        With ``schema``, ask for JSON-schema output (``response_format``) when the
        endpoint supports it; ``reply.data`` is the tolerant JSON parse of the text
        either way (``None`` when unparseable: the caller decides what to do). With
        ``logprobs`` N > 0, ask for the N most likely tokens at each step
        (``reply.top_logprobs``).
        """
        limit = self.config.max_tokens if max_tokens is None else max_tokens
        key = None
        if self._cache is not None:
            key = cache_key(self.config.model, messages, schema, limit,
                            **({'logprobs': logprobs} if logprobs else {}))
            began = time.monotonic()
            hit = self._cache.read(key)
            if hit is not None:
                self._count(hit)
                stages.llm_call(schema_name, time.monotonic() - began, hit.prompt_tokens,
                                hit.prompt_tokens, hit.completion_tokens,
                                from_reply_cache=True)
                return hit
        reply = self._call(messages, schema, schema_name, limit, logprobs)
        self._keep_prefix(messages)
        if key is not None and self._cache is not None:
            self._cache.write(key, reply, self.config.model, self.base_url, messages, schema,
                              limit)
        self._count(reply)
        stages.llm_call(schema_name, reply.latency_s, reply.prompt_tokens, reply.prompt_cached,
                        reply.completion_tokens, prompt_seconds=reply.prompt_seconds,
                        generate_seconds=reply.generate_seconds)
        return reply

    def tokenize(self, texts: list[str]) -> list[list[str]] | None:
        """Return the model's tokens (pieces) of each text, or None when it cannot tell.

        Asks the embedded llama.cpp server (``POST /tokenize``), once per text per client;
        other endpoints have no tokenizer to ask. Texts are single lines, sent as one
        request joined by newlines (a newline is a token of its own).
        """
        if not (self._local and isinstance(self._sender, HTTPSender)):
            return None
        if any('\n' in t or not t for t in texts):
            return None
        missing = [t for t in dict.fromkeys(texts) if t not in self._pieces]
        if missing:
            try:
                pieces = self._sender.tokenize(self._root, '\n'.join(missing),
                                               self.config.timeout)
            except TransportFailure:
                return None
            runs: list[list[str]] = [[]]
            for piece in pieces:
                if piece == '\n':
                    runs.append([])
                elif '\n' in piece:
                    return None  # a newline merged into a token: the runs cannot be told
                else:
                    runs[-1].append(piece)
            if len(runs) != len(missing):
                return None
            with self._lock:
                self._pieces.update(zip(missing, runs, strict=True))
        return [list(self._pieces[t]) for t in texts]

    # -- internals ---------------------------------------------------------------------
    @property
    def _root(self) -> str:
        """Return the server's root URL (the base URL without its ``/v1``)."""
        return self.base_url[:-3] if self.base_url.endswith('/v1') else self.base_url

    def _keep_prefix(self, messages: list[dict[str, Any]]) -> None:
        """Save the embedded server's slot after a long system prompt's first answer.

        The next server restores it (:class:`~l3mp_ros.llm.prefixes.PrefixFiles`):
        the static prefix is evaluated once per model, build and prompt, not once per
        server start.
        """
        if self._prefixes is None or not messages or messages[0].get('role') != 'system':
            return
        system = str(messages[0].get('content') or '')
        if self._prefixes.wanted(system):
            self._prefixes.save(self._root, system)

    def _count(self, reply: LLMReply) -> None:
        with self._lock:
            self.usage.add(reply)

    def _request(self, messages: list[dict[str, Any]], schema: dict[str, Any] | None,
                 schema_name: str, limit: int, logprobs: int = 0) -> dict[str, Any]:
        request: dict[str, Any] = {
            'model': self.config.model,
            'messages': messages,
            'temperature': self.config.temperature,
            'seed': self.config.seed,
            'max_tokens': limit,
        }
        if logprobs > 0:
            request['logprobs'] = True
            request['top_logprobs'] = int(logprobs)
        if schema is not None and self.response_format_supported:
            request['response_format'] = {
                'type': 'json_schema',
                'json_schema': {'name': schema_name, 'schema': schema, 'strict': True},
            }
        return request

    def _relocate(self) -> bool:
        """Point this client at the shared embedded server now; True if it moved."""
        try:
            url, prefixes = _local_server()
            url = url.rstrip('/')
        except Exception:  # noqa: BLE001 - cannot start one: report the original failure
            return False
        with self._lock:
            if url == self.base_url:
                return False
            self.base_url, self._prefixes = url, prefixes
            self.config = replace(self.config, base_url=url)
            self._sender = self._make_sender(url)
        return True

    def _deadline(self, began: float) -> tuple[float, str]:
        """Return when this call must end and what set that time."""
        end, why = began + self.config.timeout, f'llm_timeout {self.config.timeout:g} s'
        budget = getattr(self._budget, 'end', None)
        if budget is not None and budget < end:
            end = budget
            why = f'the {getattr(self._budget, "seconds", 0):g} s allowed for the request'
        return end, why

    def _call(self, messages: list[dict[str, Any]], schema: dict[str, Any] | None,
              schema_name: str, limit: int, logprobs: int = 0) -> LLMReply:
        began = time.monotonic()
        end, why = self._deadline(began)
        request = self._request(messages, schema, schema_name, limit, logprobs)
        fell_back = relocated = False
        attempts = 0
        retries_left = max(0, self.config.max_retries)
        while True:
            remaining = end - time.monotonic()
            if remaining <= 0.05:
                raise LLMError(f'LLM endpoint {self.base_url}: no answer within {why} '
                               f'({attempts} attempt(s))', url=self.base_url,
                               kind=LLMErrorKind.TIMEOUT, attempts=attempts)
            attempts += 1
            try:
                response = self._sender.create(request, remaining)
            except TransportFailure as exc:
                if exc.kind == LLMErrorKind.TIMEOUT:
                    failure = LLMError(
                        f'LLM endpoint {self.base_url}: no answer within {why} '
                        f'({attempts} attempt(s))', url=self.base_url, kind=LLMErrorKind.TIMEOUT,
                        attempts=attempts)
                elif exc.kind == LLMErrorKind.UNREACHABLE:
                    if self._local and not relocated and self._relocate():
                        relocated = True  # the resident server had exited: a new one answers
                        attempts -= 1
                        continue
                    failure = LLMError(
                        f'LLM endpoint {self.base_url}: unreachable ({exc.detail}) after '
                        f'{attempts} attempt(s)', url=self.base_url, kind=LLMErrorKind.UNREACHABLE,
                        attempts=attempts)
                elif exc.kind == LLMErrorKind.HTTP:
                    status = int(exc.status or 0)
                    if (status in _FALLBACK_STATUSES and 'response_format' in request
                            and not fell_back):
                        # The endpoint may not support structured output: try plain text once.
                        fell_back = True
                        request = dict(request)
                        request.pop('response_format')
                        continue
                    failure = LLMError(
                        f'LLM endpoint {self.base_url}: HTTP {status} ({exc.detail}) after '
                        f'{attempts} attempt(s)', url=self.base_url, kind=LLMErrorKind.HTTP,
                        status=status, attempts=attempts)
                    if status != 429 and status < 500:
                        raise failure from exc
                else:
                    raise LLMError(f'LLM endpoint {self.base_url}: bad response ({exc.detail})',
                                   url=self.base_url, kind=LLMErrorKind.PROTOCOL,
                                   attempts=attempts) from exc
            else:
                if fell_back:
                    self.response_format_supported = False  # remember for this client
                return self._reply(response, began, attempts)
            delay = min(_MAX_BACKOFF_S, self.config.backoff * 2 ** (attempts - 1))
            if retries_left <= 0 or time.monotonic() + delay >= end:
                raise failure
            retries_left -= 1
            time.sleep(delay)

    def _reply(self, response: dict[str, Any], began: float, attempts: int) -> LLMReply:
        choices = response.get('choices')
        if not choices or not isinstance(choices, list) or not isinstance(choices[0], dict):
            raise LLMError(f'LLM endpoint {self.base_url}: reply has no choices',
                           url=self.base_url, kind=LLMErrorKind.PROTOCOL, attempts=attempts)
        choice = choices[0]
        text = _dict(choice.get('message')).get('content') or ''
        usage = _dict(response.get('usage'))
        timings = _dict(response.get('timings'))
        cached = _cached_tokens(usage)
        if 'prompt_n' in timings and 'cache_n' in timings:  # llama.cpp says what it evaluated
            cached = max(cached, int(timings['cache_n']))
        return LLMReply(
            text=str(text),
            data=extract_json(str(text)),
            prompt_tokens=int(usage.get('prompt_tokens') or 0),
            completion_tokens=int(usage.get('completion_tokens') or 0),
            latency_s=time.monotonic() - began,
            cached=False,
            attempts=attempts,
            finish_reason=choice.get('finish_reason'),
            prompt_cached=cached,
            top_logprobs=_top_logprobs(choice),
            prompt_seconds=float(timings.get('prompt_ms', 0.0) or 0.0) / 1000,
            generate_seconds=float(timings.get('predicted_ms', 0.0) or 0.0) / 1000,
        )


def _dict(value: Any) -> dict[str, Any]:
    """Return ``value`` if it is a JSON object, else {} (a reply's parts may be missing)."""
    return value if isinstance(value, dict) else {}


def _top_logprobs(choice: dict[str, Any]) -> list[tuple[str, list[tuple[str, float]]]] | None:
    """Return ``choice.logprobs.content`` as (token, [(candidate, logprob)]) or None."""
    content = _dict(choice.get('logprobs')).get('content')
    if not content or not isinstance(content, list):
        return None
    out = []
    for step in map(_dict, content):
        top = [_dict(t) for t in step.get('top_logprobs') or []]
        out.append((str(step.get('token')),
                    [(str(t.get('token')), float(t.get('logprob') or 0.0)) for t in top]
                    or [(str(step.get('token')), float(step.get('logprob') or 0.0))]))
    return out


def _cached_tokens(usage: dict[str, Any]) -> int:
    """Return ``usage.prompt_tokens_details.cached_tokens`` (llama.cpp, OpenAI), else 0."""
    try:
        return int(_dict(usage.get('prompt_tokens_details')).get('cached_tokens') or 0)
    except (TypeError, ValueError):
        return 0


class LazyLLM:
    """An LLM client built on first use (the embedded server starts only when needed)."""

    def __init__(self, factory: Callable[[], Any]) -> None:
        self._factory = factory
        self._client: Any = None
        self._lock = threading.Lock()

    def warm(self) -> None:
        """Build the client now, in the background (the embedded server starts and loads).

        The first call waits for it instead of starting it: the model loads while the
        caller opens its store and builds its retriever. A failure here is reported by
        that first call.
        """
        threading.Thread(target=self._try_get, name='llm-warm', daemon=True).start()

    def _try_get(self) -> None:
        try:
            self._get()
        except Exception:  # noqa: BLE001 - the first call builds it again and says why
            pass

    def _get(self) -> Any:
        with self._lock:
            if self._client is None:
                self._client = self._factory()
            return self._client

    supports_logprobs = True

    @property
    def model(self) -> str | None:
        """Return the model's name; None before the client is built."""
        return None if self._client is None else self._client.model

    @property
    def endpoint(self) -> str | None:
        """Return the endpoint's URL; None before the client is built."""
        return None if self._client is None else self._client.endpoint

    def chat(self, *args: Any, **kwargs: Any) -> Any:
        """Forward to the real client's ``chat``."""
        return self._get().chat(*args, **kwargs)

    @contextlib.contextmanager
    def budget(self, seconds: float | None) -> Iterator[None]:
        """Forward to the real client's ``budget`` (none if it cannot be built)."""
        try:
            client = self._get()
        except Exception:  # the pipeline's first call reports why
            yield
            return
        with client.budget(seconds):
            yield

    def __getattr__(self, name: str) -> Any:
        return getattr(self._get(), name)

    def close(self) -> None:
        """Close the client if it was built."""
        if self._client is not None and callable(getattr(self._client, 'close', None)):
            self._client.close()
