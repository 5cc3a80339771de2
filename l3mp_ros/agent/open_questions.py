# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A report kept pending on a question (:mod:`.clarify`): its answer, or its expiry.

The question itself is asked by Algorithm 3 (:mod:`.update`); this completes the report
when the speaker answers (no LLM call), or logs it as not applied when no answer comes.
"""

from __future__ import annotations

import time
from typing import Any

from ..world.kg import Update
from ..world.model import WorldModel
from . import clarify
from .update_answers import UpdateOutcome


class OpenQuestions:
    """The open question of a world model, and how an answer completes its report."""

    def __init__(self, world: WorldModel) -> None:
        self.world = world

    def expire(self, now: float | None = None, source: str = 'nl') -> list[int]:
        """Log every question past its time as not applied; return their event ids."""
        done = []
        for qid, data in clarify.expired(self.world, now):
            self.world.reject(
                [f'no answer to "{data.get("question", "")}" in time: the report was not '
                 'applied'], source=source, utterance=data.get('text'),
                info={'clarifies': qid, 'expired': True})
            done.append(qid)
        return done

    def pending(self) -> tuple[int, dict[str, Any]] | None:
        """Return (event id, question) of the open question, if any."""
        self.expire()
        return clarify.open_question(self.world)

    def answers(self, text: str) -> bool:
        """Tell whether ``text`` answers the open question (no LLM call)."""
        open_ = self.pending()
        return open_ is not None and clarify.pick(
            self.world.snapshot(), open_[1].get('options') or [], text) is not None

    def answer(self, text: str, *, source: str = 'nl') -> UpdateOutcome | None:
        """Complete the open question's report with ``text``; None if it does not answer.

        The stated change is redone with the chosen thing, completed and verified on the
        graph as it is now, then applied (or rejected) with ``info.clarifies``.
        """
        began = time.perf_counter()
        open_ = self.pending()
        if open_ is None:
            return None
        qid, data = open_
        kg = self.world.snapshot()
        chosen = clarify.pick(kg, data.get('options') or [], text)
        if chosen is None:
            return None
        out = UpdateOutcome(text=str(data.get('text') or ''))
        info: dict[str, Any] = {'clarifies': qid, 'answer': text}
        utterance = f'{out.text} [{text.strip()}]'
        net = None
        if chosen == clarify.CANCEL:
            out.errors = ['the speaker withdrew the report: nothing is applied']
        else:
            stated = [Update.from_json(u) for u in data.get('stated') or []]
            net, errors = clarify.substituted(kg, stated, str(data.get('chosen')), chosen,
                                              self.world)
            info['chosen'] = chosen
            out.update = net
            out.errors = [f'with {chosen} the report no longer fits the world model: '
                          + '; '.join(errors)] if net is None else []
        if net is None:
            res = self.world.reject(out.errors, source=source, utterance=utterance, info=info)
        else:
            res = self.world.apply(net, source=source, utterance=utterance, verify=True,
                                   info=info)
            out.errors = res.errors
        out.applied, out.event_id = res.applied, res.event_id
        out.seconds = time.perf_counter() - began
        return out
