# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A narrative's net change: of the new places one report gives one thing, the last one."""

from l3mp_ros.agent.update_checks import last_places, unsettled_places
from l3mp_ros.retrieval.mentions import resolve
from l3mp_ros.world.kg import Fact, Update
from l3mp_ros.world.model import WorldModel


def _world(mini_domain, mini_constraints, mini_kg):
    return WorldModel(mini_domain, mini_constraints, kg=mini_kg)


def test_the_place_named_last_wins(mini_domain, mini_constraints, mini_kg):
    world = _world(mini_domain, mini_constraints, mini_kg)
    text = 'Gary took the dune book off the kitchen table and handed it to Jerry.'
    stated = Update.of([], [Fact('in_hand', ('dune', 'gary')), Fact('in_hand', ('dune', 'jerry'))])
    kept, notes = last_places(stated, resolve(mini_kg, text), world, mini_kg)
    assert kept == Update.of([], [Fact('in_hand', ('dune', 'jerry'))])
    assert len(notes) == 1 and 'dropped (dune, in_hand, gary)' in notes[0]
    # across the predicates of one exactly-one group too: "... and put it on Jerry's shelf"
    text = 'Gary took the dune book from the table and put it on the shelf of Jerry.'
    stated = Update.of([], [Fact('in_hand', ('dune', 'gary')),
                            Fact('placed_at', ('dune', 'jerry_shelf'))])
    kept, _ = last_places(stated, resolve(mini_kg, text), world, mini_kg)
    assert kept.add == {Fact('placed_at', ('dune', 'jerry_shelf'))}


def test_no_order_no_choice(mini_domain, mini_constraints, mini_kg):
    world = _world(mini_domain, mini_constraints, mini_kg)
    # an object the report does not name: the clash stays for the verifier to refuse
    stated = Update.of([], [Fact('in_hand', ('dune', 'gary')), Fact('in_hand', ('dune', 'jerry'))])
    text = 'Gary handed the dune book over.'
    assert last_places(stated, resolve(mini_kg, text), world, mini_kg) == (stated, [])
    # different things, or a place that already holds, are no narrative
    two = Update.of([], [Fact('in_hand', ('dune', 'jerry')),
                         Fact('in_hand', ('blue_pen', 'gary'))])
    text = 'Jerry took the dune book and Gary the blue pen.'
    assert last_places(two, resolve(mini_kg, text), world, mini_kg) == (two, [])


def test_everyone_said_to_go_somewhere_must_move(mini_domain, mini_constraints, mini_kg):
    from l3mp_ros.agent.update_checks import going
    world = _world(mini_domain, mini_constraints, mini_kg)
    g = going(world, mini_kg, 'Gary and Jerry went to the kitchen for tea.')
    assert (g.subject, g.others) == ('gary', ('jerry',))
    gary_only = Update.of([], [Fact('in_room', ('gary', 'jerry_bedroom'))])
    assert g.missing(gary_only) and g.unplaced(gary_only) == ['jerry']
    assert 'jerry went to somewhere' in g.error(gary_only)
    both = Update.of([], [Fact('in_room', ('gary', 'jerry_bedroom')),
                          Fact('in_room', ('jerry', 'kitchen'))])
    assert not g.missing(both)
    # one subject, and someone named after the verb is no subject
    g = going(world, mini_kg, 'Gary went to the kitchen and Jerry stayed put.')
    assert (g.subject, g.others) == ('gary', ())


ZONES = """
(define (domain zones)
  (:requirements :strips :typing)
  (:types zone fixture item person - object)
  (:predicates (at_zone ?p - person ?z - zone) (fixture_in ?f - fixture ?z - zone)
               (on ?i - item ?f - fixture) (carried_by ?i - item ?p - person))
  (:action walk :parameters (?p - person ?a - zone ?b - zone)
    :precondition (at_zone ?p ?a) :effect (and (not (at_zone ?p ?a)) (at_zone ?p ?b)))
  (:action take :parameters (?p - person ?i - item ?f - fixture)
    :precondition (on ?i ?f) :effect (and (not (on ?i ?f)) (carried_by ?i ?p))))
"""
ZONE_RULES = {'domain': 'zones', 'rules': [
    {'name': 'where', 'kind': 'functional', 'key': 0, 'exactly': True, 'types': ['person'],
     'predicates': ['at_zone']},
    {'name': 'item', 'kind': 'functional', 'key': 0, 'exactly': True, 'types': ['item'],
     'predicates': ['on', 'carried_by']},
    {'name': 'fixture', 'kind': 'functional', 'key': 0, 'exactly': True,
     'types': ['fixture'], 'predicates': ['fixture_in']}]}
ZONE_STATE = {'schema': 'l3mp/kg/v1', 'domain': 'zones', 'entities': [
    {'name': n, 'type': t} for n, t in (
        ('cold_room', 'zone'), ('stock_room', 'zone'), ('cold_rack', 'fixture'),
        ('packing_table', 'fixture'), ('yoghurt', 'item'), ('omar', 'person'),
        ('lucy', 'person'))], 'facts': [
    ['cold_rack', 'fixture_in', 'cold_room'], ['packing_table', 'fixture_in', 'stock_room'],
    ['yoghurt', 'on', 'cold_rack'], ['omar', 'at_zone', 'stock_room'],
    ['lucy', 'at_zone', 'cold_room']]}


def test_a_zone_the_report_then_leaves_is_not_written():
    from l3mp_ros.world.constraints import Constraints
    from l3mp_ros.world.domain import DomainSchema
    from l3mp_ros.world.kg import KnowledgeGraph

    kg = KnowledgeGraph.from_json(ZONE_STATE)
    world = WorldModel(DomainSchema.from_text(ZONES), Constraints.from_dict(ZONE_RULES), kg=kg)
    went = Update.of([Fact('at_zone', ('omar', 'stock_room'))],
                     [Fact('at_zone', ('omar', 'cold_room'))])
    text = 'Omar went into the cold room and brought the yoghurt out to the packing table.'
    errors = unsettled_places(went, resolve(kg, text), world, kg)
    assert len(errors) == 1 and 'packing_table in stock_room' in errors[0]
    # the place named later lies in the same zone: settled
    text = 'Omar went into the cold room and took the yoghurt off the cold rack.'
    assert unsettled_places(went, resolve(kg, text), world, kg) == []
    # a person named later is no place ("gave it to Lucy"), nor a thing
    text = 'Omar went into the cold room and gave the yoghurt to Lucy.'
    assert unsettled_places(went, resolve(kg, text), world, kg) == []
    # a thing put in someone's hands: the holder moves, so it is no zone
    handed = Update.of([Fact('on', ('yoghurt', 'cold_rack'))],
                       [Fact('carried_by', ('yoghurt', 'lucy'))])
    text = 'Lucy took the yoghurt and went to the packing table.'
    assert unsettled_places(handed, resolve(kg, text), world, kg) == []
