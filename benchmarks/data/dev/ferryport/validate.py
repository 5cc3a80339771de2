# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Validate the ferry_port evaluation set on its own, without the project's code.

Usage: python validate.py [--timeout SECONDS] [--write-after] [--plans]

The set was written without reading the package, so this checker does not call the
`l3mp` command either: it reads the domain with unified-planning's PDDLReader, applies
the constraint rules of domain.constraints.yaml itself (functional / exclusive /
requires, each keyed on one argument position, `types` matched with subtypes), and plans
the tasks with unified-planning's Fast Downward engine.

1. domain.pddl parses; its types, predicates and actions are counted;
2. state.json: distinct entities of declared types, distinct facts of declared
   predicates with the right arity and argument types (a unary fact ends in "true"), and
   every constraint rule holds;
3. nl_updates.json, replayed in order from state.json: 40 cases, 4 of them
   `"expect": "reject"` with empty lists; every other case has a non-empty diff of
   well-formed facts, removes only facts that hold in the state the previous gold diffs
   left, adds only facts that do not, and leaves every constraint holding;
4. state_after_updates.json equals the replayed state (same entities and facts;
   --write-after rewrites it from the replay instead);
5. nl_tasks.json: 12 tasks {text, goal, state: "after_updates"}; each goal parses against
   the domain and the state after the updates, does not hold there already, and Fast
   Downward solves it in 3-12 steps with a plan that unified-planning's plan validator
   accepts;
6. questions.json: 8 questions {text, expect_any}; each question's answer fact
   (EVIDENCE) holds after the updates and one of its keywords is the entity that answers.
Prints one line per check and `N failure(s)`; exit 0 when every check passes.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent

# For questions.json, item by item: the fact(s) after the updates that carry the answer.
EVIDENCE = [
    [['luna', 'in_kennel', 'kennel_2']],
    [['van_key', 'hangs_on', 'crew_coat_hooks']],
    [['joan_whitaker', 'is_at', 'cabin_4']],
    [['guitar_case', 'stowed_in', 'lost_property_box']],
    [['joan_suitcase', 'lies_on', 'luggage_rack']],
    [['ticket_scanner', 'carried_by', 'bev_okafor']],
    [['red_mini', 'is_at', 'car_deck']],
    [['kenji_panniers', 'packed_in', 'kenji_bike']],
]

N_UPDATES, N_REJECTS, N_TASKS, N_QUESTIONS = 40, 4, 12, 8
MIN_STEPS, MAX_STEPS = 3, 12


def key(t: list) -> tuple[str, ...]:
    return tuple('true' if x is True else str(x).lower() for x in t)


class Domain:
    """Types, predicates and actions of domain.pddl, read with unified-planning."""

    def __init__(self, path: Path):
        from unified_planning.io import PDDLReader
        self.text = path.read_text()
        self.problem = PDDLReader().parse_problem(str(path))
        m = re.search(r'\(domain\s+([^\s)]+)\)', self.text)
        self.name = m.group(1) if m else ''
        self.parent: dict[str, str | None] = {'object': None}
        for t in self.problem.user_types:
            if t.name != 'object':
                self.parent[t.name] = t.father.name if t.father is not None else 'object'
        self.preds: dict[str, list[str]] = {}
        for fl in self.problem.fluents:
            self.preds[fl.name] = [p.type.name if p.type.is_user_type() else 'object'
                                   for p in fl.signature]
        self.actions = [a.name for a in self.problem.actions]

    def is_a(self, typ: str, ancestor: str) -> bool:
        seen = set()
        while typ is not None and typ not in seen:
            if typ == ancestor:
                return True
            seen.add(typ)
            typ = self.parent.get(typ)
        return False


def fact_errors(dom: Domain, types: dict[str, str], f: tuple) -> list[str]:
    if len(f) != 3:
        return [f'{f}: not a [subject, predicate, object] triplet']
    s, p, o = f
    if p not in dom.preds:
        return [f'{f}: unknown predicate {p}']
    params = dom.preds[p]
    args = [s] if len(params) == 1 else [s, o]
    errs = []
    if len(params) == 1 and o != 'true':
        errs.append(f'{f}: unary predicate {p} needs object "true"')
    for a, want in zip(args, params, strict=False):
        if a not in types:
            errs.append(f'{f}: unknown entity {a}')
        elif not dom.is_a(types[a], want):
            errs.append(f'{f}: {a} is a {types[a]}, {p} wants a {want}')
    return errs


def violations(dom: Domain, rules: list[dict], types: dict[str, str], facts: set) -> list[str]:
    """The constraint rules' violations in a state, the rule kinds as the YAML header says."""
    out = []
    by_pred: dict[str, list[tuple]] = {}
    for f in facts:
        by_pred.setdefault(f[1], []).append(f)

    def arg(f: tuple, k: int) -> str:
        return f[0] if k == 0 else f[2]

    def typed(e: str, tlist) -> bool:
        return not tlist or any(dom.is_a(types.get(e, ''), t) for t in tlist)

    for r in rules:
        k = int(r.get('key', 0))
        if r['kind'] == 'functional':
            count: dict[str, int] = {}
            for p in r['predicates']:
                for f in by_pred.get(p, []):
                    e = arg(f, k)
                    if typed(e, r.get('types')):
                        count[e] = count.get(e, 0) + 1
            for e, n in sorted(count.items()):
                if n > 1:
                    out.append(f'{r["name"]}: {e} in {n} facts of {r["predicates"]}')
            if r.get('exactly'):
                for e in sorted(types):
                    if typed(e, r.get('types')) and e not in count:
                        out.append(f'{r["name"]}: {e} in no fact of {r["predicates"]}')
        elif r['kind'] == 'exclusive':
            held: dict[str, set] = {}
            for p in r['predicates']:
                for f in by_pred.get(p, []):
                    held.setdefault(arg(f, k), set()).add(p)
            for e, ps in sorted(held.items()):
                if len(ps) > 1:
                    out.append(f'{r["name"]}: {e} has {sorted(ps)} together')
        elif r['kind'] == 'requires':
            has_then = {arg(f, k) for p in r['then'] for f in by_pred.get(p, [])}
            for p in r['if']:
                for f in by_pred.get(p, []):
                    if arg(f, k) not in has_then:
                        out.append(f'{r["name"]}: {f} without any of {r["then"]}')
        else:
            out.append(f'{r["name"]}: unknown rule kind {r["kind"]}')
    return out


def problem_text(dom: Domain, types: dict[str, str], facts: set, goal: str) -> str:
    objs = '\n    '.join(f'{n} - {t}' for n, t in sorted(types.items()))
    init = []
    for s, p, o in sorted(facts):
        init.append(f'({p} {s})' if o == 'true' else f'({p} {s} {o})')
    return (f'(define (problem check) (:domain {dom.name})\n  (:objects\n    {objs})\n'
            f'  (:init\n    ' + '\n    '.join(init) + f')\n  (:goal {goal}))\n')


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument('--timeout', type=float, default=60.0, help='seconds per task')
    ap.add_argument('--write-after', action='store_true')
    ap.add_argument('--plans', action='store_true', help="print each task's plan")
    args = ap.parse_args()
    failures: list[str] = []

    def check(ok: bool, what: str) -> None:
        print(('ok   ' if ok else 'FAIL ') + what, flush=True)
        if not ok:
            failures.append(what)

    # 1. the domain
    dom = Domain(HERE / 'domain.pddl')
    n_types = len(dom.parent) - 1
    check(bool(dom.name) and 30 <= n_types <= 42 and 22 <= len(dom.preds) <= 30
          and 20 <= len(dom.actions) <= 25,
          f'domain {dom.name}: {n_types} types, {len(dom.preds)} predicates, '
          f'{len(dom.actions)} actions')
    arities = {len(v) for v in dom.preds.values()}
    check(arities <= {1, 2}, f'predicate arities {sorted(arities)} (one- and two-place only)')
    cons = yaml.safe_load((HERE / 'domain.constraints.yaml').read_text())
    rules = cons['rules']
    check(cons.get('domain') == dom.name, f'constraints for domain {cons.get("domain")}')
    bad_rules = []
    for r in rules:
        preds = r.get('predicates', []) + r.get('if', []) + r.get('then', [])
        if any(p not in dom.preds for p in preds) \
                or any(t not in dom.parent for t in r.get('types', [])):
            bad_rules.append(r['name'])
        if r['kind'] not in ('functional', 'exclusive', 'requires'):
            bad_rules.append(r['name'])
        if any(int(r.get('key', 0)) >= len(dom.preds.get(p, [])) for p in preds if p in dom.preds):
            bad_rules.append(r['name'])
    check(not bad_rules, f'{len(rules)} constraint rules name known predicates, types and '
                         f'key positions {bad_rules or ""}')

    # 2. the starting state
    state = json.loads((HERE / 'state.json').read_text())
    check(state.get('schema') == 'l3mp/kg/v1' and state.get('domain') == dom.name,
          f'state.json schema {state.get("schema")}, domain {state.get("domain")}')
    types = {e['name']: e['type'] for e in state['entities']}
    check(len(types) == len(state['entities']), f'{len(types)} distinct entities')
    untyped = [n for n, t in types.items() if t not in dom.parent]
    check(not untyped, f'every entity has a declared type {untyped or ""}')
    facts = {key(f) for f in state['facts']}
    check(len(facts) == len(state['facts']), f'{len(facts)} distinct facts')
    errs = [e for f in sorted(facts) for e in fact_errors(dom, types, f)]
    check(not errs, f'initial facts well-formed {errs[:5] or ""}')
    v = violations(dom, rules, types, facts)
    check(not v, f'constraints hold in state.json {v[:5] or ""}')

    # 3. the reports, chained
    updates = json.loads((HERE / 'nl_updates.json').read_text())
    check(len(updates) == N_UPDATES, f'{len(updates)} update cases')
    rejects = sum(1 for u in updates if u.get('expect') == 'reject')
    check(rejects == N_REJECTS, f'{rejects} reject cases')
    removed = added = 0
    for i, u in enumerate(updates, 1):
        shape = set(u) in ({'text', 'remove', 'add'}, {'text', 'remove', 'add', 'expect'})
        if u.get('expect') == 'reject':
            check(shape and not u['remove'] and not u['add'] and u['text'].strip(),
                  f'update {i}: reject case, empty diff')
            continue
        rem, add = [key(t) for t in u['remove']], [key(t) for t in u['add']]
        errs = [e for f in rem + add for e in fact_errors(dom, types, f)]
        missing = [t for t in rem if t not in facts]
        present = [t for t in add if t in facts]
        dup = len(set(rem)) != len(rem) or len(set(add)) != len(add) or set(rem) & set(add)
        check(shape and 'expect' not in u and bool(rem or add) and u['text'].strip()
              and not errs and not missing and not present and not dup,
              f'update {i}: {len(rem)} removed, {len(add)} added, fits the gold state before it'
              f'{" " + str(errs) if errs else ""}{" missing " + str(missing) if missing else ""}'
              f'{" already there " + str(present) if present else ""}')
        facts = (facts - set(rem)) | set(add)
        removed, added = removed + len(rem), added + len(add)
        v = violations(dom, rules, types, facts)
        check(not v, f'update {i}: constraints hold after it {v[:5] or ""}')
    print(f'     the gold diffs remove {removed} facts and add {added}; {len(facts)} facts after')

    # 4. the state after the reports
    after_path = HERE / 'state_after_updates.json'
    if args.write_after:
        after = {'schema': state['schema'], 'domain': state['domain'],
                 'entities': sorted(state['entities'], key=lambda e: e['name']),
                 'facts': [list(f) for f in sorted(facts, key=lambda f: (f[1], f[0], f[2]))]}
        after_path.write_text(json.dumps(after, indent=1) + '\n')
    saved = json.loads(after_path.read_text())
    check({key(f) for f in saved['facts']} == facts and len(saved['facts']) == len(facts)
          and {e['name']: e['type'] for e in saved['entities']} == types
          and saved.get('domain') == dom.name and saved.get('schema') == state['schema'],
          f'state_after_updates.json equals the replayed gold ({len(saved["entities"])} '
          f'entities, {len(saved["facts"])} facts)')

    # 5. the tasks
    from unified_planning.engines import PlanGenerationResultStatus, ValidationResultStatus
    from unified_planning.io import PDDLReader
    from unified_planning.plans import SequentialPlan
    from unified_planning.shortcuts import OneshotPlanner, PlanValidator, get_environment
    get_environment().credits_stream = None
    tasks = json.loads((HERE / 'nl_tasks.json').read_text())
    check(len(tasks) == N_TASKS, f'{len(tasks)} tasks')
    domain_text = (HERE / 'domain.pddl').read_text()
    for i, t in enumerate(tasks, 1):
        if set(t) != {'text', 'goal', 'state'} or t['state'] != 'after_updates':
            check(False, f'task {i}: keys {sorted(t)}, state {t.get("state")}')
            continue
        try:
            prob = PDDLReader().parse_problem_string(
                domain_text, problem_text(dom, types, facts, t['goal']))
        except Exception as exc:  # noqa: BLE001 - report any parse error as a failure
            check(False, f'task {i}: goal does not parse: {exc}')
            continue
        with PlanValidator(problem_kind=prob.kind) as val:
            already = val.validate(prob, SequentialPlan([])).status == ValidationResultStatus.VALID
        with OneshotPlanner(name='fast-downward') as planner:
            res = planner.solve(prob, timeout=args.timeout)
        solved = res.status in (PlanGenerationResultStatus.SOLVED_SATISFICING,
                                PlanGenerationResultStatus.SOLVED_OPTIMALLY)
        n = len(res.plan.actions) if solved else 0
        valid = False
        if solved:
            with PlanValidator(problem_kind=prob.kind) as val:
                valid = val.validate(prob, res.plan).status == ValidationResultStatus.VALID
        check(not already and solved and valid and MIN_STEPS <= n <= MAX_STEPS,
              f'task {i}: {"already satisfied, " if already else ""}{res.status.name}, '
              f'{n} steps, plan {"valid" if valid else "not validated"}')
        if args.plans and solved:
            for a in res.plan.actions:
                print(f'       {a}')

    # 6. the questions
    questions = json.loads((HERE / 'questions.json').read_text())
    check(len(questions) == N_QUESTIONS, f'{len(questions)} questions')
    for i, (q, ev) in enumerate(zip(questions, EVIDENCE, strict=True), 1):
        hits = [k for k in q['expect_any'] if k in types]
        holds = all(key(f) in facts for f in ev)
        named = any(k in f for f in ev for k in hits)
        check(set(q) == {'text', 'expect_any'} and bool(hits) and holds and named,
              f'question {i}: evidence {ev} holds, keywords {hits} name its answer')

    print(f'{len(failures)} failure(s)')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
