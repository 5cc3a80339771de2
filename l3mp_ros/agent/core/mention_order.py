# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The last mention wins: of the things an utterance offers for one slot, the last named.

A report's order is the order of events ("took the key off her desk and walked it out to
Omar": Omar has it), and a request names what it is about before where it goes ("put all
of Lena's tubes in the fridge": the fridge). Both pipelines settle such a clash the same
way: :func:`named_last`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from ...retrieval.mention import Mention
from ...retrieval.mention_lists import last_mentioned
from ...text import WORD_RE, folded

T = TypeVar('T')


def named_last(items: Sequence[T], key: Callable[[T], str], mentions: Iterable[Mention],
               text: str = '') -> T | None:
    """Return the item whose ``key`` the utterance names last, or None.

    A name's position is that of the last mention that may denote it
    (:func:`~l3mp_ros.retrieval.mention_lists.last_mentioned`); with ``text``, a word no
    mention covers counts at its own position (an owner inside a mention: "Lena's
    tubes"). None when an item's name is not named at all, or when the last two are named
    at the same place (named together: nothing says which came last).
    """
    where = last_mentioned(mentions)
    for k, tok in enumerate(WORD_RE.findall(folded(text))):
        where.setdefault(tok.split("'")[0], k)
    at = [where.get(key(i)) for i in items]
    if not at or None in at:
        return None
    last = max(p for p in at if p is not None)
    found = [i for i, p in zip(items, at, strict=True) if p == last]
    return found[0] if len(found) == 1 else None
