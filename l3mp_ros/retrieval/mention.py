# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""One mention of an utterance, and the English words reading and narrowing mentions share.

A :class:`Mention` is what :func:`.mentions.resolve` returns for each referring expression:
its word positions and the entities it may denote. The word classes below (determiners,
prepositions, owners' pronouns, counts) are the only English this reading knows; both the
reading of runs (:mod:`.mentions`) and the narrowing by the graph (:mod:`.narrowing`) use
them, and :func:`word_tokens` is the one tokenizer both count word positions with.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..text import WORD_RE, folded

OWNERS = frozenset('her his their my our your'.split())  # "her lab coat": said elsewhere
PRONOUNS = frozenset('he him she her they them'.split())  # may point back at an owner
# a rare word that is not an entity's head noun names it only after one of these ("the
# acetone", "her protein sample"), so a verb like "set" does not name spatula_set
DETERMINERS = frozenset('the a an his her its their my our your this that these those '
                        'some'.split())
# "the TV in Julia's bedroom", "level 10 of the shelf": a mention after one of these (and
# determiners) describes the mention before it
PREPOSITIONS = frozenset('in on at from of for inside under near beside behind onto into '
                         'off by'.split())
# a place written after a mention with one of these is where it goes, not where it lies:
# "set the scanner he was holding down on the desk"
DESTINATIONS = frozenset('on onto into'.split())
KINDS = frozenset('every each all any'.split())  # "every light": a kind, not one thing
# "both keys", "two cartons": how many things a plural counts
COUNTS = {'both': 2, 'two': 2, 'three': 3, 'four': 4, 'five': 5, 'six': 6}
ATTACHING = PREPOSITIONS | (DETERMINERS - {'that', 'this', 'these', 'those'}) | {'own'}


@dataclass
class Mention:
    """One referring expression: its word positions and the entities it may denote."""

    start: int
    end: int  # exclusive
    text: str  # the normalised words
    candidates: list[str] = field(default_factory=list)
    surface: str = ''  # the words as written ("Theo's yeast plate")
    # the words that name it when it is named inside a longer mention ("cold room" of
    # "the cold room door"): its surface is those words, not the whole mention's
    part: tuple[int, int] | None = None
    # the start of the mention it describes ("Julia's bedroom" in "the TV in Julia's
    # bedroom"), None when it describes none (:func:`.narrowing._attachments`)
    describes: int | None = None
    plural: bool = False  # its last word is a plural ("Lena's tubes"), or "every light"
    #: a place the utterance names narrowed its candidates ("the remote" while in a room)
    by_place: bool = False
    #: what its words named before the graph narrowed them ("consult two": the room, its
    #: door and its desk), for a reading that knows more than the graph (a verb of going)
    named: tuple[str, ...] = ()

    @property
    def resolved(self) -> str | None:
        """Return the one entity meant, when the candidates agree on one."""
        return self.candidates[0] if len(self.candidates) == 1 else None


def word_tokens(text: str) -> list[tuple[int, int, str]]:
    """Return (start, end, lower-case token) per word of :func:`l3mp_ros.text.words`."""
    low = folded(text)
    return [(t.start(), t.end(), t.group()) for t in WORD_RE.finditer(low)]
