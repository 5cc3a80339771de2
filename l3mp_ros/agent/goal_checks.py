# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The checks of Algorithm 4: what a goal may ask for, settled against the state and the task.

Without an LLM: an atom asked both true and false (:func:`settle_contradictions`),
conjuncts a state-constraint rule forbids together (:func:`reconcile_goal`),
conjuncts that hold now beside a change (:func:`drop_held`), a goal about nothing the task
mentions (:func:`unmentioned`), a thing the task names that the goal leaves out
(:func:`left_out`; the task planner then asks what must hold of it, constrained to
conditions about it, and :func:`extend_goal` joins the answer). With the LLM
(:class:`GoalReadBack`): a yes/no question per literal, "once the task is done, will this
be true?", for a goal whose polarity is suspect.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..llm.prompting import ask_yes_no
from ..llm.protocol import ChatLLM, LLMError
from ..planning.problem import GoalError, entities_of_type, parse_goal, render_goal
from ..retrieval.mentions import Mention
from ..world.complete import forbidding_rule
from ..world.constraints import Constraints
from ..world.domain import DomainSchema
from ..world.kg import Fact, KnowledgeGraph
from .attempts import Trace
from .grounding import VAR
from .kinds import Kind
from .mention_order import named_last
from .wording import say

MAX_READ_BACK = 4  # literals of a goal that already holds asked about one by one
_NAME_RE = re.compile(r'[^\s()]+')
# words by which a task asks to keep (or restore) something that holds now: "put it back"
KEEPS = re.compile(r'\b(back|again|still|keep|keeps|kept|stay|stays|remain|remains|leave)\b',
                   re.IGNORECASE)


def goal_entities(goal: str, kg: Any) -> set[str]:
    """Return the KG entities a PDDL goal names."""
    return {w for w in _NAME_RE.findall(goal.lower()) if kg.has_entity(w)}


def unmentioned(goal: str, kg: Any, mentioned: set[str]) -> list[str]:
    """Return an error when a goal names entities but none the task is about."""
    named = goal_entities(goal, kg)
    if named and not named & mentioned:
        return [f'the goal names {", ".join(sorted(named))} but the task is '
                f'about {", ".join(sorted(mentioned)[:6])}']
    return []


def left_out(goal: str, kg: Any, mentions: list[Mention],
             parts: list[str] | None = None) -> list[str]:
    """Return the things the task names that a goal leaves out, in reading order.

    A thing counts when a mention names it alone (one candidate, not a plural: "Lena's
    tubes" may be several), describes no other mention and is not described away: no
    mention of the same thing describes another ("from Professor Okafor": where the rack
    is now). It is covered when the goal names it or a mention that describes it ("the
    water in the bathroom sink": the sink's faucet). "Bring Theo a charged tablet"
    answered with only the tablet's charge leaves Theo out. With ``parts`` (the task's
    requests, descriptions like "it is on the table" left out) only mentions inside one
    count.
    """
    named = goal_entities(goal, kg)
    asked = [' '.join(p.lower().split()) for p in parts] if parts is not None else None
    describing = {m.resolved for m in mentions if m.describes is not None}
    out: list[str] = []
    for m in mentions:
        n = m.resolved
        if n is None or m.plural or m.describes is not None or n in describing or n in out:
            continue
        if asked is not None and not any(' '.join(m.surface.lower().split()) in p
                                         for p in asked):
            continue
        group, grew = {m.start}, True
        while grew:  # the mentions describing it, and those describing them
            more = {o.start for o in mentions if o.describes in group} - group
            grew, group = bool(more), group | more
        covered = {c for o in mentions if o.start in group for c in o.candidates}
        if not covered & named:
            out.append(n)
    return out


def uncovered(domain: DomainSchema, kg: KnowledgeGraph, goal: str | None,
              kinds: list[Kind]) -> list[Kind]:
    """Return the kinds a task asks about as a whole that a goal does not cover.

    A kind is covered by a ``forall`` over its type (or a type above or below it) or by
    naming every member: "turn off all the lights" answered with three of eleven lights
    is not.
    """
    items = top_level(domain, kg, goal, consistent=False) if goal else []
    over = {t for n in items or [] if n[0] == 'forall' for _, t in n[1]}
    named = goal_entities(goal or '', kg)
    return [k for k in kinds
            if not any(domain.is_subtype(t, k.type) or domain.is_subtype(k.type, t)
                       for t in over) and not k.members <= named]


def _instances(domain: DomainSchema, kg: KnowledgeGraph, node: Any) -> set[str]:
    """Return the ground atoms (rendered) a one-variable ``forall`` asks about."""
    return {render_goal(s[1] if s[0] == 'not' else s)
            for s in _instance_literals(domain, kg, node)}


def _instance_literals(domain: DomainSchema, kg: KnowledgeGraph, node: Any) -> list[Any]:
    """Return the ground literals a one-variable ``forall`` asks for.

    One per entity of its type whose condition (``imply``'s first part, an atom) holds
    in ``kg`` now.
    """
    if node[0] != 'forall' or len(node[1]) != 1:
        return []
    (var, typ), body = node[1][0], node[2]
    cond = None
    if body[0] == 'imply':
        cond, body = body[1], body[2]
    out: list[Any] = []
    for e in entities_of_type(domain, kg, typ):
        sub = _substitute(body, var, e)
        if sub is None:
            continue
        if cond is not None:
            c = _substitute(cond, var, e)
            if c is None or c[0] != 'atom' or Fact(c[1], tuple(c[2])) not in kg:
                continue
        out.append(sub)
    return out


def _substitute(node: Any, var: str, entity: str) -> Any:
    """Return a literal node with ``var`` replaced by ``entity`` (None: not a literal)."""
    inner = node
    while inner[0] == 'not':
        inner = inner[1]
    return _rename(node, var, entity) if inner[0] == 'atom' else None


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
                  for r in constraints.place_rules())
    last = named_last(lits, lambda i: str(i[2]).lower(), mentions, text) if grouped else None
    if last is None:
        return items, []
    first = lits[0] if last is lits[1] else lits[1]
    return [last], [f'dropped {first} for every one: the task names {last[2]} later, and '
                    'each is in one place']


def top_level(domain: DomainSchema, kg: KnowledgeGraph, goal: str, *,
              consistent: bool = True) -> list[Any] | None:
    """Return the top-level conjuncts of a goal as formula nodes (None: it does not parse).

    ``consistent=False`` reads a goal asking an atom and its negation too.
    """
    try:
        node = parse_goal(domain, kg, goal, consistent=consistent).formula
    except GoalError:
        return None
    return list(node[1]) if node[0] == 'and' else [node]


def conjuncts(domain: DomainSchema, kg: KnowledgeGraph,
              goal: str) -> list[tuple[Any, tuple[Fact, bool] | None]] | None:
    """Return the top-level conjuncts of a goal, each with (fact, positive) or None.

    A ground literal comes with its fact and polarity, anything else (a quantifier) with
    None; an unreadable goal gives None.
    """
    items = top_level(domain, kg, goal)
    if items is None:
        return None
    out: list[tuple[Any, tuple[Fact, bool] | None]] = []
    for n in items:
        neg = n[0] == 'not' and n[1][0] == 'atom'
        atom = n[1] if neg else n
        ground = atom[0] == 'atom' and atom[2] and not any(a.startswith('?') for a in atom[2])
        out.append((n, (Fact(atom[1], tuple(atom[2])), not neg) if ground else None))
    return out


def drop_held(domain: DomainSchema, kg: KnowledgeGraph, goal: str, text: str,
              wants: Callable[[Fact], bool | None] | None = None) -> tuple[str, list[str]]:
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
    items = [n for n, _ in parsed]
    lits = [lit for _, lit in parsed]
    held = [lit is not None and (lit[0] in kg) == lit[1] for lit in lits]
    if all(held) or not any(held):
        return goal, []
    kept: list[Any] = []
    dropped: list[str] = []
    notes: list[str] = []
    for n, lit, h in zip(items, lits, held, strict=True):
        if not h or lit is None:
            kept.append(n)
            continue
        fact, positive = lit
        wanted = wants(fact) if wants is not None and not (
            positive and (keeps or len(fact.args) > 1)) else None
        if wanted is None and not keeps:
            dropped.append(render_goal(n))
            continue
        if wanted is None or wanted == positive:  # "wash and dry": dry now, wet once washed
            kept.append(n)
            continue
        flipped = ('atom', fact.predicate, fact.args) if wanted else ('not', n)
        kept.append(flipped)
        notes.append(f'negated {render_goal(n)}: it holds now, and asked whether the task '
                     f'wants it, the model answered {"yes" if wanted else "no"}')
    if dropped:
        notes.append(f'dropped {", ".join(dropped)} from the goal: it holds now and the task '
                     'asks for a change')
    return conjoin(kept), notes


def settle_quantified(domain: DomainSchema, kg: KnowledgeGraph, goal: str,
                      wants: Callable[[Fact], bool | None]) -> tuple[str, list[str]]:
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
        if n[0] != 'forall' or len(n[1]) != 1 or asked >= MAX_READ_BACK:
            out.append(n)
            continue
        (var, typ), body = n[1][0], n[2]
        cond, lit = (body[1], body[2]) if body[0] == 'imply' else (None, body)
        positive = lit[0] != 'not'
        atom = lit[1] if not positive else lit
        if atom[0] != 'atom' or var not in atom[2] or (positive and len(atom[2]) > 1):
            out.append(n)  # a place asked for: yes/no denies right ones (as drop_held)
            continue
        members = []
        for e in sorted(entities_of_type(domain, kg, typ)):
            c = _substitute(cond, var, e) if cond is not None else None
            if cond is not None and (c is None or c[0] != 'atom'
                                     or Fact(c[1], tuple(c[2])) not in kg):
                continue
            fact = Fact(atom[1], tuple(e if a == var else a for a in atom[2]))
            members.append(((fact in kg) != positive, fact))
        if not members:
            out.append(n)
            continue
        fact = max(members, key=lambda m: m[0])[1]  # one the task changes, if any
        asked += 1
        wanted = wants(fact)
        if wanted is None or wanted == positive:
            out.append(n)
            continue
        flipped = atom if wanted else ('not', atom)
        new = ('forall', n[1], ('imply', cond, flipped) if cond is not None else flipped)
        out.append(new)
        notes.append(f'negated what {render_goal(n)} asks of every one: asked whether the '
                     f'task wants {fact.text()}, the model answered {"yes" if wanted else "no"}')
    return (conjoin(out), notes) if notes else (goal, [])


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
    literals = [*new, *(s for n in new for s in _instance_literals(domain, kg, n))]
    added = [(n[1] if n[0] == 'not' else n, n[0] != 'not') for n in literals]
    kept: list[Any] = []
    notes: list[str] = []

    def clashes(m: Any, pos: bool, atom: Any, positive: bool) -> bool:
        if m[0] != 'atom' or atom[0] != 'atom':
            return False
        if m == atom:
            return pos != positive
        return pos and positive and forbidding_rule(
            Fact(m[1], tuple(m[2])), Fact(atom[1], tuple(atom[2])), kg.entities, constraints,
            domain) is not None

    covered = set().union(*(_instances(domain, kg, n) for n in new))
    for n in old:
        atom, positive = (n[1], False) if n[0] == 'not' else (n, True)
        if atom[0] == 'atom' and render_goal(atom) in covered:
            notes.append(f'dropped {render_goal(n)}: the answer says what holds of every one')
            continue
        clash = next((render_goal(m if pos else ('not', m)) for m, pos in added
                      if clashes(m, pos, atom, positive)), None)
        if clash is None:
            kept.append(n)
        else:
            notes.append(f'dropped {render_goal(n)}: it cannot hold with {clash}')
    return conjoin(kept + new), notes


def exists_type(domain: DomainSchema, kg: KnowledgeGraph, goal: str | None) -> str | None:
    """Return the type of a goal's one top-level one-variable ``exists`` (None: not one)."""
    items = top_level(domain, kg, goal, consistent=False) if goal else None
    found = [n[1][0][1] for n in items or [] if n[0] == 'exists' and len(n[1]) == 1]
    return found[0] if len(found) == 1 else None


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
        mine = _rename(n[2], n[1][0][0], var)
        parts = [*(body[1] if body[0] == 'and' else (body,)),
                 *(mine[1] if mine[0] == 'and' else (mine,))]
        old[k] = ('exists', old[k][1], ('and', tuple(dict.fromkeys(parts))))
    return old, rest


def _rename(node: Any, var: str, to: str) -> Any:
    """Return a formula node with variable ``var`` written ``to`` (a name or a variable)."""
    if node[0] == 'atom':
        return ('atom', node[1], tuple(to if a == var else a for a in node[2]))
    if node[0] in ('and', 'or'):
        return (node[0], tuple(_rename(k, var, to) for k in node[1]))
    if node[0] == 'not':
        return ('not', _rename(node[1], var, to))
    if node[0] == 'imply':
        return ('imply', _rename(node[1], var, to), _rename(node[2], var, to))
    return node


def conjoin(nodes: list[Any]) -> str:
    """Return the PDDL conjunction of goal nodes, each once (a negation may repeat one)."""
    return render_goal(('and', tuple({render_goal(n): n for n in nodes}.values())))


def reconcile_goal(domain: DomainSchema, kg: KnowledgeGraph, constraints: Constraints,
                   goal: str, wants: Callable[[Fact], bool | None] | None = None
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
            if (a in kg) != (b in kg):
                now, new, k = (a, b, i) if a in kg else (b, a, j)
                drop.add(k)
                notes.append(f'dropped {now.text()} from the goal: it holds now and '
                             f'{new.text()} replaces it (rule {rule})')
                continue
            wa, wb = (wants(a), wants(b)) if wants is not None else (None, None)
            if wa is not None and wb is not None and wa != wb:  # asked, one is not wanted
                unwanted, k = (b, j) if wa else (a, i)
                drop.add(k)
                notes.append(f'dropped {unwanted.text()} from the goal: it cannot hold with '
                             f'{(a if wa else b).text()} (rule {rule}) and, asked, the model '
                             'does not read it in the task')
            else:
                errors.append(f'{a.text()} and {b.text()} cannot both hold (rule {rule}); '
                              'the goal is the state after the task: keep only the one the '
                              'task asks for')
    if not drop:
        return goal, notes, errors
    kept = tuple(n for k, n in enumerate(items) if k not in drop)
    return render_goal(('and', kept)), notes, errors


@dataclass
class GoalReadBack:
    """Ask the LLM, literal by literal, whether the task wants what a goal says."""

    llm: ChatLLM
    domain: DomainSchema
    enabled: bool = True

    def read_back(self, text: str, goal: str, kg: KnowledgeGraph, names: dict[str, str],
                  out: Trace, notes: list[str]) -> str | None:
        """Ask of each literal of a suspect goal whether the task wants it.

        A small model often gets the polarity wrong ("answer the phone" → the phone is
        ringing); a task asks for a change, so a goal that holds already is suspect, and so
        is one no plan reaches ("unlock the door" → the door is locked). A
        yes/no question per literal ("once the task is done, is Jerry's phone ringing?")
        is easier for it than writing the goal. Literals the answer contradicts are
        negated; return the new goal, or None when every literal is confirmed (the task
        really asks for what holds: nothing to do) or the goal is not a conjunction of a
        few ground literals.
        """
        parsed = conjuncts(self.domain, kg, goal) if self.enabled else None
        lits = [(n, lit) for n, lit in parsed or [] if lit is not None]
        if not lits or len(lits) != len(parsed or []) or len(lits) > MAX_READ_BACK:
            return None
        changed = False
        nodes = []
        for node, (fact, positive) in lits:
            wanted = self.wants(text, fact, names, out)
            if wanted is None:
                return None
            if wanted != positive:
                changed = True
                notes.append(f'negated {render_goal(node)}: asked whether the task wants '
                             f'{fact.text()}, the model answered {"yes" if wanted else "no"}')
                node = ('atom', fact.predicate, fact.args) if wanted else ('not', node)
            nodes.append(node)
        if not changed:
            return None
        return conjoin(nodes)

    def wants(self, text: str, fact: Fact, names: dict[str, str],
              out: Trace) -> bool | None:
        """Ask yes/no whether ``fact`` is true once the task is done; None on an LLM error."""
        claim = say(fact, plain=True, domain=self.domain, names=names)
        try:
            yes, reply = ask_yes_no(self.llm, 'outcome', f'Request: {" ".join(text.split())}\n'
                                    f'Question: When the robot is done, will this be true: '
                                    f'{claim}?')
        except LLMError:
            return None
        out.usage.add(reply)
        out.history.append({'read_back': claim, 'reply': (reply.text or '')[:200]})
        return yes
