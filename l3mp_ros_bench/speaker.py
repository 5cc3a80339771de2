# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A truthful speaker for the benchmarks: answers the robot's questions from the truth.

The person who made a report saw what happened. Asked back about readings
(:mod:`l3mp_ros.agent.core.asking`) or about which thing was meant (:mod:`l3mp_ros.agent.
clarify`), they judge each option by whether it is *true* afterwards, not whether it is
the whole change: every fact it adds holds and no fact it removes does, and it says
something. One option: "yes" or "no"; several: the ordinal of the true option that says
the most ("the second one"), or "none of them"; no options: "I don't know.". This is the
rule of the team's evaluator (``--speaker gold``), so in-process benchmarks and the CLI
evaluation judge alike.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from l3mp_ros.world.kg import Fact

ORDINALS = ('first', 'second', 'third', 'fourth', 'fifth', 'sixth')
MAX_QUESTIONS = 3  # answered per report


def _fact(t: Any) -> Fact | None:
    try:
        return Fact.from_triplet(t)
    except Exception:  # noqa: BLE001 - an unreadable fact makes the option untrue
        return None


def true_option(option: dict[str, Any], after: Collection[Fact]) -> bool:
    """Tell whether an option's change is true once the report's change happened."""
    add = [_fact(t) for t in option.get('add') or []]
    remove = [_fact(t) for t in option.get('remove') or []]
    if not add and not remove:
        return False
    return (all(f is not None and f in after for f in add)
            and not any(f is not None and f in after for f in remove))


def answer(question: dict[str, Any], after: Collection[Fact]) -> str:
    """Return what the person who saw it happen says to ``question``."""
    options = [o for o in question.get('options') or [] if isinstance(o, dict)]
    if not options:
        return "I don't know."
    if len(options) == 1:
        return 'yes' if true_option(options[0], after) else 'no'
    true = [k for k, o in enumerate(options) if true_option(o, after)]
    if not true:
        return 'none of them'
    best = max(true, key=lambda k: (len(options[k].get('add') or [])
                                    + len(options[k].get('remove') or []), -k))
    return f'the {ORDINALS[best]} one' if best < len(ORDINALS) else f'number {best + 1}'


@dataclass
class Talk:
    """The questions one report asked and what the speaker said."""

    turns: list[dict[str, Any]] = field(default_factory=list)

    @property
    def asked(self) -> int:
        """Return how many questions were answered."""
        return len(self.turns)


def converse(first: Any, reply: Callable[[str], Any], after: Collection[Fact] | None
             ) -> Talk:
    """Answer the questions a report asks, starting from its outcome ``first``.

    ``reply(text)`` hands an answer to the robot and returns its next outcome (an
    :class:`~l3mp_ros.agent.report.reading.UpdateOutcome`, or None when it took no
    answer); ``after``: the facts that hold after the report's true change (None: a
    speaker who never answers).
    """
    talk = Talk()
    out = first
    while after is not None and out is not None and out.clarify is not None \
            and talk.asked < MAX_QUESTIONS:
        q = out.asked()
        said = answer(q, after)
        talk.turns.append({'question': q['text'], 'options': len(q['options']),
                           'offered': q['options'], 'answer': said})
        out = reply(said)
    return talk
