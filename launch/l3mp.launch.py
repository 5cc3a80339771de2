# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Launch the l3mp_ros nodes of one robot (``ros2 launch l3mp_ros l3mp.launch.py``).

Arguments: ``namespace`` (default none), ``autostart`` (default true: the lifecycle nodes
configure and activate themselves) and ``params_file`` (default ``config/l3mp.yaml``).
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

from launch import LaunchDescription

NODES = ('world_model_node', 'perception_node', 'language_node', 'planner_node')


def generate_launch_description() -> LaunchDescription:
    """Return the robot's nodes, all reading one parameter file."""
    share = get_package_share_directory('l3mp_ros')
    namespace = LaunchConfiguration('namespace')
    params_file = LaunchConfiguration('params_file')
    autostart = LaunchConfiguration('autostart')
    actions = [
        DeclareLaunchArgument('namespace', default_value='',
                              description='robot namespace (topics become /<ns>/...)'),
        DeclareLaunchArgument('params_file',
                              default_value=os.path.join(share, 'config', 'l3mp.yaml'),
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
