# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What Algorithms 3 and 4 share.

The request, the propose–judge loop and its rulings, grounding, clauses, asking back and
wording, examples and mention order.
"""
