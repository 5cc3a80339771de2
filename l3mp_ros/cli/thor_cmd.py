# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""``l3mp thor``: AI2-THOR perception debugging without the simulator.

``l3mp thor scene-graph --metadata EVENT.json [--house HOUSE.json] [--all]`` prints the
``scene_graph/v1`` that the bridge would publish for one recorded ``event.metadata``
(a file holding the metadata dict, or ``{"metadata": {...}}``); ``--all`` reports every
object, not just the visible ones. Exit 2 with a one-line reason on bad input.
"""

from __future__ import annotations

import argparse

from .common import CLIError, dump, read_json


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``thor`` command."""
    p = sub.add_parser('thor', help='AI2-THOR perception debugging')
    verbs = p.add_subparsers(dest='thor_command', required=True, metavar='VERB')
    sg = verbs.add_parser('scene-graph', help='print the scene graph of recorded metadata')
    sg.add_argument('--metadata', required=True, help='JSON file: an AI2-THOR event.metadata')
    sg.add_argument('--house', help='ProcTHOR house JSON (rooms and their floor polygons)')
    sg.add_argument('--types', default='config/ai2thor_types.yaml',
                    help='objectType -> domain type YAML')
    sg.add_argument('--all', action='store_true', help='every object (ground truth)')
    sg.set_defaults(func=cmd_scene_graph)


def cmd_scene_graph(args: argparse.Namespace) -> int:
    """Print the scene graph JSON (0), or exit 2 on bad input."""
    from .. import paths
    from ..ai2thor.scene_graph import SceneGraphError, SceneGraphExtractor

    metadata = read_json(args.metadata)
    if isinstance(metadata, dict) and isinstance(metadata.get('metadata'), dict):
        metadata = metadata['metadata']
    if not isinstance(metadata, dict):
        raise CLIError(f'{args.metadata}: expected a JSON object (an event.metadata)')
    house = None
    if args.house:
        house = read_json(args.house)
        if not isinstance(house, dict) or not isinstance(house.get('rooms'), list):
            raise CLIError(f'{args.house}: not a ProcTHOR house (no "rooms" list)')
    types = paths.resolve(args.types)
    if not types.is_file():
        raise CLIError(f'no such file: {args.types}')
    try:
        extractor = SceneGraphExtractor(types, house)
        graph = extractor.extract(metadata, all_objects=args.all)
    except SceneGraphError as exc:
        raise CLIError(' '.join(str(exc).split())) from None
    print(dump(graph))
    return 0
