# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""``l3mp demo``: the README's first command (household KG on embedded defaults)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..config import Config
from ..world.kg import Update
from .kg_cmd import format_event, summary

DEMO_UPDATES = [
    ('Jerry took the red pen from the living room table.',
     'REMOVE: (red_pen, placed_at_table, living_room_table) '
     'ADD: (red_pen, in_person_hand, jerry)'),
    ('Someone says the red pen is on the kitchen counter (there is no such furniture).',
     'REMOVE: (red_pen, in_person_hand, jerry) ADD: (red_pen, placed_at_table, kitchen_counter)'),
]


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``demo`` verb."""
    p = sub.add_parser('demo', help='run the household demo on embedded defaults')
    p.add_argument('--out', default='out/demo', help='directory for the demo store and logs')
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    """Load the shipped household into a fresh store, apply updates, print the KG history."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from ..compose import open_world  # the pipelines load on demand

    cfg = Config(domain='pddl/household.pddl', initial_state='config/household_state.json',
                 store=str(out / 'kg.db'))
    world = open_world(cfg, fresh=True)
    store = world.store
    print('== 1. the household KG (store: %s)' % (out / 'kg.db'))
    print(summary(world.kg))
    print('\n== 2. verified updates')
    for utterance, text in DEMO_UPDATES:
        res = world.apply(Update.parse(text), source='demo', utterance=utterance)
        print(f'"{utterance}"\n  -> {"applied" if res.applied else "rejected"}')
        for e in res.errors:
            print(f'     ! {e}')
    print('\n== 3. history')
    for e in store.history():
        print(format_event(e))
    world.close()
    return 0
