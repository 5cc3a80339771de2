# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The English a sentence template needs: word shapes, verb forms and agreement.

General English only (prepositions, irregular verbs, the adjectives that take "to"), never a
word of any domain: what a predicate's words are (a verb "rests", a participle "checked", a
preposition "on") is read from their shape and these closed lists.
"""

from __future__ import annotations

import re

PREPOSITIONS = frozenset((
    'in', 'on', 'at', 'inside', 'under', 'near', 'beside', 'by', 'with', 'into', 'onto',
    'behind', 'above', 'below', 'from', 'to', 'of', 'over', 'off', 'out', 'within', 'outside',
    'around', 'between', 'for', 'across', 'along', 'through', 'toward', 'towards', 'upon',
    'up', 'down', 'about', 'against', 'among', 'beneath', 'underneath', 'via', 'past'))
#: prepositions that may be glued to a noun in a predicate name: ``ontable``, ``inroom``
GLUED = ('onto', 'into', 'on', 'in', 'at')
#: states that may be glued after a noun in a predicate name: ``handempty``, ``armfree``
GLUED_STATES = ('empty', 'full', 'free', 'clear', 'open', 'closed', 'busy', 'ready', 'idle')
#: particles that end a phrasal state: "checked in", "made up", "switched off"
PARTICLES = frozenset(('in', 'on', 'out', 'off', 'up', 'down', 'over', 'away', 'back'))
#: words that need "to" before their object: "next to", "adjacent to", "connected to"
TAKES_TO = frozenset((
    'next', 'adjacent', 'close', 'connected', 'linked', 'attached', 'assigned', 'opposite',
    'similar', 'equal', 'near', 'prior', 'subject', 'due', 'related', 'belonging', 'bound',
    'adjoining', 'joined', 'tied', 'fastened', 'allocated', 'delivered', 'sent', 'given',
    'leading', 'going', 'heading', 'routed', 'mapped', 'paired', 'married', 'engaged'))
#: verbs that take "to" before the place they reach: "connects to", "leads to"
VERBS_TO = frozenset(('connect', 'link', 'lead', 'belong', 'point', 'go', 'return', 'refer',
                      'listen', 'talk', 'travel'))
#: prepositions that say where a thing is: "in the sink", "on the table", "at the desk"
PLACE_PREPOSITIONS = frozenset((
    'in', 'on', 'at', 'inside', 'into', 'onto', 'under', 'near', 'beside', 'behind', 'above',
    'below', 'within', 'upon', 'beneath', 'underneath', 'over', 'outside', 'against'))
#: verbs whose second object is the one who receives: "give the pen to Anna"
VERBS_GIVING = frozenset((
    'give', 'hand', 'deliver', 'bring', 'pass', 'send', 'show', 'offer', 'return', 'lend',
    'serve', 'present', 'throw', 'sell', 'feed', 'transfer', 'pay'))
#: verbs that take a thing away from where it is: "take the milk from the fridge"
VERBS_TAKING = frozenset((
    'take', 'remove', 'get', 'fetch', 'collect', 'pick', 'retrieve', 'unload', 'unstack',
    'withdraw', 'grab', 'unplug', 'unhook', 'detach', 'unmount', 'extract'))
#: verbs said with a particle when a name gives them none: "pick up the pen" (not choose it)
VERB_PARTICLE = {'pick': 'up'}
#: nouns said without "a": "has fuel", "has power"
MASS_NOUNS = frozenset(('water', 'fuel', 'power', 'energy', 'food', 'data', 'information',
                        'oil', 'gas', 'air', 'ice', 'milk', 'coffee', 'tea', 'paper', 'money',
                        'time', 'space', 'light', 'battery', 'charge', 'access', 'room',
                        'stock', 'work', 'equipment', 'furniture', 'luggage', 'baggage'))
#: words that are neither a verb in -s nor a plural noun, though they end in -s
NOT_VERBS = frozenset(('is', 'was', 'has', 'as', 'its', 'this', 'plus', 'minus', 'gas',
                       'bus', 'status', 'across', 'always', 'glass', 'class', 'pass', 'less',
                       'towards', 'upwards', 'downwards', 'afterwards', 'perhaps', 'thus',
                       'yes', 'news', 'series', 'species', 'lens', 'canvas', 'chaos'))
IRREGULAR_PAST = {
    'be': 'was', 'have': 'had', 'do': 'did', 'hold': 'held', 'keep': 'kept', 'wear': 'wore',
    'carry': 'carried', 'lie': 'lay', 'sit': 'sat', 'stand': 'stood', 'lead': 'led',
    'feed': 'fed', 'see': 'saw', 'know': 'knew', 'go': 'went', 'come': 'came', 'run': 'ran',
    'get': 'got', 'give': 'gave', 'take': 'took', 'put': 'put', 'set': 'set', 'let': 'let',
    'cut': 'cut', 'hit': 'hit', 'hang': 'hung', 'bring': 'brought', 'buy': 'bought',
    'catch': 'caught', 'teach': 'taught', 'think': 'thought', 'build': 'built',
    'send': 'sent', 'spend': 'spent', 'lend': 'lent', 'make': 'made', 'find': 'found',
    'tell': 'told', 'sell': 'sold', 'leave': 'left', 'meet': 'met', 'read': 'read',
    'win': 'won', 'shine': 'shone', 'light': 'lit', 'fly': 'flew', 'drive': 'drove',
    'ride': 'rode', 'write': 'wrote', 'eat': 'ate', 'drink': 'drank', 'sing': 'sang',
    'swim': 'swam', 'begin': 'began', 'can': 'could', 'own': 'owned', 'need': 'needed'}
PARTICIPLES = frozenset((
    'made', 'held', 'kept', 'worn', 'built', 'done', 'taken', 'given', 'shown', 'known',
    'put', 'set', 'left', 'lit', 'shut', 'hung', 'brought', 'bought', 'caught', 'sold',
    'told', 'found', 'broken', 'frozen', 'chosen', 'written', 'driven', 'hidden', 'eaten',
    'fallen', 'forgotten', 'gotten', 'seen', 'sent', 'spent', 'lent', 'bound', 'wound',
    'ground', 'stuck', 'struck', 'hit', 'cut', 'shot', 'slept', 'swept', 'won', 'run',
    'begun', 'sunk', 'drunk', 'stolen', 'woken', 'laid', 'paid', 'read', 'fed', 'led'))
#: verbs whose third person is a plain -s word but that read as states: "needs", "owns"
_VERB_LIKE_ING = re.compile(r'^[a-z]{2,}ing$')
_VOWEL = 'aeiou'


def is_verb(word: str) -> bool:
    """Tell whether ``word`` reads as a third-person verb: "rests", "holds", "has"."""
    return word == 'has' or (len(word) > 3 and word.endswith('s')
                             and not word.endswith(('ss', 'us', 'is', 'ous'))
                             and word not in NOT_VERBS)


def is_participle(word: str) -> bool:
    """Tell whether ``word`` reads as a past participle: "checked", "made", "worn"."""
    return word in PARTICIPLES or (len(word) > 4 and word.endswith('ed')
                                   and not word.endswith('eed'))


def is_adjective(word: str) -> bool:
    """Tell whether ``word`` reads as an adjective by its ending: visible, active, usable."""
    return len(word) > 4 and word.endswith(('ible', 'able', 'ive', 'ful', 'less', 'ous',
                                            'ent', 'ant', 'ic', 'al'))


def is_gerund(word: str) -> bool:
    """Tell whether ``word`` reads as an -ing form: "holding", "charging"."""
    return bool(_VERB_LIKE_ING.match(word)) and word not in ('thing', 'ring', 'king',
                                                             'ceiling', 'building', 'string')


def base(verb: str) -> str:
    """Return the bare form of a third-person verb: rests → rest, has → have."""
    if verb == 'has':
        return 'have'
    if verb.endswith('ies') and len(verb) > 4:
        return verb[:-3] + 'y'
    if verb.endswith(('ches', 'shes', 'sses', 'xes', 'zes', 'oes')):
        return verb[:-2]
    return verb[:-1] if verb.endswith('s') else verb


def third(lemma: str) -> str:
    """Return the third-person singular of a bare verb: rest → rests, carry → carries."""
    if lemma == 'be':
        return 'is'
    if lemma == 'have':
        return 'has'
    if lemma == 'can':
        return 'can'
    if lemma.endswith('y') and len(lemma) > 2 and lemma[-2] not in _VOWEL:
        return lemma[:-1] + 'ies'
    if lemma.endswith(('ch', 'sh', 's', 'x', 'z', 'o')):
        return lemma + 'es'
    return lemma + 's'


def past(lemma: str) -> str:
    """Return the simple past of a bare verb: rest → rested, hold → held, carry → carried."""
    if lemma in IRREGULAR_PAST:
        return IRREGULAR_PAST[lemma]
    if lemma.endswith('e'):
        return lemma + 'd'
    if lemma.endswith('y') and len(lemma) > 2 and lemma[-2] not in _VOWEL:
        return lemma[:-1] + 'ied'
    return lemma + 'ed'


def lemmas(word: str) -> set[str]:
    """Return the bare verbs an -ing or third-person word may be: holding → hold."""
    if is_gerund(word):
        stem = word[:-3]
        out = {stem, stem + 'e'}
        if len(stem) > 2 and stem[-1] == stem[-2]:  # putting, dropping
            out.add(stem[:-1])
        if stem.endswith('y'):  # carrying
            out.add(stem)
        return out
    if is_verb(word):
        return {base(word)}
    return set()


def same_verb(participle: str, word: str) -> bool:
    """Tell whether ``word`` (-ing or third person) is the verb ``participle`` comes from.

    "holding" and "held", "hangs" and "hung", "loading" and "loaded".
    """
    return any(past(lemma) == participle for lemma in lemmas(word))


def plural_noun(word: str) -> bool:
    """Tell whether a name's last word is a plural noun: "swabs", "lights" (not "glass")."""
    return (len(word) > 3 and word.endswith('s') and not word.endswith(('ss', 'us', 'is'))
            and word not in NOT_VERBS) or word in ('people', 'children', 'men', 'women')


def ordinal(number: str) -> str:
    """Return the ordinal word of a small number: 1 → first, 12 → 12th."""
    words = ('zeroth', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh',
             'eighth', 'ninth', 'tenth')
    n = int(number)
    if n < len(words):
        return words[n]
    suffix = 'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')
    return f'{n}{suffix}'
