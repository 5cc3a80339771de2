# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Natural-language templates of the household benchmark (reports of changes and tasks).

Each entry maps a kind to several wordings that name the same fields, so every wording of a
kind mentions the same entities (the gold query graph does not depend on the wording).
Fields: ``{person}``, ``{other}``, ``{room}``, ``{src}``, ``{dst}``, ``{item}``, ``{fixture}``,
``{phone}``, ``{glass}``, ``{liquid}``, ``{channel}``, ``{tv}``, ``{act}`` (an action phrase).
"""

from __future__ import annotations

# -- frames for a person's action in a room ------------------------------------------
# MOVE: the person first goes to the room; HERE: the person is already there.
FRAME_MOVE: tuple[str, ...] = (
    '{person} went to {room} and {act}.',
    '{person} walked into {room} and {act}.',
    '{person} headed to {room}, then {act}.',
    'After going to {room}, {person} {act}.',
)
FRAME_HERE: tuple[str, ...] = (
    'In {room}, {person} {act}.',
    '{person}, who was in {room}, {act}.',
    'While in {room}, {person} {act}.',
)

# -- action phrases (past tense) ---------------------------------------------------------
ACT: dict[str, tuple[str, ...]] = {
    'light_on': ('turned on {fixture}', 'switched {fixture} on', 'flipped on {fixture}'),
    'light_off': ('turned off {fixture}', 'switched {fixture} off', 'flipped off {fixture}'),
    'window_on': ('opened {fixture}', 'threw {fixture} open', 'opened up {fixture}'),
    'window_off': ('closed {fixture}', 'shut {fixture}', 'pulled {fixture} closed'),
    'faucet_on': ('turned on the faucet of {fixture}', 'started the water in {fixture}',
                  'opened the tap of {fixture}'),
    'faucet_off': ('turned off the faucet of {fixture}', 'stopped the water in {fixture}',
                   'closed the tap of {fixture}'),
    'tv_on': ('used {item} to turn on {tv}', 'switched {tv} on with {item}',
              'turned on {tv} using {item}'),
    'tv_off': ('used {item} to turn off {tv}', 'switched {tv} off with {item}',
               'turned off {tv} using {item}'),
    'tv_channel': ('used {item} to switch {tv} to {channel}',
                   'changed {tv} to {channel} with {item}',
                   'put {channel} on {tv} using {item}'),
    'pick_up': ('picked up {item}', 'took {item}', 'grabbed {item}'),
    'take_from': ('took {item} from {other}', 'got {item} from {other}',
                  'was handed {item} by {other}'),
    'place': ('put {item} {dst}', 'placed {item} {dst}', 'left {item} {dst}'),
    'dish_washed': ('washed {item} and left it in {fixture}',
                    'cleaned {item} in {fixture}', 'scrubbed {item} clean in {fixture}'),
    'glass_filled': ('filled {glass} with {liquid}', 'poured {liquid} into {glass}',
                     'got some {liquid} in {glass}'),
    'glass_emptied': ('drank the {liquid} in {glass}', 'finished the {liquid} in {glass}',
                      'emptied {glass} of {liquid}'),
}

# -- reports without a room frame ----------------------------------------------------------
REPORT: dict[str, tuple[str, ...]] = {
    'phone_ringing': ('{phone} started ringing.', '{phone} is ringing.',
                      'Someone is calling: {phone} is ringing.', 'A call came in on {phone}.'),
    'phone_silenced': ('{phone} stopped ringing.', '{phone} is no longer ringing.',
                       'The call on {phone} ended and it stopped ringing.'),
    'cloth_dirty_by': ('{person} spilled coffee on {item}.', '{person} got {item} dirty.',
                       '{person} wore {item} and now it needs washing.'),
    'cloth_dirty': ('{item} got dirty.', '{item} is dirty now.', 'There is a stain on {item}.'),
    'dish_dirty_by': ('{person} used {item} and left it dirty.', '{person} ate from {item}.',
                      '{person} made {item} dirty.'),
    'dish_dirty': ('{item} is dirty now.', '{item} got dirty.', 'Someone used {item}.'),
    'move_person': ('{person} walked from {src} to {dst}.', '{person} left {src} for {dst}.',
                    '{person} moved from {src} to {dst}.', '{person} went from {src} to {dst}.'),
}

# -- tasks -----------------------------------------------------------------------------------
TASK: dict[str, tuple[str, ...]] = {
    'place_item': ('Please put {item} {dst}.', 'Could you place {item} {dst}?',
                   'I would like {item} {dst}. Can you see to it?',
                   'Can you move {item} so that it is {dst}?'),
    'hand_item': ('Please bring {item} to {person}.',
                  '{person} needs {item}. Can you hand it over?',
                  'Give {item} to {person}, please.', 'Could you fetch {item} for {person}?'),
    'light_on': ('Please turn on {fixture}.', 'It is too dark: switch on {fixture}, please.',
                 'Could you turn {fixture} on?'),
    'light_off': ('Please turn off {fixture}.', 'Nobody needs {fixture}; switch it off, please.',
                  'Could you turn {fixture} off?'),
    'window_on': ('Please open {fixture}.', 'It is stuffy. Could you open {fixture}?',
                  'Open {fixture}, please.'),
    'window_off': ('Please close {fixture}.', 'It is getting cold. Could you shut {fixture}?',
                   'Close {fixture}, please.'),
    'faucet_on': ('Please turn on the faucet of {fixture}.',
                  'Start the water in {fixture}, please.',
                  'Could you open the tap of {fixture}?'),
    'faucet_off': ('Please turn off the faucet of {fixture}.',
                   'The water is running in {fixture}. Could you turn it off?',
                   'Close the tap of {fixture}, please.'),
    'tv_channel': ('Please put {channel} on {tv}.', 'Could you turn on {tv} and show {channel}?',
                   'I want to watch {channel} on {tv}.'),
    'answer_phone': ('{phone} is ringing. Please answer it.', 'Can you answer {phone}?',
                     'Please pick up {phone}, it is ringing.'),
    'silence_phones': ('Several phones are ringing: please answer all of them.',
                       'Answer every ringing phone, please.',
                       'All this ringing is too loud. Could you answer the phones?'),
    'fill_glass': ('Please bring {person} {glass} filled with {liquid}.',
                   '{person} is thirsty. Fill {glass} with {liquid} and hand it over, please.',
                   'Could you pour {liquid} into {glass} and give it to {person}?'),
    'empty_glass': ('Please empty {glass}.', 'Pour out whatever is in {glass}, please.',
                    'Could you empty {glass}?'),
    'wash_dishes': ('Please wash all the dishes.', 'Can you do the dishes?',
                    'The dishes are dirty. Wash all of them, please.'),
    'return_dishes': ('Please return all the dishes to {fixture}.',
                      'Collect every dish and put it in {fixture}, please.',
                      'Could you bring all the dishes back to {fixture}?'),
    'laundry': ('Please do the laundry: wash and dry the dirty clothes in the laundry room and '
                'put them in {fixture}.',
                'Could you wash and dry the dirty clothes in the laundry room and leave them '
                'in {fixture}?',
                'The clothes in the laundry room need cleaning. Wash them, dry them and put '
                'them in {fixture}, please.'),
    'laundry_named': ('Please wash and dry {items} and put them in {fixture}.',
                      'Could you do the laundry for {items}? Everything should end up clean '
                      'and dry in {fixture}.',
                      'Laundry time: {items} should be washed, dried and put in {fixture}.'),
    'organise_kitchen': ('Please organise the kitchen: food in the fridge or pantry, every '
                         'dish clean and in the sink.',
                         'Could you tidy up the kitchen? Put the food away and wash all the '
                         'dishes in the sink.',
                         'The kitchen is a mess. Put all the food where it belongs and clean '
                         'every dish in the sink, please.'),
    'all_off': ('The bills are high. Please turn off all the lights and faucets.',
                'Could you switch off every light and close every faucet?',
                'Save some energy: turn off all lights and faucets, please.'),
    'all_off_tv': ('Please turn off all the lights, faucets and TVs.',
                   'Could you switch off every light, faucet and TV in the house?',
                   'Everything is on. Turn off all lights, faucets and TVs, please.'),
}
