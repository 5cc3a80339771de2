# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""World model: knowledge graph, domain schema, verifier, constraints, durable store."""
