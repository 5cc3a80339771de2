# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What became of an update in the event log: one enum from the stores to the wire.

The members are strings (:class:`enum.StrEnum`): both stores' ``events.status`` column,
``event/v1`` bodies and JSON output carry the same words as before, and a member equals
its word (``EventStatus.APPLIED == 'applied'``). Imports nothing of the package, so
:mod:`~l3mp_ros.world.support` and :mod:`~l3mp_ros.world.store` both use it.
"""

from __future__ import annotations

from enum import StrEnum


class EventStatus(StrEnum):
    """An event's status, as written in the stores and on the ``events`` topic."""

    INIT = 'init'  # the store was created from a KG (its first event)
    APPLIED = 'applied'  # the update changed the KG
    REJECTED = 'rejected'  # verification (or the pipeline) refused it: nothing changed
    CLARIFY = 'clarify'  # a report waits for the speaker to say which thing it means
    ERROR = 'error'  # on the wire only: the input never became an update (not logged)


#: statuses of a logged update that changed nothing
NOT_APPLIED = (EventStatus.REJECTED, EventStatus.CLARIFY)


def verdict(applied: bool) -> EventStatus:
    """Return ``applied`` or ``rejected``."""
    return EventStatus.APPLIED if applied else EventStatus.REJECTED
