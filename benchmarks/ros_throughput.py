# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Throughput of the ROS nodes over real DDS (one process, a multi-threaded executor).

1. Scene graphs of ``--objects`` visible objects (default 200) through world_model_node:
   every frame moves every object to another table, so each frame is a real update
   (200 removals + 200 additions, verified, committed to SQLite, published on ``events``).
   At most ``--in-flight`` frames are outstanding; the sustained rate is applied events
   per second (goal: >= 30 Hz), with per-frame latency (publish → event).
2. End-to-end latency from a ``goal`` message to its ``plan`` (planner on the household KG).

    python benchmarks/ros_throughput.py [--frames 300] [--engine fast-downward] [--out DIR]
        [--executor pool|rclpy]

``--executor rclpy`` runs on rclpy's own MultiThreadedExecutor instead of the
:class:`~l3mp_ros.nodes.executor.PoolExecutor` the nodes use (for comparison).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault('ROS_DOMAIN_ID', str(10 + os.getpid() % 90))
os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')

import rclpy  # noqa: E402
from rclpy.executors import MultiThreadedExecutor  # noqa: E402
from rclpy.node import Node  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from std_msgs.msg import String  # noqa: E402

from l3mp_ros.compose import build_agent  # noqa: E402
from l3mp_ros.config import Config  # noqa: E402
from l3mp_ros.nodes.common import COMMAND_QOS, LATCHED_QOS, STREAM_QOS  # noqa: E402
from l3mp_ros.nodes.executor import PoolExecutor  # noqa: E402
from l3mp_ros.nodes.planner_node import PlannerNode  # noqa: E402
from l3mp_ros.nodes.world_model_node import WorldModelNode  # noqa: E402

TABLES = ('living_room_table', 'jerry_bedroom_table', 'anna_bedroom_table')
GOALS = ['(light_on laundry_room_light)', '(placed_at_table red_pen jerry_bedroom_table)',
         '(window_open jerry_bedroom_window)', '(in_agent_hand milk the_robot)',
         '(placed_at_table book_hamlet living_room_table)']


class Bench(Node):
    def __init__(self) -> None:
        super().__init__('bench')
        self.sg = self.create_publisher(String, 'scene_graph', STREAM_QOS)
        self.goal = self.create_publisher(String, 'goal', COMMAND_QOS)
        self.events: list[tuple[float, dict]] = []
        self.plans: list[tuple[float, dict]] = []
        self.cv = threading.Condition()
        self.create_subscription(String, 'events', self._ev, COMMAND_QOS)
        self.create_subscription(String, 'plan', self._plan, LATCHED_QOS)

    def _ev(self, msg: String) -> None:
        with self.cv:
            self.events.append((time.perf_counter(), json.loads(msg.data)))
            self.cv.notify_all()

    def _plan(self, msg: String) -> None:
        with self.cv:
            self.plans.append((time.perf_counter(), json.loads(msg.data)))
            self.cv.notify_all()

    def wait(self, pred, timeout: float = 60.0) -> None:
        with self.cv:
            if not self.cv.wait_for(pred, timeout):
                raise TimeoutError('benchmark stalled')


def frame(i: int, n: int) -> dict:
    names = [f'bench_book_{k}' for k in range(n)]
    return {'schema': 'l3mp/scene_graph/v1', 'stamp': time.time(), 'source': 'bench',
            'entities': [{'name': x, 'type': 'book'} for x in names],
            'facts': [[x, 'placed_at_table', TABLES[(i + k) % len(TABLES)]]
                      for k, x in enumerate(names)],
            'observed': names}


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--frames', type=int, default=300)
    ap.add_argument('--objects', type=int, default=200)
    ap.add_argument('--in-flight', type=int, default=3)
    ap.add_argument('--goals', type=int, default=10)
    ap.add_argument('--engine', default='fast-downward')
    ap.add_argument('--out', help='directory for ros_throughput.json')
    ap.add_argument('--executor', choices=('pool', 'rclpy'), default='pool')
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix='l3mp_bench_')
    overrides = [Parameter('store', value=f'{tmp}/kg.db'), Parameter('retriever', value='full'),
                 Parameter('engine', value=args.engine), Parameter('markers_rate', value=2.0),
                 Parameter('apply_step_effects', value=False)]
    rclpy.init()
    ex = (PoolExecutor if args.executor == 'pool' else MultiThreadedExecutor)(num_threads=4)
    wm = WorldModelNode(parameter_overrides=overrides)
    agent = build_agent(Config(retriever='full', engine=args.engine, plan_timeout=30.0),
                        wm.world, llm=object())
    planner = PlannerNode(agent=agent, parameter_overrides=overrides)
    bench = Bench()
    for n in (wm, planner, bench):
        ex.add_node(n)
    spin = threading.Thread(target=ex.spin, daemon=True)
    spin.start()
    try:
        while bench.sg.get_subscription_count() == 0 or bench.goal.get_subscription_count() == 0:
            time.sleep(0.05)
        time.sleep(0.5)
        # -- 1: scene graphs ----------------------------------------------------
        sent: list[float] = []
        bench.sg.publish(String(data=json.dumps(frame(0, args.objects))))  # adds entities
        bench.wait(lambda: len(bench.events) >= 1)
        base = len(bench.events)
        payload_bytes = len(json.dumps(frame(1, args.objects)))
        t0 = time.perf_counter()
        for i in range(1, args.frames + 1):
            bench.wait(lambda i=i: len(bench.events) - base >= i - args.in_flight)
            sent.append(time.perf_counter())
            bench.sg.publish(String(data=json.dumps(frame(i, args.objects))))
        bench.wait(lambda: len(bench.events) - base >= args.frames)
        t1 = time.perf_counter()
        evs = bench.events[base:base + args.frames]
        applied = sum(1 for _, e in evs if e['status'] == 'applied')
        lat = [(t - s) * 1000 for (t, _), s in zip(evs, sent, strict=True)]
        rate = args.frames / (t1 - t0)
        # -- 2: goal -> plan ----------------------------------------------------
        plan_ms: list[float] = []
        for g in range(args.goals):
            tid = f'bench-{g}'
            t = time.perf_counter()
            bench.goal.publish(String(data=json.dumps({'task_id': tid,
                                                       'goal': GOALS[g % len(GOALS)]})))
            bench.wait(lambda tid=tid: any(p['task_id'] == tid for _, p in bench.plans), 120)
            arrived = next(ts for ts, p in bench.plans if p['task_id'] == tid)
            plan_ms.append((arrived - t) * 1000)
            planner.tasks.cancel()  # keep the next goal from queueing behind this one
    finally:
        ex.shutdown(timeout_sec=2.0)
        for n in (bench, planner, wm):
            n.destroy_node()
        rclpy.try_shutdown()
    result = {
        'objects_per_frame': args.objects, 'frames': args.frames, 'in_flight': args.in_flight,
        'frame_bytes': payload_bytes, 'applied': applied, 'rate_hz': round(rate, 1),
        'frame_latency_ms': {'median': round(statistics.median(lat), 1),
                             'p95': round(pct(lat, 0.95), 1), 'max': round(max(lat), 1)},
        'engine': args.engine, 'goals': args.goals, 'executor': args.executor,
        'goal_to_plan_ms': {'median': round(statistics.median(plan_ms), 1),
                            'p95': round(pct(plan_ms, 0.95), 1), 'max': round(max(plan_ms), 1)},
        'cpus': os.cpu_count(), 'python': sys.version.split()[0],
    }
    print(f'[{args.executor}] scene graphs: {args.frames} frames x {args.objects} objects '
          f'({payload_bytes} B): '
          f'{rate:.1f} Hz sustained (goal >= 30 Hz), {applied} applied; latency median '
          f'{result["frame_latency_ms"]["median"]} ms, p95 {result["frame_latency_ms"]["p95"]}'
          ' ms')
    print(f'goal -> plan ({args.engine}): median {result["goal_to_plan_ms"]["median"]} ms, '
          f'p95 {result["goal_to_plan_ms"]["p95"]} ms over {args.goals} goals')
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / 'ros_throughput.json').write_text(json.dumps(result, indent=1))
    return 0


if __name__ == '__main__':
    sys.exit(main())
