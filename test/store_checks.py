# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The write contract checked on a store after several writers (any backend)."""

from l3mp_ros.compose import open_store_world
from l3mp_ros.world.kg import KnowledgeGraph
from l3mp_ros.world.stores import open_store


def check_log(location, acked: list[dict], initial: dict, *, exact: bool = True) -> None:
    """Every acknowledged update once with its diff, no gap, the rules hold, the log replays.

    ``exact``: every applied event was acknowledged (no writer died after committing).
    """
    with open_store(location) as store:
        events = store.history()
        kg = store.load_kg()
    assert [e.id for e in events] == list(range(events[0].id, events[0].id + len(events)))
    applied = {e.id: e for e in events if e.status == 'applied'}
    ids = [a['event_id'] for a in acked if a['applied']]
    assert len(ids) == len(set(ids))
    assert set(ids) == set(applied) if exact else set(ids) <= set(applied)
    for a in acked:
        if a['applied']:
            assert applied[a['event_id']].update.to_json() == a['diff']
    world = open_store_world(location)
    assert world.verifier.check_state(kg) == []
    world.close()
    replay = KnowledgeGraph.from_json(initial)
    for eid in sorted(applied):
        replay.apply(applied[eid].update)
    assert replay.to_json()['facts'] == kg.to_json()['facts']
