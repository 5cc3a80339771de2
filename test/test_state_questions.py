# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""State questions: options built from the domain and the report, answers turned into a diff.

The LLM is the real openai client against the loopback scripted server; a responder picks
the option whose sentence says what the test wants, so a change in the option order or
wording cannot make a test pass by accident.
"""

from types import SimpleNamespace

import pytest

from l3mp_ros.agent.report import place_questions as sq
from l3mp_ros.llm.protocol import Usage
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.world.complete import complete
from l3mp_ros.world.kg import Fact, Update
from l3mp_ros.world.model import WorldModel
from l3mp_ros.world.phrasing import Phrasing
from l3mp_ros_bench import state_reading as sr

from .agent_fixtures import client

NARRATIVE = 'Gary took the dune book to the bedroom of Jerry and put it on the shelf there.'


@pytest.fixture
def world(mini_domain, mini_constraints, mini_kg):
    return WorldModel(mini_domain, mini_constraints, kg=mini_kg)


def _trace():
    return SimpleNamespace(usage=Usage(), history=[])


def responder(wants: dict[str, str], log: list):
    """Answer with the first option containing the phrase wanted for that question, else 1."""
    def answer(request):
        lines = request['messages'][-1]['content'].splitlines()
        question = lines[1]
        opts = [x.split('. ', 1)[1].lower() for x in lines if x[:1].isdigit() and '. ' in x]
        log.append((question, opts))
        for key, phrase in wants.items():
            if key in question.lower():
                for k, o in enumerate(opts, 1):
                    if phrase in o:
                        return {'content': {'answer': str(k)}}
        return {'content': {'answer': '1'}}
    return answer


def test_where_options_are_typed_places_among_the_report_referents(world, mini_kg):
    ph = Phrasing(world.domain, mini_kg)
    qs = sr.questions_for(world, mini_kg, ph, 'red_pen',
                          ['gary', 'jerry', 'jerry_shelf', 'kitchen', 'red_pen'])
    assert len(qs) == 1  # a pen has a place and no one-argument state
    q = qs[0]
    assert q.text.startswith('Where is') and q.options[0].endswith('(as before).')
    assert q.facts[0] == frozenset({Fact('in_hand', ('red_pen', 'gary'))})
    new = {f for fs in q.facts[1:] for f in fs}
    assert new == {Fact('placed_at', ('red_pen', 'jerry_shelf')),
                   Fact('in_hand', ('red_pen', 'jerry'))}  # no room for a pen, nothing held
    moved = q.update(q.facts.index(frozenset({Fact('in_hand', ('red_pen', 'jerry'))})))
    assert moved == Update.of([Fact('in_hand', ('red_pen', 'gary'))],
                              [Fact('in_hand', ('red_pen', 'jerry'))])
    assert q.update(0).is_empty()
    # a room: one whether-question per one-argument state, the answer before first
    room = sr.questions_for(world, mini_kg, ph, 'kitchen', ['kitchen'])
    assert [q.slot for q in room] == [frozenset({Fact('dark', ('kitchen',))}),
                                      frozenset({Fact('lit', ('kitchen',))})]
    lit = room[1]
    assert lit.update(0).is_empty() and lit.update(1) == Update.of(
        [Fact('lit', ('kitchen',))], [])
    # a static relation no rule keeps single is never asked (room_has)
    assert not any(f.predicate == 'room_has' for q in room for f in q.slot)


def test_a_narrative_ends_on_its_last_place_and_moves_its_actor(world, mini_kg):
    ents = ['gary', 'dune', 'jerry_bedroom', 'jerry', 'jerry_shelf']
    log = []
    wants = {'where is gary': "jerry's bedroom", 'where is the dune': "jerry's shelf"}
    with FakeOpenAI(responder=responder(wants, log)) as fake:
        r = sr.read_report(client(fake), world, mini_kg, NARRATIVE, ents, _trace())
    assert not r.errors, r.errors
    done = complete(mini_kg, r.update, world.constraints, world.domain).update
    assert done == Update.of([Fact('in_room', ('gary', 'kitchen')),
                              Fact('placed_at', ('dune', 'kitchen_table'))],
                             [Fact('in_room', ('gary', 'jerry_bedroom')),
                              Fact('placed_at', ('dune', 'jerry_shelf'))])
    assert any(q.startswith('Where is Gary') for q, _ in log)
    assert r.asked == len(log)


def test_nothing_changes_gives_an_empty_update(world, mini_kg):
    with FakeOpenAI(responder=lambda req: {'content': {'answer': '1'}}) as fake:
        r = sr.read_report(client(fake), world, mini_kg, 'Gary is still in the kitchen.',
                           ['gary', 'kitchen'], _trace())
    assert r.update.is_empty() and not r.errors and r.asked == 2  # dark, lit: no other room


@pytest.mark.parametrize('reply', [{'answer': '9'}, {'answer': 'kitchen'}, 'the second one'])
def test_an_answer_outside_the_options_is_refused_not_guessed(world, mini_kg, reply):
    with FakeOpenAI(responder=lambda req: {'content': reply}) as fake:
        r = sr.read_report(client(fake), world, mini_kg, 'Gary went to the bedroom of Jerry.',
                           ['gary', 'jerry_bedroom'], _trace())
    assert r.update.is_empty() and r.errors and 'outside the options' in r.errors[0]


def test_an_llm_failure_is_an_error_and_no_change(world, mini_kg):
    with FakeOpenAI([{'status': 500}] * 4, answers={}) as fake:
        r = sr.read_report(client(fake, retries=0), world, mini_kg,
                           'Gary went to the bedroom of Jerry.', ['gary', 'jerry_bedroom'],
                           _trace())
    assert r.update.is_empty() and r.errors and 'state question' in r.errors[0]


def test_every_question_shares_the_static_prefix_and_the_report(world, mini_kg):
    text = 'Gary switched the light off in the kitchen.'
    with FakeOpenAI(responder=lambda req: {'content': {'answer': '1'}}) as fake:
        sr.read_report(client(fake), world, mini_kg, text, ['gary', 'kitchen'], _trace())
        reqs = list(fake.requests)
    systems = {r['messages'][0]['content'] for r in reqs}
    assert len(reqs) == 2 and len(systems) == 1
    assert 'mini' not in next(iter(systems))  # nothing of a domain in the static part
    for r in reqs:
        assert r['messages'][1]['content'].startswith(f'Report: {text}\n')
        assert r['response_format']['json_schema']['schema']['properties']['answer']['enum']


PARTIAL = Update.of([Fact('placed_at', ('dune', 'kitchen_table'))],
                    [Fact('placed_at', ('dune', 'jerry_shelf'))])  # Gary left behind
ENTS = ['gary', 'dune', 'jerry_bedroom', 'jerry', 'jerry_shelf']


def _check(world, kg, wants, update=PARTIAL, stay=True, ents=ENTS):
    log = []
    with FakeOpenAI(responder=responder(wants, log)) as fake:
        c = sq.check_places(client(fake), world, kg, NARRATIVE, update, ents, _trace(),
                            stay=stay)
    return c, log


def test_the_place_check_keeps_out_a_partial_update_both_orders_refute(world, mini_kg):
    c, log = _check(world, mini_kg, {'where is gary': "jerry's bedroom",
                                     'where is the dune': "jerry's shelf"})
    assert [e for e, _, _ in c.against] == ['gary'] and len(c.errors) == 1
    assert 'gary' in c.errors[0].lower() and "jerry's bedroom" in c.errors[0].lower()
    # the dune agreed at once (one call); Gary was asked again in the reverse order
    gary = [opts for q, opts in log if q.startswith('Where is Gary')]
    assert len(gary) == 2 and gary[1] == gary[0][::-1] and c.asked == len(log) == 3
    assert gary[0][0].endswith('(as before).')


def test_the_place_check_passes_an_update_the_answers_agree_with(world, mini_kg):
    whole = Update.of(PARTIAL.remove | {Fact('in_room', ('gary', 'kitchen'))},
                      PARTIAL.add | {Fact('in_room', ('gary', 'jerry_bedroom'))})
    c, log = _check(world, mini_kg, {'where is gary': "jerry's bedroom",
                                     'where is the dune': "jerry's shelf"}, update=whole)
    assert not c.errors and not c.against and c.asked == len(log) == 2  # one call each


def test_a_place_the_words_settle_is_not_asked_about(world, mini_kg):
    # the same update, its new place for the dune settled by the words ("handed the dune
    # book to ...", destinations.py): only Gary is asked about
    log = []
    with FakeOpenAI(responder=responder({'where is gary': "jerry's bedroom"}, log)) as fake:
        c = sq.check_places(client(fake), world, mini_kg, NARRATIVE, PARTIAL, ENTS, _trace(),
                            stay=True, settled={Fact('placed_at', ('dune', 'jerry_shelf'))})
    assert [q for q, _ in log if q.startswith('Where is the dune')] == []
    assert [e for e, _, _ in c.against] == ['gary'] and c.asked == len(log) == 2


def test_an_answer_only_one_order_gives_does_not_count(world, mini_kg):
    log = []

    def second_option(request):  # always "2": a position, not a reading
        log.append(request)
        return {'content': {'answer': '2'}}
    with FakeOpenAI(responder=second_option) as fake:
        c = sq.check_places(client(fake), world, mini_kg, NARRATIVE, PARTIAL, ENTS, _trace())
    assert not c.errors and c.asked == len(log) >= 3


def test_as_before_against_a_move_counts_only_with_stay(world, mini_kg):
    wants = {'where is gary': '(as before)', 'where is the dune': '(as before)'}
    c, _ = _check(world, mini_kg, wants)
    assert [e for e, _, _ in c.against] == ['dune']
    assert '(as before)' not in c.errors[0] and 'kitchen table' in c.errors[0].lower()
    c, _ = _check(world, mini_kg, wants, stay=False)
    assert not c.errors


def test_the_updates_own_place_is_an_option_when_no_referent_names_it(world, mini_kg):
    # the report's referents do not include the shelf the update chose
    c, log = _check(world, mini_kg, {'where is the dune': "jerry's shelf"},
                    ents=['gary', 'dune', 'jerry'])
    dune = [opts for q, opts in log if q.startswith('Where is the dune')]
    assert dune and any("jerry's shelf" in o for o in dune[0])
    assert 'dune' not in [e for e, _, _ in c.against]


def test_amend_takes_each_place_both_orders_gave_and_nothing_that_cannot_move(world):
    before = frozenset({Fact('in_room', ('gary', 'kitchen'))})
    new = frozenset({Fact('in_room', ('gary', 'jerry_bedroom'))})
    check = sq.PlaceFindings(moves=[(before, new, before, True)])
    got = sq.amend(PARTIAL, check)
    assert got == Update.of(PARTIAL.remove | before, PARTIAL.add | new)
    # the update's own new place is replaced, the place before still goes
    shelf = frozenset({Fact('placed_at', ('dune', 'jerry_shelf'))})
    table = frozenset({Fact('placed_at', ('dune', 'kitchen_table'))})
    hand = frozenset({Fact('in_hand', ('dune', 'gary'))})
    got = sq.amend(PARTIAL, sq.PlaceFindings(moves=[(shelf, hand, table, True)]))
    assert got == Update.of(table, hand)
    # one answer about a thing that cannot move (a fixture): nothing is taken in
    assert sq.amend(PARTIAL, sq.PlaceFindings(moves=[(before, new, before, True),
                                                     (shelf, hand, table, False)])) is None
    assert sq.amend(PARTIAL, sq.PlaceFindings()) is None


def test_people_and_things_actions_move_are_movable_fixed_relations_are_not(tmp_path):
    from .agent_fixtures import household_world
    w = household_world(tmp_path)
    ph = Phrasing(w.domain, w.kg)
    remote = 'anna_bedroom_tv_remote'
    groups = dict.fromkeys(sq.place_groups(w, w.kg, remote, sq.changeable(w)))
    assert [sq.movable(w, w.kg, ph, remote, g) for g in groups] == [True, False]
    (people,) = sq.place_groups(w, w.kg, 'anna', sq.changeable(w))
    assert sq.movable(w, w.kg, ph, 'anna', people)  # a name: people move without actions


def test_a_thing_that_cannot_move_left_in_place_is_not_asked_about(tmp_path):
    # what the remote controls is a fixed relation the update leaves alone: a "new" answer
    # there would be the model's confusion (asked before: "... controls anna's bedroom tv")
    from .agent_fixtures import household_world
    w = household_world(tmp_path)
    remote = 'jerry_bedroom_tv_remote'
    held = Fact('placed_at_table', (remote, 'jerry_bedroom_table'))
    update = Update.of([held], [Fact('in_person_hand', (remote, 'jerry'))])
    tvs = sorted(e for e, t in w.kg.entities.items() if t == 'tv')
    assert len(tvs) >= 2  # another TV the remote could be said to control
    log: list = []
    with FakeOpenAI(responder=responder({}, log)) as fake:
        c = sq.check_places(client(fake), w, w.kg, 'Jerry picked up the TV remote.', update,
                            ['jerry', remote, 'jerry_bedroom_table', *tvs], _trace())
    assert not c.errors and c.asked == len(log)
    assert not any('control' in o for _, opts in log for o in opts), log


def test_both_orders_counts_only_a_pick_that_survives_the_reversed_order():
    from l3mp_ros.llm.prompting import both_orders
    asked: list[list[int]] = []

    def by_meaning(order):  # always picks option 2, wherever it is listed
        asked.append(order)
        return order.index(2)

    assert both_orders(by_meaning, 4) == (2, True)
    assert asked == [[0, 1, 2, 3], [3, 2, 1, 0]]
    asked.clear()

    def by_position(order):  # always picks the first listed option
        asked.append(order)
        return 0

    assert both_orders(by_position, 3) == (0, False)
    assert len(asked) == 2
    asked.clear()
    # none of them, or a first pick go_on refuses: the reversed order is never asked
    assert both_orders(lambda order: asked.append(order) or -1, 3) == (-1, None)
    assert both_orders(by_meaning, 4, go_on=lambda k: k != 2) == (2, None)
    assert len(asked) == 2  # one call each
    # the second order answering none of them is no agreement
    answers = iter([1, -1])
    assert both_orders(lambda order: next(answers), 3) == (1, False)


def test_take_in_puts_a_found_place_in_and_the_replaced_ones_out():
    kg_held = {Fact('in_room', ('gary', 'kitchen')), Fact('placed_at', ('dune', 'kitchen_table'))}
    upd = Update.of([Fact('placed_at', ('dune', 'kitchen_table'))],
                    [Fact('placed_at', ('dune', 'jerry_shelf'))])
    hand = Fact('in_hand', ('dune', 'gary'))
    got = upd.take_in({hand}, kg_held, old={Fact('placed_at', ('dune', 'jerry_shelf'))})
    assert got == Update.of([Fact('placed_at', ('dune', 'kitchen_table'))], [hand])
    # a place that already holds is not added, and no longer removed
    kitchen = Fact('in_room', ('gary', 'kitchen'))
    got = Update.of([kitchen], [Fact('in_room', ('gary', 'hall'))]).take_in(
        {kitchen}, kg_held, old={Fact('in_room', ('gary', 'hall'))})
    assert got.is_empty()
    # the place before goes when asked to
    bedroom = Fact('in_room', ('gary', 'jerry_bedroom'))
    got = Update.of().take_in({bedroom}, kg_held, gone={kitchen})
    assert got == Update.of([kitchen], [bedroom])
