# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Plain English for facts: what read-back questions and worked examples say.

A small model judges a sentence far better when it is grammatical: "the plate is now
rests on the bench" was denied where "the plate now rests on the bench" is confirmed.
Only the shape of the predicate's words is used (a leading ``is``, a verb in ``-s``),
nothing from any domain.
"""

from __future__ import annotations

from ...text import split_name
from ...world.domain import DomainSchema
from ...world.kg import Fact

# Words ending in -s that are not third-person verbs.
_NOT_VERBS = frozenset({'is', 'was', 'has', 'as', 'its', 'this', 'plus', 'minus', 'gas',
                        'bus', 'status', 'across', 'always', 'glass', 'class', 'pass'})


def _is_verb(word: str) -> bool:
    """Return whether ``word`` reads as a third-person verb ("rests", "holds")."""
    return (len(word) > 3 and word.endswith('s') and not word.endswith(('ss', 'us', 'is'))
            and word not in _NOT_VERBS)


def predicate_words(predicate: str, domain: DomainSchema | None = None) -> list[str]:
    """Return the words of ``predicate``, without those that repeat an argument's type.

    ``person_at`` → ``at``, ``in_person_hand`` → ``in hand`` (with ``domain``).
    """
    words = split_name(predicate)
    sig = getattr(domain, 'predicates', {}).get(predicate) if domain is not None else None
    if sig is not None:
        typed = {w for _, ts in sig.params
                 for t in ((ts,) if isinstance(ts, str) else ts) for w in split_name(t.lower())}
        words = [w for w in words if w not in typed] or words
    return words


def phrase(predicate: str, *, removed: bool = False, still: bool = False,
           plain: bool = False, negated: bool = False, domain: DomainSchema | None = None) -> str:
    """Return the verb phrase of a predicate: "now rests on", "is no longer locked".

    ``still``: it holds as before ("still rests on"); ``removed``: it stopped ("no longer
    rests on"); ``plain``: no time word ("rests on", "is locked"); ``negated``: "does not
    rest on", "is not locked".
    """
    words = predicate_words(predicate, domain)
    if words[0] in ('is', 'are') and len(words) > 1:
        words = words[1:]
    elif words[0] == 'has' or _is_verb(words[0]):
        rest = ' '.join(words[1:])
        if negated:
            return f'does not {_base(words[0])} {rest}'.strip()
        if removed:
            return f'no longer {_base(words[0])} {rest}'.strip()
        when = '' if plain else ('still ' if still else 'now ')
        return f'{when}{" ".join(words)}'
    when = ('not ' if negated else '' if plain else 'still ' if still
            else 'no longer ' if removed else 'now ')
    return f'is {when}{" ".join(words)}'


#: words that end a relation's phrase before its object ("rests on X", "held by X")
_PREPOSITIONS = frozenset('in on at by to for from of with into onto under over near inside '
                          'behind beside between'.split())


def awkward(predicate: str, domain: DomainSchema | None) -> bool:
    """Tell whether :func:`phrase` makes no sentence of ``predicate`` ("is now carried robot").

    A relation whose words neither start with a verb nor end in a preposition ("carried",
    "in gripper": "the memo is now carried the robot"); a state of several words not led
    by a participle ("battery full", "lights on": "the tablet is now battery full"). Such
    facts are said in the domain's sentence templates instead (:mod:`~l3mp_ros.world.
    phrasing`): "the memo is now carried by the robot", "the tablet's battery is now full".
    """
    sig = getattr(domain, 'predicates', {}).get(predicate) if domain is not None else None
    if sig is None:
        return False
    words = predicate_words(predicate, domain)
    if words[0] in ('is', 'are') and len(words) > 1:
        words = words[1:]
    if len(sig.params) == 2:
        return not (words[0] == 'has' or _is_verb(words[0])) and words[-1] not in _PREPOSITIONS
    return len(sig.params) == 1 and len(words) > 1 and not words[0].endswith(('ed', 'en'))


def _base(verb: str) -> str:
    """Return the bare form of a third-person verb: rests → rest, has → have."""
    if verb == 'has':
        return 'have'
    if verb.endswith(('ches', 'shes', 'sses', 'xes')):
        return verb[:-2]
    return verb[:-1]


def say(fact: Fact, *, removed: bool = False, plain: bool = False,
        domain: DomainSchema | None = None, names: dict[str, str] | None = None) -> str:
    """Return a fact as a plain sentence: ``bob is now at bob office``.

    ``plain``: no time word ("Jerry's phone is ringing"); ``names`` writes some entities
    as the utterance did ("the goggles" for safety_goggles_1).
    """
    names = names or {}
    words = [names.get(a) or a.replace('_', ' ') for a in fact.args]
    verb = phrase(fact.predicate, removed=removed, plain=plain, domain=domain)
    return ' '.join([words[0], verb, *words[1:]]) if words else verb
