# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The one place that builds l3mp_ros from a :class:`~l3mp_ros.config.Config`.

The CLI, the nodes, the benchmarks and the demo all go through these functions:

* :func:`load_domain`: the PDDL domain and its state constraints (:func:`constraints_beside`
  is the one rule that finds ``<domain>.constraints.yaml``);
* :func:`recorded`: the domain and constraints a store records (the one metadata reader);
  :func:`store_config`: a :class:`Config` for an existing store;
* :func:`open_world`: the writer :class:`WorldModel` (opens the store, creating it from
  ``initial_state`` when missing; ``store: ''`` is an in-memory KG);
  :func:`open_store_world`: an existing store with the domain it records;
* :func:`open_replica`: a :class:`ReplicaWorldModel` following the writer's store;
* :func:`make_llm`, :func:`make_retriever`, :func:`make_planner`, :func:`make_memory`;
* :func:`build_agent`: the :class:`~l3mp_ros.agent.agent.Agent` around a world model;
* :func:`agent_setters`: the settings a running node may change (checked by
  :func:`l3mp_ros.config.plan_changes`).

Nothing here imports rclpy; the pipelines load when something is built (opening a store
does not load the LLM client or the agent).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import paths
from .config import ENGINE_SETTINGS, EXECUTE_POLICIES, Config, Setter, checked
from .config import default as config_default
from .world.constraints import Constraints
from .world.domain import DomainSchema
from .world.kg import KnowledgeGraph
from .world.model import WorldModel
from .world.phrasebook import PHRASEBOOK_META, Phrasebook
from .world.phrasing import adopt
from .world.replica import ReplicaWorldModel
from .world.store import StoreBase as Store
from .world.store import StoreError
from .world.stores import create_store, is_url, open_store, store_exists

if TYPE_CHECKING:
    from .agent.agent import Agent
    from .llm.client import LLMConfig
    from .llm.protocol import ChatLLM
    from .memory.hooks import Memory
    from .planning.planner import Planner
    from .retrieval.base import Retriever
    from .tasking.lifecycle import TaskLifecycle


@dataclass
class Domain:
    """A loaded domain: its file, schema, constraints file and constraints."""

    path: Path
    schema: DomainSchema
    constraints_path: Path | None
    constraints: Constraints


def constraints_beside(domain_path: str | Path) -> Path | None:
    """Return ``<domain>.constraints.yaml`` beside a domain file, if it exists."""
    candidate = Path(domain_path).with_suffix('.constraints.yaml')
    return candidate if candidate.exists() else None


def load_domain(cfg: Config) -> Domain:
    """Load the domain and its constraints (``<domain>.constraints.yaml`` by default)."""
    dpath = paths.resolve(cfg.domain)
    schema = DomainSchema.load(dpath)
    cpath = paths.resolve(cfg.constraints) if cfg.constraints else constraints_beside(dpath)
    return Domain(dpath, schema, cpath, Constraints.load(cpath))


def recorded(store: Store) -> tuple[str, str]:
    """Return the (domain, constraints) files a store records ('' for none)."""
    meta = store.meta
    return meta.get('domain_path') or '', meta.get('constraints_path') or ''


def store_config(location: str, **settings: Any) -> Config:
    """Return the configuration of an existing store: the domain it records, ``settings``.

    ``settings`` are :class:`Config` fields; ``domain`` / ``constraints`` among them win
    over what the store records.
    """
    with open_store(location) as store:
        domain, constraints = recorded(store)
    base = {'domain': domain or config_default('domain'), 'constraints': constraints,
            'store': location, 'initial_state': ''}
    return Config(**{**base, **{k: v for k, v in settings.items() if v is not None}})


def open_store_world(location: str | Path, domain: str | Path | None = None,
                     constraints: str | Path | None = None,
                     writer: str | None = None) -> WorldModel:
    """Open an existing store (file or URL) as a writer; the domain defaults to its record."""
    store = open_store(location, writer=writer)
    dpath, cpath = recorded(store)
    dpath, cpath = str(domain or dpath), str(constraints or cpath)
    if not dpath:
        store.close()
        raise ValueError(f'{location} records no domain file: pass --domain')
    schema = DomainSchema.load(dpath)
    kept = store.meta.get(PHRASEBOOK_META)
    if kept:  # say facts as the store's own phrasebook does (kg init made it)
        adopt(schema, kept)
    return WorldModel(schema, Constraints.load(cpath) if cpath else Constraints.empty(),
                      store=store)


def store_path(cfg: Config) -> str | Path | None:
    """Return the store's location: a file path, a PostgreSQL URL, None (in-memory KG)."""
    if not cfg.store:
        return None
    return cfg.store if is_url(cfg.store) else Path(cfg.store).expanduser()


def _initial_kg(cfg: Config, domain: Domain) -> KnowledgeGraph:
    if cfg.initial_state:
        return KnowledgeGraph.loads(paths.resolve(cfg.initial_state).read_text())
    return KnowledgeGraph(domain.schema.name)  # perception fills it


def open_world(cfg: Config, domain: Domain | None = None, *, kg: KnowledgeGraph | None = None,
               fresh: bool = False, writer: str | None = None) -> WorldModel:
    """Open the store as a writer (creating it from ``initial_state`` when missing).

    ``kg``: an in-memory world model of that KG instead (the store is not touched);
    ``fresh``: replace any store at the location by one made from ``initial_state``;
    ``writer``: who writes (a robot's namespace), recorded in every event.
    """
    domain = domain or load_domain(cfg)
    spath = store_path(cfg)
    if kg is not None or spath is None:
        return WorldModel(domain.schema, domain.constraints,
                          kg=kg if kg is not None else _initial_kg(cfg, domain))
    if fresh or not store_exists(spath):
        try:
            create_store(spath, _initial_kg(cfg, domain), domain_path=str(domain.path),
                         constraints_path=str(domain.constraints_path)
                         if domain.constraints_path else None, overwrite=fresh,
                         writer=writer).close()
        except StoreError:
            if fresh or not store_exists(spath):
                raise
            # another robot of the fleet created it first: use that one
    store = open_store(spath, writer=writer)
    kept = store.meta.get(PHRASEBOOK_META)
    if kept:  # say facts as the store's own phrasebook does (kg init made it)
        adopt(domain.schema, kept)
    return WorldModel(domain.schema, domain.constraints, store=store)


def open_replica(cfg: Config, send: Callable[[dict], None]) -> ReplicaWorldModel:
    """Follow the writer's store (waiting up to ``replica_timeout`` for it to appear)."""
    domain = load_domain(cfg)
    spath = store_path(cfg)
    if spath is None:
        raise ValueError('a node in another process than world_model_node needs "store"')
    end = time.monotonic() + cfg.replica_timeout
    while True:
        try:
            return ReplicaWorldModel(domain.schema, domain.constraints, spath, send,
                                     timeout=cfg.replica_timeout)
        except Exception:  # store not created yet, or being created
            if time.monotonic() > end:
                raise
            time.sleep(0.2)


def llm_config(cfg: Config, *, api_key: str | None = None) -> LLMConfig:
    """Return the client settings of a config.

    The API key is ``api_key``, else ``$L3MP_LLM_API_KEY``, else the client's own default
    (``$OPENAI_API_KEY``); keys are never settings.
    """
    from .llm.client import LLMConfig

    return LLMConfig(base_url=cfg.llm_url or None, model=cfg.llm_model or 'local',
                     timeout=cfg.llm_timeout, cache_dir=cfg.llm_cache or None,
                     api_key=api_key or os.environ.get('L3MP_LLM_API_KEY') or None)


def make_llm(cfg: Config, *, lazy: bool = True, api_key: str | None = None) -> ChatLLM:
    """Return the LLM client; ``lazy``: built on first use (no server for PDDL goals)."""
    from .llm.client import LazyLLM, LLMClient

    settings = llm_config(cfg, api_key=api_key)
    if lazy:
        return LazyLLM(lambda: LLMClient(settings))
    return LLMClient(settings)


def make_phrasebook(cfg: Config, domain: DomainSchema, *, model: bool = True,
                    progress: Callable[[str], None] | None = None) -> tuple[Phrasebook, str]:
    """Return the domain's phrasebook, made once (kept in the cache), and what made it.

    With ``model`` the configured LLM (the embedded one by default) writes the templates the
    predicate's words did not settle; when it cannot be reached the rules' templates stand
    and the second value says why. A bad ``<domain>.phrases.yaml`` raises ``TemplateError``.
    """
    from .llm import phrasebook
    from .llm.protocol import LLMError
    from .world.phrasing import phrasebook_dir

    if not model:
        return phrasebook.make(domain, None, None), 'rules only (--phrases rules)'
    try:
        return phrasebook.make(domain, make_llm(cfg), phrasebook_dir(), progress), ''
    except (LLMError, OSError, ImportError) as exc:
        return phrasebook.make(domain, None, None), f'no model ({exc}): rules only'


def make_retriever(cfg: Config, **params: Any) -> Retriever:
    """Return the retriever ``cfg.retriever`` names."""
    from .retrieval import make_retriever as by_name

    return by_name(cfg.retriever, **params)


def make_planner(cfg: Config, domain: DomainSchema) -> Planner:
    """Return the planner (engine and timeout of the config)."""
    from .planning.planner import Planner

    return Planner(domain, engine=cfg.engine, timeout=cfg.plan_timeout)


def make_memory(cfg: Config, domain: DomainSchema, llm: ChatLLM, retriever: Retriever,
                ) -> Memory | None:
    """Return lifelong memory on the store when any of it is on, else None."""
    spath = store_path(cfg)
    if spath is None or not (cfg.episodic_k > 0 or cfg.experience or cfg.answer_past):
        return None
    from .memory.episodic import memory_file
    from .memory.hooks import Memory, MemoryConfig
    # episodes are read from the store's event log (any store); memory's own tables live in
    # the SQLite store file, or a local file for a PostgreSQL store
    config = MemoryConfig(episodic_k=cfg.episodic_k, experience=cfg.experience,
                          answer_past=cfg.answer_past)
    return Memory(str(memory_file(spath, cfg.memory_file)), config, llm=llm,
                  retriever=retriever, is_subtype=domain.is_subtype, domain=domain,
                  events=str(spath))


def build_agent(cfg: Config, world: WorldModel | None = None, llm: ChatLLM | None = None, *,
                retriever: Retriever | None = None, lazy_llm: bool = True,
                writer: str | None = None, warm: bool = False) -> Agent:
    """Return the agent around ``world`` (default: :func:`open_world`) with all its parts.

    ``warm``: a lazy LLM client is built at once in the background (the embedded model
    loads while the world opens and the retriever is built).
    """
    from .agent.agent import Agent

    if llm is None:
        llm = make_llm(cfg, lazy=lazy_llm)
        if warm and callable(getattr(llm, 'warm', None)):
            llm.warm()
    world = world if world is not None else open_world(cfg, writer=writer)
    retriever = retriever if retriever is not None else make_retriever(cfg)
    planner = make_planner(cfg, world.domain)
    memory = make_memory(cfg, world.domain, llm, retriever)
    return Agent(world, llm, retriever, planner, cfg, memory=memory)


# -- settings a running node may change ---------------------------------------------
def agent_setters(agent: Agent, tasks: TaskLifecycle | None = None) -> dict[str, Setter]:
    """Return the agent settings that can change while a node runs.

    Each setter raises ``ValueError`` for a bad value; the change it returns is applied
    only when every parameter of the request was accepted.
    """
    def set_attempts(v: int) -> None:
        agent.updater.settings.max_attempts = agent.tasks.settings.max_attempts = v

    def set_engine(v: str) -> None:
        agent.planner.engine = v

    def set_timeout(v: float) -> None:
        agent.planner.timeout = float(v)

    def set_verify(v: bool) -> None:
        agent.updater.settings.verify = v

    out: dict[str, Setter] = {
        'engine': checked(lambda v: v in ENGINE_SETTINGS, 'one of ' + ', '.join(ENGINE_SETTINGS),
                          set_engine),
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
        out['execution_timeout'] = checked(
            lambda v: v >= 0, 'zero (wait for ever) or more seconds',
            lambda v: setattr(tasks, 'execution_timeout', float(v)))
        out['confirm_plan'] = checked(lambda v: isinstance(v, bool), 'true or false',
                                      lambda v: setattr(tasks, 'confirm', v))
        out['confirm_timeout'] = checked(
            lambda v: v >= 0, 'zero (wait for ever) or more seconds',
            lambda v: setattr(tasks, 'confirm_timeout', float(v)))
        out['apply_step_effects'] = checked(lambda v: isinstance(v, bool), 'true or false',
                                            lambda v: None)  # read per step
    return out
