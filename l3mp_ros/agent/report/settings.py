# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""How Algorithm 3 reads reports: :class:`UpdateSettings` (defaults from the Config)."""

from __future__ import annotations

from dataclasses import dataclass

from ...config import Config, default, settings_of


@dataclass
class UpdateSettings:
    """How Algorithm 3 reads reports (defaults: :class:`~l3mp_ros.config.Config`)."""

    max_attempts: int = default('max_attempts')
    verify: bool = default('verify')
    confirm: bool = default('confirm')
    place_check: bool = default('place_check')  # where-questions against the update
    #: a new place both orders give, for a thing that moves, is taken into the update
    place_amend: bool = default('place_amend')
    ask_going: bool = default('ask_going')  # where someone who went somewhere is: asked
    ask_actor: bool = default('ask_actor')  # where whoever put a thing somewhere is: asked
    # keep a report pending and ask when its referent is a guess
    clarify: bool = default('clarify')
    ask_back: bool = default('ask_back')  # ask about a reading in doubt instead of refusing it
    ask_below: float = default('ask_below')  # ... or whose confidence is below this
    ask_already: bool = default('ask_already')  # no change: is it a restatement?
    ask_left_out: bool = default('ask_left_out')  # a named thing left out: asked about
    ask_open: bool = default('ask_open')  # no change read: "What changed with ...?"
    read_back_where_said: bool = default('read_back_where_said')  # the part saying it
    ask_refused: bool = default('ask_refused')  # every reading refused: asked openly
    pass_refused: bool = default('pass_refused')  # a refused part: asked about, read on
    read_back_together: bool = default('read_back_together')  # one call for a part's
    runner_ups: int = default('runner_ups')  # readings offered from the slots' runners-up
    smaller_readings: int = default('smaller_readings')  # part of the stated facts, after all
    ask_together: bool = default('ask_together')  # the first question offers every reading
    ask_stated: bool = default('ask_stated')  # a state said in its words left out: asked
    ask_other_words: bool = default('ask_other_words')  # ... in other words: one call, asked
    other_words_min_yes: float = default('other_words_min_yes')  # least P(yes) of those
    ask_moved: bool = default('ask_moved')  # a person moved who neither acts nor goes: asked
    settled_places: bool = default('settled_places')  # "went to X": not read back
    fill_needed: bool = default('fill_needed')  # a requires rule's fact the report names
    skip_covered: bool = default('skip_covered')  # a later part earlier answers gave
    skip_idle_parts: bool = default('skip_idle_parts')  # a part read as no change: skipped
    ask_decision: str = default('ask_decision')  # readback | fitted (config/decision.json)
    reading_confidence: str = default('reading_confidence')  # least | product
    clarify_timeout: float = default('clarify_timeout')
    max_report_facts: int = default('max_report_facts')
    confirm_min_yes: float = default('confirm_min_yes')  # least P(yes) of a read-back "yes"
    per_slot: int = default('per_slot')
    split_clauses: bool = default('split_clauses')
    resolve_mentions: bool = default('resolve_mentions')
    changes_only: bool = default('changes_only')
    prompt_context: str = default('prompt_context')  # what the prompt lists (Grounding.shown)
    answer_handles: bool = default('answer_handles')  # names in answers as short handles
    slot_odds: int = default('slot_odds')  # top candidates per answer token (0: none)
    prompt_phrasing: str = default('prompt_phrasing')  # words | templates (world/templates.py)
    #: checks switched off by name (:func:`.pipeline.check_names`): ablations only
    skip_checks: frozenset[str] = frozenset()

    @property
    def templates(self) -> bool:
        """Tell whether facts are put to the model in the domain's sentence templates."""
        return self.prompt_phrasing == 'templates'

    @classmethod
    def from_config(cls, cfg: Config) -> UpdateSettings:
        """Return the settings of ``cfg``'s language section (one name end to end)."""
        return settings_of(cls, cfg)

    @property
    def attempts(self) -> int:
        """Return how many answers one part may get (one without verification)."""
        return max(1, self.max_attempts) if self.verify else 1
