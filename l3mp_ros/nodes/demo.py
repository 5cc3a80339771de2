# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""l3mp_demo: a scripted household scenario through the real nodes on embedded defaults.

All nodes run in one process (as ``l3mp_bringup``) with the embedded LLM unless
``--llm URL`` is given; a client node publishes a perception frame, two reports, a PDDL
goal, an NL task, a question and a KG query on the robot's topics and prints what comes
back on ``events``, ``plan`` (every status of a task), ``say`` and ``kg_query_result``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import rclpy
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from std_msgs.msg import String

from .. import paths, schemas
from ..planning.status import Status
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
SCENARIO: list[tuple[str, str, str]] = [
    ('scene_graph', json.dumps(SCENE), 'events'),
    ('nl_update', 'Jerry took the red pen from the living room table.', 'events'),
    ('nl_update', 'Anna went to the bathroom and turned off the light.', 'events'),
    ('goal', '(and (light_on laundry_room_light))', 'plan'),
    ('task', 'Bring the red pen to Anna.', 'plan'),
    ('voice_command', 'Where is the red pen?', 'say'),
    ('kg_query', json.dumps(schemas.kg_query('demo', entity='red_pen')), 'kg_query_result'),
]
SHOWN = ('events', 'plan', 'say', 'kg_query_result')


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
                     for t in ('scene_graph', 'nl_update', 'goal', 'task', 'voice_command',
                               'kg_query')}

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


def _show(topic: str, raw: str) -> str:
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
        return '\n'.join([f'  kg: {msg.get("count")} facts' + ''.join(
            f'\n    ({", ".join(f)})' for f in msg.get('facts') or [])]
            + [f'    ! {e}' for e in msg.get('errors') or []])
    steps = '\n'.join(f'    {s}' for s in msg.get('steps') or [])
    return (f'  plan {msg.get("task_id")}: {msg.get("status")} goal={msg.get("goal")}'
            + (f'\n{steps}' if steps else ''))


def run(client: DemoClient, timeout: float) -> int:
    """Publish each scenario step and wait for its answer."""
    for topic, data, reply in SCENARIO:
        pub = client.pubs[topic]
        end = time.monotonic() + 15
        while pub.get_subscription_count() == 0 and time.monotonic() < end:
            time.sleep(0.05)
        shown = data if topic != 'scene_graph' else 'scene graph: red_pen, purple_pen (new)'
        print(f'\n>> {topic}: {shown}', flush=True)
        before = {t: client.count(t) for t in client.got}
        began = time.monotonic()
        pub.publish(String(data=data))

        def answered(b: dict = before, r: str = reply) -> bool:
            if r == 'plan':
                return any(json.loads(m).get('status') not in (Status.QUEUED, Status.PLANNING)
                           for m in client.since('plan', b['plan']))
            return client.count(r) > b[r]

        while not answered() and time.monotonic() - began < timeout:
            time.sleep(0.1)
        time.sleep(0.5)
        for t in SHOWN:
            for raw in client.since(t, before[t]):
                print(_show(t, raw), flush=True)
        if not answered():
            print(f'  (no reply on {reply} within {timeout:.0f} s)', flush=True)
        print(f'  [{time.monotonic() - began:.1f} s]', flush=True)
    return 0


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
    overrides = {'store': str(out / 'robot' / 'kg.db'), 'llm_url': args.llm,
                 'llm_model': args.model, 'retriever': args.retriever, 'engine': args.engine,
                 'apply_step_effects': True, 'execute': 'none'}
    ros_args = ['--ros-args', '--params-file', str(paths.resolve('config/l3mp.yaml'))]
    for k, v in overrides.items():
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
        world = WorldModelNode()
        language = LanguageNode(world=world.world)
        nodes += [world, language, PlannerNode(agent=language.agent), DemoClient()]
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
