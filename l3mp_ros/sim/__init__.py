# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Simulators: the text household benchmark and the AI2-THOR bridge library."""
