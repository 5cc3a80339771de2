# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Asking back: a report whose words fit several things waits for the speaker's answer."""

import json

from l3mp_ros.agent.core import clarify
from l3mp_ros.agent.report.update import NLUpdater, UpdateSettings
from l3mp_ros.cli import main
from l3mp_ros.compose import build_agent
from l3mp_ros.config import Config
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.retrieval.mention import Mention
from l3mp_ros.retrieval.mentions import resolve
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.store import Store

from .agent_fixtures import CONSTRAINTS, DOMAIN, STATE, client, household_world

REPORT = 'Jerry picked up the TV remote.'
LOOKED = 'Jerry went to the kitchen to look for the TV remote.'  # the remote: a purpose
GUESS = {'facts': [['in_person_hand', 'living_room_tv_remote', 'jerry']]}
REMOTES = ['anna_bedroom_tv_remote', 'jerry_bedroom_tv_remote', 'living_room_tv_remote']
HELD = Fact('in_person_hand', ('jerry_bedroom_tv_remote', 'jerry'))
WAS = Fact('placed_at_table', ('jerry_bedroom_tv_remote', 'jerry_bedroom_table'))


def _doubt(world, text, *facts):
    kg = world.snapshot()
    stated = [Update.of([], [Fact.from_triplet(t) for t in facts])]
    return clarify.ambiguity(kg, resolve(kg, text), stated, world)


def test_a_change_that_fits_every_candidate_is_a_question(tmp_path):
    world = household_world(tmp_path)
    d = _doubt(world, REPORT, ('living_room_tv_remote', 'in_person_hand', 'jerry'))
    assert d is not None and d.chosen == 'living_room_tv_remote'
    assert [o.entity for o in d.options] == REMOTES
    # each option is told apart by where it is (the location rule's facts)
    assert d.question() == (
        "Which TV remote do you mean: Anna's bedroom tv remote, the one that is in Anna's "
        "hand, Jerry's bedroom tv remote, the one that is placed at Jerry's bedroom table, "
        'or the living room tv remote, the one that is placed at the living room table?')


def test_no_question_when_the_graph_settles_it(tmp_path):
    world = household_world(tmp_path)
    kg = world.snapshot()
    remote = Mention(0, 2, 'tv remote', list(REMOTES), 'the TV remote')
    # the living-room remote already lies there: only the other two could be meant
    moved = [Update.of([], [Fact('placed_at_table', ('jerry_bedroom_tv_remote',
                                                     'living_room_table'))])]
    d = clarify.ambiguity(kg, [remote], moved, world)
    assert [o.entity for o in d.options] == REMOTES[:2]
    assert d.question().startswith("Which TV remote do you mean: Anna's bedroom tv remote, ")
    # the resolver's reading of the report is taken as it is: one candidate, no question
    assert _doubt(world, 'Someone left the TV remote on the living room table.',
                  ('living_room_tv_remote', 'placed_at_table', 'jerry_bedroom_table')) is None
    # a name in the report narrows the mention to one remote: nothing to ask
    assert _doubt(world, 'Anna put the remote down on the living room table.',
                  ('anna_bedroom_tv_remote', 'placed_at_table', 'living_room_table')) is None
    # a stated removal that holds for one candidate only
    kg = world.snapshot()
    stated = [Update.of([Fact('in_person_hand', ('anna_bedroom_tv_remote', 'anna'))], [])]
    assert clarify.ambiguity(kg, resolve(kg, 'The TV remote fell.'), stated, world) is None


def test_answers_are_read_by_place_words_and_order(tmp_path):
    world = household_world(tmp_path)
    kg = world.snapshot()
    options = _doubt(world, REPORT, ('living_room_tv_remote', 'in_person_hand', 'jerry')) \
        .to_json()['options']
    for said, meant in [("the one in Jerry's bedroom", 'jerry_bedroom_tv_remote'),
                        ('the living room one', 'living_room_tv_remote'),
                        ("Anna's", 'anna_bedroom_tv_remote'),
                        ('the one Anna has', 'anna_bedroom_tv_remote'),
                        ('the second one', 'jerry_bedroom_tv_remote'),
                        ('the last one', 'living_room_tv_remote'),
                        ('never mind', clarify.CANCEL),
                        ('neither of them', clarify.CANCEL),
                        # new reports, not answers
                        ('Anna went to the kitchen', None),
                        ('Jerry took the TV remote to the kitchen', None),
                        ('bedroom', None)]:  # two options have a bedroom: not one
        assert clarify.pick(kg, options, said) == meant, said


def test_the_question_is_asked_logged_and_answered_without_the_model(tmp_path):
    world = household_world(tmp_path)
    before = world.kg.to_json()
    with FakeOpenAI([{'content': GUESS}]) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever())
        out = updater.run(REPORT)
        calls = len(fake.requests)
        assert not out.applied and out.question.startswith('Which TV remote do you mean')
        assert world.kg.to_json() == before
        with Store(tmp_path / 'kg.db') as s:
            asked = s.history()[-1]
        assert asked.status == 'clarify' and asked.id == out.event_id
        assert asked.info['clarify']['candidates'] == REMOTES
        assert asked.info['clarify']['question'] == out.question
        assert updater.answers("the one in Jerry's bedroom")
        done = updater.answer("the one in Jerry's bedroom")
        assert len(fake.requests) == calls  # the answer needs no LLM call
    assert done.applied and HELD in world.kg and WAS not in world.kg
    with Store(tmp_path / 'kg.db') as s:
        answer = s.history()[-1]
        assert s.load_kg().to_json() == world.kg.to_json()
    assert answer.status == 'applied' and answer.info['clarifies'] == asked.id
    assert answer.info['chosen'] == 'jerry_bedroom_tv_remote'
    assert answer.update == Update.of([WAS], [HELD])
    assert updater.pending() is None  # answered: nothing open any more
    assert updater.answer("the one in Jerry's bedroom") is None


def test_an_unanswered_question_expires_as_not_applied(tmp_path):
    world = household_world(tmp_path)
    with FakeOpenAI([{'content': GUESS}]) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever(),
                            UpdateSettings(clarify_timeout=30))
        asked = updater.run(REPORT)
    assert updater.pending() is not None
    far = asked.clarify['expires'] + 1
    assert updater.expire(now=far) == [asked.event_id]
    assert updater.expire(now=far) == []  # logged once
    with Store(tmp_path / 'kg.db') as s:
        last = s.history()[-1]
    assert last.status == 'rejected' and last.info == {'clarifies': asked.event_id,
                                                       'expired': True}
    assert 'not applied' in last.errors[0]
    assert updater.pending() is None
    late = updater.answer('the second one')  # too late: told so, nothing written
    assert not late.applied and late.errors[0].startswith('There is no open question')
    assert HELD not in world.kg


def test_withdrawn_or_no_longer_fitting_answers_change_nothing(tmp_path):
    world = household_world(tmp_path)
    with FakeOpenAI([{'content': GUESS}, {'content': GUESS}]) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever())
        updater.run(REPORT)
        before = world.kg.to_json()
        out = updater.answer('never mind')
        assert not out.applied and 'withdrew' in out.errors[0]
        assert world.kg.to_json() == before and updater.pending() is None
        updater.run(REPORT)
    # meanwhile Jerry was handed the bedroom remote by someone else: the answer no longer fits
    assert world.apply(Update.of([WAS], [HELD]), source='cli').applied
    out = updater.answer("the one in Jerry's bedroom")
    assert not out.applied and 'no longer fits' in out.errors[0]
    assert updater.pending() is None


def test_none_of_them_asks_about_the_rest_of_the_report(tmp_path):
    """ "Ines walked to the station to ask for a pillow": asked which pillow, the speaker
    says none; the report without the guessed thing is asked about, yes or no."""
    world = household_world(tmp_path)
    moved = Fact('person_in_room', ('jerry', 'kitchen'))
    guess = {'facts': [*GUESS['facts'], ['person_in_room', 'jerry', 'kitchen']]}
    before = world.kg.to_json()
    with FakeOpenAI([{'content': guess}]) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever())
        asked = updater.run(LOOKED)
        assert asked.question.startswith('Which TV remote do you mean')
        calls = len(fake.requests)
        follow = updater.answer('none of them')
        assert len(fake.requests) == calls and world.kg.to_json() == before
        assert str(follow.status) == 'clarify' and not follow.applied
        assert follow.question == ('Then: Jerry is in the kitchen. Jerry is no longer in the '
                                   'living room. Is that right?')
        assert follow.asked()['options'] == [{
            'remove': [['jerry', 'person_in_room', 'living_room']],
            'add': [['jerry', 'person_in_room', 'kitchen']]}]
        done = updater.answer('yes')
    assert done.applied  # Jerry moved; no remote taken
    assert set(world.kg.facts) - set(KnowledgeGraph.from_json(before).facts) == {moved}
    assert world.support_of(moved).kind == 'confirmed'
    # named as what changed, not in a clause of purpose, the thing may have changed
    # otherwise: the reading without it is offered only with every remote as it was, said
    half = household_world(tmp_path / 'c')
    before = half.kg.to_json()
    with FakeOpenAI([{'content': guess}]) as fake:
        updater = NLUpdater(half, client(fake), FullRetriever())
        assert updater.run(REPORT).question.startswith('Which TV remote do you mean')
        calls = len(fake.requests)
        follow = updater.answer('none of them')
        assert len(fake.requests) == calls and half.kg.to_json() == before
        assert follow.question.startswith('Then: Jerry is in the kitchen. Jerry is no longer '
                                          'in the living room. '), follow.question
        assert follow.question.count(' is still ') == len(REMOTES), follow.question
        [option] = follow.asked()['options']
        still = {f for f in KnowledgeGraph.from_json(before).facts if f.args[0] in REMOTES}
        assert {Fact.from_triplet(t) for t in option['add']} == {moved} | still
        out = updater.answer('no')  # a remote did change: nothing is written
    assert not out.applied and out.question is None and updater.pending() is None
    assert half.kg.to_json() == before
    # with nothing but the guessed thing in the report, "none of them" takes it back
    other = household_world(tmp_path / 'b')
    with FakeOpenAI([{'content': GUESS}]) as fake:
        updater = NLUpdater(other, client(fake), FullRetriever())
        updater.run(REPORT)
        out = updater.answer('neither')
    assert not out.applied and 'withdrew' in out.errors[0] and updater.pending() is None


def test_no_question_when_asking_back_is_off(tmp_path):
    world = household_world(tmp_path)
    with FakeOpenAI([{'content': GUESS}]) as fake:
        out = NLUpdater(world, client(fake), FullRetriever(),
                        UpdateSettings(clarify=False)).run(REPORT)
    assert out.applied and out.question is None  # the model's guess is written


def test_cli_update_prints_the_question_and_say_answers_it(tmp_path, capsys):
    path = tmp_path / 'cli.db'
    Store.create(path, KnowledgeGraph.from_json(json.loads(STATE.read_text())),
                 domain_path=str(DOMAIN), constraints_path=str(CONSTRAINTS)).close()
    with FakeOpenAI([{'content': GUESS}]) as fake:
        common = ['--store', str(path), '--model', 'fake', '--llm', fake.base_url]
        assert main(['update', *common, '--text', REPORT]) == 1
        assert capsys.readouterr().out.startswith('Which TV remote do you mean:')
        calls = len(fake.requests)
        # "say" routes an answer to the open question without asking the model
        assert main(['say', *common, '--text', "The one in Jerry's bedroom."]) == 0
        assert len(fake.requests) == calls
    with Store(path) as s:
        assert HELD in s.load_kg() and s.history()[-1].info['clarifies']


def test_agent_update_answers_before_reading_a_new_report(tmp_path):
    world = household_world(tmp_path)
    with FakeOpenAI([{'content': GUESS}]) as fake:
        cfg = Config(domain=str(DOMAIN), constraints=str(CONSTRAINTS), store='',
                     llm_url=fake.base_url, llm_model='fake', retriever='full')
        agent = build_agent(cfg, world)
        assert agent.update(REPORT).question
        assert agent.route('the second one') == 'report'
        assert agent.update('the second one').applied
    assert HELD in world.kg


def test_a_question_names_the_thing_not_a_contraction_after_it():
    """"The key's on Ada's wrist": asked "Which key do you mean", not "Which key's"."""
    keys = [clarify.Option('key_1', 'the one that is held by Gemma', 'key 1'),
            clarify.Option('key_2', '', 'key 2')]
    for surface, noun in (("The key's", 'key'), ('his bag\u2019s', 'bag'),
                          ('the TV remote', 'TV remote'), ("'s", "'s")):
        asked = clarify.Ambiguity(surface, 'key_1', keys).question()
        assert asked == (f'Which {noun} do you mean: key 1, the one that is held by Gemma '
                         'or key 2?'), asked


def test_the_option_chosen_writes_the_change_it_showed(tmp_path):
    """Each option carries the change it would write, and that is what the answer writes:
    the model had also stated Jerry's move, which the checks dropped from the reading the
    options show ("which prep do you mean?": the prep table chosen wrote Jess moved, a
    move the read-back had denied, clinic 37); redoing the stated change wrote it back."""
    from l3mp_ros.agent.report.open_questions import OpenQuestions
    world = household_world(tmp_path)
    kg = world.snapshot()
    moved = Fact('person_in_room', ('jerry', 'jerry_bedroom'))
    assert moved not in kg and WAS in kg
    stated = Update.of([], [Fact('in_person_hand', ('living_room_tv_remote', 'jerry')), moved])
    shown = {r: Update.of([Fact('placed_at_table', (r, t))],
                          [Fact('in_person_hand', (r, 'jerry'))])
             for r, t in (('jerry_bedroom_tv_remote', 'jerry_bedroom_table'),
                          ('living_room_tv_remote', 'living_room_table'))}
    for change in shown.values():
        assert set(change.remove) <= set(kg.facts), change
    data = {'text': REPORT, 'chosen': 'living_room_tv_remote', 'stated': [stated.to_json()],
            'options': [{'entity': r, **c.to_json()} for r, c in shown.items()]}
    # the stated change redone with the bedroom remote moves Jerry too
    redone, _ = clarify.substituted(kg, [stated], 'living_room_tv_remote',
                                    'jerry_bedroom_tv_remote', world)
    assert redone is not None and moved in redone.add
    out = OpenQuestions(world, 60.0)._with_chosen(0, data, kg, 'jerry_bedroom_tv_remote',
                                                  'the first one', 'nl', 0.0)
    assert out.applied and out.update == shown['jerry_bedroom_tv_remote']
    assert HELD in world.kg and moved not in world.kg
    # an option whose change no longer fits the graph writes nothing, and says why
    again = OpenQuestions(world, 60.0)._with_chosen(0, data, world.snapshot(),
                                                    'jerry_bedroom_tv_remote', 'the first one',
                                                    'nl', 0.0)
    assert not again.applied and 'no longer fits' in again.errors[0]
