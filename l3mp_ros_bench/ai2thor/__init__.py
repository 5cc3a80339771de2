# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The AI2-THOR experiments of the paper (Table II): task types, instances, the harness."""
