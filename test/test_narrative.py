# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A narrative's net change: of the new places one report gives one thing, the last one."""

from l3mp_ros.agent.report.scope import last_places
from l3mp_ros.retrieval.mentions import resolve
from l3mp_ros.world.kg import Fact, Update
from l3mp_ros.world.model import WorldModel


def _world(mini_domain, mini_constraints, mini_kg):
    return WorldModel(mini_domain, mini_constraints, kg=mini_kg)


def _going(world, kg, text, actor=None):
    from l3mp_ros.agent.core.request import mentions_of
    from l3mp_ros.agent.report.subjects import going
    return going(world, kg, text, mentions_of(world, kg, text), actor)


def _leading(world, kg, text):
    from l3mp_ros.agent.core.request import mentions_of
    from l3mp_ros.agent.report.subjects import leading_subject
    return leading_subject(world, kg, text, mentions_of(world, kg, text))


def test_the_place_named_last_wins(mini_domain, mini_constraints, mini_kg):
    world = _world(mini_domain, mini_constraints, mini_kg)
    text = 'Gary took the dune book off the kitchen table and handed it to Jerry.'
    stated = Update.of([], [Fact('in_hand', ('dune', 'gary')), Fact('in_hand', ('dune', 'jerry'))])
    kept, notes = last_places(stated, resolve(mini_kg, text), world, mini_kg)
    assert kept == Update.of([], [Fact('in_hand', ('dune', 'jerry'))])
    assert len(notes) == 1 and 'dropped (dune, in_hand, gary)' in notes[0]
    # across the predicates of one exactly-one group too: "... and put it on Jerry's shelf"
    text = 'Gary took the dune book from the table and put it on the shelf of Jerry.'
    stated = Update.of([], [Fact('in_hand', ('dune', 'gary')),
                            Fact('placed_at', ('dune', 'jerry_shelf'))])
    kept, _ = last_places(stated, resolve(mini_kg, text), world, mini_kg)
    assert kept.add == {Fact('placed_at', ('dune', 'jerry_shelf'))}


def test_no_order_no_choice(mini_domain, mini_constraints, mini_kg):
    world = _world(mini_domain, mini_constraints, mini_kg)
    # an object the report does not name: the clash stays for the verifier to refuse
    stated = Update.of([], [Fact('in_hand', ('dune', 'gary')), Fact('in_hand', ('dune', 'jerry'))])
    text = 'Gary handed the dune book over.'
    assert last_places(stated, resolve(mini_kg, text), world, mini_kg) == (stated, [])
    # different things, or a place that already holds, are no narrative
    two = Update.of([], [Fact('in_hand', ('dune', 'jerry')),
                         Fact('in_hand', ('blue_pen', 'gary'))])
    text = 'Jerry took the dune book and Gary the blue pen.'
    assert last_places(two, resolve(mini_kg, text), world, mini_kg) == (two, [])


def test_everyone_said_to_go_somewhere_must_move(mini_domain, mini_constraints, mini_kg):
    world = _world(mini_domain, mini_constraints, mini_kg)
    g = _going(world, mini_kg, 'Gary and Jerry went to the kitchen for tea.')
    assert (g.subject, g.others) == ('gary', ('jerry',))
    gary_only = Update.of([], [Fact('in_room', ('gary', 'jerry_bedroom'))])
    assert g.missing(gary_only) and g.unplaced(gary_only) == ['jerry']
    assert 'jerry went to somewhere' in g.error(gary_only)
    both = Update.of([], [Fact('in_room', ('gary', 'jerry_bedroom')),
                          Fact('in_room', ('jerry', 'kitchen'))])
    assert not g.missing(both)
    # one subject, and someone named after the verb is no subject
    g = _going(world, mini_kg, 'Gary went to the kitchen and Jerry stayed put.')
    assert (g.subject, g.others) == ('gary', ())


def test_on_ones_way_to_a_place_is_going_there_a_way_up_is_not(
        mini_domain, mini_constraints, mini_kg):
    world = _world(mini_domain, mini_constraints, mini_kg)
    g = _going(world, mini_kg, 'Gary switched the lamp off on his way out to the kitchen.')
    assert g is not None and g.subject == 'gary' and g.words == 'on his way out to'
    assert _going(world, mini_kg, 'Gary rolled the blind all the way up.') is None
    assert _going(world, mini_kg, 'The way to the kitchen is blocked by Gary.') is None


def test_a_clause_without_a_subject_goes_with_the_one_before(
        mini_domain, mini_constraints, mini_kg):
    world = _world(mini_domain, mini_constraints, mini_kg)
    assert _leading(world, mini_kg, 'Gary went into the kitchen') == 'gary'
    assert _leading(world, mini_kg, 'The red pen fell off the table') == 'red_pen'
    assert _leading(world, mini_kg, "Gary's gone into the kitchen") == 'gary'  # Gary has
    for text in ('went into the kitchen', 'brought the blue pen out to the kitchen table',
                 "Gary's pen fell off the table", 'he went into the kitchen'):
        assert _leading(world, mini_kg, text) is None, text
    g = _going(world, mini_kg, 'came straight back in.', actor='gary')
    assert g is not None and (g.subject, g.elided) == ('gary', True)
    assert _going(world, mini_kg, 'then went over to the kitchen', actor='gary').subject == 'gary'
    assert _going(world, mini_kg, 'came straight back in.') is None  # nobody before it
    assert _going(world, mini_kg, 'he came straight back in.', actor='gary') is None
    own = _going(world, mini_kg, 'Jerry came straight back in.', actor='gary')
    assert (own.subject, own.elided) == ('jerry', False)


def test_where_a_place_is_follows_facts_and_steady_facts_backwards(
        mini_domain, mini_constraints, mini_kg):
    from l3mp_ros.agent.report.subjects import zone_of
    world = _world(mini_domain, mini_constraints, mini_kg)
    assert zone_of(world, mini_kg, 'jerry_shelf', ['room']) == 'jerry_bedroom'  # room_has
    assert zone_of(world, mini_kg, 'gary', ['room']) == 'kitchen'  # in_room
    assert zone_of(world, mini_kg, 'red_pen', ['room']) == 'kitchen'  # in gary's hand
    assert zone_of(world, mini_kg, 'kitchen', ['room']) == 'kitchen'
    # a changing fact is not followed backwards: a bedroom holds no robot through jerry
    assert zone_of(world, mini_kg, 'jerry_shelf', ['robot']) is None
    assert zone_of(world, mini_kg, 'red_pen', ['room'], depth=1) is None


def test_whoever_put_a_thing_somewhere_is_where_it_is(mini_domain, mini_constraints, mini_kg):
    from l3mp_ros.agent.report.subjects import put_by
    world = _world(mini_domain, mini_constraints, mini_kg)
    went = Update.of([Fact('in_room', ('gary', 'kitchen'))],
                     [Fact('in_room', ('gary', 'jerry_bedroom'))])
    brought = Update.of([Fact('placed_at', ('blue_pen', 'jerry_shelf'))],
                        [Fact('placed_at', ('blue_pen', 'kitchen_table'))])
    after = mini_kg.copy()
    after.apply(went)
    after.apply(brought)
    people = {'person'}
    # "Gary went into Jerry's bedroom and brought the blue pen out to the kitchen table",
    # answered with Gary left in the bedroom
    got = put_by(world, after, [('gary', went), ('gary', brought)], people)
    assert got is not None and (got.actor, got.zone, got.group) == ('gary', 'kitchen',
                                                                    ('in_room',))
    assert got.put == Fact('placed_at', ('blue_pen', 'kitchen_table'))
    # the part that puts it also says where Gary is, or a later part moves him: no check
    assert put_by(world, after, [('gary', Update.of(went.remove | brought.remove,
                                                    went.add | brought.add))], people) is None
    back = Update.of([Fact('in_room', ('gary', 'jerry_bedroom'))],
                     [Fact('in_room', ('gary', 'kitchen'))])
    later = after.copy()
    later.apply(back)
    assert put_by(world, later, [('gary', brought), ('gary', back)], people) is None
    # the one who put it is asked about (Jerry, in his bedroom); no actor known, or an
    # actor that is no person: no check
    assert put_by(world, after, [('gary', went), ('jerry', brought)], people).actor == 'jerry'
    assert put_by(world, after, [('gary', went), (None, brought)], people) is None
    assert put_by(world, after, [('the_robot', brought)], people) is None
    # put where the actor is: nothing to ask
    here = Update.of([Fact('placed_at', ('blue_pen', 'jerry_shelf'))],
                     [Fact('in_hand', ('blue_pen', 'jerry'))])
    mine = mini_kg.copy()
    mine.apply(here)
    assert put_by(world, mine, [('jerry', here)], people) is None


def test_a_parts_mentions_are_the_reports_resolved_once_and_counted_from_the_part(
        mini_domain, mini_constraints, mini_kg):
    from l3mp_ros.agent.core.request import Request, mentions_of
    from l3mp_ros.text import words
    world = _world(mini_domain, mini_constraints, mini_kg)
    text = ('Gary went to the kitchen,   and then Jerry put the red pen on the kitchen table '
            'and came straight back to his bedroom.')
    req = Request(world, text, mini_kg, {w for n in mini_kg.entities for w in n.split('_')})
    whole = req.resolve()
    parts = req.parts(True)
    assert len(parts) >= 2
    seen = []
    for part in parts:
        got = req.mentions_in(part)
        for m in got:  # each sits where the part writes it, with the report's candidates
            assert m.part is not None or words(part)[m.start:m.end] == words(m.surface), m
            assert any(w.surface == m.surface and w.candidates == m.candidates for w in whole)
        seen += [m.surface for m in got]
    assert seen == [m.surface for m in whole]  # every mention once, in reading order
    assert req.mentions is whole and mentions_of(world, mini_kg, text) == whole
    # a part that is no span of the report is resolved on its own
    assert [m.surface for m in req.mentions_in('Jerry went to the kitchen')] == [
        m.surface for m in mentions_of(world, mini_kg, 'Jerry went to the kitchen')]


def test_the_one_named_right_before_the_verb_of_going_is_who_went(
        mini_domain, mini_constraints, mini_kg):
    # "Gary moved Jerry's pen ..., and his book's gone in with it": the book went, not
    # Gary; "... and went to the kitchen" still goes with the one the report began with
    world = _world(mini_domain, mini_constraints, mini_kg)
    g = _going(world, mini_kg, 'Gary put the red pen on the shelf, and the dune book has '
                               'gone into the kitchen.')
    assert g is not None and g.subject == 'dune'
    g = _going(world, mini_kg, 'Gary took the red pen off the table and went to the kitchen.')
    assert g is not None and g.subject == 'gary'
    # a list of what one subject did: "unlocked the kitchen, went in"
    g = _going(world, mini_kg, 'Gary took the dune book, went into the kitchen.')
    assert g is not None and g.subject == 'gary'
    g = _going(world, mini_kg, 'The dune book for Jerry was moved into the kitchen.')
    assert g is not None and g.subject == 'dune'  # "for Jerry": no subject


def test_who_went_is_named_in_the_verbs_own_sentence(mini_domain, mini_constraints, mini_kg):
    """ "Gary had a look at the lamp for Jerry. It's back in the kitchen": "it" went, not
    Gary, named a sentence before; a title's full stop ends no sentence."""
    world = _world(mini_domain, mini_constraints, mini_kg)
    assert _going(world, mini_kg, "Gary had a look at the lamp for Jerry. It's back in the "
                                  'kitchen now.') is None
    g = _going(world, mini_kg, 'Gary fetched the red pen. Jerry went back to the kitchen.')
    assert g is not None and g.subject == 'jerry'
    g = _going(world, mini_kg, 'Dr. Gary went to the kitchen.')
    assert g is not None and g.subject == 'gary'
    g = _going(world, mini_kg, 'Gary went to the kitchen.')
    assert g is not None and g.subject == 'gary'


def test_whoever_pushes_or_wheels_a_thing_somewhere_goes_with_it(
        mini_domain, mini_constraints, mini_kg):
    """ "wheeled the hose barrow over to the training ground": the one pushing went there
    too, as with "took"; the taker is named in the verb's own sentence."""
    world = _world(mini_domain, mini_constraints, mini_kg)
    g = _going(world, mini_kg, "Gary pushed Jerry through to Jerry's bedroom.")
    assert g is not None and (g.subject, g.others) == ('gary', ('jerry',))
    g = _going(world, mini_kg, 'Gary wheeled the robot out to the kitchen.')
    assert g is not None and (g.subject, g.others) == ('gary', ('the_robot',))
    g = _going(world, mini_kg, 'Gary fetched the red pen. Jerry pulled the robot into the '
                               'kitchen.')
    assert g is not None and g.subject == 'jerry'
    # a table is no place to be: no going
    assert _going(world, mini_kg, 'Gary pushed the dune book over to the kitchen table.') \
        is None
