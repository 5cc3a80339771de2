# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What each fact of the KG rests on: seen, told, given or done (no ROS, no store).

Every fact in the KG has one :class:`Support`, derived from the event that last added it:

* ``seen``: a perception frame (a scene graph) wrote it;
* ``told``: a report wrote it (``nl``, a ``kg apply`` by hand; ``info['speaker']`` names
  who said it when the writer knows);
* ``confirmed``: a report wrote it after asking its speaker back, who said the reading was
  right (:mod:`l3mp_ros.agent.core.asking`); otherwise like ``told`` (the patrol still looks);
* ``given``: the initial state (the store's ``init`` event) or a static domain fact;
* ``done``: the robot's own action (``execution``) wrote it.

An observation that sees a fact already held *confirms* it: the event lists it in
``info['confirmed']`` and the fact's ``seen_*`` fields name that sighting (which event,
which robot, when). A fact is *confirmed* when it was seen when written or since. A
report written while the pipeline had doubts is ``doubtful`` (``info['doubtful']`` on
its event: a hook for the language pipeline; the world model also sets it on a report
that removes what was seen moments ago). A sighting clears the doubt.

The support of every fact is a derived table: both stores keep it current in the same
transaction as each event (:func:`event_rows`) and rebuild it from the event log when it
is missing or behind (:func:`replay`), so it is read without replaying the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from typing import Any

from .events import EventStatus
from .kg import Fact, Update


class SupportKind(StrEnum):
    """What a fact rests on (the support table's ``kind`` column, ``info['support']``)."""

    SEEN = 'seen'
    TOLD = 'told'
    CONFIRMED = 'confirmed'  # told, and confirmed by the speaker when asked back
    GIVEN = 'given'
    DONE = 'done'


KINDS = tuple(SupportKind)
SAID = (SupportKind.TOLD, SupportKind.CONFIRMED)  # what people said (the patrol looks)
OBSERVATION_SOURCES = ('perception',)
ACTION_SOURCES = ('execution',)
GIVEN_SOURCES = ('init', 'initial', 'benchmark-init')
#: a report removing what was seen less than this many seconds ago is marked doubtful
RECENT_SEEN = 30.0
#: an unchanged frame writes a confirming event only for facts not seen for this long
REFRESH_SEEN = 300.0
#: :meth:`SupportIndex.stale_rate` before any look: one wrong fact in this many fact-events
STALE_PRIOR = 1000.0


@dataclass(frozen=True)
class Support:
    """Where one fact came from and when it was last seen."""

    kind: SupportKind
    event_id: int
    time: float
    source: str
    robot: str | None = None  # the writer (a fleet's robot namespace) of a sighting
    speaker: str | None = None  # who said it (told), when the report names someone
    doubtful: bool = False
    seen_event: int | None = None  # the newest sighting since it was written
    seen_time: float | None = None
    seen_robot: str | None = None

    @property
    def confirmed(self) -> bool:
        """Seen when written or since."""
        return self.seen_event is not None

    @property
    def last_seen(self) -> int:
        """Return the event of the newest sighting (the writing event when never seen)."""
        return self.event_id if self.seen_event is None else self.seen_event

    @property
    def unconfirmed_told(self) -> bool:
        """Only told, never seen since."""
        return self.kind in SAID and self.seen_event is None

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-ready dict (``confirmed`` included)."""
        return {**asdict(self), 'confirmed': self.confirmed}

    @classmethod
    def from_row(cls, row: tuple) -> Support:
        """Build from a stored row (the columns after predicate and args)."""
        kind, eid, t, source, robot, speaker, doubtful, s_eid, s_t, s_robot = row
        return cls(SupportKind(kind), int(eid), float(t), source, robot, speaker, bool(doubtful),
                   None if s_eid is None else int(s_eid), s_t, s_robot)

    def row(self) -> tuple:
        """Return the stored columns (after predicate and args)."""
        return (self.kind, self.event_id, self.time, self.source, self.robot, self.speaker,
                int(self.doubtful), self.seen_event, self.seen_time, self.seen_robot)


COLUMNS = ('kind', 'event_id', 'time', 'source', 'robot', 'speaker', 'doubtful',
           'seen_event', 'seen_time', 'seen_robot')


def classify(source: str, info: Mapping | None) -> SupportKind:
    """Return the kind of support an applied event gives the facts it adds."""
    info = info or {}
    if info.get('support') in KINDS:
        return SupportKind(info['support'])
    if source in OBSERVATION_SOURCES or 'observed' in info or 'confirmed' in info:
        return SupportKind.SEEN
    if source in ACTION_SOURCES:
        return SupportKind.DONE
    if source in GIVEN_SOURCES:
        return SupportKind.GIVEN
    return SupportKind.TOLD


def _robot(source: str, info: Mapping) -> str:
    return str(info.get('robot') or info.get('writer') or source)


def confirmed_facts(info: Mapping | None) -> list[Fact]:
    """Return the facts an event's ``info['confirmed']`` names (malformed ones skipped)."""
    out = []
    for t in (info or {}).get('confirmed') or []:
        try:
            out.append(Fact.from_triplet(t))
        except Exception:  # noqa: BLE001 - a malformed entry confirms nothing
            continue
    return out


@dataclass
class Rows:
    """What one event changes in the support table."""

    delete: list[Fact]
    put: dict[Fact, Support]
    confirm: list[Fact]
    seen: tuple[int, float, str]


def event_rows(eid: int, t: float, source: str, update: Update | None,
               info: Mapping | None) -> Rows:
    """Return the support changes of one applied event."""
    info = info or {}
    kind = classify(source, info)
    robot = _robot(source, info)
    speaker = info.get('speaker')
    seen = kind == SupportKind.SEEN
    doubtful = bool(info.get('doubtful')) and not seen
    put: dict[Fact, Support] = {}
    delete: list[Fact] = []
    if update is not None:
        delete = sorted(update.remove - update.add)
        sighting = (eid, t, robot) if seen else (None, None, None)
        for f in sorted(update.add):
            put[f] = Support(kind, eid, t, source, robot if seen else None,
                             str(speaker) if speaker else None, doubtful, *sighting)
    return Rows(delete, put, [f for f in confirmed_facts(info) if f not in put],
                (eid, t, robot))


def sighted(s: Support, seen: tuple[int, float, str]) -> Support:
    """Return ``s`` confirmed by the sighting ``seen`` (event, time, robot)."""
    return replace(s, doubtful=False, seen_event=seen[0], seen_time=seen[1],
                   seen_robot=seen[2])


class SupportIndex:
    """The support of every fact, in memory (a world model's view of the table)."""

    def __init__(self, rows: Mapping[Fact, Support] | None = None) -> None:
        self.rows: dict[Fact, Support] = dict(rows or {})
        self.refuted = 0  # told facts an observation removed before any sighting
        self.upheld = 0  # told facts an observation confirmed
        #: facts not only-told (seen before, given, done) an observation removed
        self.stale_refuted = 0
        #: events since last seen, summed over the not-only-told facts observations
        #: removed or confirmed (how long such facts went unchecked)
        self.stale_exposure = 0

    def get(self, fact: Fact) -> Support | None:
        """Return a fact's support (None: not in the KG, or not known)."""
        return self.rows.get(fact)

    def apply(self, eid: int, t: float, source: str, update: Update | None,
              info: Mapping | None) -> Rows:
        """Follow one applied event; return its changes."""
        rows = event_rows(eid, t, source, update, info)
        observing = classify(source, info) == SupportKind.SEEN
        for f in rows.delete:
            old = self.rows.pop(f, None)
            if observing and old is not None:
                if old.unconfirmed_told:
                    self.refuted += 1
                else:
                    self.stale_refuted += 1
                    self.stale_exposure += max(0, eid - old.last_seen)
        for f in rows.confirm:
            old = self.rows.get(f)
            if old is not None:
                if old.unconfirmed_told:
                    self.upheld += 1
                else:
                    self.stale_exposure += max(0, eid - old.last_seen)
                self.rows[f] = sighted(old, rows.seen)
        self.rows.update(rows.put)
        return rows

    def give(self, facts: Iterable[Fact], eid: int, t: float, source: str = 'init') -> None:
        """Mark facts as given (the initial state)."""
        for f in facts:
            self.rows[f] = Support(SupportKind.GIVEN, eid, t, source)

    def wrong_rate(self) -> float:
        """Return how often unconfirmed told facts turned out wrong when looked at (smoothed)."""
        return (self.refuted + 1) / (self.refuted + self.upheld + 2)

    def stale_rate(self, prior: float = STALE_PRIOR) -> float:
        """Return the chance per event that a fact not only told went wrong unseen (smoothed).

        Observations that removed such a fact, over the events those and the ones they
        confirmed had gone unseen: one wrong in ``prior`` fact-events before any evidence.
        """
        return (self.stale_refuted + 1) / (self.stale_exposure + prior)


def replay(facts: Iterable[Fact], events: Iterable[Any]) -> SupportIndex:
    """Rebuild the support of ``facts`` (the current state) from the event log.

    ``events``: :class:`~l3mp_ros.world.store.Event` objects in id order. A current fact no
    applied event added is given (the initial state). Facts no longer held are dropped.
    """
    index = SupportIndex()
    init = (0, 0.0, 'init')
    for ev in events:
        if ev.status == EventStatus.INIT:
            init = (ev.id, ev.time, ev.source)
            index = SupportIndex()
        elif ev.status == EventStatus.APPLIED:
            index.apply(ev.id, ev.time, ev.source, ev.update, ev.info)
    current = set(facts)
    index.rows = {f: s for f, s in index.rows.items() if f in current}
    index.give((f for f in current if f not in index.rows), *init)
    return index


def unconfirmed(index: SupportIndex, facts: Iterable[Fact]) -> list[Fact]:
    """Return the facts of ``facts`` never seen since they were written."""
    return [f for f in facts if (s := index.get(f)) is not None and not s.confirmed]


def _clock(t: float) -> str:
    import datetime
    return datetime.datetime.fromtimestamp(t).strftime('%H:%M')


def describe(said: str, s: Support, perceivable: bool) -> str:
    """Say what a fact rests on: "Gary said at 10:02 that ...; I have not seen it since".

    ``said``: the fact as a sentence (:class:`~l3mp_ros.world.phrasing.Phrasing`).
    """
    said = said.rstrip('.')
    first = said.split(' ', 1)[0]  # "The red pen ..." -> "the red pen"; "Anna ..." stays
    that = said[:1].lower() + said[1:] if first in ('The', 'A', 'An') else said
    if s.kind == SupportKind.SEEN:
        who = f' ({s.robot})' if s.robot and s.robot != s.source else ''
        out = f'I saw at {_clock(s.time)}{who} that {that}'
    elif s.kind in SAID:
        who = s.speaker.capitalize() if s.speaker else 'I was told'
        verb = 'said' if s.speaker else ''
        out = f'{who} {verb} at {_clock(s.time)} that {that}'.replace('  ', ' ')
        if s.kind == SupportKind.CONFIRMED:
            out += ' (confirmed when I asked back)'
    elif s.kind == SupportKind.DONE:
        out = f'I did it at {_clock(s.time)}: {that}'
    else:
        out = f'{said} (as I was set up)'
    if s.doubtful:
        out += ' (doubtful: it contradicted what I had seen)'
    if s.kind != SupportKind.SEEN:
        if s.seen_time is not None:
            out += f'; I saw it at {_clock(s.seen_time)}'
        elif perceivable:
            out += '; I have not seen it since'
        else:
            out += '; I cannot see that'
    return out + '.'


def told_notes(world: Any, facts: Iterable[Fact], limit: int = 3) -> list[str]:
    """Return what an answer should add about cited facts that were only told.

    "Gary said at 10:02 that the red pen is on the kitchen table; I have not seen it
    since." One sentence per told fact (at most ``limit``); seen, given and done facts
    need none.
    """
    from .phrasing import Phrasing
    phrase = None
    out = []
    for f in facts:
        s = world.support_of(f)
        if s is None or s.kind not in SAID:
            continue
        if phrase is None:
            phrase = Phrasing(world.domain, world.snapshot())
        out.append(describe(phrase.sentence(f), s, True))
        if len(out) >= limit:
            break
    return out
