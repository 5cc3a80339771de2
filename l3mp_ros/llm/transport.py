# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""How an LLM client sends a chat request: the ``openai`` package or ``http.client``.

A sender posts one request body (the same for both) and returns the reply as a dict, or
raises :class:`TransportFailure` saying in the client's terms what went wrong (timeout,
unreachable, an HTTP status, a reply that is no chat completion). :class:`OpenAISender`
uses the ``openai`` package (imported only by clients of other endpoints: it costs about a
second); :class:`HTTPSender` uses the standard library's ``http.client``, one connection
per request, and also asks the embedded llama.cpp server for tokens (``POST /tokenize``).
Retries, deadlines and accounting are the client's (:mod:`l3mp_ros.llm.client`).
"""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

from l3mp_ros.llm.protocol import LLMErrorKind

#: how a client sends its requests: ``openai`` (the package; default for every endpoint but
#: the embedded one) or ``http`` (``http.client``; default for the embedded server)
TRANSPORTS = ('openai', 'http')


def _root_cause(exc: BaseException) -> str:
    """Return the innermost cause of a transport error, e.g. 'Connection refused'."""
    seen: set[int] = set()
    inner: BaseException = exc
    while inner.__cause__ is not None and id(inner.__cause__) not in seen:
        seen.add(id(inner))
        inner = inner.__cause__
    text = str(inner) or type(inner).__name__
    return text if len(text) <= 200 else text[:200] + '...'


def _server_message(body: Any, fallback: str = '') -> str:
    """Return an error body's message (``{"error": {"message": ...}}``), shortened."""
    message: Any = None
    if isinstance(body, dict):
        inner = body.get('error', body)
        message = inner.get('message') if isinstance(inner, dict) else inner
    text = str(message or fallback or '')
    return text if len(text) <= 300 else text[:300] + '...'


class TransportFailure(Exception):
    """A request that failed, in the client's terms.

    ``kind`` is ``timeout``, ``unreachable``, ``http`` (with ``status``) or ``protocol``;
    ``detail`` says why.
    """

    def __init__(self, kind: LLMErrorKind, detail: str = '',
                 status: int | None = None) -> None:
        super().__init__(f'{kind}: {detail}')
        self.kind, self.detail, self.status = kind, detail, status


class OpenAISender:
    """Send a chat request with the ``openai`` package; return the reply as a dict."""

    def __init__(self, url: str, api_key: str, timeout: float) -> None:
        import openai  # only clients of other endpoints pay for its import (~1 s)

        self._errors = openai
        self._client = openai.OpenAI(base_url=url, api_key=api_key, timeout=timeout,
                                     max_retries=0)

    def create(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send ``request`` (a chat completion body); return the reply as a dict."""
        errors = self._errors
        try:
            response = self._client.with_options(timeout=timeout) \
                .chat.completions.create(**request)
        except errors.APITimeoutError as exc:
            raise TransportFailure(LLMErrorKind.TIMEOUT) from exc
        except errors.APIConnectionError as exc:
            raise TransportFailure(LLMErrorKind.UNREACHABLE, _root_cause(exc)) from exc
        except errors.APIStatusError as exc:
            raise TransportFailure(LLMErrorKind.HTTP, _server_message(exc.body, exc.message),
                                   exc.status_code) from exc
        except (errors.OpenAIError, ValueError) as exc:  # ValueError: a body not JSON
            raise TransportFailure(LLMErrorKind.PROTOCOL, str(exc)) from exc
        dump = getattr(response, 'model_dump', None)
        if not callable(dump):
            raise TransportFailure(LLMErrorKind.PROTOCOL,
                                   f'not a chat completion: {str(response)[:200]}')
        return dump()

    def close(self) -> None:
        """Release the ``openai`` client's connection pool."""
        self._client.close()


class HTTPSender:
    """Send a chat request with ``http.client`` (one connection per request)."""

    def __init__(self, url: str, api_key: str) -> None:
        parts = urlsplit(url)
        if parts.scheme != 'http' or not parts.hostname:
            raise ValueError(f'the http transport needs an http:// endpoint, not {url!r}')
        self._host, self._port = parts.hostname, parts.port or 80
        self._path = parts.path.rstrip('/') + '/chat/completions'
        self._headers = {'Content-Type': 'application/json', 'Accept': 'application/json'}
        if api_key:
            self._headers['Authorization'] = f'Bearer {api_key}'

    def _post(self, path: str, body: bytes, timeout: float) -> tuple[int, bytes]:
        """POST ``body`` to ``path`` on a connection of its own; return (status, raw)."""
        connection = http.client.HTTPConnection(self._host, self._port, timeout=timeout)
        try:
            connection.request('POST', path, body, self._headers)
            response = connection.getresponse()
            return response.status, response.read()
        except TimeoutError as exc:
            raise TransportFailure(LLMErrorKind.TIMEOUT) from exc
        except (OSError, http.client.HTTPException) as exc:
            raise TransportFailure(LLMErrorKind.UNREACHABLE, _root_cause(exc)) from exc
        finally:
            connection.close()

    def create(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        """Send ``request`` (a chat completion body); return the reply as a dict."""
        body = json.dumps(request, ensure_ascii=False).encode()
        status, raw = self._post(self._path, body, timeout)
        try:
            data = json.loads(raw)
        except ValueError:
            data = None
        if status >= 400:
            raise TransportFailure(
                LLMErrorKind.HTTP, _server_message(data, raw[:300].decode(errors='replace')),
                status)
        if not isinstance(data, dict):
            raise TransportFailure(LLMErrorKind.PROTOCOL, f'not a JSON object: {raw[:200]!r}')
        return data

    def tokenize(self, root: str, text: str, timeout: float) -> list[str]:
        """Return llama.cpp's tokens of ``text`` as strings (``POST root/tokenize``).

        ``root`` is this sender's server without ``/v1``; only its path is used.
        """
        body = json.dumps({'content': text, 'with_pieces': True}).encode()
        status, raw = self._post(urlsplit(root).path.rstrip('/') + '/tokenize', body, timeout)
        try:
            out = [t['piece'] for t in json.loads(raw)['tokens']]
        except (ValueError, KeyError, TypeError) as exc:
            raise TransportFailure(LLMErrorKind.PROTOCOL,
                                   f'not a /tokenize reply: {raw[:200]!r}', status) from exc
        if not all(isinstance(p, str) for p in out):
            raise TransportFailure(LLMErrorKind.PROTOCOL, 'a token is not text')
        return out

    def close(self) -> None:
        """Nothing to release: each request has its own connection."""
