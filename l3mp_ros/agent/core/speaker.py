# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Who "I" is: a report that opens by naming its speaker is read in the third person.

People on a radio or a phone say who they are first: "Frank: I've taken the fire bucket
down to Priya", "Sam here, I'm up in the toy gallery", "Jo here. I've swapped ...",
"Gareth on the radio from the bay: the crate's here", "Kwame to reception, over: ...",
"Text from Dennis: ...". The
opening names a person of the world; it is dropped, and the first person of the rest is
that person ("Frank has taken the fire bucket down to Priya"). A call sign of a few
words without a verb ("Priya, car deck.", "Bev in the office.", "Deck, this is Marta on
the bridge.") names the speaker of a report in the first person too; it stays in the
report, since it may say where the speaker is. A first name alone names the person whose
first name it is ("Rhys, over." for ``rhys_evans``).
Without such an opening the text is left as it is. Only the shape of English and the
world's own names: no word of any domain.
"""

from __future__ import annotations

import re

from ...retrieval.mentions import resolve
from ...text import TITLES
from ...text import words as words_of
from ...world import english as en
from ...world.kg import KnowledgeGraph
from ...world.model import WorldModel
from ...world.phrasing import Phrasing

__all__ = ['read_opening', 'third_person']

#: "Frank:", "Sam here,", "Gareth again,", "Gareth on the radio from the bay:"
_NAME = r"(?P<name>(?:[A-Z][a-z]+\.?\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?)"
_HOW = (r'(?:\s+(?:here|again|speaking|(?:on|over)\s+the\s+(?:radio|phone)'
        r'(?:\s+(?:from|in|at|on)\s+[^,:;.!?]+)?))')
#: a name and a colon, or a name and how it speaks and a comma or a full stop ("Martin,
#: who was in the kitchen, ..." is no opening; "Jo here. I've swapped ...", "Dai again.")
_OPENING = re.compile(rf'^\s*{_NAME}(?:{_HOW}*\s*:|{_HOW}+\s*[,;.!])'
                      r'\s+(?P<rest>\S.*)$', re.DOTALL)
#: the openings of radio and phone talk: a call ("Kieran, over.", "Kieran to base,
#: over."), a caller saying who it is ("Hi, this is Nadia Khan, ...", "It's Sue Price."),
#: a name and where it speaks from before "here" ("Ade Okoye on pitch two here.")
_CALLS = [re.compile(p, re.DOTALL) for p in (
    rf'^\s*{_NAME}(?:\s+to\s+[^,:;.!?]+?)?\s*,\s*over\s*[.,;:!]\s+(?P<rest>\S.*)$',
    r'^\s*(?i:(?:hi|hello|hiya|morning|evening)(?:\s+there)?\s*[,!.]?\s+)?'
    rf'(?i:this\s+is|it[\'\u2019]s|it\s+is)\s+{_NAME}\s*[,.!;]\s+(?P<rest>\S.*)$',
    rf'^\s*{_NAME}\s+(?:on|in|at|by|up|down|over)\s+[^,:;.!?]+?\s+here\s*[,.!;]'
    r'\s+(?P<rest>\S.*)$')]

#: an opening of another shape that ends at a colon and names its speaker first (or as an
#: owner first: "Priya on the desk:", "Kwame to reception, over:", "Sandra's note for the
#: afternoon shift:") or last after "from" ("Text from Dennis:"); at most
#: :data:`MAX_OPENING` words ("Update on Fatima:" names whom the report is about)
_LOOSE = [re.compile(rf"^\s*{_NAME}(?:['\u2019]s)?(?:\s+[^:.!?]*?)?\s*:\s+(?P<rest>\S.*)$",
                     re.DOTALL),
          re.compile(rf'^\s*[^:.!?]*?\bfrom\s+{_NAME}\s*:\s+(?P<rest>\S.*)$', re.DOTALL)]
MAX_OPENING = 8  # words an opening may have
#: words that make a loose opening a clause, beside past forms ("Jerry said: ...")
_SAYING = frozenset('say says said is are was were has have had'.split())

#: the first person and how it reads of a named person ({} is the name)
_FIRST = [(re.compile(p), r) for p, r in [
    (r"\bI'm\b", '{} is'), (r'\bI am\b', '{} is'), (r"\bI've\b", '{} has'),
    (r'\bI have\b', '{} has'), (r"\bI'd\b", '{} had'), (r"\bI'll\b", '{} will'),
    (r'\bI\b', '{}'), (r'\s*\b[Mm]yself\b', ''), (r'\b[Mm]ine\b', "{}'s"),
    (r'\b[Mm]y\b', "{}'s"), (r'\b[Mm]e\b', '{}')]]


def _openings(text: str) -> list[re.Match[str]]:
    """Return the ways ``text`` may open by naming its speaker, the strict shape first."""
    strict = _OPENING.match(text)
    out = [strict] if strict else []
    out += [m for m in (p.match(text) for p in _CALLS) if m is not None]
    for pattern in _LOOSE:
        m = pattern.match(text)
        if m is None:
            continue
        said = [w.lower() for w in words_of(text[:m.start('rest')])]
        if len(said) <= MAX_OPENING and not any(_a_verb(w) for w in said):
            out.append(m)  # "Jerry went to the kitchen and said: hi" is a clause
    return out


def _a_verb(word: str) -> bool:
    """Tell whether ``word`` reads as a verb that makes an opening a clause ("went", "said")."""
    return (len(word) > 3 and word.endswith('ed')) or word in _SAYING \
        or word in en.PARTICIPLES or word in en.IRREGULAR_PAST.values()


def _name(found: re.Match[str]) -> str:
    """Return the name an opening gives, without an owner's "'s"."""
    return re.sub(r"['\u2019]s$", '', found.group('name').strip())


def _person(kg: KnowledgeGraph, people: frozenset[str] | set[str], name: str) -> str | None:
    """Return the one person of the world ``name`` names, in those words, or None.

    A first name alone is the person whose first name it is ("Rhys, over." for
    ``rhys_evans``, though ``rhys_radio`` shares the word), as in a report's own mentions.
    """
    said = resolve(kg, name, people={n for n, t in kg.entities.items() if t in people})
    ok = len(said) == 1 and said[0].resolved is not None \
        and kg.entities.get(said[0].resolved) in people \
        and ' '.join(said[0].surface.split()) == ' '.join(name.split())
    return said[0].resolved if ok else None


#: a sentence of its own at the start, up to its stop ("Priya, car deck.", "Whiteboard, Mair:")
_SENTENCE = re.compile(r'^\s*(?P<opening>[^.:!?]+?)\s*(?:[.:!?]|\.\.\.)\s+(?P<rest>\S.*)$',
                       re.DOTALL)
MAX_SIGN = 8  # words a call sign may have
#: the first person, which a call sign must be followed by to name the speaker
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|I'll|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)\b")
#: words of a call sign that are no verb of a clause ("this is Marta", "it's Tom")
_SIGN_WORDS = frozenset("this is it's it here again".split())


def _call_sign(world: WorldModel, kg: KnowledgeGraph, people: frozenset[str],
               text: str) -> tuple[str, str, str] | None:
    """Return the speaker a call sign names, as named, and the report after it, or None.

    A first sentence of a few words without a verb that names one person and nothing
    else a person could be, followed by a report in the first person: "Priya, car deck.",
    "Bev in the office.", "Deck, this is Marta on the bridge.", "Anita the vet.",
    "Whiteboard, Mair:". Kept in the report (it may say where the speaker is); only the
    first person after it is read as that person.
    """
    found = _SENTENCE.match(text)
    if found is None or not _FIRST_PERSON.search(found.group('rest')):
        return None
    opening = found.group('opening')
    said = [w.lower() for w in words_of(opening)]
    if not said or len(said) > MAX_SIGN or any(
            _a_verb(w) for w in said if w not in _SIGN_WORDS):
        return None
    names = {n for n, t in kg.entities.items() if t in people}
    who = [m for m in resolve(kg, opening, people=names)
           if m.resolved in names or names & set(m.candidates)]
    if len(who) != 1 or who[0].resolved is None or who[0].surface.endswith("'s"):
        return None
    return who[0].resolved, who[0].surface, found.group('rest')


def read_opening(world: WorldModel, kg: KnowledgeGraph, text: str) -> tuple[str, str | None]:
    """Return ``text`` in the third person and the speaker its opening names, or as it is.

    The opening counts when its name is a mention of exactly one entity whose type is a
    type of names (people: :attr:`~l3mp_ros.world.phrasing.Phrasing.proper`) and a
    report follows it; it is dropped, and "I", "me", "my" ... become that person.
    Otherwise ``text`` comes back unchanged, with no speaker.
    """
    people = Phrasing(world.domain, kg).proper
    said = None
    for found in _openings(text):
        said = _person(kg, people, _name(found))
        if said is not None:
            break
    if said is None:
        sign = _call_sign(world, kg, people, text)
        if sign is None:
            return text, None
        said, name, rest = sign
        if not _proper_noun(name, said):  # "Anita the vet.": said by the name itself
            name = Phrasing(world.domain, kg).entity(said)
        head = text[:len(text) - len(rest)]
        for pattern, said_as in _FIRST:
            rest = pattern.sub(said_as.format(name), rest)
        return head + rest, said
    name = _name(found)
    if not _proper_noun(name, said):  # "Warden here.": said by the name, not the role
        name = Phrasing(world.domain, kg).entity(said)
    rest = found.group('rest')
    for pattern, said_as in _FIRST:
        rest = pattern.sub(said_as.format(name), rest)
    return rest[:1].upper() + rest[1:], said


def _proper_noun(said: str, entity: str) -> bool:
    """Tell whether ``said`` is (part of) the entity's own name, not a word for its role."""
    own = set(words_of(entity.lower()))
    return bool(own) and {w.lower() for w in words_of(said)} <= own | TITLES


def third_person(world: WorldModel, kg: KnowledgeGraph, text: str) -> str:
    """Return ``text`` without an opening that names its speaker, in the third person."""
    return read_opening(world, kg, text)[0]
