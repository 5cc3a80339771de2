# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A sentence per action: how a plan's step is said to a person, for any typed domain.

An :class:`ActionTemplate` is an instruction, a verb (bare) and the rest with a slot per
argument: ``(move_to_room the_robot kitchen hall)`` with "move from {1} to {2}" is "Move
from the kitchen to the hall.". The rules (:func:`.action_reading.rule_action`) make it
from the action's name words, its parameters, its own conditions and effects and the
domain's predicates, by general English only (no word of any domain):

* **the doer is not said** (:func:`doer_types`): the first parameter of every action, when
  no other parameter of any action may be of its type (the robot of a one-robot domain).
  When a KG holds more than one thing of the doer's type, the sentence names it ("Robot 1
  moves from ...": :meth:`ActionTemplate.render`);
* a name word that is an argument's type (or its parameter's name) says that argument where
  it stands, after the name's preposition too: ``open_window`` "open {w}",
  ``remove_from_table`` "remove ... from {t}"; parameters named by a preposition say it
  (``?from``, ``?to``, ``?loc-from``): "from {1} to {2}";
* the object, when the name does not say it, is the first other argument the action's
  effect changes, said after the verb ("remove {i} from {t}", "pick up {m}"); a thing the
  effect puts in or on the argument the name says is the object instead (``load_truck``:
  "load {pkg} into {truck}");
* the other arguments, in order: a thing moving between two ("from" the one its relation
  ends, "to" the one it makes: ``(not (at ?t ?a)) (at ?t ?b)``); the doer's place (a
  condition puts the doer there, ``agent_in_room``: "in {r}", said last); "to" after a verb
  that gives ("hand", "deliver"); the object's relation to it as the effect makes it ("on",
  "into") or ends it ("from"), or as the predicates allow (``on_shelf_level``: "on {l}";
  "from" after a verb that takes away); where things are (``placed_at_fridge``: "at
  {fr}"); "via" what the doer moves by; else "with" (the template is then not settled);
* a noun of the name that is no type is an argument's part when a predicate says so
  (``turn_on_faucet`` with ``faucet_on``, "{0}'s faucet is on": "turn on {s}'s faucet"),
  the argument itself when a predicate drops it for its subject (``wash_dish`` with
  ``dish_is_clean``, "{0} is clean": "wash {k}"), else it is said with "the" ("stow the
  arm").

Every argument but the doer is said once (:func:`check_action`); a sentence the user wrote
in the ``actions:`` section of ``<domain>.phrases.yaml`` (:func:`load_action_overrides`)
is checked the same way, and may say the doer too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from . import english as en
from .domain import DomainSchema
from .templates import SLOT_RE, Source, TemplateError, read_phrases, slot_index

Params = Sequence[tuple[str, tuple[str, ...]]]
_STEP_RE = re.compile(r'[^\s(),]+')


@dataclass(frozen=True)
class ActionTemplate:
    """How one action is said as an instruction: verb (bare), the rest; slots ``{i}``."""

    action: str
    verb: str  # bare: 'move', 'pick'
    rest: str  # 'up {1} from {2} in {3}'
    arity: int
    doer: int | None = None  # the argument not said (None: every one is)
    source: Source = Source.RULE
    settled: bool = True  # the words and predicates settled every preposition

    @property
    def text(self) -> str:
        """Return the template as written: "move from {1} to {2}"."""
        return ' '.join(w for w in (self.verb, self.rest) if w)

    def render(self, said: Sequence[str], doer: str | None = None) -> str:
        """Return the sentence for arguments said as ``said``.

        An instruction ("Move from the kitchen to the hall."), or with ``doer`` a statement
        naming who does it ("Robot 1 moves from the kitchen to the hall.").
        """
        verb = self.verb if doer is None else en.third(self.verb)
        text = ' '.join(w for w in (doer, verb, self.rest) if w)
        text = SLOT_RE.sub(lambda m: said[int(m.group(1))], text)
        text = re.sub(r'\s+', ' ', text).strip().replace(' the the ', ' the ')
        text = re.sub(r"(\w)s's\b", r"\1s'", text)  # the glasses' rim
        return text[:1].upper() + text[1:] + '.'

    def to_json(self) -> dict[str, object]:
        """Return a JSON-ready dict (the phrasebook file)."""
        return {**asdict(self), 'source': self.source.value}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> ActionTemplate:
        """Return a template read back from :meth:`to_json`."""
        d = dict(data)
        d['source'] = Source(str(d.get('source', 'rule')))
        return cls(**d)  # type: ignore[arg-type]


def read_step(step: str) -> tuple[str, tuple[str, ...]] | None:
    """Return a plan step ``(a x y)``, ``a x y`` or ``a(x, y)`` as (action, args), or None."""
    tokens = _STEP_RE.findall(step.lower()) if isinstance(step, str) else []
    return (tokens[0], tuple(tokens[1:])) if tokens else None


def doer_types(domain: DomainSchema) -> frozenset[str]:
    """Return the doer's types: the first parameter's of every action, if no other has them.

    The robot of ``(move ?r - robot ...)``, ``(pick ?r - robot ...)``: never said in a
    plan's sentences. Empty when the actions begin with different types (``lift ?c -
    crate``, ``drive ?t - truck``) or another parameter may be one (``stack ?x ?y -
    block``): then every argument is said.
    """
    acts = [a for a in domain.actions.values() if a.params]
    if not acts:
        return frozenset()
    common = set(acts[0].params[0][1]).intersection(*(a.params[0][1] for a in acts))
    common.discard('object')
    for a in acts:
        for _, types in a.params[1:]:
            if any(domain.is_subtype(t, tuple(common)) for t in types):
                return frozenset()
    return frozenset(common)


# -- checking and the user's sentences -------------------------------------------------------
def doer_index(params: Params, doers: frozenset[str]) -> int | None:
    """Return the doer's place among an action's parameters (0), or None: all are said."""
    return 0 if params and doers and set(params[0][1]) <= doers else None


def check_action(template: ActionTemplate) -> list[str]:
    """Return why ``template`` cannot say its action (empty: it can).

    Every argument's slot once, but the doer's (not said); a verb first.
    """
    seen = [int(s) for s in SLOT_RE.findall(template.text)]
    need = [i for i in range(template.arity) if i != template.doer]
    wrong = [i for i in need if seen.count(i) != 1] + [
        i for i in set(seen) if i not in need or seen.count(i) != 1]
    errors = []
    if wrong:
        errors.append(f'{template.action}: "{template.text}" must say each argument but the '
                      f'doer once: slot(s) {sorted(set(wrong))} wrong')
    if not re.fullmatch(r'[a-z][a-z-]*', template.verb):
        errors.append(f'{template.action}: "{template.text}" must start with its verb, as an '
                      'instruction ("go to {to}")')
    return errors


def parse_action(action: str, text: str, params: Params, doer: int | None = None,
                 *, source: Source = Source.USER) -> ActionTemplate:
    """Return the template written as ``text`` ("go from {from} to {to}", "pick up {1}").

    A slot is an argument's index, its parameter name (without ``?``) or its type when only
    one argument has it. The doer's slot may be left out (it is then not said); every other
    argument is said once. Raises :class:`TemplateError` with the reason.
    """
    index = slot_index(action, text, params,
                       ', '.join(f'{{{n.lstrip("?")}}}' for n, _ in params))
    body = SLOT_RE.sub(index, ' '.join(text.strip().rstrip('.').split()))
    said_doer = doer is not None and f'{{{doer}}}' in body
    verb, _, rest = body.partition(' ')
    got = ActionTemplate(action, verb.lower(), rest, len(params),
                         None if said_doer else doer, source)
    errors = check_action(got)
    if errors:
        missing = [params[int(i)][0] for i in range(len(params)) if i != got.doer
                   and f'{{{i}}}' not in body]
        why = f' (not said: {", ".join("?" + n for n in missing)})' if missing else ''
        raise TemplateError(errors[0] + why)
    return got


def load_action_overrides(path: str | Path, domain: DomainSchema
                          ) -> dict[str, ActionTemplate]:
    """Return the sentences a user wrote for ``domain``'s actions (``<domain>.phrases.yaml``).

    The file's ``actions:`` section (beside ``templates:``, :func:`.templates.load_overrides`)::

        actions:
          move_to_room: "go from {from} to {to}"       # the doer (?a) is not said
          place_at_table: "put {i} on {t}"             # ... but every other argument is: refused

    Raises :class:`TemplateError` with a clear reason for an unknown action, a slot missing,
    repeated or unknown, or a sentence that does not start with its verb.
    """
    data = read_phrases(path, domain)
    doers = doer_types(domain)
    out: dict[str, ActionTemplate] = {}
    for name, spec in (data.get('actions') or {}).items():  # type: ignore[union-attr]
        decl = domain.actions.get(str(name).lower())
        if decl is None:
            raise TemplateError(f'{path}: unknown action {name!r} (the domain has: '
                                f'{", ".join(sorted(domain.actions)[:12])} ...)')
        if not isinstance(spec, str):
            raise TemplateError(f'{path}: actions: {name}: give one sentence, an instruction '
                                'with a slot per argument ("go from {from} to {to}")')
        doer = doer_index(decl.params, doers)
        try:
            out[decl.name] = parse_action(decl.name, spec, decl.params, doer)
        except TemplateError as exc:
            raise TemplateError(f'{path}: actions: {exc}') from None
    return out
