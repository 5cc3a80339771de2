# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The words of an utterance and of an entity name, as every layer compares them.

:func:`words` (lower case, possessives dropped, number words as digits), :func:`name_words`
(an entity name split the same way), :func:`stem` (a plural's singular) and the
:data:`STOPWORDS` that name nothing; :class:`UtteranceKind`, what the router calls an
utterance. Imports nothing of the package.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from enum import StrEnum


class UtteranceKind(StrEnum):
    """What an utterance is, as the router tells them apart (``l3mp route``, ``voice_command``)."""

    REPORT = 'report'  # says how the world is: an update of the KG
    TASK = 'task'  # asks the robot to do something: a goal to plan
    QUESTION = 'question'  # asks about the world: answered from the KG


#: words written before a person's name ("Mrs Patel", "Dr. Hale")
TITLES = frozenset('mr mrs ms miss dr prof'.split())
STOPWORDS = frozenset("""
a an the and or but if then so of to in on at by for from with without into onto off out
up down over under again still now just also too very is are was were be been being has
have had do does did done it its it's this that these those there here he she they them
his her hers their theirs him we us our you your i me my mine some any all every each
no not never can could would should will shall may might must as about after before
while when where which who whom whose what why how than only own same other such
someone somebody something anyone everyone nobody nothing one's back away please
""".split())
NUMBER_WORDS = {
    'zero': '0', 'one': '1', 'first': '1', 'two': '2', 'second': '2', 'three': '3',
    'third': '3', 'four': '4', 'fourth': '4', 'five': '5', 'fifth': '5', 'six': '6',
    'sixth': '6', 'seven': '7', 'seventh': '7', 'eight': '8', 'eighth': '8', 'nine': '9',
    'ninth': '9', 'ten': '10', 'tenth': '10', 'eleven': '11', 'eleventh': '11',
    'twelve': '12', 'twelfth': '12', 'thirteen': '13', 'thirteenth': '13',
    'fourteen': '14', 'fourteenth': '14', 'fifteen': '15', 'fifteenth': '15',
    'sixteen': '16', 'sixteenth': '16', 'seventeen': '17', 'seventeenth': '17',
    'eighteen': '18', 'eighteenth': '18', 'nineteen': '19', 'nineteenth': '19',
    'twenty': '20', 'twentieth': '20', 'thirty': '30', 'thirtieth': '30', 'forty': '40',
    'fortieth': '40', 'fifty': '50', 'fiftieth': '50', 'sixty': '60', 'sixtieth': '60',
    'seventy': '70', 'seventieth': '70', 'eighty': '80', 'eightieth': '80', 'ninety': '90',
    'ninetieth': '90', 'hundred': '100',
}
_TENS = ('twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety')
_UNITS = ('one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'first',
          'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth')
# "forty-five" is one word, 45, as "hose_45_b" says it: the tokenizers all count it once
NUMBER_WORDS.update({f'{t}-{u}': str(int(NUMBER_WORDS[t]) + int(NUMBER_WORDS[u]))
                     for t in _TENS for u in _UNITS})
_ORDINAL_RE = re.compile(r'(\d+)(?:st|nd|rd|th)')  # "15th" → 15
WORD_RE = re.compile(rf"(?:{'|'.join(_TENS)})-(?:{'|'.join(_UNITS)})(?![a-z])"
                     r"|[a-z0-9]+(?:'[a-z]+)?")


def unaccented(text: str) -> str:
    """Return ``text`` with its letters' accents dropped ("Café" → "Cafe"), one for one."""
    return ''.join(unicodedata.normalize('NFKD', c)[0] if ord(c) > 127 else c for c in text)


def folded(text: str) -> str:
    """Return ``text`` in lower case, curly apostrophes straight, letters without accents.

    "the Café" → "the cafe": a name written with an accent is the name without it. Each
    character stays one character, so positions in the folded text are positions in
    ``text``.
    """
    return unaccented(text.lower().replace('\u2019', "'"))


_NAME_SPLIT_RE = re.compile(r'[a-z]+|\d+')
# a name written with capitals inside it ("personAt", "firstAidKit", "isOn"), and its parts
_CAMEL_RE = re.compile(r'[A-Za-z][A-Za-z0-9_-]*[a-z0-9][A-Z][A-Za-z0-9_-]*')
_CAMEL_PART_RE = re.compile(r'[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+')
#: how the texts read so far wrote names a PDDL reader lower-cases: personat → person, at
_SPELT: dict[str, tuple[str, ...]] = {}


def spellings(text: str) -> dict[str, tuple[str, ...]]:
    """Return the words of each name ``text`` writes in camel case, by its lower case.

    PDDL is case-insensitive and its reader lower-cases every name, so ``personAt``
    reaches the graph as ``personat``: only the author's capitals say where its words
    part. Names written with no capital inside are not listed.
    """
    out: dict[str, tuple[str, ...]] = {}
    for token in _CAMEL_RE.findall(re.sub(r';[^\n]*', '', text)):  # not in comments
        parts = tuple(p.lower() for p in _CAMEL_PART_RE.findall(token))
        out.setdefault(token.lower(), parts)
    return out


def spelt(name: str) -> tuple[str, ...] | None:
    """Return the words a domain read so far wrote ``name`` with in camel case, else None."""
    return _SPELT.get(name.lower())


def split_name(name: str) -> list[str]:
    """Return the lower-case words of a PDDL name: ``placed_at_table`` → placed, at, table.

    Parts at underscores, hyphens and spaces (``hung-on`` → hung, on); a name, or a part
    of one, the reader lower-cased from camel case (``personat``, written ``personAt``;
    ``chargingdock_1``) splits as it was written (:func:`learn_spellings`). Digits stay
    with their word (``room201``); see :func:`name_words` for words to match against what
    people say.
    """
    whole = spelt(name)
    if whole:
        return list(whole)
    return [w for part in re.split(r'[_\-\s]+', name.lower()) if part
            for w in (spelt(part) or (part,))]


def learn_spellings(text: str) -> None:
    """Remember how ``text`` (a PDDL domain) wrote its camel-case names, for :func:`name_words`.

    The first spelling of a name is kept: one lower-case name has one split everywhere.
    """
    for name, parts in spellings(text).items():
        _SPELT.setdefault(name, parts)


def words(text: str) -> list[str]:
    """Return the normalised words of an utterance (lower case, possessives dropped)."""
    out = []
    for raw in WORD_RE.findall(folded(text)):
        w = raw.split("'")[0]
        ordinal = _ORDINAL_RE.fullmatch(w)
        out.append(ordinal.group(1) if ordinal else NUMBER_WORDS.get(w, w))
    return out


def name_words(name: str) -> list[str]:
    """Split an entity name into words: ``freezer_minus80`` → freezer, minus, 80.

    A name a domain wrote in camel case splits at its capitals (:func:`learn_spellings`):
    ``personat``, read from ``personAt``, is person, at.

    Number words are normalised as in :func:`words` (``book_nineteen_eighty_four`` →
    book, nineteen, 80, 4), so a name and the utterance that says it agree.
    """
    parts = spelt(name) or _NAME_SPLIT_RE.findall(name.lower())  # personat: person, at
    return [NUMBER_WORDS.get(w, w) for w in parts]


def stem(w: str) -> str:
    """Return the singular of a plural word ("batteries" → battery), else the word."""
    if len(w) > 4 and w.endswith('ies'):
        return w[:-3] + 'y'
    if len(w) > 3 and w.endswith('es') and (w[-3] in 'sxz' or w[-4:-2] in ('sh', 'ch')):
        return w[:-2]  # "boxes", "dishes", "benches"
    if len(w) > 3 and w.endswith('s') and not w.endswith(('ss', 'us', 'is')):
        return w[:-1]
    return w


def word_root(w: str) -> str:
    """Return a word's root for loose matching: singular, without "un"/"re" ("unlocked")."""
    w = stem(w)
    for prefix in ('un', 're'):
        if w.startswith(prefix) and len(w) > 5:
            return w[len(prefix):]
    return w


def predicate_roots(predicate: str, names: Collection[str] = ()) -> set[str]:
    """Return the roots of a predicate's own words ("door_locked": lock, door).

    Words of two letters, stopwords and ``names`` (words of entity and type names, also
    by their stem) are left out.
    """
    return {word_root(w) for w in split_name(predicate)
            if len(w) > 2 and w not in STOPWORDS and w not in names and stem(w) not in names}


def same_root(a: str, b: str) -> bool:
    """Tell whether two roots are forms of one word ("locked", "lock"; "tag", "tagged").

    They share their first four letters, or all of the shorter one (three at least).
    """
    short = min(len(a), len(b))
    if short < 3:
        return False
    shared = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), short)
    return shared >= min(4, short)
