# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What a resolved list of mentions tells: who is named, how, last, as an owner, as the head.

:func:`.mentions.resolve` returns an utterance's mentions in reading order; the pipelines
read them through these: every entity they may denote (:func:`candidates`), where each was
named last (:func:`last_mentioned`), how the utterance wrote it (:func:`surfaces`), the
owners written before a name (:func:`possessors`, :func:`owners_only`) and the mention a
noun phrase is about (:func:`head`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from l3mp_ros.world.kg import KnowledgeGraph

from ..text import folded, name_words, stem
from .mention import PRONOUNS, Mention, word_tokens

#: a possessive or a contracted verb ending a surface: "Tom's", "radio’s"
CLITIC_RE = re.compile(r"['\u2019]s$")


#: words after "X's" that make it "X has" or "X is", not an owner: "Tom's gone out"
AFTER_CONTRACTION = frozenset(
    'gone been got done taken come put left just already still now not back out off in '
    'on up down over away also finally brought given given made seen shut set run lost '
    'broken fallen'.split())


def owner_at(raw: list[str], k: int, mentions: Iterable[Mention] = ()) -> bool:
    """Tell whether word ``k`` of ``raw`` is written as an owner ("Theo's" in "Theo's tube").

    Not a clitic of a verb: "Tom's gone out", "Liam's wheeled the robot", "Mia's cleaning"
    (the next word is a participle or adverb, or ends in -ed or -ing and neither it nor the
    word after it starts a mention: "Ella's sleeping bag" is owned).
    """
    if not raw[k].lower().endswith(("'s", "s'")) or k + 1 >= len(raw):
        return False
    nxt = raw[k + 1].lower()
    starts = {m.start for m in mentions}
    if k + 1 in starts:
        return True
    # "Ella's sleeping bag", "Mia's padded jacket": a thing named right after the word
    verbal = nxt in AFTER_CONTRACTION or (len(nxt) >= 5 and nxt.endswith(('ed', 'ing'))
                                          and k + 2 not in starts)
    return not (raw[k].lower().endswith("'s") and verbal)


def last_mentioned(mentions: Iterable[Mention]) -> dict[str, int]:
    """Return, per entity a mention may denote, the word position of its last mention.

    The report's order is the order of events: of two places one thing is given, the one
    named last wins ("took the key off her desk and walked it out to Omar").
    """
    where: dict[str, int] = {}
    for m in mentions:
        for c in m.candidates:
            where[c] = max(where.get(c, -1), m.start)
    return where


def _bare(surface: str) -> str:
    """Return ``surface`` without a clitic on its last word ("Tom's" → "Tom")."""
    return CLITIC_RE.sub('', surface) or surface


def surfaces(mentions: list[Mention], owners: Collection[str] = (),
             names: Collection[str] = ()) -> dict[str, str]:
    """Return how the utterance wrote each entity it settled on: "the goggles", "Rosa".

    A name written as two mentions side by side is said whole ("Professor Okafor": the
    type, then the name). A thing written with the name of one of ``owners`` last ("the
    DNA tube Mia left") is said as owned ("Mia's DNA tube"). A name written with a clitic
    ("Tom's gone out", "the radio's died") is said without it: "Tom", "the radio".
    ``names``: entities said by their names (people, usually, :func:`~l3mp_ros.world.
    phrasing.name_types`): "Ben" for ``ben_fisher``, never "the Ben", and capitalised
    where the utterance was not ("cai here" → "Cai"). Otherwise a one-word entity written
    capitalised is a name.
    """
    out: dict[str, str] = {}
    for k, m in enumerate(mentions):
        n = m.resolved
        if not n or not m.surface or n in out or any(
                o.start == m.start and o.surface == m.surface and o.resolved != n
                for o in mentions):
            continue  # "the Hughes": one surface for each of a family says none of them
        surface = _bare(m.surface)
        after = mentions[k + 1] if k + 1 < len(mentions) else None
        if after is not None and after.resolved == n and after.start == m.end and after.surface \
                and _bare(after.surface).lower() != surface.lower():
            surface = f'{surface} {_bare(after.surface)}'
        said = surface.split()
        if len(said) > 1 and "'" not in surface and said[-1].istitle() \
                and said[-1].lower() in owners and said[-1].lower() != n:
            surface = f"{said[-1]}'s {' '.join(said[:-1])}"
        owned = "'" in surface  # "Theo's yeast plate"
        if n in names and not owned:
            out[n] = surface[:1].upper() + surface[1:]  # "Ben", "Mrs Okoye"
            continue
        proper = '_' not in n and surface[:1].isupper()  # a name: "Rosa"
        out[n] = surface if proper or owned else f'the {surface}'
    return out


def possessors(kg: KnowledgeGraph, text: str, *, kinds: bool = False) -> list[str]:
    """Return the entities a one-word name written as an owner names ("Theo's RNA tube").

    Mention resolution reads "Theo's RNA tube" as one mention (``theo_rna_tube``); a task
    may still need Theo himself ("get Theo's tube out for him"): only when a personal
    pronoun may point back at him, or (``kinds``) the utterance speaks of kinds of things
    ("all of Lena's tubes": the things Lena owns).
    """
    tokens = [t[2] for t in word_tokens(text)]
    if not kinds and not PRONOUNS & set(tokens):
        return []  # "the table in Sophia's bedroom": Sophia is no referent of her own
    out = []
    for tok in tokens:
        if tok.endswith(("'s", "s'")):
            name = tok.split("'")[0]
            if name in kg.entities and name not in out:
                out.append(name)
    return out


def owners_only(kg: KnowledgeGraph, text: str, mentions: list[Mention]) -> set[str]:
    """Return the entities ``text`` names only as the owner of what follows.

    "Jerry walked into Michael's room": "Michael's" is a mention of Michael when the room's
    name does not follow his ("michael_bedroom"), yet the report says nothing of Michael.
    Not an entity some other mention names, nor one a personal pronoun may point back at
    (:func:`possessors`: "walked into Michael's room and woke him").
    """
    raw = [t[2] for t in word_tokens(text)]

    def owner(m: Mention) -> bool:
        return owner_at(raw, m.end - 1, mentions)

    owned = {m.resolved for m in mentions if m.resolved and owner(m)}
    named = {m.resolved for m in mentions if m.resolved and not owner(m)}
    return owned - named - set(possessors(kg, text))


#: verbs by which a speaker gives a view, not an act: "Bulb's blown, I reckon."
OPINION = frozenset('reckon reckons reckoned think thinks thought guess guessed suppose '
                    'believe expect hope bet imagine suspect'.split())


def opinion_only(text: str, mentions: list[Mention]) -> set[str]:
    """Return the entities ``text`` names only as the one giving a view.

    "Dev on the radio: the floodlight's gone out. Bulb's blown, I reckon." (read as "Dev
    reckon"): each mention of Dev stands right before a verb of thinking, so the report
    says nothing of where Dev is.
    """
    raw = [t[2] for t in word_tokens(text)]

    def viewing(m: Mention) -> bool:
        return m.end < len(raw) and raw[m.end] in OPINION

    seen = {m.resolved for m in mentions if m.resolved and viewing(m)}
    return seen - {m.resolved for m in mentions if m.resolved and not viewing(m)}


def candidates(mentions: list[Mention]) -> list[str]:
    """Return every entity the mentions may denote, in reading order, once each."""
    return list(dict.fromkeys(n for m in mentions for n in m.candidates))


def head(mentions: list[Mention], text: str) -> Mention | None:
    """Return the mention a noun phrase is about: not an owner, not a description.

    "Ada's tool case": the tool case, not Ada; "the remote in Emily's bedroom": the
    remote. None when the phrase has no mention.
    """
    raw = [t[2] for t in word_tokens(text)]
    for m in mentions:
        owner = owner_at(raw, m.end - 1, mentions) and any(o.start >= m.end for o in mentions)
        if m.describes is None and not owner:
            if m.resolved is None:  # "the cradle at the tills": till_cradle is a cradle
                said = set(m.text.split())
                fuller = [o for o in mentions if o.describes == m.start and o.resolved
                          and said <= {stem(w) for w in name_words(o.resolved)}]
                if len(fuller) == 1:
                    return fuller[0]
            return m
    return mentions[0] if mentions else None


def addressed(text: str, mentions: Iterable[Mention]) -> set[str]:
    """Return the things ``text`` only addresses by name, not speaks of.

    "Thanks, robot, you're a star.": a mention alone between two commas, or between a
    comma and the end of the sentence ("Well done, robot!"), and not an item of a list
    ("Anna, Jerry, and Bob": another mention ends before its comma, or "and"/"or"
    follows). Not a thing another mention names.
    """
    ms = list(mentions)
    low, tokens = folded(text), word_tokens(text)
    ends = {m.end for m in ms}
    said = [(m.resolved, _alone(low, tokens, m, ends)) for m in ms if m.resolved
            and 0 <= m.start < m.end <= len(tokens)]
    return {e for e, alone in said if alone} - {e for e, alone in said if not alone}


def _alone(low: str, tokens: list[tuple[int, int, str]], m: Mention, ends: set[int]) -> bool:
    """Tell whether ``m`` stands alone between a comma and a comma or the sentence's end."""
    before = low[:tokens[m.start][0]].rstrip()
    after = low[tokens[m.end - 1][1]:].strip()
    if not before.endswith(',') or m.start in ends:  # "Anna, Jerry": a list
        return False
    if after in ('', '.', '!', '?'):
        return True
    return after[:1] == ',' and after[1:].split()[:1] not in (['and'], ['or'])
