# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The import rules of CONTRIBUTING.md: no cycle between subpackages or modules, layers."""

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / 'l3mp_ros'


def _layout():
    spec = importlib.util.spec_from_file_location('l3mp_layout', ROOT / 'tools' / 'layout.py')
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault('l3mp_layout', module)
    spec.loader.exec_module(module)
    return module


layout = _layout()


def test_no_import_cycle_between_subpackages():
    assert layout.cycles(layout.import_graph(PACKAGE)) == []


def test_no_import_cycle_between_modules():
    assert layout.cycles(layout.import_graph(PACKAGE, modules_too=True)) == []


def test_the_cycle_check_sees_lazy_and_relative_imports(tmp_path):
    pkg = tmp_path / 'pkg'
    for sub, body in (('a', 'def f():\n    from ..b.mod import g\n'),
                      ('b', 'from pkg.a import mod\n')):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / '__init__.py').write_text('')
        (pkg / sub / 'mod.py').write_text(body)
    (pkg / '__init__.py').write_text('')
    graph = layout.import_graph(pkg)
    assert layout.cycles(graph) == [['pkg.a', 'pkg.b']]
    modules = layout.import_graph(pkg, modules_too=True)
    assert layout.cycles(modules) == [['pkg.a.mod', 'pkg.b.mod']]


@pytest.mark.parametrize('lower', ['world', 'llm', 'schemas'])
def test_lower_layers_do_not_import_the_pipelines(lower):
    graph = layout.import_graph(PACKAGE)
    above = {'l3mp_ros.agent', 'l3mp_ros.memory', 'l3mp_ros.nodes', 'l3mp_ros.cli'}
    assert not set(graph.successors(f'l3mp_ros.{lower}')) & above


RUNTIME = ('world', 'llm', 'planning', 'retrieval', 'memory', 'agent', 'tasking', 'compose',
           'config', 'schemas', 'nodes', 'ai2thor', 'geometry', 'paths', 'text',
           'stages')
BENCH = ROOT / 'l3mp_ros_bench'


def _absolute_imports(root):
    for path in root.rglob('*.py'):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                yield path, [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                yield path, [node.module]


def test_the_runtime_never_imports_the_benchmarks():
    # the CLI finds the bench verbs by the package's name, as a plug-in, not by an import
    found = [(str(path.relative_to(ROOT)), name) for path, names in _absolute_imports(PACKAGE)
             for name in names if name.split('.')[0] == 'l3mp_ros_bench']
    assert found == []


def test_only_tests_use_the_test_helpers():
    graph = layout.import_graph(PACKAGE)
    assert set(graph.predecessors('l3mp_ros.testing')) == set()
    assert set(graph.successors('l3mp_ros.testing')) == set()


def test_the_benchmarks_have_no_import_cycle():
    assert layout.cycles(layout.import_graph(BENCH, modules_too=True)) == []


def test_every_subpackage_is_classified():
    graph = layout.import_graph(PACKAGE)
    assert {n.split('.', 1)[1] for n in graph.nodes} == set(RUNTIME) | {'cli', 'testing'}


AGENT_ROOMS = ('core', 'report', 'task')


def _agent_room(module):
    parts = module.split('.')
    if parts[:2] != ['l3mp_ros', 'agent']:
        return None
    return parts[2] if len(parts) > 3 and parts[2] in AGENT_ROOMS else 'top'


def test_agent_rooms_keep_their_floors():
    # agent/: core below report and task, which never import each other; agent.py and
    # router.py on top (CONTRIBUTING.md, "Import rules")
    allowed = {'core': {'core'}, 'report': {'core', 'report'}, 'task': {'core', 'task'},
               'top': {'core', 'report', 'task', 'top'}}
    graph = layout.import_graph(PACKAGE, modules_too=True)
    wrong = sorted((a, b) for a, b in graph.edges
                   if (ra := _agent_room(a)) and (rb := _agent_room(b))
                   and rb not in allowed[ra])
    assert wrong == []
    rooms = {_agent_room(m) for m in graph.nodes} - {None}
    assert rooms == {'top', *AGENT_ROOMS}  # the rule is not vacuous


def test_the_agent_room_rule_sees_a_crossing():
    assert _agent_room('l3mp_ros.agent.report.update') == 'report'
    assert _agent_room('l3mp_ros.agent.router') == 'top'
    assert _agent_room('l3mp_ros.agent.task') == 'top'  # the package itself
    assert _agent_room('l3mp_ros.world.kg') is None


def test_no_two_classes_of_agent_share_a_name():
    # a check or a reading is found by its name (issue 68): one class per name in agent/
    seen: dict[str, list[str]] = {}
    for path in sorted((PACKAGE / 'agent').rglob('*.py')):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                seen.setdefault(node.name, []).append(str(path.relative_to(PACKAGE)))
    assert len(seen) > 50
    assert {n: p for n, p in seen.items() if len(p) > 1} == {}
