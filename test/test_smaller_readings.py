# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Readings that keep part of the first one (agent/report/smaller.py), asked after a "no".

"Someone unlocked Bob's door" read as the door open (so no longer locked): the speaker
refuses it, and before this the talk ended with nothing written. The reading with the door
no longer locked alone is offered next; a move stays whole in every such reading.
"""

from types import SimpleNamespace

from l3mp_ros.agent.core.asking import SMALLER, Candidate, Pending
from l3mp_ros.agent.report.smaller import smaller_readings
from l3mp_ros.world.kg import Fact, Update

from .agent_fixtures import household_world

MOVED = Fact('person_in_room', ('jerry', 'kitchen'))
WAS = Fact('person_in_room', ('jerry', 'living_room'))
TV = Fact('tv_on', ('living_room_tv',))
LIGHT = Fact('light_on', ('kitchen_light',))


def _rep(world, history=(), how='least'):
    return SimpleNamespace(world=world, r=SimpleNamespace(req=SimpleNamespace(kg=world.kg)),
                           out=SimpleNamespace(trace=SimpleNamespace(history=list(history))),
                           settings=SimpleNamespace(reading_confidence=how))


def _read(fact, p):
    return {'confirm': fact.text(), 'fact': list(fact.triplet()), 'p_yes': p}


def test_each_part_of_the_first_reading_the_most_first_a_move_kept_whole(tmp_path):
    world = household_world(tmp_path)
    assert TV in world.kg and LIGHT in world.kg and WAS in world.kg
    first = Update.of([WAS, TV, LIGHT], [MOVED])
    got = smaller_readings(_rep(world, [_read(TV, 0.9), _read(LIGHT, 0.4),
                                        _read(MOVED, 0.8)]),
                           [Candidate(first, 0.4, 'answer')], 10)
    changes = [c.update for c in got]
    assert all(c.source == SMALLER for c in got)
    # two of three pieces first, the surest first (without the light, read back at 0.4)
    assert changes[0] == Update.of([WAS, TV], [MOVED])
    assert {len(c.remove | c.add) for c in changes[:3]} == {3, 2}
    assert Update.of([TV], []) in changes and Update.of([LIGHT], []) in changes
    assert Update.of([WAS], [MOVED]) in changes
    assert len(changes) == 6 and first not in changes
    for c in changes:  # Jerry's move never halved: no "no longer in the living room" alone
        assert (WAS in c.remove) == (MOVED in c.add)
        assert not world.verifier.check(world.kg, c)
    assert len(smaller_readings(_rep(world), [Candidate(first, 0.4, 'answer')], 2)) == 2


def test_nothing_smaller_than_one_piece_and_nothing_offered_twice(tmp_path):
    world = household_world(tmp_path)
    alone = Candidate(Update.of([WAS], [MOVED]), 0.5, 'answer')
    assert smaller_readings(_rep(world), [alone], 4) == []  # one piece: nothing smaller
    assert smaller_readings(_rep(world), [alone], 0) == []
    both = Update.of([WAS, TV], [MOVED])
    taken = [Candidate(both, 0.5, 'answer'), Candidate(Update.of([TV], []), 0.5, 'other')]
    got = smaller_readings(_rep(world), taken, 4)
    assert [c.update for c in got] == [Update.of([WAS], [MOVED])]  # the TV alone was taken
    # what a later reading adds beside the first about a thing it names ("with that") is
    # a piece too; another thing in the place of one it names is not
    news = Fact('tv_playing_channel', ('living_room_tv', 'news_channel'))
    sports = Fact('tv_playing_channel', ('living_room_tv', 'sports_channel'))
    taken = [Candidate(Update.of([WAS, news], [MOVED, sports]), 0.5, 'answer'),
             Candidate(Update.of([WAS, news, TV], [MOVED, sports]), 0.5, 'with')]
    got = [c.update for c in smaller_readings(_rep(world), taken, 10)]
    assert Update.of([WAS, TV], [MOVED]) in got and Update.of([TV], []) in got, got
    taken = [Candidate(Update.of([WAS], [MOVED]), 0.5, 'answer'),
             Candidate(Update.of([WAS, TV], [MOVED]), 0.5, 'with')]  # the TV: not named
    assert smaller_readings(_rep(world), taken, 4) == []


def test_parts_come_after_a_no_not_in_the_first_question(tmp_path):
    world = household_world(tmp_path)
    first = Candidate(Update.of([WAS, TV], [MOVED]), 0.4, 'answer')
    parts = smaller_readings(_rep(world), [first], 4)
    pending = Pending.first('Jerry went to the kitchen.', [first, *parts], world.kg,
                            world.domain, 60.0, together=True)
    assert pending.offered == [0] and pending.question.startswith('Just to check')
    then = pending.next(world.kg, world.domain, 60.0)
    assert then is not None and then.offered == [1, 2]
    assert then.question == ('Which is right? 1. Jerry is in the kitchen. Jerry is no longer in '
                             'the living room. 2. The living room tv is no longer on. Or none '
                             'of them?')
