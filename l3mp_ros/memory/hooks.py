# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The :class:`Memory` facade the agent's pipelines call (all of it off by default).

- ``episodic_k > 0``: the NL update and task prompts get the top-k relevant past episodes.
- ``experience``: solved tasks are stored as strategies; the goal prompt gets up to
  ``experience_k`` worked examples.
- ``answer_past``: past-tense questions are answered from episodes (:mod:`.qa`).

Episodes are synced from the store's events after every applied update (a world-model
listener) and before every read, so nothing depends on the listener having run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..llm.protocol import ChatLLM
from ..planning.status import Status
from ..retrieval.base import Retriever
from ..world.kg import Fact, KnowledgeGraph
from .episodic import EpisodicMemory, sync_listener
from .experience import ExperienceMemory
from .index import DEFAULT_THRESHOLD
from .qa import PastAnswer, PastAnswerer, is_past_question


@dataclass
class MemoryConfig:
    """Switches of the lifelong memory (ROS parameters map 1:1 onto these)."""

    episodic_k: int = 0  # episodes in the update/task prompts (0 = off)
    recent_window: int = 5  # newest episodes excluded from episodic search
    alpha: float = 0.5  # weight of the AriGraph score vs embedding similarity
    experience: bool = False  # store and retrieve strategies of solved tasks
    experience_k: int = 3
    theta: float = 0.8  # merge strategies at least this similar (same goal template)
    answer_past: bool = False  # answer past-tense questions from episodes
    index_threshold: int = DEFAULT_THRESHOLD  # HNSW from this many items on

    @property
    def enabled(self) -> bool:
        """Return True when any part of the memory is on."""
        return self.episodic_k > 0 or self.experience or self.answer_past


class Memory:
    """Episodic + experience memory on one store file."""

    def __init__(self, store_path: str, config: MemoryConfig, *, embedder: Any = None,
                 llm: ChatLLM | None = None, retriever: Retriever | None = None,
                 is_subtype: Any = None, domain: Any = None, events: Any = None) -> None:
        self.config = config
        self.is_subtype = is_subtype
        self.episodic = EpisodicMemory(store_path, events=events, embedder=embedder,
                                       alpha=config.alpha,
                                       recent=config.recent_window,
                                       threshold=config.index_threshold)
        self.episodic.sync()
        self.experience = (ExperienceMemory(store_path, embedder=embedder,
                                            k=config.experience_k, theta=config.theta,
                                            threshold=config.index_threshold)
                           if config.experience else None)
        self.answerer = PastAnswerer(self.episodic, llm, retriever, domain=domain)

    def attach(self, world: Any) -> None:
        """Sync episodes after every applied update of a world model."""
        world.listeners.append(sync_listener(self.episodic))

    # -- prompt context ----------------------------------------------------------------
    def update_context(self, text: str, facts: Iterable[Fact]) -> str:
        """Return the episodes block for an NL update prompt ('' when off)."""
        if self.config.episodic_k <= 0:
            return ''
        self.episodic.sync()
        return self.episodic.prompt_block(text, facts, self.config.episodic_k)

    def task_context(self, kg: KnowledgeGraph, text: str, facts: Iterable[Fact],
                     entities: Iterable[str]) -> str:
        """Return the episodes and worked-examples blocks for a goal prompt."""
        blocks = [self.update_context(text, facts)]
        if self.experience is not None:
            blocks.append(self.experience.prompt_block(text, kg, entities, self.is_subtype))
        return ''.join(b for b in blocks if b)

    def task_done(self, text: str, goal: str | None, status: str, kg: KnowledgeGraph) -> None:
        """Distil a strategy from a task whose plan succeeded."""
        if self.experience is not None and goal and status == Status.SOLVED:
            self.experience.record(text, goal, kg)

    # -- questions -------------------------------------------------------------------
    def answer(self, kg: KnowledgeGraph, question: str, *, force: bool = False,
               use_llm: bool | None = None) -> PastAnswer | None:
        """Answer a past-tense question (or any, with ``force``); None when not one."""
        if not (force or (self.config.answer_past and is_past_question(question))):
            return None
        return self.answerer.answer(kg, question, use_llm=use_llm)

    def close(self) -> None:
        """Save indexes and close the connections."""
        self.episodic.close()
        if self.experience is not None:
            self.experience.close()
