# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A named thing said to be in a state, in words that are not its predicate's.

"The machine's finished, so Max's blanket is clean", "lane one ... so it's taken for the
next hour", "the pool's been treated and it's open to the public again": a clause that
says what a thing *is* ("<thing> is / 's / has been <words>") tells a state of it, even when
none of its predicate's words stand in the report (those :func:`~..core.destinations.
worded_states` finds). A reading that says nothing of that thing's one-place states has
left the clause out, and a truthful speaker says yes to the half.

:func:`stated` finds such clauses by their shape alone (no word of any domain): the thing
is named by a mention that can be nothing else (or "it", the one thing named last before
it in its sentence), a form of "to be" follows it, and the words after it up to the
clause's end name nothing (no mention: "Mrs Okoye's taken Ada" is a deed) and do not start
with a word of place, of going or of no change ("is in lane one", "'s gone out", "'s still
off"). Of a thing (no person) a word of place that ends the clause is a state ("the tent's
up", "the lamp's off"), and so is what follows a verb of becoming ("the football's gone
all squishy and flat", "has turned cold"). :func:`.whole.in_a_state` makes such a thing, when
the reading says none of its one-place states, one the reading leaves out, and the
question about it offers its states ("And Max's blanket: which is right? 1. Max's blanket
is no longer dirty. 2. <as it was>"); :func:`unsaid` lists those states directly (for
measuring the finder).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...retrieval.mention import Mention, word_tokens
from ...world.kg import Fact, KnowledgeGraph, Update
from ...world.model import WorldModel
from ..core.destinations import proper_things
from ..core.request import Request
from .other_words import candidates

BE = frozenset('is are was were'.split())
HAVE = frozenset('has have'.split())
#: words between the verb and the state that say nothing of it ("is now clean")
SOFT = frozenset('now all both just also finally fully completely properly really totally '
                 'nice good'.split())
#: a word before a thing that makes the thing governed, not the clause's subject
#: ("the door to the cold room is open"); also no state's first word ("is in lane one")
GOVERNING = frozenset("""
    in into on onto at to from by with of for off out through up down over round around
    across along inside outside behind beside under near about after before during until
    since via without within above below beneath past
""".split())
#: a first word after the verb that makes the clause no state of the thing: a place ("is
#: in lane one", "'s back on poolside"), a going or a having ("'s gone out", "'s got the
#: key", "'s had enough"), an article (a description: "is a big one"), no change ("'s still
#: off", "is not ready", "was already clean")
NOT_A_STATE = GOVERNING | frozenset("""
    back away here there home
    gone come coming going went left arrived got had having getting being doing taking
    a an the his her my our their its this that these those some no any another
    not never still already always usually again only
""".split())
#: a word of place that, ending the clause, says a state of a thing ("the tent's up", "the
#: lights are off", "the fire's gone out"); of a person it says where they are ("Ben's up")
PARTICLES = frozenset('up down on off out over'.split())
#: verbs of becoming: after one a thing's state follows ("'s gone all soft and flat", "'s
#: turned cold"); of a person "gone" is a going ("Harold's gone out"); not "got", which as
#: often has ("have got powdery mildew")
BECOMING = frozenset('gone turned become grown'.split())
#: words after "as" that say a state holds as before ("locked, as always")
AS_BEFORE = frozenset('always usual ever before'.split())
#: a word that ends the clause the state is said in
CLAUSE_ENDS = frozenset('and but so because as while then till until when since if or'.split())
#: a word after the verb that makes it a deed done to something ("'s switched it off",
#: "'s just oiled its chain")
OBJECTS = frozenset('it them him her me us you its his their my our your'.split())
#: words that stand between a preposition and the thing it governs ("to the cold room")
ARTICLES = frozenset('the a an his her my our their its this that'.split())
_PUNCT = re.compile(r'[,.;:!?()\u2013\u2014]|\s-\s')
_CONTRACTED = re.compile(r"^(.*?)['\u2019](s|re)$")


def stated(kg: KnowledgeGraph, text: str, mentions: Sequence[Mention],
           people: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """Return the things ``text`` says are in some state, in said order (no repeats).

    A thing a mention settles ("Max's blanket is clean" says it of the blanket), followed
    by "is", "are", "was", "were", "has been" or a contracted "'s" / "'re" (not a
    possessive: no mention starts right after it), then the state's words: their first
    (after "now", "just" ...) is no word of :data:`NOT_A_STATE` and none of them up to the
    clause's end starts a mention. "it" stands for the one thing named last before it in
    its sentence, when that is none of ``people`` and no article stands between them (an
    unnamed thing came in between). A thing named after a preposition is not what the
    clause is about ("the door to the cold room is open"). After a person's "'s" only a
    participle says a state ("Ada's patched up"; "Jordan's break" is her break): a thing
    of hers no mention names follows as often.
    """
    tokens = word_tokens(text)
    raw = [t[2] for t in tokens]
    starts = {m.start for m in mentions if m.candidates}
    out: list[str] = []
    for m in sorted(mentions, key=lambda m: m.start):
        e = m.resolved
        if e is None or e not in kg.entities or m.end > len(raw) or m.part is not None \
                or _governed(raw, m.start):
            continue  # (a part: "the living room" of "the living room TV is on")
        at = _state_start(raw, m.end - 1, starts)
        if at is not None and e in people and _CONTRACTED.match(raw[m.end - 1]) \
                and at == m.end and not raw[at].endswith('ed'):
            continue  # "Jordan's break", "Ginger's chip": a person's thing, not a state
        if at is not None and _a_state(text, tokens, at, starts, e not in people):
            out.append(e)
    for k, w in enumerate(raw):  # "it's taken", "it is open again"
        if w not in ('it', "it's", 'it\u2019s'):
            continue
        before = [m for m in mentions if m.end <= k and m.resolved in kg.entities
                  and not _sentence_between(text, tokens, m.end - 1, k)]
        if not before:
            continue
        last = max(before, key=lambda m: m.end)
        if last.resolved in people or ARTICLES & set(raw[last.end:k]):
            continue  # a person is no "it"; "the pool's been treated and it's": the pool
        e = last.resolved
        at = _state_start(raw, k, starts)
        if e is not None and at is not None \
                and _a_state(text, tokens, at, starts, True):
            out.append(e)
    return list(dict.fromkeys(out))


def in_request(req: Request) -> tuple[str, ...]:
    """Return the things a request's text says are in a state (:func:`stated`)."""
    kg = req.kg
    return tuple(stated(kg, req.text, req.mentions, proper_things(req.world, kg)))


def _state_start(raw: list[str], last: int, starts: set[int]) -> int | None:
    """Return the index of the first word after "<thing> is", or None if no "is" follows."""
    k = last + 1
    contracted = _CONTRACTED.match(raw[last])
    if contracted:
        if k in starts:  # "Max's blanket": a possessive
            return None
    elif k < len(raw) and raw[k] in BE:
        k += 1
    elif k + 1 < len(raw) and raw[k] in HAVE and raw[k + 1] == 'been':
        k += 2
    elif k + 1 < len(raw) and raw[k] in HAVE and raw[k + 1] in BECOMING:
        return k + 1  # "has gone flat", "has turned cold"
    else:
        return None
    if k < len(raw) and raw[k] == 'been':
        k += 1
    while k < len(raw) and raw[k] in SOFT:
        k += 1
    return k if k < len(raw) else None


def _a_state(text: str, tokens: list[tuple[int, int, str]], at: int, starts: set[int],
             thing: bool = False) -> bool:
    """Tell whether the words from ``at`` to the clause's end say a state (no thing named).

    Of a ``thing`` (no person) also a word of :data:`PARTICLES` that ends the clause ("the
    tent's up,") and a verb of :data:`BECOMING` before the state ("'s gone all soft").
    """
    raw = [t[2] for t in tokens]
    if thing and raw[at] in BECOMING:
        k = at + 1
        while k < len(raw) and raw[k] in SOFT:
            k += 1
        return k < len(raw) and _a_state(text, tokens, k, starts, thing)
    if thing and raw[at] in PARTICLES and _clause_ends(text, tokens, at + 1):
        return True
    if raw[at] in NOT_A_STATE or raw[at].endswith("n't") or not raw[at].isalpha():
        return False
    k = at
    while k < len(raw):
        if k > at and _clause_ends(text, tokens, k):
            # "the door is locked, as always": the state holds as before, no change
            return not (raw[k] == 'as' and k + 1 < len(raw) and raw[k + 1] in AS_BEFORE)
        if k in starts or raw[k] in OBJECTS:
            return False
        k += 1
    return True


def _clause_ends(text: str, tokens: list[tuple[int, int, str]], k: int) -> bool:
    """Tell whether the clause ends before word ``k`` (the text's end, a stop, a linker)."""
    if k >= len(tokens):
        return True
    return tokens[k][2] in CLAUSE_ENDS or bool(_PUNCT.search(text[tokens[k - 1][1]:tokens[k][0]]))


def _governed(raw: list[str], start: int) -> bool:
    """Tell whether a preposition governs the thing named from word ``start`` on.

    Articles and owners may stand between ("to the cold room", "to Nadia's room").
    """
    k = start - 1
    while k >= 0 and (raw[k] in ARTICLES or _CONTRACTED.match(raw[k])):
        k -= 1  # "to the cold room", "to Nadia's room"
    return k >= 0 and raw[k] in GOVERNING


def _sentence_between(text: str, tokens: list[tuple[int, int, str]], a: int, b: int) -> bool:
    """Tell whether a sentence ends between word ``a`` and word ``b``."""
    return bool(re.search(r'[.!?;:]', text[tokens[a][1]:tokens[b][0]]))


def unsaid(world: WorldModel, kg: KnowledgeGraph, text: str, mentions: Sequence[Mention],
           update: Update) -> dict[str, list[tuple[Fact, bool]]]:
    """Return, per thing said to be in a state, the state changes the reading leaves out.

    Only things the reading says no one-place state of; each change (fact, True when it
    would end) as :func:`.other_words.candidates` gives them. Empty lists are left out.
    """
    told = {f.args[0] for f in update.add | update.remove if len(f.args) == 1}
    out: dict[str, list[tuple[Fact, bool]]] = {}
    for e in stated(kg, text, mentions, proper_things(world, kg)):
        if e in told:
            continue
        changes = candidates(world, kg, text, mentions, update, of=[e])
        if changes:
            out[e] = changes
    return out
