# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The Table II harness on the controller double: tasks, changes, modes, CLI."""

import argparse
import json

import pytest

from l3mp_ros.cli import main as l3mp
from l3mp_ros.cli.common import CLIError
from l3mp_ros.llm.client import LLMClient, LLMConfig
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros_bench.ai2thor import cli as bench_ai2thor
from l3mp_ros_bench.ai2thor.harness import (
    Runner,
    Settings,
    gold_diff,
    make_instance,
    run_experiment,
    table_markdown,
)
from l3mp_ros_bench.ai2thor.tasks import KINDS, TASKS

FAST = Settings(max_replans=3, max_steps=40)


@pytest.mark.parametrize('task', TASKS)
def test_instances_have_work_and_changes(task):
    inst = make_instance(task, 0, seed=1, settings=FAST)
    assert not inst.success()  # there is something to do
    assert inst.goal() == '(and ' + ' '.join(inst.truth_goal()) + ')'  # robot knows the house
    again = make_instance(task, 0, seed=1, settings=FAST)
    assert again.params == inst.params and again.text == inst.text
    truth = inst.truth.kg()
    options = inst.spec.changes(inst.truth, truth, inst.params, inst.rng)
    assert options and {c.kind for c in options} <= set(KINDS)
    change = options[0]
    change.apply()
    diff = gold_diff(inst, change.objects)
    assert not diff.is_empty() and diff.entities() <= set(change.objects) | set(truth.entities)
    assert inst.world.apply(diff, source='nl', utterance=change.text).applied


def test_l3mp_beats_visual_only_on_wash_dishes():
    runs = {m: run_experiment('wash_dishes', 2, m, seed=0, settings=FAST)
            for m in ('l3mp', 'visual_only')}
    l3mp_run, visual = runs['l3mp'], runs['visual_only']
    assert l3mp_run['successes'] == 2 and visual['successes'] <= l3mp_run['successes']
    assert l3mp_run['changes'] == visual['changes']  # same schedule in both modes
    assert sum(l3mp_run['changes'].values()) >= 2
    for rec in l3mp_run['records']:
        assert rec['reports']['applied'] == len(rec['changes']) and rec['replans']['report']
    for rec in visual['records']:
        assert rec['reports'] == {'applied': 0, 'rejected': 0} and not rec['replans']['report']
    again = run_experiment('wash_dishes', 2, 'visual_only', seed=0, settings=FAST)
    strip = [{k: v for k, v in r.items() if k != 'seconds'} for r in again['records']]
    assert strip == [{k: v for k, v in r.items() if k != 'seconds'} for r in visual['records']]
    table = table_markdown(runs.values())
    assert 'L3M+P (controller double) | 100 (2/2)' in table
    assert '| L3M+P (paper, AI2-THOR) | 85 |' in table
    assert 'Visual only (paper, AI2-THOR) | 0 |' in table


def test_relocation_needs_a_failure_without_reports():
    rec = {m: run_experiment('pick_place', 1, m, seed=0, settings=FAST)['records'][0]
           for m in ('l3mp', 'visual_only')}
    assert [c['kind'] for c in rec['l3mp']['changes']][:1] == ['relocation']
    assert rec['l3mp']['success'] and rec['l3mp']['failed_steps'] == 0
    assert not rec['visual_only']['success'] and rec['visual_only']['replans']['failure']


def test_scripted_llm_drives_algorithms_3_and_4():
    holder = {}

    def reply(request):
        inst = holder['inst']
        name = request['response_format']['json_schema']['name']
        if name == 'kg_update':
            return {'content': inst.gold.to_json()}
        return {'content': {'goal': inst.goal()}}

    with FakeOpenAI([], responder=reply) as fake:
        client = LLMClient(LLMConfig(base_url=fake.base_url, model='fake', timeout=10.0,
                                     max_retries=0))
        inst = make_instance('wash_dishes', 1, seed=0, llm=client, settings=FAST)
        holder['inst'] = inst
        rec = Runner(inst, 'l3mp', oracle=False, settings=FAST).run()
        assert rec['success'] and rec['reports']['applied'] >= 1
        kinds = [r['response_format']['json_schema']['name'] for r in fake.requests]
        assert kinds.count('pddl_goal') == rec['plan_calls'] and 'kg_update' in kinds


def test_bench_cli(tmp_path, capsys):
    parser = argparse.ArgumentParser()
    bench = parser.add_subparsers(dest='command').add_parser('bench').add_subparsers(
        dest='bench_command')
    bench_ai2thor.register(bench)
    args = parser.parse_args(['bench', 'ai2thor', '--task', 'clean_bed', '--instances', '1',
                              '--max-replans', '3', '--out', str(tmp_path), '--quiet'])
    assert args.func(args) == 0
    summary = json.loads((tmp_path / 'ai2thor_clean_bed_l3mp.json').read_text())
    assert summary['simulator'] == 'controller_double' and len(summary['records']) == 1
    assert (tmp_path / 'ai2thor_clean_bed_visual_only.json').exists()
    assert 'Clean Bed' in (tmp_path / 'table.md').read_text()
    assert len(json.loads((tmp_path / 'table.json').read_text())) == 2
    assert 'Clean Bed' in capsys.readouterr().out
    bad = parser.parse_args(['bench', 'ai2thor', '--task', 'all', '--instances', '0',
                             '--out', str(tmp_path)])
    with pytest.raises(CLIError):
        bad.func(bad)


def test_thor_scene_graph_cli(tmp_path, capsys):
    from l3mp_ros.ai2thor.double import ControllerDouble

    sim = ControllerDouble(visibility='distance')
    (tmp_path / 'event.json').write_text(json.dumps({'metadata': sim.last_event.metadata}))
    (tmp_path / 'house.json').write_text(json.dumps(sim.house))
    assert l3mp(['thor', 'scene-graph', '--metadata', str(tmp_path / 'event.json'),
                 '--house', str(tmp_path / 'house.json')]) == 0
    seen = json.loads(capsys.readouterr().out)
    assert seen['schema'] == 'l3mp/scene_graph/v1' and 'kitchen_1' in {
        e['name'] for e in seen['entities']}
    assert l3mp(['thor', 'scene-graph', '--metadata', str(tmp_path / 'event.json'),
                 '--all']) == 0
    every = json.loads(capsys.readouterr().out)
    assert len(every['observed']) > len(seen['observed'])
    (tmp_path / 'bad.json').write_text('{"objects": 3}')
    (tmp_path / 'broken.json').write_text('{not json')
    for argv, needle in [(['--metadata', str(tmp_path / 'nope.json')], 'no such file'),
                         (['--metadata', str(tmp_path / 'broken.json')], 'malformed JSON'),
                         (['--metadata', str(tmp_path / 'bad.json')], 'objects'),
                         (['--metadata', str(tmp_path / 'event.json'), '--house',
                           str(tmp_path / 'bad.json')], 'ProcTHOR house')]:
        assert l3mp(['thor', 'scene-graph', *argv]) == 2
        err = capsys.readouterr().err
        assert needle in err and err.count('\n') == 1, err
