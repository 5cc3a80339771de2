# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Lifelong memory beyond the world state: episodes (what happened), strategies (what worked).

- :mod:`.episodic`: every applied update of the store is an episode linked to the facts it
  added and removed (AriGraph's episodic vertices and edges); episodic search and the fact
  history behind questions about the past.
- :mod:`.experience`: strategies distilled from solved tasks, abstracted by entity types
  (EvoMemKG's experience memory), retrieved as worked examples for new goals.
- :mod:`.index`: the vector index both search (brute force, HNSW above a size threshold).
- :mod:`.qa`: answers to past-tense questions (deterministic from the fact history, or LLM).
- :mod:`.hooks`: the :class:`~.hooks.Memory` facade the agent's pipelines call.
"""
