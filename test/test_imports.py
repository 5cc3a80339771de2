# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The import rules of CONTRIBUTING.md: no cycle between subpackages or modules, layers."""

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
           'config', 'schemas', 'nodes', 'ai2thor', 'testing', 'geometry', 'paths')


def test_the_runtime_never_imports_the_benchmarks():
    graph = layout.import_graph(PACKAGE)
    for name in RUNTIME:
        assert 'l3mp_ros.bench' not in set(graph.successors(f'l3mp_ros.{name}')), name
    assert set(graph.predecessors('l3mp_ros.bench')) <= {'l3mp_ros.cli'}


def test_every_subpackage_is_classified():
    graph = layout.import_graph(PACKAGE)
    assert {n.split('.', 1)[1] for n in graph.nodes} == set(RUNTIME) | {'bench', 'cli'}
