# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""How the goal checks rewrite a goal (Algorithm 4): settled against the state and the rules.

Each function takes a goal and returns it rewritten, with a note per change; none asks the
LLM itself (those that may ask take ``wants``: does the task want this fact true? None:
cannot tell). An atom asked both true and false (:func:`settle_contradictions`),
conjuncts a state-constraint rule forbids together (:func:`reconcile_goal`), conjuncts
that hold now beside a change (:func:`drop_held`), a ``forall`` the wrong way round
(:func:`settle_quantified`), a literal against the only way its predicate goes
(:func:`turn_one_way`), an answer about one thing or kind joined to the goal
(:func:`extend_goal`), and of two places an answer about a kind gives, the one named last
(:func:`last_condition`). The checks that call them: :mod:`.goal_checks`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...planning.problem import Node, entities_of_type, render_goal
from ...retrieval.mention import Mention
from ...world.complete import forbidding_rule
from ...world.constraints import Constraints
from ...world.domain import DomainSchema
from ...world.kg import Fact, KnowledgeGraph
from ..core.grounding import VAR
from ..core.mention_order import named_last
from .formula import (
    conjoin,
    conjuncts,
    instance_literals,
    instances,
    rename,
    substitute,
    top_level,
)

MAX_READ_BACK = 4  # literals of a goal that already holds asked about one by one
# words by which a task asks to keep (or restore) something that holds now: "put it back"
KEEPS = re.compile(r'\b(back|again|still|keep|keeps|kept|stay|stays|remain|remains|leave)\b',
                   re.IGNORECASE)
Wants = Callable[[Fact], bool | None]  # does the task want this fact true? None: no answer


def settle_contradictions(domain: DomainSchema, kg: KnowledgeGraph,
                          goal: str) -> tuple[str, list[str]]:
    """Keep the change of a ground atom a goal asks to be both true and false.

    A small model writes where the task starts beside where it ends ("close the window":
    the window is open, and it is not). A goal is the state after the task and the task
    asks for a change, so of the two the literal that does not hold now stays. Return
    (goal, notes); anything else (an atom under a quantifier) is left to the planner's
    error.
    """
    items = top_level(domain, kg, goal, consistent=False)
    if items is None:
        return goal, []
    positive = {render_goal(n) for n in items if n[0] == 'atom'}
    both = [n[1] for n in items if n[0] == 'not' and render_goal(n[1]) in positive]
    drop: set[str] = set()
    notes: list[str] = []
    for atom in both:
        if not atom[2] or any(a.startswith('?') for a in atom[2]):
            continue
        fact = Fact(atom[1], tuple(atom[2]))
        now = fact in kg
        drop.add(render_goal(atom) if now else render_goal(('not', atom)))
        notes.append(f'dropped {"" if now else "not "}{fact.text()} from the goal: it holds '
                     'now and the goal also asks for the opposite, the change the task wants')
    if not drop:
        return goal, []
    return conjoin([n for n in items if render_goal(n) not in drop]), notes


def reconcile_goal(domain: DomainSchema, kg: KnowledgeGraph, constraints: Constraints,
                   goal: str, wants: Wants | None = None
                   ) -> tuple[str, list[str], list[str]]:
    """Check a goal's conjuncts against the state-constraint rules; return (goal, notes, errors).

    A goal is the state *after* the task. Two conjuncts that a ``functional`` or
    ``exclusive`` rule forbids together cannot both hold: when one of them holds now (the
    model wrote where the thing is, beside where it must go: "take the rack from Okafor and
    put it on the shelf"), it is dropped with a note; when neither holds, that is an error
    to re-prompt with. Only ground, positive, top-level conjuncts are compared.
    """
    items = top_level(domain, kg, goal)
    if items is None:
        return goal, [], []  # the planner words it
    atoms = [(i, Fact(n[1], tuple(n[2]))) for i, n in enumerate(items)
             if n[0] == 'atom' and n[2] and not any(a.startswith('?') for a in n[2])]
    drop: set[int] = set()
    notes: list[str] = []
    errors: list[str] = []
    for x, (i, a) in enumerate(atoms):
        for j, b in atoms[x + 1:]:
            if a == b or i in drop or j in drop:
                continue
            rule = forbidding_rule(a, b, kg.entities, constraints, domain)
            if rule is None:
                continue
            k, why = _one_of(kg, (i, a), (j, b), rule, wants)
            if k is None:
                errors.append(why)
            else:
                drop.add(k)
                notes.append(why)
    if not drop:
        return goal, notes, errors
    kept = tuple(n for k, n in enumerate(items) if k not in drop)
    return render_goal(('and', kept)), notes, errors


def _one_of(kg: KnowledgeGraph, first: tuple[int, Fact], second: tuple[int, Fact], rule: str,
            wants: Wants | None) -> tuple[int | None, str]:
    """Return which of two conjuncts ``rule`` forbids together is dropped, and why.

    The one that holds now, else the one the model, asked, does not read in the task;
    (None, the error) when neither can be told.
    """
    (i, a), (j, b) = first, second
    if (a in kg) != (b in kg):
        now, new, k = (a, b, i) if a in kg else (b, a, j)
        return k, (f'dropped {now.text()} from the goal: it holds now and '
                   f'{new.text()} replaces it (rule {rule})')
    wa, wb = (wants(a), wants(b)) if wants is not None else (None, None)
    if wa is not None and wb is not None and wa != wb:  # asked, one is not wanted
        unwanted, k = (b, j) if wa else (a, i)
        return k, (f'dropped {unwanted.text()} from the goal: it cannot hold with '
                   f'{(a if wa else b).text()} (rule {rule}) and, asked, the model '
                   'does not read it in the task')
    return None, (f'{a.text()} and {b.text()} cannot both hold (rule {rule}); '
                  'the goal is the state after the task: keep only the one the '
                  'task asks for')


def drop_held(domain: DomainSchema, kg: KnowledgeGraph, goal: str, text: str,
              wants: Wants | None = None) -> tuple[str, list[str]]:
    """Settle the ground conjuncts that hold now in a goal that also asks for a change.

    A task often describes where things are ("give the pen on the table in Joshua's room
    to Joshua"); a small model copies that description into the goal, where it contradicts
    the change or makes it much harder to plan: such a positive relation is dropped. A
    negated or one-entity conjunct that holds ("not showing the sports channel" for "show
    the sports channel") is more often the model's wrong polarity: with ``wants`` (does
    the task want this fact true? None: cannot tell) it is asked about and negated when
    the answer contradicts it, kept when the answer confirms it (the plan may undo it on
    the way: washing wets a dry shirt), dropped when there is no answer. Nothing is dropped
    when the task says to keep or restore something ("put it back", "leave it open"), and
    there only a negated conjunct is asked about ("leave it in the cradle" written as not in
    the cradle); everything is kept when nothing else in the goal is a change (the whole
    goal then already holds, which is reported as such).
    """
    keeps = bool(KEEPS.search(text or ''))
    parsed = conjuncts(domain, kg, goal)
    if parsed is None:
        return goal, []
    held = [lit is not None and (lit[0] in kg) == lit[1] for _, lit in parsed]
    if all(held) or not any(held):
        return goal, []
    kept: list[Any] = []
    dropped: list[str] = []
    notes: list[str] = []
    for (n, lit), h in zip(parsed, held, strict=True):
        settled, note = _held(n, lit, keeps, wants) if h and lit is not None else (n, None)
        if settled is None:
            dropped.append(render_goal(n))
            continue
        kept.append(settled)
        notes.extend([note] if note else [])
    if dropped:
        notes.append(f'dropped {", ".join(dropped)} from the goal: it holds now and the task '
                     'asks for a change')
    return conjoin(kept), notes


def _held(n: Node, lit: tuple[Fact, bool], keeps: bool,
          wants: Wants | None) -> tuple[Any, str | None]:
    """Return what becomes of a conjunct that holds now: itself, negated (noted), or None.

    A positive relation, or any positive conjunct when the task says to keep something,
    is not asked about ("wash and dry": dry now, wet once washed).
    """
    fact, positive = lit
    asked = wants is not None and not (positive and (keeps or len(fact.args) > 1))
    wanted = wants(fact) if asked and wants is not None else None
    if wanted is None:
        return (n if keeps else None), None
    if wanted == positive:
        return n, None
    return (('atom', fact.predicate, fact.args) if wanted else ('not', n)), (
        f'negated {render_goal(n)}: it holds now, and asked whether the task '
        f'wants it, the model answered {"yes" if wanted else "no"}')


def settle_quantified(domain: DomainSchema, kg: KnowledgeGraph, goal: str,
                      wants: Wants) -> tuple[str, list[str]]:
    """Ask about one member of each ``forall`` conjunct; negate its body when denied.

    A small model sets ``negate`` the wrong way round ("wash all the dishes" as every dish
    not clean), and a goal about kinds is never read back literal by literal. Per
    top-level one-variable ``forall`` whose body is a literal (under an ``imply`` or not),
    one member it covers is asked about (one the task would change, if any): "when the
    robot is done, will the coffee mug be clean?". An answer against the body negates it.
    """
    items = top_level(domain, kg, goal, consistent=False)
    if items is None:
        return goal, []
    out: list[Any] = []
    notes: list[str] = []
    asked = 0
    for n in items:
        body = _literal_body(n) if asked < MAX_READ_BACK else None
        fact = _member(domain, kg, *body) if body is not None else None
        if body is None or fact is None:
            out.append(n)
            continue
        _, _, cond, atom, positive = body
        asked += 1
        wanted = wants(fact)
        if wanted is None or wanted == positive:
            out.append(n)
            continue
        flipped = atom if wanted else ('not', atom)
        out.append(('forall', n[1], ('imply', cond, flipped) if cond is not None else flipped))
        notes.append(f'negated what {render_goal(n)} asks of every one: asked whether the '
                     f'task wants {fact.text()}, the model answered {"yes" if wanted else "no"}')
    return (conjoin(out), notes) if notes else (goal, [])


def _literal_body(n: Node) -> tuple[str, str, Node, Node, bool] | None:
    """Return (variable, type, condition, atom, positive) of a ``forall`` over one literal.

    None for anything else, and for a positive relation (a place asked for: yes/no denies
    right ones, as :func:`drop_held` knows).
    """
    if n[0] != 'forall' or len(n[1]) != 1:
        return None
    (var, typ), body = n[1][0], n[2]
    cond, lit = (body[1], body[2]) if body[0] == 'imply' else (None, body)
    positive = lit[0] != 'not'
    atom = lit[1] if not positive else lit
    if atom[0] != 'atom' or var not in atom[2] or (positive and len(atom[2]) > 1):
        return None
    return var, typ, cond, atom, positive


def _member(domain: DomainSchema, kg: KnowledgeGraph, var: str, typ: str, cond: Node,
            atom: Node, positive: bool) -> Fact | None:
    """Return the fact of one member a ``forall`` covers: one the task changes, if any."""
    members = []
    for e in sorted(entities_of_type(domain, kg, typ)):
        c = substitute(cond, var, e) if cond is not None else None
        if cond is not None and (c is None or c[0] != 'atom'
                                 or Fact(c[1], tuple(c[2])) not in kg):
            continue
        fact = Fact(atom[1], tuple(e if a == var else a for a in atom[2]))
        members.append(((fact in kg) != positive, fact))
    return max(members, key=lambda m: m[0])[1] if members else None


def turn_one_way(domain: DomainSchema, kg: KnowledgeGraph,
                 goal: str) -> tuple[str | None, list[str]]:
    """Negate the ground conjuncts that ask for what holds, against the only way it can go.

    "Please pick up Laura's phone, it is ringing" answered with the phone ringing: no
    action makes a phone ring, only answering stops it, so the conjunct can only ask for
    what holds now. For a goal that already holds or that no plan reaches, each top-level
    ground literal that holds now although actions only ever give its predicate the
    other value is negated. Return (the new goal or None when nothing turned, notes).
    """
    items = top_level(domain, kg, goal, consistent=False)
    if items is None:
        return None, []
    out: list[Any] = []
    notes: list[str] = []
    for n in items:
        atom, positive = (n[1], False) if n[0] == 'not' else (n, True)
        way = domain.one_way(atom[1]) if atom[0] == 'atom' else None
        if way is None or way == positive or any(a.startswith('?') for a in atom[2]) \
                or (Fact(atom[1], tuple(atom[2])) in kg) != positive:
            out.append(n)
            continue
        out.append(atom if not positive else ('not', atom))
        notes.append(f'negated {render_goal(n)}: it holds now, and no action makes it '
                     f'{"false" if way else "true"} again, so the task asks for the change')
    return (conjoin(out), notes) if notes else (None, [])


def extend_goal(domain: DomainSchema, kg: KnowledgeGraph, constraints: Constraints,
                goal: str, more: str) -> tuple[str | None, list[str]]:
    """Return ``goal`` and ``more`` joined, ``more`` winning where they clash, and notes.

    ``more`` answers a narrower question (what must hold of one thing), so a conjunct of
    ``goal`` it negates, or that a state-constraint rule forbids beside one of its
    literals (the pen in Jerry's hand when the answer puts it in Anna's), is dropped; a
    ``forall``'s literals are those of its members (every pen on the table: not this
    pen in Jerry's hand). A ``forall`` in ``more`` (what holds of every one of a kind)
    replaces the conjuncts of ``goal`` about its members; an ``exists`` in ``more`` over
    the type of one in ``goal`` says more of that one ("a charged scanner" that Ben is to
    carry) and joins its body. None when either does not parse.
    """
    if not goal:
        return (more if top_level(domain, kg, more, consistent=False) is not None
                else None), []
    old = top_level(domain, kg, goal, consistent=False)
    new = top_level(domain, kg, more, consistent=False)
    if old is None or new is None:
        return None, []
    old, new = _join_exists(old, new)
    literals = [*new, *(s for n in new for s in instance_literals(domain, kg, n))]
    added = [(n[1] if n[0] == 'not' else n, n[0] != 'not') for n in literals]
    kept: list[Any] = []
    notes: list[str] = []
    covered = set().union(*(instances(domain, kg, n) for n in new))
    for n in old:
        atom, positive = (n[1], False) if n[0] == 'not' else (n, True)
        if atom[0] == 'atom' and render_goal(atom) in covered:
            notes.append(f'dropped {render_goal(n)}: the answer says what holds of every one')
            continue
        clash = next((render_goal(m if pos else ('not', m)) for m, pos in added
                      if _clashes(domain, kg, constraints, (m, pos), (atom, positive))), None)
        if clash is None:
            kept.append(n)
        else:
            notes.append(f'dropped {render_goal(n)}: it cannot hold with {clash}')
    return conjoin(kept + new), notes


def _clashes(domain: DomainSchema, kg: KnowledgeGraph, constraints: Constraints,
             new: tuple[Any, bool], old: tuple[Any, bool]) -> bool:
    """Tell whether a literal of an answer ``new`` and one of the goal ``old`` clash.

    The same atom asked the other way, or two positive atoms a rule forbids together.
    """
    (m, pos), (atom, positive) = new, old
    if m[0] != 'atom' or atom[0] != 'atom':
        return False
    if m == atom:
        return pos != positive
    return pos and positive and forbidding_rule(
        Fact(m[1], tuple(m[2])), Fact(atom[1], tuple(atom[2])), kg.entities, constraints,
        domain) is not None


def _join_exists(old: list[Any], new: list[Any]) -> tuple[list[Any], list[Any]]:
    """Join each one-variable ``exists`` of ``new`` into one of ``old`` over its type."""
    old, rest = list(old), []
    for n in new:
        k = next((k for k, o in enumerate(old) if n[0] == 'exists' == o[0]
                  and len(n[1]) == len(o[1]) == 1 and n[1][0][1] == o[1][0][1]), None)
        if k is None:
            rest.append(n)
            continue
        var, body = old[k][1][0][0], old[k][2]
        mine = rename(n[2], n[1][0][0], var)
        parts = [*(body[1] if body[0] == 'and' else (body,)),
                 *(mine[1] if mine[0] == 'and' else (mine,))]
        old[k] = ('exists', old[k][1], ('and', tuple(dict.fromkeys(parts))))
    return old, rest


def last_condition(items: list[Any], constraints: Constraints, text: str,
                   mentions: list[Mention]) -> tuple[list[Any], list[str]]:
    """Keep, of two places an answer about every one of a kind gives, the one named last.

    "Put all of Lena's tubes in the fridge" answered with each tube held by Lena and kept
    in the fridge: a thing is in one place, and a request names what it is about before
    where it goes, so of two positive conditions of one exactly-one group with ``?x`` as
    its key, the one whose other argument the task mentions later stays
    (:func:`.mention_order.named_last`; an owner inside a mention counts: "Lena's tubes").
    Return the items and a note; anything else is returned as it is.
    """
    lits = [i for i in items if isinstance(i, list) and len(i) == 3 and i[1] == VAR]
    if len(lits) != 2 or len(items) != 2:
        return items, []
    grouped = any(all(str(i[0]).lower() in r.predicates for i in lits)
                  for r in constraints.place_rules() if r.key == 0)
    last = named_last(lits, lambda i: str(i[2]).lower(), mentions, text) if grouped else None
    if last is None:
        return items, []
    first = lits[0] if last is lits[1] else lits[1]
    return [last], [f'dropped {first} for every one: the task names {last[2]} later, and '
                    'each is in one place']
