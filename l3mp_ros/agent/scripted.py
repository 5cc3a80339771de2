# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A scripted person talking with the robot: a story, what really happened, the answers.

The demos (``l3mp demo``, ``l3mp_demo``) tell the robot a short story as a person would:
reports, the answers to the questions the robot asks back, a correction ("No, that's
wrong.") and a question. The person knows what really happened (:class:`ScriptedPerson`:
the facts that hold, the story's truth, completed by the domain's rules) and answers each
question from the options it offers, never from a script of the robot's words: "yes" to a
reading whose every change is so, the right option of several, "no" / "none of them" when
none is. A slip is a report the person believes while saying it (and answers questions
about as if it were so), then takes back once it is written. So the demo ends whatever
the model reads, asks or leaves out, and every line it prints is what happened.

The robot is reached through :class:`Robot`: :class:`AgentRobot` (the agent in this
process, as ``l3mp say`` would) or the nodes over DDS (:mod:`l3mp_ros.nodes.demo`, the
utterances on ``nl_update`` / ``voice_command``, the replies on ``say`` and ``events``).
:class:`Conversation` runs a story on either and prints it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from .. import schemas
from ..text import UtteranceKind
from ..world import query
from ..world.complete import complete
from ..world.constraints import Constraints
from ..world.domain import DomainSchema
from ..world.events import EventStatus
from ..world.kg import Fact, KnowledgeGraph, Update
from ..world.phrasing import Phrasing
from .core.asking import MAX_QUESTIONS

if TYPE_CHECKING:
    from .agent import Agent

ORDINAL_WORDS = ('first', 'second', 'third', 'fourth')
#: answers to one report at most: the robot asks at most MAX_QUESTIONS, one more is a guard
MAX_ANSWERS = MAX_QUESTIONS + 1
UNSURE = "I don't know."  # a question whose options carry no change to judge


class MoveKind(StrEnum):
    """What the person does in one move of a story."""

    REPORT = 'report'  # says what happened (``nl_update``)
    CORRECTION = 'correction'  # takes back the report just written (``voice_command``)
    QUESTION = 'question'  # asks the robot (``voice_command``)


@dataclass(frozen=True)
class Move:
    """One thing the person says, and (for a report) what really happened."""

    kind: MoveKind
    text: str
    #: a report: the change that really happened (completed by the domain's rules)
    happened: Update | None = None
    #: a slip: what the person believes while saying it (not so; taken back after)
    believed: Update | None = None


# The household story of both demos: Jerry took the red pen (true: the robot may ask back,
# the person confirms); the person then says Anna went to the kitchen (a slip: she did not;
# the person believes it for a moment) and takes it back at once; then asks where the red
# pen is.
HOUSEHOLD_STORY = (
    Move(MoveKind.REPORT, 'Jerry took the red pen from the living room table.',
         happened=Update.parse('REMOVE: (red_pen, placed_at_table, living_room_table) '
                               'ADD: (red_pen, in_person_hand, jerry)')),
    Move(MoveKind.REPORT, 'Anna went to the kitchen.',
         believed=Update.parse('ADD: (anna, person_in_room, kitchen)')),
    Move(MoveKind.CORRECTION, "No, that's wrong."),
    Move(MoveKind.QUESTION, 'Where is the red pen?'),
)
HOUSEHOLD_NOTE = ('The story: Jerry did take the red pen from the living room table; Anna '
                  'did not go to the kitchen (the person says so by mistake, believes it '
                  'for a moment, then takes it back). The person answers every question '
                  'the robot asks from that.')


@dataclass
class Heard:
    """What the robot did with one utterance: its words, and the event it logged."""

    said: list[str] = field(default_factory=list)
    event: dict[str, Any] | None = None  # an ``event/v1`` body (None: it logged none)

    @property
    def status(self) -> str | None:
        """Return the event's status, or None (applied, rejected, clarify, error)."""
        return None if self.event is None else str(self.event.get('status'))

    @property
    def question(self) -> dict[str, Any] | None:
        """Return the question the robot now waits on (``info.clarify``), or None."""
        if self.status != EventStatus.CLARIFY:
            return None
        return dict((self.event or {}).get('info', {}).get('clarify') or {})

    @property
    def written(self) -> Update | None:
        """Return the change the event wrote (None: nothing was written)."""
        if self.status != EventStatus.APPLIED or not (self.event or {}).get('diff'):
            return None
        return Update.from_json(self.event['diff'])


class Robot(Protocol):
    """The robot as a person reaches it."""

    topics: bool  # whether it is heard on ROS topics (the lines name them)

    def hear(self, text: str, report: bool) -> Heard:
        """Say ``text`` to the robot (a report, or routed as ``voice_command`` is)."""
        ...

    def facts(self, entity: str) -> dict[str, Any]:
        """Return a ``kg_query_result/v1`` body (with ``support``) about ``entity``."""
        ...


class ScriptedPerson:
    """Someone who knows what really happened and answers the robot's questions so."""

    def __init__(self, truth: KnowledgeGraph, domain: DomainSchema | None = None,
                 constraints: Constraints | None = None) -> None:
        self.truth = truth.copy()
        self.domain, self.constraints = domain, constraints
        self.phrasing = Phrasing(domain, self.truth)
        self._known: KnowledgeGraph | None = None  # the truth while a slip is believed

    def learn(self, happened: Update) -> None:
        """Take in a change (before telling the robot of it), completed by the rules.

        "Jerry took the red pen": the pen is in his hand, so no longer on the table.
        """
        if self.domain is not None and self.constraints is not None:
            happened = complete(self.truth, happened, self.constraints, self.domain).update
        self.truth.apply(happened)

    def believe(self, slip: Update) -> None:
        """Believe a slip for a while (questions about it are answered as if it were so)."""
        if self._known is None:
            self._known = self.truth.copy()
        self.learn(slip)

    def remember(self) -> None:
        """Drop every slip believed: what really happened again."""
        if self._known is not None:
            self.truth, self._known = self._known, None
            self.phrasing = Phrasing(self.domain, self.truth)

    def wrong(self, option: Mapping[str, Any]) -> list[Fact]:
        """Return what an option's change says that is not so.

        Its added facts that do not hold, and its removed facts that still do.
        """
        added = [Fact.from_triplet(t) for t in option.get('add') or []]
        removed = [Fact.from_triplet(t) for t in option.get('remove') or []]
        return [f for f in added if f not in self.truth] + [f for f in removed
                                                            if f in self.truth]

    def right(self, option: Mapping[str, Any]) -> bool:
        """Tell whether an option changes something and all it says is so."""
        said = (option.get('add') or []) or (option.get('remove') or [])
        return bool(said) and not self.wrong(option)

    def answer(self, question: Mapping[str, Any] | None) -> tuple[str, list[str]]:
        """Return the answer to a question the robot asked, and why it is no.

        A yes/no question (one reading): "Yes." when it is right, else "No."; a choice
        (readings, or which thing a mention means): the first right option by its place
        ("The second one."), else "None of them.". A question whose options carry no
        change cannot be judged: "I don't know." (the robot then writes nothing).
        """
        options = list((question or {}).get('options') or [])
        if not any('add' in o or 'remove' in o for o in options):
            return UNSURE, []
        right = [k for k, o in enumerate(options) if self.right(o)]
        why = [f'{"still so" if f in self.truth else "not so"}: "{self.phrasing.sentence(f)}"'
               for o in options for f in self.wrong(o)]
        if len(options) == 1:
            return ('Yes.', []) if right else ('No.', sorted(set(why)))
        if right and right[0] < len(ORDINAL_WORDS):
            return f'The {ORDINAL_WORDS[right[0]]} one.', []
        return 'None of them.', sorted(set(why))


@dataclass
class Exchange:
    """One move, the questions asked about it and their answers, and what came of it."""

    move: Move
    said: list[str] = field(default_factory=list)  # the robot's last words about it
    asked: list[tuple[str, str]] = field(default_factory=list)  # (question, answer)
    event: dict[str, Any] | None = None  # the last event the move (or its answers) logged
    support: dict[str, str] = field(default_factory=dict)  # written fact -> support kind
    withdrawn_by: int | None = None  # the event that took it back

    @property
    def written(self) -> Update | None:
        """Return the change written for the move (None: nothing)."""
        return Heard(event=self.event).written


def _triplets(facts: Iterable[Fact]) -> str:
    return ', '.join('(' + ', '.join(f.triplet()) + ')' for f in sorted(facts))


def event_line(event: Mapping[str, Any]) -> str:
    """Return one event in a line: id, status, what it takes back, its change."""
    info = event.get('info') or {}
    head = f'event #{event.get("id")} {event.get("status")}'
    if info.get('withdraws') is not None:
        head += f', takes back event #{info["withdraws"]}'
    elif info.get('support'):
        head += f', support {info["support"]}'
    diff = event.get('diff') or {}
    parts = [f'{key.upper()}: {_triplets(Fact.from_triplet(t) for t in diff[key])}'
             for key in ('remove', 'add') if diff.get(key)]
    errors = [f'! {e}' for e in event.get('errors') or []]
    if event.get('status') == EventStatus.CLARIFY:
        parts, errors = [], []  # its question is said on its own line
    return ' '.join([head + (':' if parts else ''), *parts, *errors[:1]])


class Conversation:
    """A story told to a robot by a scripted person, printed as it goes."""

    def __init__(self, robot: Robot, person: ScriptedPerson,
                 out: Callable[[str], None] = print) -> None:
        self.robot, self.person, self.out = robot, person, out
        self.exchanges: list[Exchange] = []

    # -- lines --------------------------------------------------------------------------
    def _person(self, text: str, report: bool = False) -> None:
        where = (' [nl_update]' if report else ' [voice_command]') if self.robot.topics else ''
        self.out(f'>> person{where}: {text}')

    def _robot(self, heard: Heard) -> None:
        where = ' [say]' if self.robot.topics else ''
        for line in heard.said or ['(nothing said)']:
            self.out(f'   robot{where}: {line}')
        if heard.event is not None and heard.status != EventStatus.CLARIFY:
            self.out(f'   {event_line(heard.event)}')

    def _show_support(self, facts: Sequence[Fact]) -> dict[str, str]:
        """Print what the robot's KG says of ``facts`` now (kg_query); return each support."""
        kinds: dict[str, str] = {}
        for entity in sorted({f.args[0] for f in facts if f.args}):
            body = self.robot.facts(entity)
            where = ' (kg_query)' if self.robot.topics else ''
            if body.get('errors'):
                self.out(f'   the robot\'s KG{where} about {entity}: ! {body["errors"][0]}')
                continue
            support = list(body.get('support') or [])
            held = {tuple(t): support[k] if k < len(support) else {}
                    for k, t in enumerate(body.get('facts') or [])}
            self.out(f"   the robot's KG{where} about {entity}:")
            for f in sorted(g for g in facts if g.args and g.args[0] == entity):
                s = held.get(tuple(f.triplet()))
                if s is None:
                    self.out(f'     {_triplets([f])}: not held')
                    kinds[' '.join(f.triplet())] = 'not held'
                    continue
                kind = str(s.get('kind', '?'))
                kinds[' '.join(f.triplet())] = kind
                said = f': {s["said"]}' if s.get('said') else ''
                self.out(f'     {_triplets([f])}: {kind} (event #{s.get("event_id")}){said}')
        return kinds

    # -- moves --------------------------------------------------------------------------
    def report(self, move: Move) -> Exchange:
        """Tell a report; answer every question the robot asks about it."""
        ex = Exchange(move)
        if move.happened is not None:
            self.person.learn(move.happened)
        if move.believed is not None:
            self.person.believe(move.believed)
        self._person(move.text, report=True)
        heard = self.robot.hear(move.text, report=True)
        self._robot(heard)
        while heard.question is not None and len(ex.asked) < MAX_ANSWERS:
            answer, why = self.person.answer(heard.question)
            ex.asked.append((str(heard.question.get('question') or ' '.join(heard.said)),
                             answer))
            self._person(answer)
            if why:
                self.out(f'   (the person knows: {"; ".join(why)})')
            heard = self.robot.hear(answer, report=False)
            self._robot(heard)
        ex.said, ex.event = heard.said, heard.event
        written = heard.written
        if written is not None:
            if written.add:
                ex.support = self._show_support(sorted(written.add))
        elif heard.question is not None:
            self.out('   (still asked after the answers the person gave: left unanswered)')
        else:
            self.out('   (nothing written)')
        return ex

    def correction(self, move: Move) -> Exchange:
        """Take back the report just written, when something of it was written."""
        ex = Exchange(move)
        self.person.remember()  # the slip: what really happened comes back to the person
        last = next((e for e in reversed(self.exchanges) if e.move.kind == MoveKind.REPORT),
                    None)
        if last is None or last.written is None:
            self.out(f'   (the person would say "{move.text}", but nothing of the last '
                     'report was written: there is nothing to take back)')
            return ex
        self._person(move.text)
        heard = self.robot.hear(move.text, report=False)
        self._robot(heard)
        ex.said, ex.event = heard.said, heard.event
        back = heard.written
        info = (heard.event or {}).get('info') or {}
        if back is not None and info.get('withdraws') == last.event.get('id'):
            last.withdrawn_by = int(heard.event['id'])
            ex.support = self._show_support(sorted(last.written.add))
        else:
            self.out('   (the report was not taken back)')
        return ex

    def question(self, move: Move) -> Exchange:
        """Ask the robot a question; print its answer."""
        ex = Exchange(move)
        self._person(move.text)
        heard = self.robot.hear(move.text, report=False)
        self._robot(heard)
        ex.said, ex.event = heard.said, heard.event
        return ex

    def run(self, story: Iterable[Move]) -> list[Exchange]:
        """Tell the story, one move after another; return what came of each."""
        for move in story:
            handle = {MoveKind.REPORT: self.report, MoveKind.CORRECTION: self.correction,
                      MoveKind.QUESTION: self.question}[move.kind]
            self.exchanges.append(handle(move))
        return self.exchanges

    def summary(self) -> list[str]:
        """Return one line per move: asked back, answered, written, taken back, said."""
        lines = []
        for ex in self.exchanges:
            head = f'"{ex.move.text}"'
            if ex.move.kind == MoveKind.QUESTION:
                lines.append(f'{head} -> the robot: {" ".join(ex.said) or "(no answer)"}')
                continue
            if ex.move.kind == MoveKind.CORRECTION:
                if ex.event is None:
                    lines.append(f'{head} -> not said: nothing to take back')
                elif (ex.event.get('info') or {}).get('withdraws') is not None:
                    lines.append(f'{head} -> event #{ex.event["id"]} took back event '
                                 f'#{ex.event["info"]["withdraws"]}')
                else:
                    lines.append(f'{head} -> {event_line(ex.event)}')
                continue
            parts = []
            if ex.asked:
                answers = ', '.join(f'"{a}"' for _, a in ex.asked)
                parts.append(f'asked back {len(ex.asked)} time'
                             f'{"s" if len(ex.asked) > 1 else ""}, answered {answers}')
            if ex.written is not None:
                kinds = ', '.join(sorted(set(ex.support.values())))
                parts.append(f'written as event #{ex.event["id"]}'
                             + (f' (support {kinds})' if kinds else ''))
            else:
                parts.append('nothing written')
            if ex.withdrawn_by is not None:
                parts.append(f'taken back by event #{ex.withdrawn_by}')
            lines.append(f'{head} -> ' + '; '.join(parts))
        return lines


class AgentRobot:
    """The agent in this process, heard as ``l3mp chat`` hears a line (no ROS).

    A report is Algorithm 3 (or the answer to the question the robot asked back); anything
    else is routed (:meth:`~l3mp_ros.agent.agent.Agent.say`); the words are the turn's
    reply (:meth:`~l3mp_ros.agent.turn.Turn.reply`).
    """

    topics = False

    def __init__(self, agent: Agent, perceivable: Iterable[str] = ()) -> None:
        self.agent = agent
        self.perceivable = frozenset(perceivable)

    def hear(self, text: str, report: bool) -> Heard:
        """Say ``text``; return the robot's words and the event it logged."""
        world = self.agent.world
        turn = self.agent.say(text, UtteranceKind.REPORT if report else None)
        eid = turn.report.event_id if turn.report is not None else None
        found = [e for e in world.events(since_id=eid - 1) if e.id == eid] if eid else []
        return Heard(turn.reply(world), found[0].to_json() if found else None)

    def facts(self, entity: str) -> dict[str, Any]:
        """Return the facts about ``entity`` with their support (as ``kg_query`` does)."""
        world = self.agent.world
        body = query.answer(world.snapshot(), schemas.kg_query('demo', entity=entity),
                            world.domain.predicates, last_event_id=world.last_event())
        query.add_support(body, world, self.perceivable)
        return body
