# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The wording of reports and tasks: how rooms, people, furniture and items are referred to.

Each reference is recorded as a mention of the gold query graph (:class:`Mentions`).
"""

from __future__ import annotations

from l3mp_ros.world.kg import KnowledgeGraph
from l3mp_ros_bench.household import templates as T
from l3mp_ros_bench.household.base import Mentions, StreamBase
from l3mp_ros_bench.household.household import INSIDE, ORDINALS


def cap(text: str) -> str:
    """Return ``text`` with its first letter upper case."""
    return text[:1].upper() + text[1:]


class Phrasing(StreamBase):
    """How the stream words things: references to rooms, people, furniture, items."""

    # ------------------------------------------------------------------ NL references
    def _ref_room(self, room: str, m: Mentions) -> tuple[str, int]:
        info = self.info[room]
        phrase = info.display
        if info.owner and self._chance(0.3):
            phrase = f"{info.owner.capitalize()}'s room"
        return phrase, m.add(phrase.removeprefix('the '), room)

    def _ref_person(self, person: str, m: Mentions) -> tuple[str, int]:
        name = self.info[person].display
        return name, m.add(name, person)

    def _ref_fixture(self, fixture: str, m: Mentions, room_idx: int | None = None,
                     room_phrase: bool = True) -> tuple[str, int]:
        """Name a piece of furniture; with ``room_idx`` its room is already mentioned."""
        info = self.info[fixture]
        idx = m.add(info.noun, fixture)
        unique = info.display == f'the {info.noun}'
        if unique:
            return info.display, idx
        room = info.room or ''
        if room_idx is not None and not room_phrase:
            m.rel(idx, 'in', room_idx)
            return f'the {info.noun}', idx
        phrase, ridx = self._ref_room(room, m)
        m.rel(idx, 'in', ridx)
        if self.info[room].owner is None and self._chance(0.4):
            return f'the {self.info[room].noun} {info.noun}', idx
        return f'the {info.noun} in {phrase}', idx

    def _ref_level(self, level: str, m: Mentions,
                   room_idx: int | None = None) -> tuple[str, int]:
        info = self.info[level]
        idx = m.add(info.noun, level)
        shelf_phrase, sidx = self._ref_fixture(info.shelf or '', m, room_idx,
                                               room_phrase=room_idx is None)
        m.rel(idx, 'of', sidx)
        k = info.level or 1
        word = self._one((f'the {ORDINALS[k - 1]} level of', f'level {k} of'))
        return f'{word} {shelf_phrase}', idx

    def _ref_item(self, kg: KnowledgeGraph, item: str, m: Mentions,
                  place: float = 0.4) -> tuple[str, int]:
        """Name an item, sometimes by where it is now ("the tan pen in Joshua's bedroom")."""
        info = self.info[item]
        idx = m.add(info.noun, item)
        phrase = info.display
        if info.type == 'book' and self._chance(0.3):
            phrase = info.noun.split(' ', 1)[1]
        if not self._chance(place):
            return phrase, idx
        loc = self._loc(kg, item)
        holder = loc.args[1]
        if loc.predicate == 'in_agent_hand':
            return phrase, idx
        if loc.predicate == 'in_person_hand':
            who, pidx = self._ref_person(holder, m)
            m.rel(pidx, 'holds', idx)
            return f'{phrase} that {who} is holding', idx
        if self._chance(0.5) and self.info[holder].room is not None:
            room = self.info[holder].room or ''
            rphrase, ridx = self._ref_room(room, m)
            m.rel(idx, 'in', ridx)
            return f'{phrase} in {rphrase}', idx
        fphrase, fidx = self._ref_fixture(holder, m)
        prep = 'in' if self.info[holder].type in INSIDE else 'on'
        m.rel(idx, prep, fidx)
        return f'{phrase} {prep} {fphrase}', idx

    def _frame(self, person: str, room: str, moved: bool, act: str, m: Mentions,
               **fields: str) -> str:
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room(room, m)
        m.rel(pidx, 'in', ridx)
        act_text = act.format(**fields)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        return cap(frame.format(person=pphrase, room=rphrase, act=act_text))

    def _dest_phrase(self, dest: str, level: str | None, m: Mentions, item_idx: int,
                     room_idx: int | None = None) -> str:
        if level is not None:
            lphrase, lidx = self._ref_level(level, m, room_idx)
            m.rel(item_idx, 'on', lidx)
            return f'on {lphrase}'
        fphrase, fidx = (self._ref_fixture(dest, m, room_idx, room_phrase=False)
                         if room_idx is not None else self._ref_fixture(dest, m))
        prep = 'in' if self.info[dest].type in INSIDE else 'on'
        m.rel(item_idx, prep, fidx)
        return f'{prep} {fphrase}'

    def _task_text(self, key: str, **fields: str) -> str:
        return cap(self._one(T.TASK[key]).format(**fields))

    def _kitchen_mentions(self, m: Mentions, fixture: str | None = None) -> str:
        ridx = m.add('kitchen', 'kitchen')
        if fixture is None:
            return 'the kitchen'
        phrase, fidx = self._ref_fixture(fixture, m)
        m.rel(fidx, 'in', ridx)
        return phrase
