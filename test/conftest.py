# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Shared fixtures: a tiny domain of our own (not household) and its state."""

import os
import tempfile
from pathlib import Path

import pytest

from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import KnowledgeGraph
from l3mp_ros.world.verify import Verifier

# CLI calls made inside the test process load the embedding model in-process, as before;
# test_embed_server.py exercises the resident server on its own cache directory
os.environ.setdefault('L3MP_EMBED_KEEP_ALIVE', '0')
# parsed-domain summaries go to a directory of this test session, not the user's cache
os.environ.setdefault('L3MP_DOMAIN_CACHE', tempfile.mkdtemp(prefix='l3mp-domains-'))
# sentence templates from the predicates' words alone: kg init asks no model in tests, and no
# phrasebook a model wrote on this machine is read (test_templates.py drives the model part)
os.environ.setdefault('L3MP_PHRASES', 'rules')
os.environ.setdefault('L3MP_PHRASEBOOKS', 'off')

ROOT = Path(__file__).resolve().parent.parent

MINI_DOMAIN = """
(define (domain mini)
  (:requirements :strips :typing :negative-preconditions)
  (:types room furniture item agent - object
          person robot - agent
          table shelf - furniture
          pen book - item)
  (:predicates (placed_at ?i - item ?f - furniture)
               (in_hand ?i - item ?a - (either person robot))
               (in_room ?a - agent ?r - room)
               (room_has ?r - room ?f - furniture)
               (lit ?r - room) (dark ?r - room)
               (between ?i - item ?a - furniture ?b - furniture))
  (:action move :parameters (?a - robot ?from - room ?to - room)
    :precondition (in_room ?a ?from)
    :effect (and (not (in_room ?a ?from)) (in_room ?a ?to)))
  (:action pick :parameters (?a - robot ?i - item ?f - furniture ?r - room)
    :precondition (and (in_room ?a ?r) (room_has ?r ?f) (placed_at ?i ?f))
    :effect (and (not (placed_at ?i ?f)) (in_hand ?i ?a)))
  (:action place :parameters (?a - robot ?i - item ?f - furniture ?r - room)
    :precondition (and (in_room ?a ?r) (room_has ?r ?f) (in_hand ?i ?a))
    :effect (and (placed_at ?i ?f) (not (in_hand ?i ?a))))
  (:action switch_on :parameters (?a - robot ?r - room)
    :precondition (and (in_room ?a ?r) (not (lit ?r)))
    :effect (and (lit ?r) (not (dark ?r)))))
"""

MINI_CONSTRAINTS = {
    'domain': 'mini',
    'rules': [
        {'name': 'item_location', 'kind': 'functional', 'key': 0, 'exactly': True,
         'types': ['item'], 'predicates': ['placed_at', 'in_hand'],
         'description': 'an item is in exactly one place'},
        {'name': 'agent_room', 'kind': 'functional', 'key': 0, 'exactly': True,
         'types': ['agent'], 'predicates': ['in_room'],
         'description': 'an agent is in exactly one room'},
        {'name': 'light', 'kind': 'exclusive', 'key': 0, 'predicates': ['lit', 'dark']},
        {'name': 'between_needs_place', 'kind': 'requires', 'key': 0,
         'if': ['between'], 'then': ['placed_at']},
    ],
}

MINI_STATE = {
    'schema': 'l3mp/kg/v1', 'domain': 'mini',
    'entities': [
        {'name': 'kitchen', 'type': 'room'}, {'name': 'jerry_bedroom', 'type': 'room'},
        {'name': 'kitchen_table', 'type': 'table'}, {'name': 'jerry_shelf', 'type': 'shelf'},
        {'name': 'red_pen', 'type': 'pen'}, {'name': 'blue_pen', 'type': 'pen'},
        {'name': 'dune', 'type': 'book'}, {'name': 'gary', 'type': 'person'},
        {'name': 'jerry', 'type': 'person'}, {'name': 'the_robot', 'type': 'robot'},
    ],
    'facts': [
        ['kitchen', 'room_has', 'kitchen_table'], ['jerry_bedroom', 'room_has', 'jerry_shelf'],
        ['red_pen', 'in_hand', 'gary'], ['blue_pen', 'placed_at', 'jerry_shelf'],
        ['dune', 'placed_at', 'kitchen_table'], ['gary', 'in_room', 'kitchen'],
        ['jerry', 'in_room', 'jerry_bedroom'], ['the_robot', 'in_room', 'kitchen'],
        ['kitchen', 'lit', 'true'], ['jerry_bedroom', 'dark', 'true'],
    ],
}


@pytest.fixture
def mini_domain() -> DomainSchema:
    return DomainSchema.from_text(MINI_DOMAIN)


@pytest.fixture
def mini_constraints() -> Constraints:
    return Constraints.from_dict(MINI_CONSTRAINTS)


@pytest.fixture
def mini_kg() -> KnowledgeGraph:
    return KnowledgeGraph.from_json(MINI_STATE)


@pytest.fixture
def mini_verifier(mini_domain, mini_constraints) -> Verifier:
    return Verifier(mini_domain, mini_constraints)


@pytest.fixture
def mini_files(tmp_path, mini_domain) -> dict:
    import json

    import yaml
    d = tmp_path / 'mini.pddl'
    d.write_text(MINI_DOMAIN)
    c = tmp_path / 'mini.constraints.yaml'
    c.write_text(yaml.safe_dump(MINI_CONSTRAINTS))
    s = tmp_path / 'mini_state.json'
    s.write_text(json.dumps(MINI_STATE))
    return {'domain': d, 'constraints': c, 'state': s, 'store': tmp_path / 'kg.db'}


# -- ROS (the modules that use these import test.ros_fixtures first: it isolates the domain)
@pytest.fixture(scope='module')
def ros_context():
    """rclpy initialised for one test module."""
    from .ros_fixtures import ros_session
    with ros_session():
        yield


@pytest.fixture
def spinner(ros_context):
    """A spinning executor for one test; its nodes are destroyed afterwards."""
    from .ros_fixtures import spinning
    with spinning() as sp:
        yield sp
