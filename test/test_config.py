# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The one configuration: defaults, checks, what the nodes and the CLI derive from it."""

import pytest

from l3mp_ros import config
from l3mp_ros.cli import build_parser
from l3mp_ros.config import BRIDGE_PARAMETERS, PARAMETERS, Config


def test_choices_agree_with_the_components_that_use_them():
    from l3mp_ros.planning.engines import ENGINES
    from l3mp_ros.retrieval import RETRIEVERS
    from l3mp_ros.tasking.lifecycle import EXECUTE_POLICIES

    assert set(config.ENGINES) == set(ENGINES)
    assert set(config.EXECUTE_POLICIES) == set(EXECUTE_POLICIES)
    assert set(config.RETRIEVER_NAMES) == set(RETRIEVERS)


def test_every_setting_has_a_description_and_a_node_or_a_reason():
    for name, (_, description) in {**PARAMETERS, **BRIDGE_PARAMETERS}.items():
        assert len(description) > 10, name
    assert set(PARAMETERS) & set(BRIDGE_PARAMETERS) == {'autostart'}  # every node's
    assert set(PARAMETERS) | set(BRIDGE_PARAMETERS) == {
        f for f in Config.__dataclass_fields__}


@pytest.mark.parametrize('change, message', [
    ({'engine': 'ff'}, 'engine must be one of portfolio, lapkt'),
    ({'max_attempts': '3'}, 'max_attempts must be int'),
    ({'verify': 1}, 'verify must be bool'),
    ({'max_attempts': True}, 'max_attempts must be int'),
    ({'kg_update_sources': 'nl'}, 'kg_update_sources must be list'),
])
def test_a_bad_value_is_refused_naming_the_setting(change, message):
    with pytest.raises(ValueError, match=message):
        Config(**change)
    with pytest.raises(ValueError, match=message):
        Config().replace(**change)


def test_ints_are_accepted_for_floats_and_unknown_names_refused():
    assert Config(plan_timeout=5).plan_timeout == 5.0
    assert isinstance(Config(plan_timeout=5).plan_timeout, float)
    with pytest.raises(ValueError, match='unknown setting'):
        Config.from_params({'retreiver': 'link'})


def test_node_groups():
    assert config.node_parameters(config.PERCEPTION) == ('autostart', 'max_scene_entities',
                                                         'max_rate')
    planner = config.node_parameters(config.PLANNER)
    language = config.node_parameters(config.LANGUAGE)
    assert set(planner) - set(language) == {'max_replans', 'execute', 'execution_timeout',
                                            'confirm_plan', 'confirm_timeout',
                                            'apply_step_effects', 'patrol',
                                            'perception_config'}
    assert {'episodic_k', 'experience', 'answer_past', 'confirm', 'llm_cache'} <= set(language)
    assert 'initial_state' in config.node_parameters(config.WORLD)
    assert 'initial_state' not in language


def test_cli_defaults_come_from_the_config():
    args = build_parser().parse_args(['task', '--store', 'x.db', '--text', 't'])
    base = Config()
    assert (args.retriever, args.engine, args.max_attempts, args.plan_timeout, args.llm_timeout,
            args.report_timeout, args.episodic_k) == (
        base.retriever, base.engine, base.max_attempts, base.plan_timeout, base.llm_timeout,
        base.report_timeout, base.episodic_k)


def test_language_options_map_onto_the_config_with_the_stores_domain(tmp_path, monkeypatch):
    from l3mp_ros.cli.language_cmd import agent_config
    from l3mp_ros.paths import resolve
    from l3mp_ros.world.kg import KnowledgeGraph
    from l3mp_ros.world.stores import create_store

    for name in ('L3MP_LLM_URL', 'L3MP_LLM_MODEL', 'L3MP_LLM_CACHE'):
        monkeypatch.delenv(name, raising=False)
    domain = resolve('pddl/household.pddl').resolve()
    store = tmp_path / 'kg.db'
    create_store(store, KnowledgeGraph('household'), domain_path=str(domain),
                 constraints_path=str(domain.with_suffix('.constraints.yaml'))).close()
    args = build_parser().parse_args([
        'update', '--store', str(store), '--text', 't', '--attempts', '5', '--no-confirm',
        '--memory', '--retriever', 'search', '--llm', 'http://127.0.0.1:9/v1', '--model', 'm',
        '--timeout', '7', '--episodic-k', '2'])
    cfg = agent_config(args)
    assert (cfg.domain, cfg.constraints, cfg.store, cfg.initial_state) == (
        str(domain), str(domain.with_suffix('.constraints.yaml')), str(store), '')
    assert (cfg.max_attempts, cfg.confirm, cfg.verify, cfg.answer_past, cfg.retriever,
            cfg.llm_url, cfg.llm_model, cfg.plan_timeout, cfg.episodic_k) == (
        5, False, True, True, 'search', 'http://127.0.0.1:9/v1', 'm', 7.0, 2)
    local = agent_config(build_parser().parse_args(
        ['task', '--store', str(store), '--text', 't', '--llm', 'local']))
    assert (local.llm_url, local.llm_model, local.max_attempts) == ('', 'local', 3)


def test_every_setting_is_in_one_section_and_sections_are_views():
    from dataclasses import fields

    from l3mp_ros.agent.report.update import UpdateSettings
    from l3mp_ros.config import sections

    named = [n for names in sections().values() for n in names]
    assert sorted(named) == sorted(f.name for f in fields(Config))
    assert {'world', 'llm', 'language', 'memory', 'planning', 'bridge', 'node'} == set(sections())
    cfg = Config(max_report_facts=2, clarify=False, max_attempts=4)
    language = cfg.section('language')
    assert language['max_report_facts'] == 2 and 'engine' not in language
    with pytest.raises(TypeError):
        language['verify'] = False  # a view, not a second copy to keep in step
    with pytest.raises(KeyError):
        cfg.section('nope')
    settings = UpdateSettings.from_config(cfg)  # one name per setting, end to end
    assert (settings.max_report_facts, settings.clarify, settings.max_attempts) == (2, False, 4)
    assert UpdateSettings().max_report_facts == config.default('max_report_facts')
