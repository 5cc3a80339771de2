# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The PostgreSQL store on a real server (loopback, pgserver's binaries): the write contract."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from pathlib import Path

import pytest
import yaml

from l3mp_ros.compose import open_store_world
from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros.world.pgstore import PgStore, redact
from l3mp_ros.world.store import StoreError
from l3mp_ros.world.stores import create_store, open_store, store_exists

from .conftest import MINI_CONSTRAINTS, MINI_DOMAIN, MINI_STATE
from .pg_fixtures import postgres  # noqa: F401 (the session's server)
from .store_checks import check_log

ROOT = Path(__file__).resolve().parent.parent
ITEMS = ('red_pen', 'blue_pen', 'dune')
PLACES = (('placed_at', 'kitchen_table'), ('placed_at', 'jerry_shelf'), ('in_hand', 'gary'),
          ('in_hand', 'jerry'), ('in_hand', 'the_robot'))
LIGHT_OFF = Update.parse('REMOVE: (kitchen, lit, true) ADD: (kitchen, dark, true)')


@pytest.fixture
def files(tmp_path):
    dpath = tmp_path / 'mini.pddl'
    dpath.write_text(MINI_DOMAIN)
    cpath = tmp_path / 'mini.constraints.yaml'
    cpath.write_text(yaml.safe_dump(MINI_CONSTRAINTS))
    return dpath, cpath


@pytest.fixture
def url(postgres, files):  # noqa: F811
    """A fresh database holding the mini household store."""
    db = postgres.create_database('t_' + uuid.uuid4().hex[:12])
    dpath, cpath = files
    create_store(db, KnowledgeGraph.from_json(MINI_STATE), domain_path=str(dpath),
                 constraints_path=str(cpath)).close()
    return db


def _env() -> dict:
    env = os.environ.copy()
    env['PYTHONPATH'] = str(ROOT) + os.pathsep + env.get('PYTHONPATH', '')
    return env


def test_a_store_round_trips_and_records_the_writer(url):
    world = open_store_world(url, writer='/robot1')
    move = Update.parse('REMOVE: (red_pen, in_hand, gary) ADD: (red_pen, in_hand, jerry)')
    res = world.apply(move, source='nl', utterance='Gary gave Jerry the red pen')
    assert res.applied and res.event_id == 2
    bad = world.apply(Update.parse('ADD: (red_pen, in_hand, gary)'), source='nl')
    assert not bad.applied and bad.event_id == 3
    world.close()
    with open_store(url) as store:
        events = store.history()
        assert [(e.id, e.status) for e in events] == [(1, 'init'), (2, 'applied'),
                                                      (3, 'rejected')]
        assert events[1].info['writer'] == '/robot1'
        assert events[1].update == move and events[1].utterance.startswith('Gary')
        kg = store.load_kg()
    assert Fact('in_hand', ('red_pen', 'jerry')) in kg
    assert Fact('in_hand', ('red_pen', 'gary')) not in kg
    again = open_store_world(url)
    assert again.kg.to_json() == kg.to_json()
    again.close()


def test_bad_locations_fail_clearly_and_create_nothing(postgres, files):  # noqa: F811
    down = 'postgresql://robot:s3cret@127.0.0.1:9/kg'
    with pytest.raises(StoreError, match='cannot connect') as err:
        open_store(down)
    assert 's3cret' not in str(err.value) and 'robot:***@' in str(err.value)
    assert redact(down) == 'postgresql://robot:***@127.0.0.1:9/kg'
    empty = postgres.create_database('t_' + uuid.uuid4().hex[:12])
    assert not store_exists(empty)
    with pytest.raises(StoreError, match='no store at'):
        open_store(empty)
    assert not store_exists(empty)
    import psycopg
    with psycopg.connect(empty, autocommit=True) as conn:
        conn.execute('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)')
        conn.execute("INSERT INTO meta VALUES ('schema_version', '99')")
    with pytest.raises(StoreError, match='schema version'):
        open_store(empty)
    with pytest.raises(StoreError, match='holds a store already'):
        create_store(empty, KnowledgeGraph.from_json(MINI_STATE))


def test_a_reinitialised_store_is_refused(url, files):
    world = open_store_world(url)
    create_store(url, KnowledgeGraph.from_json(MINI_STATE), overwrite=True).close()
    with pytest.raises(StoreError, match='re-initialised'):
        world.apply(LIGHT_OFF, source='cli')
    world.close()
    with open_store(url) as fresh:
        assert [e.status for e in fresh.history()] == ['init']


def test_a_stale_writer_is_verified_against_the_current_state(url):
    a, b = open_store_world(url, writer='/a'), open_store_world(url, writer='/b')
    move = Update.parse('REMOVE: (red_pen, in_hand, gary) ADD: (red_pen, in_hand, jerry)')
    assert a.apply(move, source='nl').applied
    stale = Update.parse('REMOVE: (red_pen, in_hand, gary) '
                         'ADD: (red_pen, placed_at, kitchen_table)')
    assert not b.apply(stale, source='nl').applied
    assert Fact('in_hand', ('red_pen', 'jerry')) in b.kg  # b caught up inside its lock
    a.close()
    b.close()


WRITER = textwrap.dedent("""
    import json, random, sys
    from l3mp_ros.world.kg import Fact, Update
    from l3mp_ros.compose import open_store_world
    url, seed, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    items, places = json.loads(sys.argv[4]), json.loads(sys.argv[5])
    rng = random.Random(seed)
    world = open_store_world(url, writer=f'/robot{seed}')
    for i in range(n):
        if rng.random() < 0.3:  # sometimes move from a stale view: must be refused
            cur_pred, cur_place = rng.choice(places)
            item = rng.choice(items)
            cur = Fact(cur_pred, (item, cur_place))
        else:
            world.refresh()
            item = rng.choice(items)
            cur = next(f for f in world.kg.facts_of(item)
                       if f.predicate in ('placed_at', 'in_hand') and f.args[0] == item)
        pred, place = rng.choice([p for p in places if p != [cur.predicate, cur.args[1]]])
        res = world.apply(Update.of([cur], [Fact(pred, (item, place))]), source='nl')
        print(json.dumps({'i': i, **res.to_json()}), flush=True)  # acknowledged
    world.close()
""")


def _writer(url: str, seed: int, n: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, '-c', WRITER, url, str(seed), str(n), json.dumps(ITEMS),
         json.dumps([list(p) for p in PLACES])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())


def _check_log(url: str, acked: list[dict]) -> None:
    check_log(url, acked, MINI_STATE, exact=False)


def test_two_processes_of_500_updates_on_the_same_items(url):
    procs = [_writer(url, seed, 500) for seed in (1, 2)]
    outs = [p.communicate(timeout=900) for p in procs]
    for p, (_, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err[-2000:]
    results = [[json.loads(x) for x in out.splitlines() if x.strip()] for out, _ in outs]
    assert [len(r) for r in results] == [500, 500]
    assert all(sum(r['applied'] for r in rs) >= 50 for rs in results)
    assert all(sum(not r['applied'] for r in rs) >= 20 for rs in results)
    acked = [r for rs in results for r in rs]
    _check_log(url, acked)
    with open_store(url) as store:  # nothing but what was acknowledged was written
        events = store.history()
    assert len(events) == 1 + 1000
    writers = {e.info.get('writer') for e in events if e.status != 'init'}
    assert writers == {'/robot1', '/robot2'}


def test_kill_9_of_a_writer_loses_nothing_acknowledged(url):
    victim = _writer(url, 7, 100_000)
    other = _writer(url, 8, 300)
    acked: list[dict] = []
    while len(acked) < 150:
        line = victim.stdout.readline()
        assert line, victim.stderr.read()[-2000:]
        acked.append(json.loads(line))
    os.kill(victim.pid, signal.SIGKILL)
    rest = victim.stdout.read()  # lines printed before the kill are acknowledged too
    acked += [json.loads(x) for x in rest.splitlines() if x.strip()]
    victim.wait(timeout=30)
    out, err = other.communicate(timeout=600)
    assert other.returncode == 0, err[-2000:]
    acked += [json.loads(x) for x in out.splitlines() if x.strip()]
    _check_log(url, acked)
    # the survivor and new writers go on writing after the kill
    world = open_store_world(url)
    assert world.apply(LIGHT_OFF, source='cli').applied
    world.close()


def test_listeners_are_woken_by_commits_and_catch_up_after_a_cut(url, postgres):  # noqa: F811
    follower = open_store_world(url)
    listener = follower.store.listen()
    writer = open_store_world(url, writer='/other')
    seen: list[int] = []
    follower.listeners.append(lambda eid, r: seen.append(eid))
    stop = threading.Event()

    def follow() -> None:
        while not stop.is_set():
            if listener.wait(0.5):
                follower.refresh()

    thread = threading.Thread(target=follow, daemon=True)
    thread.start()
    moves = ['REMOVE: (dune, placed_at, kitchen_table) ADD: (dune, in_hand, gary)',
             'REMOVE: (dune, in_hand, gary) ADD: (dune, in_hand, jerry)']
    for text in moves:
        assert writer.apply(Update.parse(text), source='nl').applied
    _wait(lambda: len(seen) == 2)
    assert seen == [2, 3]
    postgres.kill_backends()  # the server drops every connection: the listener reconnects
    writer.close()
    writer = open_store_world(url, writer='/other')
    for text in ('REMOVE: (dune, in_hand, jerry) ADD: (dune, in_hand, gary)', ):
        assert writer.apply(Update.parse(text), source='nl').applied
    _wait(lambda: len(seen) == 3)
    assert seen == [2, 3, 4] and listener.reconnects >= 1
    stop.set()
    thread.join(5)
    listener.close()
    writer.close()


def _wait(cond, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.05)
    assert cond()


def test_the_cli_works_on_a_postgres_store(postgres, files):  # noqa: F811
    dpath, cpath = files
    db = postgres.create_database('t_' + uuid.uuid4().hex[:12])
    state = Path(files[0]).parent / 'state.json'
    state.write_text(json.dumps(MINI_STATE))
    cli = [sys.executable, '-c', 'import sys; from l3mp_ros.cli import main; sys.exit(main())']

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(cli + list(args), capture_output=True, text=True, env=_env(),
                              timeout=120)
    assert run('kg', 'init', '--domain', str(dpath), '--constraints', str(cpath), '--from',
               str(state), '--store', db).returncode == 0
    done = run('kg', 'apply', '--store', db, '--update', LIGHT_OFF.text())
    assert done.returncode == 0, done.stderr
    done = run('kg', 'history', '--store', db, '--json')
    assert [e['status'] for e in json.loads(done.stdout)] == ['init', 'applied']
    assert run('kg', 'verify', '--store', db).returncode == 0
    again = run('kg', 'init', '--domain', str(dpath), '--from', str(state), '--store', db)
    assert again.returncode == 2 and 'already' in again.stderr
    assert isinstance(PgStore(db).last_event_id(), int)


def test_robots_starting_together_create_the_store_once(postgres, files):  # noqa: F811
    from l3mp_ros.compose import open_world
    from l3mp_ros.config import Config

    dpath, cpath = files
    state = Path(dpath).parent / 'state.json'
    state.write_text(json.dumps(MINI_STATE))
    db = postgres.create_database('t_' + uuid.uuid4().hex[:12])
    cfg = Config(domain=str(dpath), constraints=str(cpath), store=db,
                 initial_state=str(state))
    barrier = threading.Barrier(4)
    worlds, errors = [], []

    def start(k: int) -> None:
        barrier.wait()
        try:
            worlds.append(open_world(cfg, writer=f'/robot{k}'))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=start, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == [] and len(worlds) == 4
    with open_store(db) as store:
        assert [e.status for e in store.history()] == ['init']
    assert len({w.store._store_id for w in worlds}) == 1
    for w in worlds:
        w.close()
