# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Where a thing is does not depend on which argument names it (holder-first predicates).

The household world, mirrored: every predicate of the rules that keep a person, the robot
or an item in one place is written with the place first (``(person_in_room ?r ?p)``, the
way a domain says ``occupied_by(place, person)``), its rules keyed on the second argument,
its facts turned round. Every derivation of where things go must give the mirrored
world the same facts turned round as the household's: the places the words settle, the
gifts, puts and takes, whom a report of going moves, where a where-question may put
someone, where the speaker is, and the question answerer's "where is" facts.
"""

from __future__ import annotations

import json
import re

import pytest
import yaml

from l3mp_ros.agent.core.destinations import (
    coming_to,
    place_predicates,
    settled_gifts,
    settled_places,
    settled_puts,
    settled_takes,
    worded_gifts,
)
from l3mp_ros.agent.core.request import Request, mentions_of
from l3mp_ros.agent.report.place_questions import place_groups, where_question
from l3mp_ros.agent.report.subjects import going, put_by
from l3mp_ros.agent.router import QuestionAnswerer
from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.model import WorldModel
from l3mp_ros.world.phrasing import Phrasing
from l3mp_ros.world.store import Store

from .agent_fixtures import CONSTRAINTS, DOMAIN, STATE, household_world

#: the rules whose predicates the mirror writes place first
MIRRORED_RULES = ('item_location', 'person_location', 'agent_location')


def _mirrored_predicates() -> set[str]:
    rules = yaml.safe_load(CONSTRAINTS.read_text())['rules']
    return {p for r in rules if r['name'] in MIRRORED_RULES for p in r['predicates']}


MIRRORED = _mirrored_predicates()


def turned(fact: Fact) -> Fact:
    """Return ``fact`` as the mirror writes it."""
    return Fact(fact.predicate, fact.args[::-1]) if fact.predicate in MIRRORED else fact


def mirror_world(tmp_path) -> WorldModel:
    """Return the household world with :data:`MIRRORED` written place first."""
    names = '|'.join(sorted(MIRRORED, key=len, reverse=True))
    text = DOMAIN.read_text()
    text = re.sub(rf'\(({names})\s+(\?\S+\s+-\s+\S+)\s+(\?\S+\s+-\s+\S+)\)', r'(\1 \3 \2)', text)
    text = re.sub(rf'\(({names})\s+([^\s()]+)\s+([^\s()]+)\)', r'(\1 \3 \2)', text)
    rules = yaml.safe_load(CONSTRAINTS.read_text())
    kept = []
    for r in rules['rules']:
        if r['name'] in MIRRORED_RULES:
            kept.append({**r, 'key': 1})
        elif not {*r.get('predicates', []), *r.get('if', []), *r.get('then', [])} & MIRRORED:
            kept.append(r)  # a rule tying a mirrored fact to another keys on one position
    rules['rules'] = kept
    state = json.loads(STATE.read_text())
    state['facts'] = [[f[2], f[1], f[0]] if len(f) == 3 and f[1] in MIRRORED else f
                      for f in state['facts']]
    (tmp_path / 'm.pddl').write_text(text)
    (tmp_path / 'm.yaml').write_text(yaml.safe_dump(rules))
    kg = KnowledgeGraph.from_json(state)
    store = Store.create(tmp_path / 'm.db', kg, domain_path=str(tmp_path / 'm.pddl'),
                         constraints_path=str(tmp_path / 'm.yaml'))
    domain, constraints = DomainSchema.load(tmp_path / 'm.pddl'), Constraints.load(
        tmp_path / 'm.yaml')
    assert constraints.check_against(domain) == []
    return WorldModel(domain, constraints, store=store)


@pytest.fixture
def worlds(tmp_path):
    (tmp_path / 'a').mkdir()
    (tmp_path / 'b').mkdir()
    return household_world(tmp_path / 'a'), mirror_world(tmp_path / 'b')


def test_the_mirror_is_the_household_turned_round(worlds):
    plain, mirror = worlds
    assert {turned(f) for f in plain.kg.facts} == set(mirror.kg.facts)
    assert Fact('person_in_room', ('kitchen', 'jerry')) in mirror.kg \
        or Fact('person_in_room', ('jerry', 'kitchen')) not in plain.kg
    c = mirror.constraints
    assert c.thing_position('person_in_room') == 1 and c.place_position('person_in_room') == 0
    assert c.located('person_in_room', 'jerry', 'kitchen') == Fact('person_in_room',
                                                                   ('kitchen', 'jerry'))
    assert c.thing_of(Fact('in_person_hand', ('anna', 'red_pen'))) == 'red_pen'
    assert MIRRORED <= c.holder_first()
    for who in ('jerry', 'red_pen', 'home_robot'):
        assert place_predicates(mirror, mirror.kg, who) == place_predicates(plain, plain.kg,
                                                                            who), who
        assert place_groups(mirror, mirror.kg, who, frozenset(MIRRORED)) == place_groups(
            plain, plain.kg, who, frozenset(MIRRORED)), who


def test_a_rule_keyed_on_the_second_argument_that_allows_none_is_no_place():
    """"a robot holds at most one item" keys a gripper predicate on the robot: a bound on
    what a holder holds, not where the robot is."""
    c = Constraints.from_dict({'rules': [
        {'name': 'one_hand', 'kind': 'functional', 'predicates': ['held_by'], 'key': 1},
        {'name': 'where', 'kind': 'functional', 'predicates': ['occupied_by'], 'key': 1,
         'exactly': True},
        {'name': 'at', 'kind': 'functional', 'predicates': ['parked_at'], 'key': 0}]})
    assert [r.name for r in c.place_rules(exactly=False)] == ['where', 'at']
    assert [r.name for r in c.place_rules()] == ['where']
    assert c.thing_position('held_by') == 0 and c.thing_position('occupied_by') == 1
    assert c.holder_first() == {'occupied_by'}


GOING = ['Jerry went to the kitchen.', 'Jerry went to the garden shed.',
         "Jerry went to Anna's room.", "Jerry went from the kitchen to Anna's room.",
         "Jerry went to Anna's room and took Anna's book to the kitchen.",
         "Jerry went to Anna's room and put Anna's book in the kitchen.",
         "Jerry's gone through to the kitchen for a bite to eat.",
         'Jerry came in from the bathroom to the kitchen.',
         'Jerry walked through the kitchen to the bathroom.',
         'Jerry came in from the bathroom.', 'Jerry went to the kitchen and then to the bathroom.',
         'Anna and Jerry went to the living room.',
         'Helen has just popped back to the laundry room.',
         "Tom's taken Anna through to the kitchen.",
         'After going to the kitchen, Jerry picked up the red pen.']


@pytest.mark.parametrize('text', GOING)
def test_reports_of_going_move_the_same_people_to_the_same_places(worlds, text):
    got = []
    for world in worlds:
        said = mentions_of(world, world.kg, text)
        went = going(world, world.kg, text, said)
        if went is None:
            got.append(None)
            continue
        movers = [went.subject, *went.others]
        settled = settled_places(world, world.kg, text, said, movers, went.places)
        moved = Update.of((), settled)
        got.append((movers, went.words, went.places, settled, went.unplaced(moved),
                    [m.candidates for m in said]))
    if got[0] is None:
        assert got[1] is None
        return
    movers, words, places, settled, unplaced, candidates = got[0]
    assert got[1] == (movers, words, places, {turned(f) for f in settled}, unplaced,
                      candidates)


HANDLING = ['Jerry handed the red pen to Anna.', 'Jerry gave the red pen back to Anna.',
            'Jerry gave Anna the red pen.', 'Jerry handed his shiny red pen to Anna.',
            "Jerry handed Jerry's phone to Anna.",
            'Anna came in, and Jerry took the red pen off the living room table and handed it '
            'to her.', 'Jerry left the red pen on the living room table.',
            'Jerry put the red pen back down on the living room table.',
            "Jerry carried the red pen through to Anna's bedroom table.",
            'Jerry put the red pen and the Hamlet book on the living room table.',
            'Jerry picked up the red pen.', 'took the red pen from the living room table.']


@pytest.mark.parametrize('text', HANDLING)
def test_gifts_puts_and_takes_place_the_same_things_turned_round(worlds, text):
    got = []
    for world in worlds:
        said = mentions_of(world, world.kg, text)
        people = Phrasing(world.domain, world.kg).proper
        got.append((settled_gifts(world, world.kg, text, said),
                    worded_gifts(world, world.kg, text, said, people),
                    settled_puts(world, world.kg, text, said),
                    settled_takes(world, world.kg, text, said, 'jerry')))
    assert tuple({turned(f) for f in facts} for facts in got[0]) == got[1]
    assert any(got[0]), text  # every sentence here places something


@pytest.mark.parametrize('said, placed', [
    ('Anna: Jerry has just come in from the kitchen.', {('jerry', 'anna_bedroom')}),
    ('Anna on the radio: Jerry and Helen came back in from the living room.',
     {('jerry', 'anna_bedroom'), ('helen', 'anna_bedroom')}),
    ('Anna: Jerry came in to the kitchen.', set())])
def test_coming_goes_to_where_the_speaker_is_whichever_argument_says_it(worlds, said, placed):
    for world in worlds:
        r = Request.start(world, said)
        r.resolve()
        g = going(world, r.kg, r.text, r.mentions)
        got = coming_to(world, r.kg, r.text, g.words, [g.subject, *g.others], g.places,
                        r.speaker) if g is not None else set()
        assert {(world.constraints.thing_of(f), world.constraints.place_of(f))
                for f in got} == placed
        assert all(f.predicate == 'person_in_room' for f in got)


def test_where_questions_offer_the_same_places(worlds):
    options = []
    for world in worlds:
        phrasing = Phrasing(world.domain, world.kg)
        q = where_question(world, world.kg, phrasing, 'jerry', 'Jerry', ('person_in_room',),
                           ['kitchen', 'bathroom', 'red_pen', 'anna'])
        options.append(q.facts)
    assert [frozenset(turned(f) for f in fs) for fs in options[0]] == options[1]
    assert len(options[0]) == 3  # as before, the kitchen, the bathroom; no pen, no person


def test_who_put_a_thing_somewhere_is_where_it_was_put(worlds):
    plain, mirror = worlds
    put = Fact('placed_at_table', ('red_pen', 'anna_bedroom_table'))
    got = []
    for world, fact in ((plain, put), (mirror, turned(put))):
        after = world.kg.copy()
        after.apply(Update.of({f for f in after.facts_of('red_pen')
                               if f.predicate in MIRRORED}, {fact}))
        got.append(put_by(world, after, [('jerry', Update.of((), {fact}))],
                          Phrasing(world.domain, world.kg).proper))
    assert got[0] is not None and got[1] is not None
    assert (got[1].actor, got[1].zone, got[1].group, got[1].put) == (
        got[0].actor, got[0].zone, got[0].group, turned(got[0].put))


@pytest.mark.parametrize('question', ['Where is Jerry?', 'Where is the red pen?',
                                      'What is on the living room table?'])
def test_where_is_answers_from_the_same_facts(worlds, question):
    answers = []
    for world in worlds:
        qa = QuestionAnswerer(None, None, schema=world.domain,
                              constraints=world.constraints)
        answers.append(qa.direct(world.kg, question))
    assert answers[0] is not None and answers[0].facts, question
    assert [turned(f) for f in answers[0].facts] == list(answers[1].facts)


def test_worked_examples_write_place_first_facts_in_the_domains_order(worlds):
    """The prompts' worked examples of the mirror are the household's turned round: each
    fact in the predicate's own order, each sentence naming the place first where the
    predicate does ("kitchen table 1 now placed at table ... "), the same things moved."""
    from l3mp_ros.agent.core.examples import goal_examples, update_examples
    plain, mirror = worlds

    def facts(rows):
        return [turned(Fact(r[0], tuple(r[1:]))) if len(r) == 3 and r[2] not in (
            'true', 'false') else Fact(r[0], tuple(r[1:])) for r in rows]
    for make, key in ((update_examples, 'facts'), (goal_examples, 'goal')):
        ours = make(plain.domain, plain.constraints)
        theirs = make(mirror.domain, mirror.constraints)
        assert len(ours) == len(theirs) >= 2
        for a, b in zip(ours, theirs, strict=True):
            assert a.entities == b.entities
            assert facts(a.facts) == [Fact(r[0], tuple(r[1:])) for r in b.facts]
            rows = [r for r in a.answer[key] if isinstance(r, list)]
            assert facts(rows) == [Fact(r[0], tuple(r[1:])) for r in b.answer[key]
                                   if isinstance(r, list)]
    moved = update_examples(mirror.domain, mirror.constraints)[0]
    (pred, place, thing), = moved.answer['facts']
    assert pred in MIRRORED
    said = moved.utterance.lower()
    assert said.index(place.replace('_', ' ')) < said.index(thing.replace('_', ' '), said.index(
        'but'))
