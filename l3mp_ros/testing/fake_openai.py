# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A loopback OpenAI-compatible HTTP server with scripted replies, for tests and demos.

The server listens on 127.0.0.1 on a free port and answers ``POST /v1/chat/completions``
and ``GET /v1/models``. Each chat request takes the next item of the *script*:

- a ``str``: the reply content;
- a ``dict`` with any of ``content`` (str, or any JSON value, which is dumped),
  ``status`` (HTTP status; >= 400 answers an OpenAI-style error whose message is
  ``content`` or ``error``), ``delay`` (seconds to wait before answering, to provoke
  client timeouts), ``prompt_tokens``, ``completion_tokens``, ``finish_reason``,
  ``cached_tokens`` (sent as ``usage.prompt_tokens_details.cached_tokens``, as llama.cpp's
  server and OpenAI report prompt-cache hits), ``logprobs`` (a list of ``[token,
  [[candidate, logprob], ...]]`` sent as ``choices[0].logprobs.content`` when the request
  asks for ``logprobs``), ``timings`` (a dict sent as the body's ``timings``, as
  llama.cpp's server says what it evaluated: ``prompt_n``, ``cache_n``, ``prompt_ms``,
  ``predicted_n``, ``predicted_ms``), ``raw`` (a ``str`` sent verbatim as a 200 JSON
  reply, for replies that are not chat completions);
- a callable ``(request_json) -> str | dict``, returning one of the above.

When the script is exhausted, the ``responder`` callable (if any) answers every further
request (long-running demos); without one the server answers 500 with a clear message.
Requests whose JSON-schema name is a key of ``answers`` are answered from it without
taking a script item; by default the update pipeline's yes/no confirmations (schema
``confirm``) are answered "yes" and the update's place-check questions (schema ``state``)
get no option, i.e. no evidence either way (pass ``answers={}`` to script both,
``answers=NO_OPTION`` to script the confirmations only; with a ``responder`` it answers
the state questions); the call asking which states a report says in other words (schema
``other_words``) hears none unless ``answers`` says otherwise. Every chat request
body is recorded in :attr:`FakeOpenAI.requests`.

``POST /tokenize`` answers as llama.cpp's server does with ``with_pieces``, with a toy
tokenizer (:func:`toy_pieces`: a newline, or up to three letters after an optional
underscore, or one other character); the texts asked are kept in
:attr:`FakeOpenAI.tokenized`.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = str | dict[str, Any] | Callable[[dict[str, Any]], 'str | dict[str, Any]']
Responder = Callable[[dict[str, Any]], 'str | dict[str, Any]']
# a state question (the update's place check) nobody scripted gets no option: no evidence,
# so scripts written for the free diff and its read-back run unchanged
STATE_NONE: dict[str, Reply] = {'state': {'content': {'answer': 'none'}}}
#: the states-in-other-words call (agent/report/other_words.py) hears no state
HEARS_NONE: dict[str, Reply] = {'other_words': {'content': {}}}
NO_OPTION: dict[str, Reply] = {**STATE_NONE, **HEARS_NONE}
DEFAULT_ANSWERS: dict[str, Reply] = {'confirm': {'content': {'answer': 'yes'}}, **NO_OPTION}


_TOY_TOKEN = re.compile(r'\n|_?[A-Za-z]{1,3}|_?[0-9]|.')


def toy_pieces(text: str) -> list[str]:
    """Return the fake server's tokens of ``text`` (joined, they give ``text``)."""
    return _TOY_TOKEN.findall(text)


def count_words(text: str) -> int:
    """Count whitespace-separated words (the fake's token estimate)."""
    return len(text.split())


def _schema_name(request: dict[str, Any]) -> str:
    """Return the request's ``response_format`` JSON-schema name ('' when none)."""
    fmt = request.get('response_format')
    if isinstance(fmt, dict) and isinstance(fmt.get('json_schema'), dict):
        return str(fmt['json_schema'].get('name') or '')
    return ''


def _message_text(messages: Any) -> str:
    """Join the text of chat messages (string or content-part lists)."""
    parts: list[str] = []
    if not isinstance(messages, list):
        return ''
    for message in messages:
        if not isinstance(message, dict):
            continue
        content = message.get('content')
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts.extend(
                str(part.get('text', '')) for part in content if isinstance(part, dict))
    return '\n'.join(parts)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, owner: FakeOpenAI) -> None:
        super().__init__(('127.0.0.1', 0), _Handler)
        self.owner = owner


class _Handler(BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        """Stay quiet; tests read :attr:`FakeOpenAI.requests` instead."""

    def _send_json(self, status: int, body: Any) -> None:
        data = body.encode() if isinstance(body, _Raw) else json.dumps(body).encode()
        try:
            self.send_response(status)
            self.send_header('Content-Type', 'application/json')
            self.send_header('Content-Length', str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout): nothing to answer

    def _send_error(self, status: int, message: str) -> None:
        kind = 'invalid_request_error' if status < 500 else 'server_error'
        self._send_json(status, {'error': {'message': message, 'type': kind, 'code': status}})

    def do_GET(self) -> None:  # noqa: N802
        """Answer ``/v1/models`` and ``/health``."""
        owner = self.server.owner
        path = self.path.split('?', 1)[0].rstrip('/')
        if path in ('/v1/models', '/models'):
            self._send_json(200, {'object': 'list', 'data': [
                {'id': owner.model, 'object': 'model', 'created': 0, 'owned_by': 'fake'}]})
        elif path in ('/health', '/v1/health'):
            self._send_json(200, {'status': 'ok'})
        else:
            self._send_error(404, f'fake OpenAI server: no route GET {self.path}')

    def do_POST(self) -> None:  # noqa: N802
        """Answer ``/v1/chat/completions`` from the script."""
        owner = self.server.owner
        length = int(self.headers.get('Content-Length') or 0)
        raw = self.rfile.read(length) if length else b''
        path = self.path.split('?', 1)[0].rstrip('/')
        if path == '/tokenize':
            self._tokenize(owner, raw)
            return
        if path not in ('/v1/chat/completions', '/chat/completions'):
            self._send_error(404, f'fake OpenAI server: no route POST {self.path}')
            return
        try:
            body = json.loads(raw or b'{}')
        except json.JSONDecodeError as exc:
            self._send_error(400, f'fake OpenAI server: request body is not JSON: {exc}')
            return
        if not isinstance(body, dict):
            self._send_error(400, 'fake OpenAI server: request body must be a JSON object')
            return
        status, payload, delay = owner._answer(body)
        if delay > 0 and owner._stopping.wait(delay):
            return
        self._send_json(status, payload)

    def _tokenize(self, owner: FakeOpenAI, raw: bytes) -> None:
        try:
            content = json.loads(raw or b'{}')['content']
        except (json.JSONDecodeError, KeyError, TypeError):
            self._send_error(400, 'fake OpenAI server: /tokenize needs {"content": text}')
            return
        with owner._lock:
            owner.tokenized.append(str(content))
        self._send_json(200, {'tokens': [{'id': i, 'piece': p} for i, p in
                                         enumerate(toy_pieces(str(content)))]})


class FakeOpenAI:
    """Scripted OpenAI-compatible chat server on loopback; use as a context manager."""

    def __init__(self, script: Iterable[Reply] = (), *, responder: Responder | None = None,
                 model: str = 'fake-model', answers: dict[str, Reply] | None = None) -> None:
        self.model = model
        self.responder = responder
        if answers is None:  # a responder answers the state questions itself
            answers = {k: v for k, v in DEFAULT_ANSWERS.items()
                       if not (responder and k in STATE_NONE)}
        self.answers = dict(answers)
        self.requests: list[dict[str, Any]] = []
        self.tokenized: list[str] = []  # the texts POST /tokenize was asked for
        self._script: deque[Reply] = deque(script)
        self._served = 0
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._port: int | None = None

    # -- lifecycle ---------------------------------------------------------------------
    def start(self) -> FakeOpenAI:
        """Bind a free port on 127.0.0.1 and serve in a daemon thread."""
        if self._server is None:
            self._stopping.clear()
            self._server = _Server(self)
            self._port = int(self._server.server_address[1])
            self._thread = threading.Thread(
                target=self._server.serve_forever, kwargs={'poll_interval': 0.05},
                name='fake-openai', daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port (delayed replies are abandoned)."""
        if self._server is None:
            return
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- properties --------------------------------------------------------------------
    @property
    def port(self) -> int:
        """Return the bound TCP port; it is kept after :meth:`stop` for error messages."""
        if self._port is None:
            raise RuntimeError('FakeOpenAI was never started; call start() or use `with`')
        return self._port

    @property
    def base_url(self) -> str:
        """Return the OpenAI base URL, ``http://127.0.0.1:<port>/v1``."""
        return f'http://127.0.0.1:{self.port}/v1'

    @property
    def remaining(self) -> int:
        """Return the number of scripted replies not yet used."""
        with self._lock:
            return len(self._script)

    def add(self, *items: Reply) -> None:
        """Append replies to the script."""
        with self._lock:
            self._script.extend(items)

    # -- answering ---------------------------------------------------------------------
    def _answer(self, request: dict[str, Any]) -> tuple[int, Any, float]:
        """Turn the next script item into (status, JSON body, delay)."""
        with self._lock:
            self.requests.append(request)
            index = self._served
            self._served += 1
            fixed = self.answers.get(_schema_name(request))
            item: Reply | None = (fixed if fixed is not None
                                  else self._script.popleft() if self._script else None)
        if item is None:
            if self.responder is None:
                message = (f'fake OpenAI server: script exhausted (request #{index + 1}, '
                           'no scripted reply left)')
                return 500, _error_body(500, message), 0.0
            item = self.responder
        try:
            reply = item(request) if callable(item) else item
        except Exception as exc:  # noqa: BLE001 - a script bug must not kill the server
            message = f'fake OpenAI server: scripted callable raised {exc!r}'
            return 500, _error_body(500, message), 0.0
        return self._render(request, reply)

    def _render(self, request: dict[str, Any],
                reply: Any) -> tuple[int, Any, float]:
        spec: dict[str, Any] = reply if isinstance(reply, dict) else {'content': reply}
        delay = float(spec.get('delay', 0.0) or 0.0)
        status = int(spec.get('status', 200))
        content = spec.get('content', '')
        if content is None:
            content = ''
        if not isinstance(content, str):
            content = json.dumps(content)
        if status >= 400:
            message = spec.get('error') or content or f'scripted HTTP {status}'
            return status, _error_body(status, str(message)), delay
        if spec.get('raw') is not None:
            return 200, _Raw(spec['raw']), delay
        prompt_tokens = spec.get('prompt_tokens')
        if prompt_tokens is None:
            prompt_tokens = count_words(_message_text(request.get('messages')))
        completion_tokens = spec.get('completion_tokens')
        if completion_tokens is None:
            completion_tokens = count_words(content)
        body = {
            'id': f'chatcmpl-fake-{len(self.requests)}',
            'object': 'chat.completion',
            'created': int(time.time()),
            'model': str(request.get('model') or self.model),
            'choices': [{
                'index': 0,
                'message': {'role': 'assistant', 'content': content},
                'finish_reason': spec.get('finish_reason', 'stop'),
            }],
            'usage': {
                'prompt_tokens': int(prompt_tokens),
                'completion_tokens': int(completion_tokens),
                'total_tokens': int(prompt_tokens) + int(completion_tokens),
            },
        }
        if spec.get('cached_tokens') is not None:
            body['usage']['prompt_tokens_details'] = {'cached_tokens': int(spec['cached_tokens'])}
        if isinstance(spec.get('timings'), dict):
            body['timings'] = dict(spec['timings'])
        if spec.get('logprobs') and request.get('logprobs'):
            body['choices'][0]['logprobs'] = {'content': [
                {'token': tok, 'logprob': float(top[0][1]), 'bytes': None,
                 'top_logprobs': [{'token': c, 'logprob': float(lp), 'bytes': None}
                                  for c, lp in top]}
                for tok, top in spec['logprobs']]}
        return 200, body, delay


class _Raw(str):
    """A reply body sent as it is, not dumped as JSON."""


def _error_body(status: int, message: str) -> dict[str, Any]:
    kind = 'invalid_request_error' if status < 500 else 'server_error'
    return {'error': {'message': message, 'type': kind, 'code': status}}
