# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The read-back of Algorithm 3: an answer checked against its report by the model.

Facts saying different things of one thing are settled by a numbered choice asked in
both option orders (:meth:`StatedReadBack.choose`); then each stated fact is read back as a
yes/no question, entities written as the report wrote them (:meth:`StatedReadBack.confirm`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ...llm.prompting import (
    ask_choice,
    ask_yes_no,
    ask_yes_no_each,
    both_orders,
    yes_probability,
)
from ...llm.protocol import ChatLLM, LLMError, llm_failure
from ...world.complete import Completion, complete
from ...world.kg import Fact, KnowledgeGraph, Update
from ...world.model import WorldModel
from ...world.phrasing import Phrasing
from ...world.templates import Form
from ..core.attempts import DoubtReason, Trace
from ..core.wording import awkward, say


def report_head(text: str, part: str | None) -> str:
    """Return the head of a read-back question: the report, and the part asked about."""
    return f'Report: {" ".join(text.split())}\n' + (f'Part: {part}\n' if part else '')


def said_in(fact: Fact, part: str | None,
            named: Callable[[str], Iterable[str]]) -> str | None:
    """Return the part a stated fact is read back with: its own, or the whole report (None).

    A small model answering one part often states what another part says, or a fact
    whose things the parts share out ("Mia moved the tablet ... | it's full now": the
    second answer repeats the tablet on her desk; "Lena came back ... with the ice bucket
    | left it on the sink bench"). Asked with the part it was answered for, a right fact
    then reads as unsaid ("Part: it's full now. Statement: the tablet rests on Mia's
    desk" → yes at 0.58). A part that names every thing of the fact keeps it; otherwise
    the fact is read back against the whole report. ``named``: the entities a part names
    (candidates of an open mention included).
    """
    if part is None or set(fact.args) <= set(named(part)):
        return part
    return None


def read_back_question(text: str, part: str | None, claim: str) -> str:
    """Return the yes/no read-back's question about one statement (``confirm.txt``)."""
    return f'{report_head(text, part)}Statement: {claim}\nAnswer:'


@dataclass
class StatedReadBack:
    """Check an answer against its report with the LLM: a choice, then yes/no per fact.

    Questions and replies are written to the outcome's history (:class:`.attempts.Trace`);
    a "yes" counts when the model's own odds clear ``min_yes`` (when the endpoint returns
    them).
    """

    llm: ChatLLM
    world: WorldModel
    min_yes: float  # the setting ``confirm_min_yes`` (docs/decisions.md: its calibration)
    #: added facts the yes/no reading leaves to another check (the place check)
    unread: Callable[[Fact], bool] | None = None
    #: the facts of one thing the two option orders did not settle on (``choose``)
    unsettled: list[Fact] = field(default_factory=list)
    #: statements in the domain's sentence templates (setting ``prompt_phrasing``)
    templates: bool = False
    #: a part's statements asked in one call, each with its own odds (``read_back_together``)
    together: bool = False
    #: the part each stated fact is read back with (:func:`said_in`); None: the answer's
    where_said: Callable[[Fact, str | None], str | None] | None = None

    def claim(self, fact: Fact, removed: bool, written: dict[str, str] | None) -> str:
        """Return the statement the model is asked about (``prompt_phrasing``).

        In words, unless the predicate's words make no sentence (:func:`.wording.awkward`).
        """
        if not self.templates and not awkward(fact.predicate, self.world.domain):
            return say(fact, removed=removed, domain=self.world.domain, names=written)
        said = Phrasing(self.world.domain, self.world.kg, names=written)
        return said.say(fact, Form.NO_LONGER if removed else Form.CHANGED).rstrip('.')

    def check(self, text: str, part: str | None, completion: Completion, kg: KnowledgeGraph,
              out: Trace, written: dict[str, str] | None,
              read: dict[str, bool]) -> tuple[Completion, list[str], set[Fact]]:
        """Return (completion, errors, denied): the choice, then the yes/no reading.

        ``denied`` are the stated facts the yes/no reading rejected (empty when the choice
        failed, the LLM failed or all were read); ``read`` keeps answers by statement.
        """
        completion, errors = self.choose(text, part, completion, kg, out, written)
        if errors:
            return completion, errors, set()
        errors, denied = self.confirm(text, part, completion, out, written, read)
        return completion, errors, denied

    def choose(self, text: str, part: str | None, completion: Completion, kg: KnowledgeGraph,
               out: Trace, written: dict[str, str] | None = None
               ) -> tuple[Completion, list[str]]:
        """Settle answers that say several different things about one thing; return errors.

        One clause seldom moves a thing *and* changes its state, or hands it over *and*
        gives it a new owner; a small model often adds such a second fact ("capped the
        tube" → sealed and held by Lena), and a yes/no reading of each, asked alone, agrees
        to both. Facts about one subject with different predicates, none implied by
        another through the rules, are put side by side: the model picks the one the
        report says, asked twice in opposite orders. The others are dropped when both
        picks agree; when they do not, nothing is applied.
        """
        stated = completion.stated
        by_subject: dict[str, list[Fact]] = {}
        for fact in sorted(stated.add | stated.remove):
            if fact.args:
                by_subject.setdefault(fact.args[0], []).append(fact)
        dropped: dict[Fact, Fact] = {}
        for group in by_subject.values():
            group = self.independent(group, stated, kg)
            if len({f.predicate for f in group}) < 2:
                continue
            claims = [self.claim(f, f in stated.remove, written) for f in group]
            try:
                k = self._pick(report_head(text, part), claims, out)
            except LLMError as exc:
                return completion, [llm_failure(exc, 'choice')]
            if k < 0:
                self.unsettled = list(group)
                return completion, [f'the answer says {" and ".join(claims)}; asked which one '
                                    'the report says, the model does not settle on one; '
                                    'nothing is applied']
            dropped.update({f: group[k] for f in group if f != group[k]})
        return self._drop(completion, dropped, kg, out)

    def _pick(self, said: str, claims: list[str], out: Trace) -> int:
        """Return the claim both option orders choose, -1 when they do not settle on one."""
        def pick(order: list[int]) -> int:
            j, reply = ask_choice(self.llm, 'choose', said, [claims[i] for i in order])
            out.usage.add(reply)
            out.history.append({'choose': [claims[i] for i in order],
                                'reply': (reply.text or '')[:200]})
            return j

        k, agreed = both_orders(pick, len(claims))
        return k if agreed else -1

    def _drop(self, completion: Completion, dropped: dict[Fact, Fact], kg: KnowledgeGraph,
              out: Trace) -> tuple[Completion, list[str]]:
        """Return the answer without the ``dropped`` facts, completed and verified."""
        if not dropped:
            return completion, []
        stated = completion.stated
        out.doubt(DoubtReason.CHOICE)
        kept = Update.of(stated.remove - set(dropped), stated.add - set(dropped))
        settled = complete(kg, kept, self.world.constraints, self.world.domain)
        settled.notes.extend(f'dropped {f.text()}: asked which one the report says, the model '
                             f'chose {chosen.text()}' for f, chosen in sorted(dropped.items()))
        return settled, self.world.verifier.check(kg, settled.update)

    def independent(self, group: list[Fact], stated: Update, kg: KnowledgeGraph) -> list[Fact]:
        """Return the facts of ``group`` that no other fact of it implies by the rules.

        "held by Theo" implies "no longer kept in the fridge" (one place per item), and a
        ``requires`` rule ties "on the shelf" to "on shelf level 2", added or removed
        together: stating both is one change, not two.
        """
        implied: set[Fact] = {  # tied by a requires rule: both added, or both removed
            g for r in self.world.constraints.rules for f in group for g in group
            if g != f and (f in stated.add) == (g in stated.add) and r.ties(f, g)}
        for fact in group:
            alone = Update.of([fact] if fact in stated.remove else [],
                              [fact] if fact in stated.add else [])
            done = complete(kg, alone, self.world.constraints, self.world.domain).update
            implied |= {g for g in group if g != fact and (
                g in done.remove if g in stated.remove else g in done.add)}
        return [f for f in group if f not in implied]

    def confirm(self, text: str, part: str | None, completion: Completion, out: Trace,
                written: dict[str, str] | None = None,
                read: dict[str, bool] | None = None) -> tuple[list[str], set[Fact]]:
        """Ask, fact by fact, whether the report says what the answer stated.

        Return (errors, denied facts); ``read`` keeps answers by statement, so a second
        answer is not asked again about a statement already read.

        A second, independent yes/no reading: a small model that wrote a plausible but
        unsaid fact ("almost empty" → no longer sealed) usually denies it when asked.
        Entities the report's words settled (``written``) are put as the report wrote
        them ("the goggles", not "safety goggles 1"): which thing is meant was decided
        by mention resolution; the model judges only what happened to it.
        """
        errors: list[str] = []
        denied: set[Fact] = set()
        read = {} if read is None else read
        stated = completion.stated
        asked = [(fact, self.claim(fact, fact in stated.remove, written))
                 for fact in sorted(stated.add | stated.remove)
                 if not (self.unread is not None and fact in stated.add and self.unread(fact))]
        new = [(f, c) for f, c in dict((c, (f, c)) for f, c in asked).values() if c not in read]
        try:
            if self.together and len(new) > 1:
                read.update(self._all_yes(text, part, new, stated, out))
            for fact, claim in new:
                if claim not in read:
                    said = part if self.where_said is None else self.where_said(fact, part)
                    read[claim] = self._yes(text, said, claim, fact, fact in stated.remove, out)
        except LLMError as exc:
            return [llm_failure(exc, 'confirmation')], set()
        for fact, claim in asked:
            if not read[claim]:
                denied.add(fact)
                errors.append(f'asked again, the model does not read "{claim}" in the report; '
                              'nothing is applied')
        return errors, denied

    def _all_yes(self, text: str, part: str | None, new: list[tuple[Fact, str]],
                 stated: Update, out: Trace) -> dict[str, bool]:
        """Ask about every statement of ``new`` in one call; a hesitant yes is no."""
        yes, odds, reply = ask_yes_no_each(self.llm, 'confirm_all', report_head(text, part),
                                           [c for _, c in new])
        out.usage.add(reply)
        got = {}
        for (fact, claim), y, p_yes in zip(new, yes, odds, strict=True):
            out.history.append({'confirm': claim, 'reply': (reply.text or '')[:200],
                                'fact': list(fact.triplet()), 'removed': fact in stated.remove,
                                'p_yes': p_yes, 'part': part, 'together': len(new)})
            got[claim] = y and (p_yes is None or p_yes >= self.min_yes)
        return got

    def _yes(self, text: str, part: str | None, claim: str, fact: Fact, removed: bool,
             out: Trace) -> bool:
        """Ask whether the report says ``claim``; a hesitant yes is no (``min_yes``)."""
        yes, reply = ask_yes_no(self.llm, 'confirm', read_back_question(text, part, claim))
        out.usage.add(reply)
        p_yes = yes_probability(reply)
        out.history.append({'confirm': claim, 'reply': (reply.text or '')[:200],
                            'fact': list(fact.triplet()), 'removed': removed, 'p_yes': p_yes,
                            'part': part})
        return yes and (p_yes is None or p_yes >= self.min_yes)
