# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Short handles in update answers: offered by the schema, read back to whole names."""

import itertools
import json
import types

import jsonschema
import pytest

from l3mp_ros.agent.report.context import UpdateGrounding
from l3mp_ros.agent.report.update import NLUpdater, UpdateSettings
from l3mp_ros.agent.task.task import TaskPlanner, TaskSettings
from l3mp_ros.llm import resident
from l3mp_ros.llm.client import LLMClient, LLMConfig
from l3mp_ros.llm.handles import (
    LiteralHandles,
    TupleHandles,
    handles,
    literal_rows,
    token_pieces,
)
from l3mp_ros.planning.planner import Planner
from l3mp_ros.retrieval.full import FullRetriever
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.testing.fake_openai import toy_pieces
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import Fact, KnowledgeGraph

from .agent_fixtures import DOMAIN, STATE, household_world


def toy_tokenize(texts):
    return [toy_pieces(t) for t in texts]


@pytest.fixture(scope='module')
def household():
    return DomainSchema.load(DOMAIN), KnowledgeGraph.from_json(json.loads(STATE.read_text()))


def _context(domain, kg, **kw):
    names = ['red_pen', 'jerry', 'anna', 'living_room_table', 'jerry_bedroom_table',
             'kitchen_light', 'living_room', 'kitchen']
    facts = [f for f in kg.facts if set(f.args) <= set(names)]
    return UpdateGrounding.build(domain, kg, names, facts, **kw)


def test_a_handle_is_a_names_fewest_leading_tokens_no_sibling_starts_with():
    names = ['lena', 'lena_serum_tube', 'lena_pbs_bottle', 'jonas', 'shelf_1', 'shelf_12']
    pieces = {n: toy_pieces(n) for n in names if n != 'jonas'}
    got = handles(names, pieces)
    assert got == {'lena': 'lena',  # a prefix of its siblings: the whole name
                   'lena_serum_tube': 'lena_ser', 'lena_pbs_bottle': 'lena_pbs',
                   'jonas': 'jonas',  # no tokens known: the whole name
                   'shelf_1': 'shelf_1', 'shelf_12': 'shelf_12'}
    assert handles(['jonas', 'anna'], {'jonas': ['jon', 'as'], 'anna': ['ann', 'a']}) == {
        'jonas': 'jon', 'anna': 'ann'}
    assert handles(['carried_by'], {'carried_by': ['car', 'ried', '_by']}) == {
        'carried_by': 'car'}  # alone: its first token
    # whatever the names, the handles are distinct prefixes and read back one to one
    for group in itertools.combinations(names, 4):
        got = handles(group, {n: toy_pieces(n) for n in group})
        assert len(set(got.values())) == 4
        assert all(n.startswith(h) for n, h in got.items())


def test_tuple_handles_are_told_apart_per_first_string():
    rows = [[['on_shelf'], ['aa_batteries', 'light_bulbs'], ['shelf_1', 'shelf_2']],
            [['on_rack'], ['aa_batteries'], ['rack_1']],
            [['damaged'], ['aa_batteries', 'light_bulbs'], ['true']]]
    names = TupleHandles.names(rows)
    short = TupleHandles(rows, {n: toy_pieces(n) for n in names})
    assert short.short('on_shelf', 0, 'on_shelf') == 'on_she'
    assert short.short('on_rack', 0, 'on_rack') == 'on_rac'
    assert short.short('on_shelf', 2, 'shelf_1') == 'shelf_1'  # told apart at the end
    assert short.short('on_rack', 2, 'rack_1') == 'rac'  # alone at that position
    assert short.full(['on_rac', 'aa', 'rac']) == ['on_rack', 'aa_batteries', 'rack_1']
    assert short.full(['dam', 'lig', 'true']) == ['damaged', 'light_bulbs', 'true']
    # whole names and strings never offered are read as written
    assert short.full(['on_rack', 'aa_batteries', 'rack_1']) == [
        'on_rack', 'aa_batteries', 'rack_1']
    assert short.full(['flying', 'x']) == ['flying', 'x'] and short.full({'a': 1}) == {'a': 1}
    assert short.saved() > 0


def test_token_pieces_trusts_only_tokens_that_spell_the_name():
    assert token_pieces(toy_tokenize, ['ab_cd']) == {'ab_cd': ['ab', '_cd']}
    assert token_pieces(lambda texts: [['x'] for _ in texts], ['ab_cd']) == {}
    assert token_pieces(lambda texts: None, ['ab_cd']) == {}
    assert token_pieces(lambda texts: [['ab_cd']], ['ab_cd', 'ef']) == {}  # wrong count

    def broken(texts):
        raise OSError('no server')
    assert token_pieces(broken, ['ab_cd']) == {} and token_pieces(None, ['ab_cd']) == {}


def _strings(schema):
    """Per branch: (the strings each position may hold, whether it is a ``not`` item)."""
    out = []
    for branch in schema['properties']['facts']['items']['anyOf']:
        if 'prefixItems' in branch:
            out.append(([p.get('enum') or [p['const']] for p in branch['prefixItems']], False))
        else:
            out.extend(([[s] for s in fact], True)
                       for fact in branch['properties']['not']['enum'])
    return out


def _answers(schema):
    """Every item the schema allows, one at a time."""
    for row, negated in _strings(schema):
        for t in itertools.product(*row):
            yield {'not': list(t)} if negated else list(t)


def test_the_schema_offers_handles_and_every_answer_reads_back_as_with_whole_names(
        household):
    domain, kg = household
    whole = _context(domain, kg)
    short = _context(domain, kg, tokenize=toy_tokenize)
    long_schema, short_schema = whole.update_schema(), short.update_schema()
    long_items, short_items = list(_answers(long_schema)), list(_answers(short_schema))
    assert len(long_items) == len(short_items) >= 20
    assert any('not' in i for i in short_items)

    def strings(item):
        return item['not'] if isinstance(item, dict) else item
    assert sum(len(s) for i in short_items for s in strings(i)) < 0.7 * sum(
        len(s) for i in long_items for s in strings(i))
    for long_item, short_item in zip(long_items, short_items, strict=True):
        assert all(w.startswith(h) for w, h in zip(strings(long_item), strings(short_item),
                                                   strict=True))
        jsonschema.validate({'facts': [short_item]}, short_schema)
        assert short.read_update({'facts': [short_item]}) == \
            whole.read_update({'facts': [long_item]})
    # a whole-name answer is outside the schema the model is held to, and still read right
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({'facts': [['in_person_hand', 'red_pen', 'jerry']]}, short_schema)
    assert short.read_update({'facts': [['in_person_hand', 'red_pen', 'jerry']]})[0].add == {
        Fact('in_person_hand', ('red_pen', 'jerry'))}


def test_an_answer_asked_again_with_facts_barred_keeps_its_handles(household):
    domain, kg = household
    short = _context(domain, kg, tokenize=toy_tokenize)
    first = {json.dumps(i) for i in _answers(short.update_schema())}
    barred = short.update_schema(frozenset({Fact('in_person_hand', ('red_pen', 'jerry'))}))
    again = {json.dumps(i) for i in _answers(barred)}
    assert again < first  # fewer items, the same handles
    (said,) = first - again
    assert short.read_update({'facts': [json.loads(said)]})[0].add == {
        Fact('in_person_hand', ('red_pen', 'jerry'))}


def test_without_a_tokenizer_the_schema_is_unchanged(household):
    domain, kg = household
    whole = _context(domain, kg).update_schema()
    assert _context(domain, kg, tokenize=lambda texts: None).update_schema() == whole
    assert _context(domain, kg, tokenize=None).update_schema() == whole


def _local_client(monkeypatch, fake):
    monkeypatch.setattr(resident, 'shared_server', lambda **kw: types.SimpleNamespace(
        base_url=fake.base_url, repack=False))
    return LLMClient(LLMConfig(base_url='local', timeout=5.0, max_retries=1, backoff=0.01))


def test_the_embedded_servers_tokenizer_is_asked_once_per_name(monkeypatch):
    with FakeOpenAI() as fake:
        local = _local_client(monkeypatch, fake)
        assert local.tokenize(['aa_batteries', 'jonas']) == [
            ['aa', '_bat', 'ter', 'ies'], ['jon', 'as']]
        assert local.tokenize(['jonas', 'rack_1']) == [['jon', 'as'], ['rac', 'k', '_1']]
        assert fake.tokenized == ['aa_batteries\njonas', 'rack_1']  # jonas once
        assert local.tokenize(['two\nlines']) is None
        assert LLMClient(LLMConfig(base_url=fake.base_url)).tokenize(['jonas']) is None
    assert local.tokenize(['gone']) is None  # the server went away: no handles, no error


def test_a_report_answered_in_handles_is_applied_with_whole_names(tmp_path, monkeypatch):
    world = household_world(tmp_path)

    def answer(request):  # the model picks, at each position, the handle of what it means
        meant = ['in_person_hand', 'red_pen', 'jerry']
        schema = request['response_format']['json_schema']['schema']
        for row, negated in _strings(schema):
            picks = [next((h for h in hs if m.startswith(h)), None) for hs, m in zip(
                row, meant, strict=False)]
            if not negated and len(row) == 3 and None not in picks:
                return {'content': {'facts': [picks]}}
        return {'content': {'facts': []}}

    with FakeOpenAI([answer]) as fake:
        llm = _local_client(monkeypatch, fake)
        out = NLUpdater(world, llm, FullRetriever(),
                        settings=UpdateSettings(answer_handles=True)).run(
            'Jerry picked up the red pen from the living room table.')
    assert out.applied, out.errors
    assert Fact('in_person_hand', ('red_pen', 'jerry')) in world.kg
    assert Fact('placed_at_table', ('red_pen', 'living_room_table')) not in world.kg
    reply = json.loads(out.history[0]['reply'])
    assert reply['facts'][0] != ['in_person_hand', 'red_pen', 'jerry']  # handles were sent
    assert fake.tokenized  # the names were tokenized by the server


def test_literal_handles_cover_every_branch_of_a_nested_goal_schema():
    schema = {'type': 'object', 'properties': {'goal': {'type': 'array', 'items': {'anyOf': [
        {'anyOf': [{'type': 'array', 'prefixItems': [
            {'const': 'in_person_hand'}, {'enum': ['red_pen', 'red_cup']},
            {'enum': ['anna', 'jerry']}]}]},
        {'type': 'object', 'properties': {'forall': {'const': 'pen'}, 'then': {
            'type': 'array', 'items': {'anyOf': [{'type': 'array', 'prefixItems': [
                {'const': 'placed_at_table'}, {'enum': ['?x']},
                {'enum': ['kitchen_table']}]}]}}}}]}}}}
    short = LiteralHandles(schema, toy_tokenize)
    (first, quantified) = short.schema['properties']['goal']['items']['anyOf']
    lit = first['anyOf'][0]['prefixItems']
    assert lit == [{'const': 'in'}, {'enum': ['red_pen', 'red_cup']}, {'enum': ['ann', 'jer']}]
    then = quantified['properties']['then']['items']['anyOf'][0]['prefixItems']
    assert then == [{'const': 'pla'}, {'enum': ['?x']}, {'enum': ['kit']}]  # ?x is kept
    assert quantified['properties']['forall'] == {'const': 'pen'}  # not a literal
    answer = {'goal': [['in', 'red_cup', 'jer'],
                       {'forall': 'pen', 'then': [['pla', '?x', 'kit']], 'negate': False}]}
    assert short.expand(answer) == {'goal': [
        ['in_person_hand', 'red_cup', 'jerry'],
        {'forall': 'pen', 'then': [['placed_at_table', '?x', 'kitchen_table']],
         'negate': False}]}
    assert LiteralHandles(schema, None).schema == schema  # no tokenizer: whole names


def test_a_task_answered_in_handles_is_planned_with_whole_names(tmp_path, monkeypatch):
    world = household_world(tmp_path)

    def answer(request):
        meant = ['in_person_hand', 'red_pen', 'anna']
        schema = request['response_format']['json_schema']['schema']
        for row in literal_rows(schema):
            picks = [next((h for h in hs if m.startswith(h)), None) for hs, m in zip(
                row, meant, strict=False)]
            if len(row) == 3 and None not in picks:
                return {'content': {'goal': [picks]}}
        return {'content': {'goal': []}}

    with FakeOpenAI([answer]) as fake:
        llm = _local_client(monkeypatch, fake)
        planner = Planner(world.domain, engine='fast-downward', timeout=30)
        out = TaskPlanner(world, llm, FullRetriever(), planner,
                          settings=TaskSettings(answer_handles=True)).run(
            'Give the red pen to Anna.')
        sent = fake.requests[0]['response_format']['json_schema']['schema']
    assert out.status == 'solved', out.errors
    assert out.goal == '(and (in_person_hand red_pen anna))'
    assert out.steps[-1].startswith('(hand_to_person')
    assert ['in_person_hand', 'red_pen', 'anna'] not in [
        [hs[0] if len(hs) == 1 else None for hs in row] for row in literal_rows(sent)]
    assert any(row[0] != ['in_person_hand'] and row[0][0].startswith('in')
               for row in literal_rows(sent))  # the predicate went as a handle
