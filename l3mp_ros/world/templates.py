# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A sentence template per predicate: how a fact of any typed domain is said in English.

A :class:`Template` is a subject phrase, a verb and the rest, with argument slots ``{0}``,
``{1}`` ...: ``(luggage_of hat_box claire)`` is "{0} is {1}'s luggage" → "The hat box is
Claire's luggage.". Its forms come from the verb (:class:`Form`): "is not", "was", "is no
longer", "is still", "is now"; "does not have", "had"; "does not rest on", "rested on".

:func:`rule_template` reads a predicate's words the way PDDL authors name predicates
(a verb "rests_on", a participle "checked_in", a preposition "at", a part "lights_on", a
noun "owner", a word taking "to" "next", glued "ontable"), drops words that only repeat an
argument's type, and says whether the words settled it; a template a model wrote, or one a
user wrote in YAML beside the domain (:func:`load_overrides`), is checked the same way
(:func:`check`: every slot once, a verb to conjugate, the predicate's words or its own).
A domain's templates, with its actions' (:mod:`.action_templates`), make its phrasebook
(:mod:`.phrasebook`). General English only (:mod:`.english`): no word of any domain.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path

import yaml

from ..text import STOPWORDS, spelt, word_root
from . import english as en
from .domain import DomainSchema

VERSION = 1  # of the rules: a phrasebook made by other rules is made again
SLOT_RE = re.compile(r'\{(\w+)\}')
_BE = {'is', 'are', 'was', 'were'}
_HAVE = {'has', 'have'}


class Source(StrEnum):
    """Where a template came from."""

    RULE = 'rule'  # the predicate's words read by :func:`rule_template`
    MODEL = 'model'  # written by the configured model, checked
    USER = 'user'  # the YAML beside the domain


class Form(StrEnum):
    """How a fact is said."""

    NOW = 'now'  # it holds: "Anna is in the kitchen"
    NOT = 'not'  # it does not hold: "Anna is not in the kitchen"
    PAST = 'past'  # it held: "Anna was in the kitchen"
    NO_LONGER = 'no_longer'  # it stopped: "Anna is no longer in the kitchen"
    STILL = 'still'  # it holds as before: "Anna is still in the kitchen"
    CHANGED = 'changed'  # it holds since a change: "Anna is now in the kitchen"
    ALREADY = 'already'  # it held before it was told: "The remote is already on the table"


class TemplateError(ValueError):
    """A template that cannot say its predicate (a slot missing, no verb, ...)."""


@dataclass(frozen=True)
class Template:
    """How one predicate is said: subject phrase, verb (bare form), the rest; slots ``{i}``."""

    predicate: str
    subject: str  # "{0}", "{0}'s lights"; '' for a predicate without arguments
    verb: str  # bare: 'be', 'have', 'can', 'rest'
    rest: str  # "in {1}", "checked in", "{1}'s luggage"
    source: Source = Source.RULE
    settled: bool = True  # the words alone settled it (a rule template may not be)
    plural: bool | None = None  # the subject phrase's number; None: the subject entity's
    forms: dict[str, str] = field(default_factory=dict)  # explicit texts per Form (YAML)

    @property
    def text(self) -> str:
        """Return the template as written: "{0} is in {1}"."""
        return self.say_slots(Form.NOW)

    def say_slots(self, form: Form = Form.NOW, plural: bool = False) -> str:
        """Return the template in ``form`` with its slots unfilled."""
        if form.value in self.forms:
            return self.forms[form.value]
        many = self.plural if self.plural is not None else plural
        return ' '.join(w for w in (self.subject, verb_phrase(self.verb, form, many),
                                    self.rest) if w)

    def render(self, said: Sequence[str], form: Form = Form.NOW,
               plural: Sequence[bool] = ()) -> str:
        """Return the sentence for arguments said as ``said`` (with a full stop)."""
        many = bool(plural and self.subject == '{0}' and plural[0])
        text = SLOT_RE.sub(lambda m: said[int(m.group(1))], self.say_slots(form, many))
        text = re.sub(r'\s+', ' ', text).strip()
        text = text.replace(' the the ', ' the ')
        text = re.sub(r"(\w)s's\b", r"\1s'", text)  # the batteries' home
        return text[:1].upper() + text[1:] + '.'

    def to_json(self) -> dict[str, object]:
        """Return a JSON-ready dict (the phrasebook file)."""
        return {**asdict(self), 'source': self.source.value}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Template:
        """Return a template read back from :meth:`to_json`."""
        d = dict(data)
        d['source'] = Source(str(d.get('source', 'rule')))
        d['forms'] = dict(d.get('forms') or {})  # type: ignore[call-overload]
        return cls(**d)  # type: ignore[arg-type]


def verb_phrase(lemma: str, form: Form, plural: bool = False) -> str:
    """Return the verb of a template in ``form``: is not, was, does not have, rested."""
    if lemma == 'be':
        now, was = ('are', 'were') if plural else ('is', 'was')
        return {Form.NOW: now, Form.NOT: f'{now} not', Form.PAST: was,
                Form.NO_LONGER: f'{now} no longer', Form.STILL: f'{now} still',
                Form.CHANGED: f'{now} now', Form.ALREADY: f'{now} already'}[form]
    if lemma == 'can':
        return {Form.NOW: 'can', Form.NOT: 'cannot', Form.PAST: 'could',
                Form.NO_LONGER: 'can no longer', Form.STILL: 'can still',
                Form.CHANGED: 'can now', Form.ALREADY: 'can already'}[form]
    now = lemma if plural else en.third(lemma)
    do = 'do' if plural else 'does'
    return {Form.NOW: now, Form.NOT: f'{do} not {lemma}', Form.PAST: en.past(lemma),
            Form.NO_LONGER: f'no longer {now}', Form.STILL: f'still {now}',
            Form.CHANGED: f'now {now}', Form.ALREADY: f'already {now}'}[form]


# -- reading a predicate's words ------------------------------------------------------------
def _split(name: str) -> list[str]:
    """Return the words of a predicate name: ``inPersonHand``, ``part1`` → part, 1.

    A name the reader lower-cased (``inpersonhand``) splits as the domain wrote it.
    """
    name = '_'.join(spelt(name) or (name,))
    name = re.sub(r'([a-z])([A-Z])', r'\1_\2', name).lower()
    out: list[str] = []
    for w in re.split(r'[_\-\s]+', name):
        out.extend(re.findall(r'[a-z]+|\d+', w))
    return out


def _unglue(word: str) -> list[str]:
    """Return a word with a glued preposition or state split: ontable, handempty."""
    for a in en.GLUED_STATES:
        head = word[:-len(a)]
        if word.endswith(a) and len(head) >= 3 and _noun_like(head) and word != a:
            return [head, a]
    for p in en.GLUED:
        rest = word[len(p):]
        if (word.startswith(p) and len(rest) >= 4 and rest[0] not in 'aeiou'
                and word not in en.PREPOSITIONS and not en.is_participle(word)
                and not en.is_gerund(word) and not en.is_verb(word)):
            return [p, rest]
    return [word]


def _type_words(domain: DomainSchema | None, types: Iterable[str]) -> set[str]:
    """Return the words of ``types`` and their supertypes (below ``object``)."""
    out: set[str] = set()
    for t in types:
        for a in (domain.ancestors(t) if domain is not None and t in domain.types else (t,)):
            if a != 'object':
                out.update(_split(a))
    return out


def _type_names(domain: DomainSchema | None, types: Iterable[str]) -> set[str]:
    """Return ``types`` and their supertypes as written (``robot``, ``bellbot``)."""
    out: set[str] = set()
    for t in types:
        for a in (domain.ancestors(t) if domain is not None and t in domain.types else (t,)):
            if a != 'object':
                out.add(a.replace('_', '').replace('-', '').lower())
    return out


def _noun_like(w: str) -> bool:
    return not (w in en.PREPOSITIONS or en.is_participle(w) or en.is_gerund(w)
                or en.is_verb(w) or en.is_adjective(w) or w.endswith('ly')
                or w in ('not', 'no', 'is', 'are', 'has', 'have', 'can'))


def _drop_types(toks: list[str], params: Sequence[tuple[str, tuple[str, ...]]],
                domain: DomainSchema | None) -> tuple[list[str], int | None]:
    """Return the words without those repeating an argument's type, and an inner one's index.

    ``person_in_room`` → in; ``placed_at_table`` → placed, at; ``bot_at`` of a robot → at;
    ``in_person_hand`` keeps ``person`` as the inner index (said as the owner: "in Jerry's
    hand").
    """
    if not params:
        return toks, None
    first = _type_words(domain, params[0][1])
    names = _type_names(domain, params[0][1])
    while len(toks) > 1 and toks[1:] != ['of'] and (toks[0] in first or (
            len(toks[0]) >= 3 and _noun_like(toks[0]) and toks[1] in en.PREPOSITIONS
            and any(toks[0] in n for n in names))):
        toks = toks[1:]
    if len(toks) > 1 and any(w in first for w in toks[1:]):  # at_lander of a lander
        kept = [w for i, w in enumerate(toks) if i == 0 or w not in first]
        if kept != ['of']:
            toks = kept
    if len(params) == 2:
        second = _type_words(domain, params[1][1])
        while len(toks) > 1 and toks[-1] in second:
            toks = toks[:-1]
        inner = [i for i, w in enumerate(toks) if w in second and 0 < i < len(toks) - 1]
        if inner:
            return toks, inner[0]
    return toks, None


def rule_template(predicate: str, params: Sequence[tuple[str, tuple[str, ...]]] = (),
                  domain: DomainSchema | None = None) -> Template:
    """Return the template the predicate's words give, and whether they settled it."""
    split = _split(predicate) or [predicate]
    raw = [u for w in split for u in _unglue(w)]
    toks, inner = _drop_types(list(raw), params, domain)
    arity = len(params)
    words = ' '.join(toks)
    if arity == 0:
        return _nullary(predicate, toks)
    if 'not' in toks or 'no' in toks:  # do_not_disturb: a state named by a phrase
        rest = ('marked "' + words + '"') if arity == 1 else f'marked "{words}" for {{1}}'
        return Template(predicate, '{0}', 'be', rest, settled=False)
    if arity == 1:
        return _unary(predicate, toks, glued=len(split) == 1 and len(raw) == 2)
    if arity == 2:
        return _binary(predicate, toks, inner)
    return _many(predicate, toks, arity)


def _nullary(predicate: str, toks: list[str]) -> Template:
    """``handempty`` → "The hand is empty"; ``raining`` → "It is raining"."""
    if len(toks) == 1 and en.is_gerund(toks[0]):
        return Template(predicate, 'it', 'be', toks[0])
    if len(toks) >= 2 and not _noun_like(toks[-1]) or (len(toks) >= 2 and toks[-1] in (
            'empty', 'full', 'free', 'busy', 'ready', 'open', 'closed', 'clear')):
        return Template(predicate, 'the ' + ' '.join(toks[:-1]), 'be', toks[-1],
                        plural=en.plural_noun(toks[-2]))
    return Template(predicate, 'it', 'be', 'the case that ' + ' '.join(toks), settled=False)


def _unary(predicate: str, toks: list[str], glued: bool) -> Template:
    """One argument: a state of it ("is checked in", "'s lights are on", "needs restock")."""
    if 'is' in toks[1:-1] or 'are' in toks[1:-1]:  # dish_is_clean: "is clean"
        at = max(i for i, w in enumerate(toks) if w in ('is', 'are'))
        toks = toks[at:]
    head, rest = toks[0], ' '.join(toks[1:])
    if head in _BE and len(toks) > 1:
        return Template(predicate, '{0}', 'be', rest)
    if head in _HAVE and len(toks) == 2 and not en.plural_noun(toks[1]) \
            and toks[1] not in en.MASS_NOUNS:  # has_charger: "has a charger"
        return Template(predicate, '{0}', 'have', ('an ' if toks[1][0] in 'aeiou' else 'a ')
                        + toks[1])
    if len(toks) == 2 and (toks[1] in en.PARTICLES or toks[1] in en.GLUED_STATES) \
            and not en.is_participle(head) and head not in en.PREPOSITIONS \
            and head not in _HAVE:  # lights_on, hands_free: a part's state
        return Template(predicate, "{0}'s " + head, 'be', toks[1], plural=en.plural_noun(head))
    if head == 'can' and len(toks) > 1:
        return Template(predicate, '{0}', 'can', rest)
    if head in _HAVE or (en.is_verb(head) and head not in en.PREPOSITIONS):
        return Template(predicate, '{0}', en.base(head), rest)
    if head in en.PREPOSITIONS:  # ontable: "is on the table"; at_robby: not settled
        obj = ' '.join(toks[1:])
        if glued:  # ontable: "is on the table"
            return Template(predicate, '{0}', 'be', f'{head} the {obj}')
        # light_on: "is on"; out_of_order: an idiom; at_rock_sample: not settled
        idiom = len(toks) == 1 or any(w in en.PREPOSITIONS for w in toks[1:])
        return Template(predicate, '{0}', 'be', ' '.join(toks), settled=idiom)
    if len(toks) == 1 or not _noun_like(toks[0]) or toks[0].isdigit():
        # communicated_rock_data: a participle with a bare noun after it is not settled
        bare = len(toks) > 1 and en.is_participle(toks[0]) and toks[1] not in en.PREPOSITIONS \
            and toks[1] not in en.PARTICLES
        digits = any(w.isdigit() for w in toks)
        return Template(predicate, '{0}', 'be', ' '.join(toks), settled=not (digits or bare))
    # a part of it in a state: light_on → "{0}'s light is on", lights_on → "are on"
    part = ' '.join(toks[:-1])
    return Template(predicate, "{0}'s " + part, 'be', toks[-1],
                    plural=en.plural_noun(toks[-2]),
                    settled=toks[-1] in en.PARTICLES or len(toks) == 2)


def _binary(predicate: str, toks: list[str], inner: int | None) -> Template:
    """Two arguments: a relation of the first to the second ("is in", "rests on", "has")."""
    if inner is not None:  # in_person_hand: "is in {1}'s hand"
        lead, tail = toks[:inner], toks[inner + 1:]
        rest = ' '.join([*lead, "{1}'s", *tail])
        if lead and (lead[0] in _HAVE or en.is_verb(lead[0])):
            return Template(predicate, '{0}', en.base(lead[0]),
                            ' '.join([*lead[1:], "{1}'s", *tail]))
        return Template(predicate, '{0}', 'be', rest)
    if len(toks) == 2 and _noun_like(toks[0]) and toks[1] in en.PREPOSITIONS \
            and toks[1] != 'of':
        toks = toks[1:]  # robot_at, lift_at: the noun names the subject
    head, words = toks[0], ' '.join(toks)
    if head in en.PREPOSITIONS and len(toks) > 1 and all(_noun_like(w) for w in toks[1:]) \
            and toks[-1] not in en.PREPOSITIONS:  # in_gripper: "is in {1}'s gripper"
        return Template(predicate, '{0}', 'be', f"{head} {{1}}'s {' '.join(toks[1:])}")
    if head in _BE:
        return Template(predicate, '{0}', 'be', ' '.join([*toks[1:], '{1}']))
    if head == 'can':
        return Template(predicate, '{0}', 'can', ' '.join([*toks[1:], '{1}']))
    if head in _HAVE or en.is_verb(head):  # rests_on, has; has_rock_analysis: not settled
        lemma = en.base(head)
        to = ['to'] if len(toks) == 1 and lemma in en.VERBS_TO else []  # connects to
        return Template(predicate, '{0}', lemma, ' '.join([*toks[1:], *to, '{1}']),
                        settled=len(toks) == 1 or toks[-1] in en.PREPOSITIONS)
    if toks[-1] == 'of' and len(toks) > 1:  # luggage_of: "{0} is {1}'s luggage"
        noun = ' '.join(toks[:-1])
        if toks[0] in ('part', 'member', 'piece'):
            return Template(predicate, '{0}', 'be', f'{noun} of {{1}}')
        return Template(predicate, '{0}', 'be', f"{{1}}'s {noun}",
                        settled=all(_noun_like(w) for w in toks[:-1]))
    if toks[-1] in en.PREPOSITIONS:  # at, checked_out_by, close_to, in_room
        return Template(predicate, '{0}', 'be', f'{words} {{1}}')
    if toks[-1] in en.TAKES_TO:  # next, adjacent, connected
        return Template(predicate, '{0}', 'be', f'{words} to {{1}}')
    if en.is_gerund(head):  # holding
        return Template(predicate, '{0}', 'be', f'{words} {{1}}')
    if en.is_participle(toks[-1]):  # carried: "is carried by {1}" (or another preposition)
        return Template(predicate, '{0}', 'be', f'{words} by {{1}}', settled=False)
    if len(toks) == 1 and en.is_adjective(head):  # visible, compatible: to or from?
        return Template(predicate, '{0}', 'be', f'{head} to {{1}}', settled=False)
    if all(_noun_like(w) for w in toks):  # owner: "{0}'s owner is {1}"
        said = ' '.join(en.ordinal(w) if w.isdigit() else w for w in toks)
        if toks[-1].isdigit():  # part1: "the first part of"
            said = f'{en.ordinal(toks[-1])} {" ".join(toks[:-1])}'
        return Template(predicate, "{0}'s " + said, 'be', '{1}', plural=False,
                        settled=len(toks) > 1 and not any(w.isdigit() for w in toks))
    return Template(predicate, '{0}', 'be', f'{words} {{1}}', settled=False)


def _many(predicate: str, toks: list[str], arity: int) -> Template:
    """Three or more arguments: a relation with a list ("can traverse {1} to {2}")."""
    head = toks[0]
    others = ', '.join(f'{{{i}}}' for i in range(1, arity - 1)) + f' and {{{arity - 1}}}'
    if head == 'can' and len(toks) > 1:
        return Template(predicate, '{0}', 'can', ' '.join(toks[1:]) + ' ' + others,
                        settled=False)
    if head in _HAVE or en.is_verb(head):
        return Template(predicate, '{0}', en.base(head), ' '.join(toks[1:]) + ' ' + others,
                        settled=False)
    return Template(predicate, '{0}', 'be', ' '.join(toks) + ' ' + others, settled=False)


# -- checking and parsing ---------------------------------------------------------------------
def slot_index(owner: str, text: str, params: Sequence[tuple[str, Sequence[str]]],
               known: str) -> Callable[[re.Match[str]], str]:
    """Return the substitution of ``SLOT_RE`` that numbers a slot: "{guest}" → "{0}".

    A slot is an argument's index, its parameter name (without ``?``) or its type when
    only one argument has it; anything else raises :class:`TemplateError` for ``owner``
    (a predicate or an action), ``known`` listing what may be written.
    """
    names = {n.lstrip('?').lower(): i for i, (n, _) in enumerate(params)}
    kinds: dict[str, list[int]] = {}
    for i, (_, types) in enumerate(params):
        for t in types:
            kinds.setdefault(t.lower(), []).append(i)

    def index(m: re.Match[str]) -> str:
        key = m.group(1).lower()
        if key.isdigit() and int(key) < len(params):
            return '{' + key + '}'
        if key in names:
            return '{' + str(names[key]) + '}'
        if len(kinds.get(key, [])) == 1:
            return '{' + str(kinds[key][0]) + '}'
        raise TemplateError(f'{owner}: unknown slot {{{m.group(1)}}} in "{text}" (use an '
                            f'argument number or a parameter name: {known})')
    return index


def parse(predicate: str, text: str, params: Sequence[tuple[str, tuple[str, ...]]] = (),
          *, source: Source = Source.USER, forms: Mapping[str, str] | None = None
          ) -> Template:
    """Return the template written as ``text`` ("{guest} is checked in", "{0} has {1}").

    A slot is an argument's index, its parameter name (without ``?``) or its type when only
    one argument has it. Raises :class:`TemplateError` for an unknown slot, a slot missing
    or repeated, or no verb after the subject (give ``forms`` for a sentence of another
    shape).
    """
    known = ', '.join(['{0}'] + [f'{{{n.lstrip("?")}}}' for n, _ in params][:4]) + ' ...'
    index = slot_index(predicate, text, params, known)
    body = SLOT_RE.sub(index, ' '.join(text.strip().rstrip('.').split()))
    forms = {k: SLOT_RE.sub(index, v) for k, v in (forms or {}).items()}
    for k in forms:
        Form(k)  # raises ValueError for an unknown form
    _slots_once(predicate, body, len(params))
    toks = body.split()
    at = next((i for i, w in enumerate(toks) if i > 0 and any(
        '{' in t for t in toks[:i]) and (w in _BE | _HAVE | {'can', 'cannot'} or (
            en.is_verb(w) and '{' not in w))), None)
    if at is None:
        if not {f.value for f in Form} - {Form.NOW.value} <= set(forms):
            raise TemplateError(f'{predicate}: "{text}" has no verb after its subject to '
                                'say "is not", "was", "no longer" with: give those forms too')
        return Template(predicate, body, 'be', '', source,
                        forms={**forms, Form.NOW.value: body})
    w = toks[at]
    lemma = 'be' if w in _BE else 'have' if w in _HAVE else 'can' if w == 'can' else en.base(w)
    plural = True if w in ('are', 'were', 'have') else None
    return Template(predicate, ' '.join(toks[:at]), lemma, ' '.join(toks[at + 1:]), source,
                    plural=plural, forms=dict(forms))


def _slots_once(predicate: str, text: str, arity: int) -> None:
    """Raise unless every argument's slot is in ``text`` exactly once."""
    seen = [int(s) for s in SLOT_RE.findall(text)]
    missing = [i for i in range(arity) if seen.count(i) != 1]
    if missing or len(seen) != arity:
        raise TemplateError(f'{predicate}: "{text}" must name each of its {arity} '
                            f'argument(s) once: slot(s) {missing or seen} wrong')


def check(template: Template, arity: int, others: Iterable[Template] = ()) -> list[str]:
    """Return why ``template`` cannot say its predicate (empty: it can).

    Every slot once; a verb to say the other forms with; and not the same sentence as
    another predicate of the domain for the same arguments (reading it back would not give
    this predicate).
    """
    errors: list[str] = []
    try:
        _slots_once(template.predicate, template.text, arity)
    except TemplateError as exc:
        errors.append(str(exc))
    others = [o for o in others if o.predicate != template.predicate]
    for o in others:
        if o.text == template.text:
            errors.append(f'{template.predicate}: says the same as {o.predicate} '
                          f'("{template.text}")')
    backwards = _backwards(template)
    if backwards:
        errors.append(f'{template.predicate}: "{template.text}" says it backwards: the '
                      f'predicate says {{0}} is {backwards}, not that {{0}} does it')
    said = {word_root(w) for w in re.findall(r'[a-z]+', template.text.lower())}
    own = _overlap(template.predicate, said)
    rival = max(others, key=lambda o: _overlap(o.predicate, said), default=None)
    if rival is not None and _overlap(rival.predicate, said) > own:
        errors.append(f'{template.predicate}: "{template.text}" reads back as '
                      f'{rival.predicate}, not as {template.predicate}')
    return errors


def _backwards(template: Template) -> str:
    """Return the predicate's participle when the template makes its first argument the doer.

    ``(held ?i - item ?p - person)`` says the item is held; "{0} is holding {1}" and "{0}
    holds {1}" say the item holds the person ("{0} is hanging on {1}", no object, reads
    right). '' when the template reads the right way.
    """
    parts = [w for w in _split(template.predicate) if en.is_participle(w)]
    if not parts or not template.subject.startswith('{0}') or '{1}' not in template.rest:
        return ''
    lead = template.rest.split('{1}')[0].lower().split()  # the verb's object: {1} next
    verbs = [template.verb] if template.verb not in ('be', 'have', 'can') and not lead \
        else [w for w in lead if len(lead) == 1 and en.is_gerund(w)]
    return next((p for p in parts for v in verbs
                 if en.same_verb(p, v if en.is_gerund(v) else en.third(v))), '')


def _overlap(predicate: str, said: set[str]) -> float:
    """Return the share of a predicate's own words a sentence says (by root)."""
    roots = {word_root(w) for w in _split(predicate) if not w.isdigit() and w not in STOPWORDS}
    return len(roots & said) / len(roots) if roots else 0.0


# -- the user's phrases file ------------------------------------------------------------------
def read_phrases(path: str | Path, domain: DomainSchema) -> dict[str, object]:
    """Return ``<domain>.phrases.yaml`` read as a mapping, checked against ``domain``'s name.

    Raises :class:`TemplateError` for a file that is not YAML, not a mapping, a section
    (``templates``, ``actions``) that is not a mapping, or another domain's name.
    """
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as exc:
        raise TemplateError(f'{path}: not YAML: {exc}') from None
    if not isinstance(data, dict) or not all(
            isinstance(data.get(k) or {}, dict) for k in ('templates', 'actions')):
        raise TemplateError(f'{path}: expected a mapping with "templates: {{predicate: '
                            'sentence}" and "actions: {action: sentence}"')
    name = data.get('domain')
    if name is not None and str(name).lower() != domain.name.lower():
        raise TemplateError(f'{path}: written for domain {name!r}, not {domain.name!r}')
    return data


def load_overrides(path: str | Path, domain: DomainSchema) -> dict[str, Template]:
    """Return the templates a user wrote for ``domain``'s predicates (``<domain>.phrases.yaml``).

    The file (its ``actions:`` section: :func:`.action_templates.load_action_overrides`)::

        domain: hotel            # optional; checked against the domain's name
        templates:
          checked_in: "{guest} is checked in"
          luggage_of: {now: "{0} belongs to {1}", past: "{0} belonged to {1}"}

    Raises :class:`TemplateError` with a clear reason for an unknown predicate, a slot
    missing or unknown, an unknown form, or a file that is not such a mapping.
    """
    data = read_phrases(path, domain)
    out: dict[str, Template] = {}
    for pred, spec in (data.get('templates') or {}).items():  # type: ignore[union-attr]
        decl = domain.predicates.get(str(pred))
        if decl is None:
            raise TemplateError(f'{path}: unknown predicate {pred!r} (the domain has: '
                                f'{", ".join(sorted(domain.predicates)[:12])} ...)')
        if isinstance(spec, str):
            text, forms = spec, {}
        elif isinstance(spec, dict) and isinstance(spec.get('now'), str):
            text = spec['now']
            forms = {str(k): str(v) for k, v in spec.items() if k != 'now'}
        else:
            raise TemplateError(f'{path}: {pred}: give a sentence, or a mapping with "now" '
                                'and other forms (not, past, no_longer, still, changed)')
        try:
            out[str(pred)] = parse(str(pred), text, decl.params, forms=forms)
        except ValueError as exc:
            raise TemplateError(f'{path}: {exc}') from None
    return out
