# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""l3mp_ros: lifelong LLM+P planning for ROS 2 robots over a knowledge graph."""

__version__ = '0.1.0'
