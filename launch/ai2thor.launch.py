# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Launch the l3mp_ros nodes on the AI2-THOR domain plus the simulator bridge.

Arguments: ``namespace``, ``params_file`` (default ``config/l3mp.yaml``) and
``perception_file`` (default ``config/ai2thor_perception.yaml``); the AI2-THOR domain,
its perceivable predicates and ``apply_step_effects: false`` (the simulator's scene graphs
report the effects) override the household defaults.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

from launch import LaunchDescription

NODES = ('world_model_node', 'language_node', 'planner_node', 'ai2thor_bridge_node')


def generate_launch_description() -> LaunchDescription:
    """Return the nodes for the AI2-THOR experiments."""
    share = get_package_share_directory('l3mp_ros')
    namespace = LaunchConfiguration('namespace')
    params_file = LaunchConfiguration('params_file')
    perception_file = LaunchConfiguration('perception_file')
    overrides = {
        'domain': 'pddl/ai2thor.pddl',
        'perception_config': os.path.join(share, 'config', 'ai2thor_perception.yaml'),
        'store': os.path.expanduser('~/.l3mp/ai2thor.db'),
        'initial_state': '',
        'apply_step_effects': False,
    }
    actions = [
        DeclareLaunchArgument('namespace', default_value='',
                              description='robot namespace (topics become /<ns>/...)'),
        DeclareLaunchArgument('params_file',
                              default_value=os.path.join(share, 'config', 'l3mp.yaml'),
                              description='ROS parameter YAML for every node'),
        DeclareLaunchArgument('perception_file',
                              default_value=os.path.join(share, 'config',
                                                         'ai2thor_perception.yaml'),
                              description='AI2-THOR perception parameters'),
    ]
    for executable in NODES:
        actions.append(Node(package='l3mp_ros', executable=executable, namespace=namespace,
                            parameters=[params_file, perception_file, overrides],
                            output='screen', emulate_tty=True))
    return LaunchDescription(actions)
