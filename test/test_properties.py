# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Property-based tests (hypothesis) of updates, the verifier and the store."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.model import WorldModel
from l3mp_ros.world.store import Store

from .conftest import MINI_CONSTRAINTS, MINI_DOMAIN, MINI_STATE

ENTITIES = [e['name'] for e in MINI_STATE['entities']]
PREDICATES = ['placed_at', 'in_hand', 'in_room', 'room_has', 'lit', 'dark', 'on_top']


@st.composite
def facts(draw):
    pred = draw(st.sampled_from(PREDICATES))
    arity = 1 if pred in ('lit', 'dark') else draw(st.sampled_from([2, 2, 2, 1, 3]))
    return Fact(pred, tuple(draw(st.sampled_from(ENTITIES + ['ghost']))
                            for _ in range(arity)))


@st.composite
def updates(draw):
    kg = KnowledgeGraph.from_json(MINI_STATE)
    existing = sorted(kg.facts)
    rem = draw(st.lists(st.one_of(st.sampled_from(existing), facts()), max_size=3))
    add = draw(st.lists(facts(), max_size=3))
    return Update.of(rem, add)


DOMAIN = DomainSchema.from_text(MINI_DOMAIN)
CONSTRAINTS = Constraints.from_dict(MINI_CONSTRAINTS)


def _world(path=None):
    domain = DOMAIN
    kg = KnowledgeGraph.from_json(MINI_STATE)
    store = Store.create(path, kg, overwrite=True) if path else None
    return WorldModel(domain, CONSTRAINTS, kg=kg, store=store)


@settings(max_examples=150, deadline=None)
@given(updates())
def test_apply_then_inverse_restores(update):
    kg = KnowledgeGraph.from_json(MINI_STATE)
    applicable = all(f in kg for f in update.remove) and all(
        a in kg.entities for f in update.add for a in f.args)
    before = kg.to_json()
    if not applicable:
        return
    effective = Update.of(update.remove, update.add - kg.facts - update.remove)
    kg.apply(effective)
    kg.apply(effective.inverse())
    assert kg.to_json() == before


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(updates(), min_size=1, max_size=6))
def test_store_matches_memory_and_rejections_change_nothing(tmp_path, ups):
    world = _world(tmp_path / 'p.db')
    for u in ups:
        before_mem = world.kg.to_json()
        before_disk = Store(tmp_path / 'p.db').load_kg().to_json()
        res = world.apply(u, source='test')
        after_disk = Store(tmp_path / 'p.db').load_kg().to_json()
        if res.applied:
            assert res.errors == []
            assert world.verifier.check_state(world.kg) == []  # constraints still hold
        else:
            assert res.errors
            assert world.kg.to_json() == before_mem
            assert after_disk == before_disk
        assert after_disk == world.kg.to_json()
    world.close()


@settings(max_examples=200, deadline=None)
@given(updates())
def test_verifier_accepts_only_consistent_updates(update):
    world = _world()
    errors = world.verifier.check(world.kg, update)
    if not errors:
        kg = world.kg.copy()
        kg.apply(update)  # a verified update is always applicable
        assert world.verifier.check_state(kg) == []


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(ENTITIES), st.sampled_from(['kitchen_table', 'jerry_shelf']))
def test_valid_moves_pass(item, furniture):
    world = _world()
    kg = world.kg
    if kg.type_of(item) not in ('pen', 'book'):
        return
    where = [f for f in kg.facts_of(item) if f.predicate in ('placed_at', 'in_hand')]
    new = Fact('placed_at', (item, furniture))
    if new in where:
        return
    assert world.verifier.check(kg, Update.of(where, [new])) == []
