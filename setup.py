# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""ament_python build of l3mp_ros (also pip-installable)."""

from glob import glob

from setuptools import find_packages, setup

package_name = 'l3mp_ros'

NODES = [
    'world_model_node',
    'perception_node',
    'language_node',
    'planner_node',
    'ai2thor_bridge_node',
]

setup(
    name=package_name,
    version='0.1.0',
    # the runtime, and the benchmarks beside it (``l3mp bench`` finds them when installed)
    packages=find_packages(include=['l3mp_ros', 'l3mp_ros.*', 'l3mp_ros_bench',
                                    'l3mp_ros_bench.*']),
    package_data={package_name: ['llm/prompts/*.txt', 'schemas/*.json']},
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
        ('share/' + package_name + '/launch', glob('launch/*.launch.py')),
        ('share/' + package_name + '/config', glob('config/*.yaml') + glob('config/*.json')),
        ('share/' + package_name + '/pddl', glob('pddl/*.pddl') + glob('pddl/*.yaml')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='l3mp_ros maintainers',
    maintainer_email='maintainers@l3mp-ros.invalid',
    description='L3M+P: lifelong LLM+P planning over a verified knowledge graph, for ROS 2.',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': [
            'l3mp = l3mp_ros.cli:main',
            'l3mp_bringup = l3mp_ros.nodes.bringup:main',
            'l3mp_demo = l3mp_ros.nodes.demo:main',
        ] + [f'{n} = l3mp_ros.nodes.{n}:main' for n in NODES],
    },
)
