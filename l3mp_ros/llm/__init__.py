# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""LLM layer: OpenAI-compatible client, tolerant parsing, the embedded local server."""
