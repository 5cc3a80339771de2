# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A plan's steps said as sentences (issue 69, Deliver 2): rules, the doer, overrides."""

import json
import re
from pathlib import Path

import pytest

from l3mp_ros.cli import main
from l3mp_ros.world.action_reading import action_rules
from l3mp_ros.world.action_templates import (
    check_action,
    doer_types,
    load_action_overrides,
    parse_action,
)
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import KnowledgeGraph
from l3mp_ros.world.phrasebook import Phrasebook, phrasebook_for
from l3mp_ros.world.phrasing import Phrasing
from l3mp_ros.world.templates import Source, TemplateError

REPO = Path(__file__).resolve().parents[1]
HOUSEHOLD = REPO / 'pddl' / 'household.pddl'
EVAL = Path('/work/shared/eval')  # the evaluation sets, where this machine has them


def _domains() -> list[Path]:
    """Return every PDDL domain file in the repository (and the evaluation sets')."""
    files = [*REPO.glob('pddl/*.pddl'), *REPO.glob('test/data/*.pddl'),
             *REPO.glob('benchmarks/data/**/*.pddl'), *EVAL.glob('*/domain.pddl')]
    return sorted(f for f in files if re.search(r'\(\s*domain\s', f.read_text(), re.I)
                  and not re.search(r'\(\s*define\s*\(\s*problem', f.read_text(), re.I))


def _name(kind: str, k: int) -> str:
    """Return an entity name written the PDDL way: underscores, hyphens, numbers."""
    return (f'{kind}_{k}', f'{kind}-{k}', f'north_{kind}_{k}')[k % 3]


def _world(domain: DomainSchema) -> tuple[KnowledgeGraph, dict[str, list[str]]]:
    """Return a KG with three entities of every type (one of the doer's), by type."""
    kg, by_type = KnowledgeGraph(domain.name), {}
    doers = doer_types(domain)
    for t in sorted(domain.types):
        if t == 'object':
            continue
        n = 1 if t in doers else 3
        by_type[t] = [_name(t, k) for k in range(n)]
        for e in by_type[t]:
            kg.add_entity(e, t)
    return kg, by_type


CASES = [(f, a) for f in _domains() for a in sorted(DomainSchema.load(f).actions)]


def test_the_domains_are_found():
    names = {f.relative_to(REPO).as_posix() if f.is_relative_to(REPO) else str(f)
             for f, _ in CASES}
    assert {'pddl/household.pddl', 'pddl/ai2thor.pddl', 'test/data/office.pddl',
            'benchmarks/data/ward.pddl', 'benchmarks/data/blind/library/domain.pddl'} <= names
    assert len(CASES) > 150


@pytest.mark.parametrize('path, action', CASES,
                         ids=[f'{f.parent.name}/{f.stem}:{a}' for f, a in CASES])
def test_every_action_of_every_domain_is_said_in_a_sentence(path, action):
    domain = DomainSchema.load(path)
    kg, by_type = _world(domain)
    decl = domain.actions[action]
    template = action_rules(domain)[action]
    assert check_action(template) == [], template
    args, used = [], set()
    for _, types in decl.params:  # an entity of the parameter's type, a new one each time
        pool = [e for t in types for s in sorted(domain.subtypes(t)) for e in by_type.get(s, [])]
        got = next((e for e in pool if e not in used), pool[0])
        used.add(got)
        args.append(got)
    step = f'({action} {" ".join(args)})'
    said = Phrasing(domain, kg).step(step)
    assert said != step and said[0].isupper() and said.endswith('.'), said
    assert '_' not in said and '{' not in said and '?' not in said, said
    for i, arg in enumerate(args):
        spoken = Phrasing(domain, kg).entity(arg)
        if i == template.doer:  # the only one of its type: not said
            assert spoken.lower() not in said.lower(), said
            continue
        assert spoken.lower().removeprefix('the ') in said.lower(), (arg, said)
    # no PDDL left: a name of one word ("charge") may be the sentence's verb, or a part
    # of a thing's ("Charge device 0 with charger 0")
    assert (action.isalpha() or action not in said) and '(' not in said, said


STEPS = [
    ('(move_to_room the_robot kitchen living_room)',
     'Move from the kitchen to the living room.'),
    ('(remove_from_table the_robot red_pen living_room_table living_room)',
     'Remove the red pen from the living room table in the living room.'),
    ('(hand_to_person the_robot red_pen anna anna_bedroom)',
     "Hand the red pen to Anna in Anna's bedroom."),
    ('(turn_on_faucet the_robot kitchen_sink kitchen)',
     "Turn on the kitchen sink's faucet in the kitchen."),
    ('(place_at_shelf the_robot book_dune living_room_shelf living_room_shelf_level_2 '
     'living_room)',
     'Place the dune book at the living room shelf on living room shelf level 2 in the '
     'living room.'),
    ('(wash_dish the_robot dinner_plate kitchen_sink kitchen)',
     'Wash the dinner plate at the kitchen sink in the kitchen.'),
    ('(answer_phone the_robot jerry_phone)', "Answer Jerry's phone."),
    ('(fill_glass the_robot drinking_glass water kitchen_fridge kitchen)',
     'Fill the drinking glass with the water at the kitchen fridge in the kitchen.'),
    ('(run_washer_cycle the_robot laundry_room_washer laundry_room)',
     "Run the laundry room washer's cycle in the laundry room."),
]


@pytest.fixture(scope='module')
def house():
    domain = DomainSchema.load(HOUSEHOLD)
    kg = KnowledgeGraph.loads((REPO / 'config' / 'household_state.json').read_text())
    return domain, kg


@pytest.mark.parametrize('step, said', STEPS)
def test_household_steps_are_said_as_a_person_would(house, step, said):
    assert Phrasing(*house).step(step) == said


def test_a_step_the_domain_does_not_know_is_said_as_planned(house):
    say = Phrasing(*house)
    assert say.step('(fly the_robot kitchen)') == '(fly the_robot kitchen)'
    assert say.step('(move_to_room the_robot kitchen)') == '(move_to_room the_robot kitchen)'
    assert say.steps(['move_to_room(the_robot, kitchen, bathroom)']) == [
        'Move from the kitchen to the bathroom.']


FLEET = """(define (domain fleet)
  (:requirements :strips :typing)
  (:types robot waypoint crate)
  (:predicates (robot_at ?r - robot ?w - waypoint) (crate_at ?c - crate ?w - waypoint)
               (holding ?r - robot ?c - crate))
  (:action move :parameters (?r - robot ?a ?b - waypoint)
   :precondition (robot_at ?r ?a) :effect (and (not (robot_at ?r ?a)) (robot_at ?r ?b)))
  (:action pick :parameters (?r - robot ?c - crate ?w - waypoint)
   :precondition (and (robot_at ?r ?w) (crate_at ?c ?w))
   :effect (and (not (crate_at ?c ?w)) (holding ?r ?c))))"""


def test_the_doer_is_said_only_when_there_are_several(tmp_path):
    domain = DomainSchema.from_text(FLEET)
    assert doer_types(domain) == {'robot'}
    kg = KnowledgeGraph('fleet')
    for name, t in (('robot_1', 'robot'), ('dock_a', 'waypoint'), ('bay_7', 'waypoint'),
                    ('crate_3', 'crate')):
        kg.add_entity(name, t)
    said = Phrasing(domain, kg)
    assert said.step('(move robot_1 dock_a bay_7)') == 'Move from dock A to bay 7.'
    assert said.step('(pick robot_1 crate_3 bay_7)') == 'Pick up crate 3 at bay 7.'
    kg.add_entity('robot_2', 'robot')
    assert Phrasing(domain, kg).step('(move robot_2 dock_a bay_7)') == \
        'Robot 2 moves from dock A to bay 7.'
    # a domain whose actions begin with different types has no doer: the truck is said
    depot = DomainSchema.load(REPO / 'test' / 'data' / 'depot_costs.pddl')
    assert doer_types(depot) == frozenset()
    assert action_rules(depot)['drive'].text == 'drive {0} from {1} to {2}'


def test_a_user_sentence_overrides_the_rules(tmp_path, house):
    dom = tmp_path / 'household.pddl'
    dom.write_text(HOUSEHOLD.read_text())
    (tmp_path / 'household.phrases.yaml').write_text(
        'domain: household\n'
        'templates:\n  light_on: "{0} is lit"\n'
        'actions:\n'
        '  move_to_room: "go from {from} to {to}"\n'
        '  remove_from_table: "pick up {i} from {t} ({r})"\n'
        '  answer_phone: "use {a} to answer {ph}"\n')  # the doer may be said
    domain = DomainSchema.load(dom)
    over = load_action_overrides(tmp_path / 'household.phrases.yaml', domain)
    assert over['move_to_room'].source is Source.USER and over['move_to_room'].doer == 0
    assert over['answer_phone'].doer is None
    book = phrasebook_for(domain)
    assert book.action('move_to_room').text == 'go from {1} to {2}'
    assert book.counts(of_actions=True) == {'rule': len(domain.actions) - 3, 'user': 3,
                                            'unsettled': 5}
    kg = house[1]
    say = Phrasing(domain, kg, book)
    assert say.step('(move_to_room the_robot kitchen bathroom)') == \
        'Go from the kitchen to the bathroom.'
    assert say.step('(remove_from_table the_robot red_pen living_room_table living_room)') \
        == 'Pick up the red pen from the living room table (the living room).'
    assert say.step('(answer_phone the_robot anna_phone)') == \
        "Use the robot to answer Anna's phone."
    back = Phrasebook.from_json(json.loads(json.dumps(book.to_json())))
    assert back.actions == book.actions and back.fits(domain, book.domain_key)


@pytest.mark.parametrize('body, why', [
    ('actions:\n  fly_to_moon: "fly to {0}"\n', "unknown action 'fly_to_moon'"),
    ('actions:\n  move_to_room: "go to {to}"\n', 'not said: ?from'),
    ('actions:\n  move_to_room: "go from {from} to {to} and {to}"\n', 'slot(s) [2] wrong'),
    ('actions:\n  move_to_room: "go from {start} to {to}"\n', 'unknown slot {start}'),
    ('actions:\n  move_to_room: "{from} then {to}"\n', 'must start with its verb'),
    ('actions:\n  move_to_room: [go, from]\n', 'give one sentence'),
    ('actions: [move_to_room]\n', 'expected a mapping'),
])
def test_a_bad_action_sentence_is_refused_with_its_reason(tmp_path, house, body, why):
    f = tmp_path / 'household.phrases.yaml'
    f.write_text(body)
    with pytest.raises(TemplateError, match=re.escape(why)):
        load_action_overrides(f, house[0])


def test_parse_action_reads_slots_by_number_name_or_type():
    params = (('a', ('agent',)), ('i', ('item',)), ('t', ('table',)))
    got = parse_action('put', 'Put {item} on {2}.', params, doer=0)
    assert (got.verb, got.rest, got.doer) == ('put', '{1} on {2}', 0)
    assert got.render(['the robot', 'the pen', 'the desk']) == 'Put the pen on the desk.'


def test_kg_init_refuses_a_bad_action_sentence_and_creates_nothing(tmp_path, capsys):
    dom = tmp_path / 'household.pddl'
    dom.write_text(HOUSEHOLD.read_text())
    state = REPO / 'config' / 'household_state.json'
    cmd = ['kg', 'init', '--domain', str(dom), '--from', str(state), '--phrases', 'rules']
    assert main([*cmd, '--store', str(tmp_path / 'k.db')]) == 0
    out = capsys.readouterr().out
    assert f'plan steps: {len(DomainSchema.load(dom).actions)} action templates' in out
    (tmp_path / 'household.phrases.yaml').write_text(
        'actions:\n  hand_to_person: "hand {i} over"\n')
    assert main([*cmd, '--store', str(tmp_path / 'k2.db')]) == 2
    err = capsys.readouterr().err
    assert 'hand_to_person' in err and 'not said: ?p, ?r' in err
    assert not (tmp_path / 'k2.db').exists()


def test_l3mp_task_prints_the_plan_in_sentences_and_its_json_keeps_pddl(tmp_path, capsys):
    from l3mp_ros.testing import FakeOpenAI

    store = tmp_path / 'kg.db'
    assert main(['kg', 'init', '--domain', str(HOUSEHOLD), '--from',
                 str(REPO / 'config' / 'household_state.json'), '--store', str(store),
                 '--phrases', 'rules']) == 0
    goal = {'goal': '(and (in_person_hand red_pen anna))'}
    with FakeOpenAI([{'content': goal}] * 2) as fake:
        common = ['task', '--store', str(store), '--llm', fake.base_url, '--model', 'fake',
                  '--retriever', 'full', '--engine', 'fast-downward',
                  '--text', 'Give the red pen to Anna.']
        capsys.readouterr()
        assert main(common) == 0
        out = capsys.readouterr().out.splitlines()
        assert main([*common, '--json']) == 0
        body = json.loads(capsys.readouterr().out)
    steps = [ln for ln in out if re.match(r'\d+\. ', ln)]
    assert out[:2] == ['goal: (and (in_person_hand red_pen anna))', 'status: solved'], out
    assert steps[0] == '1. Remove the red pen from the living room table in the living room.'
    assert steps[-1] == f"{len(steps)}. Hand the red pen to Anna in Anna's bedroom.", steps
    assert all('_' not in s and '(' not in s for s in steps), steps
    assert body['steps'][0] == '(remove_from_table the_robot red_pen living_room_table ' \
        'living_room)' and len(body['steps']) == len(steps)


def test_a_phrasebook_kept_before_actions_keeps_its_templates_and_gets_actions(tmp_path):
    from l3mp_ros.world.kg import Fact
    from l3mp_ros.world.phrasebook import domain_key, upgrade
    from l3mp_ros.world.phrasing import adopt
    from l3mp_ros.world.templates import parse

    domain = DomainSchema.from_text(FLEET)
    waits = parse('robot_at', '{0} waits at {1}', domain.predicates['robot_at'].params,
                  source=Source.MODEL)  # a model's work, kept by a store or the cache
    older = Phrasebook(domain_key(domain, actions=False),
                       {**Phrasebook.by_rules(domain).templates, 'robot_at': waits})
    kept = {k: v for k, v in older.to_json().items() if k != 'actions'}
    kg = KnowledgeGraph('fleet')
    for name, t in (('robot_1', 'robot'), ('dock_a', 'waypoint'), ('bay_7', 'waypoint')):
        kg.add_entity(name, t)
    assert adopt(domain, json.dumps(kept))  # a store's meta from before
    say = Phrasing(domain, kg)
    assert say.say(Fact('robot_at', ('robot_1', 'bay_7'))) == 'Robot 1 waits at bay 7.'
    assert say.step('(move robot_1 dock_a bay_7)') == 'Move from dock A to bay 7.'
    (tmp_path / f'{older.domain_key}.json').write_text(json.dumps(kept))  # the cache's
    book = phrasebook_for(domain, tmp_path)
    assert book.get('robot_at') == waits and set(book.actions) == {'move', 'pick'}
    assert (tmp_path / f'{book.domain_key}.json').exists()  # saved under the new key
    assert upgrade(Phrasebook('another-domain', older.templates), domain) is None
