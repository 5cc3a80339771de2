# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Facts said as sentences from predicate and type names, on two unrelated domains."""

import pytest

from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.phrasing import Phrasing, written_names

from .agent_fixtures import household_world

F = Fact.parse_pddl

# a domain of its own (not shipped): the rules must come from the names, not a list
GARAGE = """(define (domain garage)
  (:requirements :strips :typing)
  (:types mechanic car part bay - object)
  (:predicates (mechanic_at_bay ?m - mechanic ?b - bay) (car_in_bay ?c - car ?b - bay)
               (part_fitted_to ?p - part ?c - car) (engine_running ?c - car)
               (car_is_washed ?c - car) (bay_holds ?b - bay ?p - part)
               (in_mechanic_toolbox ?p - part ?m - mechanic))
  (:action noop :parameters (?c - car) :precondition (engine_running ?c)
   :effect (engine_running ?c)))"""


@pytest.fixture(scope='module')
def garage():
    domain = DomainSchema.from_text(GARAGE)
    kg = KnowledgeGraph('garage')
    for name, t in (('maria', 'mechanic'), ('tom', 'mechanic'), ('red_van', 'car'),
                    ('blue_car', 'car'), ('spark_plug', 'part'), ('bay_2', 'bay'),
                    ('maria_bay', 'bay')):
        kg.add_entity(name, t)
    return Phrasing(domain, kg)


@pytest.mark.parametrize('fact, said', [
    ('(mechanic_at_bay maria bay_2)', 'Maria is at bay 2.'),  # a numbered name: no article
    ('(car_in_bay red_van maria_bay)', "The red van is in Maria's bay."),
    ('(part_fitted_to spark_plug blue_car)', 'The spark plug is fitted to the blue car.'),
    ('(engine_running red_van)', "The red van's engine is running."),
    ('(car_is_washed red_van)', 'The red van is washed.'),
    ('(bay_holds bay_2 spark_plug)', 'Bay 2 holds the spark plug.'),
    ('(in_mechanic_toolbox spark_plug tom)', "The spark plug is in Tom's toolbox."),
])
def test_sentences_come_from_the_names_of_any_domain(garage, fact, said):
    assert garage.sentence(F(fact)) == said


def test_a_numeric_fact_is_said_with_its_number(garage):
    mileage = Fact('car_mileage', ('red_van',), '73.5')
    assert garage.sentence(mileage) == "The red van's mileage is 73.5."
    assert garage.sentence(Fact('bay_distance', ('bay_2', 'maria_bay'), '10')) == \
        "The bay distance for bay 2 and Maria's bay is 10."
    assert garage.sentence(Fact('cars_washed', (), '5'), past=True) == 'The cars washed was 5.'
    assert garage.change(Update.of([mileage], [mileage.with_value(80)])) == \
        "The red van's mileage is 80."


def test_household_sentences_past_tense_and_changes(tmp_path):
    world = household_world(tmp_path)
    say = Phrasing(world.domain, world.kg)
    assert say.proper == frozenset({'person'})  # food names ("apples") are not names
    assert say.sentence(F('(in_person_hand red_pen jerry)')) == "The red pen is in Jerry's hand."
    assert say.sentence(F('(person_in_room anna anna_bedroom)')) == "Anna is in Anna's bedroom."
    assert say.sentence(F('(room_has kitchen kitchen_fridge)')) == \
        'The kitchen has the kitchen fridge.'
    assert say.sentence(F('(faucet_on bathroom_sink)')) == "The bathroom sink's faucet is on."
    assert say.sentence(F('(light_on bathroom_light)'), past=True) == \
        'The bathroom light was on.'
    assert say.sentence(F('(glass_has_liquid juice_glass orange_juice)'), past=True) == \
        'The juice glass had the orange juice.'
    change = Update.of([F('(light_on bathroom_light)'), F('(person_in_room anna anna_bedroom)')],
                       [F('(person_in_room anna bathroom)')])
    assert say.change(change) == ('Anna is in the bathroom. The bathroom light is no longer on. '
                                  "Anna is no longer in Anna's bedroom.")


def test_a_name_after_a_title_is_a_name_and_keeps_its_group_names():
    """"mrs_patel" among the mechanics is "Mrs Patel"; without the title rule her two
    words made the whole group common nouns ("the maria")."""
    domain = DomainSchema.from_text(GARAGE)
    kg = KnowledgeGraph('garage')
    for name, t in (('maria', 'mechanic'), ('mrs_patel', 'mechanic'), ('bay_2', 'bay'),
                    ('red_van', 'car')):
        kg.add_entity(name, t)
    said = Phrasing(domain, kg)
    assert said.entity('maria') == 'Maria' and said.entity('mrs_patel') == 'Mrs Patel'
    assert said.say(F('(mechanic_at_bay mrs_patel bay_2)')) == 'Mrs Patel is at bay 2.'
    kg.add_entity('head_mechanic', 'mechanic')  # two words, no title: not names any more
    assert Phrasing(domain, kg).entity('maria') == 'the maria'


def test_a_given_name_before_a_familys_name_is_a_name():
    """"ada_patel" beside "mrs_patel" is Ada Patel; "head_mechanic" still is not a name."""
    domain = DomainSchema.from_text(GARAGE)
    kg = KnowledgeGraph('garage')
    for name, t in (('maria', 'mechanic'), ('mrs_patel', 'mechanic'),
                    ('ada_patel', 'mechanic'), ('bay_2', 'bay')):
        kg.add_entity(name, t)
    said = Phrasing(domain, kg)
    assert said.entity('ada_patel') == 'Ada Patel' and said.entity('maria') == 'Maria'
    assert said.say(F('(mechanic_at_bay ada_patel bay_2)')) == 'Ada Patel is at bay 2.'
    kg.add_entity('ada_spark_plug', 'part')  # Ada's, though Ada is ada_patel
    assert Phrasing(domain, kg).entity('ada_spark_plug') == "Ada's spark plug"
    kg.add_entity('ada_jones', 'mechanic')  # a group with a title: named in full too
    said = Phrasing(domain, kg)
    assert said.entity('ada_jones') == 'Ada Jones' and said.entity('maria') == 'Maria'
    kg.add_entity('spare_mechanic', 'mechanic')  # a type's word: not a group of names
    assert Phrasing(domain, kg).entity('maria') == 'the maria'


PEOPLE = """(define (domain yard)
  (:requirements :strips :typing)
  (:types person boat - object owner staff - person)
  (:predicates (aboard ?p - person ?b - boat) (fuelled ?b - boat)))"""


def test_people_named_in_full_are_names():
    """"oscar_reid", "mrs_van_dijk": a group of a type that says person, or with a title
    among it, whose members read as names, is said as names ("the oscar reid" before);
    two words of no title and no person type stay common nouns ("canned_beans")."""
    domain = DomainSchema.from_text(PEOPLE)
    kg = KnowledgeGraph('yard')
    for name, t in (('hannah', 'staff'), ('oscar_reid', 'owner'), ('mrs_van_dijk', 'owner'),
                    ('kittiwake', 'boat'), ('blue_dinghy', 'boat')):
        kg.add_entity(name, t)
    said = Phrasing(domain, kg)
    assert [said.entity(n) for n in ('hannah', 'oscar_reid', 'mrs_van_dijk')] == [
        'Hannah', 'Oscar Reid', 'Mrs Van Dijk']
    assert said.say(F('(aboard oscar_reid kittiwake)')).startswith('Oscar Reid')
    assert said.entity('blue_dinghy') == 'the blue dinghy'  # boats: no person, no title
    kg.add_entity('fuel_dock_staff', 'staff')  # words of a type: the group is no names
    assert Phrasing(domain, kg).entity('oscar_reid') == 'the oscar reid'


MOBILE = """(define (domain park)
  (:requirements :strips :typing)
  (:types mobile space - object agent vehicle - mobile person robot - agent
          staff camper - person barrow - vehicle)
  (:predicates (at ?x - mobile ?s - space)))"""


def test_people_under_a_type_they_share_with_robots_and_barrows_are_names():
    """People grouped under the highest type that says person, not under "mobile" with
    the robot and the barrows ("the kieran" before); the robot and barrows stay nouns."""
    domain = DomainSchema.from_text(MOBILE)
    kg = KnowledgeGraph('park')
    for name, t in (('kieran', 'staff'), ('gwen', 'staff'), ('nadia_khan', 'camper'),
                    ('sitebot', 'robot'), ('site_barrow', 'barrow'), ('green', 'space')):
        kg.add_entity(name, t)
    said = Phrasing(domain, kg)
    assert [said.entity(n) for n in ('kieran', 'gwen', 'nadia_khan')] == [
        'Kieran', 'Gwen', 'Nadia Khan']
    assert said.say(F('(at kieran green)')) == 'Kieran is at the green.'
    assert said.entity('site_barrow') == 'the site barrow'
    assert said.entity('sitebot') == 'the sitebot'
    kg.add_entity('relief_staff', 'staff')  # a type's word among them: no names
    assert Phrasing(domain, kg).entity('kieran') == 'the kieran'


# the garage written in camel case, as many hand-written domains are: the PDDL reader
# lower-cases every name (mechanicAtBay reaches the graph as mechanicatbay)
CAMEL = """; a garage written in camelCase (this comment's capitals are no name: L3M+P)
(define (domain camelGarage)
  (:requirements :strips :typing)
  (:types mechanic car bay - object)
  (:predicates (mechanicAtBay ?m - mechanic ?b - bay) (carInBay ?c - car ?b - bay)
               (engineRunning ?c - car) (isWashed ?c - car) (inUse ?b - bay)
               (outOfOrder ?b - bay))
  (:action startEngine :parameters (?c - car) :precondition (isWashed ?c)
   :effect (engineRunning ?c)))"""


@pytest.mark.parametrize('fact, said', [
    ('(mechanicatbay maria bay_2)', 'Maria is at bay 2.'),
    ('(carinbay red_van bay_2)', 'The red van is in bay 2.'),
    ('(enginerunning red_van)', "The red van's engine is running."),
    ('(iswashed red_van)', 'The red van is washed.'),
    ('(inuse bay_2)', 'Bay 2 is in use.'),
    ('(outoforder bay_2)', 'Bay 2 is out of order.'),
])
def test_camel_case_names_are_said_as_their_author_wrote_them(fact, said):
    domain = DomainSchema.from_text(CAMEL)
    assert 'mechanicatbay' in domain.predicates  # lower-cased by the reader
    kg = KnowledgeGraph('camelgarage')
    for name, t in (('maria', 'mechanic'), ('tom', 'mechanic'), ('red_van', 'car'),
                    ('bay_2', 'bay')):
        kg.add_entity(name, t)
    assert Phrasing(domain, kg).say(F(fact)) == said


def test_camel_case_spellings_come_from_names_not_comments():
    from l3mp_ros.text import name_words, spellings
    spelt = spellings(CAMEL)
    assert spelt['mechanicatbay'] == ('mechanic', 'at', 'bay')
    assert spelt['outoforder'] == ('out', 'of', 'order') and 'l3m' not in spelt
    DomainSchema.from_text(CAMEL)
    assert name_words('enginerunning') == ['engine', 'running']
    assert name_words('red_van') == ['red', 'van']  # snake case as before


PETS = """(define (domain vets)
  (:requirements :strips :typing)
  (:types movable place - object animal carrier bowl - movable)
  (:predicates (in_carrier ?a - animal ?c - carrier) (rests_on ?m - movable ?p - place)))"""


@pytest.mark.parametrize('text, names', [
    ("Chloe's gone in to see Tom with Luna. Luna's out of her carrier.", {'luna': 'Luna'}),
    ("Sarah's back from the yard with Bella, and Luna's fine.",
     {'bella': 'Bella', 'luna': 'Luna'}),
    ('Luna is out. Milk is on the desk.', {}),  # a sentence's first word: no proof of a name
    ('Tom: Milk spilt on the desk, "Luna" says.', {}),  # after a colon or a quote: the same
    ('the lunar carrier and milky tea', {}),  # a word inside another is not the name
])
def test_a_report_that_writes_a_thing_as_a_name_has_it_said_so(text, names):
    """Animals among bowls and carriers are no group of names ("the luna"); a report that
    writes "Luna" mid-sentence makes her "Luna", and her carrier "Luna's carrier"."""
    domain = DomainSchema.from_text(PETS)
    kg = KnowledgeGraph('vets')
    for name, t in (('luna', 'animal'), ('bella', 'animal'), ('luna_carrier', 'carrier'),
                    ('milk', 'movable'), ('desk', 'place')):
        kg.add_entity(name, t)
    assert written_names(text, kg) == names
    said = Phrasing(domain, kg, names=written_names(text, kg))
    fact = F('(in_carrier luna luna_carrier)')
    if 'luna' in names:
        assert said.say(fact) == "Luna is in Luna's carrier."
    else:
        assert said.say(fact) == 'The luna is in the luna carrier.'
    assert said.entity('milk') == 'the milk' and said.entity('desk') == 'the desk'


def test_a_thing_named_for_a_family_is_theirs():
    """``baxter_umbrella`` beside ``mr_baxter`` is Mr Baxter's umbrella; ``okoye_tent``
    beside ``ade_okoye`` and ``mrs_okoye`` is the Okoye tent (not "the okoye tent"); a
    thing named for no one stays a thing ("the blue dinghy")."""
    domain = DomainSchema.from_text(PEOPLE)
    kg = KnowledgeGraph('yard')
    for name, t in (('hannah', 'staff'), ('mr_baxter', 'owner'), ('ade_okoye', 'owner'),
                    ('mrs_okoye', 'owner'), ('kittiwake', 'boat'), ('baxter_dinghy', 'boat'),
                    ('okoye_dinghy', 'boat'), ('hannah_dinghy', 'boat'),
                    ('blue_dinghy', 'boat')):
        kg.add_entity(name, t)
    said = Phrasing(domain, kg)
    assert said.entity('baxter_dinghy') == "Mr Baxter's dinghy"
    assert said.entity('okoye_dinghy') == 'the Okoye dinghy'
    assert said.entity('hannah_dinghy') == "Hannah's dinghy"
    assert said.entity('blue_dinghy') == 'the blue dinghy'
    assert said.say(F('(fuelled okoye_dinghy)')) == 'The Okoye dinghy is fuelled.'
