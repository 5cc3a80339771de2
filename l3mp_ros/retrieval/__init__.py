# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Retrieval of the KG context: R- (full), R+ (LLM selection), R^S (search, Alg. 1-2)."""
