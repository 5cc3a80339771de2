# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""``l3mp demo``: the README's first command (household KG on embedded defaults).

The shipped household goes into a fresh SQLite store; two updates written by hand are
verified (one applied, one rejected); then a scripted person tells the robot a short
story through the library (:mod:`l3mp_ros.agent.scripted`: the model reads each report,
the person answers every question the robot asks back, takes a slip back and asks where
the red pen is); the event log and a summary close it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..config import Config
from ..world.kg import Update
from .common import add_llm_options, config_option, llm_settings
from .kg_cmd import format_event, summary

DEMO_UPDATES = [
    ('Anna went to the bathroom and turned off the light.',
     'REMOVE: (anna, person_in_room, anna_bedroom) '
     'ADD: (anna, person_in_room, bathroom), (bathroom_light, light_on, false)'),
    ('Someone says the red pen is on the kitchen counter (there is no such furniture).',
     'REMOVE: (red_pen, placed_at_table, living_room_table) '
     'ADD: (red_pen, placed_at_table, kitchen_counter)'),
]


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``demo`` verb."""
    p = sub.add_parser('demo', help='run the household demo on embedded defaults')
    p.add_argument('--out', default='out/demo', help='directory for the demo store and logs')
    add_llm_options(p)
    config_option(p, 'retriever')
    p.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    """Load the household into a fresh store, apply updates, talk, print the history."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from ..agent.scripted import (
        HOUSEHOLD_NOTE,
        HOUSEHOLD_STORY,
        AgentRobot,
        Conversation,
        ScriptedPerson,
    )
    from ..compose import build_agent, open_world  # the pipelines load on demand
    from ..world.perceive import load_perceivable

    cfg = Config(domain='pddl/household.pddl', initial_state='config/household_state.json',
                 store=str(out / 'kg.db'), retriever=args.retriever, **llm_settings(args))
    world = open_world(cfg, fresh=True)
    print('== 1. the household KG (store: %s)' % (out / 'kg.db'))
    print(summary(world.kg))
    print('\n== 2. verified updates, written by hand (no LLM)')
    for utterance, text in DEMO_UPDATES:
        res = world.apply(Update.parse(text), source='demo', utterance=utterance)
        print(f'"{utterance}"\n  -> {"applied" if res.applied else "rejected"}')
        for e in res.errors:
            print(f'     ! {e}')
    model = (f'the LLM at {cfg.llm_url}' if cfg.llm_url
             else 'the embedded model (slow on 2 cores: minutes per report)')
    print(f'\n== 3. a conversation through the library: {model} reads each report; a '
          'scripted person answers what the robot asks back')
    print(HOUSEHOLD_NOTE)
    agent = build_agent(cfg, world)
    # what holds (the house as it is now), as the person knows it
    person = ScriptedPerson(world.snapshot(), world.domain, world.constraints)
    talk = Conversation(AgentRobot(agent, load_perceivable(cfg.perception_config)), person,
                        out=lambda line: print(line, flush=True))
    talk.run(HOUSEHOLD_STORY)
    print('\n== 4. history')
    for e in world.store.history():
        print(format_event(e))
    print('\n== summary')
    for line in talk.summary():
        print(f'  {line}')
    agent.close()
    return 0
