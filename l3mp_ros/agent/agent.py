# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The L3M+P agent: one object wiring world model, LLM, retriever and planner.

Nodes and the CLI build an :class:`Agent` from an :class:`AgentConfig`; the
pipelines live in :mod:`.update` (Algorithm 3), :mod:`.task` (Algorithm 4) and
:mod:`.router`.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import paths
from ..llm.client import LLMClient, LLMConfig
from ..llm.protocol import Answer, Usage
from ..planning.planner import Planner
from ..retrieval import make_retriever
from ..retrieval.base import Retriever
from ..world.constraints import Constraints
from ..world.domain import DomainSchema
from ..world.kg import KnowledgeGraph
from ..world.model import WorldModel
from ..world.store import Store
from .router import QuestionAnswerer, Router
from .task import TaskOutcome, TaskPlanner
from .update import NLUpdater, UpdateOutcome


@dataclass
class AgentConfig:
    """Everything needed to build an agent (ROS parameters map 1:1 onto these)."""

    domain: str = 'pddl/household.pddl'
    constraints: str | None = None  # default: <domain>.constraints.yaml when it exists
    store: str | None = None  # None: in-memory KG only
    initial_state: str | None = None  # creates the store when it does not exist
    llm_url: str | None = None  # None / '' / 'local': embedded server
    llm_model: str = 'local'
    llm_api_key: str | None = None
    llm_timeout: float = 120.0  # seconds one LLM call may take, retries included
    report_timeout: float = 300.0  # seconds all LLM calls of one report/task/question may take
    max_report_facts: int = 8  # facts one NL report may state as changed (rule-implied aside)
    llm_cache: str | None = None
    retriever: str = 'link'
    retriever_params: dict[str, Any] = field(default_factory=dict)
    max_attempts: int = 3
    verify: bool = True
    confirm: bool = True  # a yes/no reading of every stated fact before applying
    engine: str = 'lapkt'
    plan_timeout: float = 30.0
    # lifelong memory (l3mp_ros.memory; needs a store): all off by default
    episodic_k: int = 0  # past episodes in the update/task prompts
    experience: bool = False  # strategies of solved tasks as worked examples
    answer_past: bool = False  # past-tense questions answered from episodes


def _constraints_path(domain_path: Path, given: str | None) -> Path | None:
    if given:
        return paths.resolve(given)
    candidate = domain_path.with_suffix('.constraints.yaml')
    return candidate if candidate.exists() else None


class Agent:
    """Facade over the pipelines; thread-safe for one writer via the world model."""

    def __init__(self, world: WorldModel, llm: Any, retriever: Retriever, planner: Planner,
                 *, max_attempts: int = 3, verify: bool = True, confirm: bool = True,
                 memory: Any = None, report_timeout: float | None = 300.0,
                 max_report_facts: int = 8) -> None:
        self.world = world
        self.report_timeout = report_timeout
        self.llm = llm
        self.retriever = retriever
        self.planner = planner
        self.memory = memory  # l3mp_ros.memory.hooks.Memory or None (off)
        if memory is not None:
            memory.attach(world)
        self.updater = NLUpdater(world, llm, retriever, max_attempts=max_attempts,
                                 max_changes=max_report_facts,
                                 verify=verify, confirm=confirm, memory=memory)
        self.tasks = TaskPlanner(world, llm, retriever, planner, max_attempts=max_attempts,
                                 memory=memory)
        self.router = Router(llm)
        self.answerer = QuestionAnswerer(llm, retriever, domain=world.domain.name)

    @classmethod
    def from_config(cls, cfg: AgentConfig, llm: Any = None) -> Agent:
        """Build the world model (opening or creating the store), LLM, retriever, planner."""
        dpath = paths.resolve(cfg.domain)
        domain = DomainSchema.load(dpath)
        cpath = _constraints_path(dpath, cfg.constraints)
        constraints = Constraints.load(cpath)
        if cfg.store:
            if not Path(cfg.store).exists():
                if not cfg.initial_state:
                    raise ValueError(f'no store at {cfg.store} and no initial_state to create it')
                kg = KnowledgeGraph.loads(paths.resolve(cfg.initial_state).read_text())
                Store.create(cfg.store, kg, domain_path=str(dpath),
                             constraints_path=str(cpath) if cpath else None).close()
            world = WorldModel(domain, constraints, store=Store(cfg.store))
        else:
            kg = (KnowledgeGraph.loads(paths.resolve(cfg.initial_state).read_text())
                  if cfg.initial_state else KnowledgeGraph(domain.name))
            world = WorldModel(domain, constraints, kg=kg)
        if llm is None:
            llm = LLMClient(LLMConfig(base_url=cfg.llm_url or None, model=cfg.llm_model,
                                      api_key=cfg.llm_api_key, timeout=cfg.llm_timeout,
                                      cache_dir=cfg.llm_cache))
        retriever = make_retriever(cfg.retriever, **cfg.retriever_params)
        planner = Planner(domain, engine=cfg.engine, timeout=cfg.plan_timeout)
        memory = None
        if cfg.store and (cfg.episodic_k > 0 or cfg.experience or cfg.answer_past):
            from ..memory.hooks import Memory, MemoryConfig
            memory = Memory(cfg.store, MemoryConfig(
                episodic_k=cfg.episodic_k, experience=cfg.experience,
                answer_past=cfg.answer_past), llm=llm, retriever=retriever,
                is_subtype=domain.is_subtype)
        return cls(world, llm, retriever, planner, max_attempts=cfg.max_attempts,
                   verify=cfg.verify, confirm=cfg.confirm, memory=memory,
                   report_timeout=cfg.report_timeout, max_report_facts=cfg.max_report_facts)

    def _budget(self) -> contextlib.AbstractContextManager[None]:
        """Bound the LLM calls of one request by ``report_timeout`` (if the client can)."""
        budget = getattr(self.llm, 'budget', None)
        return budget(self.report_timeout) if callable(budget) else contextlib.nullcontext()

    def update(self, text: str, source: str = 'nl') -> UpdateOutcome:
        """Algorithm 3 on one report."""
        with self._budget():
            return self.updater.run(text, source=source)

    def task(self, text: str, task_id: str | None = None) -> TaskOutcome:
        """Algorithm 4 on one NL task."""
        with self._budget():
            return self.tasks.run(text, task_id=task_id)

    def plan_goal(self, goal: str, task_id: str | None = None,
                  text: str | None = None) -> TaskOutcome:
        """Plan a PDDL goal (no LLM)."""
        return self.tasks.plan_goal(goal, task_id=task_id, text=text)

    def ask(self, text: str) -> Answer:
        """Answer a question from the KG (past-tense ones from episodes, if enabled)."""
        kg = self.world.snapshot()
        with self._budget():
            if self.memory is not None:
                past = self.memory.answer(kg, text)
                if past is not None:
                    return past
            return self.answerer.answer(kg, text)

    def route(self, text: str, usage: Usage | None = None) -> str:
        """Classify an utterance as ``report``, ``task`` or ``question``."""
        with self._budget():
            return self.router.classify(text, usage)

    def close(self) -> None:
        """Close the store and the LLM client."""
        if self.memory is not None:
            self.memory.close()
        self.world.close()
        close = getattr(self.llm, 'close', None)
        if callable(close):
            close()
