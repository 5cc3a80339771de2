# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The state changes of the stream: what people do in the house, with diffs and reports."""

from __future__ import annotations

from collections.abc import Callable

from l3mp_ros.world.kg import Fact, KnowledgeGraph, Update
from l3mp_ros_bench.household import templates as T
from l3mp_ros_bench.household.base import Draft, Mentions
from l3mp_ros_bench.household.household import (
    INSIDE,
    MAX_HELD,
)
from l3mp_ros_bench.household.phrasing import Phrasing, cap

# Change kinds and their weights (room 0.5, movable 0.3, person 0.2 as in the notes).
CHANGE_WEIGHTS: dict[str, float] = {
    'toggle_light': 0.17, 'toggle_window': 0.12, 'toggle_faucet': 0.08, 'tv_power': 0.07,
    'tv_channel': 0.06, 'pick_up': 0.10, 'place_item': 0.09, 'cloth_dirty': 0.03,
    'dish_dirty': 0.03, 'dish_washed': 0.02, 'glass_filled': 0.02, 'glass_emptied': 0.01,
    'phone_ringing': 0.08, 'phone_silenced': 0.04, 'move_person': 0.08,
}


class ChangeBuilders(Phrasing):
    """The state changes people make, each with its exact diff and its report."""

    # ================================================================== changes
    def _change_builders(self) -> dict[str, Callable[[KnowledgeGraph], Draft | None]]:
        return {
            'toggle_light': lambda kg: self._c_toggle(kg, 'light', 'light_on', 'light'),
            'toggle_window': lambda kg: self._c_toggle(kg, 'window', 'window_open', 'window'),
            'toggle_faucet': lambda kg: self._c_toggle(kg, 'sink', 'faucet_on', 'faucet'),
            'tv_power': self._c_tv_power, 'tv_channel': self._c_tv_channel,
            'pick_up': self._c_pick_up, 'place_item': self._c_place,
            'cloth_dirty': lambda kg: self._c_dirty(kg, 'cloth', 'cloth_is_clean'),
            'dish_dirty': lambda kg: self._c_dirty(kg, 'kitchenware', 'dish_is_clean'),
            'dish_washed': self._c_dish_washed, 'glass_filled': self._c_glass_filled,
            'glass_emptied': self._c_glass_emptied, 'phone_ringing': self._c_phone_ringing,
            'phone_silenced': self._c_phone_silenced, 'move_person': self._c_move_person,
        }

    def _c_toggle(self, kg: KnowledgeGraph, type_: str, pred: str, word: str) -> Draft | None:
        fixture = self._pick(self._all(type_))
        room = self.info[fixture].room or ''
        person = self._choose_person(kg, room)
        if person is None:
            return None
        flag = Fact(pred, (fixture,))
        on = flag in kg
        rem, add, moved = self._move(kg, person, room)
        (rem if on else add).append(flag)
        m = Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room(room, m)
        m.rel(pidx, 'in', ridx)
        fphrase, _ = self._ref_fixture(fixture, m, ridx, room_phrase=False)
        act = self._one(T.ACT[f'{word}_{"off" if on else "on"}']).format(fixture=fphrase)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = cap(frame.format(person=pphrase, room=rphrase, act=act))
        return Draft(f'toggle_{word}', text, m, person, Update.of(rem, add))

    def _remote_access(self, kg: KnowledgeGraph, tv: str) -> tuple[str, str, bool] | None:
        """Return (person, remote, picks_up) for someone who can use ``tv``'s remote."""
        remote = f'{tv}_remote'
        loc = self._loc(kg, remote)
        if loc.predicate == 'in_person_hand':
            return loc.args[1], remote, False
        if loc.predicate == 'in_agent_hand' or self.info[loc.args[1]].room != self.info[
                tv].room:
            return None
        person = self._choose_person(kg, self.info[tv].room,
                                     lambda p: len(self._held(kg, p)) < MAX_HELD)
        return (person, remote, True) if person else None

    def _tv_change(self, kg: KnowledgeGraph, tv: str, flip: Update, subkind: str,
                   act_key: str, channel: str | None = None) -> Draft | None:
        access = self._remote_access(kg, tv)
        if access is None:
            return None
        person, remote, picks = access
        room = self.info[tv].room or ''
        rem, add, moved = self._move(kg, person, room)
        if picks:
            rem += self._loc_facts(kg, remote)
            add.append(Fact('in_person_hand', (remote, person)))
        rem += list(flip.remove)
        add += list(flip.add)
        m = Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room(room, m)
        m.rel(pidx, 'in', ridx)
        tphrase, tidx = self._ref_fixture(tv, m, ridx, room_phrase=False)
        ridx2 = m.add('remote', remote)
        m.rel(pidx, 'holds', ridx2)
        fields = {'tv': tphrase, 'item': 'the remote'}
        if channel is not None:
            cphrase = f'the {self.info[channel].noun}'
            cidx = m.add(self.info[channel].noun, channel)
            m.rel(tidx, 'playing', cidx)
            fields['channel'] = cphrase
        act = self._one(T.ACT[act_key]).format(**fields)
        if picks:
            act = f'picked up the remote and {act.replace("the remote", "it")}'
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = cap(frame.format(person=pphrase, room=rphrase, act=act))
        return Draft(subkind, text, m, person, Update.of(rem, add))

    def _c_tv_power(self, kg: KnowledgeGraph) -> Draft | None:
        tvs = [t for t in self._all('tv') if self._remote_access(kg, t) is not None]
        if not tvs:
            return None
        tv = self._pick(tvs)
        flag = Fact('tv_on', (tv,))
        on = flag in kg
        flip = Update.of([flag]) if on else Update.of(add=[flag])
        return self._tv_change(kg, tv, flip, 'tv_power', 'tv_off' if on else 'tv_on')

    def _c_tv_channel(self, kg: KnowledgeGraph) -> Draft | None:
        tvs = [t for t in self._all('tv') if Fact('tv_on', (t,)) in kg
               and self._remote_access(kg, t) is not None]
        if not tvs:
            return None
        tv = self._pick(tvs)
        old = sorted(f for f in kg.facts_of(tv) if f.predicate == 'tv_playing_channel')
        current = {f.args[1] for f in old}
        channel = self._pick(c for c in self._all('channel') if c not in current)
        flip = Update.of(old, [Fact('tv_playing_channel', (tv, channel))])
        return self._tv_change(kg, tv, flip, 'tv_channel', 'tv_channel', channel)

    def _c_pick_up(self, kg: KnowledgeGraph) -> Draft | None:
        items = [i for i in self._all('item') if self._loc(kg, i).predicate != 'in_agent_hand']
        if not items:
            return None
        item = self._pick(items)
        loc = self._loc(kg, item)
        src_person = loc.args[1] if loc.predicate == 'in_person_hand' else None
        room = self._item_room(kg, item)
        person = self._choose_person(
            kg, room, lambda p: p != src_person and len(self._held(kg, p)) < MAX_HELD)
        if person is None:
            return None
        rem, add, moved = self._move(kg, person, room)
        rem += self._loc_facts(kg, item)
        add.append(Fact('in_person_hand', (item, person)))
        m = Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room(room, m)
        m.rel(pidx, 'in', ridx)
        if src_person is not None:
            iphrase, iidx = self._ref_item(kg, item, m, place=0.0)
            ophrase, oidx = self._ref_person(src_person, m)
            m.rel(oidx, 'in', ridx)
            act = self._one(T.ACT['take_from']).format(item=iphrase, other=ophrase)
        else:
            iphrase, iidx = self._ref_item(kg, item, m, place=0.0)
            fphrase, fidx = self._ref_fixture(loc.args[1], m, ridx, room_phrase=False)
            prep = 'out of' if self.info[loc.args[1]].type in INSIDE else 'from'
            act = self._one(T.ACT['pick_up']).format(item=iphrase) + f' {prep} {fphrase}'
            m.rel(iidx, 'in' if prep == 'out of' else 'on', fidx)
        m.rel(pidx, 'holds', iidx)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = cap(frame.format(person=pphrase, room=rphrase, act=act))
        return Draft('pick_up', text, m, person, Update.of(rem, add))

    def _c_place(self, kg: KnowledgeGraph) -> Draft | None:
        holders = [p for p in self._all('person') if self._held(kg, p)]
        if not holders:
            return None
        person = self._pick(holders)
        item = self._pick(self._held(kg, person))
        here = self._room_of_person(kg, person)
        dests = self._destinations(item)
        local = [d for d in dests if self.info[d].room == here]
        dest = self._pick(local if local and self._chance(0.5) else dests)
        room = self.info[dest].room or ''
        rem, add, moved = self._move(kg, person, room)
        rem.append(Fact('in_person_hand', (item, person)))
        facts, level = self._place_facts(item, dest)
        add += facts
        m = Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room(room, m)
        m.rel(pidx, 'in', ridx)
        iphrase, iidx = self._ref_item(kg, item, m, place=0.0)
        dphrase = self._dest_phrase(dest, level, m, iidx, ridx)
        act = self._one(T.ACT['place']).format(item=iphrase, dst=dphrase)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = cap(frame.format(person=pphrase, room=rphrase, act=act))
        return Draft('place_item', text, m, person, Update.of(rem, add))

    def _c_dirty(self, kg: KnowledgeGraph, type_: str, pred: str) -> Draft | None:
        cands = [i for i in self._all(type_) if Fact(pred, (i,)) in kg
                 and self._loc(kg, i).predicate != 'in_agent_hand']
        if not cands:
            return None
        item = self._pick(cands)
        room = self._item_room(kg, item)
        m = Mentions()
        loc = self._loc(kg, item)
        person = None
        if loc.predicate == 'in_person_hand':
            person = loc.args[1]
        elif self._people_in(kg, room) and self._chance(0.6):
            person = self._pick(self._people_in(kg, room))
        word = 'cloth' if type_ == 'cloth' else 'dish'
        if person is not None:
            pphrase, pidx = self._ref_person(person, m)
            iphrase, iidx = self._ref_item(kg, item, m, place=0.3)
            m.rel(pidx, 'used', iidx)
            text = self._one(T.REPORT[f'{word}_dirty_by']).format(person=pphrase, item=iphrase)
        else:
            iphrase, _ = self._ref_item(kg, item, m, place=0.6)
            text = self._one(T.REPORT[f'{word}_dirty']).format(item=iphrase)
        return Draft(f'{word}_dirty', cap(text), m, person,
                     Update.of([Fact(pred, (item,))]))

    def _c_dish_washed(self, kg: KnowledgeGraph) -> Draft | None:
        def ok(dish: str) -> bool:
            loc = self._loc(kg, dish)
            return (Fact('dish_is_clean', (dish,)) not in kg
                    and loc.predicate != 'in_agent_hand'
                    and not any(f.predicate == 'glass_has_liquid' for f in kg.facts_of(dish)))

        dishes = [d for d in self._all('kitchenware') if ok(d)]
        if not dishes:
            return None
        dish = self._pick(dishes)
        loc = self._loc(kg, dish)
        holder = loc.args[1] if loc.predicate == 'in_person_hand' else None
        person = holder or self._choose_person(
            kg, 'kitchen', lambda p: len(self._held(kg, p)) < MAX_HELD)
        if person is None:
            return None
        rem, add, moved = self._move(kg, person, 'kitchen')
        sink = self._all('kitchensink')[0]
        if loc.predicate != 'placed_at_kitchensink':
            rem += self._loc_facts(kg, dish)
            add.append(Fact('placed_at_kitchensink', (dish, sink)))
        add.append(Fact('dish_is_clean', (dish,)))
        m = Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room('kitchen', m)
        m.rel(pidx, 'in', ridx)
        iphrase, iidx = self._ref_item(kg, dish, m, place=0.0 if holder else 0.4)
        fphrase, fidx = self._ref_fixture(sink, m)
        m.rel(iidx, 'in', fidx)
        act = self._one(T.ACT['dish_washed']).format(item=iphrase, fixture=fphrase)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = cap(frame.format(person=pphrase, room=rphrase, act=act))
        return Draft('dish_washed', text, m, person, Update.of(rem, add))

    def _c_glass_filled(self, kg: KnowledgeGraph) -> Draft | None:
        def ok(g: str) -> bool:
            return (Fact('glass_empty', (g,)) in kg and Fact('dish_is_clean', (g,)) in kg
                    and self._loc(kg, g).predicate != 'in_agent_hand')

        glasses = [g for g in self._all('glass') if ok(g)]
        if not glasses:
            return None
        glass = self._pick(glasses)
        loc = self._loc(kg, glass)
        holder = loc.args[1] if loc.predicate == 'in_person_hand' else None
        person = holder or self._choose_person(
            kg, 'kitchen', lambda p: len(self._held(kg, p)) < MAX_HELD)
        if person is None:
            return None
        liquid = self._pick(self._all('liquid'))
        m = Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room('kitchen', m)
        m.rel(pidx, 'in', ridx)
        gphrase, gidx = self._ref_item(kg, glass, m, place=0.0 if holder else 0.5)
        lidx = m.add(self.info[liquid].noun, liquid)
        m.rel(gidx, 'has', lidx)
        m.rel(pidx, 'holds', gidx)
        rem, add, moved = self._move(kg, person, 'kitchen')
        if holder is None:
            rem += self._loc_facts(kg, glass)
            add.append(Fact('in_person_hand', (glass, person)))
        rem += [Fact('glass_empty', (glass,)), Fact('dish_is_clean', (glass,))]
        add.append(Fact('glass_has_liquid', (glass, liquid)))
        act = self._one(T.ACT['glass_filled']).format(glass=gphrase,
                                                      liquid=self.info[liquid].noun)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = cap(frame.format(person=pphrase, room=rphrase, act=act))
        return Draft('glass_filled', text, m, person, Update.of(rem, add))

    def _c_glass_emptied(self, kg: KnowledgeGraph) -> Draft | None:
        glasses = [g for g in self._all('glass')
                   if any(f.predicate == 'glass_has_liquid' for f in kg.facts_of(g))
                   and self._loc(kg, g).predicate != 'in_agent_hand']
        if not glasses:
            return None
        glass = self._pick(glasses)
        liquid = next(f.args[1] for f in sorted(kg.facts_of(glass))
                      if f.predicate == 'glass_has_liquid')
        loc = self._loc(kg, glass)
        holder = loc.args[1] if loc.predicate == 'in_person_hand' else None
        room = self._item_room(kg, glass)
        person = holder or self._choose_person(kg, room)
        if person is None:
            return None
        rem, add, moved = self._move(kg, person, room)
        rem.append(Fact('glass_has_liquid', (glass, liquid)))
        add.append(Fact('glass_empty', (glass,)))
        if Fact('dish_is_clean', (glass,)) in kg:
            rem.append(Fact('dish_is_clean', (glass,)))
        m = Mentions()
        pphrase, pidx = self._ref_person(person, m)
        rphrase, ridx = self._ref_room(room, m)
        m.rel(pidx, 'in', ridx)
        gphrase, gidx = self._ref_item(kg, glass, m, place=0.0 if holder else 0.4)
        lidx = m.add(self.info[liquid].noun, liquid)
        m.rel(gidx, 'had', lidx)
        act = self._one(T.ACT['glass_emptied']).format(glass=gphrase,
                                                       liquid=self.info[liquid].noun)
        frame = self._one(T.FRAME_MOVE if moved else T.FRAME_HERE)
        text = cap(frame.format(person=pphrase, room=rphrase, act=act))
        return Draft('glass_emptied', text, m, person, Update.of(rem, add))

    def _c_phone(self, kg: KnowledgeGraph, ringing: bool) -> Draft | None:
        phones = [p for p in self._all('phone') if (Fact('phone_ringing', (p,)) in kg) == ringing]
        if not phones:
            return None
        phone = self._pick(phones)
        m = Mentions()
        pphrase, _ = self._ref_item(kg, phone, m, place=0.3)
        flag = Fact('phone_ringing', (phone,))
        key = 'phone_silenced' if ringing else 'phone_ringing'
        text = cap(self._one(T.REPORT[key]).format(phone=pphrase))
        diff = Update.of([flag]) if ringing else Update.of(add=[flag])
        return Draft(key, text, m, None, diff)

    def _c_phone_ringing(self, kg: KnowledgeGraph) -> Draft | None:
        return self._c_phone(kg, False)

    def _c_phone_silenced(self, kg: KnowledgeGraph) -> Draft | None:
        return self._c_phone(kg, True)

    def _c_move_person(self, kg: KnowledgeGraph) -> Draft | None:
        person = self._pick(self._all('person'))
        src = self._room_of_person(kg, person)
        dst = self._pick(r for r in self._all('room') if r != src)
        m = Mentions()
        pphrase, pidx = self._ref_person(person, m)
        sphrase, sidx = self._ref_room(src, m)
        dphrase, didx = self._ref_room(dst, m)
        m.rel(pidx, 'in', didx)
        text = cap(self._one(T.REPORT['move_person']).format(person=pphrase, src=sphrase,
                                                             dst=dphrase))
        diff = Update.of([Fact('person_in_room', (person, src))],
                         [Fact('person_in_room', (person, dst))])
        return Draft('move_person', text, m, person, diff)
