# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The L3M+P pipelines: NL updates (Alg. 3), NL tasks (Alg. 4), routing, questions."""

from .agent import Agent

__all__ = ['Agent']
