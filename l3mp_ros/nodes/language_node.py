# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""language_node: people's utterances → the agent; answers on ``say``.

``voice_command`` is routed (report / task / question); ``nl_update`` is a report. Reports
run Algorithm 3 (the verified update is applied by the single writer), questions are
answered from the KG, tasks are handed to the planner node on ``task``. A report whose
words fit several things is kept pending and its question said on ``say``; the next
utterance that answers it (on either topic) completes it, and an unanswered one is logged
as not applied after ``clarify_timeout`` seconds. "No, that's wrong." (or "undo that") right
after a report was written takes it back ("Taken back. ..." on ``say``). LLM calls run on a
worker thread in arrival order, so the node keeps receiving while the LLM thinks. A
managed node (:mod:`.managed`): configure builds the agent (and loads the model handle),
activate opens the topics.
"""

from __future__ import annotations

import sys
from typing import Any

from std_msgs.msg import String

from ..compose import agent_setters
from ..config import LANGUAGE, node_parameters
from ..schemas import error_event, loads
from ..tasking.requests import yes_no
from ..text import UtteranceKind
from ..world.phrasing import Phrasing
from .common import COMMAND_QOS, guarded, publish_json, run
from .managed import AgentNode, Given

MAX_UTTERANCE = 2000
EXPIRY_PERIOD = 2.0  # seconds between checks for unanswered questions


class LanguageNode(AgentNode):
    """Reports, questions and routing through an :class:`~l3mp_ros.agent.Agent`."""

    def __init__(self, agent: Given = None, world: Given = None, **kwargs: Any) -> None:
        super().__init__('language', node_parameters(LANGUAGE), agent, world, **kwargs)
        self.start()

    def configure(self) -> None:
        """Build the agent; open ``say``, ``events`` and ``task``."""
        super().configure()
        self.task_pub = self.publisher('task', COMMAND_QOS)

    def setters(self) -> dict[str, Any]:
        """Return the settings that change live: retriever, attempts, time-outs, checks."""
        return agent_setters(self.agent)

    def activate(self) -> None:
        """Open the utterance topics and the question-expiry clock."""
        if self.replica is not None:
            self.subscribe('events', self._on_event, COMMAND_QOS)
        self.follow_log()
        self.subscribe('voice_command', self._on_voice, COMMAND_QOS)
        self.subscribe('nl_update', self._on_report, COMMAND_QOS)
        # a report waiting for an answer past clarify_timeout is logged as not applied
        self.timer(EXPIRY_PERIOD, lambda: self.worker.submit('clarify', self._expire))

    @guarded('events')
    def _on_event(self, msg: String) -> None:
        try:
            self.replica.on_event(loads(msg.data))
        except Exception as exc:
            self.get_logger().error(f'cannot follow event: {exc!r}')

    # -- inputs (executor thread: validate and queue, never block) -----------
    def _text(self, msg: String, topic: str) -> str | None:
        text = (msg.data or '').strip()
        errors = []
        if not text:
            errors = ['empty utterance']
        elif len(text) > MAX_UTTERANCE:
            errors = [f'utterance of {len(text)} characters exceeds {MAX_UTTERANCE}']
        if errors:
            publish_json(self.events_pub, error_event('nl', errors, utterance=text[:200],
                                                      topic=topic))
            self._say(f'Sorry, I cannot use that: {errors[0]}.')
            return None
        return text

    @guarded('voice_command')
    def _on_voice(self, msg: String) -> None:
        text = self._text(msg, 'voice_command')
        if text is not None:
            self.worker.submit('voice_command', lambda: self._route(text))

    @guarded('nl_update')
    def _on_report(self, msg: String) -> None:
        text = self._text(msg, 'nl_update')
        if text is not None:
            self.worker.submit('nl_update', lambda: self._report(text))

    # -- jobs (worker thread) -------------------------------------------------
    def _route(self, text: str) -> None:
        if yes_no(text) is not None and not self.agent.updater.answers(text):
            return  # a plain yes or no answers the planner's plan (confirm_plan), not us
        kind = self.agent.route(text)
        self.get_logger().info(f'"{text[:80]}" is a {kind}')
        if kind == UtteranceKind.TASK:
            self.task_pub.publish(String(data=text))
            self._say(f'On it: {text}')
        elif kind == UtteranceKind.QUESTION:
            answer = self.agent.ask(text)
            self._say(answer.text)
        else:
            self._report(text)

    def _report(self, text: str) -> None:
        out = self.agent.update(text, source='nl')
        if out.applied:
            world = self.agent.world
            head = 'Taken back. ' if self._withdraws(out.event_id) else 'Noted. '
            self._say(head + Phrasing(world.domain, world.snapshot()).change(out.update))
        elif out.question:
            self._say(out.question)
        else:
            why = out.errors[0] if out.errors else 'no update produced'
            self._say(f'I could not update my knowledge: {why}')

    def _withdraws(self, event_id: int | None) -> bool:
        """Tell whether the event ``event_id`` takes back an earlier one ("undo that")."""
        if event_id is None:
            return False
        found = [e for e in self.agent.world.events(since_id=event_id - 1) if e.id == event_id]
        return bool(found) and 'withdraws' in found[0].info

    def _expire(self) -> None:
        for _ in self.agent.updater.expire():
            self._say('I did not get an answer to my question, so I left that report out.')

    def _job_failed(self, label: str, exc: BaseException) -> None:
        self.get_logger().error(f'{label} failed: {exc!r}')
        publish_json(self.events_pub, error_event('nl', [f'{label} failed: {exc}'],
                                                  topic=label))
        self._say('Sorry, something went wrong.')


def main(args: list[str] | None = None) -> int:
    """Run the language node."""
    return run(LanguageNode, args, name='language_node')


if __name__ == '__main__':
    sys.exit(main())
