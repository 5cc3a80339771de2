# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Several writers on one store: every commit is verified against the store's current state."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from l3mp_ros.compose import open_store_world
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.store import Store, StoreError

from .conftest import MINI_CONSTRAINTS, MINI_DOMAIN, MINI_STATE
from .store_checks import check_log

ITEMS = ('red_pen', 'blue_pen', 'dune')
LIGHT_OFF = Update.parse('REMOVE: (kitchen, lit, true) ADD: (kitchen, dark, true)')
PLACES = (('placed_at', 'kitchen_table'), ('placed_at', 'jerry_shelf'), ('in_hand', 'gary'),
          ('in_hand', 'jerry'), ('in_hand', 'the_robot'))


def _files(tmp_path: Path) -> tuple[Path, Path, Path]:
    dpath = tmp_path / 'mini.pddl'
    dpath.write_text(MINI_DOMAIN)
    cpath = tmp_path / 'mini.constraints.yaml'
    cpath.write_text(yaml.safe_dump(MINI_CONSTRAINTS))
    spath = tmp_path / 'kg.db'
    Store.create(spath, KnowledgeGraph.from_json(MINI_STATE), domain_path=str(dpath),
                 constraints_path=str(cpath)).close()
    return dpath, cpath, spath


def test_stale_writer_is_verified_against_the_current_state(tmp_path):
    _, _, spath = _files(tmp_path)
    a, b = open_store_world(spath), open_store_world(spath)
    heard = []
    b.listeners.append(lambda eid, r: heard.append((eid, r.applied, r.external)))
    move = Update.parse('REMOVE: (red_pen, in_hand, gary) ADD: (red_pen, in_hand, jerry)')
    first = a.apply(move, source='cli')
    assert first.applied
    # b still believes gary holds the pen: the same move would put it in two hands
    stale = Update.parse('REMOVE: (red_pen, in_hand, gary) '
                         'ADD: (red_pen, placed_at, kitchen_table)')
    second = b.apply(stale, source='node')
    assert not second.applied
    assert any('red_pen' in e for e in second.errors)
    # b caught up with a's commit first, and told its listeners it was external
    assert Fact('in_hand', ('red_pen', 'jerry')) in b.kg
    assert heard[0] == (first.event_id, True, True)
    assert heard[1] == (second.event_id, False, False)
    kg = Store(spath).load_kg()
    assert b.verifier.check_state(kg) == []
    assert kg.to_json() == b.kg.to_json()
    # the same REMOVE twice: only the first is applied, the log still replays
    light = Update.parse('REMOVE: (kitchen, lit, true) ADD: (kitchen, dark, true)')
    assert a.apply(light, source='cli').applied
    assert not b.apply(light, source='cli').applied
    a.close()
    b.close()


def test_refresh_follows_other_writers(tmp_path):
    _, _, spath = _files(tmp_path)
    reader, writer = open_store_world(spath), open_store_world(spath)
    assert reader.refresh() == 0
    writer.apply(Update.parse('REMOVE: (dune, placed_at, kitchen_table) '
                              'ADD: (dune, in_hand, gary)'), source='cli')
    writer.reject(['garbage'], source='nl')
    assert reader.refresh() == 1
    assert Fact('in_hand', ('dune', 'gary')) in reader.kg
    assert reader.refresh() == 0
    reader.close()
    writer.close()


def test_reinitialised_store_is_refused(tmp_path):
    dpath, cpath, spath = _files(tmp_path)
    world = open_store_world(spath)
    other = Store(spath)
    # another process runs "kg init" into the same file: an init event after ours
    other._conn.execute("INSERT INTO events (time, source, status) VALUES (0, 'init', 'init')")
    other.close()
    with pytest.raises(StoreError, match='re-initialised'):
        world.apply(LIGHT_OFF, source='cli')
    world.close()


LIBRARY_WRITER = textwrap.dedent("""
    import json, random, sys
    from l3mp_ros.world.kg import Fact, Update
    from l3mp_ros.compose import open_store_world
    items, places = json.loads(sys.argv[3]), json.loads(sys.argv[4])
    rng = random.Random(int(sys.argv[2]))
    world = open_store_world(sys.argv[1])  # one model for the whole run, as a node keeps it
    for n in range(300):
        if rng.random() < 0.5:
            world.refresh()
        item = rng.choice(items)
        cur = next(f for f in world.kg.facts_of(item)
                   if f.predicate in ('placed_at', 'in_hand') and f.args[0] == item)
        pred, place = rng.choice([p for p in places if p != [cur.predicate, cur.args[1]]])
        upd = Update.of([cur], [Fact(pred, (item, place))])
        res = world.apply(upd, source=f'lib{sys.argv[2]}')
        print(json.dumps({'n': n, **res.to_json()}), flush=True)
    world.close()
""")


def _cli_batch(rng_seed: int) -> str:
    """300 moves guessed without looking: many are stale and must be refused."""
    import random
    rng = random.Random(rng_seed)
    lines = []
    for _ in range(300):
        item = rng.choice(ITEMS)
        (p1, a1), (p2, a2) = rng.sample(PLACES, 2)
        lines.append(f'REMOVE: ({item}, {p1}, {a1}) ADD: ({item}, {p2}, {a2})')
    return '\n'.join(lines) + '\n'


def test_four_writers_keep_every_constraint_and_a_replayable_log(tmp_path):
    """4 processes x 300 updates on the same three items, CLI and library mixed."""
    _, _, spath = _files(tmp_path)
    env = os.environ.copy()
    root = str(Path(__file__).resolve().parent.parent)
    env['PYTHONPATH'] = root + os.pathsep + env.get('PYTHONPATH', '')
    cli = [sys.executable, '-c', 'import sys; from l3mp_ros.cli import main; sys.exit(main())']
    procs = []
    for seed in (1, 2):
        procs.append(subprocess.Popen(
            [sys.executable, '-c', LIBRARY_WRITER, str(spath), str(seed), json.dumps(ITEMS),
             json.dumps([list(p) for p in PLACES])],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env))
    batches = []
    for seed in (3, 4):
        batch = tmp_path / f'batch{seed}.txt'
        batch.write_text(_cli_batch(seed))
        batches.append(batch)
        procs.append(subprocess.Popen(
            cli + ['kg', 'apply', '--store', str(spath), '--batch', str(batch), '--json',
                   '--source', f'cli{seed}'],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env))
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (_, err) in zip(procs, outs, strict=True):
        assert p.returncode in (0, 1), err[-2000:]
    results = [[json.loads(x) for x in out.splitlines() if x.strip()] for out, _ in outs]
    assert all(len(r) == 300 for r in results)
    acked = [r for rs in results for r in rs if r['applied']]
    # each writer got some of its updates in (the test is not trivially all-rejected)
    assert all(sum(r['applied'] for r in rs) >= 5 for rs in results)

    check_log(spath, acked, MINI_STATE)
    rc = subprocess.run(cli + ['kg', 'verify', '--store', str(spath)], env=env,
                        capture_output=True, text=True)
    assert rc.returncode == 0, rc.stdout + rc.stderr


def test_a_store_replaced_under_a_writer_is_refused(tmp_path):
    _, _, spath = _files(tmp_path)
    world = open_store_world(spath)
    # "kg init --force" while the writer runs: a new file takes the path
    Store.create(spath, KnowledgeGraph.from_json(MINI_STATE), overwrite=True).close()
    with pytest.raises(StoreError, match='replaced or removed'):
        world.apply(LIGHT_OFF, source='cli')
    world.close()
    with Store(spath) as fresh:  # the new store is untouched
        assert [e.status for e in fresh.history()] == ['init']
