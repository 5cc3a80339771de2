# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The last mention wins: one rule for reports and tasks (``mention_order.named_last``)."""

from l3mp_ros.agent.core.mention_order import named_last
from l3mp_ros.retrieval.mention import Mention


def _m(start: int, *candidates: str) -> Mention:
    return Mention(start, start + 1, candidates[0], list(candidates))


def test_the_item_named_last_wins():
    # "took the key off her desk and walked it out to Omar"
    ms = [_m(1, 'key'), _m(4, 'desk'), _m(10, 'omar')]
    facts = [('key', 'on', 'desk'), ('key', 'held_by', 'omar')]
    assert named_last(facts, lambda f: f[2], ms) == facts[1]
    assert named_last(facts[::-1], lambda f: f[2], ms) == facts[1]
    # a name mentioned again later counts where it is named last
    assert named_last(facts, lambda f: f[2], [*ms, _m(12, 'desk')]) == facts[0]


def test_no_winner_when_a_name_is_not_named_or_two_are_named_together():
    ms = [_m(1, 'key'), _m(4, 'desk', 'table')]  # one mention, two candidates
    assert named_last(['desk', 'table'], str, ms) is None
    assert named_last(['desk', 'shelf'], str, ms) is None
    assert named_last([], str, ms) is None
    assert named_last(['desk'], str, ms) == 'desk'


def test_with_the_text_a_word_no_mention_covers_counts_where_it_stands():
    # "Put all of Lena's tubes in the fridge": Lena is inside the mention of the tubes
    text = "Put all of Lena's tubes in the fridge"
    ms = [_m(3, 'lena_tube_1', 'lena_tube_2'), _m(7, 'fridge')]
    assert named_last(['lena', 'fridge'], str, ms) is None  # Lena is no mention
    assert named_last(['lena', 'fridge'], str, ms, text) == 'fridge'
    assert named_last(['put', 'lena'], str, ms, text) == 'lena'
