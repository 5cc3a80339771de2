# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Sentence templates the words alone did not settle, asked of the configured model once.

For each predicate whose rule template is not settled (:func:`..world.templates.
rule_template`: "at_rock_sample", "cocktail-part1", "visible"), one call shows the model
the predicate, its argument types and the actions that use it, and asks for one English
sentence with ``{0}``, ``{1}`` ... for the arguments (a JSON schema keeps the reply to one
string). The answer is parsed and checked like a user's template (every slot once, a verb,
not another predicate's sentence); what fails keeps the rule's template. The phrasebook is
written to the cache keyed by the domain (:func:`..world.templates.domain_key`), so a
second store of the same domain costs nothing. The model failing or absent leaves the rules.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from ..world.domain import DomainSchema
from ..world.phrasebook import Phrasebook, phrasebook_for
from ..world.templates import Source, Template, TemplateError, check, parse
from .protocol import ChatLLM, LLMError

SCHEMA = {'type': 'object', 'properties': {'sentence': {'type': 'string', 'maxLength': 120}},
          'required': ['sentence'], 'additionalProperties': False}
SYSTEM = ('You write English sentence patterns for PDDL predicates, so that a robot can say a '
          'fact to a person. Write {0}, {1}, ... where the arguments go, each exactly once, '
          'in a short present-tense sentence a person would say. Keep the meaning the '
          'predicate has in the actions that use it.')
# generic shapes only: nothing of any domain the project ships or is measured on
EXAMPLES = (
    ('(stacked_upon ?a - crate ?b - crate)', '{0} is stacked on {1}'),
    ('(pump_primed ?p - pump)', "{0}'s pump is primed"),
    ('(route_between ?r - route ?x - city ?y - city)', '{0} runs between {1} and {2}'),
)


def uses(domain: DomainSchema, predicate: str, most: int = 2) -> list[str]:
    """Return up to ``most`` actions of the domain text that use ``predicate``, abridged."""
    out: list[str] = []
    low = (domain.text or '').lower()
    pat = re.compile(r'\(' + re.escape(predicate.lower()) + r'[\s)]')
    for chunk in re.split(r'\(:(?:durative-)?action\b', low)[1:]:
        if pat.search(chunk):
            out.append('(:action ' + ' '.join(chunk.split())[:280])
        if len(out) >= most:
            break
    return out


def ask(llm: ChatLLM, domain: DomainSchema, template: Template) -> Template | None:
    """Return the model's template for one predicate, checked; None if it fails."""
    decl = domain.predicates[template.predicate]
    shots = []
    for sig, said in EXAMPLES:
        shots += [{'role': 'user', 'content': f'Predicate: {sig}'},
                  {'role': 'assistant', 'content': json.dumps({'sentence': said})}]
    used = uses(domain, template.predicate)
    slots = ', '.join(f'{{{i}}} = {name} ({"/".join(types)})'
                      for i, (name, types) in enumerate(decl.params))
    ask_text = (f'Predicate: {decl.signature()}\nArguments: {slots or "none"}\n'
                + (f'Used by: {"; ".join(used)}' if used else ''))
    try:
        reply = llm.chat([{'role': 'system', 'content': SYSTEM}, *shots,
                          {'role': 'user', 'content': ask_text}],
                         schema=SCHEMA, schema_name='template', max_tokens=60)
    except LLMError:
        return None
    data = reply.data if isinstance(reply.data, dict) else {}
    text = str(data.get('sentence') or '').strip()
    try:
        return parse(template.predicate, text, decl.params, source=Source.MODEL)
    except (TemplateError, ValueError):
        return None


def make(domain: DomainSchema, llm: ChatLLM | None, cache_dir: Path | None,
         progress: Callable[[str], None] | None = None) -> Phrasebook:
    """Return the domain's phrasebook with the model's templates where the rules were unsure.

    Kept in ``cache_dir`` (when given) under the domain's key; a kept one is returned as it
    is. Without a model the rules' templates stand.
    """
    book = phrasebook_for(domain, cache_dir)
    file = cache_dir / f'{book.domain_key}.json' if cache_dir is not None else None
    if file is not None and file.exists():
        return book
    if llm is not None:
        for pred, t in sorted(book.templates.items()):
            if t.source is not Source.RULE or t.settled:
                continue
            got = ask(llm, domain, t)
            others = [o for p, o in book.templates.items() if p != pred]
            if got is not None and not check(got, domain.predicates[pred].arity, others):
                book.templates[pred] = got
            if progress is not None:
                progress(f'{pred}: {book.templates[pred].text}'
                         f' ({book.templates[pred].source.value})')
    if file is not None:
        file.parent.mkdir(parents=True, exist_ok=True)
        tmp = file.with_suffix('.tmp')
        tmp.write_text(json.dumps(book.to_json(), indent=1))
        tmp.replace(file)
    return book
