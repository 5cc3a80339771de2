# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithm 3's checks, declared in one place: the three lists its loop runs, in order.

Read these lists to know what a report goes through. Each entry's class is named for the
check's run-time name (its ``name``: the timing stage, the key in ``checks`` of
``l3mp update --json``, what ``skip_checks`` and ``benchmarks/ablate_checks.py`` take), has
the ``setting`` of :class:`~.reading.UpdateSettings` that switches it, ``applies`` and
``judge`` returning a :class:`~..core.rulings.Ruling`; every list is run by the one loop
:func:`~..core.rulings.run`. Removing a check is deleting its entry (measure what it buys
first); switching one off is its setting.

- :data:`ANSWER_CHECKS` (:mod:`.answer_checks`, an :class:`~.answer_checks.Draft`): one
  part's answer, inside the propose–judge–re-prompt loop (:mod:`..core.attempts`); a
  rejection becomes the re-prompt.
- :data:`PART_CHECKS` (:mod:`.part_checks`, a :class:`~.part_checks.PartAnswer`): one
  part's settled answer, before the next part is asked.
- :data:`REPORT_CHECKS` (:mod:`.report_checks`, a :class:`~.report_checks.Report`): the
  whole report's update once its parts are composed.

Before the answers (no LLM call): a report naming someone no entity carries is refused
(:func:`.rules.unknown_names_error`). After the checks, the world model verifies the update
once more as it writes it. With ``prompt_context: widen`` a reading refused or in doubt on
the referents' facts alone is done again on every fact (:meth:`.update.NLUpdater._widens`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .answer_checks import (
    Complete,
    Going,
    Narrative,
    NoChange,
    PartScope,
    Purpose,
    Relevance,
    Restated,
    RestatedAfter,
    Verify,
)
from .part_checks import (
    GoingAhead,
    GoingAsk,
    InDoubt,
    ReadAhead,
    ReadBack,
    RepeatedPart,
    RuleTrim,
    Still,
)
from .reading import AnswerCheck, PartCheck, ReportCheck
from .report_checks import ActorCheck, AskBack, Clarify, OtherWords, PlaceCheck

#: one part's answer, in order
ANSWER_CHECKS: Sequence[AnswerCheck] = (
    Narrative(),  # a narrative's last place of a thing is where it is
    Complete(),  # the domain's rules finish the update
    NoChange(),  # nothing stated: no change the domain can represent
    Restated(),  # everything stated already holds
    Relevance(),  # every fact is about something the report mentions
    Purpose(),  # a state said only as an aim ("to sign") is no change
    PartScope(),  # a part of several states only what it names
    Going(),  # a subject said to go somewhere moves (asked where it went: ask_going)
    RestatedAfter(),  # still something to change after the checks above
    Verify(),  # the domain's types and rules
)

#: one part's settled answer, before the next part, in order
PART_CHECKS: Sequence[PartCheck] = (
    RepeatedPart(),  # an earlier part's change repeated: asked again without it
    InDoubt(),  # the first of two readings (widen): a doubt ends it
    Still(),  # "still ...", or only a repeat: the part changes nothing
    RuleTrim(),  # refused by a requires rule: kept without the facts it failed by (asked)
    GoingAsk(),  # going, never placed: the one offered place the answer passes with (asked)
    GoingAhead(),  # going, no place named, refused: where the next part happens (asked)
    ReadAhead(),  # every answer about later parts only: passed over, not refused
    ReadBack(),  # a numbered choice, then yes/no per stated fact
)

#: the report's composed update, in order
REPORT_CHECKS: Sequence[ReportCheck] = (
    PlaceCheck(),  # where is each thing and person named now? both option orders
    ActorCheck(),  # whoever put a thing somewhere is where that place is
    Clarify(),  # a referent that was a guess: the speaker is asked which one
    OtherWords(),  # states said in other words the reading leaves out: one call (off)
    AskBack(),  # a reading in doubt (denied, unsettled, not sure enough): asked (ask_back)
)


def check_names() -> frozenset[str]:
    """Return the names of Algorithm 3's checks (what ``skip_checks`` takes)."""
    return frozenset(c.name for c in (*ANSWER_CHECKS, *PART_CHECKS, *REPORT_CHECKS))
