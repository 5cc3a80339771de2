# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Launch the l3mp_ros nodes on the AI2-THOR domain plus the simulator bridge.

Arguments: ``namespace`` and ``params_file`` (default ``config/ai2thor.yaml``: the AI2-THOR
domain, its perception file, its store and ``apply_step_effects: false``). The launch file
sets no parameter itself: the params file is the one source of truth.
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
    autostart = LaunchConfiguration('autostart')
    actions = [
        DeclareLaunchArgument('namespace', default_value='',
                              description='robot namespace (topics become /<ns>/...)'),
        DeclareLaunchArgument('params_file',
                              default_value=os.path.join(share, 'config', 'ai2thor.yaml'),
                              description='ROS parameter YAML for every node'),
        DeclareLaunchArgument('autostart', default_value='true',
                              description='configure and activate the (lifecycle) nodes at '
                                          'start-up; false: leave them to a lifecycle manager'),
    ]
    for executable in NODES:
        actions.append(Node(package='l3mp_ros', executable=executable, namespace=namespace,
                            parameters=[params_file, {'autostart': autostart}],
                            output='screen', emulate_tty=True))
    return LaunchDescription(actions)
