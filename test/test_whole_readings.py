# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Whole readings (agent/report/whole.py): a reading that leaves a named thing out is asked about.

The model reads "Jerry brought the red pen to Anna's bedroom table" as Jerry's move
alone. That reading is true, so a truthful speaker would say yes to it: it
must never be offered alone. The robot asks about the red pen instead, each option a whole
reading, the last one saying out loud that the pen stays where it was.
"""

import pytest

from l3mp_ros.agent.core.asking import Candidate, Pending
from l3mp_ros.agent.report.update import NLUpdater
from l3mp_ros.agent.report.whole import nearby, possible
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.world.kg import Fact, Update

from .agent_fixtures import client, household_world, reported

REPORT = "Jerry brought the red pen to Anna's bedroom table."
MOVED = Fact('person_in_room', ('jerry', 'anna_bedroom'))
WAS = Fact('person_in_room', ('jerry', 'living_room'))
PEN_THERE = Fact('placed_at_table', ('red_pen', 'anna_bedroom_table'))
PEN_HERE = Fact('placed_at_table', ('red_pen', 'living_room_table'))
JERRY_ONLY = [{'content': {'facts': [['person_in_room', 'jerry', 'anna_bedroom']]}}]


def _asked(tmp_path, *, left_out=True, script=JERRY_ONLY):
    return reported(tmp_path, script, REPORT, ask_left_out=left_out)


@pytest.fixture
def asked(tmp_path):
    world, fake, updater, out = _asked(tmp_path)
    yield world, fake, updater, out
    fake.__exit__(None, None, None)


def _option(out, fact):
    """Return the ordinal answer that picks the option adding ``fact``."""
    options = out.asked()['options']
    k = next(k for k, o in enumerate(options) if list(fact.triplet()) in o['add'])
    return ('the first one', 'the second one', 'the third one', 'the fourth one')[k]


def test_the_left_out_thing_is_asked_about_and_no_option_is_half(asked):
    world, fake, _, out = asked
    assert not out.applied and out.question is not None
    assert 'And the red pen: which is right?' in out.question, out.question
    assert 'The red pen is still placed at the living room table.' in out.question
    options = out.asked()['options']
    assert 2 <= len(options) <= 4
    for o in options:  # every option moves Jerry and says something of the pen
        assert list(MOVED.triplet()) in o['add'] and list(WAS.triplet()) in o['remove']
        assert any('red_pen' in f for f in o['add'] + o['remove']), o
    assert any(list(PEN_THERE.triplet()) in o['add'] for o in options)
    assert [o for o in options if list(PEN_HERE.triplet()) in o['add']], options
    assert (WAS in world.kg) and MOVED not in world.kg
    assert any('the reading leaves out red_pen' in e for e in out.errors), out.errors


def test_the_pen_on_the_table_writes_both_changes_at_no_call(asked):
    world, fake, updater, out = asked
    calls = len(fake.requests)
    done = updater.answer(_option(out, PEN_THERE))
    assert done.applied and len(fake.requests) == calls
    assert (MOVED in world.kg) and (PEN_THERE in world.kg) and PEN_HERE not in world.kg


def test_the_pen_left_where_it_was_writes_the_move_alone(asked):
    world, _, updater, out = asked
    done = updater.answer(_option(out, PEN_HERE))
    assert done.applied and done.update == Update.of([WAS], [MOVED])  # nothing kept is written
    assert (MOVED in world.kg) and (PEN_HERE in world.kg)


def test_none_of_them_writes_nothing(asked):
    world, _, updater, out = asked
    before = world.kg.to_json()
    done = updater.answer('none of them')
    assert not done.applied and world.kg.to_json() == before


def test_a_whole_reading_is_not_asked_about(tmp_path):
    script = [{'content': {'facts': [['person_in_room', 'jerry', 'anna_bedroom'],
                                     ['placed_at_table', 'red_pen', 'anna_bedroom_table']]}}]
    world, fake, _, out = _asked(tmp_path, script=script)
    fake.__exit__(None, None, None)
    assert out.applied and out.question is None, (out.errors, out.question)
    assert (PEN_THERE in world.kg) and (MOVED in world.kg)


def test_without_the_setting_the_reading_is_written_as_read(tmp_path):
    world, fake, _, out = _asked(tmp_path, left_out=False)
    fake.__exit__(None, None, None)
    assert out.applied and (MOVED in world.kg) and (PEN_HERE in world.kg)


def test_what_could_be_said_ties_the_thing_to_named_things_only(tmp_path):
    world = household_world(tmp_path)
    reading = Update.of([WAS], [MOVED])
    near = ['jerry', 'anna_bedroom', 'red_pen', 'anna', 'anna_bedroom_table']
    got = possible(world, world.kg, reading, 'red_pen', near)
    assert got is not None and got.entity == 'red_pen'
    facts = [said.add for _, said, _, _ in got.readings]
    assert frozenset({PEN_THERE}) in facts
    for change, said, _, _ in got.readings:  # each is the move and one fact about the pen
        assert MOVED in change.add and WAS in change.remove
        assert not world.verifier.check(world.kg, change)
        named = {a for f in said.add for a in f.args}
        assert named <= set(near)
    assert PEN_HERE in got.still  # the pen on the table ends where it lies now
    # a room is not asked whether it is lit: one-place facts only for a subject whose
    # own part was read as no change
    kitchen = possible(world, world.kg, reading, 'kitchen', ['jerry', 'kitchen'])
    assert kitchen is not None  # Jerry there instead: a two-place fact, never "is lit"
    assert all(len(f.args) == 2 for _, said, _, _ in kitchen.readings for f in said.add)
    assert possible(world, world.kg, reading, 'kitchen_light', ['jerry', 'kitchen_light'],
                    states=True) is not None


def test_a_thing_asked_about_is_offered_the_end_of_a_state_it_is_in(tmp_path):
    """"knocked the towel off, it's soaked" asks where the towel is; dry may have ended too.

    The states come after what ties the thing to named things, and the option that keeps
    it as it was says them ("still dry"); a thing nothing ties to a named thing is still
    not asked about for its states alone (no new question).
    """
    world = household_world(tmp_path)
    reading = Update.of([WAS], [MOVED])
    near = ['jerry', 'anna_bedroom', 'green_towel', 'anna_bedroom_table']
    got = possible(world, world.kg, reading, 'green_towel', near)
    assert got is not None
    said = [(set(s.add), set(s.remove)) for _, s, _, _ in got.readings]
    towel_there = Fact('placed_at_table', ('green_towel', 'anna_bedroom_table'))
    clean, dry = (Fact(p, ('green_towel',)) for p in ('cloth_is_clean', 'cloth_is_dry'))
    assert towel_there in said[0][0]  # the tie to a named thing first
    assert {clean} in [r for _, r in said]  # its states after (at most 3 facts: no "dry")
    for change, s, _, _ in got.readings:
        assert MOVED in change.add and not world.verifier.check(world.kg, change)
        if s.remove & {clean, dry}:
            assert not s.add and (s.remove & {clean, dry}) <= change.remove
    assert clean in got.still and len(got.readings) == 3
    # nothing ties the TV to a named thing: being on alone makes no question
    assert Fact('tv_on', ('living_room_tv',)) in world.kg
    assert possible(world, world.kg, reading, 'living_room_tv', ['jerry', 'living_room_tv']) \
        is None
    # a thing in no state: as before
    pen = possible(world, world.kg, reading, 'red_pen',
                   ['jerry', 'anna_bedroom', 'red_pen', 'anna_bedroom_table'])
    assert pen is not None and all(len(f.args) == 2 for _, s, _, _ in pen.readings
                                   for f in s.add | s.remove)


def test_a_pending_question_about_a_thing_survives_its_json(tmp_path):
    world = household_world(tmp_path)
    kept = Update.of([], [PEN_HERE])
    readings = [Candidate(Update.of([WAS], [MOVED, PEN_THERE]), 0.5, 'left out 0', 'red_pen',
                          words='The red pen is on the table.'),
                Candidate(Update.of([WAS], [MOVED]), 0.5, 'left out 0', 'red_pen', kept,
                          'The red pen is still on the living room table.'),
                Candidate(Update.of([], [MOVED]), 0.1, 'without denied')]
    pending = Pending.first(REPORT, readings, world.kg, world.domain, 60.0)
    assert pending.offered == [0, 1]
    back = Pending.from_json(pending.to_json())
    assert back.readings == readings and back.question == pending.question
    assert back.options()[1]['add'] == sorted([list(MOVED.triplet()), list(PEN_HERE.triplet())])
    then = back.next(world.kg, world.domain, 60.0)
    assert then is not None and then.offered == [2] and then.question.startswith('Then:')


def _said(tmp_path, report, ask_stated=True):
    """Run ``report`` read as Jerry's move to the kitchen alone; return the outcome."""
    world = household_world(tmp_path)
    moved = [{'content': {'facts': [['person_in_room', 'jerry', 'kitchen']]}}]
    with FakeOpenAI(moved) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever())
        s = updater.settings
        s.confirm, s.place_check, s.split_clauses = False, False, False
        s.ask_stated = ask_stated
        return world, updater.run(report)


def test_a_state_the_report_says_in_words_is_asked_about(tmp_path):
    """"opened" says window_open (its own word, not its type's): the window left out.

    The reading with it is offered first (``ask_stated``), not written unasked.
    """
    world, out = _said(tmp_path, "Jerry opened the window in Jerry's bedroom, then went to "
                                 'the kitchen.')
    assert out.question == ("Just to check: Jerry is in the kitchen. Jerry's bedroom window "
                            'is open. Jerry is no longer in the living room. Is that right?')
    opened = ['jerry_bedroom_window', 'window_open', 'true']
    assert any(opened in o['add'] for o in out.asked()['options'])
    assert Fact('window_open', ('jerry_bedroom_window',)) not in world.kg


def test_a_state_an_action_named_by_its_verb_makes_is_asked_about(tmp_path):
    """"washed the blue plate" says what ``wash_dish`` makes (the plate clean), in the
    action's word, not the predicate's: the reading with it is offered first."""
    world = household_world(tmp_path)
    world.kg.add_entity('blue_plate', 'kitchenware')
    moved = [{'content': {'facts': [['person_in_room', 'jerry', 'kitchen']]}}]
    with FakeOpenAI(moved) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever())
        s = updater.settings
        s.confirm, s.place_check, s.split_clauses = False, False, False
        out = updater.run('Jerry went to the kitchen and washed the blue plate.')
    assert out.question == ('Just to check: The blue plate is clean. Jerry is in the kitchen. '
                            'Jerry is no longer in the living room. Is that right?')
    assert ['blue_plate', 'dish_is_clean', 'true'] in out.asked()['options'][0]['add']
    assert Fact('dish_is_clean', ('blue_plate',)) not in world.kg and not out.applied


def test_without_ask_stated_the_window_left_out_is_asked_about_as_a_thing(tmp_path):
    world, out = _said(tmp_path, "Jerry opened the window in Jerry's bedroom, then went to "
                                 'the kitchen.', ask_stated=False)
    assert out.question is not None and "And Jerry's bedroom window" in out.question, \
        out.question
    opened = ['jerry_bedroom_window', 'window_open', 'true']
    options = out.asked()['options']
    assert any(opened in o['add'] for o in options)  # opened
    assert any(opened in o['remove'] for o in options)  # still shut, said out loud
    assert Fact('window_open', ('jerry_bedroom_window',)) not in world.kg


def test_a_thing_only_passed_by_is_not_asked_about(tmp_path):
    world, out = _said(tmp_path, 'Jerry walked past the living room window to the kitchen.')
    assert out.applied and out.question is None, out.errors
    assert Fact('person_in_room', ('jerry', 'kitchen')) in world.kg


def _reading(world, text):
    """Return what whole.py reads of a report: its request, resolved, as a Reading has it."""
    from types import SimpleNamespace

    from l3mp_ros.agent.core.request import Request
    from l3mp_ros.agent.report.stative import in_request
    req = Request.start(world, text)
    req.resolve()
    return SimpleNamespace(req=req, actors=[], idle=[], skipped=[], parts=[text],
                           several=False, stative=in_request(req))


def test_what_a_thing_left_is_found_between_the_mentions(tmp_path):
    from l3mp_ros.agent.report.whole import sources
    world = household_world(tmp_path)
    got = sources(_reading(world, 'Jerry took the red pen off the living room table and '
                                  'walked out of the kitchen.'))
    assert {'living_room_table', 'kitchen'} <= got and 'red_pen' not in got
    assert 'jerry' not in got
    assert sources(_reading(world, 'Jerry put the red pen on the living room table.')) == set()


def test_a_tie_to_what_something_left_ends_only_where_the_rules_allow(tmp_path):
    """ "Anna is off the phone": what held her phone may end, but a phone is always
    somewhere (an exactly-one rule), so it is not offered ending alone."""
    world = household_world(tmp_path)
    reading = Update.of([Fact('person_in_room', ('anna', 'anna_bedroom'))],
                        [Fact('person_in_room', ('anna', 'kitchen'))])
    near = ['anna', 'anna_phone', 'kitchen']
    held = Fact('in_person_hand', ('anna_phone', 'anna'))
    assert held in world.kg
    for left in (False, True):
        got = possible(world, world.kg, reading, 'anna_phone', near, left=left)
        for change, _, _, _ in (got.readings if got else ()):
            assert not world.verifier.check(world.kg, change)
            phone = [f for f in change.add if f.args[0] == 'anna_phone']
            assert held not in change.remove or phone, change


@pytest.mark.parametrize('text, last', [
    # a later clause that goes nowhere and names no place leaves people where the clause
    # before put them: the bedroom still counts as where Jerry is
    ("Jerry is back in Anna's bedroom, and he switched the TV on.", True),
    # a later clause that goes somewhere, or names a place, is where they are now
    ("Jerry took the red pen to Anna's bedroom and came straight back in.", False),
    ("Jerry walked through Anna's bedroom and sat down in the kitchen.", False),
])
def test_where_people_are_counts_in_the_last_clause_that_places_anyone(tmp_path, text, last):
    """:func:`in_placing`: which clause's places count for where people are."""
    from types import SimpleNamespace

    from l3mp_ros.agent.core.request import Request
    from l3mp_ros.agent.report.whole import in_placing
    req = Request.start(household_world(tmp_path), text)
    req.resolve()
    parts = req.parts(True)
    assert len(parts) == 2, parts
    r = SimpleNamespace(several=True, parts=parts, req=req)
    assert in_placing(r, 'anna_bedroom') is last


def test_a_person_placed_in_an_earlier_clause_counts_unless_passed_through(tmp_path):
    """``placing``: where a person is counts from the last clause that places anyone, but
    never in place of where the reading puts them (a place gone through)."""
    world = household_world(tmp_path)
    tv_on = Update.of([], [Fact('tv_on', ('anna_bedroom_tv',))])
    near = ['jerry', 'anna_bedroom', 'anna_bedroom_tv']
    assert possible(world, world.kg, tv_on, 'anna_bedroom', near, last=False) is None
    got = possible(world, world.kg, tv_on, 'anna_bedroom', near, last=False, placing=True)
    assert got is not None and frozenset({MOVED}) in [said.add for _, said, _, _ in got.readings]
    through = Fact('person_in_room', ('jerry', 'bathroom'))  # "through the kitchen to ..."
    reading = Update.of([WAS], [through])
    assert possible(world, world.kg, reading, 'kitchen', ['jerry', 'kitchen', 'bathroom'],
                    last=False, placing=True) is None


def test_a_name_inside_another_name_is_not_a_thing_left_out(tmp_path):
    """ "the garden shed key" names the key; the shed inside its name is no thing the
    report speaks of (:func:`left_out` passes over a mention's ``part``)."""
    from l3mp_ros.agent.report.whole import left_out
    world = household_world(tmp_path)
    world.kg.add_entity('garden_shed', 'room')
    world.kg.add_entity('garden_shed_key', 'pen')
    r = _reading(world, 'Jerry put the garden shed key on the living room table.')
    inside = [m for m in r.req.mentions if m.resolved == 'garden_shed']
    assert inside and all(m.part is not None for m in inside)  # the mention is there
    reading = Update.of([], [Fact('placed_at_table', ('garden_shed_key', 'living_room_table'))])
    assert 'garden_shed' not in left_out(r, reading)
    moved = Update.of([WAS], [Fact('person_in_room', ('jerry', 'kitchen'))])
    assert 'garden_shed_key' in left_out(r, moved) and 'garden_shed' not in left_out(r, moved)


def test_an_owner_a_pronoun_points_back_at_is_near_enough_to_be_offered(tmp_path):
    """ "took Anna's phone to the kitchen and gave it back to her": Anna is named only as
    the phone's owner, yet "her" may be her, so the phone back in her hand is offered."""
    from l3mp_ros.agent.report.whole import nearby
    world = household_world(tmp_path)
    world.kg.remove_fact(Fact('in_person_hand', ('anna_phone', 'anna')))
    world.kg.add_fact(Fact('in_person_hand', ('anna_phone', 'jerry')))
    text = "Jerry took Anna's phone to the kitchen and gave it back to her."
    near = nearby(_reading(world, text))
    assert 'anna' in near and near.index('anna') > near.index('anna_phone')
    reading = Update.of([WAS], [Fact('person_in_room', ('jerry', 'kitchen'))])
    got = possible(world, world.kg, reading, 'anna_phone', near)
    back = Fact('in_person_hand', ('anna_phone', 'anna'))
    assert got is not None and back in {f for _, said, _, _ in got.readings for f in said.add}
    # without a pronoun that may point back, the owner is no referent of their own
    assert 'anna' not in nearby(_reading(world, "Jerry took Anna's phone to the kitchen."))


def test_a_description_the_graph_does_not_hold_is_news_not_a_description(tmp_path):
    """ "the TV in Anna's bedroom": the bedroom only says which TV (a fact ties them), so it
    is no thing left out; "out to the kitchen on Anna's phone" ties nothing to the phone
    yet: it is named like any thing, and a reading without it leaves it out."""
    from l3mp_ros.agent.report.whole import describes, left_out
    world = household_world(tmp_path)
    r = _reading(world, "Jerry switched off the TV in Anna's bedroom.")
    [room] = [m for m in r.req.mentions if m.resolved == 'anna_bedroom']
    assert room.describes is not None and describes(r, room, Update.of([], []))
    r = _reading(world, "Jerry went out to the kitchen on Anna's phone.")
    [phone] = [m for m in r.req.mentions if m.resolved == 'anna_phone']
    assert phone.describes is not None and not describes(r, phone, Update.of([], []))
    moved = Update.of([WAS], [Fact('person_in_room', ('jerry', 'kitchen'))])
    assert 'anna_phone' in left_out(r, moved)
    # a reading that says something of the phone names it
    held = Update.of(moved.remove, moved.add | {Fact('in_person_hand', ('anna_phone', 'jerry'))})
    assert 'anna_phone' not in left_out(r, held)


def test_no_option_keeps_a_guessed_thing_as_it_was(tmp_path):
    """ "the book" may be any of four: "the emma book is still on the shelf" (and the
    other books) is true whichever book Jerry brought, so a yes to it would write Jerry's
    move alone. The options are the books brought; the question leads with the move; the
    pending question keeps that lead through its JSON; "none of them" writes nothing."""
    world = household_world(tmp_path)
    with FakeOpenAI(JERRY_ONLY * 3) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever())
        s = updater.settings
        s.confirm, s.place_check = False, False
        out = updater.run("Jerry brought the book to Anna's bedroom table.")
        assert not out.applied and out.question is not None
        assert out.question.startswith(
            "Jerry is in Anna's bedroom. Jerry is no longer in the living room. And Anna's "
            'bedroom table: which is right?'), out.question
        assert ' still ' not in out.question
        options = out.asked()['options']
        assert len(options) >= 2 and all(
            any(f[1] == 'placed_at_table' and f[0].startswith('book_') for f in o['add'])
            for o in options)
        pending = Pending.from_json(out.clarify)
        assert pending.question == out.question
        assert pending.readings[0].base == Update.of([WAS], [MOVED])
        before = world.kg.to_json()
        assert not updater.answer('none of them').applied and world.kg.to_json() == before


def test_a_guessed_place_keeps_the_option_that_the_thing_stays(tmp_path):
    """ "put the scanner back into the charging cradle at the tills": the words "charging
    cradle" may mean two other cradles, so the robot asks about one of them; "the red pen
    is still placed at the living room table" says the pen the report does name stays
    where the reading put it: true only if no other cradle was meant, so it is offered.
    When the pen too is only guessed ("the pen", four pens), that option says nothing of
    the pen the report meant and goes, and the question leads with the reading."""
    import dataclasses

    from l3mp_ros.agent.report.whole import guessed, left_out, whole_readings
    world = household_world(tmp_path)
    world.kg.remove_fact(PEN_HERE)
    world.kg.add_fact(Fact('in_person_hand', ('red_pen', 'jerry')))
    r = _reading(world, 'Jerry put the red pen down on the table.')
    table = next(k for k, m in enumerate(r.req.mentions) if m.surface == 'table')
    r.req.mentions[table] = dataclasses.replace(  # another mention took the one meant
        r.req.mentions[table], candidates=['jerry_bedroom_table', 'anna_bedroom_table'])
    put = Update.of([Fact('in_person_hand', ('red_pen', 'jerry'))], [PEN_HERE])
    assert left_out(r, put) == ['jerry_bedroom_table', 'anna_bedroom_table']
    assert guessed(r, 'jerry_bedroom_table') and not guessed(r, 'red_pen')
    got = whole_readings(world, r, [Candidate(put, 0.9, 'answer')])
    assert {c.about for c in got} == {'jerry_bedroom_table'}
    assert got[-1].words == 'The red pen is still placed at the living room table.'
    assert got[-1].kept.add == {PEN_HERE} and all(c.base is None for c in got)
    pen = next(k for k, m in enumerate(r.req.mentions) if m.surface == 'red pen')
    r.req.mentions[pen] = dataclasses.replace(
        r.req.mentions[pen], candidates=['red_pen', 'blue_pen'])
    got = whole_readings(world, r, [Candidate(put, 0.9, 'answer')])
    assert got and not any(' still ' in c.words for c in got), [c.words for c in got]
    assert all(c.base == put for c in got)


def test_a_place_in_a_clause_of_what_had_happened_is_no_thing_left_out(tmp_path):
    """ "gave Anna the red pen he had picked up from the living room table": the table is
    where the pen was before, not a thing the report changes; a "had" of having ("the red
    pen he had back on ...") or of the whole report ("Jerry had left ...") is no such
    clause, nor a thing named after another mention ("... into the kitchen")."""
    from l3mp_ros.agent.report.whole import in_history, left_out
    world = household_world(tmp_path)
    world.kg.remove_fact(PEN_HERE)
    world.kg.add_fact(Fact('in_person_hand', ('red_pen', 'jerry')))
    gave = Update.of([Fact('in_person_hand', ('red_pen', 'jerry'))],
                     [Fact('in_person_hand', ('red_pen', 'anna'))])

    def history(text):
        r = _reading(world, text)
        return r, {m.resolved for m in r.req.mentions if m.resolved and in_history(r, m)}
    for text in ('Jerry gave Anna the red pen he had picked up from the living room table.',
                 'Jerry gave Anna the red pen Jerry had picked up from the living room table.'):
        r, past = history(text)
        assert 'living_room_table' in past and 'red_pen' not in past, text
        assert left_out(r, gave) == [], text
    for text in ('Jerry put the red pen he had back on the living room table.',
                 'Jerry had left the red pen on the living room table.'):
        assert not history(text)[1], text
    r, past = history('Anna took the red pen Jerry had left on the living room table into '
                      'the kitchen.')
    assert 'living_room_table' in past and 'kitchen' not in past
    r, _ = history('Jerry gave Anna the red pen and picked up the living room table.')
    assert 'living_room_table' in left_out(r, gave)


def test_words_that_describe_a_thing_may_name_it(tmp_path):
    """ "the charging cradle at the tills": the first words may mean other cradles, the
    description names the one the reading uses, of the same kind: one thing, none left
    out. A description of another kind (a room) or a reading that names neither leaves
    the first words' things out."""
    import dataclasses

    from l3mp_ros.agent.report.whole import left_out, named_by_description
    world = household_world(tmp_path)
    r = _reading(world, "Jerry put the red pen down on the table by Anna's bedroom table.")
    k = next(k for k, m in enumerate(r.req.mentions) if m.surface == 'table')
    table = r.req.mentions[k] = dataclasses.replace(
        r.req.mentions[k], candidates=['living_room_table', 'jerry_bedroom_table'])
    assert [m.resolved for m in r.req.mentions if m.describes == table.start] == [
        'anna_bedroom_table', 'anna_bedroom']
    put = Update.of([], [Fact('placed_at_table', ('red_pen', 'anna_bedroom_table'))])
    assert named_by_description(r, table, put.entities())
    assert left_out(r, put) == []
    assert not named_by_description(r, table, {'anna_bedroom'})  # a room is no table
    held = Update.of([], [Fact('in_person_hand', ('red_pen', 'jerry'))])
    assert 'living_room_table' in left_out(r, held)


def test_a_state_said_to_go_on_is_no_change_left_out(tmp_path):
    """ "The window is still open": the words say the window's state, but not a change of
    it; "Jerry opened the window" does."""
    from l3mp_ros.agent.report.whole import said_states
    world = household_world(tmp_path)
    windows = [e for e, t in world.kg.entities.items() if t == 'window']
    assert windows
    went = Update.of([WAS], [Fact('person_in_room', ('jerry', 'kitchen'))])
    for text, said in (('The window is still open, but Jerry went to the kitchen.', False),
                       ('The window stayed open when Jerry went to the kitchen.', False),
                       ('Jerry opened the window and went to the kitchen.', True)):
        got = said_states(_reading(world, text), went)
        assert any('window_open' in got.get(w, ()) for w in windows) is said, (text, got)


@pytest.mark.parametrize('text,left', [
    # already on Anna's bedroom table: company where the pen goes, not a change
    ("Jerry put the red pen on Anna's bedroom table with the blue pen.", False),
    ("Jerry put the red pen on Anna's bedroom table with Helen's phone and the blue pen.",
     False),
    # not there yet: it goes with the pen, a change the reading leaves out
    ("Jerry put the red pen on Anna's bedroom table with the juice glass.", True),
    # no "with": named as something the report does, whatever it already is
    ("Jerry put the red pen and the blue pen on Anna's bedroom table.", True),
    # "with" the company of another place of its sentence: taken along, not left there
    ("Jerry went to the kitchen with the blue pen. He put the red pen on Anna's bedroom "
     "table.", True),
    ("Jerry went to the kitchen. He put the red pen on Anna's bedroom table with the blue "
     "pen.", False),
])
def test_company_already_where_a_thing_goes_is_no_thing_left_out(tmp_path, text, left):
    from l3mp_ros.agent.report.whole import left_out
    world = household_world(tmp_path)
    r = _reading(world, text)
    reading = Update.of([PEN_HERE], [PEN_THERE])
    other = 'juice_glass' if 'juice' in text else 'blue_pen'
    assert (other in left_out(r, reading)) == left, left_out(r, reading)
    assert 'helen_phone' not in left_out(r, reading)
    # a reading that puts nothing where the company is leaves it out
    moved = Update.of([WAS], [Fact('person_in_room', ('jerry', 'kitchen'))])
    assert other in left_out(r, moved)


@pytest.mark.parametrize('text,meant', [
    # "mine" (read as "Jerry's") after "Anna's phone": Jerry's phone
    ("Jerry: I put Anna's phone on the living room table with mine.", ['jerry_phone']),
    ("Jerry put Anna's phone on the living room table with Jerry's, and went out.",
     ['jerry_phone']),
    # the possessive has its noun: no thing stands for it
    ("Jerry put Anna's phone on the living room table with Jerry's pen.", []),
    # no thing with an owner's name before it: nothing to take the kind from
    ('Jerry: I put the red pen on the living room table with mine.', []),
])
def test_a_possessive_standing_alone_names_the_owners_thing_of_that_kind(tmp_path, text, meant):
    from l3mp_ros.agent.report.whole import left_out, owned_alike
    world = household_world(tmp_path)
    r = _reading(world, text)
    assert owned_alike(r) == meant
    phone = Update.of([], [Fact('placed_at_table', ('anna_phone', 'living_room_table'))])
    assert ('jerry_phone' in left_out(r, phone)) == bool(meant)
    mine = Fact('placed_at_table', ('jerry_phone', 'living_room_table'))
    both = Update.of([], [*phone.add, mine])
    assert 'jerry_phone' not in left_out(r, both)  # the reading names it: accounted for


@pytest.mark.parametrize('text,taken', [
    # a determiner or a count, words naming nothing, a word of leaving: things off it
    ("Jerry took the two things off Anna's bedroom table.", {'anna_bedroom_table': 2}),
    ("Jerry cleared the lot off Anna's bedroom table.", {'anna_bedroom_table': 0}),
    ("Jerry took both of them from Anna's bedroom table.", {}),  # "them": a pronoun
    # what left is named, or nothing but a verb stands before the word of leaving
    ('Jerry took the red pen off the living room table.', {}),
    ('Jerry came in from the kitchen.', {}),
])
def test_an_unnamed_thing_said_to_come_off_a_named_one_is_found(tmp_path, text, taken):
    from l3mp_ros.agent.report.whole import unnamed_from
    world = household_world(tmp_path)
    assert unnamed_from(_reading(world, text)) == taken


TO_HIS_ROOM = Update.of([WAS], [Fact('person_in_room', ('jerry', 'jerry_bedroom'))])
ON_ANNAS = [Fact('placed_at_table', (t, 'anna_bedroom_table')) for t in ('blue_pen',
                                                                         'helen_phone')]


def test_the_things_on_a_source_are_offered_together_then_each_alone(tmp_path):
    from l3mp_ros.agent.report.whole import lying_on
    world = household_world(tmp_path)
    assert all(f in world.kg for f in ON_ANNAS)
    near = ['jerry', 'anna_bedroom_table', 'jerry_bedroom_table']
    moved = {t: Fact('placed_at_table', (t, 'jerry_bedroom_table'))
             for t in ('blue_pen', 'helen_phone')}
    two = lying_on(world, world.kg, TO_HIS_ROOM, 'anna_bedroom_table', near, count=2)
    assert two is not None and two.entity == 'anna_bedroom_table'
    assert two.still == frozenset(ON_ANNAS) and not two.never
    change, said, _, kept = two.readings[0]
    assert set(moved.values()) <= change.add and set(ON_ANNAS) <= change.remove
    assert TO_HIS_ROOM.add <= change.add and said.add == frozenset(moved.values())
    assert kept == Update() and not world.verifier.check(world.kg, change)
    anyhow = lying_on(world, world.kg, TO_HIS_ROOM, 'anna_bedroom_table', near)
    firsts = [said.add for _, said, _, _ in anyhow.readings]
    assert firsts[0] == frozenset(moved.values()), firsts  # all of them first
    for _, said, _, kept in anyhow.readings[1:]:  # then each alone, the other kept
        (t,) = {f.args[0] for f in said.add}
        assert said.add == {moved[t]} and kept.add == {f for f in ON_ANNAS if f.args[0] != t}
    # more than an option each can say: nothing offered (the living room table holds four)
    assert lying_on(world, world.kg, TO_HIS_ROOM, 'living_room_table', near) is None
    # a count the source cannot hold: nothing
    assert lying_on(world, world.kg, TO_HIS_ROOM, 'anna_bedroom_table', near, 3) is None


def test_a_reading_that_leaves_out_what_came_off_a_thing_asks_about_it(tmp_path):
    world = household_world(tmp_path)
    script = [{'content': {'facts': [['person_in_room', 'jerry', 'jerry_bedroom']]}}]
    with FakeOpenAI(script) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever())
        s = updater.settings
        s.confirm, s.place_check, s.ask_left_out = False, False, True
        out = updater.run("Jerry moved the two things off Anna's bedroom table onto his "
                          "bedroom table.")
        assert not out.applied and out.question is not None, out.errors
        assert "And Anna's bedroom table: which is right?" in out.question, out.question
        calls = len(fake.requests)
        moved = Fact('placed_at_table', ('blue_pen', 'jerry_bedroom_table'))
        done = updater.answer(_option(out, moved))
        assert done.applied and len(fake.requests) == calls
    assert moved in world.kg and Fact('placed_at_table', ('helen_phone', 'jerry_bedroom_table')) \
        in world.kg
    assert not any(f in world.kg for f in ON_ANNAS)
    assert TO_HIS_ROOM.add <= world.kg.facts


EMPTIED = Update.of([], [Fact('glass_empty', ('juice_glass',))])  # as a model may read it


@pytest.mark.parametrize('text,pointed', [
    # the glass is acted on again: where it went is not said by its being empty
    ("Jerry emptied the juice glass and put it on Anna's bedroom table.", True),
    ('Jerry emptied the juice glass, then he took it to the kitchen.', True),  # not "he"
    # nothing points back at it: its state is all the report says of it
    ('Jerry emptied the juice glass that was left on the living room table.', False),
    # "it" points back at the nearer thing (the TV), not the glass
    ('Jerry emptied the juice glass by the living room TV and switched it off.', False),
    # "it" the subject of a state: not acted on again
    ('Jerry emptied the juice glass and now it needs washing.', False),
    ('Jerry used the juice glass and left it dirty.', False),  # a state, not a place
    ("Jerry emptied the juice glass. It's on the living room table.", False),
])
def test_a_thing_a_reading_gives_only_a_state_is_left_out_when_acted_on_again(
        tmp_path, text, pointed):
    from l3mp_ros.agent.report.whole import left_out, pointed_back, states_only
    world = household_world(tmp_path)
    r = _reading(world, text)
    assert pointed_back(r, 'juice_glass') is pointed
    assert states_only(r, EMPTIED, 'juice_glass') is not pointed
    assert ('juice_glass' in left_out(r, EMPTIED)) is pointed
    # a reading that ties it somewhere names it whatever the words do
    there = Fact('placed_at_table', ('juice_glass', 'anna_bedroom_table'))
    placed = Update.of({Fact('placed_at_table', ('juice_glass', 'living_room_table'))},
                       EMPTIED.add | {there})
    assert states_only(r, placed, 'juice_glass') and 'juice_glass' not in left_out(r, placed)
    if pointed and 'Anna' in text:  # what could be said of it: on the table named after
        got = possible(world, world.kg, EMPTIED, 'juice_glass', nearby(r), named=False)
        assert got is not None and any(there in said.add for _, said, _, _ in got.readings)
        assert possible(world, world.kg, EMPTIED, 'juice_glass', nearby(r)) is None \
            or not any(len(f.args) == 2 for _, said, _, _ in possible(
                world, world.kg, EMPTIED, 'juice_glass', nearby(r)).readings
                for f in said.add)


def test_a_later_reading_that_drops_what_the_answer_said_of_a_thing_asks_about_it(tmp_path):
    """The answer moved Jerry and the pen; a runner-up with the pen alone leaves Jerry out
    though he leads the report (the one who acted, whom left_out excuses): it becomes the
    options about Jerry, one as the answer said, one with Jerry kept where he was."""
    from l3mp_ros.agent.report.whole import dropped_things, whole_readings
    world = household_world(tmp_path)
    r = _reading(world, REPORT)
    r.actors = ['jerry']
    answer = Update.of([WAS, PEN_HERE], [MOVED, PEN_THERE])
    pen_only = Update.of([PEN_HERE], [PEN_THERE])
    assert dropped_things(r, answer, pen_only) == ['jerry']
    assert dropped_things(r, answer, answer) == []
    got = whole_readings(world, r, [Candidate(answer, 0.6, 'answer'),
                                    Candidate(pen_only, 0.5, 'without denied')])
    assert got[0].update == answer and not got[0].about
    about = [c for c in got[1:] if c.about == 'jerry']
    assert len(about) == 2 and all(PEN_THERE in c.update.add for c in about)
    assert any(MOVED in c.update.add and WAS in c.update.remove for c in about)
    kept = [c for c in about if MOVED not in c.update.add]
    assert kept and WAS in kept[0].option().add  # "Jerry is still in the living room"
    assert all(c.update != pen_only or c.about for c in got)  # never the pen alone


@pytest.mark.parametrize('text,things', [
    # a verb, the thing, the state it is left in, the clause's end
    ("Jerry went to the kitchen and left Anna's bedroom window open.", ['anna_bedroom_window']),
    ("Jerry pushed Anna's bedroom window open, so the room is cool.", ['anna_bedroom_window']),
    # a place follows, the thing is the subject, or a preposition's object
    ("Jerry pushed Anna's bedroom window open to the garden.", []),
    ("Anna's bedroom window is open now.", []),
    ("Jerry sat by Anna's bedroom window up there.", []),
    # a person is no thing left in a state
    ('Jerry got Anna up, then went to the kitchen.', []),
])
def test_a_thing_a_verb_leaves_in_a_state_is_found(tmp_path, text, things):
    from l3mp_ros.agent.report.whole import resulted
    world = household_world(tmp_path)
    assert resulted(_reading(world, text)) == things


def test_a_reading_that_leaves_out_a_thing_left_in_a_state_is_not_whole(tmp_path):
    """ "left Anna's bedroom window up" (a sash window, open): the word is not the
    predicate's own, yet the verb leaves the window in a state; a reading with Jerry's move
    alone leaves it out, and its states are offered, not Jerry's move alone."""
    from l3mp_ros.agent.report.whole import left_out, nearby, offered, sources, states_of
    world = household_world(tmp_path)
    r = _reading(world, "Jerry went to the kitchen and left Anna's bedroom window up.")
    moved = Update.of([WAS], [Fact('person_in_room', ('jerry', 'kitchen'))])
    assert 'anna_bedroom_window' in left_out(r, moved)
    got = offered(r, moved, 'anna_bedroom_window', nearby(r), states_of(r, moved), sources(r))
    assert got is not None
    assert Fact('window_open', ('anna_bedroom_window',)) in {
        f for _, said, _, _ in got.readings for f in said.add}


@pytest.mark.parametrize('text,left', [
    # after a pronoun that is the clause's subject, the first person named did not act
    ("He's gone to the kitchen with Anna.", True),
    ("I've brought Anna to the kitchen with me.", True),
    # the first person named is who acted: a reading may leave her unnamed
    ('Anna sent Jerry to the kitchen.', False),
    ('In the living room, Anna said Jerry had gone to the kitchen.', False),
])
def test_a_person_named_after_a_subject_pronoun_did_not_act_and_may_be_left_out(
        tmp_path, text, left):
    from l3mp_ros.agent.report.whole import first_people, left_out
    world = household_world(tmp_path)
    r = _reading(world, text)
    moved = Update.of([WAS], [Fact('person_in_room', ('jerry', 'kitchen'))])
    assert ('anna' in left_out(r, moved)) == left, left_out(r, moved)
    assert ('anna' in first_people(r)) == (not left)


def test_the_states_offered_first_are_the_likeliest_not_the_first_by_name(tmp_path):
    """Only three states of a thing are offered: "the tent's up" had dirty, frozen and full
    (the names first in order), never pitched; "my football's gone all squishy" never
    "no longer inflated". Its own states first (they may end), then those a thing of its
    kind is in now, then the rest."""
    from l3mp_ros.agent.report.whole import MAX_FACTS

    from .agent_fixtures import dev_world
    world = dev_world(tmp_path, 'campsite')
    kg = world.kg
    assert Fact('inflated', ('football',)) in kg and Fact('pitched', ('okoye_tent',)) in kg

    def offered(entity, update):
        got = possible(world, kg, update, entity, [entity], states=True, reported=True)
        assert got is not None
        return [(f.predicate, f in said.remove) for _, said, _, _ in got.readings
                for f in said.add | said.remove if f.args == (entity,)]

    ball = offered('football', Update.of([], []))
    assert ball[0] == ('inflated', True) and len(ball) <= MAX_FACTS, ball
    held = Fact('held', ('khan_tent', 'nadia_khan'))
    assert held in kg
    up = Update.of([held], [Fact('on', ('khan_tent', 'pitch_6'))])
    assert not world.verifier.check(kg, up)
    tent = offered('khan_tent', up)
    assert ('pitched', False) in tent, tent


def _farm_reading(tmp_path, text):
    """Return the hill farm's world and a reading of ``text`` (a development set's domain:
    its dog Meg is an animal no action moves, so only a report moves her)."""
    from .agent_fixtures import dev_world
    world = dev_world(tmp_path, 'hillfarm')
    return world, _reading(world, text)


GARETH_OUT = Update.of([Fact('occupied_by', ('lambing_shed', 'gareth_morgan'))],
                       [Fact('occupied_by', ('machinery_yard', 'gareth_morgan'))])
MEG_OUT = Fact('loose_in', ('meg', 'machinery_yard'))


def test_a_thing_called_by_its_name_is_offered_where_the_report_takes_it(tmp_path):
    """ "I've brought Meg ... out to the machinery yard": Meg is a sheepdog, no person, and
    no action moves her (``loose_in`` changes by reports alone). Only people were offered
    such places, so a reading of Gareth's move alone was whole and a "yes" wrote half the
    report. A thing the report calls by its own name goes on its own too."""
    from l3mp_ros.agent.report.whole import called_by_name, whole_readings
    world, r = _farm_reading(tmp_path, "Gareth here, I've brought Meg out to the machinery "
                                       "yard with me.")
    assert called_by_name(r) == {'meg'}
    assert Fact('loose_in', ('meg', 'kitchen')) in world.kg
    out = whole_readings(world, r, [Candidate(GARETH_OUT, 0.5, 'answer')])
    assert {c.about for c in out} == {'meg'}, out
    assert any(MEG_OUT in c.update.add for c in out)
    # without being called by name (a lower-case "the dog"), nothing new is offered
    world, r = _farm_reading(tmp_path / 'b', "Gareth here, I've brought the dog out to the "
                                             "machinery yard with me.")
    assert called_by_name(r) == frozenset()
    out = whole_readings(world, r, [Candidate(GARETH_OUT, 0.5, 'answer')])
    assert not any(MEG_OUT in c.update.add for c in out)


def test_a_thing_called_by_its_name_is_asked_next_and_what_is_kept_is_said(tmp_path):
    """The first question asks about the torch; Meg is asked next on the option chosen,
    not kept in the kitchen unsaid (a person would say yes to the torch's words while the
    option held Meg where she was: the robot would keep what nobody heard). What an option
    keeps as it was is said in its words."""
    from l3mp_ros.agent.report.whole import whole_readings
    world, r = _farm_reading(tmp_path, "Gareth here, I've brought the big torch and Meg out "
                                       "to the machinery yard with me.")
    out = whole_readings(world, r, [Candidate(GARETH_OUT, 0.5, 'answer')])
    assert out and {c.about for c in out} == {'big_torch'}, out
    for c in out:
        assert c.follow and {f.about for f in c.follow} == {'meg'}, c
        assert not any('meg' in f.args for f in c.kept.add | c.kept.remove), c.kept
        assert any(MEG_OUT in f.update.add for f in c.follow)
        for f in c.follow:  # what a following option keeps of the torch is in its words
            kept = {x for x in f.kept.add if 'big_torch' in x.args}
            assert all('still' in f.words for _ in kept), f
    still = next(c for c in out if Fact('supports', ('boot_bench', 'big_torch')) in c.kept.add)
    assert 'The boot bench still supports the big torch.' in still.words, still.words


@pytest.mark.parametrize('text, shared', [
    # a subject of two things joined by "and": what the clause says of one it says of both
    ('Lily and Ben Fisher have both signed in.', True),
    ('Lily and Ben Fisher are signed in now.', True),
    # the two named elsewhere than as the clause's subject, or not side by side
    ('Janet saw Lily and Ben Fisher in the foyer; Lily has signed in.', False),
    ('Lily has signed in and Ben Fisher has gone home.', False),
])
def test_a_state_said_of_a_subject_of_two_things_is_said_of_both(tmp_path, text, shared):
    """ "Lily and Ben Fisher have both signed in" read as Lily signed in (and Ben's fees
    paid) was whole: Ben was named. The state the reading gives one of a subject joined by
    "and" is said of the other too, so the reading leaves it out and Ben is asked about."""
    from l3mp_ros.agent.report.whole import left_out, shared_states, whole_readings

    from .agent_fixtures import dev_world
    world = dev_world(tmp_path, 'musicschool')
    r = _reading(world, text)
    lily_in = Update.of([], [Fact('checkedIn', ('lily_fisher',)), Fact('paid', ('ben_fisher',))])
    assert not world.verifier.check(world.kg, lily_in)
    assert ('ben_fisher' in shared_states(r, lily_in)) is shared, shared_states(r, lily_in)
    assert ('ben_fisher' in left_out(r, lily_in)) is shared
    out = whole_readings(world, r, [Candidate(lily_in, 0.5, 'answer')])
    ben_in = Fact('checkedIn', ('ben_fisher',))
    assert any(ben_in in c.update.add for c in out) is shared, out
    both = Update.of([], [*lily_in.add, ben_in])
    assert shared_states(r, both) == {}  # a reading that says it of both leaves none out


def test_what_is_asked_next_is_not_kept_as_it_was(tmp_path):
    """Hill farm 17: "... left it [bottle A] on the bench to dry. Picked up the lamb milk
    powder from the bench ..., and Gareth's phone was buzzing away on there so I've grabbed
    that too." read as the milk powder alone. The options about bottle A put it on the
    bench beside the phone, and kept the phone there as it was; the phone, asked next, was
    then refused in every following option. No option keeps as it was the thing asked
    next, and none keeps a fact its own change ends."""
    import json
    from pathlib import Path

    from l3mp_ros.agent.report.whole import whole_readings

    from .agent_fixtures import dev_world
    world = dev_world(tmp_path, 'hillfarm', before=17)
    text = json.loads((Path(__file__).resolve().parents[1] / 'benchmarks/data/dev/hillfarm'
                       / 'nl_updates.json').read_text())[16]['text']
    phone = Fact('supports', ('boot_bench', 'gareth_phone'))
    assert phone in world.kg
    powder = Update.of([Fact('supports', ('boot_bench', 'milk_powder'))],
                       [Fact('carrying', ('lucy_fletcher', 'milk_powder'))])
    out = whole_readings(world, _reading(world, text), [Candidate(powder, 0.5, 'answer')])
    assert out and {c.about for c in out} == {'colostrum_bottle_a'}, out
    for c in out:
        assert {f.about for f in c.follow} == {'gareth_phone'}, c
        assert phone not in c.kept.add, c.kept
        assert any(phone in f.update.remove for f in c.follow)
        for f in (c, *c.follow):
            assert not (f.kept.add & f.update.remove) and not (f.kept.remove & f.update.add), f


def _shelter_reading(tmp_path, text, actor):
    """Return the shelter's world and a reading of ``text`` whose part ``actor`` acted in
    (a development set's domain: dogs and cats are animals, staff are people)."""
    from .agent_fixtures import dev_world
    world = dev_world(tmp_path, 'shelter')
    r = _reading(world, text)
    r.actors = [actor]
    return world, r


EMPTIED_BOWL = Update.of([Fact('bowl-full', ('max_bowl',))], [])


@pytest.mark.parametrize('text,actor,idle', [
    # the dog's sentence names nothing the reading changes: the dog is what changed
    ("Max has wolfed the lot. Bowl's licked clean.", 'max', True),
    # the dog acted on the bowl the reading changes: accounted for, as before
    ('Max has licked his bowl clean.', 'max', False),
    # people act on things: a person stays accounted for
    ("Kayleigh has tidied up. Bowl's licked clean.", 'kayleigh', False),
])
def test_an_animal_that_acted_on_nothing_named_is_left_out_and_its_states_offered(
        tmp_path, text, actor, idle):
    """ "Max has wolfed the lot. Bowl's licked clean." read as the bowl no longer full: Max
    led the report, so he counted as the one who acted and a truthful "yes" to the bowl
    alone wrote half (Max fed, lost). An actor no person whose sentence names nothing else
    the reading speaks of is a thing left out, asked about with its own states."""
    from l3mp_ros.agent.report.whole import acted_on_nothing, left_out, whole_readings
    world, r = _shelter_reading(tmp_path, text, actor)
    assert Fact('bowl-full', ('max_bowl',)) in world.kg
    assert (actor in acted_on_nothing(r, EMPTIED_BOWL)) == idle
    assert (actor in left_out(r, EMPTIED_BOWL)) == idle
    out = whole_readings(world, r, [Candidate(EMPTIED_BOWL, 0.5, 'answer')])
    fed = [c for c in out if Fact('fed', (actor,)) in c.update.add]
    assert bool(fed) == idle, out
    if idle:
        assert all(c.about == 'max' for c in out)
        assert all(Fact('bowl-full', ('max_bowl',)) in c.update.remove for c in out)


def test_a_thing_named_as_a_verbs_object_is_one_that_may_have_moved():
    """ "Marek rolled the mixed pallet in from the yard on the pallet jack": the pallet is
    what was done to; the yard and the jack, after prepositions, and Marek, the subject,
    are not; nor is a thing named after "is" (a state) or first in its sentence."""
    from types import SimpleNamespace

    from l3mp_ros.agent.report.whole import verbs_object
    from l3mp_ros.retrieval.mentions import resolve
    from l3mp_ros.world.kg import KnowledgeGraph

    kg = KnowledgeGraph('dock')
    for name, type_ in [('marek', 'person'), ('pallet_mixed', 'pallet'), ('yard', 'zone'),
                        ('pallet_jack_1', 'jack'), ('loading_dock', 'zone'),
                        ('red_tote', 'tote')]:
        kg.add_entity(name, type_)

    def objects(text: str) -> frozenset[str]:
        req = SimpleNamespace(text=text, mentions=resolve(kg, text))
        return verbs_object(SimpleNamespace(req=req))

    assert objects('Marek rolled the mixed pallet in from the yard on the pallet jack and '
                   'stayed on the dock with it.') == {'pallet_mixed'}
    assert objects('Marek took his red tote to the loading dock.') == {'red_tote'}
    assert objects('The red tote is on the mixed pallet. Marek is in the yard.') == set()
