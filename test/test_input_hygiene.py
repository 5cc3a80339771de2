# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Bad input to the CLI: exit 2 with one line, nothing created or changed."""

import json

import pytest

from l3mp_ros.cli import main
from l3mp_ros.schemas import WireError, loads, nesting
from l3mp_ros.world.store import Store

DEEP = '[' * 5000 + ']' * 5000


@pytest.fixture
def store(tmp_path):
    path = tmp_path / 'kg.db'
    assert main(['kg', 'init', '--domain', 'pddl/household.pddl', '--from',
                 'config/household_state.json', '--store', str(path)]) == 0
    return path


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_loads_bounds_depth_and_size():
    assert nesting('{"a": "[[[[", "b": [[1]]}') == 3  # brackets inside strings do not count
    assert loads('{"a": [[1]]}') == {'a': [[1]]}
    with pytest.raises(WireError, match='nests deeper than 32'):
        loads('[' * 200_000 + ']' * 200_000)
    with pytest.raises(WireError, match='exceeds 10'):
        loads('[1, 2, 3, 4, 5, 6]', max_bytes=10)
    with pytest.raises(WireError, match='not JSON'):
        loads('{"a": ')


def test_deeply_nested_update_is_refused_and_changes_nothing(store, capsys):
    before = Store(store).history()
    code = main(['kg', 'apply', '--store', str(store), '--update',
                 json.dumps({'add': []})[:-1] + ', "remove": ' + DEEP + '}'])
    assert code == 2
    assert 'nests deeper' in _one_line_error(capsys)
    assert len(Store(store).history()) == len(before)


def test_deeply_nested_snapshot_creates_no_store(tmp_path, capsys):
    snap = tmp_path / 'deep.json'
    snap.write_text('{"schema": "l3mp/kg/v1", "entities": ' + DEEP + '}')
    target = tmp_path / 'new.db'
    code = main(['kg', 'init', '--domain', 'pddl/household.pddl', '--from', str(snap),
                 '--store', str(target)])
    assert code == 2
    assert 'nests deeper' in _one_line_error(capsys)
    assert not target.exists()


def test_a_batch_with_one_bad_line_applies_nothing(store, tmp_path, capsys):
    batch = tmp_path / 'batch.txt'
    batch.write_text('REMOVE: (kitchen_light, light_on, true) ADD:\n'
                     'REMOVE: (oops ADD:\n')
    before = len(Store(store).history())
    assert main(['kg', 'apply', '--store', str(store), '--batch', str(batch)]) == 2
    assert 'batch.txt:2' in _one_line_error(capsys)
    assert len(Store(store).history()) == before


def test_a_silent_llm_endpoint_ends_update_at_the_llm_timeout(store, capsys):
    import time

    from l3mp_ros.testing.fake_openai import FakeOpenAI

    before = Store(store).load_kg().to_json()
    with FakeOpenAI([{'content': 'late', 'delay': 30.0}] * 8) as fake:
        began = time.monotonic()
        code = main(['update', '--store', str(store), '--text', 'Anna went to the kitchen.',
                     '--retriever', 'full', '--llm', fake.base_url, '--model', 'fake',
                     '--llm-timeout', '1', '--report-timeout', '30'])
        elapsed = time.monotonic() - began
    assert code == 2
    line = _one_line_error(capsys)
    assert 'no answer within llm_timeout 1 s' in line
    assert elapsed < 15
    assert Store(store).load_kg().to_json() == before


@pytest.mark.parametrize('goal, why', [
    ('(:goal (light_on kitchen_light)) (:goal (light_on jerry_bedroom_light))', '2 formulas'),
    ('(light_on jerry_bedroom_light) and then wait', 'text outside the goal'),
    ('(and (light_on kitchen_light) (not (light_on kitchen_light)))', 'never hold'),
])
def test_a_goal_is_never_truncated_or_contradictory(store, capsys, goal, why):
    assert main(['plan', '--store', str(store), '--goal', goal]) == 2
    err = capsys.readouterr().err
    assert why in err and 'Error' not in err


@pytest.mark.parametrize('block, feature', [
    ('(:derived (dark ?r - room) (not (lit ?r)))', 'derived predicates'),
    ('(:process warm :parameters (?r - room) :precondition (lit ?r) '
     ':effect (dark ?r))', 'processes or events'),
])
def test_unsupported_pddl_is_refused_at_init_with_its_name(tmp_path, capsys, block, feature):
    functions = '(:functions (fuel ?r - room) - number)' if 'fuel' in block else ''
    domain = tmp_path / 'd.pddl'
    domain.write_text(f'(define (domain d) (:requirements :strips :typing) (:types room) '
                      f'(:predicates (lit ?r - room) (dark ?r - room)) {functions} {block})')
    state = tmp_path / 's.json'
    state.write_text(json.dumps({'schema': 'l3mp/kg/v1', 'domain': 'd', 'facts': [],
                                 'entities': [{'name': 'kitchen', 'type': 'room'}]}))
    target = tmp_path / 'kg.db'
    assert main(['kg', 'init', '--domain', str(domain), '--from', str(state),
                 '--store', str(target)]) == 2
    assert feature in _one_line_error(capsys)
    assert not target.exists()


def test_an_empty_file_is_not_turned_into_a_store(tmp_path, capsys):
    empty = tmp_path / 'empty.db'
    empty.write_bytes(b'')
    assert main(['kg', 'apply', '--store', str(empty), '--update',
                 'REMOVE: ADD: (kitchen_light, light_on, true)']) == 2
    assert 'empty file' in _one_line_error(capsys)
    assert empty.stat().st_size == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ['empty.db']


@pytest.fixture
def small_fs(tmp_path):
    """A 1 MB tmpfs (needs mount rights: root on these machines; skipped, saying so, else)."""
    import subprocess
    mnt = tmp_path / 'fs'
    mnt.mkdir()
    if subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', str(mnt)],
                      capture_output=True).returncode != 0:
        pytest.skip('cannot mount a tmpfs here (not root): full-disk and read-only cases '
                    'not exercised')
    yield mnt
    subprocess.run(['umount', '-l', str(mnt)], capture_output=True)


def _fill(path) -> None:
    """Write zeros to ``path`` until the filesystem is full."""
    import os
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b'\0' * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)


def _init(target):
    return main(['kg', 'init', '--domain', 'pddl/household.pddl', '--from',
                 'config/household_state.json', '--store', str(target), '--force'])


def test_a_full_disk_leaves_no_half_made_store_and_keeps_the_old_one(small_fs, capsys):
    target = small_fs / 'kg.db'
    assert _init(target) == 0
    capsys.readouterr()
    with Store(target) as st:
        before = st.load_kg().to_json()
    filler = small_fs / 'filler'
    _fill(filler)
    assert _init(target) == 2
    assert 'cannot create store' in _one_line_error(capsys)
    assert sorted(p.name for p in small_fs.iterdir()) == ['filler', 'kg.db']
    with Store(target) as st:  # still readable on the full disk, and unchanged
        assert st.load_kg().to_json() == before
    filler.unlink()
    missing = small_fs / 'new.db'
    _fill(small_fs / 'big')
    assert _init(missing) == 2
    assert not missing.exists()


def test_a_store_on_a_read_only_filesystem_can_be_read_not_written(small_fs, capsys):
    import subprocess
    target = small_fs / 'kg.db'
    assert _init(target) == 0
    subprocess.run(['mount', '-o', 'remount,ro', str(small_fs)], check=True)
    capsys.readouterr()
    assert main(['kg', 'show', '--store', str(target), '--summary']) == 0
    assert 'entities' in capsys.readouterr().out
    assert main(['kg', 'verify', '--store', str(target)]) == 0
    capsys.readouterr()
    assert main(['kg', 'apply', '--store', str(target), '--update',
                 'REMOVE: (kitchen_light, light_on, true) ADD:']) == 2
    assert 'can only be read here' in _one_line_error(capsys)


def _snapshot(tmp_path, entities, facts=()):
    path = tmp_path / 'state.json'
    path.write_text(json.dumps({'schema': 'l3mp/kg/v1', 'domain': 'household',
                                'entities': [{'name': n, 'type': t} for n, t in entities],
                                'facts': [list(f) for f in facts]}))
    return path


@pytest.mark.parametrize('entities, why', [
    ([('kitchen', 'room'), ('kitchen', 'bathroom')], 'listed twice'),
    ([('kitchen table', 'table')], 'not a PDDL name'),
    ([('lamp(1)', 'light')], 'not a PDDL name'),
    ([('\u212aitchen', 'room')], 'not a PDDL name'),
    ([('room', 'room')], 'named like a type'),
])
def test_bad_entity_names_are_refused_at_init(tmp_path, capsys, entities, why):
    target = tmp_path / 'kg.db'
    assert main(['kg', 'init', '--domain', 'pddl/household.pddl', '--from',
                 str(_snapshot(tmp_path, entities)), '--store', str(target)]) == 2
    assert why in _one_line_error(capsys)
    assert not target.exists()


def test_constraints_of_another_domain_are_refused(tmp_path, capsys):
    rules = tmp_path / 'other.yaml'
    rules.write_text('domain: office\nrules: []\n')
    assert main(['kg', 'init', '--domain', 'pddl/household.pddl', '--constraints', str(rules),
                 '--from', 'config/household_state.json',
                 '--store', str(tmp_path / 'kg.db')]) == 2
    assert 'for domain "office"' in _one_line_error(capsys)


@pytest.mark.parametrize('update, why', [
    ('REMOVE: ADD:', 'changes nothing'),
    ('REMOVE: (\u212aitchen_light, light_on, true) ADD:', 'not a PDDL name'),
])
def test_empty_or_unicode_folded_updates_are_refused_unlogged(store, capsys, update, why):
    before = len(Store(store).history())
    assert main(['kg', 'apply', '--store', str(store), '--update', update]) == 2
    assert why in _one_line_error(capsys)
    assert len(Store(store).history()) == before


def test_a_huge_rejected_update_prints_a_bounded_report(store, capsys):
    add = [[f'x{i}', 'light_on', 'true'] for i in range(10_000)]
    assert main(['kg', 'apply', '--store', str(store), '--update',
                 json.dumps({'remove': [], 'add': add})]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) <= 22 and err[-1].strip().startswith('- ... and ')
