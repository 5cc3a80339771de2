# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A stated fact is read back with its part only when the part names all its things.

A part's answer often states what another part says; asked with its own part, a right
fact reads as unsaid ("Part: it's full now. Statement: the tablet rests on Mia's desk"):
such a fact is read back against the whole report (read_back.said_in).
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


def test_a_fact_is_read_back_with_its_part_only_when_the_part_names_all_its_things():
    assert said_in(PEN, SECOND, _named) == SECOND
    assert said_in(MOVED, FIRST, _named) == FIRST
    assert said_in(PEN, FIRST, _named) is None  # read ahead by the first answer: the report
    assert said_in(MOVED, SECOND, _named) is None  # repeated by the second ("he")
    assert said_in(MOVED, None, _named) is None  # a report read whole stays whole
    # a state of a thing its part names keeps the part; of one only a pronoun says, not
    pen_open = Fact('pen_open', ('red_pen',))
    assert said_in(pen_open, SECOND, _named) == SECOND
    assert said_in(pen_open, "it's full now.", _named) is None
    # the pen and the table, each named by a different part: the whole report
    split = {'he picked up the red pen': ['jerry', 'red_pen'], 'put it on the table': [
        'jerry_bedroom_table']}
    assert said_in(PEN, 'put it on the table', split.__getitem__) is None


def test_the_read_back_asks_each_fact_with_its_own_part(tmp_path):
    world = household_world(tmp_path)
    kg = world.kg
    stated = Update.of([], [MOVED, PEN])
    completion = complete(kg, stated, world.constraints, world.domain)
    yes = {'content': {'answer': 'yes'}}
    text = f'{FIRST}, and {SECOND}'
    for where, expect in (((lambda f, p: said_in(f, p, _named)),
                           {'is now in': FIRST, 'red pen': None}),
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
            assert (f'Part: {part}\n' in q) if part else 'Part:' not in q, q
