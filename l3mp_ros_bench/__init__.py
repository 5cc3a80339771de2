# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Benchmarks: the text household benchmark (paper Table I) and the AI2-THOR experiments.

Never imported by the runtime (world, llm, planning, retrieval, memory, agent, compose,
nodes, ai2thor): ``test/test_imports.py`` fails if it is. The CLI's ``bench`` and
``thor`` verbs import it on demand.
"""
