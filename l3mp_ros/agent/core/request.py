# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The front half Algorithms 3 and 4 share: one utterance, its graph, retrieval and mentions.

:meth:`Request.start` refuses an empty utterance and takes one snapshot of the graph (every
later step reads that snapshot, never the live store); :meth:`Request.retrieve` runs the
retriever (or takes a retrieval already made) and counts what it cost;
:meth:`Request.resolve` links the utterance's mentions to entities, once (a part's are
that resolution's, :meth:`Request.mentions_in`); :meth:`Request.parts` cuts it into the
changes or requests it tells. What each algorithm grounds on top of this
(an update's or a goal's schema) stays with that algorithm.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from ...llm.protocol import ChatLLM, LLMError, Usage, llm_failure
from ...retrieval.base import Retrieval, Retriever
from ...retrieval.mention import Mention
from ...retrieval.mentions import resolve
from ...text import name_words, words
from ...world.kg import KnowledgeGraph
from ...world.model import WorldModel
from ...world.phrasebook import Phrasebook
from ...world.phrasing import Phrasing, name_types
from .clauses import bringing_spans, going_ends, named_as_source, split_report
from .destinations import destinations, is_place, place_predicates
from .speaker import read_opening


@dataclass
class Request:
    """One utterance read against one snapshot of the world model."""

    world: WorldModel
    text: str
    kg: KnowledgeGraph
    lexicon: set[str]  # every word of an entity name (what a report may name)
    retrieval: Retrieval = field(default_factory=Retrieval)
    mentions: list[Mention] = field(default_factory=list)
    #: the person an opening names as the speaker ("Priya on the desk: ..."), or None
    speaker: str | None = None

    @classmethod
    def start(cls, world: WorldModel, text: str | None) -> Request | None:
        """Return the request for ``text`` on a snapshot of ``world``; None when it is empty.

        An opening that names the speaker is read as who "I" is (:mod:`.speaker`).
        """
        text = (text or '').strip()
        if not text:
            return None
        kg = world.snapshot()
        # "Frank: I've taken ..." → "Frank has taken ...", spoken by Frank
        text, speaker = read_opening(world, kg, text)
        if speaker is not None:  # "... in here" → "... in the gym", where Frank is
            text = said_here(world, kg, text, speaker)
        return cls(world, text, kg, {w for n in kg.entities for w in name_words(n)},
                   speaker=speaker)

    def retrieve(self, retriever: Retriever | None, llm: ChatLLM, given: Retrieval | None,
                 usage: Usage) -> str | None:
        """Retrieve the context (``given``: already retrieved); return an error sentence or None.

        Without a retriever the whole graph is the context. The retrieval's tokens and its
        LLM call (if it made one) are added to ``usage``.
        """
        try:
            if given is None:
                given = (retriever.retrieve(self.kg, self.text, llm) if retriever is not None
                         else Retrieval(facts=set(self.kg.facts)))
        except LLMError as exc:
            return llm_failure(exc, 'retrieval')
        self.retrieval = given
        usage.prompt_tokens += given.prompt_tokens
        usage.completion_tokens += given.completion_tokens
        usage.calls += 1 if (given.prompt_tokens or given.llm_seconds) else 0
        return None

    def resolve(self) -> list[Mention]:
        """Link the utterance's mentions to the entities they can refer to (kept).

        A mention still open after the words and the graph is narrowed to the one
        candidate where the speaker is (:func:`near_speaker`).
        """
        self.mentions = mentions_of(self.world, self.kg, self.text)
        if self.speaker is not None:
            near_speaker(self.world, self.kg, self.mentions, self.speaker)
        return self.mentions

    def mentions_in(self, part: str) -> list[Mention]:
        """Return the resolved mentions that lie in ``part``, numbered from its first word.

        A part (:meth:`parts`) is a span of the utterance, so its mentions are the
        utterance's, read with the whole utterance around them; a part that is not a span
        of it is resolved alone.
        """
        text = ' '.join(self.text.split())
        at = text.find(part)
        if at < 0:
            return mentions_of(self.world, self.kg, part)
        first, n = len(words(text[:at])), len(words(part))
        return [_shifted(m, first) for m in self.mentions
                if first <= m.start and m.end <= first + n]

    def parts(self, split: bool) -> list[str]:
        """Return the parts of the utterance (:func:`.clauses.split_report`), or it whole."""
        return split_report(self.text, self.lexicon) if split else [self.text]


def mentions_of(world: WorldModel, kg: KnowledgeGraph, text: str) -> list[Mention]:
    """Return the mentions of ``text``, resolved with ``world``'s steady links and places.

    The one call of :func:`~l3mp_ros.retrieval.mentions.resolve` the pipelines share;
    the place after a verb of going is settled by the domain's place rules
    (:func:`.destinations.destinations`).
    """
    found = resolve(kg, text, steady=world.domain.static_predicates(),
                    predicates=world.domain.predicates,
                    places=world.constraints.place_keys(), people=people_of(world, kg))
    return destinations(world, kg, text, found)


def _where(world: WorldModel, kg: KnowledgeGraph, thing: str, hops: int = 3) -> list[str]:
    """Return where ``thing`` lies, nearest first: its place, that place's, and so on.

    A fixture's place said place first that no action changes (``room_has(room, table)``)
    is not followed: what lies on it is where the report's "here" says, as before such
    rules were place rules.
    """
    out: list[str] = []
    fluent = world.domain.fluent_predicates()
    for _ in range(hops):
        wheres = {p for p in place_predicates(world, kg, thing)
                  if world.constraints.thing_position(p) == 0 or p in fluent}
        at = sorted(world.constraints.place_of(f) for f in kg.facts_of(thing)
                    if f.predicate in wheres and len(f.args) == 2
                    and world.constraints.thing_of(f) == thing)
        if len(at) != 1 or at[0] in out:
            break
        out.append(at[0])
        thing = at[0]
    return out


def near_speaker(world: WorldModel, kg: KnowledgeGraph, mentions: list[Mention],
                 speaker: str) -> None:
    """Narrow an open mention to the one candidate in the space the speaker is in.

    "Tom: I've taken the last two stands off the trolley": the stand trolley is in the
    hall with Tom, the gear trolley out in the corridor; a speaker says "the trolley" of
    the one beside them. Nothing when the speaker is in no one place, or no candidate or
    several lie there.
    """
    here = _where(world, kg, speaker, 1)
    if not here:
        return
    for m in mentions:
        if len(m.candidates) > 1 and speaker not in m.candidates:
            near = [c for c in m.candidates if here[0] in _where(world, kg, c)]
            if len(near) == 1:
                m.candidates = near


#: "here" as a place ("in here", "up here", "it's here"), unless a place follows it
#: ("out here in the yard") or it opens a sentence ("Here's the key")
_HERE = re.compile(r'(?<![.!?:;]\s)(?<!^)\b(?:(?:in|up|down|out|over|back|round|through)\s+)?'
                   r'here\b(?!\s+(?:in|at|on|by|inside|outside|near|beside|next)\b)',
                   re.IGNORECASE)
#: the words before a place that say someone ended there
_INTO = frozenset(('to', 'into', 'in', 'at', 'onto', 'on', 'through'))
#: a radio call's opening: "Yard to office,", "Kitchen to reception, over:"
_CALL = re.compile(r"^\s*(?:[\w'’]+\s+){0,3}?to\s+(?:[\w'’]+\s+){0,2}?[\w'’]+"
                   r"(?:\s*,\s*over)?\s*[,:]")
_BROUGHT = re.compile(r'\b(?:brought|brings|bringing|carried|carries|carrying)\b',
                      re.IGNORECASE)


def said_here(world: WorldModel, kg: KnowledgeGraph, text: str, speaker: str) -> str:
    """Return ``text`` with "here" said as the place the speaker is in.

    "Helen: the cello's propped against the wall in here": here is where the graph has
    Helen, when nothing before it says that she or anyone went, was taken or brought
    anywhere, or put into a place ("Reg: I've hung the key up in the office. I'm
    stopping in here": Reg may be in the office now), and some thing the report names
    lies there or none lies elsewhere. A radio call's opening puts no one anywhere ("Gaz:
    yard to office, we've lifted Bluebell off cradle two ... Mr Pascoe's here").
    Otherwise "here" is left as it is: said again, a place named before it drew the
    model's whole reading there ("I dropped it in the box on my way to the staff room.
    I'm having a coffee in here" read as the box and the folder moved to the staff room).
    """
    if not _HERE.search(text):
        return text
    wheres = place_predicates(world, kg, speaker)
    known = _where(world, kg, speaker, 1)
    found = [m for m in mentions_of(world, kg, text)
             if m.resolved is not None and m.resolved != speaker]
    said = words(text)
    opening = _CALL.match(text)  # "Yard to office, ...": who calls whom, not a going
    call = len(words(opening.group(0))) if opening else 0
    phrasing = None
    out, last = [], 0
    for hit in _HERE.finditer(text):
        at = len(words(text[:hit.start()]))
        before = [m for m in found if call <= m.start and m.end <= at]
        entered = any(is_place(world, kg, m.resolved, wheres) and _entered(said, m.start)
                      for m in before)
        if entered or not known or _moving(text[:hit.start()]):
            continue  # the speaker may be elsewhere than the graph has them
        place = _most_here(world, kg, known[0], [m.resolved for m in found], wheres)
        if place is None:
            continue
        phrasing = phrasing or Phrasing(world.domain, kg, Phrasebook('', {}))  # names only
        out.append(text[last:hit.start()] + f'in {phrasing.entity(place)}')
        last = hit.end()
    return ''.join(out) + text[last:]


def _moving(text: str) -> bool:
    """Tell whether ``text`` says someone went, was taken or brought somewhere."""
    return bool(going_ends(text, escort=True) or bringing_spans(text)
                or _BROUGHT.search(text))


def _most_here(world: WorldModel, kg: KnowledgeGraph, place: str, named: list[str],
               wheres: frozenset[str]) -> str | None:
    """Return ``place`` unless the ``named`` things lie only in other places."""
    count: dict[str, int] = {}
    for thing in named:
        chain = [thing, *_where(world, kg, thing)]
        space = next((c for c in chain if is_place(world, kg, c, wheres)), None)
        if space is not None:
            count[space] = count.get(space, 0) + 1
    return place if place in count or not count else None


def _entered(said: list[str], start: int) -> bool:
    """Tell whether the words before position ``start`` say someone went there, not left."""
    return not named_as_source(said, start) and any(
        w in _INTO for w in said[max(0, start - 3):start])


def people_of(world: WorldModel, kg: KnowledgeGraph) -> set[str]:
    """Return the entities said as names: people (:func:`~...world.phrasing.name_types`)."""
    proper = name_types(world.domain, kg)
    return {n for n, t in kg.entities.items() if t in proper}


def _shifted(m: Mention, by: int) -> Mention:
    """Return a copy of ``m`` with its word positions counted ``by`` words later."""
    return dataclasses.replace(
        m, start=m.start - by, end=m.end - by, candidates=list(m.candidates),
        part=None if m.part is None else (m.part[0] - by, m.part[1] - by),
        describes=None if m.describes is None else m.describes - by)
