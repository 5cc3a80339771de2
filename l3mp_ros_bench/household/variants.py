# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The agent variants of the paper's Table I: retriever × verifier, plus ``S``."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    """One agent configuration of Table I."""

    name: str
    label: str
    retriever: str  # full | select | search | link
    verify: bool
    updates: bool = True  # False: S, the initial KG is never changed
    paper_state: float | None = None  # GPT-4o, Table I, percent
    paper_plan: float | None = None
    description: str = ''


VARIANTS: dict[str, Variant] = {v.name: v for v in (
    Variant('S', 'S', 'full', False, updates=False, paper_plan=67.5,
            description='initial KG, never updated; plans on the full KG'),
    Variant('R-', 'R⁻', 'full', False, paper_state=71.5, paper_plan=72.5,
            description='full KG as context, no verifier'),
    Variant('R-_V', 'R⁻_V', 'full', True, paper_state=71.0, paper_plan=72.5,
            description='full KG as context, verifier'),
    Variant('R+', 'R⁺', 'select', False, paper_state=77.5, paper_plan=80.0,
            description='LLM entity selection + BFS, no verifier'),
    Variant('R+_V', 'R⁺_V', 'select', True, paper_state=92.5, paper_plan=85.0,
            description='LLM entity selection + BFS, verifier'),
    Variant('RS', 'Rˢ', 'search', False, paper_state=96.0, paper_plan=87.5,
            description='search-based retrieval (Algorithms 1-2), no verifier'),
    Variant('RS_V', 'Rˢ_V (L3M+P)', 'search', True, paper_state=98.0, paper_plan=90.0,
            description='search-based retrieval + verifier: L3M+P'),
    Variant('RL_V', 'Rᴸ_V (l3mp_ros default)', 'link', True,
            description='mention linking (no LLM call) + grounded schema + verifier: '
                        "this package's default pipeline, not a paper variant"),
)}
PAPER_VARIANTS = tuple(v for v in VARIANTS if v != 'RL_V')  # Table I's seven


def _variant_key(text: str) -> str:
    key = text.strip().upper().replace('^', '').replace('_', '').replace(' ', '')
    key = key.replace('MINUS', '-').replace('PLUS', '+')
    # R−/R⁺ typed with unicode signs
    return key.replace('\u2212', '-').replace('\u207a', '+').replace('\u207b', '-')


_ALIASES: dict[str, str] = {
    'S': 'S', 'R-': 'R-', 'R-V': 'R-_V', 'RV-': 'R-_V', 'R+': 'R+', 'R+V': 'R+_V',
    'RV+': 'R+_V', 'RS': 'RS', 'RSV': 'RS_V', 'RVS': 'RS_V', 'L3MP': 'RS_V', 'L3M+P': 'RS_V',
    'RLV': 'RL_V', 'RVL': 'RL_V', 'LINK': 'RL_V',
}


def resolve_variant(name: str) -> Variant:
    """Return the variant called ``name`` (``RS_V``, ``RVS``, ``R^S_V``, ``R+``, ``RV-``...)."""
    key = _ALIASES.get(_variant_key(str(name)))
    if key is None:
        raise ValueError(f'unknown variant {name!r}; choose one of {", ".join(VARIANTS)} '
                         '(aliases: RV-, RV+, RVS, L3MP)')
    return VARIANTS[key]


_NAME_RE = re.compile(r'[^a-z0-9+\-_]+')


def variant_dirname(name: str) -> str:
    """Return a directory name for a variant (``R+_V`` → ``R+_V``)."""
    return _NAME_RE.sub('_', resolve_variant(name).name.lower())
