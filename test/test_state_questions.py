# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""State questions: options built from the domain and the report, answers turned into a diff.

The LLM is the real openai client against the loopback scripted server; a responder picks
the option whose sentence says what the test wants, so a change in the option order or
wording cannot make a test pass by accident.
"""

from types import SimpleNamespace

import pytest

from l3mp_ros.agent import state_questions as sq
from l3mp_ros.llm.protocol import Usage
from l3mp_ros.retrieval.mentions import resolve, surfaces
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.world.complete import complete
from l3mp_ros.world.kg import Fact, Update
from l3mp_ros.world.model import WorldModel
from l3mp_ros.world.phrasing import Phrasing

from .agent_fixtures import client


@pytest.fixture
def world(mini_domain, mini_constraints, mini_kg):
    return WorldModel(mini_domain, mini_constraints, kg=mini_kg)


def _trace():
    return SimpleNamespace(usage=Usage(), history=[])


def _options(request):
    """Return (entity line, option sentences) of a state question request."""
    user = request['messages'][-1]['content']
    lines = user.splitlines()
    about = next(x for x in lines if x.startswith('About '))
    opts = [x.split('. ', 1)[1] for x in lines if x[:1].isdigit() and '. ' in x]
    return about, opts


def responder(wants: dict[str, list[str]], log: list):
    """Answer each question with the first option containing a wanted phrase, else 1."""
    def answer(request):
        about, opts = _options(request)
        log.append((about, opts))
        for key, phrases in wants.items():
            if key in about.lower():
                for phrase in phrases:
                    for k, o in enumerate(opts, 1):
                        if phrase in o.lower():
                            return {'content': {'answer': str(k)}}
        return {'content': {'answer': '1'}}
    return answer


def test_options_are_typed_changes_among_the_report_referents(world, mini_kg):
    ph = Phrasing(world.domain, mini_kg)
    q = sq.question_for(world, mini_kg, ph, 'red_pen', ['gary', 'jerry', 'jerry_shelf',
                                                       'kitchen', 'red_pen'])
    adds = {f for o in q.options for f in o.add}
    removes = {f for o in q.options for f in o.remove}
    # where it is: each place predicate with the report's referents of the right type
    assert Fact('placed_at', ('red_pen', 'jerry_shelf')) in adds
    assert Fact('in_hand', ('red_pen', 'jerry')) in adds
    # no room for a pen, nothing it already is, nothing about other things
    assert all(f.predicate in ('placed_at', 'in_hand') for f in adds)
    assert Fact('in_hand', ('red_pen', 'gary')) not in adds
    assert all(f.args[0] == 'red_pen' for f in adds | removes)
    # an exactly-one place is replaced, never just ended
    assert not removes
    assert q.before == [Fact('in_hand', ('red_pen', 'gary'))]
    room = sq.question_for(world, mini_kg, ph, 'kitchen', ['kitchen'])
    assert {o.sentence for o in room.options} >= {o.sentence for o in room.options
                                                   if o.remove}
    assert Fact('lit', ('kitchen',)) in {f for o in room.options for f in o.remove}
    assert Fact('dark', ('kitchen',)) in {f for o in room.options for f in o.add}
    # a static relation no rule keeps single is never offered
    assert not any(f.predicate == 'room_has' for o in room.options for f in o.facts)


def test_a_narrative_ends_on_its_last_place_and_moves_its_actor(world, mini_kg):
    text = 'Gary took the dune book to the bedroom of Jerry and put it on the shelf there.'
    mentions = resolve(mini_kg, text)
    ents = list(dict.fromkeys(m.resolved for m in mentions if m.resolved))
    assert {'gary', 'dune', 'jerry_shelf'} <= set(ents)
    log = []
    wants = {'gary': ['is in the jerry bedroom'], 'dune': ['at the jerry shelf']}
    with FakeOpenAI(responder=responder(wants, log)) as fake:
        r = sq.read_report(client(fake), world, mini_kg, text, ents, _trace(),
                           written=surfaces(mentions))
    assert not r.errors, r.errors
    done = complete(mini_kg, r.update, world.constraints, world.domain).update
    assert done == Update.of([Fact('in_room', ('gary', 'kitchen')),
                              Fact('placed_at', ('dune', 'kitchen_table'))],
                             [Fact('in_room', ('gary', 'jerry_bedroom')),
                              Fact('placed_at', ('dune', 'jerry_shelf'))])
    # a place chosen settles the other places: nothing is left to ask of the book
    dune = [opts for about, opts in log if 'dune' in about]
    assert len(dune) == 1 and len(dune[0]) == 4


def test_a_chosen_change_settles_the_options_it_excludes(world, mini_kg):
    ph = Phrasing(world.domain, mini_kg)
    q = sq.question_for(world, mini_kg, ph, 'jerry_bedroom', ['jerry_bedroom'])
    lit = next(o for o in q.options if Fact('lit', ('jerry_bedroom',)) in o.add)
    left = sq.settled(lit, q.options, world, mini_kg)
    assert lit not in left and len(left) == len(q.options) - 1
    pen = sq.question_for(world, mini_kg, ph, 'dune', ['gary', 'jerry', 'jerry_shelf'])
    shelf = next(o for o in pen.options if Fact('placed_at', ('dune', 'jerry_shelf')) in o.add)
    assert sq.settled(shelf, pen.options, world, mini_kg) == []  # one place per item


def test_nothing_changes_gives_an_empty_update(world, mini_kg):
    text = 'Gary is still in the kitchen.'
    with FakeOpenAI(responder=lambda req: {'content': {'answer': '1'}}) as fake:
        r = sq.read_report(client(fake), world, mini_kg, text, ['gary', 'kitchen'], _trace())
    assert r.update.is_empty() and not r.errors and r.asked == 2


@pytest.mark.parametrize('reply', [{'answer': '9'}, {'answer': 'kitchen'}, 'the second one'])
def test_an_answer_outside_the_options_is_refused_not_guessed(world, mini_kg, reply):
    with FakeOpenAI(responder=lambda req: {'content': reply}) as fake:
        r = sq.read_report(client(fake), world, mini_kg, 'Gary went to the bedroom of Jerry.',
                           ['gary'], _trace())
    assert r.update.is_empty() and r.errors and 'outside the options' in r.errors[0]


def test_an_llm_failure_is_an_error_and_no_change(world, mini_kg):
    with FakeOpenAI([{'status': 500}] * 4) as fake:
        r = sq.read_report(client(fake, retries=0), world, mini_kg,
                           'Gary went to the bedroom of Jerry.', ['gary'], _trace())
    assert r.update.is_empty() and r.errors and 'state question' in r.errors[0]


def test_every_question_shares_the_static_prefix_and_the_report(world, mini_kg):
    text = 'Gary switched the light off in the kitchen.'
    with FakeOpenAI(responder=lambda req: {'content': {'answer': '1'}}) as fake:
        sq.read_report(client(fake), world, mini_kg, text, ['gary', 'kitchen'], _trace())
        reqs = list(fake.requests)
    systems = {r['messages'][0]['content'] for r in reqs}
    assert len(reqs) == 2 and len(systems) == 1
    assert 'mini' not in next(iter(systems))  # nothing of a domain in the static part
    for r in reqs:
        assert r['messages'][1]['content'].startswith(f'Report: {text}\nAbout ')
        assert r['response_format']['json_schema']['schema']['properties']['answer']['enum']
