# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""LLM wrappers of a benchmark run: the gold-answering oracle and per-step accounting.

:class:`OracleLLM` answers every LLM call from the current step's gold data, so the real
pipelines run unchanged with perfect language; :class:`CountingLLM` wraps any client and
accounts the calls, tokens and time of one step (:class:`CallLog`).
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass
from typing import Any

from l3mp_ros.llm.protocol import LLMError, LLMReply
from l3mp_ros.world.kg import Update
from l3mp_ros_bench.household.base import Step


def _estimate_tokens(text: str) -> int:
    """Return a rough token count (4 characters a token) for the oracle's accounting."""
    return math.ceil(len(text) / 4) if text else 0


class OracleLLM:
    """An LLM stand-in that answers from the current step's gold data, by ``schema_name``.

    ``query_graph`` → the gold query graph; ``kg_update`` → the gold diff; ``pddl_goal`` →
    the gold goal; ``select_entities`` → the gold entities. Token counts are estimates
    (characters / 4) so that context sizes stay comparable between variants. Set
    :attr:`step` before each step.
    """

    model = 'oracle'
    endpoint = None

    def __init__(self) -> None:
        self.step: Step | None = None

    def answer(self, schema_name: str, step: Step) -> Any:
        """Return the gold JSON answer for one request."""
        if schema_name == 'query_graph':
            return {'entities': list(step.query_graph.get('entities') or []),
                    'relations': [list(r) for r in step.query_graph.get('relations') or []]}
        if schema_name == 'select_entities':
            return {'entities': list(step.gold_entities)}
        if schema_name == 'kg_update':
            return (step.diff or Update()).to_json()
        if schema_name == 'pddl_goal':
            return {'goal': step.goal or ''}
        raise LLMError(f'the oracle cannot answer a {schema_name!r} request')

    def chat(self, messages: list[dict[str, Any]], *, schema: dict[str, Any] | None = None,
             schema_name: str = 'reply', max_tokens: int | None = None) -> LLMReply:
        """Answer like :meth:`LLMClient.chat` (raises LLMError for unknown requests)."""
        if self.step is None:
            raise LLMError('the oracle has no current step')
        data = self.answer(schema_name, self.step)
        text = json.dumps(data)
        prompt = '\n'.join(str(m.get('content', '')) for m in messages)
        return LLMReply(text=text, data=data, prompt_tokens=_estimate_tokens(prompt),
                        completion_tokens=_estimate_tokens(text), latency_s=0.0,
                        cached=False, attempts=1, finish_reason='stop')


RETRIEVAL_SCHEMAS = ('query_graph', 'select_entities')
# An outage is not the agent's fault: the step is not recorded and the run stops (resumable).
FATAL_LLM_ERRORS = ('unreachable', 'timeout')


@dataclass
class CallLog:
    """LLM accounting of one step."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0  # HTTP retries inside the client
    cached: int = 0
    errors: int = 0
    seconds: float = 0.0
    retrieval_seconds: float = 0.0  # wall time of the retrieval calls (query graph, selection)
    fatal: str | None = None  # the endpoint was unreachable or timed out: abort, don't judge


class CountingLLM:
    """Wrap an LLM client and account every call of the current step."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.log = CallLog()

    def reset(self) -> CallLog:
        """Start a new step; return the previous step's log."""
        log, self.log = self.log, CallLog()
        return log

    @property
    def model(self) -> str | None:
        """Return the wrapped client's model."""
        return self.inner.model

    @property
    def endpoint(self) -> str | None:
        """Return the wrapped client's endpoint."""
        return self.inner.endpoint

    @property
    def supports_logprobs(self) -> bool:
        """Tell whether the wrapped client takes ``logprobs``."""
        return bool(getattr(self.inner, 'supports_logprobs', False))

    def chat(self, messages: list[dict[str, Any]], *, schema: dict[str, Any] | None = None,
             schema_name: str = 'reply', max_tokens: int | None = None,
             **kwargs: Any) -> Any:
        """Forward to the wrapped client, counting tokens, retries and wall time."""
        began = time.perf_counter()
        try:
            reply = self.inner.chat(messages, schema=schema, schema_name=schema_name,
                                    max_tokens=max_tokens, **kwargs)
        except LLMError as exc:
            self.log.errors += 1
            if getattr(exc, 'kind', None) in FATAL_LLM_ERRORS:
                self.log.fatal = str(exc)
            raise
        finally:
            spent = time.perf_counter() - began
            self.log.seconds += spent
            if schema_name in RETRIEVAL_SCHEMAS:
                self.log.retrieval_seconds += spent
        self.log.calls += 1
        self.log.prompt_tokens += int(getattr(reply, 'prompt_tokens', 0) or 0)
        self.log.completion_tokens += int(getattr(reply, 'completion_tokens', 0) or 0)
        self.log.retries += max(0, int(getattr(reply, 'attempts', 1) or 1) - 1)
        self.log.cached += int(bool(getattr(reply, 'cached', False)))
        return reply
