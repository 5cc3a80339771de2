# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Static checks of the launch files (launch/launch_ros have no wheels here) and config."""

import ast
import re
from glob import glob
from pathlib import Path

import pytest
import yaml

from l3mp_ros.config import BRIDGE_PARAMETERS, PARAMETERS, Config

ROOT = Path(__file__).resolve().parent.parent
LAUNCH = sorted((ROOT / 'launch').glob('*.launch.py'))


def console_scripts() -> set[str]:
    text = (ROOT / 'setup.py').read_text()
    nodes = set(re.findall(r"'(\w+_node)'", text))
    return nodes | set(re.findall(r"'(\w+) = l3mp_ros", text))


def installed_files() -> set[str]:
    tree = ast.parse((ROOT / 'setup.py').read_text())
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, 'id', '') == 'glob':
            pattern = node.args[0].value
            out |= {str(Path(p)) for p in glob(str(ROOT / pattern))}
    return {str(Path(p).relative_to(ROOT)) for p in out}


def calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)
            and (getattr(n.func, 'id', None) == name or getattr(n.func, 'attr', None) == name)]


def kw(call: ast.Call, name: str) -> ast.AST | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def test_there_are_launch_files():
    assert {p.name for p in LAUNCH} == {'l3mp.launch.py', 'ai2thor.launch.py'}


@pytest.mark.parametrize('path', LAUNCH, ids=lambda p: p.name)
def test_launch_file_is_consistent_with_setup(path):
    tree = ast.parse(path.read_text())
    assert any(isinstance(n, ast.FunctionDef) and n.name == 'generate_launch_description'
               for n in tree.body)
    # executables: the NODES tuple feeds Node(executable=...)
    nodes = next(n.value for n in tree.body if isinstance(n, ast.Assign)
                 and n.targets[0].id == 'NODES')
    names = {e.value for e in nodes.elts}
    assert names and names <= console_scripts()
    for call in calls(tree, 'Node'):
        assert ast.unparse(kw(call, 'package')) == "'l3mp_ros'"
        assert kw(call, 'namespace') is not None
    # arguments have defaults and include namespace / params_file
    args = {}
    for call in calls(tree, 'DeclareLaunchArgument'):
        args[call.args[0].value] = kw(call, 'default_value')
    assert {'namespace', 'params_file'} <= set(args)
    assert all(v is not None for v in args.values())
    # every file named is installed by setup.py data_files
    installed = installed_files()
    for call in calls(tree, 'join'):
        parts = [a.value for a in call.args if isinstance(a, ast.Constant)]
        if parts and parts[0] in ('config', 'pddl', 'launch'):
            assert '/'.join(parts) in installed, parts
    for const in ast.walk(tree):
        if isinstance(const, ast.Constant) and isinstance(const.value, str) and re.match(
                r'^(pddl|config)/[\w.]+$', const.value):
            assert const.value in installed, const.value


def test_params_yaml_covers_every_parameter():
    data = yaml.safe_load((ROOT / 'config' / 'l3mp.yaml').read_text())
    params = data['/**']['ros__parameters']
    assert set(params) == set(PARAMETERS)
    for name, value in params.items():
        assert type(value) is type(PARAMETERS[name][0]), name
    assert Config.from_params(params) == Config()  # the file states the defaults
    assert 'config/l3mp.yaml' in installed_files()
    assert 'config/household_perception.yaml' in installed_files()


def test_launch_files_set_no_parameter_beside_the_params_file():
    """The params file is the one source of truth: no literal overrides after it."""
    for path in LAUNCH:
        tree = ast.parse(path.read_text())
        for call in calls(tree, 'Node'):
            assert ast.unparse(kw(call, 'parameters')) == \
                "[params_file, {'autostart': autostart}]", path.name
        args = {c.args[0].value for c in calls(tree, 'DeclareLaunchArgument')}
        assert args == {'namespace', 'params_file', 'autostart'}, path.name


def test_ai2thor_params_file_is_complete_and_consistent():
    from l3mp_ros.world.domain import DomainSchema
    from l3mp_ros.world.perceive import load_perceivable

    params = yaml.safe_load((ROOT / 'config' / 'ai2thor.yaml').read_text())[
        '/**']['ros__parameters']
    expected = {**PARAMETERS, **BRIDGE_PARAMETERS}
    assert set(params) == set(expected)
    for name, value in params.items():
        assert type(value) is type(expected[name][0]), name
    assert params['domain'] == 'pddl/ai2thor.pddl' and params['apply_step_effects'] is False
    Config.from_params(params)  # every value of the right type and choice
    domain = DomainSchema.load(ROOT / params['domain'])
    assert load_perceivable(ROOT / params['perception_config']) <= set(domain.predicates)
    assert (ROOT / params['types_config']).exists()
    assert 'config/ai2thor.yaml' in installed_files()


def test_perception_files_are_plain_data_not_ros_parameter_files():
    for path in (ROOT / 'config').glob('*_perception.yaml'):
        data = yaml.safe_load(path.read_text())
        assert set(data) == {'perceivable_predicates', 'patrol'}, path.name
        from l3mp_ros.tasking.patrol import load_patrol_spec
        assert load_patrol_spec(path) is not None, path.name


def entry_points() -> dict[str, str]:
    """Map every console script of setup.py to its module (``pkg.mod:func`` → file)."""
    text = (ROOT / 'setup.py').read_text()
    out = {n: f'l3mp_ros.nodes.{n}' for n in re.findall(r"'(\w+_node)'", text)}
    out.update(dict(re.findall(r"'(\w+) = (l3mp_ros[\w.]*):main'", text)))
    return out


def test_every_console_script_module_has_main():
    scripts = entry_points()
    assert set(scripts) == console_scripts()
    for name, module in scripts.items():
        path = ROOT.joinpath(*module.split('.')).with_suffix('.py')
        if not path.exists():
            path = ROOT.joinpath(*module.split('.'), '__init__.py')
        assert path.exists(), f'{name}: no module {module}'
        tree = ast.parse(path.read_text())
        assert any(isinstance(n, ast.FunctionDef) and n.name == 'main' for n in tree.body), name
