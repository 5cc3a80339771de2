# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Things switched on or off in words: "switched the hoist on", "the sauna's back on".

A domain says a thing is on by a one-place predicate whose words, less the thing's type
and the words of switching, are "on" or "lit" (``light_on``, ``is-on``, ``isOn``,
``switched_on``, ``lit``), or by the one-place state its action of switching on makes
(``switch-on`` whose effect is ``(powered ?a)``). The words of a report turn it on or off
in three shapes of English: a verb of switching, the thing, then "on" or "off" ending the
clause ("put the fan on in there"); a verb of switching other than "put", then "on" or
"off", then the thing ("turned off the tap"; "put on his coat" is wearing); the thing, a
form of "be", then "on" or "off" ("the sauna's back on"). "on"/"off" must end its clause:
"put the pen on the table" places the pen. Nothing of any domain: only these words and the
predicates' and actions' names. "still", "already", "not" before the words say no change
("Sauna's still off").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from ...retrieval.mention import DETERMINERS, Mention, word_tokens
from ...text import split_name
from ...world.domain import DomainSchema
from ...world.english import plural_noun
from ...world.kg import Fact, KnowledgeGraph
from ...world.model import WorldModel
from ...world.phrasing import Phrasing
from .wording import predicate_words

#: verbs that turn a thing on or off
SWITCHING = frozenset('switch switched switches switching turn turned turns turning flick '
                      'flicked flicks knock knocked knocks put puts putting'.split())
#: of those, the ones that may stand right before "on": "put on" is wearing
BEFORE_PARTICLE = SWITCHING - {'put', 'puts', 'putting'}
#: words that may follow "on"/"off" where the switching ends ("put the fan on in there",
#: "flicked them off on my way past")
AFTER = frozenset('and in at on for again now then too as so while because before after there '
                  'here until till with but or when once first already'.split())
#: forms of "be" standing between the thing and "on" ("the hoist is on")
BEING = frozenset("s is are was were re been 's".split())
#: words between a verb and the particle besides the thing's own ("put the sauna back on")
BETWEEN = DETERMINERS | {'back', 'all', 'both', 'his', 'her', 'their', 'my', 'our', 'its',
                         'your', 'now'}
#: words before that say no change: "still off", "isn't on"
NOT_NEW = frozenset('not no never still already'.split())
#: pronouns a verb of switching may take for a thing named before ("flicked them off")
PRONOUNS = {'it': False, 'them': True}
#: predicate words that say only the switching ("switched_on" is "on")
SWITCH_WORDS = frozenset('is are switched turned powered'.split())
#: what a predicate's words say when it says the thing is on ("light_on", "lit")
ON_WORDS = (['on'], ['lit'])
#: the verbs of an action's name that, with "on", switch a thing on ("switch_device_on")
SWITCH_VERBS = frozenset('switch turn power'.split())
_PUNCT = re.compile(r'[,.;:!?()\u2013\u2014-]')


def on_predicates(world: WorldModel, kind: str) -> list[str]:
    """Return the one-place predicates that say a thing of ``kind`` is on."""
    out, made = [], made_on(world.domain)
    for pred, sig in sorted(world.domain.predicates.items()):
        if sig.arity != 1 or not world.domain.accepts(pred, 0, kind):
            continue
        said = [w for w in predicate_words(pred, world.domain) if w not in SWITCH_WORDS]
        if said in ON_WORDS or pred in made:
            out.append(pred)
    return out


@functools.lru_cache(maxsize=32)
def made_on(domain: DomainSchema) -> frozenset[str]:
    """Return the one-place states an action of switching on makes (kept per domain).

    An action whose name has "on" and a verb of switching (``switch-on``,
    ``switch_device_on`` of a device) and whose effects add one one-place state of one of
    its parameters: ``(powered ?a)`` is how that domain says an appliance is on. Other
    words of the name must name that parameter's type: ``turn_on_faucet`` of a sink
    switches its faucet, not the sink. Kept per domain object.
    """
    out: set[str] = set()
    for act in domain.actions.values():
        said = {w.rstrip('s') for w in split_name(act.name)}
        made = {(p, ix[0]) for p, ix in act.adds if len(ix) == 1 and ix[0] >= 0}
        if 'on' not in said or not said & SWITCH_VERBS or len(made) != 1:
            continue
        pred, k = next(iter(made))
        typed = {w.rstrip('s') for t in act.params[k][1] for a in domain.ancestors(t)
                 for w in split_name(a)}
        if said - SWITCH_VERBS - {'on'} <= typed:
            out.add(pred)
    return frozenset(out)


def switched(world: WorldModel, kg: KnowledgeGraph, text: str,
             mentions: Sequence[Mention]) -> tuple[set[Fact], set[Fact]]:
    """Return (turned on, turned off): the states the words start and end.

    Only things named by a mention that can be nothing else and that have one predicate
    of being on; "on" gives the fact when it does not hold yet, "off" when it holds.
    """
    tokens = word_tokens(text)
    said = [t[2] for t in tokens]
    on: set[Fact] = set()
    off: set[Fact] = set()
    for m in mentions:
        if not m.resolved or len(m.candidates) != 1 or m.resolved not in kg.entities:
            continue
        preds = on_predicates(world, kg.entities[m.resolved])
        if len(preds) != 1:
            continue
        got = _particle(text, tokens, said, m)
        if got is None:
            continue
        k, start = got
        if any(w in NOT_NEW or w.endswith("n't") for w in said[max(0, start - 3):k]):
            continue  # "hasn't switched it on", "is still off"
        _turn(kg, Fact(preds[0], (m.resolved,)), said[k], on, off)
    for k, thing in _pointed_back(world, kg, text, tokens, said, mentions):
        _turn(kg, thing, said[k], on, off)
    return on, off


def _turn(kg: KnowledgeGraph, fact: Fact, particle: str, on: set[Fact], off: set[Fact]) -> None:
    """Add ``fact`` to what is turned on or off when the particle changes it."""
    if particle == 'on' and fact not in kg:
        on.add(fact)
    elif particle == 'off' and fact in kg:
        off.add(fact)


def _pointed_back(world: WorldModel, kg: KnowledgeGraph, text: str,
                  tokens: list[tuple[int, int, str]], said: list[str],
                  mentions: Sequence[Mention]) -> list[tuple[int, Fact]]:
    """Return (particle index, state) per "it"/"them" a verb of switching takes.

    "Those path lights were still burning, so I flicked them off": the pronoun right after
    a verb of switching, then "on"/"off" ending the clause, means the nearest thing named
    before it that agrees in number ("them" a plural mention, "it" a singular one), not a
    person nor a place that says where another thing is; when that thing has no one
    predicate of being on, no state.
    """
    out: list[tuple[int, Fact]] = []
    proper: frozenset[str] | None = None  # the kinds said by name, found when first needed
    for i, word in enumerate(said):
        if word not in PRONOUNS or i == 0 or said[i - 1] not in SWITCHING:
            continue
        k = i + 1
        while k < len(said) and said[k] in ('back', 'all'):
            k += 1
        if k >= len(said) or said[k] not in ('on', 'off') or not _ends(text, tokens, said, k):
            continue
        if any(w in NOT_NEW or w.endswith("n't") for w in said[max(0, i - 4):i]):
            continue
        for m in sorted((m for m in mentions if m.end <= i - 1), key=lambda m: -m.end):
            name = m.resolved
            if not name or name not in kg.entities or m.describes is not None \
                    or (m.plural or plural_noun(said[m.end - 1])) != PRONOUNS[word]:
                continue  # a place that says where another thing is, or "it" of many
            preds = on_predicates(world, kg.entities[name])
            if not preds and proper is None:
                proper = Phrasing(world.domain, kg).proper
            if not preds and (kg.entities[name] in proper or m.surface[:1].isupper()):
                continue  # someone named: "so Priya switched it off"
            if len(preds) == 1:
                out.append((k, Fact(preds[0], (name,))))
            break  # the nearest thing meant decides, with a state of being on or not
    return out


def _particle(text: str, tokens: list[tuple[int, int, str]], said: list[str],
              m: Mention) -> tuple[int, int] | None:
    """Return where the "on"/"off" that switches ``m``'s thing is and its phrase starts."""
    # the thing, then (back) on/off: after a verb of switching, or after a form of "be"
    k = m.end
    while k < len(said) and said[k] in ('back', 'now', 'all'):
        k += 1
    if k < len(said) and said[k] in ('on', 'off') and _ends(text, tokens, said, k):
        before = said[:m.start]
        lead = len(before)
        while lead and before[lead - 1] in BETWEEN:
            lead -= 1
        verb = before[lead - 1] if lead else ''
        be = said[m.end - 1].endswith(("'s", "'re")) or (
            m.end < len(said) and said[m.end] in BEING)
        if verb in SWITCHING:
            return k, lead - 1
        if be:
            return k, m.start
    if m.end < len(said) and said[m.end] in BEING:  # "the hoist is back on"
        j = m.end + 1
        while j < len(said) and said[j] in ('back', 'now', 'all'):
            j += 1
        if j < len(said) and said[j] in ('on', 'off') and _ends(text, tokens, said, j):
            return j, m.start
    # a verb of switching, on/off, the thing: "turned off the tap"
    j = m.start
    while j and said[j - 1] in BETWEEN and said[j - 1] != 'back':
        j -= 1
    if j >= 2 and said[j - 1] in ('on', 'off') and said[j - 2] in BEFORE_PARTICLE:
        return j - 1, j - 2
    return None


def _ends(text: str, tokens: list[tuple[int, int, str]], said: list[str], k: int) -> bool:
    """Tell whether the particle at word ``k`` ends its clause."""
    if k + 1 >= len(said):
        return True
    gap = text[tokens[k][1]:tokens[k + 1][0]]
    return bool(_PUNCT.search(gap)) or said[k + 1] in AFTER
