# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Algorithms 3 and 4's checks, declared in one place: the lists their loops run.

Read these lists to know what a report goes through. Each entry is a small object with
a ``name`` (its timing stage and history entry), the ``setting`` of
:class:`~.update_answers.UpdateSettings` that switches it, ``applies`` and ``judge``
returning a :class:`~.rulings.Ruling` (:mod:`.rulings`). Removing a check is deleting its
entry; switching one off is its setting.

- :data:`ANSWER_CHECKS`: one part's answer, in order, inside the propose–judge–re-prompt
  loop (:mod:`.attempts`); a rejection becomes the re-prompt (:mod:`.answer_checks`).
- :data:`PART_CHECKS`: one part's settled answer, before the next part is asked
  (:mod:`.part_checks`): a repeat of an earlier part is asked again, a "still" part is
  skipped, an answer a domain rule refused is kept without the facts it failed by (to be
  asked), the answer is read back to the model.
- :data:`REPORT_CHECKS`: the whole report's update once its parts are composed
  (:mod:`.report_checks`): where each thing and person the report names is now, where
  whoever put a thing somewhere is, and whether a mention was a guess worth asking about.

Before the answers (no LLM call): a report naming someone no entity carries is refused
(:func:`.update_checks.unknown_names_error`). After the checks, the world model verifies
the update once more as it writes it. With ``prompt_context: widen`` a reading refused or
in doubt on the referents' facts alone is done again on every fact
(:meth:`.update.NLUpdater._widens`).

Algorithm 4 (tasks): :data:`GOAL_CHECKS`, one goal answer's checks in order, each switched
by a field of :class:`~.task_asking.TaskSettings` (:mod:`.goal_checks`, and the questions
about what a planned goal misses in :mod:`.goal_questions`); they plan the goal on the
way, and a goal that fails is re-prompted with why (:meth:`.task.TaskPlanner._judge`
applies the rulings). They run in the loop's ``check`` stage (planning in ``plan``), as
the answer checks do.
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
from .goal_checks import (
    Contradictions,
    Held,
    Mentioned,
    Narrow,
    OneWay,
    Plan,
    Quantified,
    Reconcile,
    Suspect,
)
from .goal_questions import Kinds, LeftOut
from .part_checks import GoingAsk, InDoubt, ReadBackCheck, RepeatedPart, RuleTrim, Still
from .report_checks import ActorCheck, AskBack, Clarify, PlaceCheck

#: one part's answer (:class:`.answer_checks.Draft`), in order
ANSWER_CHECKS: Sequence[Any] = (
    LastPlace(),  # a narrative's last place of a thing is where it is
    Complete(),  # the domain's rules finish the update
    NoChange(),  # nothing stated: no change the domain can represent
    Restated(),  # everything stated already holds
    Relevant(),  # every fact is about something the report mentions
    WithinPart(),  # a part of several states only what it names
    Going(),  # a subject said to go somewhere moves (asked where it went: ask_going)
    Restated(last=True),  # still something to change after the checks above
    Verified(),  # the domain's types and rules
)

#: one part's settled answer (:class:`.part_checks.PartAnswer`), before the next part
PART_CHECKS: Sequence[Any] = (
    RepeatedPart(),  # an earlier part's change repeated: asked again without it
    InDoubt(),  # the first of two readings (widen): a doubt ends it
    Still(),  # "still ...", or only a repeat: the part changes nothing
    RuleTrim(),  # refused by a requires rule: kept without the facts it failed by (asked)
    GoingAsk(),  # going, never placed: the one offered place the answer passes with (asked)
    ReadBackCheck(),  # a numbered choice, then yes/no per stated fact
)

#: the report's composed update (:class:`.report_checks.Report`), in order
REPORT_CHECKS: Sequence[Any] = (
    PlaceCheck(),  # where is each thing and person named now? both option orders
    ActorCheck(),  # whoever put a thing somewhere is where that place is
    Clarify(),  # a referent that was a guess: the speaker is asked which one
    AskBack(),  # a reading in doubt (denied, unsettled, not sure enough): asked (ask_back)
)

#: one goal answer (:class:`.goal_checks.GoalAnswer`) of Algorithm 4, in order
GOAL_CHECKS: Sequence[Any] = (
    Contradictions(),  # an atom asked both true and false: the change is kept
    Reconcile(),  # conjuncts a rule forbids together: one dropped, or the goal refused
    Held(),  # conjuncts that hold now beside a change: dropped, or asked and negated
    Quantified(),  # a forall the wrong way round: one member asked about (read_back)
    Mentioned(),  # a goal naming things names one the task is about
    Narrow(),  # a refused goal: the next answer's ?x only where its types fit
    Plan(),  # planned on the retrieved subgraph; a refused goal is an invalid goal
    OneWay(),  # holds or unplannable: literals against the only way they go turn
    Suspect(),  # holds or unplannable: read back literal by literal, once per task
    Kinds(),  # every one of a kind the task speaks of, asked when the goal misses it
    LeftOut(),  # a thing the task names that the planned goal leaves out, asked about
)


def check_names() -> frozenset[str]:
    """Return the names of the checks of Algorithm 3's pipelines (what ``skip_checks`` takes)."""
    return frozenset(c.name for c in (*ANSWER_CHECKS, *PART_CHECKS, *REPORT_CHECKS))
