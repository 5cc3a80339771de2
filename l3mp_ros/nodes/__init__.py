# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Thin rclpy nodes: parameters → library objects, messages ↔ library calls."""
