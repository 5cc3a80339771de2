# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Asking back about a reading the robot is unsure of (issue 58): yes / no / which.

The model is the real openai client against the loopback scripted server. The report's
answer states the right fact and one the report never says; the read-back denies the
unsaid one (and the answer asked again without it is denied too, so the reading stays in
doubt): the report waits, and the speaker's answers decide what is written.
"""

import json
import time

import pytest

from l3mp_ros.agent.core.asking import (
    NO,
    SMALLER,
    UNDO_WINDOW,
    WITH_DENIED,
    Candidate,
    Pending,
    answer_of,
    confidence,
    option_json,
    question_text,
    read_odds,
)
from l3mp_ros.agent.report.runner_ups import RUNNER_UP
from l3mp_ros.agent.report.update import NLUpdater, UpdateSettings
from l3mp_ros.cli import main
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.retrieval.link import LinkRetriever
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.testing.fake_openai import NO_OPTION
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.store import Store

from .agent_fixtures import client, household_world, read_back_reply

REPORT = 'Jerry took the red pen from the living room table.'
HELD = Fact('in_person_hand', ('red_pen', 'jerry'))
OLD = Fact('placed_at_table', ('red_pen', 'living_room_table'))
EXTRA = Fact('person_in_room', ('jerry', 'jerry_bedroom'))  # the report never says it
WAS = Fact('person_in_room', ('jerry', 'living_room'))
ANSWER = {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry'],
                                ['person_in_room', 'jerry', 'jerry_bedroom']]}}


# the answer; yes to the pen (0.9), no to Jerry's move (0.3); asked again without the
# move the model writes it anyway: denied again, so the reading stays in doubt
SCRIPT = [ANSWER, read_back_reply(0.9), read_back_reply(0.3, 'no'), ANSWER]


def _updater(world, fake, **settings) -> NLUpdater:
    """An updater that asks yes/no first (``ask_together`` off unless a test turns it on).

    Every stated fact is read back (``settled_places`` off): the scripts answer the pen's
    read-back, which the words "took the red pen" would otherwise settle.
    """
    return NLUpdater(world, client(fake), LinkRetriever(),
                     UpdateSettings(resolve_mentions=False, **{'ask_together': False,
                                                               'settled_places': False,
                                                               **settings}))


def _asked(tmp_path, **settings):
    world = household_world(tmp_path)
    fake = FakeOpenAI(SCRIPT, answers=NO_OPTION).start()
    updater = _updater(world, fake, **settings)
    out = updater.run(REPORT)
    return world, fake, updater, out


def test_answers_are_read_without_the_model():
    for said, n, meant in [('yes', 1, 0), ('Yes, that is right.', 1, 0), ('yeah', 1, 0),
                           ('no', 1, NO), ("No, that's wrong", 1, NO), ('nope', 1, NO),
                           ('the second one', 3, 1), ('the first', 2, 0), ('2', 2, 1),
                           ('the last one', 3, 2), ('none of them', 3, NO),
                           ('neither', 2, NO), ("I don't know.", 1, NO),
                           ('yes', 2, None),  # a choice is not answered by yes
                           ('the fifth one', 3, None),  # no such option
                           ('Jerry went to the kitchen with the red pen', 1, None),
                           ('', 1, None)]:
        assert answer_of(said, n) == meant, said


def test_a_readings_confidence_is_the_least_odds_of_its_facts():
    history = [{'confirm': 'a', 'fact': list(HELD.triplet()), 'p_yes': 0.9},
               {'confirm': 'b', 'fact': list(EXTRA.triplet()), 'p_yes': 0.3},
               {'confirm': 'b', 'fact': list(EXTRA.triplet()), 'p_yes': 0.4},
               {'state': 'where', 'odds': [0.5, 0.5]}]
    odds = read_odds(history)
    assert odds == {HELD: 0.9, EXTRA: 0.3}  # the lowest reading of a fact read twice
    assert confidence({HELD, EXTRA}, set(), odds) == 0.3
    assert round(confidence({HELD}, {EXTRA}, odds), 4) == 0.7  # left out: 1 - P(yes)
    assert confidence({OLD}, set(), odds) == 1.0  # nothing read with odds


def test_a_denied_reading_is_asked_about_and_yes_writes_it(tmp_path):
    world, fake, updater, out = _asked(tmp_path)
    before = world.kg.to_json()
    with fake:
        calls = len(fake.requests)
        assert not out.applied and world.kg.to_json() == before  # nothing written yet
        assert str(out.status) == 'clarify'
        assert out.question.startswith('Just to check: ') and out.question.endswith(
            'Is that right?')
        asked = out.asked()
        # the first option is the whole answer: the pen to Jerry, Jerry to his bedroom
        first = Update.of([Fact.from_triplet(t) for t in asked['options'][0]['remove']],
                          [Fact.from_triplet(t) for t in asked['options'][0]['add']])
        assert first == Update.of([OLD, WAS], [HELD, EXTRA])
        assert len(asked['options']) == 1
        assert updater.answers('yes') and not updater.answers('the red pen is blue')
        done = updater.answer('yes')
        assert len(fake.requests) == calls  # the answer needs no LLM call
    assert done.applied and HELD in world.kg and EXTRA in world.kg
    with Store(tmp_path / 'kg.db') as s:
        events = s.history()
        assert s.load_kg().to_json() == world.kg.to_json()
    assert events[-2].status == 'clarify' and events[-1].status == 'applied'
    assert events[-1].info['clarifies'] == events[-2].id
    assert world.support_of(HELD).kind == 'confirmed' and world.support_of(HELD).unconfirmed_told
    assert updater.pending() is None and not updater.answers('yes')


def test_no_offers_the_reading_without_the_denied_fact_then_gives_up(tmp_path):
    world, fake, updater, out = _asked(tmp_path)
    before = world.kg.to_json()
    with fake:
        follow = updater.answer('no')
        assert not follow.applied and world.kg.to_json() == before
        assert follow.question.startswith('Then: ') and str(follow.status) == 'clarify'
        option = follow.asked()['options'][0]
        assert option == {'remove': [list(OLD.triplet())], 'add': [list(HELD.triplet())]}
        pending = Pending.from_json(follow.clarify)
        made = [r.source for r in pending.readings if not r.source.startswith(SMALLER)]
        assert made == ['answer', 'without denied']
        assert pending.readings[1].confidence > pending.readings[0].confidence
        # no part of the answer is left to offer: Jerry's move alone drops the red pen,
        # which the report names
        assert all('red_pen' in r.update.entities() for r in pending.readings)
        last = updater.answer('no')  # none left: said in one sentence, nothing written
    assert not last.applied and last.question is None and world.kg.to_json() == before
    assert 'could not understand what changed' in last.errors[0]
    assert updater.pending() is None


def test_no_then_yes_writes_the_smaller_reading(tmp_path):
    world, fake, updater, out = _asked(tmp_path)
    with fake:
        updater.answer('no')
        done = updater.answer('yes')
    assert done.applied and HELD in world.kg and EXTRA not in world.kg and WAS in world.kg


def test_without_ask_back_the_denied_reading_is_kept_out(tmp_path):
    world, fake, updater, out = _asked(tmp_path, ask_back=False)
    fake.stop()
    assert not out.applied and out.question is None and str(out.status) == 'rejected'
    assert 'does not read' in ' '.join(out.errors)


def test_an_unanswered_question_about_a_reading_expires(tmp_path):
    world, fake, updater, out = _asked(tmp_path, clarify_timeout=30)
    fake.stop()
    before = world.kg.to_json()
    assert updater.expire(now=out.clarify['expires'] + 1) == [out.event_id]
    assert updater.pending() is None
    late = updater.answer('yes')  # a late answer is told the question is closed
    assert not late.applied and late.errors[0].startswith('There is no open question')
    assert world.kg.to_json() == before


def test_the_cli_contract_status_clarify_with_options(tmp_path, capsys):
    """``l3mp update --json`` then ``l3mp say --text yes --json``, as the evaluator runs them."""
    from l3mp_ros.world.kg import KnowledgeGraph

    from .agent_fixtures import CONSTRAINTS, DOMAIN, STATE
    path = tmp_path / 'cli.db'
    Store.create(path, KnowledgeGraph.from_json(json.loads(STATE.read_text())),
                 domain_path=str(DOMAIN), constraints_path=str(CONSTRAINTS)).close()
    with FakeOpenAI(SCRIPT, answers=NO_OPTION) as fake:
        common = ['--store', str(path), '--model', 'fake', '--llm', fake.base_url, '--json']
        capsys.readouterr()  # the pen read back too, as SCRIPT answers it
        assert main(['update', *common, '--text', REPORT, '--no-settled-places']) == 1
        reply = _reply(capsys.readouterr().out)
        assert reply['status'] == 'clarify', reply['errors']
        # both readings in one question (ask_together, the default): what they share
        # said once, then each by what it says beyond it
        assert reply['question']['text'] == (
            "The red pen is in Jerry's hand. The red pen is no longer placed at the living "
            "room table. With that, which is right? 1. Jerry is in Jerry's bedroom. Jerry "
            "is no longer in the living room. 2. Nothing else. Or none of them?")
        # which checks did something: the read-back's calls, and the decision to ask
        assert reply['checks']['read_back']['calls'] == 3 and 'ask_back' in reply['checks']
        first, second = reply['question']['options']
        assert [HELD.triplet()] == [tuple(f) for f in first['add'] if f[1] == HELD.predicate]
        assert second == option_json(Update.of([OLD], [HELD]))  # each option whole
        calls = len(fake.requests)
        assert main(['say', *common, '--text', 'the second one']) == 0
        done = _reply(capsys.readouterr().out)
        assert len(fake.requests) == calls  # routed to the open question, no model call
    assert done['status'] == 'applied' and done['applied']
    with Store(path) as s:
        kg = s.load_kg()
        assert HELD in kg and EXTRA not in kg and s.history()[-1].info['support'] == 'confirmed'


@pytest.mark.parametrize('pick', ['the first one', 'the second one', 'none of them'])
def test_every_reading_is_offered_in_the_first_question(tmp_path, pick):
    """With ``ask_together`` the readings come in one question: the answer as the model gave
    it, and without what the read-back denied. A pick settles it at no model call; a "none
    of them" leaves nothing to ask and writes nothing (then only the restatement check,
    :mod:`l3mp_ros.agent.report.already`, asks the model)."""
    world, fake, updater, out = _asked(tmp_path, ask_together=True)
    before = world.kg.to_json()
    with fake:
        calls = len(fake.requests)
        assert str(out.status) == 'clarify' and 'With that, which is right? 1. ' in out.question
        assert out.asked()['options'] == [option_json(Update.of([OLD, WAS], [HELD, EXTRA])),
                                          option_json(Update.of([OLD], [HELD]))]
        done = updater.answer(pick)
        assert done.question is None and (len(fake.requests) == calls or pick == 'none of them')
    if pick == 'none of them':
        assert not done.applied and world.kg.to_json() == before
        assert 'could not understand what changed' in done.errors[0]
    else:
        assert done.applied and HELD in world.kg and (EXTRA in world.kg) == (
            pick == 'the first one')
    assert updater.pending() is None


def test_a_question_says_what_its_options_share_once(tmp_path):
    """Options are said by what each says beyond the others: one slot in doubt reads as
    that slot's values; an option that says no more reads "Nothing else."; with nothing
    shared each option is said whole."""
    world = household_world(tmp_path)
    kg, domain = world.kg, world.domain
    table = Fact('placed_at_table', ('red_pen', 'kitchen_table'))
    hand = Fact('in_person_hand', ('red_pen', 'anna'))
    one_slot = question_text(kg, domain, [Candidate(Update.of([OLD], [HELD]), 0.6, 'answer'),
                                          Candidate(Update.of([OLD], [hand]), 0.3, RUNNER_UP)],
                             True)
    assert one_slot == ('The red pen is no longer placed at the living room table. With that, '
                        "which is right? 1. The red pen is in Jerry's hand. 2. The red pen is in "
                        "Anna's hand. Or none of them?")
    more = question_text(kg, domain, [Candidate(Update.of([OLD, WAS], [HELD, EXTRA]), 0.5, 'a'),
                                      Candidate(Update.of([OLD], [HELD]), 0.6, 'b')], True)
    assert more.endswith("With that, which is right? 1. Jerry is in Jerry's bedroom. Jerry is "
                         'no longer in the living room. 2. Nothing else. Or none of them?')
    apart = question_text(kg, domain, [Candidate(Update.of([OLD], [HELD]), 0.6, 'a'),
                                       Candidate(Update.of([WAS], [EXTRA]), 0.3, 'b')], True)
    assert apart.startswith("Which is right? 1. The red pen is in Jerry's hand. The red pen is "
                            'no longer placed at the living room table. 2. Jerry is in')
    assert table not in kg  # (the options are only said: nothing is written)


def test_a_question_says_what_the_report_wrote_as_a_name_as_a_name():
    """"... with Luna": every question about the report, the first and those after a "no",
    says Luna and Luna's carrier, not "the luna" of a type shared with bowls."""
    domain = DomainSchema.from_text("""(define (domain vets)
      (:requirements :strips :typing)
      (:types movable person - object animal carrier - movable)
      (:predicates (in_carrier ?a - animal ?c - carrier) (held_by ?m - movable ?p - person)))""")
    kg = KnowledgeGraph('vets')
    for name, t in (('luna', 'animal'), ('luna_carrier', 'carrier'), ('chloe', 'person'),
                    ('tom', 'person'), ('spare_bowl', 'movable')):
        kg.add_entity(name, t)
    kg.add_fact(Fact('in_carrier', ('luna', 'luna_carrier')))
    out = Update.of([Fact('in_carrier', ('luna', 'luna_carrier'))],
                    [Fact('held_by', ('luna', 'chloe'))])
    other = Update.of([Fact('in_carrier', ('luna', 'luna_carrier'))],
                      [Fact('held_by', ('luna', 'tom'))])
    text = "Chloe's gone in to see Tom with Luna."
    p = Pending.first(text, [Candidate(out, 0.5, 'answer'), Candidate(other, 0.4, 'b')], kg,
                      domain, 60.0)
    assert p.question == ("Just to check: Luna is held by Chloe. Luna is no longer in Luna's "
                          'carrier. Is that right?')
    again = p.next(kg, domain, 60.0)
    assert again is not None and 'Luna is held by Tom' in again.question
    assert 'the luna' not in again.question.lower().replace("luna's", '')
    # without the report's words the type's group decides: not names
    assert question_text(kg, domain, [Candidate(out, 0.5, 'answer')], True).startswith(
        'Just to check: The luna is held by Chloe.')


def test_a_yes_no_question_says_each_sentence_once(tmp_path):
    """An option made whole whose words repeat its change ("Then: Max's bowl is no longer
    full. Max's bowl is no longer full. Max is still vaccinated.") says it once."""
    world = household_world(tmp_path)
    kg, domain = world.kg, world.domain
    change = Update.of([OLD], [HELD])
    said = question_text(kg, domain, [Candidate(change, 0.5, 'answer')], False)
    lead = said[len('Then: '):-len(' Is that right?')]
    kept = Update.of([], [WAS])
    still = 'Jerry is still in the living room.'
    one = Candidate(change, 0.5, 'x', about='jerry', kept=kept, words=f'{lead} {still}')
    got = question_text(kg, domain, [one], False)
    assert got == f'Then: {lead} {still} Is that right?', got


def _reply(stdout: str) -> dict:
    return json.loads(stdout[stdout.index('{'):])


def test_a_pending_question_survives_a_round_trip_through_json():
    p = Pending('r', [Candidate(Update.of([OLD], [HELD]), 0.4, 'answer'),
                      Candidate(Update.of([], [EXTRA]), 0.7, 'without denied')], [0], 1, 'q?', 5.0)
    back = Pending.from_json(json.loads(json.dumps(p.to_json())))
    assert back == p and back.options() == p.options()


def test_the_benchmark_speaker_says_what_the_evaluators_speaker_says():
    from l3mp_ros_bench.speaker import answer, true_option
    after = {HELD, WAS}  # the pen went to Jerry; Jerry stayed in the living room
    whole = {'remove': [list(OLD.triplet()), list(WAS.triplet())],
             'add': [list(HELD.triplet()), list(EXTRA.triplet())]}
    half = {'remove': [list(OLD.triplet())], 'add': [list(HELD.triplet())]}
    assert not true_option(whole, after) and true_option(half, after)
    assert not true_option({'remove': [], 'add': []}, after)  # says nothing: not true
    assert answer({'options': [whole]}, after) == 'no'
    assert answer({'options': [half]}, after) == 'yes'
    assert answer({'options': [whole, half]}, after) == 'the second one'
    more = {'remove': [list(OLD.triplet())], 'add': [list(HELD.triplet()), list(WAS.triplet())]}
    assert answer({'options': [half, more]}, after) == 'the second one'  # says the most
    assert answer({'options': [whole, whole]}, after) == 'none of them'
    assert answer({'options': []}, after) == "I don't know."


def test_the_speaker_talks_a_report_through_in_process(tmp_path):
    from l3mp_ros_bench.speaker import converse
    world, fake, updater, out = _asked(tmp_path)
    with fake:
        talk = converse(out, updater.answer, {HELD, WAS})
    assert [t['answer'] for t in talk.turns] == ['no', 'yes'] and talk.asked == 2
    # each turn keeps the whole question and what each option would write
    assert all(len(t['offered']) == t['options'] and t['question'].endswith('?')
               for t in talk.turns)
    assert any(list(HELD.triplet()) in o['add'] for o in talk.turns[-1]['offered'])
    assert HELD in world.kg and WAS in world.kg and EXTRA not in world.kg
    # nobody answers: nothing is said, nothing written
    world2, fake2, updater2, out2 = _asked(tmp_path / 'b')
    fake2.stop()
    assert converse(out2, updater2.answer, None).asked == 0 and HELD not in world2.kg


def test_a_reading_below_the_calibrated_confidence_is_asked_about(tmp_path):
    world = household_world(tmp_path)
    one = {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry']]}}
    with FakeOpenAI([one, read_back_reply(0.6)], answers=NO_OPTION) as fake:
        updater = _updater(world, fake, ask_below=0.75)
        out = updater.run(REPORT)
        assert str(out.status) == 'clarify' and round(out.confidence, 2) == 0.6
        assert 'confidence 0.60 is below 0.75' in out.errors[0]
        assert len(out.asked()['options']) == 1  # one reading: yes or no
        done = updater.answer('yes')
    assert done.applied and HELD in world.kg
    # above the bar (or with the shipped default), the same reading is written at once
    world2 = household_world(tmp_path / 'b')
    with FakeOpenAI([one, read_back_reply(0.8)], answers=NO_OPTION) as fake:
        out = _updater(world2, fake, ask_below=0.75).run(REPORT)
    assert out.applied and out.question is None and round(out.confidence, 2) == 0.8


def test_undo_that_right_after_a_report_takes_it_back(tmp_path):
    from l3mp_ros.agent.core.asking import correction
    assert correction('undo that') and correction("No, that's wrong.") and correction(
        'Scratch that!') and not correction('no') and not correction('undo the blinds')
    world = household_world(tmp_path)
    before = world.kg.to_json()
    one = {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry']]}}
    with FakeOpenAI([one, read_back_reply(0.9)], answers=NO_OPTION) as fake:
        updater = _updater(world, fake)
        out = updater.run(REPORT)
        assert out.applied and HELD in world.kg
        calls = len(fake.requests)
        assert updater.answers('undo that') and not updater.answers('the red pen')
        late = time.time() + UNDO_WINDOW + 1  # past the window: no longer taken back
        assert updater.questions.withdrawable() is not None
        assert updater.questions.withdrawable(now=late) is None
        undone = updater.answer("No, that's wrong.")
        assert len(fake.requests) == calls  # no model call
    assert undone.applied and world.kg.to_json() == before  # the write withdrawn
    with Store(tmp_path / 'kg.db') as s:
        events = s.history()
    assert events[-1].info['withdraws'] == out.event_id and events[-2].id == out.event_id
    assert events[-2].update == Update.of([OLD], [HELD])  # nothing deleted from the log
    # a withdrawal is not withdrawn again
    assert not updater.answers('undo that') and updater.answer('undo that') is None


def test_an_answer_past_the_options_is_told_so_and_the_question_stays(tmp_path):
    from l3mp_ros.agent.core.asking import unfit
    assert unfit('the fifth one', 3).startswith('That is not one of the options')
    assert 'yes' in unfit('the second one', 1)
    assert unfit('the second one', 3) is None and unfit('Jerry went out', 1) is None
    world, fake, updater, out = _asked(tmp_path)
    before = world.kg.to_json()
    with fake:
        assert updater.answers('the third one')
        said = updater.answer('the third one')  # one option: yes or no
        assert not said.applied and said.errors[0].startswith('That is not one of')
        assert said.question == out.question and str(said.status) == 'clarify'
        assert world.kg.to_json() == before and updater.pending()[0] == out.event_id
        assert updater.answer('yes').applied  # the question was still open
    assert HELD in world.kg


def test_a_second_report_while_one_waits_is_read_and_the_question_stays(tmp_path):
    world = household_world(tmp_path)
    anna = Fact('person_in_room', ('anna', 'kitchen'))
    second = [{'content': {'facts': [['person_in_room', 'anna', 'kitchen']]}},
              read_back_reply(0.95)]
    with FakeOpenAI([*SCRIPT, *second], answers=NO_OPTION) as fake:
        updater = _updater(world, fake)
        first = updater.run(REPORT)
        assert str(first.status) == 'clarify'
        other = updater.run('Anna went to the kitchen.')  # read as usual meanwhile
        assert other.applied and anna in world.kg and HELD not in world.kg
        assert updater.pending()[0] == first.event_id  # the question is still open
        done = updater.answer('yes')
    # the confirmed reading is verified on the graph as it is now, then written
    assert done.applied and HELD in world.kg and EXTRA in world.kg and anna in world.kg


def test_an_answer_with_no_question_open_is_told_so_and_changes_nothing(tmp_path):
    world = household_world(tmp_path)
    before = world.kg.to_json()
    with FakeOpenAI([]) as fake:  # no reply scripted: any LLM call would fail the test
        agent_route = _updater(world, fake)
        for said in ('yes', 'the second one', 'none of them'):
            assert agent_route.questions.stray(said)
            out = agent_route.answer(said)
            assert not out.applied and out.errors == [
                f'There is no open question to answer: "{said}" changes nothing.']
        assert not agent_route.questions.stray('Jerry went to the kitchen.')
        assert fake.requests == []
    assert world.kg.to_json() == before
    with Store(tmp_path / 'kg.db') as s:  # each logged as said, nothing written
        assert [e.status for e in s.history()[-3:]] == ['rejected'] * 3


def test_a_second_speakers_answer_after_the_first_is_told_the_question_is_closed(tmp_path):
    world, fake, updater, out = _asked(tmp_path)
    with fake:
        calls = len(fake.requests)
        first = updater.answer('yes')  # the first speaker settles it
        second = updater.answer('no')  # the second answers a question no longer open
        assert len(fake.requests) == calls
    assert first.applied and HELD in world.kg and EXTRA in world.kg  # the "no" undid nothing
    assert not second.applied and second.errors[0].startswith('There is no open question')
    assert world.support_of(HELD).kind == 'confirmed'


def test_a_reading_that_takes_what_a_rule_needed_is_asked_even_when_sure(tmp_path):
    # "took Dune from the shelf" answered with Dune in Jerry's hand: its place on the
    # shelf goes (a functional rule), and with it its shelf level (a requires rule). The
    # read-back is sure (0.9), but which side of a requires rule the report meant is not
    # the rule's to say: the reading is asked about, and yes writes both removals
    world = household_world(tmp_path)
    before = world.kg.to_json()
    dune = Fact('in_person_hand', ('book_dune', 'jerry'))
    level = Fact('on_shelf_level', ('book_dune', 'living_room_shelf_level_1'))
    shelf = Fact('placed_at_shelf', ('book_dune', 'living_room_shelf'))
    assert level in world.kg and shelf in world.kg
    one = {'content': {'facts': [['in_person_hand', 'book_dune', 'jerry']]}}
    with FakeOpenAI([one, read_back_reply(0.9)], answers=NO_OPTION) as fake:
        updater = _updater(world, fake)
        out = updater.run('Jerry took Dune from the living room shelf.')
        assert str(out.status) == 'clarify', out.errors
        assert 'goes with what it needed (rule shelf_level_needs_shelf)' in out.errors[0]
        option = out.asked()['options'][0]
        assert option == {'remove': [list(level.triplet()), list(shelf.triplet())],
                          'add': [list(dune.triplet())]}
        assert world.kg.to_json() == before
        done = updater.answer('yes')
    assert done.applied and dune in world.kg and level not in world.kg and shelf not in world.kg
    with Store(tmp_path / 'kg.db') as s:
        assert s.load_kg().to_json() == world.kg.to_json()


def test_an_answer_a_rule_refuses_is_asked_about_without_the_facts_it_fails_by(tmp_path):
    # every answer adds Hamlet on the living room shelf beside the pen: a book on a shelf
    # lies on one of its levels (a requires rule), and no level is given, so each answer
    # is refused. Without that fact the rest verifies: kept, read back, and asked about
    # (never written unasked); yes writes the pen alone
    world = household_world(tmp_path)
    before = world.kg.to_json()
    shelf = Fact('placed_at_shelf', ('book_hamlet', 'living_room_shelf'))
    bad = {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry'],
                                 list(shelf.triplet())]}}
    with FakeOpenAI([bad, bad, bad, read_back_reply(0.9)], answers=NO_OPTION) as fake:
        updater = _updater(world, fake)
        out = updater.run(REPORT)
        assert str(out.status) == 'clarify', out.errors
        assert f'{shelf.text()} was left out: with it a rule of the domain fails' in \
            out.errors[0]
        assert out.asked()['options'] == [{'remove': [list(OLD.triplet())],
                                           'add': [list(HELD.triplet())]}]
        assert world.kg.to_json() == before
        done = updater.answer('yes')
    assert done.applied and HELD in world.kg and shelf not in world.kg
    # without ask_back the report stays out, as before
    world2 = household_world(tmp_path / 'b')
    with FakeOpenAI([bad, bad, bad, read_back_reply(0.9)], answers=NO_OPTION) as fake:
        out = _updater(world2, fake, ask_back=False).run(REPORT)
    assert not out.applied and str(out.status) == 'rejected' and HELD not in world2.kg


def _denied_then_other(tmp_path, p_pen: float):
    """The answer (pen to Jerry, Jerry to his bedroom) is read back: the move denied; asked
    again without it, the model gives the pen alone, read yes at ``p_pen``."""
    world = household_world(tmp_path)
    one = {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry']]}}
    fake = FakeOpenAI([ANSWER, read_back_reply(p_pen), read_back_reply(0.3, 'no'), one],
                      answers=NO_OPTION)
    fake.start()
    updater = _updater(world, fake, ask_below=0.75)
    return world, fake, updater, updater.run(REPORT)


@pytest.mark.parametrize('pick, written', [('the second one', {HELD, EXTRA}),
                                           ('the first one', {HELD})])
def test_what_the_read_back_denied_is_offered_beside_the_answer(tmp_path, pick, written):
    """A reading may leave out what happened ("stayed on the dock with it": the jack denied,
    the pallet given): the answer with the denied facts is offered in the same question."""
    world, fake, updater, out = _denied_then_other(tmp_path, 0.6)
    with fake:
        assert str(out.status) == 'clarify' and out.question == (
            "The red pen is in Jerry's hand. The red pen is no longer placed at the living "
            "room table. With that, which is right? 1. Nothing else. 2. Jerry is in Jerry's "
            "bedroom. Jerry is no longer in the living room. Or none of them?")
        options = out.asked()['options']
        assert options == [option_json(Update.of([OLD], [HELD])),
                           option_json(Update.of([OLD, WAS], [HELD, EXTRA]))]
        sources = [r.source for r in Pending.from_json(out.clarify).readings]
        assert sources[:2] == ['answer', WITH_DENIED]
        done = updater.answer(pick)
    assert done.applied and {HELD, EXTRA} & set(world.kg.facts) == written


def test_a_sure_answer_after_a_denial_is_written_without_asking(tmp_path):
    """The reading with the denied facts is offered only when the report is asked about."""
    world, fake, updater, out = _denied_then_other(tmp_path, 0.9)
    fake.stop()
    assert out.applied and out.question is None and HELD in world.kg and EXTRA not in world.kg


@pytest.mark.parametrize('text, asked', [
    ('The black jeans in the laundry basket are clean now.', False),  # says "clean"
    ('The black jeans in the laundry basket are dry now.', True),  # "dry": another predicate
    ('The black jeans in the laundry basket are washed now.', False),  # no predicate's word
])
def test_a_reading_whose_predicate_the_report_never_says_is_asked_even_when_sure(
        tmp_path, text, asked):
    """ "Someone unlocked Bob's door" read as the door open, sure at 0.74: the report says
    "unlocked", a word of another predicate of the door, never "open". Asked, not written."""
    world = household_world(tmp_path)
    dry = Fact('cloth_is_dry', ('black_jeans',))  # wet, so that "dry now" says a change
    assert world.apply(Update.of([dry], []), source='cli').applied
    clean = Fact('cloth_is_clean', ('black_jeans',))
    answer = {'content': {'facts': [['cloth_is_clean', 'black_jeans', 'true']]}}
    with FakeOpenAI([answer, read_back_reply(0.95)], answers=NO_OPTION) as fake:
        updater = _updater(world, fake, ask_below=0.7)
        out = updater.run(text)
        if asked:
            assert str(out.status) == 'clarify' and clean not in world.kg
            assert 'does not say cloth_is_clean of black_jeans, it speaks of cloth_is_dry' \
                in out.errors[0]
            # the report's own word, "dry", in place of the reading's "clean", is offered
            # first (ask_stated: agent/report/report_checks.py with_states)
            assert out.question == 'Just to check: The black jeans are dry. Is that right?'
            done = updater.answer('yes')
            assert done.applied and dry in world.kg and clean not in world.kg
            return
    assert (clean in world.kg) is not asked and out.applied is not asked


@pytest.mark.parametrize('report, asked', [('Jerry handed the red pen to Anna.', True),
                                           ('Anna came over and took the red pen.', False)])
def test_a_person_moved_who_neither_acts_nor_goes_is_asked_about(tmp_path, report, asked):
    """``ask_moved``: "handed the red pen to Anna" read with Anna moved to Jerry's bedroom
    too; Anna only receives, so her move is asked about ("Nothing else." writes the pen
    alone). Anna who comes over and takes it acts: written as read."""
    world = household_world(tmp_path)
    anna_moved = Fact('person_in_room', ('anna', 'jerry_bedroom'))
    pen = Fact('in_person_hand', ('red_pen', 'anna'))
    answer = {'content': {'facts': [list(pen.triplet()), list(anna_moved.triplet())]}}
    with FakeOpenAI([answer] * 4, answers=NO_OPTION) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever(), UpdateSettings(
            resolve_mentions=True, confirm=False, place_check=False, ask_left_out=False))
        out = updater.run(report)
        if asked:
            assert not out.applied and 'neither act nor go anywhere' in out.errors[0]
            assert out.question.endswith('With that, which is right? 1. Anna is in '
                                         "Jerry's bedroom. Anna is no longer in Anna's "
                                         'bedroom. 2. Nothing else. Or none of them?')
            done = updater.answer('the second one')
            assert done.applied and pen in world.kg and anna_moved not in world.kg
        else:
            assert out.applied and pen in world.kg and anna_moved in world.kg


def test_an_owner_named_first_is_not_who_acts(tmp_path):
    """"After going to Anna's bedroom, Jerry took the red pen": Jerry acts and goes (the
    report's first person is Jerry, not the owner Anna), so his move is written unasked."""
    world = household_world(tmp_path)
    went = Fact('person_in_room', ('jerry', 'anna_bedroom'))
    answer = {'content': {'facts': [list(HELD.triplet()), list(went.triplet())]}}
    with FakeOpenAI([answer] * 4, answers=NO_OPTION) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever(), UpdateSettings(
            resolve_mentions=True, confirm=False, place_check=False, ask_left_out=False))
        out = updater.run("After going to Anna's bedroom, Jerry took the red pen.")
    assert out.applied, out.errors
    assert HELD in world.kg and went in world.kg


def test_a_state_said_in_other_words_is_asked_with_the_reading_when_switched_on(tmp_path):
    """"... and the kitchen light went out": the reading has the pen alone; with
    ``ask_other_words`` the one states call hears the light off and the reading is asked
    about with it first, so a "yes" writes both (agent/report/other_words.py)."""
    text = 'Jerry took the red pen from the living room table and the kitchen light went out.'
    light = Fact('light_on', ('kitchen_light',))
    one = {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry']]}}
    hears = {'content': {'1': 'yes'}}  # "The kitchen light is no longer on."
    world = household_world(tmp_path)
    assert light in world.kg
    with FakeOpenAI([one, read_back_reply(0.95)],
                    answers={**NO_OPTION, 'other_words': hears}) as fake:
        updater = _updater(world, fake, ask_other_words=True)
        out = updater.run(text)
        asked = [r for r in fake.requests if r['response_format']['json_schema']['name']
                 == 'other_words']
        assert len(asked) == 1 and 'The kitchen light is no longer on.' in \
            asked[0]['messages'][-1]['content']
        assert str(out.status) == 'clarify' and 'says in other words' in out.errors[0]
        assert out.question.startswith('Just to check: ') and 'kitchen light' in out.question
        assert HELD not in world.kg  # never written on the model's word alone
        done = updater.answer('yes')
    assert done.applied and HELD in world.kg and light not in world.kg
    # off (the shipped default): no such call, and the pen alone is written at once
    world2 = household_world(tmp_path / 'b')
    with FakeOpenAI([one, read_back_reply(0.95)],
                    answers={**NO_OPTION, 'other_words': hears}) as fake:
        out2 = _updater(world2, fake).run(text)
        assert not [r for r in fake.requests
                    if r['response_format']['json_schema']['name'] == 'other_words']
    assert out2.applied and HELD in world2.kg and light in world2.kg


def test_an_option_already_denied_is_not_offered_again(tmp_path):
    """ "No" to a reading, then its options about a thing: the one that is that reading again
    is dropped, and a question whose options were all denied already is skipped."""
    world = household_world(tmp_path)
    kg, domain = world.kg, world.domain
    moved = Fact('person_in_room', ('jerry', 'kitchen'))
    was = Fact('person_in_room', ('jerry', 'living_room'))
    light = Fact('light_on', ('kitchen_light',))
    base = Update.of([was], [moved])
    both = Update.of([was], [moved, light])
    readings = [Candidate(both, 0.5, 'answer'),
                # the options about the light: the first says what the answer said
                Candidate(both, 0.5, 'left out 0', about='kitchen_light',
                          words='The kitchen light is on.'),
                Candidate(base, 0.5, 'left out 0', about='kitchen_light',
                          words='The kitchen light is not on.',
                          kept=Update.of([light], [])),
                Candidate(both, 0.4, 'runner-up'),  # the answer again: skipped
                Candidate(Update.of([], [light]), 0.3, 'without denied')]
    first = Pending.first('Jerry went to the kitchen.', readings, kg, domain, 60.0)
    assert first.offered == [0]
    second = first.next(kg, domain, 60.0)
    assert second.offered == [2]  # the light "on" again is the answer: not asked twice
    assert second.question.startswith('Then: ') and 'Is that right?' in second.question
    third = second.next(kg, domain, 60.0)
    assert third.offered == [4] and third.asked == 3  # the runner-up repeats: skipped
    assert third.next(kg, domain, 60.0) is None
    again = Pending.first('Jerry went to the kitchen.', readings[:3], kg, domain, 60.0)
    assert again.next(kg, domain, 60.0).next(kg, domain, 60.0) is None  # none left


def test_each_kind_of_denied_fact_is_offered_left_out_alone(tmp_path):
    """The read-back denies Jerry's move and the open window both: before the reading
    without both, the readings without each of them alone are offered (the one that says
    the most first), so a speaker for whom the move was right says which one is whole."""
    light = Fact('window_open', ('living_room_window',))
    answer = {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry'],
                                    ['person_in_room', 'jerry', 'jerry_bedroom'],
                                    ['window_open', 'living_room_window']]}}
    script = [answer, read_back_reply(0.9), read_back_reply(0.3, 'no'),
              read_back_reply(0.2, 'no'), answer, answer]
    world = household_world(tmp_path, without=(['living_room_window', 'window_open', 'true'],))
    assert light not in world.kg
    with FakeOpenAI(script, answers=NO_OPTION) as fake:
        updater = _updater(world, fake)
        out = updater.run('Jerry took the red pen from the living room table by the living '
                          'room window.')
        assert out.clarify, (out.errors, len(fake.requests))
        pending = Pending.from_json(out.clarify)
        sources = [r.source for r in pending.readings]
        assert 'without denied person_in_room' in sources and 'without denied' not in \
            sources[:sources.index('without denied person_in_room')], sources
        alone = {r.source: r.update for r in pending.readings}
        assert alone['without denied person_in_room'] == Update.of([OLD], [HELD, light])
        while out.question and EXTRA not in world.kg:  # the speaker: the move, no light
            options = out.asked()['options']
            k = next((k for k, o in enumerate(options) if list(EXTRA.triplet()) in o['add']
                      and list(light.triplet()) not in o['add']), None)
            out = updater.answer('no' if k is None and len(options) == 1 else
                                 'none of them' if k is None else
                                 'yes' if len(options) == 1 else
                                 ('the first one', 'the second one', 'the third one',
                                  'the fourth one')[k])
    assert out.applied and HELD in world.kg and EXTRA in world.kg and light not in world.kg
