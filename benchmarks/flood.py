# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Flood benchmark: a burst of mixed messages at ``l3mp_bringup`` over real DDS.

Starts ``l3mp_bringup`` (world model, language, planner and perception nodes in one
process, household KG in a fresh store, no LLM call: no natural language is sent) and
publishes ``--messages`` messages as fast as DDS takes them, mixed:

* ``kg_update/v1`` requests with a unique ``request_id`` (half valid light switches, half
  naming an unknown predicate): each must get an event carrying its ``request_id``;
* ``kg_query/v1`` requests: each must get a ``kg_query_result`` with its ``request_id``;
* ``goal`` messages with a unique ``task_id`` (goals that already hold): each must get a
  final ``plan`` message for its ``task_id``;
* garbage on ``kg_update`` (not JSON): each must get an error event on ``events``.

Reports how many requests were answered (and how, e.g. ``overloaded``), the time from the
first message to the last answer, and the bringup process's peak RSS (VmHWM). A message
DDS refuses at ``publish`` (its histories are full: the sender gets an error, nothing is
lost silently) is counted as refused and not expected to be answered. Usage::

    python benchmarks/flood.py [--messages 2000] [--pace S] [--timeout 300] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault('ROS_DOMAIN_ID', str(10 + os.getpid() % 90))
os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')

import rclpy  # noqa: E402
from rclpy._rclpy_pybind11 import RCLError  # noqa: E402
from rclpy.node import Node  # noqa: E402
from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy  # noqa: E402
from std_msgs.msg import String  # noqa: E402

from l3mp_ros.nodes.common import COMMAND_QOS, PLAN_READER_QOS  # noqa: E402
from l3mp_ros.nodes.executor import PoolExecutor  # noqa: E402

# the sender keeps every message until delivered: only the receiving side is measured
SEND_QOS = QoSProfile(depth=1, history=HistoryPolicy.KEEP_ALL,
                      reliability=ReliabilityPolicy.RELIABLE)
FINAL = {'solved', 'done', 'failed', 'invalid_goal', 'unsolvable', 'timeout', 'cancelled',
         'error', 'overloaded'}
LIGHTS = ('kitchen_light', 'living_room_light', 'jerry_bedroom_light', 'anna_bedroom_light',
          'bathroom_light', 'laundry_room_light')


class Sender(Node):
    """Publishes the burst and records every answer with the time it came."""

    def __init__(self) -> None:
        super().__init__('flood')
        self.pubs = {t: self.create_publisher(String, t, SEND_QOS)
                     for t in ('kg_update', 'kg_query', 'goal')}
        self.lock = threading.Lock()
        self.answers: dict[str, tuple[float, str]] = {}
        self.errors: list[float] = []
        self.last = 0.0
        self.create_subscription(String, 'events', self._event, COMMAND_QOS)
        self.create_subscription(String, 'kg_query_result', self._query, COMMAND_QOS)
        self.create_subscription(String, 'plan', self._plan, PLAN_READER_QOS)

    def _keep(self, key: str | None, how: str) -> None:
        now = time.perf_counter()
        with self.lock:
            self.last = now
            if key is None:
                self.errors.append(now)
            elif key not in self.answers:
                self.answers[key] = (now, how)

    def _event(self, msg: String) -> None:
        ev = json.loads(msg.data)
        rid = ev.get('request_id') or (ev.get('info') or {}).get('request_id')
        if rid:
            self._keep(rid, ev.get('status', '?'))
        elif ev.get('status') == 'error' and ev.get('topic') == 'kg_update':
            self._keep(None, 'error')
        elif ev.get('status') == 'overloaded':
            self._keep(None, 'overloaded')

    def _query(self, msg: String) -> None:
        body = json.loads(msg.data)
        self._keep(body.get('request_id'), 'answered' if body.get('ok') else 'refused')

    def _plan(self, msg: String) -> None:
        body = json.loads(msg.data)
        if body.get('status') in FINAL:
            self._keep(body.get('task_id'), body['status'])


def burst(n: int, seed: int) -> list[tuple[str, str, str | None]]:
    """Return ``n`` (topic, payload, expected answer key or None for garbage) in order."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        r = rng.random()
        if r < 0.4:
            light = rng.choice(LIGHTS)
            pred = 'light_on' if rng.random() < 0.5 else 'light_onn'  # half unknown
            body = {'schema': 'l3mp/kg_update/v1', 'request_id': f'u{i}', 'source': 'flood',
                    'diff': {'remove': [], 'add': [[light, pred, 'true']]}}
            out.append(('kg_update', json.dumps(body), f'u{i}'))
        elif r < 0.6:
            body = {'schema': 'l3mp/kg_query/v1', 'request_id': f'q{i}', 'entity': 'red_pen'}
            out.append(('kg_query', json.dumps(body), f'q{i}'))
        elif r < 0.85:
            body = {'task_id': f'g{i}', 'goal': '(person_in_room anna anna_bedroom)'}
            out.append(('goal', json.dumps(body), f'g{i}'))
        else:
            out.append(('kg_update', 'not json {' + 'x' * rng.randint(1, 200), None))
    return out


def vm_hwm_kb(pid: int) -> int:
    """Return a process's peak resident set (kB), 0 if gone."""
    try:
        for line in Path(f'/proc/{pid}/status').read_text().splitlines():
            if line.startswith('VmHWM:'):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the flood; print and write the summary."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--messages', type=int, default=2000)
    ap.add_argument('--timeout', type=float, default=300.0)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--pace', type=float, default=0.0,
                    help='seconds between messages (0: a burst, as fast as DDS takes them)')
    ap.add_argument('--out', default='out/flood')
    args = ap.parse_args(argv)
    tmp = tempfile.mkdtemp(prefix='l3mp_flood_')
    bringup = [sys.executable, '-c', 'import sys; from l3mp_ros.nodes.bringup import main; '
               'sys.exit(main())', '--ros-args', '-p', f'store:={tmp}/kg.db',
               '-p', 'execute:=none', '-p', 'engine:=fast-downward',
               '-p', 'retriever:=full', '-p', 'markers_rate:=1.0']
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log = open(out / 'bringup.log', 'w')  # a file: an undrained pipe would block the node
    child = subprocess.Popen(bringup, stdout=subprocess.DEVNULL, stderr=log, text=True)
    rclpy.init()
    sender = Sender()
    executor = PoolExecutor(num_threads=2)
    executor.add_node(sender)
    spin = threading.Thread(target=executor.spin, daemon=True)
    spin.start()
    msgs = burst(args.messages, args.seed)
    try:
        end = time.monotonic() + 120
        while any(p.get_subscription_count() == 0 for p in sender.pubs.values()):
            if time.monotonic() > end or child.poll() is not None:
                raise RuntimeError('l3mp_bringup did not come up')
            time.sleep(0.1)
        time.sleep(2.0)  # the plan/events publishers match us too
        t0 = time.perf_counter()
        refused: list[int] = []  # DDS told the sender it cannot take more (publish raised)
        for i, (topic, payload, _) in enumerate(msgs):
            try:
                sender.pubs[topic].publish(String(data=payload))
            except RCLError:
                refused.append(i)
            if args.pace > 0:
                time.sleep(args.pace)
        sent = time.perf_counter() - t0
        skip = set(refused)
        expected = {k for i, (_, _, k) in enumerate(msgs) if k and i not in skip}
        garbage = sum(1 for i, (_, _, k) in enumerate(msgs) if k is None and i not in skip)
        end = time.monotonic() + args.timeout
        quiet_since = time.monotonic()
        seen = -1
        while time.monotonic() < end:
            with sender.lock:
                got = len(sender.answers) + len(sender.errors)
            if got != seen:
                seen, quiet_since = got, time.monotonic()
            if (expected <= set(sender.answers) and len(sender.errors) >= garbage) or \
                    time.monotonic() - quiet_since > 30 or child.poll() is not None:
                break
            time.sleep(0.2)
        rss = vm_hwm_kb(child.pid)
        alive = child.poll() is None
    finally:
        child.terminate()
        try:
            child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        log.close()
        executor.shutdown()
        rclpy.try_shutdown()
    with sender.lock:
        answered = expected & set(sender.answers)
        how = Counter(sender.answers[k][1] for k in answered)
        summary = {
            'messages': len(msgs), 'refused_at_publish': len(refused),
            'first_refused': refused[0] if refused else None,
            'requests': len(expected), 'garbage': garbage,
            'answered': len(answered), 'unanswered': len(expected - answered),
            'garbage_reported': len(sender.errors), 'outcomes': dict(sorted(how.items())),
            'publish_s': round(sent, 2),
            'drain_s': round(sender.last - t0, 2) if sender.last else None,
            'bringup_peak_rss_mb': round(rss / 1024, 1), 'bringup_alive': alive,
            'unanswered_kinds': dict(Counter(k[0] for k in expected - answered)),
            'first_unanswered': min((i for i, (_, _, k) in enumerate(msgs)
                                     if k and k not in answered), default=None),
        }
    print(json.dumps(summary, indent=2))
    (out / 'flood.json').write_text(json.dumps(summary, indent=2))
    if not alive:
        print((out / 'bringup.log').read_text()[-2000:], file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
