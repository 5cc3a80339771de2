# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The verifier: every violation kind as a readable sentence; valid updates pass."""

import pytest

from l3mp_ros.world.constraints import ConstraintError, Constraints
from l3mp_ros.world.kg import Fact, Update
from l3mp_ros.world.verify import Verifier


def U(text):  # noqa: N802
    return Update.parse(text)


def test_valid_update_passes(mini_verifier, mini_kg):
    u = U('REMOVE: (red_pen, in_hand, gary) ADD: (red_pen, placed_at, kitchen_table)')
    assert mini_verifier.check(mini_kg, u) == []
    u = U('REMOVE: (red_pen, in_hand, gary) ADD: (red_pen, in_hand, the_robot)')
    assert mini_verifier.check(mini_kg, u) == []  # either person robot


@pytest.mark.parametrize('text, expected', [
    ('REMOVE: ADD: (red_pen, on_top_of, kitchen_table)', 'unknown predicate "on_top_of"'),
    ('REMOVE: ADD: (kitchen, lit, gary)', 'takes 1'),
    ('REMOVE: (red_pen, in_hand, gary) ADD: (red_pen, placed_at, kitchen)',
     'kitchen is a room but argument 2 of placed_at must be a furniture'),
    ('REMOVE: (red_pen, in_hand, gary) ADD: (red_pen, in_hand, kitchen)',
     'must be a person or robot'),
    ('REMOVE: (red_pen, in_hand, gary) ADD: (red_pen, placed_at, garage_table)',
     'unknown entity "garage_table"'),
    ('REMOVE: (dune, placed_at, jerry_shelf) ADD: (dune, in_hand, gary)',
     'cannot REMOVE (dune, placed_at, jerry_shelf): it is not in the KG; the KG has '
     '(dune, placed_at, kitchen_table)'),
    ('REMOVE: ADD: (kitchen, lit, true)', 'cannot ADD (kitchen, lit, true): it is already'),
    ('REMOVE: (kitchen, lit, true) ADD: (kitchen, lit, true)', 'both removed and added'),
    ('REMOVE: ADD: (red_pen, placed_at, kitchen_table)',
     'red_pen would have 2 of placed_at/in_hand at once'),
    ('REMOVE: (red_pen, in_hand, gary) ADD:', 'red_pen would have none of placed_at, in_hand'),
    ('REMOVE: (kitchen, lit, true) ADD: (kitchen, dark, true), (jerry_bedroom, lit, true)',
     'jerry_bedroom would be both dark and lit'),
    ('REMOVE: ADD: (red_pen, between, kitchen_table, jerry_shelf)',
     'would hold without any placed_at'),
    ('REMOVE: (gary, in_room, kitchen) ADD: (gary, in_room, jerry_bedroom), '
     '(gary, in_room, kitchen_table)', 'kitchen_table is a table'),
])
def test_violations(mini_verifier, mini_kg, text, expected):
    before = mini_kg.to_json()
    errors = mini_verifier.check(mini_kg, U(text))
    assert any(expected in e for e in errors), errors
    assert mini_kg.to_json() == before


def test_suggests_close_names(mini_verifier, mini_kg):
    errors = mini_verifier.check(mini_kg, U('REMOVE: ADD: (red_pen, in_hnd, gary)'))
    assert 'did you mean in_hand' in errors[0]


def test_new_entities_only_when_given(mini_verifier, mini_kg):
    u = Update.of([], [Fact('placed_at', ('green_pen', 'kitchen_table'))])
    assert mini_verifier.check(mini_kg, u)
    assert mini_verifier.check(mini_kg, u, {'green_pen': 'pen'}) == []
    errs = mini_verifier.check(mini_kg, u, {'green_pen': 'crayon'})
    assert any('unknown type "crayon"' in e for e in errs)


def test_check_state(mini_verifier, mini_kg):
    assert mini_verifier.check_state(mini_kg) == []
    mini_kg.add_fact(Fact('placed_at', ('red_pen', 'jerry_shelf')))
    mini_kg.remove_fact(Fact('placed_at', ('dune', 'kitchen_table')))
    errs = mini_verifier.check_state(mini_kg)
    assert any('red_pen would have 2' in e for e in errs)
    assert any('dune would have none' in e for e in errs)


def test_constraint_yaml_errors(mini_domain):
    with pytest.raises(ConstraintError, match='kind'):
        Constraints.from_dict({'rules': [{'name': 'x', 'kind': 'sometimes'}]})
    with pytest.raises(ConstraintError, match='needs "if"'):
        Constraints.from_dict({'rules': [{'name': 'x', 'kind': 'requires', 'then': ['a']}]})
    c = Constraints.from_dict({'rules': [{'name': 'x', 'kind': 'functional',
                                          'predicates': ['nope'], 'types': ['alien']}]})
    problems = c.check_against(mini_domain)
    assert any('unknown predicate nope' in p for p in problems)
    assert any('unknown type alien' in p for p in problems)


def test_an_unquoted_on_read_by_yaml_as_true_is_named_in_the_error(tmp_path):
    """YAML 1.1 reads ``predicates: [on, off]`` as booleans: the error says to quote them."""
    path = tmp_path / 'c.yaml'
    path.write_text('rules:\n  - {name: lamp, kind: exclusive, key: 0, predicates: [on, off]}\n')
    with pytest.raises(ConstraintError, match='quote the name'):
        Constraints.load(path)
    path.write_text('rules:\n  - {name: lamp, kind: exclusive, key: 0, predicates: ["on", '
                    '"off"]}\n')
    assert Constraints.load(path).rules[0].predicates == ('on', 'off')


def test_a_violation_the_graph_already_had_does_not_block_an_update(mini_domain, mini_kg):
    """Only what an update makes worse is its error: a lifelong graph may hold an old flaw."""
    rules = Constraints.from_dict({'domain': 'mini', 'rules': [
        {'name': 'held_or_placed', 'kind': 'exclusive', 'key': 0,
         'predicates': ['placed_at', 'in_hand']}]})
    kg = mini_kg.copy()
    kg.apply(Update.of([], [Fact('in_hand', ('dune', 'jerry'))]))  # already both
    v = Verifier(mini_domain, rules)
    moved = Update.of([Fact('placed_at', ('dune', 'kitchen_table'))],
                      [Fact('placed_at', ('dune', 'jerry_shelf'))])
    assert v.check(kg, moved) == []
    # what is new is still refused: the blue pen was only on the shelf
    both = Update.of([], [Fact('in_hand', ('blue_pen', 'jerry'))])
    assert v.check(kg, both) == ['after this update, blue_pen would be both in_hand and '
                                 'placed_at (rule held_or_placed)']
