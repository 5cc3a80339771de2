# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 3: a report read into a verified update.

Its loop (:mod:`.update`), its three lists of checks (:mod:`.pipeline`) and the checks.
"""
