# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Who "I" is: a report that opens by naming its speaker is read in the third person.

People on a radio or a phone say who they are first: "Frank: I've taken the fire bucket
down to Priya", "Sam here, I'm up in the toy gallery", "Gareth on the radio from the bay:
the crate's here". The opening names a person of the world; it is dropped, and the first
person of the rest is that person ("Frank has taken the fire bucket down to Priya").
Without such an opening the text is left as it is. Only the shape of English and the
world's own names: no word of any domain.
"""

from __future__ import annotations

import re

from ...retrieval.mentions import resolve
from ...world.kg import KnowledgeGraph
from ...world.model import WorldModel
from ...world.phrasing import Phrasing

__all__ = ['third_person']

#: "Frank:", "Sam here,", "Gareth again,", "Gareth on the radio from the bay:"
_NAME = r"(?P<name>(?:[A-Z][a-z]+\.?\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)"
_HOW = (r'(?:\s+(?:here|again|speaking|(?:on|over)\s+the\s+(?:radio|phone)'
        r'(?:\s+(?:from|in|at|on)\s+[^,:;.!?]+)?))')
#: a name and a colon, or a name and how it speaks and a comma ("Martin, who was in the
#: kitchen, ..." is no opening)
_OPENING = re.compile(rf'^\s*{_NAME}(?:{_HOW}*\s*:|{_HOW}+\s*[,;])\s+(?P<rest>\S.*)$',
                      re.DOTALL)

#: the first person and how it reads of a named person ({} is the name)
_FIRST = [(re.compile(p), r) for p, r in [
    (r"\bI'm\b", '{} is'), (r'\bI am\b', '{} is'), (r"\bI've\b", '{} has'),
    (r'\bI have\b', '{} has'), (r"\bI'd\b", '{} had'), (r"\bI'll\b", '{} will'),
    (r'\bI\b', '{}'), (r'\s*\b[Mm]yself\b', ''), (r'\b[Mm]ine\b', "{}'s"),
    (r'\b[Mm]y\b', "{}'s"), (r'\b[Mm]e\b', '{}')]]


def third_person(world: WorldModel, kg: KnowledgeGraph, text: str) -> str:
    """Return ``text`` without an opening that names its speaker, in the third person.

    The opening counts when its name is a mention of exactly one entity whose type is a
    type of names (people: :attr:`~l3mp_ros.world.phrasing.Phrasing.proper`) and a
    report follows it; otherwise ``text`` comes back unchanged.
    """
    found = _OPENING.match(text)
    if found is None:
        return text
    name = found.group('name').strip()
    said = resolve(kg, name)
    people = Phrasing(world.domain, kg).proper
    if len(said) != 1 or said[0].resolved is None or \
            kg.entities.get(said[0].resolved) not in people or \
            ' '.join(said[0].surface.split()) != ' '.join(name.split()):
        return text
    rest = found.group('rest')
    for pattern, said_as in _FIRST:
        rest = pattern.sub(said_as.format(name), rest)
    return rest[:1].upper() + rest[1:]
