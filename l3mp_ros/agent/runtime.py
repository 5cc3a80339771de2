# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""What the ROS nodes build from their parameters (plain Python, no rclpy).

* :data:`PARAMETERS`: every node parameter with its default and description (the nodes
  declare the ones they use; ``config/l3mp.yaml`` sets them for all nodes).
* :func:`open_writer`: the single writer :class:`WorldModel` (creates the store from the
  initial state when it does not exist).
* :func:`open_replica`: a :class:`ReplicaWorldModel` of the writer's store, for a node in
  another process.
* :func:`build_agent`: an :class:`Agent` around a given world model (writer or replica);
  the LLM client is created on first use, so a node that only plans PDDL goals never
  starts the embedded model.
* :func:`event_body` and :func:`marker_layout`: the ``event/v1`` and RViz payloads.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from .. import paths
from ..world.constraints import Constraints
from ..world.domain import DomainSchema
from ..world.kg import KnowledgeGraph, Update
from ..world.model import ApplyResult, WorldModel
from ..world.replica import ReplicaWorldModel
from ..world.store import Store

EVENT_SCHEMA = 'l3mp/event/v1'

# name: (default, description). Types follow the defaults.
PARAMETERS: dict[str, tuple[Any, str]] = {
    'domain': ('pddl/household.pddl', 'PDDL domain file (package-relative or absolute)'),
    'constraints': ('', 'state-constraint YAML; empty: <domain>.constraints.yaml if present'),
    'store': ('~/.l3mp/household.db', 'SQLite KG store (world_model_node writes it; other '
              'writers such as "l3mp kg apply" may too: each commit is verified against it)'),
    'kg_update_sources': (['nl', 'execution'], 'sources a kg_update request may name '
                          '(language and planner nodes); others are rejected with an event, '
                          'and a request is always verified'),
    'kg_update_max_facts': (32, 'facts one kg_update request may change; a larger one is '
                            'rejected with an event'),
    'store_poll': (1.0, 'seconds between checks for updates other writers committed to the '
                   'store (published on events); 0: never'),
    'initial_state': ('config/household_state.json',
                      'l3mp/kg/v1 JSON that creates the store when it does not exist'),
    'perception_config': ('config/household_perception.yaml',
                          'YAML with perceivable_predicates'),
    'max_scene_entities': (2000, 'larger scene graphs are rejected'),
    'markers_rate': (2.0, 'maximum rate (Hz) of kg/markers'),
    'markers_frame': ('map', 'frame_id of kg/markers'),
    'llm_url': ('', 'OpenAI-compatible endpoint; empty: embedded local model'),
    'llm_model': ('local', 'model name at the endpoint'),
    'llm_timeout': (120.0, 'seconds one LLM call may take, retries included'),
    'max_report_facts': (8, 'facts one NL report may state as changed (implied removals '
                         'aside); a larger update is rejected'),
    'report_timeout': (300.0, 'seconds all LLM calls of one report, task or question may '
                       'take (0: no bound beyond llm_timeout per call)'),
    'retriever': ('link', 'link (entity linking, no LLM call), full (R-), select (R+) or '
                  'search (R^S, Algorithm 1)'),
    'max_attempts': (3, 'LLM attempts per update / task (re-prompt with errors)'),
    'verify': (True, 'verify NL updates before applying them'),
    'engine': ('lapkt', 'planner engine: lapkt, fast-downward or pyperplan'),
    'plan_timeout': (30.0, 'seconds per planner call'),
    'max_replans': (5, 're-plans of one task before it is declared failed'),
    'execute': ('feedback', 'feedback: a plan stays active until execution_feedback ends it; '
                'none: no executor, a published plan is done and the next task starts'),
    'apply_step_effects': (True, "apply a succeeded step's effects to the KG (no perception)"),
    'replica_timeout': (30.0, 'seconds to wait for the world model (store, update answers)'),
    'max_rate': (10.0, 'perception_node: maximum forwarding rate (Hz)'),
}

WORLD_PARAMS = ('domain', 'constraints', 'store', 'initial_state', 'perception_config',
                'max_scene_entities', 'markers_rate', 'markers_frame', 'store_poll',
                'kg_update_sources', 'kg_update_max_facts')
AGENT_PARAMS = ('domain', 'constraints', 'store', 'llm_url', 'llm_model', 'llm_timeout',
                'report_timeout', 'max_report_facts',
                'retriever', 'max_attempts', 'verify', 'engine', 'plan_timeout',
                'replica_timeout')
PLANNER_PARAMS = AGENT_PARAMS + ('max_replans', 'apply_step_effects', 'execute')


# -- live parameters --------------------------------------------------------------
RESTART = 'is read once at start-up: restart the node to change it'
Setter = Callable[[Any], Callable[[], None]]  # checks a value, returns the change to make


def checked(test: Callable[[Any], bool], what: str, change: Callable[[Any], None]) -> Setter:
    """Return a setter that refuses a value failing ``test`` ("must be <what>")."""
    def setter(value: Any) -> Callable[[], None]:
        if not test(value):
            raise ValueError(f'must be {what}, got {value!r}')
        return lambda: change(value)
    return setter


def agent_setters(agent: Any, tasks: Any = None) -> dict[str, Setter]:
    """Return the agent parameters that can change while a node runs.

    Each setter raises ``ValueError`` for a bad value; the change it returns is applied
    only when every parameter of the request was accepted.
    """
    from ..planning.engines import ENGINES
    from .tasks import EXECUTE_POLICIES

    def set_attempts(v: int) -> None:
        agent.updater.max_attempts = agent.tasks.max_attempts = v

    def set_engine(v: str) -> None:
        agent.planner.engine = v

    def set_timeout(v: float) -> None:
        agent.planner.timeout = float(v)

    def set_verify(v: bool) -> None:
        agent.updater.verify = v

    out: dict[str, Setter] = {
        'engine': checked(lambda v: v in ENGINES, 'one of ' + ', '.join(ENGINES), set_engine),
        'plan_timeout': checked(lambda v: v > 0, 'a positive number of seconds', set_timeout),
        'max_attempts': checked(lambda v: 1 <= v <= 20, 'between 1 and 20', set_attempts),
        'verify': checked(lambda v: isinstance(v, bool), 'true or false', set_verify),
    }
    if tasks is not None:
        def set_execute(v: str) -> None:
            tasks.execute = v

        def set_replans(v: int) -> None:
            tasks.max_replans = v
        out['execute'] = checked(lambda v: v in EXECUTE_POLICIES,
                                 'one of ' + ', '.join(EXECUTE_POLICIES), set_execute)
        out['max_replans'] = checked(lambda v: v >= 0, 'zero or more', set_replans)
        out['apply_step_effects'] = checked(lambda v: isinstance(v, bool), 'true or false',
                                            lambda v: None)  # read per step
    return out


def plan_changes(declared: Mapping[str, Any], setters: Mapping[str, Setter],
                 changes: Mapping[str, Any]) -> tuple[list[Callable[[], None]], str | None]:
    """Check a parameter change request: the changes to make, or the reason to refuse all.

    Parameters the node did not declare from :data:`PARAMETERS` (e.g. ``use_sim_time``)
    are left to ROS; a declared one without a setter is refused (:data:`RESTART`).
    """
    todo: list[Callable[[], None]] = []
    for name, value in changes.items():
        if name not in declared:
            continue
        if value == declared[name]:
            continue
        setter = setters.get(name)
        if setter is None:
            return [], f'{name} {RESTART}'
        try:
            todo.append(setter(value))
        except ValueError as exc:
            return [], f'{name} {exc}'
    return todo, None


def _domain(params: Mapping[str, Any]) -> tuple[Path, DomainSchema, Path | None, Constraints]:
    dpath = paths.resolve(params['domain'])
    domain = DomainSchema.load(dpath)
    cpath: Path | None
    if params.get('constraints'):
        cpath = paths.resolve(params['constraints'])
    else:
        cand = dpath.with_suffix('.constraints.yaml')
        cpath = cand if cand.exists() else None
    return dpath, domain, cpath, Constraints.load(cpath)


def store_path(params: Mapping[str, Any]) -> Path | None:
    """Return the store path (None: in-memory KG)."""
    value = str(params.get('store') or '')
    return Path(value).expanduser() if value else None


def open_writer(params: Mapping[str, Any]) -> WorldModel:
    """Open (or create from ``initial_state``) the store as the single writer."""
    dpath, domain, cpath, constraints = _domain(params)
    spath = store_path(params)
    init = str(params.get('initial_state') or '')
    if spath is None:
        kg = (KnowledgeGraph.loads(paths.resolve(init).read_text()) if init
              else KnowledgeGraph(domain.name))
        return WorldModel(domain, constraints, kg=kg)
    if not spath.exists():  # no initial state: start empty, perception fills it
        kg = (KnowledgeGraph.loads(paths.resolve(init).read_text()) if init
              else KnowledgeGraph(domain.name))
        Store.create(spath, kg, domain_path=str(dpath),
                     constraints_path=str(cpath) if cpath else None).close()
    return WorldModel(domain, constraints, store=Store(spath))


def open_replica(params: Mapping[str, Any], send: Callable[[dict], None]) -> ReplicaWorldModel:
    """Follow the writer's store (waiting up to ``replica_timeout`` for it to appear)."""
    _, domain, _, constraints = _domain(params)
    spath = store_path(params)
    if spath is None:
        raise ValueError('a node in another process than world_model_node needs "store"')
    timeout = float(params.get('replica_timeout', 30.0))
    end = time.monotonic() + timeout
    while True:
        try:
            return ReplicaWorldModel(domain, constraints, spath, send, timeout=timeout)
        except Exception:  # store not created yet, or being created
            if time.monotonic() > end:
                raise
            time.sleep(0.2)


class LazyLLM:
    """An LLM client built on first use (the embedded server starts only when needed)."""

    def __init__(self, factory: Callable[[], Any]) -> None:
        self._factory = factory
        self._client: Any = None
        self._lock = threading.Lock()

    def _get(self) -> Any:
        with self._lock:
            if self._client is None:
                self._client = self._factory()
            return self._client

    def chat(self, *args: Any, **kwargs: Any) -> Any:
        """Forward to the real client's ``chat``."""
        return self._get().chat(*args, **kwargs)

    @contextlib.contextmanager
    def budget(self, seconds: float | None) -> Iterator[None]:
        """Forward to the real client's ``budget`` (none if it cannot be built)."""
        try:
            client = self._get()
        except Exception:  # the pipeline's first call reports why
            yield
            return
        with client.budget(seconds):
            yield

    def __getattr__(self, name: str) -> Any:
        return getattr(self._get(), name)

    def close(self) -> None:
        """Close the client if it was built."""
        if self._client is not None and callable(getattr(self._client, 'close', None)):
            self._client.close()


def build_agent(params: Mapping[str, Any], world: WorldModel, llm: Any = None) -> Any:
    """Return an :class:`~l3mp_ros.agent.Agent` around ``world``."""
    from ..llm.client import LLMClient, LLMConfig
    from ..planning.planner import Planner
    from ..retrieval import make_retriever
    from .agent import Agent

    if llm is None:
        cfg = LLMConfig(base_url=str(params.get('llm_url') or '') or None,
                        model=str(params.get('llm_model') or 'local'),
                        timeout=float(params.get('llm_timeout', 120.0)))
        llm = LazyLLM(lambda: LLMClient(cfg))
    retriever = make_retriever(str(params.get('retriever') or 'link'))
    planner = Planner(world.domain, engine=str(params.get('engine') or 'lapkt'),
                      timeout=float(params.get('plan_timeout', 30.0)))
    return Agent(world, llm, retriever, planner, max_attempts=int(params.get('max_attempts', 3)),
                 verify=bool(params.get('verify', True)),
                 report_timeout=float(params.get('report_timeout', 300.0)),
                 max_report_facts=int(params.get('max_report_facts', 8)))


# -- messages ------------------------------------------------------------------
def event_body(world: WorldModel, eid: int | None, result: ApplyResult) -> dict[str, Any]:
    """Return the ``event/v1`` of an applied or rejected update (read back from the store)."""
    body: dict[str, Any] | None = None
    if eid is not None and world.store is not None:
        events = world.store.history(since_id=eid - 1, limit=1)
        if events and events[0].id == eid:
            body = events[0].to_json()
    if body is None:
        body = {'id': eid, 'time': time.time(), 'source': 'unknown',
                'status': 'applied' if result.applied else 'rejected', 'utterance': None,
                'diff': result.update.to_json(), 'errors': list(result.errors), 'info': {},
                'new_entities': [{'name': n, 'type': t}
                                 for n, t in sorted(result.new_entities.items())]}
    body['schema'] = EVENT_SCHEMA
    body['request_id'] = (body.get('info') or {}).get('request_id')
    return body


def error_event(source: str, errors: list[str], *, utterance: str | None = None,
                topic: str | None = None, request_id: str | None = None) -> dict[str, Any]:
    """Return an ``event/v1`` for input that never became an update."""
    return {'schema': EVENT_SCHEMA, 'id': None, 'time': time.time(), 'source': source,
            'status': 'error', 'utterance': utterance, 'diff': None, 'new_entities': [],
            'errors': list(errors), 'request_id': request_id, 'topic': topic or source,
            'info': {}}


def diff_update(body: Mapping[str, Any]) -> Update:
    """Return the update of an event body (empty when it has none)."""
    return Update.from_json(body['diff']) if body.get('diff') else Update()


ROOM_SPACING = 8.0
ITEM_SPACING = 1.2


def marker_layout(kg: KnowledgeGraph, room_type: str = 'room',
                  domain: DomainSchema | None = None,
                  ) -> tuple[list[tuple[str, str, str, tuple[float, float, float]]],
                             list[tuple[str, str, str]]]:
    """Lay the KG out for RViz: entities grouped by room, binary facts as lines.

    Returns ``(entities, lines)``: ``(name, type, room, (x, y, z))`` per entity and
    ``(subject, predicate, object)`` per binary fact. An entity belongs to the nearest room
    through facts (breadth-first); rooms sit on a row, their entities on a grid around them.
    """
    def is_room(t: str) -> bool:
        return t == room_type or (domain is not None and domain.is_subtype(t, room_type))

    rooms = sorted(n for n, t in kg.entities.items() if is_room(t))
    home: dict[str, str] = {r: r for r in rooms}
    frontier = deque(rooms)
    while frontier:
        n = frontier.popleft()
        for f in kg.facts_of(n):
            for a in f.args:
                if a not in home:
                    home[a] = home[n]
                    frontier.append(a)
    groups: dict[str, list[str]] = {r: [] for r in rooms}
    groups['(no room)'] = []
    for name in sorted(kg.entities):
        if name not in rooms:
            groups[home.get(name, '(no room)')].append(name)
    out: list[tuple[str, str, str, tuple[float, float, float]]] = []
    for i, (room, members) in enumerate(groups.items()):
        x0 = i * ROOM_SPACING
        if room in kg.entities:
            out.append((room, kg.entities[room], room, (x0, 0.0, 2.0)))
        side = max(1, int(len(members) ** 0.5 + 0.999))
        for j, name in enumerate(members):
            x = x0 + (j % side - side / 2) * ITEM_SPACING
            y = (j // side + 1) * ITEM_SPACING
            out.append((name, kg.entities[name], room, (x, y, 0.5)))
    lines = [(f.args[0], f.predicate, f.args[1]) for f in sorted(kg.facts) if len(f.args) == 2]
    return out, lines
