# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The session's PostgreSQL server (real, on 127.0.0.1): started once, removed at the end."""

import pytest

from l3mp_ros.testing.postgres import LocalPostgres


@pytest.fixture(scope='session')
def postgres():
    """Start a server for the session; a failure to start fails the tests (no skip)."""
    server = LocalPostgres().start()
    yield server
    server.stop()
