# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The tasks of the stream: what people ask the robot, with goals and reference outcomes."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from l3mp_ros.world.kg import Fact, KnowledgeGraph
from l3mp_ros_bench.household.base import Draft, Mentions
from l3mp_ros_bench.household.goals import goal_holds
from l3mp_ros_bench.household.household import (
    MAX_HELD,
    ROBOT,
)
from l3mp_ros_bench.household.phrasing import Phrasing

# Task kinds and their weights (room 0.35, collective 0.1, movable 0.3, person 0.25).
TASK_WEIGHTS: dict[str, float] = {
    'switch_light': 0.14, 'window': 0.10, 'faucet': 0.05, 'tv_channel': 0.06,
    'place_item': 0.20, 'empty_glass': 0.04, 'hand_item': 0.12, 'answer_phone': 0.09,
    'fill_glass': 0.06, 'wash_dishes': 0.03, 'return_dishes': 0.02, 'laundry': 0.03,
    'organise_kitchen': 0.02, 'silence_phones': 0.02, 'all_off': 0.02,
}


class TaskBuilders(Phrasing):
    """The tasks given to the robot: text, PDDL goal and a reachable reference outcome."""

    # ================================================================== tasks
    def _task_builders(self) -> dict[str, Callable[[KnowledgeGraph], Draft | None]]:
        return {
            'switch_light': lambda kg: self._t_flag(kg, 'light', 'light_on', 'light',
                                                    'switch_light'),
            'window': lambda kg: self._t_flag(kg, 'window', 'window_open', 'window', 'window'),
            'faucet': lambda kg: self._t_flag(kg, 'sink', 'faucet_on', 'faucet', 'faucet'),
            'tv_channel': self._t_tv_channel, 'place_item': self._t_place,
            'hand_item': self._t_hand, 'answer_phone': self._t_answer_phone,
            'silence_phones': self._t_silence_phones, 'fill_glass': self._t_fill_glass,
            'empty_glass': self._t_empty_glass, 'wash_dishes': self._t_wash_dishes,
            'return_dishes': self._t_return_dishes, 'laundry': self._t_laundry,
            'organise_kitchen': self._t_organise_kitchen, 'all_off': self._t_all_off,
        }

    def _t_flag(self, kg: KnowledgeGraph, type_: str, pred: str, word: str,
                subkind: str) -> Draft | None:
        fixture = self._pick(self._all(type_))
        flag = Fact(pred, (fixture,))
        want = flag not in kg
        m = Mentions()
        fphrase, _ = self._ref_fixture(fixture, m)
        text = self._task_text(f'{word}_{"on" if want else "off"}', fixture=fphrase)
        out = kg.copy()
        self._set(out, flag, want)
        self._robot_to(out, self.info[fixture].room or '')
        return Draft(subkind, text, m, goal=[(want, flag)], outcome=out)

    def _t_tv_channel(self, kg: KnowledgeGraph) -> Draft | None:
        # the robot can always take the remote, from anyone and anywhere
        tv = self._pick(self._all('tv'))
        on = Fact('tv_on', (tv,)) in kg
        current = {f.args[1] for f in kg.facts_of(tv) if f.predicate == 'tv_playing_channel'}
        channel = self._pick(c for c in self._all('channel') if not on or c not in current)
        m = Mentions()
        tphrase, tidx = self._ref_fixture(tv, m)
        cidx = m.add(self.info[channel].noun, channel)
        m.rel(tidx, 'playing', cidx)
        text = self._task_text('tv_channel', tv=tphrase, channel=f'the {self.info[channel].noun}')
        goal = [(True, Fact('tv_on', (tv,))), (True, Fact('tv_playing_channel', (tv, channel)))]
        out = kg.copy()
        for f in sorted(out.facts_of(tv)):
            if f.predicate == 'tv_playing_channel':
                out.remove_fact(f)
        for _, f in goal:
            out.add_fact(f)
        self._relocate(out, f'{tv}_remote', [Fact('in_agent_hand', (f'{tv}_remote', ROBOT))])
        self._robot_to(out, self.info[tv].room or '')
        return Draft('tv_channel', text, m, goal=goal, outcome=out)

    def _movable_for_task(self, kg: KnowledgeGraph) -> str:
        kinds = ('book', 'pen', 'cloth', 'phone', 'remote', 'kitchenware', 'food')
        kind = self._one(kinds)
        return self._pick(self._all(kind))

    def _t_place(self, kg: KnowledgeGraph) -> Draft | None:
        item = self._movable_for_task(kg)
        dests = self._all('table') + self._all('shelf')
        dest = self._pick(dests)
        facts, level = self._place_facts(item, dest)
        if all(f in kg for f in facts):
            dest = self._pick(d for d in self._all('table') if d != dest)
            facts, level = self._place_facts(item, dest)
            if all(f in kg for f in facts):
                return None
        m = Mentions()
        iphrase, iidx = self._ref_item(kg, item, m, place=0.5)
        dphrase = self._dest_phrase(dest, level, m, iidx)
        text = self._task_text('place_item', item=iphrase, dst=dphrase)
        out = kg.copy()
        self._relocate(out, item, facts)
        self._robot_to(out, self.info[dest].room or '')
        return Draft('place_item', text, m, goal=[(True, f) for f in facts], outcome=out)

    def _t_hand(self, kg: KnowledgeGraph) -> Draft | None:
        item = self._movable_for_task(kg)
        loc = self._loc(kg, item)
        people = [p for p in self._all('person') if len(self._held(kg, p)) < MAX_HELD
                  and loc != Fact('in_person_hand', (item, p))]
        if not people:
            return None
        owner = self.info[item].owner
        person = owner if owner in people and self._chance(0.5) else self._pick(people)
        m = Mentions()
        iphrase, iidx = self._ref_item(kg, item, m, place=0.5)
        pphrase, pidx = self._ref_person(person, m)
        m.rel(pidx, 'holds', iidx)
        text = self._task_text('hand_item', item=iphrase, person=pphrase)
        goal = [(True, Fact('in_person_hand', (item, person)))]
        out = kg.copy()
        self._relocate(out, item, [goal[0][1]])
        self._robot_to(out, self._room_of_person(kg, person))
        return Draft('hand_item', text, m, goal=goal, outcome=out)

    def _ringing(self, kg: KnowledgeGraph) -> list[str]:
        return [p for p in self._all('phone') if Fact('phone_ringing', (p,)) in kg]

    def _answer_all(self, kg: KnowledgeGraph, phones: Sequence[str]) -> KnowledgeGraph:
        out = kg.copy()
        for phone in phones:
            out.remove_fact(Fact('phone_ringing', (phone,)))
            self._robot_to(out, self._item_room(kg, phone))
            self._relocate(out, phone, [Fact('in_agent_hand', (phone, ROBOT))])
        return out

    def _t_answer_phone(self, kg: KnowledgeGraph) -> Draft | None:
        ringing = self._ringing(kg)
        if not ringing:
            return None
        phone = self._pick(ringing)
        m = Mentions()
        pphrase, _ = self._ref_item(kg, phone, m, place=0.3)
        text = self._task_text('answer_phone', phone=pphrase)
        goal = [(False, Fact('phone_ringing', (phone,)))]
        return Draft('answer_phone', text, m, goal=goal, outcome=self._answer_all(kg, [phone]))

    def _t_silence_phones(self, kg: KnowledgeGraph) -> Draft | None:
        ringing = self._ringing(kg)
        if len(ringing) < 2:
            return None
        m = Mentions()
        for phone in ringing:
            m.add(self.info[phone].noun, phone)
        text = self._task_text('silence_phones')
        goal = [(False, Fact('phone_ringing', (p,))) for p in ringing]
        return Draft('silence_phones', text, m, goal=goal,
                     outcome=self._answer_all(kg, ringing))

    def _t_fill_glass(self, kg: KnowledgeGraph) -> Draft | None:
        glass = self._pick(self._all('glass'))
        liquid = self._pick(self._all('liquid'))
        loc = self._loc(kg, glass)
        people = [p for p in self._all('person') if len(self._held(kg, p)) < MAX_HELD
                  or loc == Fact('in_person_hand', (glass, p))]
        if not people:
            return None
        person = self._pick(people)
        goal = [(True, Fact('glass_has_liquid', (glass, liquid))),
                (True, Fact('in_person_hand', (glass, person)))]
        if goal_holds(kg, goal):
            return None
        m = Mentions()
        pphrase, pidx = self._ref_person(person, m)
        gphrase, gidx = self._ref_item(kg, glass, m, place=0.4)
        lidx = m.add(self.info[liquid].noun, liquid)
        m.rel(gidx, 'has', lidx)
        m.rel(pidx, 'holds', gidx)
        text = self._task_text('fill_glass', person=pphrase, glass=gphrase,
                               liquid=self.info[liquid].noun)
        out = kg.copy()
        has = Fact('glass_has_liquid', (glass, liquid))
        if has not in kg:
            # empty it (kitchen sink), wash it if dirty (sink, faucet on), fill it (fridge)
            for f in sorted(kg.facts_of(glass)):
                if f.predicate in ('glass_has_liquid', 'glass_empty'):
                    out.remove_fact(f)
            if Fact('dish_is_clean', (glass,)) not in kg or any(
                    f.predicate == 'glass_has_liquid' for f in kg.facts_of(glass)):
                out.add_fact(Fact('faucet_on', (self._all('kitchensink')[0],)))
            out.remove_fact(Fact('dish_is_clean', (glass,)))
            out.add_fact(has)
        self._relocate(out, glass, [Fact('in_person_hand', (glass, person))])
        self._robot_to(out, self._room_of_person(kg, person))
        return Draft('fill_glass', text, m, goal=goal, outcome=out)

    def _t_empty_glass(self, kg: KnowledgeGraph) -> Draft | None:
        full = [g for g in self._all('glass') if Fact('glass_empty', (g,)) not in kg]
        if not full:
            return None
        glass = self._pick(full)
        m = Mentions()
        gphrase, _ = self._ref_item(kg, glass, m, place=0.5)
        text = self._task_text('empty_glass', glass=gphrase)
        goal = [(True, Fact('glass_empty', (glass,)))]
        out = kg.copy()
        for f in sorted(kg.facts_of(glass)):
            if f.predicate == 'glass_has_liquid':
                out.remove_fact(f)
        out.add_fact(goal[0][1])
        self._relocate(out, glass, [Fact('in_agent_hand', (glass, ROBOT))])
        self._robot_to(out, 'kitchen')
        return Draft('empty_glass', text, m, goal=goal, outcome=out)

    def _wash_into_sink(self, kg: KnowledgeGraph, out: KnowledgeGraph,
                        dishes: Iterable[str], clean: bool) -> None:
        sink = self._all('kitchensink')[0]
        for d in dishes:
            if Fact('placed_at_kitchensink', (d, sink)) not in kg:
                self._relocate(out, d, [Fact('placed_at_kitchensink', (d, sink))])
            if clean and Fact('dish_is_clean', (d,)) not in kg:
                out.add_fact(Fact('dish_is_clean', (d,)))
                out.add_fact(Fact('faucet_on', (sink,)))
        self._robot_to(out, self.info[sink].room or 'kitchen')

    def _t_wash_dishes(self, kg: KnowledgeGraph) -> Draft | None:
        dishes = self._all('kitchenware')
        dirty = [d for d in dishes if Fact('dish_is_clean', (d,)) not in kg]
        if not dirty:
            return None
        m = Mentions()
        self._kitchen_mentions(m)
        for d in dirty:
            m.add(self.info[d].noun, d)
        text = self._task_text('wash_dishes')
        goal = [(True, Fact('dish_is_clean', (d,))) for d in dishes]
        out = kg.copy()
        self._wash_into_sink(kg, out, dirty, clean=True)
        return Draft('wash_dishes', text, m, goal=goal, outcome=out)

    def _t_return_dishes(self, kg: KnowledgeGraph) -> Draft | None:
        sink = self._all('kitchensink')[0]
        dishes = self._all('kitchenware')
        away = [d for d in dishes if Fact('placed_at_kitchensink', (d, sink)) not in kg]
        if not away:
            return None
        m = Mentions()
        fphrase = self._kitchen_mentions(m, sink)
        for d in away:
            m.add(self.info[d].noun, d)
        text = self._task_text('return_dishes', fixture=fphrase)
        goal = [(True, Fact('placed_at_kitchensink', (d, sink))) for d in dishes]
        out = kg.copy()
        self._wash_into_sink(kg, out, away, clean=False)
        return Draft('return_dishes', text, m, goal=goal, outcome=out)

    def _t_laundry(self, kg: KnowledgeGraph) -> Draft | None:
        basket = self._all('laundrybasket')[0]
        dirty = [c for c in self._all('cloth') if Fact('cloth_is_clean', (c,)) not in kg
                 or Fact('cloth_is_dry', (c,)) not in kg]
        if not dirty:
            return None
        laundry_preds = ('placed_at_washer', 'placed_at_dryer', 'placed_at_laundrybasket')
        in_room = [c for c in dirty if self._loc(kg, c).predicate in laundry_preds]
        m = Mentions()
        fphrase, fidx = self._ref_fixture(basket, m)
        if 1 <= len(in_room) <= 5 and self._chance(0.5):
            # kept small: the washer/dryer cycles' conditional effects make long goals hard
            clothes = in_room
            ridx = m.add('laundry room', self.info[basket].room or 'laundry_room')
            for c in clothes:
                m.rel(m.add(self.info[c].noun, c), 'in', ridx)
            text = self._task_text('laundry', fixture=fphrase)
        else:
            clothes = sorted(self.rng.sample(dirty, min(len(dirty), self.rng.randint(1, 3))))
            phrases = [self._ref_item(kg, c, m, place=0.3)[0] for c in clothes]
            items = (phrases[0] if len(phrases) == 1
                     else ', '.join(phrases[:-1]) + ' and ' + phrases[-1])
            text = self._task_text('laundry_named', items=items, fixture=fphrase)
        goal: list[tuple[bool, Fact]] = []
        out = kg.copy()
        for c in clothes:
            facts = [Fact('cloth_is_clean', (c,)), Fact('cloth_is_dry', (c,)),
                     Fact('placed_at_laundrybasket', (c, basket))]
            goal += [(True, f) for f in facts]
            self._relocate(out, c, facts[2:])
            out.add_fact(facts[0])
            out.add_fact(facts[1])
            self.uses[c] = self.uses.get(c, 0) + 1
        self._robot_to(out, self.info[basket].room or 'laundry_room')
        return Draft('laundry', text, m, goal=goal, outcome=out)

    def _t_organise_kitchen(self, kg: KnowledgeGraph) -> Draft | None:
        fridge = self._all('fridge')[0]
        pantry = self._all('pantry')[0]
        sink = self._all('kitchensink')[0]
        goal: list[tuple[bool, Fact]] = []
        goal += [(True, Fact('placed_at_fridge', (f, fridge))) for f in self._all('perishable')]
        goal += [(True, Fact('placed_at_pantry', (f, pantry)))
                 for f in self._all('nonperishable')]
        for d in self._all('kitchenware'):
            goal += [(True, Fact('placed_at_kitchensink', (d, sink))),
                     (True, Fact('dish_is_clean', (d,)))]
        if goal_holds(kg, goal):
            return None
        m = Mentions()
        self._kitchen_mentions(m)
        for fx in (fridge, pantry, sink):
            self._kitchen_mentions(m, fx)
        out = kg.copy()
        for _, f in goal:
            if f in kg:
                continue
            if f.predicate == 'dish_is_clean':
                out.add_fact(f)
                out.add_fact(Fact('faucet_on', (sink,)))
            else:
                self._relocate(out, f.args[0], [f])
            m.add(self.info[f.args[0]].noun, f.args[0])
        self._robot_to(out, 'kitchen')
        text = self._task_text('organise_kitchen')
        return Draft('organise_kitchen', text, m, goal=goal, outcome=out)

    def _t_all_off(self, kg: KnowledgeGraph) -> Draft | None:
        with_tv = self._chance(0.5)
        flags = [Fact('light_on', (lt,)) for lt in self._all('light')]
        flags += [Fact('faucet_on', (s,)) for s in self._all('sink')]
        if with_tv:
            flags += [Fact('tv_on', (t,)) for t in self._all('tv')]
        if not any(f in kg for f in flags):
            return None
        m = Mentions()
        out = kg.copy()
        for f in flags:
            if f in kg:
                m.add(self.info[f.args[0]].noun, f.args[0])
                out.remove_fact(f)
                if f.predicate == 'tv_on':
                    remote = f'{f.args[0]}_remote'
                    self._relocate(out, remote, [Fact('in_agent_hand', (remote, ROBOT))])
                self._robot_to(out, self.info[f.args[0]].room or '')
        text = self._task_text('all_off_tv' if with_tv else 'all_off')
        return Draft('all_off', text, m, goal=[(False, f) for f in flags], outcome=out)
