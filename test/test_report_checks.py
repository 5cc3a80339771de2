# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 3's report checks, each alone: a composed :class:`Report` built by hand.

The report's parts are accepted as completed changes on the ``mini`` world without the
robot (so the people are said by name, as the actor check needs); where-questions get a
scripted LLM that picks an option by its words, in both option orders.
"""

import pytest

from l3mp_ros.agent.core.asking import SMALLER, Candidate, Pending
from l3mp_ros.agent.core.attempts import DoubtReason, Judged, Verdict
from l3mp_ros.agent.core.rulings import Act, Ruling, enabled
from l3mp_ros.agent.report.other_words import StateChoice
from l3mp_ros.agent.report.reading import PartAnswer, Report
from l3mp_ros.agent.report.report_checks import (
    WITH_UNSPOKEN,
    ActorCheck,
    AskBack,
    Clarify,
    OtherWords,
    PlaceCheck,
    denied_last,
    described_places,
    unread_ends,
    unread_states,
    unspoken_states,
)
from l3mp_ros.agent.report.smaller import said_of_all
from l3mp_ros.agent.report.subjects import amended_parts
from l3mp_ros.agent.report.update import UpdateOutcome, UpdateSettings
from l3mp_ros.agent.report.whole import left_out
from l3mp_ros.world.complete import Completion, complete
from l3mp_ros.world.kg import Fact, Update
from l3mp_ros.world.model import WorldModel

from .agent_fixtures import dev_world
from .check_fixtures import (
    ScriptedLLM,
    covers,
    fact,
    mini_world,
    option,
    question,
    reading,
    ruled,
)

GOING = "Gary went into Jerry's bedroom."
WENT = fact('gary', 'in_room', 'jerry_bedroom')
HERE = fact('gary', 'in_room', 'kitchen')
HERE_JERRY = fact('jerry', 'in_room', 'kitchen')
LIT = Fact('lit', ('jerry_bedroom',))
# where the dune book goes: Gary takes it, or it goes to Jerry's shelf
SHELVED = "Gary put the dune book from the kitchen table on Jerry's shelf."
ON_TABLE = fact('dune', 'placed_at', 'kitchen_table')
TAKEN = fact('dune', 'in_hand', 'gary')
ON_SHELF = fact('dune', 'placed_at', 'jerry_shelf')
# Gary put the pen somewhere else than the room the update leaves him in
BROUGHT = ("Gary went into Jerry's bedroom and brought the blue pen out to the kitchen "
           'table.')
BROUGHT_PARTS = ["Gary went into Jerry's bedroom", 'brought the blue pen out to the kitchen '
                 'table.']
PUT = fact('blue_pen', 'placed_at', 'kitchen_table')
WHY = ('(blue_pen, placed_at, kitchen_table) puts blue_pen at kitchen_table, which is in '
       'kitchen, but the update leaves gary, who put it there, elsewhere')


@pytest.fixture(scope='module')
def world() -> WorldModel:
    return mini_world(without='the_robot')  # read, never written: one for the module


def report(world, text, *changes, parts=None, llm=None, **settings) -> Report:
    """Return ``text``'s report with each part's ``(actor, stated)`` accepted and composed."""
    s = UpdateSettings(**settings)
    r = reading(world, text, parts, s)
    for actor, stated in changes:
        r.accept(complete(r.work, stated, world.constraints, world.domain), actor)
    out = UpdateOutcome(text)
    r.compose(out)
    assert out.update is not None and not out.errors
    return Report(r, out, world, llm or ScriptedLLM(), s)


def added(*facts: Fact) -> Update:
    return Update.of([], facts)


@covers(PlaceCheck)
def test_place_check_passes_where_the_model_agrees_with_the_update(world):
    llm = ScriptedLLM(option('shelf'))  # one order agrees: the other is not asked
    rep = report(world, SHELVED, ('gary', added(ON_SHELF)), llm=llm)
    ruling = ruled(PlaceCheck(), rep)
    assert ruling.act is Act.PASS and not ruling.errors and not ruling.doubts
    assert llm.asked == ['state'] and not llm.replies


@covers(PlaceCheck)
def test_place_check_rejects_a_place_both_orders_deny(world):
    llm = ScriptedLLM(option('shelf'), option('shelf'))
    rep = report(world, SHELVED, ('gary', added(TAKEN)), llm=llm, place_amend=False)
    ruling = ruled(PlaceCheck(), rep)
    assert ruling.act is Act.REJECT and len(ruling.errors) == 1
    assert ruling.errors[0].startswith(
        'asked where the dune ("the dune book") is after the report')
    assert 'in both orders of the options' in ruling.errors[0]
    assert ruling.errors[0].endswith('nothing is applied') and not llm.replies


@covers(PlaceCheck)
def test_place_check_takes_in_the_place_both_orders_give(world):
    llm = ScriptedLLM(option('shelf'), option('shelf'))
    rep = report(world, SHELVED, ('gary', added(TAKEN)), llm=llm)  # place_amend
    ruling = ruled(PlaceCheck(), rep)
    assert ruling.act is Act.AMEND and ruling.doubts == [DoubtReason.AMENDED]
    assert ruling.value.update == Update.of([ON_TABLE], [ON_SHELF])
    assert len(ruling.notes) == 1 and ruling.notes[0].startswith('asked where dune is after')
    rep.take(ruling)
    assert rep.update == ruling.value.update


@covers(PlaceCheck)
def test_place_check_leaves_an_update_never_verified(world):
    assert not PlaceCheck().applies(report(world, GOING, ('gary', added(WENT)), verify=False))


@covers(ActorCheck)
def test_actor_check_passes_someone_who_went_where_they_put_nothing(world):
    rep = report(world, GOING, ('gary', added(WENT)))
    assert ruled(ActorCheck(), rep).act is Act.PASS and rep.llm.asked == []


def brought(world, llm=None, **settings) -> Report:
    """Return :data:`BROUGHT` read as Gary in the bedroom and the pen on the kitchen table."""
    return report(world, BROUGHT, ('gary', added(WENT)), ('gary', added(PUT)),
                  parts=BROUGHT_PARTS, llm=llm, **settings)


@covers(ActorCheck)
def test_actor_check_rejects_an_actor_left_away_from_what_they_put(world):
    rep = brought(world, ask_actor=False, ask_back=False)
    ruling = ruled(ActorCheck(), rep)
    assert ruling.act is Act.REJECT and ruling.errors == [f'{WHY}; nothing is applied']


HANDED = fact('blue_pen', 'in_hand', 'jerry')  # a misreading: Jerry is in his bedroom


@covers(ActorCheck)
def test_actor_check_reads_the_update_as_the_place_check_amended_it(world):
    """The pen read as handed to Jerry (in the bedroom, where Gary went: nothing to ask),
    then taken in by the place check on the kitchen table: Gary is left away from it."""
    rep = report(world, BROUGHT, ('gary', added(WENT)), ('gary', added(HANDED)),
                 parts=BROUGHT_PARTS, ask_actor=False, ask_back=False)
    assert ruled(ActorCheck(), rep).act is Act.PASS  # as the model read it
    kg = rep.r.req.kg
    rep.take(Ruling(Act.AMEND, complete(kg, rep.update.take_in({PUT}, kg, old={HANDED}),
                                        world.constraints, world.domain)))
    assert PUT in rep.update.add and HANDED not in rep.update.add
    ruling = ruled(ActorCheck(), rep)
    assert ruling.act is Act.REJECT and ruling.errors == [f'{WHY}; nothing is applied']


def test_amended_parts_move_a_taken_in_place_to_the_part_that_placed_the_thing(world):
    gone = Update.of([HERE], [WENT])
    handed = Update.of([fact('blue_pen', 'placed_at', 'jerry_shelf')], [HANDED])
    update = Update.of(gone.remove | handed.remove, {WENT, PUT})
    assert amended_parts(world, [gone, handed], update) == [
        gone, Update.of(handed.remove, [PUT])]
    both = Update.of(gone.remove | handed.remove, gone.add | handed.add)
    assert amended_parts(world, [gone, handed], both) == [gone, handed]
    # Gary's going undone by a check (no new place for him): his part keeps what it read
    undone = Update.of(handed.remove, {PUT})
    assert amended_parts(world, [gone, handed], undone) == [
        gone, Update.of(handed.remove, [PUT])]


@covers(ActorCheck)
def test_actor_check_asks_the_speaker_with_ask_back(world):
    rep = brought(world, ask_actor=False, ask_left_out=False)
    ruling = ruled(ActorCheck(), rep)
    assert ruling.act is Act.ASK and ruling.question.startswith('Just to check: ')
    assert ruling.errors == [f'{WHY}; asked: {ruling.question}']
    readings = Pending.from_json(ruling.value).readings
    assert [r.source for r in readings] == ['gary where blue_pen was put', 'answer']
    assert HERE not in readings[0].update.remove and WENT not in readings[0].update.add
    assert readings[1].update == rep.update


@covers(ActorCheck)
def test_actor_check_offers_no_reading_that_leaves_the_actors_going_out(world):
    """Gary kept where the pen was put leaves out Jerry's bedroom, where the report sent
    him: a truthful "yes" to it would write half the report, so the question is about the
    bedroom, each option whole (``ask_left_out``)."""
    rep = brought(world, ask_actor=False)
    ruling = ruled(ActorCheck(), rep)
    assert ruling.act is Act.ASK and "And Jerry's bedroom: which is right?" in ruling.question
    readings = Pending.from_json(ruling.value).readings
    assert [r.about for r in readings[:2]] == ['jerry_bedroom'] * 2
    assert WENT in readings[0].update.add and WENT not in readings[1].update.add


@covers(ActorCheck)
def test_actor_check_takes_in_where_both_orders_put_the_actor(world):
    llm = ScriptedLLM(option('kitchen'), option('kitchen'))
    rep = brought(world, llm=llm)
    ruling = ruled(ActorCheck(), rep)
    assert ruling.act is Act.AMEND and ruling.doubts == [DoubtReason.AMENDED]
    assert ruling.value.update == Update.of([fact('blue_pen', 'placed_at', 'jerry_shelf')],
                                            [PUT])  # Gary stays in the kitchen
    assert ruling.notes == [f'{WHY}: asked where gary is, both orders of the options said '
                            'kitchen; taken into the update']
    assert llm.asked == ['state', 'state']


@covers(Clarify)
def test_clarify_passes_a_report_that_names_the_thing(world):
    rep = report(world, 'Jerry took the blue pen.', ('jerry', added(
        fact('blue_pen', 'in_hand', 'jerry'))))
    assert ruled(Clarify(), rep).act is Act.PASS


@covers(Clarify)
def test_clarify_asks_which_thing_a_guess_means(world):
    took = fact('blue_pen', 'in_hand', 'jerry')
    rep = report(world, 'Jerry took the pen.', ('jerry', added(took)))
    ruling = ruled(Clarify(), rep)
    assert ruling.act is Act.ASK and ruling.question.startswith('Which pen do you mean: ')
    assert ruling.errors == [f'the report does not say which pen it means; asked: '
                             f'{ruling.question}']
    options = {o['entity']: o for o in ruling.value['options']}
    assert ruling.value['chosen'] == 'blue_pen' and set(options) == {'blue_pen', 'red_pen'}
    assert options['red_pen']['add'] == [['red_pen', 'in_hand', 'jerry']]  # the change each
    assert options['blue_pen']['add'] == [['blue_pen', 'in_hand', 'jerry']]  # would write


@covers(AskBack)
def test_ask_back_leaves_a_reading_without_doubt(world):
    rep = report(world, GOING, ('gary', added(WENT)))
    assert rep.out.confidence is None and not AskBack().applies(rep)


@covers(AskBack)
def test_ask_back_asks_about_a_reading_the_read_back_denied_part_of(world):
    rep = report(world, GOING, ('gary', added(WENT, LIT)))
    rep.r.unsure = {LIT}
    ruling = ruled(AskBack(), rep)
    assert ruling.act is Act.ASK and 'With that, which is right? 1. ' in ruling.question
    assert ruling.errors == [f'the read-back denied {LIT.text()}; asked: {ruling.question}']
    readings = Pending.from_json(ruling.value).readings
    made = [r for r in readings if not r.source.startswith(SMALLER)]  # parts: after a "no"
    assert [r.source for r in made] == ['answer', 'without denied']
    assert readings[:2] == made
    assert LIT in readings[0].update.add and LIT not in readings[1].update.add
    rep.take(ruling)
    assert rep.refused and not AskBack().applies(rep)  # asked: no later check applies


@covers(AskBack)
def test_a_persons_denied_state_no_word_speaks_of_is_not_offered_first(tmp_path):
    """"Dai: right, I'm in the shower block. Reset the boiler ..." read with Dai off duty,
    denied by the read-back, no word of the report on duty: the reading without it is
    offered first, the answer as it was after it. A thing's state (the bedroom lit, the
    door no longer open for "shut the door") keeps the answer first (test above)."""
    world = dev_world(tmp_path, 'campsite')
    text = "Dai is in the shower block. He reset the boiler and it's fired up again."
    moved = Fact('at', ('dai', 'shower_block'))
    off = Fact('on-duty', ('dai',))
    rep = report(world, text, ('dai', Update.of([off], [moved])))
    rep.r.unsure = {off}
    readings = AskBack.readings(rep)
    assert readings[0].source == 'answer' and off in world.kg.facts
    assert off not in readings[0].update.remove and moved in readings[0].update.add
    assert [r.source for r in readings[1:2]] == [WITH_UNSPOKEN]
    assert off in readings[1].update.remove


def test_only_denied_states_no_word_of_the_report_speaks_of_are_unspoken():
    assert unspoken_states(GOING, {LIT, WENT}) == {LIT}  # only one-argument states
    assert unspoken_states("Gary went in and lit Jerry's bedroom.", {LIT}) == set()
    assert unspoken_states("Gary went into Jerry's bedroom, which is lit.", {LIT}) == set()


LIT_NOW = "Gary went into Jerry's bedroom and it is lit now."


@covers(AskBack)
def test_ask_back_offers_first_the_reading_with_a_state_the_report_says_in_its_words(world):
    rep = report(world, LIT_NOW, ('gary', added(WENT)))
    assert unread_states(rep) == {LIT}
    ruling = ruled(AskBack(), rep)
    assert ruling.act is Act.ASK and "Jerry's bedroom is lit." in ruling.question
    assert (f'the reading leaves out {LIT.text()}, which the report says in its words'
            in ruling.errors[0])
    first = Pending.from_json(ruling.value).readings[0]
    assert first.source == 'answer, with what the words say'
    assert WENT in first.update.add and LIT in first.update.add
    assert Fact('dark', ('jerry_bedroom',)) in first.update.remove  # completed by the rules


def test_a_reading_with_the_state_its_words_say_leaves_nothing_unread(world):
    assert not unread_states(report(world, LIT_NOW, ('gary', added(WENT, LIT))))


@pytest.mark.parametrize('text', [
    "Gary went into Jerry's bedroom, where the light isn't lit.",  # turned round
    "Gary went into Jerry's bedroom; it is still not lit.",
    "Gary went into Jerry's bedroom and the kitchen is lit.",  # it holds already
    "Gary went into Jerry's bedroom.",  # no state said
])
def test_a_state_turned_round_holding_or_unsaid_is_not_unread(world, text):
    assert not unread_states(report(world, text, ('gary', added(WENT))))


def test_ask_stated_off_reads_no_state_from_the_words(world):
    assert not unread_states(report(world, LIT_NOW, ('gary', added(WENT)), ask_stated=False))


def test_a_part_said_before_leaves_nothing_out_where_a_part_read_as_nothing_does(world):
    """A later part whose answer repeats what the first answer read ahead is said, not idle.

    "Gary went into Jerry's bedroom [answered: there, and lit] | and Jerry's bedroom was
    lit [answered: lit, which the first part changed]": the room is in the reading. A
    part read as no change has what it names asked about (the whole-reading check).
    """
    text = "Gary went into Jerry's bedroom and Jerry's bedroom was lit."
    parts = ["Gary went into Jerry's bedroom", "and Jerry's bedroom was lit."]
    got = {}
    for how in ('confirmed', 'covered', 'passed'):
        r = reading(world, text, parts, UpdateSettings())
        r.accept(complete(r.work, added(WENT, LIT), world.constraints, world.domain), 'gary')
        if how == 'confirmed':
            r.confirmed(parts[1])
        else:  # a part the answers so far cover is passed over unread, as said before
            getattr(r, how)(world, parts[1])
        got[how] = left_out(r, r.req.kg.diff_to(r.work))
    assert 'jerry_bedroom' not in got['confirmed'] and 'jerry_bedroom' in got['passed']
    assert 'jerry_bedroom' not in got['covered']


def test_a_part_repeating_the_first_answer_is_said_only_when_that_names_what_it_names(world):
    """"... | and put the dune book on Jerry's shelf" answered with the first part's change
    that never names the book was not read: idle, not said before."""
    text = "Gary went into Jerry's bedroom and put the dune book on Jerry's shelf."
    parts = ["Gary went into Jerry's bedroom", "and put the dune book on Jerry's shelf."]
    r = reading(world, text, parts, UpdateSettings())
    shelved = fact('dune', 'placed_at', 'jerry_shelf')
    r.accept(complete(r.work, added(WENT, shelved), world.constraints, world.domain), 'gary')
    q = question(world, r, parts[1])

    def repeating(*facts: Fact) -> PartAnswer:
        said = Completion(Update.of([], facts), asked=Update.of([], facts))
        return PartAnswer(r, parts[1], q, Judged(Verdict.RESTATED, said), None, False,
                          ScriptedLLM(), world, UpdateSettings())
    assert repeating(shelved).confirms_earlier()  # the book on the shelf: said before
    assert not repeating(WENT).confirms_earlier()  # nothing of the book
    assert not repeating(fact('red_pen', 'placed_at', 'jerry_shelf')).confirms_earlier()


def test_a_part_repeating_only_a_removal_the_first_answer_read_ahead_is_said(world):
    """ "Bob came into the mailroom [answered: there, and its door no longer open] | and
    shut its door [answered: the door no longer open]": a removal alone repeats what the
    first part changed, so the part is said, not idle, and the door is in the reading. An
    answer that says nothing, or a removal the first part did not make, is no repeat."""
    text = "Gary went into Jerry's bedroom and took the dune book off the kitchen table."
    parts = ["Gary went into Jerry's bedroom", 'and took the dune book off the kitchen table.']
    r = reading(world, text, parts, UpdateSettings())
    first = Update.of([ON_TABLE], [WENT, TAKEN])
    r.accept(complete(r.work, first, world.constraints, world.domain), 'gary')
    q = question(world, r, parts[1])

    def repeating(removed: tuple[Fact, ...], added_: tuple[Fact, ...] = ()) -> PartAnswer:
        said = Update.of(removed, added_)
        return PartAnswer(r, parts[1], q, Judged(Verdict.RESTATED, Completion(said, asked=said)),
                          None, False, ScriptedLLM(), world, UpdateSettings())
    assert repeating((ON_TABLE,)).confirms_earlier()
    assert not repeating(()).confirms_earlier()
    assert not repeating((fact('blue_pen', 'placed_at', 'kitchen_table'),)).confirms_earlier()


@covers(ActorCheck)
def test_actor_check_passes_an_actor_the_words_send_elsewhere(world):
    """ "Gary has gone through to Jerry's bedroom, he left the blue pen on the kitchen
    table": where the words send him (``r.settled``) is where he is, whatever he put."""
    text = ("Gary has gone through to Jerry's bedroom, he left the blue pen on the kitchen "
            'table.')
    parts = ["Gary has gone through to Jerry's bedroom", 'he left the blue pen on the kitchen '
             'table.']
    rep = report(world, text, ('gary', added(WENT)), ('gary', added(PUT)), parts=parts,
                 ask_actor=False, ask_back=False)
    assert ruled(ActorCheck(), rep).act is Act.REJECT  # unsettled: the check still rules
    rep = report(world, text, ('gary', added(WENT)), ('gary', added(PUT)), parts=parts,
                 ask_actor=False, ask_back=False)
    rep.r.settled.add(WENT)
    assert ruled(ActorCheck(), rep).act is Act.PASS and rep.llm.asked == []


@covers(AskBack)
def test_a_runner_up_that_leaves_out_a_state_said_in_words_comes_after_one_with_it(
        world, monkeypatch):
    """Readings offered after a "no" (the slots' runners-up) are made whole too: a truthful
    speaker offered "Jerry is in the kitchen" alone, for "... and it is lit now", would
    pick it and write half the report."""
    from l3mp_ros.agent.core.asking import Candidate
    from l3mp_ros.agent.report import report_checks
    jerry = Update.of([fact('jerry', 'in_room', 'jerry_bedroom')],
                      [fact('jerry', 'in_room', 'kitchen')])
    monkeypatch.setattr(report_checks, 'runner_ups',
                        lambda rep, readings, n: [Candidate(jerry, 0.5, 'runner-up')])
    rep = report(world, LIT_NOW, ('gary', added(WENT)))
    readings = [r for r in AskBack.readings(rep) if r.source != SMALLER]
    sources = [r.source for r in readings]
    assert sources[-2:] == ['runner-up, with what the words say', 'runner-up'], sources
    assert LIT in readings[-2].update.add and jerry.add <= readings[-2].update.add
    assert sources.count('answer, with what the words say') == 1


@covers(AskBack)
def test_no_reading_offered_leaves_out_where_someone_the_report_sends_went(world):
    """The read-back denied Gary's move: the reading without it would leave out that he went
    into Jerry's bedroom, so it is not offered (a truthful "yes" to the rest writes half)."""
    rep = report(world, GOING, ('gary', added(WENT, LIT)))
    rep.r.unsure = {WENT}
    readings = AskBack.readings(rep)
    assert [r.source for r in readings if r.source != SMALLER] == ['answer']
    # nor as a part of the answer: every part keeps Gary where he went
    assert all(WENT in r.update.add for r in readings), [r.update for r in readings]
    rep = report(world, GOING, ('gary', added(WENT, LIT)))
    rep.r.unsure = {LIT}  # without the light is still offered: Gary stays placed
    assert [r.source for r in AskBack.readings(rep)
            if r.source != SMALLER] == ['answer', 'without denied']


def test_no_part_of_the_answer_drops_all_it_said_of_a_thing_the_report_names(world):
    """ "I've brought Bramble into the farmyard. I put the bucket back on the shelf.": the
    bucket alone was offered after a "no" and a truthful "yes" wrote half the report."""
    jerry_moved = fact('jerry', 'in_room', 'kitchen')
    for text in ('Jerry woke up. Gary put the blue pen on the kitchen table.',
                 'Jerry woke up, and Gary put the blue pen on the kitchen table.'):
        rep = report(world, text, ('gary', added(jerry_moved, PUT)), smaller_readings=4)
        readings = AskBack.readings(rep)
        assert readings and all('jerry' in r.update.entities() for r in readings), \
            [(r.source, r.update.text()) for r in readings]
    # a thing the report does not name may go: the light nobody spoke of
    rep = report(world, "Gary put the dune book on Jerry's shelf and the blue pen on the "
                 'kitchen table.', ('gary', added(LIT, ON_SHELF, PUT)), smaller_readings=4)
    parts = [r.update for r in AskBack.readings(rep) if r.source == SMALLER]
    assert parts and all(LIT not in u.add and ON_SHELF in u.add and PUT in u.add
                         for u in parts), parts


def test_no_part_of_the_answer_drops_all_it_read_from_a_part_of_the_report(world):
    """ "I've stuck Biscuit's blanket in the washing machine and set it going." read with
    the blanket clean for the second part: refused, the move alone was offered and a
    truthful "yes" wrote half; the light here is the second part's only fact."""
    text = "Gary put the dune book on Jerry's shelf and switched on the light."
    parts = ["Gary put the dune book on Jerry's shelf", 'and switched on the light.']
    rep = report(world, text, ('gary', added(ON_SHELF)), ('gary', added(LIT)), parts=parts,
                 smaller_readings=4)
    assert rep.r.several
    readings = AskBack.readings(rep)
    assert readings and all(LIT in r.update.add for r in readings), \
        [(r.source, r.update.text()) for r in readings]
    # read as one part, the book alone is offered after a "no": the light names nothing
    rep = report(world, text, ('gary', added(ON_SHELF, LIT)), parts=[text], smaller_readings=4)
    parts = [r.update for r in AskBack.readings(rep) if r.source == SMALLER]
    assert Update.of([ON_TABLE], [ON_SHELF]) in parts and all(ON_SHELF in u.add for u in parts)


def test_a_thing_named_only_to_say_where_another_is_may_go_from_a_part_of_the_answer(world):
    """ "The big floor centrifuge in the equipment room has been repaired": the room's
    light, read in and denied, kept every part of the answer offered after a "no" from
    being the repair alone; the room only says where the centrifuge is."""
    held, was = fact('blue_pen', 'in_hand', 'gary'), fact('blue_pen', 'placed_at', 'jerry_shelf')
    alone = Update.of([was], [held])
    text = "Gary took the blue pen off the shelf in Jerry's bedroom."
    rep = report(world, text, ('gary', added(held, LIT)), smaller_readings=4)
    assert said_of_all(rep.r, world, rep.update, alone)
    assert alone in [r.update for r in AskBack.readings(rep) if r.source == SMALLER]
    # named for itself, the room keeps a fact in every part offered
    text = "Gary took the blue pen off the shelf, and Jerry's bedroom is bright."
    rep = report(world, text, ('gary', added(held, LIT)), smaller_readings=4)
    assert not said_of_all(rep.r, world, rep.update, alone)
    parts = [r.update for r in AskBack.readings(rep) if r.source == SMALLER]
    assert parts and all('jerry_bedroom' in u.entities() for u in parts), parts


def test_a_part_of_the_report_the_read_back_denied_whole_may_go_from_a_part_of_the_answer(
        world):
    """ "..., it works again." read as the room's light, and the read-back denied it: the
    words of that part said nothing the answer kept, so the rest may be offered alone."""
    text = "Gary put the dune book on Jerry's shelf and switched on the light."
    parts = ["Gary put the dune book on Jerry's shelf", 'and switched on the light.']
    rep = report(world, text, ('gary', added(ON_SHELF)), ('gary', added(LIT)), parts=parts)
    book = Update.of([ON_TABLE], [ON_SHELF])
    assert rep.r.several and not said_of_all(rep.r, world, rep.update, book)
    rep.r.unsure = {LIT}
    assert said_of_all(rep.r, world, rep.update, book)
    # the light alone still drops all the answer said of the dune book, which is named
    assert not said_of_all(rep.r, world, rep.update, Update.of([DARK], [LIT]))


def test_readings_stating_only_what_the_read_back_denied_come_last(world):
    """After the answer, a reading made of denied facts alone ("the equipment room is no
    longer lit", denied twice) is offered after those that keep what the model read: the
    speaker answers at most a few questions."""
    text = "Gary put the dune book on Jerry's shelf and switched on the light."
    parts = ["Gary put the dune book on Jerry's shelf", 'and switched on the light.']
    rep = report(world, text, ('gary', added(ON_SHELF)), ('gary', added(LIT)), parts=parts)
    rep.r.unsure = {LIT}
    answer = Candidate(rep.update, 0.2, 'answer')
    light = Candidate(Update.of([DARK], [LIT]), 0.3, 'light alone')
    book = Candidate(Update.of([ON_TABLE], [ON_SHELF]), 0.6, 'book alone')
    gone = Candidate(Update.of([DARK, ON_TABLE], [LIT, TAKEN]), 0.4, 'other')
    # the dune book in Gary's hand is news beside the denied light: it keeps its place
    assert denied_last(rep.r, [answer, light, gone, book]) == [answer, gone, book, light]
    assert denied_last(rep.r, [light, book]) == [light, book]  # the answer stays first
    # the options about one thing move together, and only when none of them is news
    import dataclasses
    about = [dataclasses.replace(c, about='jerry_bedroom', source='left out 2')
             for c in (answer, light)]
    assert denied_last(rep.r, [answer, *about, book]) == [answer, book, *about]
    mixed = [dataclasses.replace(c, about='dune', source='left out 3') for c in (light, gone)]
    assert denied_last(rep.r, [answer, *mixed, book]) == [answer, *mixed, book]
    rep.r.unsure = set()
    assert denied_last(rep.r, [answer, light, book]) == [answer, light, book]


@covers(AskBack)
def test_a_place_named_to_say_where_another_thing_is_is_no_destination(world):
    """ "Jonas priced up the batteries and the light bulbs in the red tote on the packing
    table" read with the batteries on the packing table: the table says where the tote
    is. The reading is asked about, with the reading without that place beside it."""
    text = 'Jerry found the red pen with Gary at the kitchen table and lit up his bedroom.'
    red = fact('red_pen', 'placed_at', 'kitchen_table')
    rep = report(world, text, ('jerry', added(red, LIT)))
    assert described_places(rep) == {red} and AskBack().applies(rep)
    readings = AskBack.readings(rep)
    assert [r.source for r in readings][:2] == ['answer', 'without a place said of another '
                                                          'thing'], readings
    assert readings[1].update == Update.of([DARK], [LIT])
    ruling = ruled(AskBack(), rep)
    assert ruling.act is Act.ASK and 'where the report only says another thing is' in \
        ruling.errors[0]
    # the place of the thing itself, a place said of a thing that does not hold it ("left
    # the remote for the TV in Sarah's bedroom on the table"): no doubt
    for text in ('Gary put the blue pen on the kitchen table.',
                 'Gary put the blue pen next to the red pen on the kitchen table.',
                 "Gary left the blue pen for Jerry's bedroom on the kitchen table."):
        assert not described_places(report(world, text, ('gary', added(PUT)))), text
    # nor a person's place: "walked it out to Omar on the dock" takes Nadia there too
    text = 'Jerry came over to the dune book on the kitchen table.'
    assert not described_places(report(world, text, ('jerry', added(HERE_JERRY))))


def test_a_hand_over_said_through_pronouns_left_out_of_the_reading_is_unread(world):
    """ "Jerry came in, and Gary took the dune book off the kitchen table and handed it to
    him" read as Gary holding the book: Jerry holding it is what the words say."""
    text = ('Jerry came in, and Gary took the dune book off the kitchen table and handed it '
            'to him.')
    to_jerry = fact('dune', 'in_hand', 'jerry')
    assert unread_states(report(world, text, ('gary', added(TAKEN)))) == {to_jerry}
    assert not unread_states(report(world, text, ('gary', added(to_jerry))))
    assert not unread_states(report(world, text, ('gary', added(TAKEN)), ask_stated=False))


# the lights came on: "lit" said in other words (no word of the predicate's own)
LIGHTS_ON = "Gary went into Jerry's bedroom and the lights came on."
DARK = Fact('dark', ('jerry_bedroom',))


def _says(*yes: str):
    """A yes/no-each reply: "yes" to the statements containing one of ``yes``, else "no"."""
    def reply(messages):
        listed = messages[-1]['content'].split('Statements:\n', 1)[1].splitlines()
        return {k.split('.', 1)[0]: 'yes' if any(w in k for w in yes) else 'no'
                for k in listed if k[:1].isdigit()}
    return reply


@covers(OtherWords, AskBack)
def test_other_words_asks_with_a_state_the_model_hears_in_other_words(world):
    llm = ScriptedLLM(_says('is now lit'))
    rep = report(world, LIGHTS_ON, ('gary', added(WENT)), llm=llm, ask_other_words=True)
    assert enabled(OtherWords(), rep.settings)
    assert not unread_states(rep) and not AskBack().applies(rep)  # no word of "lit"
    ruling = ruled(OtherWords(), rep)
    assert ruling.act is Act.PASS and llm.asked == ['other_words'] and not llm.replies
    assert rep.other_words == Update.of([], [LIT]) and unread_states(rep) == {LIT}
    said = [h['other_words'] for h in rep.out.trace.history if 'other_words' in h]
    assert said == ["Jerry's bedroom is no longer dark.", "Jerry's bedroom is now lit."], said
    assert rep.out.notes == ["said in other words: Jerry's bedroom is now lit."]
    asked = ruled(AskBack(), rep)  # never written on the model's word: asked, with it first
    assert asked.act is Act.ASK and "Jerry's bedroom is lit." in asked.question
    assert (f'the reading leaves out {LIT.text()}, which the report says in other words'
            in asked.errors[0])
    first = Pending.from_json(asked.value).readings[0]
    assert WENT in first.update.add and LIT in first.update.add and DARK in first.update.remove


@covers(OtherWords)
def test_other_words_keeps_a_reading_the_model_hears_nothing_more_in(world):
    llm = ScriptedLLM(_says())
    rep = report(world, LIGHTS_ON, ('gary', added(WENT)), llm=llm, ask_other_words=True)
    assert ruled(OtherWords(), rep).act is Act.PASS and llm.asked == ['other_words']
    assert rep.other_words.is_empty() and not AskBack().applies(rep)
    # switched off (the shipped default): no call at all
    off = report(world, LIGHTS_ON, ('gary', added(WENT)), llm=ScriptedLLM())
    assert not enabled(OtherWords(), off.settings)
    # a state the reading already says is not asked again
    # a reading that says the room's states already (lit, so no longer dark): no call
    quiet = ScriptedLLM()
    told = report(world, LIGHTS_ON, ('gary', added(WENT, LIT)), llm=quiet)
    assert DARK in told.update.remove
    assert ruled(OtherWords(), told).act is Act.PASS and quiet.asked == []


@covers(OtherWords, AskBack)
def test_other_words_hears_a_state_end_and_asks_with_its_end(world):
    # the kitchen is lit in the mini world: "it's gone dark in there" ends it
    text = 'Gary went into the kitchen and it has gone dark in there.'
    llm = ScriptedLLM(_says('no longer lit'))
    rep = report(world, text, ('gary', added(HERE)), llm=llm)
    kitchen_lit = Fact('lit', ('kitchen',))
    assert kitchen_lit in rep.r.req.kg, 'the mini world has the kitchen lit'
    ruled(OtherWords(), rep)
    assert rep.other_words == Update.of([kitchen_lit], []) and unread_ends(rep) == {kitchen_lit}
    asked = ruled(AskBack(), rep)
    assert asked.act is Act.ASK and 'the end of' in asked.errors[0]
    first = Pending.from_json(asked.value).readings[0]
    assert kitchen_lit in first.update.remove


def test_a_state_said_yes_to_below_the_bar_is_not_taken():
    lit, dark = (Fact('lit', ('r',)), False), (Fact('dark', ('r',)), True)
    choice = StateChoice((lit, dark), ('R is now lit.', 'R is no longer dark.'),
                         (True, True), (0.95, 0.6))
    assert choice.said(0.8) == Update.of([], [lit[0]])
    assert choice.said(0.5) == Update.of([dark[0]], [lit[0]])
    no_odds = StateChoice((lit, dark), ('a', 'b'), (True, False), (None, None))
    assert no_odds.said(0.99) == Update.of([], [lit[0]])  # no odds: the answer alone
