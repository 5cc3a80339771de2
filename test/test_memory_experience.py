# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Experience memory (strategies) and the vector index."""

import numpy as np

from l3mp_ros.memory.experience import (
    ExperienceMemory,
    abstract_goal,
    abstract_task,
    fill,
    instantiate,
)
from l3mp_ros.memory.index import VectorIndex, hnswlib_available

from .agent_fixtures import household_world

TASK = "Put the red pen on the shelf in Jerry's bedroom."
GOAL = '(and (placed_at_shelf red_pen jerry_bedroom_shelf))'


def test_type_abstraction_and_instantiation(tmp_path):
    world = household_world(tmp_path)
    kg = world.kg
    template, variables, bindings = abstract_goal(
        '(and (in_person_hand book_dune anna) (in_person_hand book_emma anna))', kg)
    assert template == '(and (in_person_hand ?book ?person) (in_person_hand ?book2 ?person))'
    assert variables == {'?book': 'book', '?person': 'person', '?book2': 'book'}
    assert fill(template, bindings) == ('(and (in_person_hand book_dune anna) '
                                        '(in_person_hand book_emma anna))')
    s = abstract_task(TASK, GOAL, kg)
    assert s.task_template == 'Put the <pen> on the shelf in <room>.'
    assert s.goal_template == '(and (placed_at_shelf ?pen ?shelf))'
    assert s.bindings == {'?pen': 'red_pen', '?shelf': 'jerry_bedroom_shelf'}
    # a new task: the pen is named, the shelf comes from retrieval
    inst = instantiate(s, kg, "Put the blue pen on the shelf in Anna's bedroom.",
                       retrieved=['anna_bedroom_shelf', 'anna_bedroom'])
    assert inst.complete and inst.goal == '(and (placed_at_shelf blue_pen anna_bedroom_shelf))'
    part = instantiate(s, kg, 'Put the blue pen away.')
    assert not part.complete and part.goal == '(and (placed_at_shelf blue_pen ?shelf))'
    world.close()


def test_record_merge_retrieve_and_persist(tmp_path):
    world = household_world(tmp_path)
    kg = world.kg
    path = world.store.path
    exp = ExperienceMemory(path)
    s1, merged = exp.record(TASK, GOAL, kg)
    assert not merged and s1.id
    s2, merged = exp.record("Put the blue pen on the shelf in Anna's bedroom.",
                            '(and (placed_at_shelf blue_pen anna_bedroom_shelf))', kg)
    assert merged and s2.id == s1.id and s2.successes == 2
    s3, merged = exp.record('Give the book Dune to Anna.', '(and (in_person_hand book_dune anna))',
                            kg)
    assert not merged and len(exp) == 2
    exp.close()
    world.close()
    exp = ExperienceMemory(path)  # reopened: strategies and vectors come from the store
    assert [s.successes for s in exp.all()] == [2, 1]
    hits = exp.retrieve('Hand the book Emma to Jerry.', kg)
    assert hits[0][0].goal_template == '(and (in_person_hand ?book ?person))'
    block = exp.prompt_block('Hand the book Emma to Jerry.', kg, ['jerry'])
    assert '(and (in_person_hand book_emma jerry))' in block
    exp.close()


def test_index_brute_force_and_hnsw_persistence(tmp_path):
    rng = np.random.default_rng(0)
    vecs = rng.normal(size=(3000, 32)).astype(np.float32)
    brute = VectorIndex(32, threshold=None)
    brute.add(list(range(3000)), vecs)
    assert brute.backend == 'brute'
    q = vecs[17] + 0.01
    assert brute.search(q, 1)[0][0] == 17
    assert 17 not in [i for i, _ in brute.search(q, 5, exclude=[17])]
    if not hnswlib_available():
        return
    ann = VectorIndex(32, threshold=1000, ann_path=tmp_path / 'x.hnsw')
    ann.add(list(range(2000)), vecs[:2000])
    assert ann.backend == 'hnsw' and ann.save()
    again = VectorIndex(32, threshold=1000, ann_path=tmp_path / 'x.hnsw')
    again.add(list(range(3000)), vecs)  # 1000 more since the save: added incrementally
    hits = again.search(vecs[2500], 3)
    assert hits[0][0] == 2500 and again.rebuilds == 0
    agree = sum(again.search(vecs[i] + 0.05, 1)[0][0] == brute.search(vecs[i] + 0.05, 1)[0][0]
                for i in range(0, 3000, 30))
    assert agree >= 95
