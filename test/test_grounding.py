# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Schemas built for a context, replies read against them, rules finishing updates."""

import json

import jsonschema
import pytest

from l3mp_ros.agent.core.examples import goal_examples, render, update_examples
from l3mp_ros.agent.report.context import UpdateGrounding
from l3mp_ros.agent.task.grounding import GoalGrounding
from l3mp_ros.world.complete import complete
from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.model import WorldModel

from .agent_fixtures import CONSTRAINTS, DOMAIN, ROOT, STATE

OFFICE = ROOT / 'test' / 'data'


@pytest.fixture(scope='module')
def household():
    return (DomainSchema.load(DOMAIN), Constraints.load(CONSTRAINTS),
            KnowledgeGraph.from_json(json.loads(STATE.read_text())))


def _context(domain, kg, kind=None, **kw):
    names = ['red_pen', 'jerry', 'anna', 'living_room_table', 'jerry_bedroom_table',
             'kitchen_light', 'living_room']
    facts = [f for f in kg.facts if set(f.args) <= set(names)]
    return (kind or UpdateGrounding).build(domain, kg, names, facts, **kw)


def _branch(schema, predicate):
    items = schema['properties']['facts']['items']['anyOf']
    return [b['prefixItems'] for b in items
            if 'prefixItems' in b and b['prefixItems'][0].get('const') == predicate]


def test_update_schema_enumerates_typed_context_entities(household):
    domain, _, kg = household
    g = _context(domain, kg)
    schema = g.update_schema()
    (hand,) = _branch(schema, 'in_person_hand')
    assert set(hand[1]['enum']) == {'red_pen'}  # the only item of the context
    assert set(hand[2]['enum']) == {'jerry', 'anna'}  # persons only, no rooms
    (light,) = _branch(schema, 'light_on')
    assert light[1]['enum'] == ['kitchen_light'] and light[2]['enum'] == ['true', 'false']
    assert _branch(schema, 'placed_at_fridge') == []  # no fridge in the context
    removable = [b for b in schema['properties']['facts']['items']['anyOf'] if 'properties' in b]
    (remove,) = removable
    assert ['placed_at_table', 'red_pen', 'living_room_table'] in remove['properties']['not'][
        'enum']
    assert all(len(f) == 3 for f in remove['properties']['not']['enum'])  # binary facts only
    ok = {'facts': [['in_person_hand', 'red_pen', 'jerry'],
                    ['light_on', 'kitchen_light', 'false']]}
    jsonschema.validate(ok, schema)
    for bad in ({'facts': [['in_person_hand', 'red_pen', 'living_room']]},  # wrong type
                {'facts': [['in_person_hand', 'red_pen', 'gerry']]},  # unknown entity
                {'facts': [['holding', 'anna', 'red_pen']]},  # unknown predicate
                {'facts': [{'not': ['placed_at_table', 'red_pen', 'jerry_bedroom_table']}]},
                {'facts': [['in_person_hand', 'red_pen', 'jerry']] * 6}):  # too many
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)


def test_schema_cap_subjects_and_exclusions(household):
    domain, _, kg = household
    capped = _context(domain, kg, per_slot=1)
    (hand,) = _branch(capped.update_schema(), 'in_person_hand')
    assert hand[2]['enum'] == ['jerry'] and any('best-matching' in n for n in capped.notes)
    about_pen = _context(domain, kg, subjects=frozenset({'red_pen'}))
    schema = about_pen.update_schema()
    assert _branch(schema, 'light_on') == [] and _branch(schema, 'person_in_room') == []
    excluded = _context(domain, kg).update_schema(
        frozenset({Fact('in_person_hand', ('red_pen', 'jerry'))}))
    assert [b[2]['enum'] for b in _branch(excluded, 'in_person_hand')] == [['anna']]


def test_changes_only_schema_cannot_restate_what_holds(household):
    domain, _, kg = household
    assert Fact('placed_at_table', ('red_pen', 'living_room_table')) in kg
    about = frozenset({'red_pen', 'jerry', 'living_room_table', 'kitchen_light'})
    g = _context(domain, kg, subjects=about, objects=about, changes_only=True)
    schema = g.update_schema()
    # where the pen is now cannot be written again; where it can go can
    assert [b[2]['enum'] for b in _branch(schema, 'placed_at_table')
            if b[1].get('const') == 'red_pen'] == []
    (hand,) = _branch(schema, 'in_person_hand')
    assert hand[1] == {'const': 'red_pen'} and hand[2]['enum'] == ['jerry']  # not anna
    # a one-argument fact only flips: the kitchen light is on, so only "false" is offered
    lit = Fact('light_on', ('kitchen_light',)) in kg
    (light,) = _branch(schema, 'light_on')
    assert light[1]['enum'] == ['kitchen_light']
    assert light[2] == {'const': 'false' if lit else 'true'}
    jsonschema.validate({'facts': [['in_person_hand', 'red_pen', 'jerry']]}, schema)
    jsonschema.validate({'facts': []}, schema)  # "nothing changed" stays possible
    only_hands = _context(domain, kg, subjects=about, objects=about, changes_only=True,
                          changing=frozenset({'in_person_hand'})).update_schema()
    assert _branch(only_hands, 'light_on') == [] and _branch(only_hands, 'in_person_hand')
    for bad in ({'facts': [['placed_at_table', 'red_pen', 'living_room_table']]},
                {'facts': [['in_person_hand', 'red_pen', 'anna']]},  # not a referent
                {'facts': [['light_on', 'kitchen_light', 'true' if lit else 'false']]}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)


def test_read_update_rejects_out_of_context_items(household):
    domain, _, kg = household
    g = _context(domain, kg)
    update, errors = g.read_update({'facts': [['in_person_hand', 'red_pen', 'helen']]})
    assert errors == ['(red_pen, in_person_hand, helen): helen is not among the entities '
                      'given for this request']
    _, errors = g.read_update({'facts': [['in_person_hand', 'red_pen', 'gerry']]})
    assert 'no such entity' in errors[0]
    _, errors = g.read_update({'facts': [{'not': ['placed_at_table', 'red_pen',
                                                  'jerry_bedroom_table']}]})
    assert errors[0].startswith('cannot remove (red_pen, placed_at_table, jerry_bedroom_table)')
    update, errors = g.read_update({'facts': [['light_on', 'kitchen_light', 'false'],
                                              ['in_person_hand', 'red_pen', 'anna']]})
    assert not errors
    assert update == Update.of([Fact('light_on', ('kitchen_light',))],
                               [Fact('in_person_hand', ('red_pen', 'anna'))])
    paper, errors = g.read_update({'remove': [['red_pen', 'placed_at_table',
                                               'living_room_table']],
                                   'add': [['red_pen', 'in_person_hand', 'jerry']]})
    assert not errors and Fact('in_person_hand', ('red_pen', 'jerry')) in paper.add
    _, errors = UpdateGrounding.build(domain, kg, ['red_pen', 'jerry', 'anna'], [],
                                      max_changes=1).read_update(
        {'facts': [['in_person_hand', 'red_pen', 'jerry'],
                   ['in_person_hand', 'red_pen', 'anna']]})
    assert any('at most 1' in e for e in errors)


def test_the_change_limit_holds_for_the_text_form_too(household):
    """``max_report_facts`` bounds the paper's ``REMOVE: ... ADD: ...`` text form as well."""
    domain, _, kg = household
    g = UpdateGrounding.build(domain, kg, ['red_pen', 'jerry', 'anna'], [], max_changes=1)
    update, errors = g.read_update('REMOVE: ADD: (a,p,b),(c,p,d),(e,p,f)')
    assert len(update.add) == 3
    assert errors == ['the update changes 3 facts; one report may change at most 1']
    _, errors = g.read_update('REMOVE: ADD: (a,p,b)')
    assert errors == []


def test_complete_adds_only_rule_forced_removals(household):
    domain, constraints, kg = household
    stated = Update.of([], [Fact('in_person_hand', ('red_pen', 'jerry')),
                            Fact('light_on', ('kitchen_light',))])
    done = complete(kg, stated, constraints, domain)
    old = Fact('placed_at_table', ('red_pen', 'living_room_table'))
    assert done.implied == [(old, 'item_location')]
    assert done.update.remove == {old}
    assert done.update.add == {Fact('in_person_hand', ('red_pen', 'jerry'))}  # light: no-op
    assert done.notes == ['(kitchen_light, light_on, true) already holds: nothing to add']
    off = complete(kg, Update.of([Fact('light_on', ('jerry_bedroom_light',))], []), constraints,
                   domain)  # switched off what was off: a note, not a verifier error
    assert off.update.is_empty() and off.notes == [
        '(jerry_bedroom_light, light_on, true) does not hold already: nothing to remove']
    binary = Fact('placed_at_table', ('red_pen', 'kitchen'))  # binary: the verifier's to judge
    assert complete(kg, Update.of([binary], []), constraints, domain).update.remove == {binary}
    restated = complete(kg, Update.of([], [Fact('in_person_hand', ('red_pen', 'jerry')), old]),
                        constraints, domain)
    # the old place copied beside the new one: the new one replaces it, with a note
    assert restated.update == Update.of([old], [Fact('in_person_hand', ('red_pen', 'jerry'))])
    assert '(red_pen, placed_at_table, living_room_table) was restated beside (red_pen, ' \
        'in_person_hand, jerry), which replaces it (rule item_location)' in restated.notes
    elsewhere = Fact('placed_at_table', ('red_pen', 'jerry_bedroom_table'))
    two = complete(kg, Update.of([], [Fact('in_person_hand', ('red_pen', 'jerry')), elsewhere]),
                   constraints, domain)
    assert two.update.remove == {old}  # nothing guessed beyond what a rule forces ...
    world = WorldModel(domain, constraints, kg=kg.copy())
    assert any('item_location' in e for e in world.verifier.check(kg, two.update))  # ... and
    # the verifier still rejects two new places at once


def test_goal_schema_and_reading(household):
    domain, _, kg = household
    g = _context(domain, kg, GoalGrounding)
    schema = g.goal_schema()
    goal = {'goal': [['in_person_hand', 'red_pen', 'anna'],
                     {'not': ['light_on', 'kitchen_light']},
                     {'forall': 'light', 'if': [], 'then': [['light_on', '?x']],
                      'negate': True}]}
    jsonschema.validate(goal, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({'goal': [['in_person_hand', 'red_pen', 'kitchen']]}, schema)
    pddl, errors = g.read_goal(goal)
    assert not errors
    assert pddl == ('(and (in_person_hand red_pen anna) (not (light_on kitchen_light)) '
                    '(forall (?x - light) (not (light_on ?x))))')
    pddl, errors = g.read_goal({'goal': [{'exists': 'person', 'where': [
        ['in_person_hand', 'red_pen', '?x']]}]})
    assert pddl == '(and (exists (?x - person) (in_person_hand red_pen ?x)))'
    _, errors = g.read_goal({'goal': [{'forall': 'room', 'if': [], 'then': [
        ['light_on', '?x']], 'negate': False}]})
    assert 'does not take' in errors[0]
    # static facts (no action changes them) cannot be asked for, only used as conditions
    static = ['person_in_room', 'anna', 'living_room']
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({'goal': [static]}, schema)
    _, errors = g.read_goal({'goal': [static, ['in_person_hand', 'red_pen', 'anna']]})
    assert errors == ['(anna, person_in_room, living_room): no action changes person_in_room, '
                      'so a goal cannot ask for it']
    cond = {'goal': [{'forall': 'person', 'if': [['person_in_room', '?x', 'living_room']],
                      'then': [['in_person_hand', 'red_pen', '?x']], 'negate': False}]}
    jsonschema.validate(cond, schema)
    assert not g.read_goal(cond)[1]


def test_goal_schema_names_only_what_the_task_refers_to(household):
    domain, _, kg = household
    g = _context(domain, kg, GoalGrounding, constants=frozenset({'red_pen', 'anna'}),
                 quantified=frozenset({'light'}))
    schema = g.goal_schema()
    jsonschema.validate({'goal': [['in_person_hand', 'red_pen', 'anna']]}, schema)
    for wrong in (['in_person_hand', 'red_pen', 'jerry'],  # in the context, not named
                  ['placed_at_table', 'red_pen', 'living_room_table']):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({'goal': [wrong]}, schema)
        _, errors = g.read_goal({'goal': [wrong]})
        assert errors and 'the task does not mention' in errors[0], errors
    anything = {'forall': 'person', 'if': [], 'then': [['in_person_hand', 'red_pen', '?x']],
                'negate': False}
    with pytest.raises(jsonschema.ValidationError):  # the task names no person as a type
        jsonschema.validate({'goal': [anything]}, schema)
    assert 'the task names no person' in g.read_goal({'goal': [anything]})[1][0]
    lights = {'forall': 'light', 'if': [], 'then': [['light_on', '?x']], 'negate': True}
    jsonschema.validate({'goal': [lights]}, schema)
    assert g.read_goal({'goal': [lights]}) == (
        '(and (forall (?x - light) (not (light_on ?x))))', [])


@pytest.mark.parametrize('stem', ['household', 'office'])
def test_examples_come_from_the_loaded_domain(stem):
    base = (ROOT / 'pddl' if stem == 'household' else OFFICE) / stem
    domain = DomainSchema.load(base.with_suffix('.pddl'))
    constraints = Constraints.load(base.with_suffix('.constraints.yaml'))
    text = render(update_examples(domain, constraints)) + render(
        goal_examples(domain, constraints))
    words = {w.strip('[],"{}:') for w in text.split()}
    used = {w for w in words if w in domain.predicates}
    assert len(used) >= 3
    other = 'office' if stem == 'household' else 'household'
    foreign = DomainSchema.load((OFFICE if other == 'office' else ROOT / 'pddl')
                                / f'{other}.pddl')
    assert not (words & (set(foreign.predicates) - set(domain.predicates)))
    for ex in update_examples(domain, constraints):  # each answer fits its own context
        g = UpdateGrounding.build(domain, _example_kg(domain, ex), list(ex.entities),
                                  [Fact(f[0], tuple(f[1:])) for f in ex.facts])
        jsonschema.validate(ex.answer, g.update_schema())
        assert not g.read_update(ex.answer)[1]


def _example_kg(domain, ex):
    kg = KnowledgeGraph()
    for name, type_ in ex.entities.items():
        kg.add_entity(name, type_)
    for f in ex.facts:
        kg.add_fact(Fact(f[0], tuple(f[1:])))
    return kg


def test_a_removal_takes_what_a_requires_rule_needed_it_for(household):
    domain, constraints, kg = household
    level = next(f for f in sorted(kg.facts_with('on_shelf_level')))
    book = level.args[0]
    shelf = next(f for f in kg.facts_of(book) if f.predicate == 'placed_at_shelf')
    held = Fact('in_person_hand', (book, 'jerry'))
    done = complete(kg, Update.of([], [held]), constraints, domain)
    # in a hand: off the shelf (a functional rule), so off its level (requires)
    assert done.implied == [(shelf, 'item_location'), (level, 'shelf_level_needs_shelf')]
    assert done.update == Update.of([shelf, level], [held])
    world = WorldModel(domain, constraints, kg=kg.copy())
    assert not world.verifier.check(kg, done.update)
    # the shelf removed by name: the same
    assert complete(kg, Update.of([shelf], [held]), constraints, domain).update == \
        done.update
    # another shelf place added beside the removal: the support stays, nothing else goes
    other = next(s for s in sorted(kg.facts_with('placed_at_shelf')) if s.args[1] !=
                 shelf.args[1]).args[1]
    moved = complete(kg, Update.of([shelf], [Fact('placed_at_shelf', (book, other))]),
                     constraints, domain)
    assert level not in moved.update.remove and moved.implied == []
    # a removal no rule needs takes nothing with it
    light = next(iter(sorted(kg.facts_with('light_on'))))
    assert complete(kg, Update.of([light], []), constraints, domain).implied == []


@pytest.mark.parametrize('text,offered', [
    ("Jerry took Anna's phone to the kitchen.", False),   # whose phone: a description
    ('Jerry put his phone on the living room table.', False),
    ("Anna's phone belongs to Jerry now.", True),         # words of owning
    ('Jerry bought the phone Anna used.', True),          # changing hands for good
    ('Anna lent Jerry her phone.', True),
])
def test_who_owns_what_is_offered_only_when_the_report_says_so(household, text, offered):
    from l3mp_ros.agent.report.context import changing, owning
    domain, constraints, kg = household
    world = WorldModel(domain, constraints, kg=kg)
    assert owning('phone_owned_by') and owning('belongs_to') and owning('property_of')
    assert not owning('in_person_hand') and not owning('placed_at_table')
    assert 'phone_owned_by' in changing(world)  # a rule keeps it single: a report's, unread
    got = changing(world, text)
    assert ('phone_owned_by' in got) == offered
    assert got | {'phone_owned_by'} == changing(world) | {'phone_owned_by'}  # nothing else
    about = ['jerry', 'anna', 'anna_phone', 'kitchen']
    facts = [f for f in kg.facts if set(f.args) <= set(about)]
    g = UpdateGrounding.build(domain, kg, about, facts, subjects=frozenset(about),
                              objects=frozenset(about), changes_only=True, changing=got)
    schema = g.update_schema()
    assert bool(_branch(schema, 'phone_owned_by')) == offered
    assert _branch(schema, 'in_person_hand') and _branch(schema, 'person_in_room')


OFFICE_PDDL = """(define (domain papers)
  (:requirements :strips :typing :negative-preconditions)
  (:types person room doc - object)
  (:predicates (at ?p - person ?r - room) (joins ?a - room ?b - room)
               (doc_in ?d - doc ?r - room) (signed ?d - doc) (filed ?d - doc)
               (hasShredder ?r - room))
  (:action carry :parameters (?d - doc ?a - room ?b - room)
    :precondition (and (doc_in ?d ?a) (joins ?a ?b) (not (filed ?d))
                       (not (hasShredder ?b)))
    :effect (and (doc_in ?d ?b) (not (doc_in ?d ?a)))))
"""


def test_a_state_no_action_changes_is_offered_a_relation_no_action_changes_is_not():
    """Only reports sign or file a form: the robot's one action carries papers. A one-place
    state no action changes is offered (and only flips), one the action reads too (a filed
    paper is not carried: ferry port's ``checked_in`` before boarding); what a room has (a
    shredder, camel case as written) is a fixed feature, not offered; nor is which room
    joins which."""
    from l3mp_ros.agent.report.context import changing, states, subject_predicates
    domain = DomainSchema.from_text(OFFICE_PDDL)
    kg = KnowledgeGraph()
    for name, kind in (('ann', 'person'), ('hall', 'room'), ('office', 'room'),
                       ('form', 'doc')):
        kg.add_entity(name, kind)
    kg.add_fact(Fact('signed', ('form',)))
    kg.add_fact(Fact('doc_in', ('form', 'hall')))
    world = WorldModel(domain, Constraints.empty(), kg=kg)
    assert states(world) == {'signed', 'filed'}
    assert changing(world) == {'doc_in', 'signed', 'filed'}  # not hasshredder, joins, nor at
    assert {'signed', 'filed'} <= subject_predicates(world)
    assert 'hasshredder' not in subject_predicates(world)
    about = ['ann', 'hall', 'office', 'form']
    g = UpdateGrounding.build(domain, kg, about, list(kg.facts), subjects=frozenset(about),
                              objects=frozenset(about), changes_only=True,
                              changing=changing(world))
    schema = g.update_schema()
    jsonschema.validate({'facts': [['signed', 'form', 'false']]}, schema)  # it holds: ends
    jsonschema.validate({'facts': [['filed', 'form', 'true']]}, schema)
    for bad in (['signed', 'form', 'true'], ['hasshredder', 'hall', 'true'],
                ['joins', 'hall', 'office']):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({'facts': [bad]}, schema)


# a domain written in camel case, as a person would write it (the reader lower-cases it)
CAMEL = """(define (domain camelPool)
  (:requirements :strips :typing :negative-preconditions)
  (:types area person item chargingDock hook door - object)
  (:predicates (personAt ?p - person ?a - area) (onSurface ?x - item ?s - chargingDock)
               (hungOn ?x - item ?h - hook) (heldBy ?x - item ?p - person)
               (doorOpen ?d - door) (signedIn ?p - person))
  (:action hangUp :parameters (?x - item ?h - hook ?s - chargingDock)
   :precondition (onSurface ?x ?s) :effect (and (hungOn ?x ?h) (not (onSurface ?x ?s)))))"""
CAMEL_RULES = {'domain': 'camelpool', 'rules': [
    {'name': 'one_place', 'kind': 'functional', 'predicates': ['onSurface', 'hungOn', 'heldBy'],
     'key': 0, 'types': ['item'], 'exactly': True},
    {'name': 'one_area', 'kind': 'functional', 'predicates': ['personAt'], 'key': 0}]}


def test_examples_of_a_camel_case_domain_say_its_names_as_words():
    domain = DomainSchema.from_text(CAMEL)
    examples = update_examples(domain, Constraints.from_dict(CAMEL_RULES))
    said = ' '.join(ex.utterance for ex in examples)
    assert 'hung on hook 1' in said and 'charging dock 1' in said, said
    # no glued name in what the examples say (the answers keep the domain's names)
    assert not {'hungon', 'onsurface', 'chargingdock', 'personat', 'heldby'} & set(
        said.lower().replace('.', ' ').replace(',', ' ').split()), said
    assert any(f[0] == 'hungon' for ex in examples for f in ex.answer['facts']
               if isinstance(f, list))


HYPHEN = CAMEL.replace('camelPool', 'hyphen-pool').replace('personAt', 'person-at').replace(
    'onSurface', 'on-surface').replace('hungOn', 'hung-on').replace('heldBy', 'held-by').replace(
    'doorOpen', 'door-open').replace('signedIn', 'signed-in').replace('hangUp', 'hang-up')
HYPHEN_RULES = {'domain': 'hyphen-pool', 'rules': [
    {'name': 'one_place', 'kind': 'functional',
     'predicates': ['on-surface', 'hung-on', 'held-by'], 'key': 0, 'types': ['item'],
     'exactly': True},
    {'name': 'one_area', 'kind': 'functional', 'predicates': ['person-at'], 'key': 0}]}


def test_examples_of_a_hyphenated_domain_say_its_names_as_words():
    from l3mp_ros.agent.core.wording import split_name
    assert split_name('hung-on') == ['hung', 'on'] and split_name('at_robby') == ['at', 'robby']
    domain = DomainSchema.from_text(HYPHEN)
    said = ' '.join(ex.utterance for ex in update_examples(
        domain, Constraints.from_dict(HYPHEN_RULES)))
    assert 'hung on hook 1' in said and 'hung-on' not in said, said


@pytest.mark.parametrize(('text', 'about'), [
    ('Kofi locked the office up.', ['door_office']),       # a room is not locked: its door
    ("The office's been locked.", ['door_office']),        # the state after the thing
    ('Kofi locked his bike in the yard.', []),              # a bike takes no lock: no door tied
    ('Kofi is in the office.', []),                          # no state said at the office
    ('Kofi came out of the office and locked the door.', []),  # said at the door itself
])
def test_a_state_said_of_a_thing_that_cannot_take_it_is_about_what_is_tied_to_it(
        tmp_path, text, about):
    """"Kofi locked the office up" (workshop 28): ``door_locked`` takes a door, so the
    answer may state it of the one door joining the office (not of what lies in it)."""
    from l3mp_ros.agent.core.request import Request
    from l3mp_ros.agent.report.context import stated_through

    from .agent_fixtures import dev_world
    world = dev_world(tmp_path, 'workshop', before=28)
    req = Request.start(world, text)
    assert stated_through(world, req.kg, text, req.resolve()) == about


def test_the_answer_may_lock_the_door_of_the_office_it_was_told_was_locked(tmp_path):
    from l3mp_ros.agent.core.request import Request
    from l3mp_ros.agent.report.context import report_context
    from l3mp_ros.agent.report.settings import UpdateSettings
    from l3mp_ros.retrieval.base import Retrieval

    from .agent_fixtures import dev_world
    world = dev_world(tmp_path, 'workshop', before=28)
    text = 'Kofi locked the office up.'
    req = Request.start(world, text)
    req.retrieval = Retrieval(facts=set(req.kg.facts))
    ctx = report_context(world, UpdateSettings(), req.kg, req.retrieval, req.resolve(),
                         text=text)
    jsonschema.validate({'facts': [['door_locked', 'door_office', 'true']]},
                        ctx.grounding.update_schema())
