# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Test and demo helpers that stand in for external services (no rclpy here)."""

from l3mp_ros.testing.fake_openai import FakeOpenAI

__all__ = ['FakeOpenAI']
