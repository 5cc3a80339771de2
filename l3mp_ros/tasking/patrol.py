# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Look to confirm: where an idle robot should go to check what it was told (no ROS).

Perception is the robot's ground truth and language a hint. Facts a report wrote and no
observation has seen since (*told*, unconfirmed; :mod:`l3mp_ros.world.support`) are what
an idle robot should look at first; every other perceivable fact (seen before, given,
done) may have gone wrong unseen since it was last seen (a report that was never made or
was misheard). :class:`PatrolPolicy` scores every place by what it may have wrong:

* each unconfirmed perceivable told fact there weighs more the older it is (in events) and
  three times as much when it is *doubtful*; their sum is scaled by how often such facts
  turned out wrong when looked at (:meth:`~l3mp_ros.world.support.SupportIndex.wrong_rate`);
* each other perceivable fact there adds the events since it was last seen times how often,
  per event unseen, such facts turned out wrong when looked at
  (:meth:`~l3mp_ros.world.support.SupportIndex.stale_rate`): the expected number of stale
  wrong facts. A place with no told fact is worth a move only when that expectation reaches
  ``stale_min`` (0.02: one wrong fact found in fifty visits; below it the robot rests).

The best place becomes a goal, ``(<robot_at> <robot> <place>)``, planned and executed like
any task (:meth:`~l3mp_ros.tasking.lifecycle.TaskLifecycle.start_patrol`); the scene graph
there confirms or overrides. Any task pre-empts a patrol at once.

Which entities are places and how the robot's place is written come from the domain's
perception config (a ``patrol`` section)::

    patrol: {place_type: room, robot_at: agent_in_room}

An entity belongs to the nearest place through the KG's facts (breadth-first); a fact is
looked for where it says its subject is (:meth:`PatrolPolicy.where`). A place the
robot cannot reach (no plan) or that a visit did not confirm (it cannot see into it) is
skipped with a reason for ``retry_after`` events, not retried in a loop.

Policies (parameter ``patrol``): ``off`` (the default: a robot that moves unasked is a
safety matter, so moving on its own is opt-in) and ``idle`` (patrol whenever no task is
active, queued or being planned).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .. import paths
from ..planning.execute import execute_plan
from ..planning.problem import GoalError, goal_holds
from ..world.domain import DomainSchema
from ..world.kg import Fact, KnowledgeGraph
from ..world.support import SupportIndex

PATROL_POLICIES = ('off', 'idle')
PATROL_PREFIX = 'patrol-'  # task ids of patrols
DOUBTFUL_WEIGHT = 3.0
AGE_SCALE = 50.0  # events after which an unconfirmed fact counts twice
MAX_AGE = 500.0
RETRY_AFTER = 100  # events before a skipped or visited place is considered again
MAX_STALE = 5000  # events unseen after which a fact counts no more
STALE_MIN = 0.02  # expected stale wrong facts that make a place with none told worth a move


@dataclass(frozen=True)
class PatrolSpec:
    """Which entities are places and which predicate says where a robot is."""

    place_type: str
    robot_at: str


def load_patrol_spec(path: str | Path) -> PatrolSpec | None:
    """Read the ``patrol`` section of a perception config (None when it has none)."""
    try:
        data = yaml.safe_load(paths.resolve(path).read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(f'cannot read {path}: {exc}') from None
    sec = data.get('patrol') if isinstance(data, dict) else None
    if sec is None:
        return None
    if not isinstance(sec, dict) or not all(isinstance(sec.get(k), str)
                                            for k in ('place_type', 'robot_at')):
        raise ValueError(f'{path}: "patrol" must give place_type and robot_at')
    return PatrolSpec(sec['place_type'].lower(), sec['robot_at'].lower())


@dataclass
class Visit:
    """A place worth looking at, and why."""

    place: str
    robot: str
    goal: str
    score: float
    facts: list[Fact] = field(default_factory=list)  # the told, unconfirmed facts there
    stale: float = 0.0  # expected wrong facts among the others (unseen for a while)

    def to_json(self) -> dict:
        """Return a JSON-ready dict."""
        return {'place': self.place, 'robot': self.robot, 'goal': self.goal,
                'score': round(self.score, 3), 'stale': round(self.stale, 3),
                'facts': [f.triplet() for f in self.facts]}


class PatrolPolicy:
    """Chooses the place whose perceivable facts are most worth checking."""

    def __init__(self, domain: DomainSchema, perceivable: Collection[str], spec: PatrolSpec,
                 *, retry_after: int = RETRY_AFTER, stale_min: float = STALE_MIN) -> None:
        if spec.robot_at not in domain.predicates:
            raise ValueError(f'patrol: robot_at {spec.robot_at!r} is not a predicate of the '
                             'domain')
        self.domain = domain
        self.perceivable = set(perceivable)
        self.spec = spec
        self.retry_after = retry_after
        self.stale_min = stale_min
        #: place -> (reason, event id): not considered again before retry_after events
        self.skipped: dict[str, tuple[str, int]] = {}
        #: (from, to) -> the steps of a visit planned before (reused while they still work)
        self.routes: dict[tuple[str, str], list[str]] = {}

    def route(self, kg: KnowledgeGraph, visit: Visit) -> list[str] | None:
        """Return the steps of an earlier visit between the same places, if they still work.

        A remembered route is re-checked on ``kg`` (every step applies and the goal holds
        after them), so the planner runs only for a new pair of places or a changed world.
        """
        here = self.robot(kg)
        steps = self.routes.get((here[1], visit.place)) if here else None
        if steps is None:
            return None
        result = execute_plan(self.domain, kg, steps)
        try:
            return steps if result.ok and goal_holds(self.domain, result.kg, visit.goal) \
                else None
        except GoalError:
            return None

    def remember(self, kg: KnowledgeGraph, visit: Visit, steps: list[str]) -> None:
        """Keep a planned visit's steps for the next visit between the same places."""
        here = self.robot(kg)
        if here is not None and steps:
            self.routes[(here[1], visit.place)] = list(steps)

    def _is_place(self, t: str) -> bool:
        return t == self.spec.place_type or self.domain.is_subtype(t, self.spec.place_type)

    def places(self, kg: KnowledgeGraph) -> dict[str, str]:
        """Return each entity's place: the nearest place through the KG's facts."""
        home = {n: n for n, t in kg.entities.items() if self._is_place(t)}
        todo = deque(sorted(home))
        while todo:
            n = todo.popleft()
            for f in kg.facts_of(n):
                if f.predicate == self.spec.robot_at:
                    continue  # the robot is not part of the room it stands in
                for a in f.args:
                    if a not in home:
                        home[a] = home[n]
                        todo.append(a)
        return home

    @staticmethod
    def where(fact: Fact, home: Mapping[str, str]) -> str | None:
        """Return the place to look at to see ``fact``: where it says its subject is.

        The place of its last argument that has one (``placed_at_table pen table_3``: the
        room of ``table_3``, even while the KG still also places the pen elsewhere), else
        the place of its subject (``light_on lamp_1``).
        """
        for a in reversed(fact.args[1:]):
            if a in home:
                return home[a]
        return home.get(fact.args[0]) if fact.args else None

    def robot(self, kg: KnowledgeGraph) -> tuple[str, str] | None:
        """Return (robot, its place), or None when the KG does not say."""
        facts = sorted(kg.facts_with(self.spec.robot_at))
        return (facts[0].args[0], facts[0].args[1]) if facts else None

    def skip(self, place: str, reason: str, at_event: int) -> None:
        """Do not consider ``place`` again for ``retry_after`` events."""
        self.skipped[place] = (reason, at_event)

    def candidates(self, kg: KnowledgeGraph, support: SupportIndex,
                   last_event: int) -> list[Visit]:
        """Return the places worth a visit, best first (skipped ones left out)."""
        where = self.robot(kg)
        if where is None:
            return []
        robot, here = where
        home = self.places(kg)
        told: dict[str, float] = {}
        stale: dict[str, float] = {}
        facts: dict[str, list[Fact]] = {}
        for f in kg.facts:
            if f.predicate not in self.perceivable or not f.args:
                continue
            s = support.get(f)
            place = self.where(f, home)
            if s is None or place is None or place == here:
                continue
            if s.unconfirmed_told:
                age = min(MAX_AGE, max(0, last_event - s.event_id))
                w = (DOUBTFUL_WEIGHT if s.doubtful else 1.0) * (1.0 + age / AGE_SCALE)
                told[place] = told.get(place, 0.0) + w
                facts.setdefault(place, []).append(f)
            else:
                unseen = min(MAX_STALE, max(0, last_event - s.last_seen))
                stale[place] = stale.get(place, 0.0) + unseen
        rate, per_event = support.wrong_rate(), support.stale_rate()
        out = []
        for place in set(told) | set(stale):
            skipped = self.skipped.get(place)
            if skipped is not None and last_event - skipped[1] < self.retry_after:
                continue
            expected = stale.get(place, 0.0) * per_event
            if place not in told and expected < self.stale_min:
                continue
            out.append(Visit(place, robot, f'({self.spec.robot_at} {robot} {place})',
                             told.get(place, 0.0) * rate + expected,
                             sorted(facts.get(place, [])), expected))
        return sorted(out, key=lambda v: (-v.score, v.place))

    def choose(self, kg: KnowledgeGraph, support: SupportIndex,
               last_event: int) -> Visit | None:
        """Return the best place to look at, or None (nothing worth a move)."""
        found = self.candidates(kg, support, last_event)
        return found[0] if found else None

    def status(self, last_event: int) -> dict[str, str]:
        """Return the places skipped now, with their reasons."""
        return {p: r for p, (r, at) in sorted(self.skipped.items())
                if last_event - at < self.retry_after}


def patrol_policy(domain: DomainSchema, perception_config: str,
                  perceivable: Collection[str] | None = None) -> PatrolPolicy:
    """Return the policy for a domain from its perception config; ValueError when it lacks one."""
    from ..world.perceive import load_perceivable
    spec = load_patrol_spec(perception_config)
    if spec is None:
        raise ValueError(f'{perception_config} has no "patrol" section (place_type, robot_at)')
    if perceivable is None:
        perceivable = load_perceivable(perception_config)
    return PatrolPolicy(domain, perceivable, spec)


def is_patrol(task_id: str | None) -> bool:
    """Tell whether a task id names a patrol."""
    return bool(task_id) and str(task_id).startswith(PATROL_PREFIX)


def unconfirmed_at(policy: PatrolPolicy, kg: KnowledgeGraph, support: SupportIndex,
                   place: str) -> list[Fact]:
    """Return the unconfirmed told perceivable facts about things at ``place``."""
    home: Mapping[str, str] = policy.places(kg)
    return sorted(f for f in kg.facts if f.predicate in policy.perceivable and f.args
                  and policy.where(f, home) == place and (s := support.get(f)) is not None
                  and s.unconfirmed_told)


def relied_on(domain: DomainSchema, kg: KnowledgeGraph, steps: list[str], goal: str,
              facts: Collection[Fact]) -> list[Fact]:
    """Return the facts of ``facts`` the steps rely on.

    A fact is relied on when, without it, a step of ``steps`` cannot run on ``kg`` or the
    goal does not hold after them (the plan checked on the KG, no planner call).
    """
    out = []
    for f in sorted(facts):
        without = kg.copy()
        without.remove_fact(f)
        result = execute_plan(domain, without, steps)
        try:
            ok = result.ok and goal_holds(domain, result.kg, goal)
        except GoalError:
            ok = False
        if not ok:
            out.append(f)
    return out


def not_seen_on_arrival(perceivable: Collection[str], domain: DomainSchema,
                        kg: KnowledgeGraph, support: SupportIndex, steps: list[str], goal: str,
                        observed: Collection[str]) -> list[Fact]:
    """Return the told facts the rest of a plan relies on that an observation did not show.

    ``observed``: the entities a scene graph just saw (its ``observed`` list). A perceivable
    fact about one of them that is still only told, never seen, was not in the frame: the
    scene graph kept it only because nothing else says where the thing is (an ``exactly``
    rule), so what the robot sees differs from what it was told. Facts about entities the
    frame did not see (in a closed cupboard, another room) are not checked: no news. Facts
    seen before (or given, or done) are not checked either: a look that does not show them
    leaves them as they were.
    """
    observed = set(observed)
    if not steps or not observed:
        return []
    told = [f for f in kg.facts if f.predicate in perceivable and f.args
            and f.args[0] in observed and (s := support.get(f)) is not None
            and s.unconfirmed_told]
    return relied_on(domain, kg, steps, goal, told)
