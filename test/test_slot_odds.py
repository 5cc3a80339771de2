# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The answer call's own odds per slot (agent/core/slot_odds.py), on scripted tokens."""

import json
import math

import pytest

from l3mp_ros.agent.core.slot_odds import reply_odds


def _lit(*slots):
    return {'type': 'array', 'prefixItems': list(slots), 'minItems': len(slots),
            'maxItems': len(slots)}


SCHEMA = {'type': 'object', 'properties': {'facts': {'type': 'array', 'maxItems': 3, 'items': {
    'anyOf': [
        _lit({'const': 'in_person_hand'}, {'enum': ['red_pen', 'red_cup']}, {'enum': ['jerry']}),
        _lit({'const': 'person_in_room'}, {'const': 'jerry'},
             {'enum': ['kitchen', 'living_room']}),
        _lit({'const': 'light_on'}, {'enum': ['kitchen_light']}, {'const': 'false'}),
        {'type': 'object', 'properties': {'not': {'enum': [
            ['on_furniture', 'red_pen', 'table'], ['on_furniture', 'red_cup', 'table']]}},
         'required': ['not'], 'additionalProperties': False}]}}},
    'required': ['facts'], 'additionalProperties': False}

TOKENS = ['{"', 'facts', '":', ' [["', 'in', '_person', '_hand', '",', ' "', 'red', '_pen',
          '",', ' "', 'jerry', '"],', ' {"', 'not', '":', ' ["', 'on', '_furniture', '",',
          ' "', 'red', '_pen', '",', ' "', 'table', '"]', '}]', '}']
TEXT = ''.join(TOKENS)


def _steps(tokens, alternatives):
    """Each token alone at probability 1, unless ``alternatives`` gives its candidates."""
    out = []
    for i, tok in enumerate(tokens):
        cands = alternatives.get(i, [(tok, 1.0)])
        out.append((tok, [(c, math.log(p)) for c, p in cands]))
    return out


def test_slots_are_renormalised_over_what_the_schema_allows():
    steps = _steps(TOKENS, {
        4: [('in', 0.6), ('person', 0.2), ('holding', 0.2)],  # 'holding...' is no predicate
        10: [('_pen', 0.7), ('_cup', 0.3)],  # the entity's second token decides it
    })
    odds = reply_odds(TEXT, steps, SCHEMA)
    assert odds is not None and len(odds.facts) == 2
    held, gone = odds.facts
    assert held.item == ('in_person_hand', 'red_pen', 'jerry') and not held.removed
    pred, thing, person = held.slots
    assert pred.p == pytest.approx(0.75) and pred.outside == pytest.approx(0.2)
    assert pred.runners == (('person_in_room', pytest.approx(0.25)),)
    assert thing.p == pytest.approx(0.7) and thing.runners[0][0] == 'red_cup'
    assert person.p == pytest.approx(1.0) and person.runners == ()
    assert held.p == pytest.approx(0.75 * 0.7)
    assert gone.removed and gone.item == ('on_furniture', 'red_pen', 'table')
    assert odds.p == pytest.approx(0.75 * 0.7)


def test_a_removal_has_its_own_alternatives():
    """In ``{"not": ...}`` the entity's runners are the other removable facts' entities."""
    steps = _steps(TOKENS, {24: [('_pen', 0.4), ('_cup', 0.4), ('_box', 0.2)]})
    odds = reply_odds(TEXT, steps, SCHEMA)
    thing = odds.facts[1].slots[1]
    assert thing.p == pytest.approx(0.5) and thing.outside == pytest.approx(0.2)
    assert [v for v, _ in thing.runners] == ['red_cup']
    assert odds.facts[0].p == pytest.approx(1.0)


def test_one_more_fact_or_the_end():
    """The list's decisions: an empty list, one more item, and where it ended."""
    # after Jerry's item: '"],' (more) against '"]' (stops short: the end)
    steps = _steps(TOKENS, {14: [('"],', 0.6), ('"]', 0.3), ('",', 0.1)],
                            3: [(' [["', 0.8), (' []', 0.2)],
                            15: [(' {"', 0.9), (' ["', 0.1)]})
    odds = reply_odds(TEXT, steps, SCHEMA)
    held, gone = odds.facts
    assert held.more == pytest.approx(0.8)  # a first item rather than none
    assert gone.more == pytest.approx(0.6 / 0.9)  # '",' is outside the schema
    assert gone.op == pytest.approx(0.9)  # a removal rather than a stated fact
    assert odds.stop == pytest.approx(1.0)
    # the written token stops short and the next one ends the list
    tokens = TOKENS[:14] + ['"]', ']}']
    steps = _steps(tokens, {14: [('"]', 0.5), ('"]}', 0.1), ('"],', 0.4)],
                            15: [(']}', 0.5), (']', 0.3), (',', 0.2)]})
    odds = reply_odds(''.join(tokens), steps, SCHEMA)
    assert len(odds.facts) == 1
    assert odds.stop == pytest.approx(0.5 * 0.8 / (0.4 + 0.5))  # '"]}' closes no list
    assert odds.p == pytest.approx(0.5 * 0.8 / 0.9)


def test_a_full_list_cannot_go_on():
    items = ', '.join(['["person_in_room", "jerry", "kitchen"]'] * 3)
    text = '{"facts": [' + items + ']}'
    steps = [(c, [(c, 0.0)]) for c in text]  # one character a token
    steps[text.index(']]}')] = (']', [(']', math.log(0.5)), ('],', math.log(0.5))])
    odds = reply_odds(text, steps, SCHEMA)
    assert odds.stop == 1.0 and len(odds.facts) == 3


def test_a_unary_value_the_grammar_forced_shows_as_outside():
    """"false" forced where the model wanted "true" (it already holds): mass outside."""
    tokens = ['{"', 'facts', '":', ' [["', 'light', '_on', '",', ' "', 'kitchen', '_light',
              '",', ' "', 'false', '"]]', '}']
    steps = _steps(tokens, {12: [('true', 0.9), ('false', 0.1)]})
    odds = reply_odds(''.join(tokens), steps, SCHEMA)
    value = odds.facts[0].slots[2]
    assert value.p == pytest.approx(1.0) and value.outside == pytest.approx(0.9)
    assert odds.outside == pytest.approx(0.9)


def test_what_cannot_be_read_gives_no_odds():
    steps = _steps(TOKENS, {})
    assert reply_odds(TEXT, None, SCHEMA) is None
    assert reply_odds(TEXT + ' ', steps, SCHEMA) is None  # tokens do not hold the text
    assert reply_odds(TEXT, steps, {'type': 'object'}) is None  # not an update schema
    assert reply_odds('{"facts": [["light_on", "x"', steps[:5], SCHEMA) is None
    # a value the schema does not allow: not this schema's answer
    bad = TEXT.replace('jerry"],', 'jenny"],')
    assert reply_odds(bad, _steps([t.replace('jerry', 'jenny') for t in TOKENS], {}),
                      SCHEMA) is None


def test_json_summary_keeps_the_runners_up():
    steps = _steps(TOKENS, {10: [('_pen', 0.7), ('_cup', 0.3)]})
    j = reply_odds(TEXT, steps, SCHEMA).to_json()
    assert j['p'] == pytest.approx(0.7, abs=1e-4)
    assert j['facts'][0]['slots'][1] == ['red_pen', 0.7, 0.0, [['red_cup', 0.3]]]


def _char_steps(text, alternatives):
    """One character a token, certain, except where ``alternatives`` (index: candidates)."""
    return [[c, [[x, math.log(p)] for x, p in alternatives[i]] if i in alternatives
             else [[c, 0.0]]] for i, c in enumerate(text)]


def test_a_reading_is_scored_by_its_answer_slots(tmp_path):
    """Through the real client: the answer call asks for top log-probabilities, and the
    reading's score is its least slot odds; ``slot_odds`` 0 asks for none."""
    from l3mp_ros.agent.report.update import NLUpdater
    from l3mp_ros.retrieval.full import FullRetriever
    from l3mp_ros.testing import FakeOpenAI

    from .agent_fixtures import client, household_world

    text = json.dumps({'facts': [['in_person_hand', 'red_pen', 'jerry']]})
    item = text.index('[[') + 1  # a fact stated, a fact removed, or no fact at all
    steps = _char_steps(text, {item: [('[', 0.5), ('{', 0.25), (']', 0.25)],
                               text.index('jerry'): [('j', 0.5), ('a', 0.5)]})
    reply = {'content': text, 'logprobs': steps}
    world = household_world(tmp_path)
    with FakeOpenAI([reply]) as fake:
        updater = NLUpdater(world, client(fake), FullRetriever())
        updater.settings.ask_below = 0.0
        out = updater.run('Jerry took the red pen from the living room table.')
        asked = fake.requests[0]
    assert asked['logprobs'] is True and asked['top_logprobs'] == 10
    assert out.applied and out.slot_odds == pytest.approx(2 / 3)
    [fact] = out.fact_odds
    assert fact['fact'] == ['red_pen', 'in_person_hand', 'jerry'] and not fact['removed']
    assert fact['op'] == pytest.approx(2 / 3, abs=1e-4)
    assert fact['slots'][2] == ['jerry', 1.0, 0.5, []]  # Anna is no referent: outside
    assert out.to_json()['slot_odds'] == out.slot_odds
    world2 = household_world(tmp_path / 'b')
    with FakeOpenAI([reply]) as fake:
        updater = NLUpdater(world2, client(fake), FullRetriever())
        updater.settings.slot_odds, updater.settings.ask_below = 0, 0.0
        out = updater.run('Jerry took the red pen from the living room table.')
        assert 'logprobs' not in fake.requests[0]
    assert out.applied and out.slot_odds is None and out.fact_odds == []


def test_a_reply_cut_from_a_fenced_block_is_read_where_it_sits():
    """An endpoint that did not hold the answer to its schema wrote a fenced block; the
    client cut the JSON out of it: the odds are read at its place in the tokens."""
    tokens = ['```', 'json', '\n'] + TOKENS + ['\n', '```']
    steps = _steps(tokens, {3 + 10: [('_pen', 0.7), ('_cup', 0.3)]})
    odds = reply_odds(TEXT, steps, SCHEMA)
    assert odds is not None and odds.facts[0].slots[1].p == pytest.approx(0.7)
    assert odds.facts[0].more == pytest.approx(1.0) and odds.stop == pytest.approx(1.0)
