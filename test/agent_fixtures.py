# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Helpers for agent tests: a household world on a real store and a scripted LLM."""

from __future__ import annotations

import json
import math
from pathlib import Path

from l3mp_ros.llm.client import LLMClient, LLMConfig
from l3mp_ros.world.constraints import Constraints
from l3mp_ros.world.domain import DomainSchema
from l3mp_ros.world.kg import KnowledgeGraph, Update
from l3mp_ros.world.model import WorldModel
from l3mp_ros.world.store import Store

ROOT = Path(__file__).resolve().parent.parent
DOMAIN = ROOT / 'pddl' / 'household.pddl'
CONSTRAINTS = ROOT / 'pddl' / 'household.constraints.yaml'
STATE = ROOT / 'config' / 'household_state.json'


def household_world(tmp_path: Path, without: tuple[list[str], ...] = ()) -> WorldModel:
    """Return the household world on a store in ``tmp_path``, less the facts ``without``."""
    state = json.loads(STATE.read_text())
    state['facts'] = [f for f in state['facts'] if f not in without]
    kg = KnowledgeGraph.from_json(state)
    store = Store.create(tmp_path / 'kg.db', kg, domain_path=str(DOMAIN),
                         constraints_path=str(CONSTRAINTS))
    return WorldModel(DomainSchema.load(DOMAIN), Constraints.load(CONSTRAINTS), store=store)


def dev_world(tmp_path: Path, name: str, before: int = 1) -> WorldModel:
    """Return the world of a development set (``benchmarks/data/dev/NAME``) just before its
    report ``before`` (1-based): its start with the gold changes of the reports before it
    applied, as the benchmark runs it."""
    where = Path(__file__).resolve().parents[1] / 'benchmarks/data/dev' / name
    kg = KnowledgeGraph.from_json(json.loads((where / 'state.json').read_text()))
    for rep in json.loads((where / 'nl_updates.json').read_text())[:before - 1]:
        kg.apply(Update.from_json({'remove': rep['remove'], 'add': rep['add']}))
    store = Store.create(tmp_path / 'kg.db', kg, domain_path=str(where / 'domain.pddl'),
                         constraints_path=str(where / 'domain.constraints.yaml'))
    return WorldModel(DomainSchema.load(where / 'domain.pddl'),
                      Constraints.load(where / 'domain.constraints.yaml'), store=store)


def client(fake, timeout: float = 5.0, retries: int = 1) -> LLMClient:
    return LLMClient(LLMConfig(base_url=fake.base_url, model='fake', timeout=timeout,
                               max_retries=retries, backoff=0.01))


def upd(remove=(), add=()) -> dict:
    return {'remove': [list(t) for t in remove], 'add': [list(t) for t in add]}


def read_back_reply(p_yes: float, answer: str = 'yes') -> dict:
    """A scripted read-back answer whose answering token had probability ``p_yes`` of "yes"."""
    top = [['yes', math.log(p_yes)], ['no', math.log(1 - p_yes)]]
    return {'content': {'answer': answer},
            'logprobs': [['{"', [['{"', -0.1]]], ['answer', [['answer', 0.0]]],
                         ['":', [['":', 0.0]]], [' "', [[' "', 0.0]]], [answer, top],
                         ['"}', [['"}', 0.0]]]]}


def reported(tmp_path: Path, script: list, report: str, **settings):
    """Return (world, fake, updater, outcome) once the household updater read ``report``.

    The endpoint ``fake`` (started: the caller stops it) answers from ``script``; the
    read-back and the place check are off, ``settings`` set on the updater beside them.
    """
    from l3mp_ros.agent.report.update import NLUpdater
    from l3mp_ros.retrieval.full import FullRetriever
    from l3mp_ros.testing import FakeOpenAI

    world = household_world(tmp_path)
    fake = FakeOpenAI(list(script))
    fake.__enter__()
    updater = NLUpdater(world, client(fake), FullRetriever())
    s = updater.settings
    s.confirm, s.place_check = False, False
    for name, value in settings.items():
        setattr(s, name, value)
    return world, fake, updater, updater.run(report)
