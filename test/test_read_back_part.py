# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A stated fact is read back with the part of the report that says it (read_back.said_in).

A part's answer often states what another part says; asked with its own part, a right
fact reads as unsaid ("Part: it's full now. Statement: the tablet rests on Mia's desk").
"""

from l3mp_ros.agent.core.attempts import Trace
from l3mp_ros.agent.report.read_back import StatedReadBack, said_in
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.world.complete import complete
from l3mp_ros.world.kg import Fact, Update

from .agent_fixtures import client, household_world

FIRST = 'Jerry went to his bedroom'
SECOND = 'he left the red pen on the table there.'
NAMED = {FIRST: ['jerry', 'jerry_bedroom'], SECOND: ['red_pen', 'jerry_bedroom_table'],
         "it's full now.": []}
PEN = Fact('placed_at_table', ('red_pen', 'jerry_bedroom_table'))
MOVED = Fact('person_in_room', ('jerry', 'jerry_bedroom'))


def _named(part: str) -> list[str]:
    return NAMED[part]


def test_a_fact_is_read_back_with_the_part_that_names_its_other_things():
    parts = [FIRST, SECOND]
    assert said_in(PEN, FIRST, parts, _named) == SECOND  # read ahead by the first answer
    assert said_in(PEN, SECOND, parts, _named) == SECOND
    assert said_in(MOVED, SECOND, parts, _named) == FIRST  # repeated by the second
    assert said_in(MOVED, None, parts, _named) is None  # a report read whole
    # a state has no other thing; a part naming nothing of the fact, and no other
    # part naming it either, or two parts naming it, leave the answer's own part
    assert said_in(Fact('pen_open', ('red_pen',)), FIRST, parts, _named) == FIRST
    assert said_in(PEN, FIRST, [FIRST, "it's full now."], _named) == FIRST
    two = {**NAMED, 'and the table too.': ['jerry_bedroom_table']}
    assert said_in(PEN, FIRST, [*parts, 'and the table too.'], two.__getitem__) == FIRST


def test_the_read_back_asks_each_fact_with_its_own_part(tmp_path):
    world = household_world(tmp_path)
    kg = world.kg
    stated = Update.of([], [MOVED, PEN])
    completion = complete(kg, stated, world.constraints, world.domain)
    yes = {'content': {'answer': 'yes'}}
    text = f'{FIRST}, and {SECOND}'
    for where, expect in (((lambda f, p: said_in(f, p, [FIRST, SECOND], _named)),
                           {'is now in': FIRST, 'red pen': SECOND}),
                          (None, {'is now in': FIRST, 'red pen': FIRST})):
        with FakeOpenAI([yes, yes]) as fake:
            check = StatedReadBack(client(fake), world, 0.5, where_said=where)
            errors, denied = check.confirm(text, FIRST, completion, Trace())
            asked = [m['content'] for r in fake.requests for m in r['messages']
                     if m['role'] == 'user']
        assert not errors and not denied
        assert len(asked) == 2, asked
        for who, part in expect.items():
            (q,) = [a for a in asked if who in a.split('Statement:')[1].lower()]
            assert f'Part: {part}\n' in q, q
