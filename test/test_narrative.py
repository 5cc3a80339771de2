# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A narrative's net change: of the new places one report gives one thing, the last one."""

from l3mp_ros.agent.update_checks import last_places
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


def test_on_ones_way_to_a_place_is_going_there_a_way_up_is_not(
        mini_domain, mini_constraints, mini_kg):
    from l3mp_ros.agent.update_checks import going
    world = _world(mini_domain, mini_constraints, mini_kg)
    g = going(world, mini_kg, 'Gary switched the lamp off on his way out to the kitchen.')
    assert g is not None and g.subject == 'gary' and g.words == 'on his way out to'
    assert going(world, mini_kg, 'Gary rolled the blind all the way up.') is None
    assert going(world, mini_kg, 'The way to the kitchen is blocked by Gary.') is None
