# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""A domain's phrasebook: how each fact (by predicate) and each plan step (by action) is said.

The templates (:mod:`.templates` for predicates, :mod:`.action_templates` for actions) come
from the rules (:func:`.templates.rule_template`, :func:`.action_reading.rule_action`), a
model (:mod:`l3mp_ros.llm.phrasebook`, predicates only) or the user's
``<domain>.phrases.yaml`` beside the domain (``templates:`` and ``actions:``), which wins.
A phrasebook is kept in a cache directory by the domain's key (its text, the phrases file,
the rules' versions) and in the store's meta (:data:`PHRASEBOOK_META`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..text import spellings
from . import action_reading, templates
from .action_reading import action_rules
from .action_templates import ActionTemplate, load_action_overrides
from .domain import DomainSchema
from .templates import Source, Template, TemplateError, check, load_overrides, rule_template

PHRASEBOOK_META = 'phrasebook'  # the store's meta key that keeps the phrasebook it was made with
SCHEMA = 'l3mp/phrasebook/v1'


@dataclass
class Phrasebook:
    """The templates of one domain, by predicate and by action, with where each came from."""

    domain_key: str  # the domain text's hash (and the overrides')
    templates: dict[str, Template]
    actions: dict[str, ActionTemplate] = field(default_factory=dict)

    def __getitem__(self, predicate: str) -> Template:
        return self.templates[predicate]

    def get(self, predicate: str) -> Template | None:
        """Return the template of ``predicate``, or None."""
        return self.templates.get(predicate)

    def action(self, name: str) -> ActionTemplate | None:
        """Return the template of action ``name``, or None."""
        return self.actions.get(name)

    def counts(self, of_actions: bool = False) -> dict[str, int]:
        """Return how many templates came from each source (and how many are unsettled).

        Of the predicates' templates, or with ``of_actions`` of the actions'.
        """
        out: dict[str, int] = {}
        for t in (self.actions if of_actions else self.templates).values():
            out[t.source.value] = out.get(t.source.value, 0) + 1
            if not t.settled:
                out['unsettled'] = out.get('unsettled', 0) + 1
        return out

    def fits(self, domain: DomainSchema, key: str) -> bool:
        """Tell whether this phrasebook was made for ``domain`` as it is (its ``key``)."""
        return self.domain_key == key and set(self.templates) == set(domain.predicates) \
            and set(self.actions) == set(domain.actions)

    def to_json(self) -> dict[str, object]:
        """Return the phrasebook file's JSON (``l3mp/phrasebook/v1``)."""
        return {'schema': SCHEMA, 'version': templates.VERSION, 'domain': self.domain_key,
                'templates': {p: t.to_json() for p, t in sorted(self.templates.items())},
                'actions': {a: t.to_json() for a, t in sorted(self.actions.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Phrasebook:
        """Return a phrasebook read back from :meth:`to_json` (no actions: an older file)."""
        raw, acts = data.get('templates'), data.get('actions') or {}
        if data.get('schema') != SCHEMA or not isinstance(raw, dict) \
                or not isinstance(acts, dict):
            raise TemplateError(f'not an {SCHEMA} file')
        return cls(str(data.get('domain', '')),
                   {p: Template.from_json(t) for p, t in raw.items()},
                   {a: ActionTemplate.from_json(t) for a, t in acts.items()})

    @classmethod
    def by_rules(cls, domain: DomainSchema, overrides: Mapping[str, Template] | None = None,
                 key: str = '', actions: Mapping[str, ActionTemplate] | None = None
                 ) -> Phrasebook:
        """Return the domain's templates from the rules, with the user's in their place."""
        said = {p: rule_template(p, decl.params, domain)
                for p, decl in sorted(domain.predicates.items())}
        said.update(overrides or {})
        done = action_rules(domain)
        done.update(actions or {})
        return cls(key or domain_key(domain), said, done)


def domain_key(domain: DomainSchema, overrides_text: str = '', actions: bool = True) -> str:
    """Return the key a domain's phrasebook is kept under (its text, overrides, rules).

    ``actions`` False: the key of a phrasebook made before it had action templates.
    """
    rules = f'{templates.VERSION}.{action_reading.VERSION}' if actions else \
        str(templates.VERSION)
    spelt = spellings(domain.text or '')  # camel-case names split (kept apart: the keys of
    if spelt:  # domains without them are as before)
        rules += f'.spelt{len(spelt)}'
    h = hashlib.sha256(f'{rules}\n{domain.text or domain.name}\n{overrides_text}'.encode())
    return h.hexdigest()[:16]


def overrides_path(domain_path: str | Path) -> Path:
    """Return where a domain's template overrides are: ``<domain>.phrases.yaml`` beside it."""
    p = Path(domain_path)
    return p.with_name(p.stem + '.phrases.yaml')


def _overrides(domain: DomainSchema) -> tuple[str, Path | None]:
    """Return the text of the domain's phrases file ('' without one) and its path."""
    over_file = overrides_path(domain.path) if domain.path else None
    over_text = over_file.read_text() if over_file is not None and over_file.exists() else ''
    return over_text, over_file


def upgrade(book: Phrasebook, domain: DomainSchema) -> Phrasebook | None:
    """Return a phrasebook made before action templates with them added, else None.

    One kept by a store or the cache from before (no actions, keyed without the action
    rules) keeps its predicates' templates, a model's work among them; its actions' come
    from the rules and the phrases file.
    """
    over_text, over_file = _overrides(domain)
    if book.actions or book.domain_key != domain_key(domain, over_text, actions=False) \
            or set(book.templates) != set(domain.predicates):
        return None
    actions = action_rules(domain)
    if over_file is not None and over_text:
        actions.update(load_action_overrides(over_file, domain))
    return Phrasebook(domain_key(domain, over_text), dict(book.templates), actions)


def vetted(book: Phrasebook, domain: DomainSchema) -> Phrasebook:
    """Return ``book`` with each model's template that fails today's checks said by the rules.

    A phrasebook kept by the cache or a store was checked when it was made; a check added
    since (a template that says its fact backwards) applies to it too, without asking the
    model again. The user's own templates are left as written.
    """
    bad = {p for p, t in book.templates.items() if t.source is Source.MODEL
           and p in domain.predicates
           and check(t, domain.predicates[p].arity, book.templates.values())}
    if not bad:
        return book
    fixed = {p: rule_template(p, domain.predicates[p].params, domain) if p in bad else t
             for p, t in book.templates.items()}
    return Phrasebook(book.domain_key, fixed, dict(book.actions))


def phrasebook_for(domain: DomainSchema, cache_dir: Path | None = None) -> Phrasebook:
    """Return the domain's phrasebook: the cached one (a model's work kept), else by rules.

    The overrides beside the domain (:func:`overrides_path`: ``templates:`` and
    ``actions:``) are read each time (a bad file raises :class:`TemplateError`); the cache
    is keyed by the domain text, the overrides and the rules' versions.
    """
    over_text, over_file = _overrides(domain)
    overrides = load_overrides(over_file, domain) if over_file and over_text else {}
    actions = load_action_overrides(over_file, domain) if over_file and over_text else {}
    key = domain_key(domain, over_text)
    if cache_dir is not None:
        file = cache_dir / f'{key}.json'
        try:
            book = Phrasebook.from_json(json.loads(file.read_text()))
            if book.fits(domain, key):
                return vetted(book, domain)
        except (OSError, ValueError):
            pass
        try:  # one kept before actions had templates: its predicates' kept, saved anew
            older = upgrade(Phrasebook.from_json(json.loads(
                (cache_dir / f'{domain_key(domain, over_text, actions=False)}.json'
                 ).read_text())), domain)
        except (OSError, ValueError):
            older = None
        if older is not None:
            tmp = file.with_suffix('.tmp')
            tmp.write_text(json.dumps(older.to_json(), indent=1))
            tmp.replace(file)
            return vetted(older, domain)
    return Phrasebook.by_rules(domain, overrides, key, actions)
