# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 3's checks, declared in one place: the lists the update loop runs.

Read these lists to know what a report goes through. Each entry is a small object with
a ``name`` (its timing stage and history entry), the ``setting`` of
:class:`~.update_answers.UpdateSettings` that switches it, ``applies`` and ``judge``
returning a :class:`~.rulings.Ruling` (:mod:`.rulings`). Removing a check is deleting its
entry; switching one off is its setting.

- :data:`ANSWER_CHECKS`: one part's answer, in order, inside the propose–judge–re-prompt
  loop (:mod:`.attempts`); a rejection becomes the re-prompt (:mod:`.answer_checks`).
- :data:`REPORT_CHECKS`: the whole report's update once its parts are composed
  (:mod:`.report_checks`): where each thing and person the report names is now, where
  whoever put a thing somewhere is, and whether a mention was a guess worth asking about.

Before the answers (no LLM call): a report naming someone no entity carries is refused
(:func:`.update_checks.unknown_names_error`). Between a part's answer and the next part
(:meth:`.update.NLUpdater._read`): a part repeating an earlier part's change is asked
again, a "still" part changes nothing, and the read-back (:class:`.update_checks.
ReadBack`: a numbered choice among facts that disagree, then yes/no per fact). After the
checks, the world model verifies the update once more as it writes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .answer_checks import (
    Complete,
    Going,
    LastPlace,
    NoChange,
    Relevant,
    Restated,
    Verified,
    WithinPart,
)
from .report_checks import ActorCheck, Clarify, PlaceCheck

#: one part's answer (:class:`.answer_checks.Draft`), in order
ANSWER_CHECKS: Sequence[Any] = (
    LastPlace(),  # a narrative's last place of a thing is where it is
    Complete(),  # the domain's rules finish the update
    NoChange(),  # nothing stated: no change the domain can represent
    Restated(),  # everything stated already holds
    Relevant(),  # every fact is about something the report mentions
    WithinPart(),  # a part of several states only what it names
    Going(),  # a subject said to go somewhere moves (asked where, with place_amend)
    Restated(last=True),  # still something to change after the checks above
    Verified(),  # the domain's types and rules
)

#: the report's composed update (:class:`.report_checks.Report`), in order
REPORT_CHECKS: Sequence[Any] = (
    PlaceCheck(),  # where is each thing and person named now? both option orders
    ActorCheck(),  # whoever put a thing somewhere is where that place is
    Clarify(),  # a referent that was a guess: the speaker is asked which one
)
