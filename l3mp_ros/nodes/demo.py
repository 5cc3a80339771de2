# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""l3mp_demo: a scripted household scenario through the real nodes on embedded defaults.

All nodes run in one process (as ``l3mp_bringup``) with the embedded LLM unless
``--llm URL`` is given. A client node publishes a perception frame; then a scripted
person (:mod:`l3mp_ros.agent.scripted`) tells the robot a story on ``nl_update`` and
``voice_command`` as a person would: a report the robot may ask back about on ``say``
(the person answers on ``voice_command`` from what really happened), a slip taken back
("No, that's wrong.") and "Where is the red pen?"; the facts written are shown with
their support through ``kg_query``. Then a PDDL goal and an NL task are planned (their
steps printed in sentences, :meth:`~l3mp_ros.world.phrasing.Phrasing.steps`; the message
keeps the PDDL steps), and a summary says what came of each step. Every line is what came
back on ``events``, ``plan``, ``say`` and ``kg_query_result``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from std_msgs.msg import String

from .. import paths, schemas
from ..agent.scripted import (
    HOUSEHOLD_NOTE,
    HOUSEHOLD_STORY,
    Conversation,
    Heard,
    ScriptedPerson,
)
from ..compose import load_domain
from ..config import Config
from ..planning.status import Status
from ..world.events import EventStatus
from ..world.kg import Fact, KnowledgeGraph
from ..world.phrasing import Phrasing
from .common import COMMAND_QOS, PLAN_READER_QOS, STREAM_QOS, try_shutdown
from .executor import PoolExecutor
from .language_node import LanguageNode
from .planner_node import PlannerNode
from .world_model_node import WorldModelNode

SCENE = schemas.scene_graph(
    source='demo_camera', entities=[{'name': 'purple_pen', 'type': 'pen'}],
    facts=[['red_pen', 'placed_at_table', 'living_room_table'],
           ['purple_pen', 'placed_at_table', 'living_room_table']],
    observed=['red_pen', 'purple_pen'])
BEFORE: list[tuple[str, str, str]] = [('scene_graph', json.dumps(SCENE), 'events')]
AFTER: list[tuple[str, str, str]] = [
    ('goal', '(and (light_on laundry_room_light))', 'plan'),
    ('task', 'Bring the red pen to Anna.', 'plan'),
    ('kg_query', json.dumps(schemas.kg_query('demo', entity='red_pen')), 'kg_query_result'),
]
SHOWN = ('events', 'plan', 'say', 'kg_query_result')
PUBLISHED = ('scene_graph', 'nl_update', 'goal', 'task', 'voice_command', 'kg_query')
EVENT_GRACE = 2.0  # seconds an event may come after the sentence said about it
QUERY_TIMEOUT = 30.0  # seconds for a kg_query_result
SaySteps = Callable[[list[str]], list[str]]  # a plan's steps -> sentences


class DemoClient(Node):
    """Publishes the scenario and records replies."""

    def __init__(self) -> None:
        super().__init__('l3mp_demo_client')
        self.got: dict[str, list[str]] = {t: [] for t in SHOWN}
        self.lock = threading.Lock()
        for topic in self.got:
            self.create_subscription(String, topic, self._keep(topic),
                                     PLAN_READER_QOS if topic == 'plan' else COMMAND_QOS)
        self.pubs = {t: self.create_publisher(String, t, STREAM_QOS if t == 'scene_graph'
                                              else COMMAND_QOS)
                     for t in PUBLISHED}

    def _keep(self, topic: str) -> Callable[[String], None]:
        def cb(msg: String) -> None:
            with self.lock:
                self.got[topic].append(msg.data)
        return cb

    def count(self, topic: str) -> int:
        """Return how many messages arrived on a topic."""
        with self.lock:
            return len(self.got[topic])

    def since(self, topic: str, n: int) -> list[str]:
        """Return messages after the first ``n``."""
        with self.lock:
            return list(self.got[topic][n:])

    def send(self, topic: str, data: str) -> None:
        """Publish once a subscriber is matched (waits up to 15 s for one)."""
        pub = self.pubs[topic]
        end = time.monotonic() + 15
        while pub.get_subscription_count() == 0 and time.monotonic() < end:
            time.sleep(0.05)
        pub.publish(String(data=data))


class TopicRobot:
    """The robot as the scripted person reaches it: the nodes' topics.

    A report goes on ``nl_update``, anything else (answers, "No, that's wrong.",
    questions) on ``voice_command``; what the robot says comes on ``say``, what it wrote,
    rejected or asks about on ``events`` (``info.clarify``: the question and its options),
    the facts it holds and their support on ``kg_query_result``.
    """

    topics = True

    def __init__(self, client: DemoClient, timeout: float) -> None:
        self.client, self.timeout = client, timeout

    def _events(self, n: int) -> list[dict[str, Any]]:
        """Return the language node's events after the first ``n`` (its source is nl)."""
        out = []
        for raw in self.client.since('events', n):
            msg = json.loads(raw)
            if msg.get('source') == 'nl' and msg.get('status') in (
                    EventStatus.APPLIED, EventStatus.REJECTED, EventStatus.CLARIFY, 'error'):
                out.append(msg)
        return out

    def hear(self, text: str, report: bool) -> Heard:
        """Publish ``text``; wait for what the robot says (and logs) about it."""
        c = self.client
        said_before, events_before = c.count('say'), c.count('events')
        c.send('nl_update' if report else 'voice_command', text)
        end = time.monotonic() + self.timeout
        while c.count('say') == said_before and time.monotonic() < end:
            time.sleep(0.1)
        grace = time.monotonic() + EVENT_GRACE  # topics are not ordered with each other
        while not self._events(events_before) and time.monotonic() < grace:
            time.sleep(0.05)
        said = c.since('say', said_before) or [
            f'(nothing said on say within {self.timeout:.0f} s)']
        events = self._events(events_before)
        return Heard(said, events[-1] if events else None)

    def facts(self, entity: str) -> dict[str, Any]:
        """Ask ``kg_query`` about ``entity``; return its ``kg_query_result``."""
        rid = f'demo-{uuid.uuid4().hex[:8]}'
        n = self.client.count('kg_query_result')
        self.client.send('kg_query', json.dumps(schemas.kg_query(rid, entity=entity)))
        end = time.monotonic() + QUERY_TIMEOUT
        while time.monotonic() < end:
            for raw in self.client.since('kg_query_result', n):
                body = json.loads(raw)
                if body.get('request_id') == rid:
                    return body
            time.sleep(0.05)
        return {'errors': [f'no kg_query_result within {QUERY_TIMEOUT:.0f} s']}


def _show(topic: str, raw: str, say_steps: SaySteps | None = None) -> str:
    """Return a message as the demo prints it (a plan's steps in sentences, ``say_steps``)."""
    if topic == 'say':
        return f'  say: {raw}'
    msg = json.loads(raw)
    if topic == 'events':
        diff = msg.get('diff') or {}
        parts = [f'  event #{msg.get("id")} {msg.get("status")} ({msg.get("source")})']
        for key in ('remove', 'add'):
            if diff.get(key):
                parts.append(f'    {key.upper()}: ' + ', '.join(
                    '(' + ', '.join(t) + ')' for t in diff[key]))
        parts += [f'    ! {e}' for e in msg.get('errors') or []]
        return '\n'.join(parts)
    if topic == 'kg_query_result':
        support = list(msg.get('support') or [])
        lines = [f'  kg: {msg.get("count")} facts']
        for k, f in enumerate(msg.get('facts') or []):
            s = support[k] if k < len(support) else {}
            kind = f' [{s["kind"]}, event #{s.get("event_id")}]' if s.get('kind') else ''
            lines.append(f'    ({", ".join(f)}){kind}')
        return '\n'.join(lines + [f'    ! {e}' for e in msg.get('errors') or []])
    raw_steps = [str(s) for s in msg.get('steps') or []]
    said = say_steps(raw_steps) if say_steps is not None else raw_steps
    steps = '\n'.join(f'    {i}. {s}' for i, s in enumerate(said, 1))
    return (f'  plan {msg.get("task_id")}: {msg.get("status")} goal={msg.get("goal")}'
            + (f'\n{steps}' if steps else ''))


def step(client: DemoClient, topic: str, data: str, reply: str, timeout: float,
         say_steps: SaySteps | None = None) -> str:
    """Publish one scenario step, wait for its answer, print it; return its outcome.

    A plan's steps are printed and summed up in sentences (``say_steps``).
    """
    shown = data if topic != 'scene_graph' else 'scene graph: red_pen, purple_pen (new)'
    print(f'\n>> {topic}: {shown}', flush=True)
    before = {t: client.count(t) for t in client.got}
    began = time.monotonic()
    client.send(topic, data)

    def final() -> list[dict]:
        return [m for m in map(json.loads, client.since('plan', before['plan']))
                if m.get('status') not in (Status.QUEUED, Status.PLANNING)]

    def answered() -> bool:
        return bool(final()) if reply == 'plan' else client.count(reply) > before[reply]

    while not answered() and time.monotonic() - began < timeout:
        time.sleep(0.1)
    time.sleep(0.5)
    for t in SHOWN:
        for raw in client.since(t, before[t]):
            print(_show(t, raw, say_steps), flush=True)
    print(f'  [{time.monotonic() - began:.1f} s]', flush=True)
    if not answered():
        print(f'  (no reply on {reply} within {timeout:.0f} s)', flush=True)
        return f'{topic} "{shown}": no reply on {reply} within {timeout:.0f} s'
    if reply == 'plan':
        last = final()[-1]
        raw_steps = [str(s) for s in last.get('steps') or []]
        n = len(raw_steps)
        unrun = ' (execute: none, so nothing runs it)' if last.get('status') == Status.PLANNED \
            else ''
        said = ' '.join(say_steps(raw_steps) if say_steps is not None else raw_steps)
        return (f'{topic} "{shown}": {last.get("status")}, {n} step{"s" if n != 1 else ""}'
                + unrun + (f': {said}' if said else ''))
    if reply == 'kg_query_result':
        body = json.loads(client.since(reply, before[reply])[-1])
        support = list(body.get('support') or [])
        held = [f'({", ".join(f)})' + (f' [{support[k].get("kind")}]' if k < len(support)
                                       else '') for k, f in enumerate(body.get('facts') or [])]
        return f'what the robot holds of {json.loads(data).get("entity")}: ' + '; '.join(held)
    events = [json.loads(raw) for raw in client.since('events', before['events'])]
    return f'{shown}: ' + '; '.join(f'event #{e.get("id")} {e.get("status")}' for e in events)


def person_truth() -> KnowledgeGraph:
    """Return what holds as the scripted person knows it: the house, as the camera saw it."""
    truth = KnowledgeGraph.loads(paths.resolve(Config().initial_state).read_text())
    for e in SCENE['entities']:
        truth.add_entity(e['name'], e['type'])
    for f in SCENE['facts']:
        truth.add_fact(Fact.from_triplet(f))
    return truth


def run(client: DemoClient, timeout: float) -> int:
    """Run the scenario: the frame, the conversation, the plans, the summary."""
    domain = load_domain(Config())
    say_steps = Phrasing(domain.schema, person_truth()).steps  # plans in sentences
    outcomes = [step(client, *s, timeout) for s in BEFORE]
    print('\n== a conversation: a scripted person (this demo) reports on nl_update and '
          'answers on voice_command; the robot replies on say\n' + HOUSEHOLD_NOTE, flush=True)
    person = ScriptedPerson(person_truth(), domain.schema, domain.constraints)
    talk = Conversation(TopicRobot(client, timeout), person,
                        out=lambda line: print(line, flush=True))
    talk.run(HOUSEHOLD_STORY)
    outcomes += [step(client, *s, timeout, say_steps) for s in AFTER]
    print('\n== summary', flush=True)
    for line in outcomes[:len(BEFORE)] + talk.summary() + outcomes[len(BEFORE):]:
        print(f'  {line}', flush=True)
    return 0


def settings(out: Path, llm: str = '', model: str = 'local', retriever: str = 'link',
             engine: str = 'portfolio') -> dict[str, Any]:
    """Return the node parameters of the demo (over ``config/l3mp.yaml``)."""
    return {'store': str(out / 'robot' / 'kg.db'), 'llm_url': llm, 'llm_model': model,
            'retriever': retriever, 'engine': engine, 'apply_step_effects': True,
            'execute': 'none'}


def demo_nodes(**node_kw: Any) -> list[Node]:
    """Return the robot's nodes (one world model, shared) and the demo client, last.

    ``node_kw`` go to each robot node (``parameter_overrides``; none: the ROS arguments).
    """
    world = WorldModelNode(**node_kw)
    language = LanguageNode(world=world.world, **node_kw)
    return [world, language, PlannerNode(agent=language.agent, **node_kw), DemoClient()]


def main(argv: list[str] | None = None) -> int:
    """Run the scenario."""
    parser = argparse.ArgumentParser(prog='l3mp_demo', description=__doc__.splitlines()[0])
    parser.add_argument('--out', default='out/demo', help='directory for the robot store')
    parser.add_argument('--llm', default='', help='OpenAI-compatible URL ("" = embedded)')
    parser.add_argument('--model', default='local')
    parser.add_argument('--retriever', default='link',
                        choices=('full', 'select', 'search', 'link'))
    parser.add_argument('--engine', default='portfolio')
    parser.add_argument('--timeout', type=float, default=300.0, help='seconds per step')
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    out = Path(args.out)
    shutil.rmtree(out / 'robot', ignore_errors=True)
    (out / 'robot').mkdir(parents=True, exist_ok=True)
    ros_args = ['--ros-args', '--params-file', str(paths.resolve('config/l3mp.yaml'))]
    for k, v in settings(out, args.llm, args.model, args.retriever, args.engine).items():
        value = json.dumps(v) if isinstance(v, bool) else (v if v != '' else "''")
        ros_args += ['-p', f'{k}:={value}']
    print('== l3mp_demo: all nodes in one process; LLM: '
          + (args.llm or 'embedded Qwen2.5-Coder-1.5B (slow on 2 cores: minutes per step)'),
          flush=True)
    nodes: list[Node] = []
    executor = None
    try:
        rclpy.init(args=['l3mp_demo', *ros_args])
        executor = PoolExecutor(num_threads=4)
        nodes += demo_nodes()
        for node in nodes:
            executor.add_node(node)
        spin = threading.Thread(target=executor.spin, daemon=True)
        spin.start()
        return run(nodes[-1], args.timeout)
    except (KeyboardInterrupt, ExternalShutdownException):
        return 130
    finally:
        if executor is not None:
            executor.shutdown(timeout_sec=2)
        for node in reversed(nodes):
            node.destroy_node()
        try_shutdown()


if __name__ == '__main__':
    sys.exit(main())
