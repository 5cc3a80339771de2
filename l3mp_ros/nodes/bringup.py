# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""l3mp_bringup: every node in one process (a multi-threaded PoolExecutor).

For machines without ``ros2 launch``. The world model node owns the :class:`WorldModel`;
the language and planner nodes share one agent built around that same object, so there is
one writer and no replica. The nodes are managed (lifecycle) nodes: with ``autostart``
(default) each is configured and activated in that order; with ``-p autostart:=false``
they wait for a lifecycle manager, which must configure ``world_model`` first.
``--params-file`` (default ``config/l3mp.yaml``) and ``--namespace``; anything after
``--ros-args`` goes to rclpy (e.g. ``--ros-args -p engine:=fast-downward``).
"""

from __future__ import annotations

import argparse
import sys

import rclpy
from rclpy.executors import ExternalShutdownException

from .. import paths
from .common import try_shutdown
from .executor import PoolExecutor
from .language_node import LanguageNode
from .perception_node import PerceptionNode
from .planner_node import PlannerNode
from .world_model_node import WorldModelNode


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """Split our options from the ROS arguments."""
    ros: list[str] = []
    if '--ros-args' in argv:
        i = argv.index('--ros-args')
        argv, ros = argv[:i], argv[i:]
    parser = argparse.ArgumentParser(prog='l3mp_bringup', description=__doc__.split('\n')[0])
    parser.add_argument('--params-file', default='config/l3mp.yaml',
                        help="ROS parameter YAML (default: the package's config/l3mp.yaml)")
    parser.add_argument('--namespace', '-n', default='', help='robot namespace, e.g. robot1')
    parser.add_argument('--no-perception-node', action='store_true',
                        help='do not run the perception front-end')
    return parser.parse_args(argv), ros


def main(argv: list[str] | None = None) -> int:
    """Run all nodes until Ctrl-C."""
    args, ros = parse_args(list(sys.argv[1:] if argv is None else argv))
    params = paths.resolve(args.params_file)
    if not params.is_file():
        print(f'l3mp_bringup: no such parameter file: {args.params_file}', file=sys.stderr)
        return 2
    nodes = []
    try:
        rclpy.init(args=['l3mp_bringup', '--ros-args', '--params-file', str(params), *ros])
        executor = PoolExecutor(num_threads=4)
        ns = {'namespace': args.namespace} if args.namespace else {}
        world = WorldModelNode(**ns)
        nodes.append(world)
        # one writer: the language and planner nodes share the world model node's KG and
        # one agent (resolved when they configure, after the world model did)
        language = LanguageNode(world=lambda: world.world, **ns)
        nodes.append(language)
        nodes.append(PlannerNode(agent=lambda: language.agent, **ns))
        if not args.no_perception_node:
            nodes.append(PerceptionNode(**ns))
        for node in nodes:
            executor.add_node(node)
        executor.spin()
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    except Exception as exc:  # bad parameters, store, domain: one line, exit 2
        print(f'l3mp_bringup: {exc}', file=sys.stderr)
        return 2
    finally:
        for node in reversed(nodes):
            node.destroy_node()
        try_shutdown()
    return 0


if __name__ == '__main__':
    sys.exit(main())
