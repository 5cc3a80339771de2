# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The checks of one goal answer (Algorithm 4), each a small object.

They run in the order :data:`.pipeline.GOAL_CHECKS` lists, on a :class:`GoalAnswer`: the
goal read from the model's reply (:meth:`GoalAnswer.read`), the errors that refuse it
before it is planned, and the notes of what the checks made of it. A check returns a
:class:`~..core.rulings.Ruling`: ``AMEND`` with the rewritten goal (a string) or with a
:class:`Planned` goal (the goal with its plan and status), ``REJECT`` with errors (the
re-prompt; a goal value is what the goal became meanwhile), or ``PASS`` with notes; the
answer takes them in one place (:meth:`GoalAnswer.take`, run by the one ruling loop
:func:`~..core.rulings.run`). What a check does for later answers (a narrower schema,
a question asked once per task) it writes on the task's :class:`~.outcome.Asking`.

The rewrites themselves are :mod:`.rewrites`; the questions about what a planned goal
misses (every one of a kind, a thing the task names) are :mod:`.kinds` and :mod:`.left_out`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ...llm.protocol import LLMReply
from ...planning.planner import Planner, PlanResult
from ...planning.status import Status
from ...stages import stage
from ...world.kg import KnowledgeGraph
from ...world.model import WorldModel
from ..core.attempts import Verdict
from ..core.rulings import Act, Check, Ruling
from .formula import goal_entities
from .grounding import MAX_QUANTIFIED
from .outcome import Asking, TaskSettings, extract_goal
from .rewrites import (
    Wants,
    drop_held,
    reconcile_goal,
    settle_contradictions,
    settle_quantified,
    turn_one_way,
)

ALREADY_HOLDS = ('the goal already holds in the current state, but the task asks for a '
                 'change: write the state the task wants')


@dataclass
class Planned:
    """A goal with what planning it gave: what a check that plans amends the answer with."""

    goal: str | None
    plan: PlanResult | None
    status: Status
    errors: list[str] = field(default_factory=list)


@dataclass
class GoalAnswer:
    """One goal answer, as the goal checks read it; its goal is the task outcome's."""

    a: Asking
    reply: LLMReply
    world: WorldModel
    planner: Planner
    settings: TaskSettings
    errors: list[str]  # why the goal is refused before it is planned
    notes: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, a: Asking, reply: LLMReply, world: WorldModel, planner: Planner,
             settings: TaskSettings) -> GoalAnswer:
        """Read the reply's goal (JSON, or a PDDL string) into the task's outcome."""
        a.out.goal, errors = a.grounding.read_goal(
            reply.data if reply.data is not None else extract_goal(None, reply.text))
        return cls(a, reply, world, planner, settings, errors)

    @property
    def goal(self) -> str | None:
        """Return the goal as the checks left it so far."""
        return self.a.out.goal

    @property
    def kg(self) -> KnowledgeGraph:
        """Return the task's snapshot of the graph."""
        return self.a.req.kg

    @property
    def wants(self) -> Wants | None:
        """Return the yes/no question whether the task wants a fact (None: no read-back)."""
        if not self.settings.read_back:
            return None
        a = self.a
        return lambda f: a.asker.wants(a.req.text, f, a.names, a.out.trace)

    def solve(self, goal: str) -> Planned:
        """Plan ``goal`` on the retrieved subgraph (widened when a needed fact is missing)."""
        with stage('plan'):
            plan = self.planner.plan(self.kg, goal, context=set(self.a.req.retrieval.facts))
        return Planned(goal, plan, plan.status, list(plan.errors))

    def adopt(self, goal: str) -> Planned | None:
        """Return ``goal`` planned when it plans a change; None leaves the answer as it was."""
        got = self.solve(goal)
        return got if Status(got.status).ok and got.status != Status.ALREADY_SATISFIED else None

    def verdict(self) -> tuple[Verdict, str]:
        """Return what the outcome's status means, and what to tell the LLM about it."""
        status, errors = self.a.out.status, self.a.out.errors
        if status == Status.ALREADY_HOLDS:
            return Verdict.ALREADY_HOLDS, ALREADY_HOLDS
        if status == Status.INVALID_GOAL:
            return Verdict.INVALID, 'the goal has errors:\n- ' + '\n- '.join(errors)
        if status == Status.UNSOLVABLE:
            return Verdict.UNSOLVABLE, (
                'no plan reaches that goal from the current state; check that the goal says '
                'what the task asks and uses the right entities and predicates')
        return (Verdict.ACCEPTED if Status(status).ok else Verdict.FAILED), ''

    def suspect(self) -> bool:
        """Tell whether a planned goal holds already or no plan reaches it (not yet asked)."""
        return (self.a.out.status in (Status.ALREADY_SATISFIED, Status.UNSOLVABLE)
                and not self.a.flagged)

    def checked(self) -> bool:
        """Tell whether there is a goal and nothing refused it yet."""
        return not self.errors and bool(self.goal)

    def take(self, ruling: Ruling) -> None:
        """Apply one goal check's ruling: its goal (or planned goal) becomes the outcome's.

        Its errors refuse the goal before it is planned; its notes join the attempt's record.
        """
        out = self.a.out
        self.notes.extend(ruling.notes)
        got = ruling.value
        if isinstance(got, Planned):
            out.goal, out.plan, out.status = got.goal, got.plan, got.status
            out.errors = list(got.errors)
        elif ruling.act in (Act.AMEND, Act.REJECT) and got is not None:
            out.goal = got
        if ruling.act is Act.REJECT:
            self.errors = list(ruling.errors)


#: a check of one goal answer (:mod:`.pipeline`)
GoalCheck = Check[GoalAnswer]


class Contradictions:
    """Of an atom asked both true and false, the change is kept."""

    name, setting = 'contradictions', None

    def applies(self, g: GoalAnswer) -> bool:
        """Tell whether there is a goal and nothing refused it."""
        return g.checked()

    def judge(self, g: GoalAnswer) -> Ruling:
        """Drop the literal that holds now."""
        goal, notes = settle_contradictions(g.world.domain, g.kg, g.goal or '')
        return Ruling.amend(goal, notes)


class Reconcile:
    """Conjuncts a state-constraint rule forbids together: one is dropped, or the goal fails."""

    name, setting = 'reconcile', None

    def applies(self, g: GoalAnswer) -> bool:
        """Tell whether there is a goal and nothing refused it."""
        return g.checked()

    def judge(self, g: GoalAnswer) -> Ruling:
        """Drop what holds now or what the model does not read in the task; else refuse."""
        goal, notes, errors = reconcile_goal(g.world.domain, g.kg, g.world.constraints,
                                             g.goal or '', g.wants)
        if errors:
            return Ruling(Act.REJECT, goal, errors=errors, notes=notes)
        return Ruling.amend(goal, notes)


class Held:
    """Conjuncts that hold now beside a change: dropped, or asked about and negated."""

    name, setting = 'held', 'resolve_mentions'

    def applies(self, g: GoalAnswer) -> bool:
        """Tell whether there is a goal and nothing refused it."""
        return g.checked()

    def judge(self, g: GoalAnswer) -> Ruling:
        """Settle what holds now (:func:`.goal_rewrites.drop_held`)."""
        goal, notes = drop_held(g.world.domain, g.kg, g.goal or '', g.a.req.text, g.wants)
        return Ruling.amend(goal, notes)


class Quantified:
    """A ``forall`` the wrong way round: one member asked about, the body negated if denied."""

    name, setting = 'quantified', 'read_back'

    def applies(self, g: GoalAnswer) -> bool:
        """Tell whether there is a goal and nothing refused it."""
        return g.checked() and g.wants is not None

    def judge(self, g: GoalAnswer) -> Ruling:
        """Ask about one member of each ``forall``."""
        assert g.wants is not None
        goal, notes = settle_quantified(g.world.domain, g.kg, g.goal or '', g.wants)
        return Ruling.amend(goal, notes)


class Mentioned:
    """A goal naming things must name one the task is about."""

    name, setting = 'mentioned', None

    def applies(self, g: GoalAnswer) -> bool:
        """Tell whether a goal nothing refused is checked against the task's mentions."""
        return g.checked() and bool(g.a.mentioned)

    def judge(self, g: GoalAnswer) -> Ruling:
        """Refuse a goal about nothing the task mentions."""
        named, mentioned = goal_entities(g.goal or '', g.kg), g.a.mentioned
        if named and not named & mentioned:
            return Ruling.reject([f'the goal names {", ".join(sorted(named))} but the task is '
                                  f'about {", ".join(sorted(mentioned)[:6])}'])
        return Ruling()


class Narrow:
    """After a goal that did not read, the next answer puts ``?x`` only where its types fit.

    With many types to quantify over ("bring Omar everything put aside for him"), one
    schema branch serves them all and lets ``?x`` stand anywhere; asked again with the
    error, a small model writes the same ill-typed literal. The next answer's quantifiers
    get a branch per type the answer chose, where ``?x`` goes only in arguments that type
    fits.
    """

    name, setting = 'narrow', None

    def applies(self, g: GoalAnswer) -> bool:
        """Tell whether the goal was refused and its schema has one branch for many types."""
        q = g.a.grounding.quantified
        return bool(g.errors) and not (q is not None and len(q) <= MAX_QUANTIFIED)

    def judge(self, g: GoalAnswer) -> Ruling:
        """Narrow the next answer's schema to the types this answer chose."""
        a, data = g.a, g.reply.data
        items = data.get('goal') if isinstance(data, dict) else None
        chosen = frozenset(
            str(item.get(k)).lower() for item in items or [] if isinstance(item, dict)
            for k in ('forall', 'exists') if isinstance(item.get(k), str)
            and g.world.domain.has_type(str(item[k]).lower()))
        if not chosen or len(chosen) > MAX_QUANTIFIED:
            return Ruling()
        a.schema = replace(a.grounding, quantified=chosen).goal_schema()
        return Ruling(notes=[f'asked again with ?x where a {" or ".join(sorted(chosen))} fits'])


class Plan:
    """A goal the checks left is planned; a refused one is an invalid goal."""

    name, setting = 'plan', None

    def applies(self, g: GoalAnswer) -> bool:
        """Apply always."""
        return True

    def judge(self, g: GoalAnswer) -> Ruling:
        """Plan the goal, or record why there is none to plan."""
        if g.errors or g.goal is None:
            return Ruling.amend(Planned(g.goal, None, Status.INVALID_GOAL, g.errors))
        return Ruling.amend(g.solve(g.goal))


class OneWay:
    """A goal that holds or no plan reaches: literals against the only way they go turn."""

    name, setting = 'one_way', None

    def applies(self, g: GoalAnswer) -> bool:
        """Tell whether the planned goal is suspect."""
        return g.suspect()

    def judge(self, g: GoalAnswer) -> Ruling:
        """Negate them (:func:`.goal_rewrites.turn_one_way`) when that plans a change."""
        turned, why = turn_one_way(g.world.domain, g.kg, g.goal or '')
        got = g.adopt(turned) if turned is not None else None
        return Ruling.amend(got, why) if got is not None else Ruling()


class Suspect:
    """A goal that holds or no plan reaches is read back literal by literal, once per task.

    What the checks or the read-back made of the answer that is nothing to do is asked
    again (once: the goal is flagged), unless it is the last answer the loop gets.
    """

    name, setting = 'suspect', None

    def applies(self, g: GoalAnswer) -> bool:
        """Tell whether the planned goal is suspect."""
        return g.suspect()

    def judge(self, g: GoalAnswer) -> Ruling:
        """Plan the goal as read back; a goal that already holds is re-prompted."""
        a, out = g.a, g.a.out
        a.flagged = True
        notes: list[str] = []
        flipped = a.asker.read_back(a.req.text, g.goal or '', g.kg, a.names, out.trace, notes)
        got = (g.solve(flipped) if flipped is not None  # asked literal by literal: a change
               else Planned(out.goal, out.plan, out.status, list(out.errors)))
        if got.status == Status.ALREADY_SATISFIED and out.attempts < g.settings.attempts and (
                not g.settings.read_back or flipped is not None or g.notes or notes):
            got = replace(got, status=Status.ALREADY_HOLDS, errors=[ALREADY_HOLDS])
        return Ruling.amend(got, notes)
