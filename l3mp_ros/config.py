# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The one configuration of l3mp_ros: every setting, its default, type and description.

:class:`Config` is read by :mod:`l3mp_ros.compose`, which builds the world model, LLM,
retriever, planner, memory and agent from it. Everything else derives from it:

* the ROS parameters (:data:`PARAMETERS`, :data:`BRIDGE_PARAMETERS`, and which node
  declares which: :func:`node_parameters`) — a node declares each with this default and
  description, ``config/l3mp.yaml`` sets them all;
* the ``l3mp`` CLI's option defaults and help (:func:`default`, :func:`describe`);
* the benchmarks and the demo, which start from ``Config()`` and change a few fields.

Field names are the ROS parameter names. Values keep the defaults' types (ROS parameters
are typed by their default); empty strings mean "none" (``store: ''`` is an in-memory KG,
``llm_url: ''`` the embedded model, ``llm_cache: ''`` no reply cache).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, TypeVar

S = TypeVar('S')


def calibrated(key: str, fallback: float) -> float:
    """Return a value fitted by a benchmark and shipped in ``config/asking.json``."""
    import json

    from .paths import share_dir
    try:
        return float(json.loads((share_dir() / 'config' / 'asking.json').read_text())[key])
    except (OSError, ValueError, KeyError, TypeError):
        return fallback


# Which nodes declare a parameter (metadata 'nodes').
WORLD, LANGUAGE, PLANNER, PERCEPTION, BRIDGE = (
    'world', 'language', 'planner', 'perception', 'bridge')
AGENT = (LANGUAGE, PLANNER)
ENGINES = ('lapkt', 'fast-downward', 'pyperplan')  # the classical planners themselves
NUMERIC_ENGINES = ('enhsp',)  # numeric fluents, :metric (up-enhsp; a Java runtime)
# durative actions planned natively, in this order (up-aries: its own binary; up-tamer)
TEMPORAL_ENGINES = ('aries', 'tamer')
PORTFOLIO = 'portfolio'  # LAPKT with a short budget, then Fast Downward (planning/portfolio.py)
# what the engine setting may name
ENGINE_SETTINGS = (PORTFOLIO, *ENGINES, *NUMERIC_ENGINES, *TEMPORAL_ENGINES)
RETRIEVER_NAMES = ('link', 'full', 'select', 'search')
PROMPT_CONTEXTS = ('full', 'mentioning', 'referents', 'widen')  # agent/grounding.py, update.py
ASK_DECISIONS = ('readback', 'fitted')  # agent/core/decision.py: when a reading is asked about
READING_CONFIDENCES = ('least', 'product')  # agent/core/asking.confidence
PROMPT_PHRASINGS = ('words', 'templates')  # world/phrasing.py: how facts are put to the model
EXECUTE_POLICIES = ('feedback', 'none')
PATROL_POLICIES = ('off', 'idle')


# Sections of the settings: a field belongs to the section of the nearest field at or
# before it (in declaration order) named here, unless its ``section`` says otherwise, so a
# field added among the others of its kind joins their section. :meth:`Config.section`
# is the view of one.
SECTION_STARTS = {'domain': 'world', 'llm_url': 'llm', 'max_report_facts': 'language',
                  'episodic_k': 'memory', 'engine': 'planning', 'controller': 'bridge'}


def _p(default: Any, description: str, *nodes: str | tuple[str, ...],
       choices: tuple[str, ...] = (), section: str | None = None) -> Any:
    """Return a dataclass field with its description and the nodes that declare it."""
    flat: list[str] = []
    for n in nodes:
        flat.extend(n if isinstance(n, tuple) else (n,))
    meta = {'help': description, 'nodes': tuple(flat), 'choices': choices}
    if section is not None:
        meta['section'] = section
    if isinstance(default, list):
        return field(default_factory=lambda: list(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass
class Config:
    """Every setting of the world model, the language and planning agent and the nodes."""

    # world model
    domain: str = _p('pddl/household.pddl', 'PDDL domain file (package-relative or absolute)',
                     WORLD, AGENT)
    constraints: str = _p('', 'state-constraint YAML; empty: <domain>.constraints.yaml if '
                          'present', WORLD, AGENT)
    autostart: bool = _p(True, 'configure and activate the node at start-up (false: wait for '
                         'a lifecycle manager)', WORLD, LANGUAGE, PLANNER, PERCEPTION,
                         BRIDGE, section='node')
    store: str = _p('~/.l3mp/household.db', 'KG store: a SQLite file, or a postgresql:// URL '
                    'that a fleet shares (world_model_node writes it; other writers such as '
                    '"l3mp kg apply" may too: each commit is verified against it); empty: an '
                    'in-memory KG', WORLD, AGENT)
    initial_state: str = _p('config/household_state.json', 'l3mp/kg/v1 JSON that creates the '
                            'store when it does not exist', WORLD)
    store_poll: float = _p(1.0, 'seconds between checks for updates other writers committed '
                           'to a SQLite store (published on events); 0: never. A PostgreSQL '
                           'store pushes them', WORLD)
    kg_update_sources: list = _p(['nl', 'execution'], 'sources a kg_update request may name '
                                 '(language and planner nodes); others are rejected with an '
                                 'event, and a request is always verified', WORLD)
    kg_update_max_facts: int = _p(32, 'facts one kg_update request may change; a larger one '
                                  'is rejected with an event', WORLD)
    perception_config: str = _p('config/household_perception.yaml',
                                'YAML with perceivable_predicates (and, for patrol, a patrol '
                                'section: place_type, robot_at)', WORLD, PLANNER)
    max_scene_entities: int = _p(2000, 'larger scene graphs are rejected', WORLD, PERCEPTION)
    markers_rate: float = _p(2.0, 'maximum rate (Hz) of kg/markers', WORLD)
    markers_frame: str = _p('map', 'frame_id of kg/markers', WORLD)
    # LLM
    llm_url: str = _p('', 'OpenAI-compatible endpoint; empty: embedded local model', AGENT)
    llm_model: str = _p('local', 'model name at the endpoint', AGENT)
    llm_timeout: float = _p(120.0, 'seconds one LLM call may take, retries included', AGENT)
    llm_cache: str = _p('', 'directory of cached LLM replies (reproducible runs); empty: none',
                        AGENT)
    report_timeout: float = _p(300.0, 'seconds all LLM calls of one report, task or question '
                               'may take (0: no bound beyond llm_timeout per call)', AGENT)
    # language (Algorithm 3, questions)
    max_report_facts: int = _p(8, 'facts one NL report may state as changed (implied '
                               'removals aside); a larger update is rejected', AGENT)
    retriever: str = _p('link', 'link (entity linking, no LLM call), full (R-), select (R+) '
                        'or search (R^S, Algorithm 1)', AGENT, choices=RETRIEVER_NAMES)
    max_attempts: int = _p(3, 'LLM attempts per update / task (re-prompt with errors)', AGENT)
    verify: bool = _p(True, 'verify NL updates before applying them', AGENT)
    confirm: bool = _p(True, 'a yes/no re-reading of every stated fact before applying (one '
                       'short LLM call per fact)', AGENT)
    place_check: bool = _p(True, 'ask where each thing and person the report names is after '
                           'it (multiple choice, both orders when the answer differs) and keep '
                           'the update out when both orders go against it (one short LLM call '
                           'per referent with a place)', AGENT)
    place_amend: bool = _p(True, 'when both orders of a where-question give a new place for '
                           'a person or a thing that actions move, take it into the update '
                           '(applied, marked doubtful) instead of keeping the report out',
                           AGENT)
    ask_going: bool = _p(True, 'ask where someone the report says went somewhere is (both '
                         'option orders) before re-prompting an answer that left them behind',
                         AGENT)
    ask_actor: bool = _p(True, 'ask where someone who put a thing somewhere is when the update '
                         'leaves them elsewhere (both option orders; with place_check), '
                         'instead of keeping the report out', AGENT)
    confirm_min_yes: float = _p(0.0, 'least P(yes) / (P(yes) + P(no)) a read-back "yes" needs '
                                '(when the endpoint returns token probabilities)', AGENT)
    clarify: bool = _p(True, 'ask back (on say) which thing a report means when its words fit '
                       'several and the change would hold for each, instead of guessing; the '
                       'report waits for the answer', AGENT)
    ask_below: float = _p(calibrated('ask_below', 0.0), 'a reading that passed every check '
                          'is still asked about (ask_back) when its confidence, the least '
                          'read-back odds of its facts, is below this; fitted on the public '
                          'report sets (config/asking.json, benchmarks/calibrate_asking.py)',
                          AGENT)
    reading_confidence: str = _p('least', "a reading's confidence from its facts' read-back "
                                 'odds: least (the least P(yes)) or product (all at once); '
                                 'ask_below is fitted for the one chosen', AGENT,
                                 choices=READING_CONFIDENCES)
    ask_decision: str = _p('readback', 'what says a reading is not sure enough: readback (its '
                           'read-back confidence below ask_below) or fitted (one logistic '
                           'decision over the read-back, the slot odds, a re-prompt and what '
                           'the reading left out: config/decision.json, fitted by '
                           'benchmarks/fit_decision.py)', AGENT, choices=ASK_DECISIONS)
    ask_already: bool = _p(True, 'a report read as no change, or whose talk ended in no, is '
                           'checked for one that restates what holds ("put the remote on the '
                           'table" where it lay): the facts that may change about the things '
                           'it names are read back, a yes/no each (at most 4 calls); the '
                           'robot then says it is already so (agent/report/already.py)', AGENT)
    ask_left_out: bool = _p(True, 'a reading that leaves out a thing the report names, when '
                            'the domain could say something of it with the things named, is '
                            'not offered or written as the whole change: the speaker is asked '
                            'about that thing ("And the tablet: which is right? ... still in '
                            "Tomas's hands? Or none of them?\"); no call "
                            '(agent/report/whole.py)', AGENT)
    ask_open: bool = _p(True, 'a report read as no change that names things (and is no '
                        'restatement) is asked about with an open question, "What changed '
                        'with Fatima?"; the answer is read with the report in one call and '
                        'asked about once more; "I don\'t know" ends it (with ask_back)',
                        AGENT)
    read_back_where_said: bool = _p(False, 'a stated fact is read back with its part only '
                                    'when the part names every thing of it, else against '
                                    'the whole report ("Mia moved the tablet ... | it\'s '
                                    'full now": the tablet on her desk); no extra call',
                                    AGENT)
    ask_refused: bool = _p(False, 'a report whose every reading the checks refused, with '
                           'no question of its own, is asked about the same way ("Rex has '
                           'slipped his lead ...": "What changed with Rex and Mr Hughes?"), '
                           'not refused in silence (with ask_open)', AGENT)
    pass_refused: bool = _p(True, 'a part of several whose every answer the checks refused '
                            'is passed over, not the report: its things are asked about with '
                            "the other parts' reading (\"they're here about Luna\": Luna as "
                            'she was, or what could be said of her), never written unasked '
                            '(with ask_back and ask_left_out)', AGENT)
    read_back_together: bool = _p(False, "a part's read-back statements asked in one call, "
                                  "each answer's own token odds its P(yes), instead of one "
                                  'call per statement (fewer calls; measured in '
                                  'docs/benchmark.md)', AGENT)
    runner_ups: int = _p(2, 'readings a question may offer beyond those the checks made: '
                         "each one slot of the answer as its runner-up in the answer call's "
                         'own odds (slot_odds), verified; no call (agent/report/runner_ups.py)',
                         AGENT)
    smaller_readings: int = _p(4, 'readings a question may offer after the others that keep '
                               'part of what the answer stated (the most first, the surest '
                               'among as many), verified and made whole: a reading refused '
                               'for one added fact is not the end of the talk; no call '
                               '(agent/report/smaller.py)', AGENT)
    settled_places: bool = _p(True, 'the read-back does not ask what the words settle: '
                              'someone in the place named right after their verb of going '
                              '("went to the hall"), a thing held by whom it was handed to, '
                              'a state said in its own words ("the door has been locked"); '
                              'one call fewer each (agent/core/destinations.py)', AGENT)
    fill_needed: bool = _p(True, 'a fact a requires rule needs, left out of an answer, is '
                           'added when exactly one thing the report names fits it ("on level '
                           '5 of the shelf": the level); not read back '
                           '(world/complete.py needed)', AGENT)
    skip_idle_parts: bool = _p(True, 'a part of several read as no change ("Sam here", "it '
                               'is that gloomy up here") is passed over, its things left to '
                               'the whole-reading check, instead of refusing the report '
                               '(agent/report/part_checks.py Still)', AGENT)
    skip_covered: bool = _p(True, 'a later part of a report is not asked when the answers '
                            'so far already change every thing it names and name a thing '
                            'only it names (the model read ahead): one call fewer '
                            '(agent/report/reading.py covered)', AGENT)
    ask_stated: bool = _p(True, 'a reading that leaves out a state the report says of a thing '
                          "in the predicate's own words (\"the alarm's set again\", \"I've signed "
                          'the delivery note") or by the verb of the action that makes it '
                          '("filled the blue carrier": full), or a hand-over its words say '
                          '("handed it to her"), is not written as the whole change: the '
                          'speaker is offered it with that fact first; no call '
                          '(agent/core/destinations.py worded_states, acted_states, '
                          'worded_gifts)', AGENT)
    ask_other_words: bool = _p(False, 'a reading that leaves out a state of a named thing the '
                               'report says in other words ("it\'s taken for the next hour": '
                               'in use; "Floor\'s dry": no longer wet) is asked about with it '
                               'first: one yes/no-each call over the one-place states of the '
                               'things named (agent/report/other_words.py). Off: on the '
                               'embedded model it costs a call per report and adds questions '
                               'for no exact report (docs/decisions.md "States said in other '
                               'words")', AGENT)
    other_words_min_yes: float = _p(0.85, 'least P(yes) / (P(yes) + P(no)) the call above '
                                    'needs for a state (when the endpoint returns token '
                                    'probabilities; docs/decisions.md "States said in other '
                                    'words")', AGENT)
    ask_moved: bool = _p(True, 'a reading that moves a person the report has neither act nor '
                         'go anywhere ("gave Marta the key" read with Marta moved) is asked '
                         'about (no call)', AGENT)
    ask_together: bool = _p(True, 'the first question about a reading in doubt offers it '
                            'beside the other readings the checks and the odds give, up to 4 '
                            '("Which is right? 1. ... 2. ..."), instead of yes/no first and the '
                            'others after a "no"', AGENT)
    ask_back: bool = _p(True, 'ask the speaker about a reading the robot is unsure of (the '
                        'read-back denied part of it): "Just to check: ... Is that right?", '
                        'then the other readings, at most 3 questions; without it such a '
                        'report is kept out', AGENT)
    clarify_timeout: float = _p(300.0, 'seconds a report waits for the answer to its question; '
                                'then it is logged as not applied', AGENT)
    prompt_context: str = _p('full', "the retrieved facts a report's or task's prompt lists: "
                             'full; mentioning (those naming one of its referents); referents '
                             '(those about one: fewest tokens, fastest, least accurate on the '
                             "small model); widen (a report is read with the referents' facts, "
                             'and again with every fact when that reading is refused or in '
                             'doubt; a task lists every fact)', AGENT, choices=PROMPT_CONTEXTS)
    answer_handles: bool = _p(False, "a report's and a task's answers name predicates and "
                              'things by their fewest telling tokens (handles read back to '
                              'whole names), so the model does not generate what the grammar '
                              "forces; needs the model's tokenizer (the embedded server)",
                              AGENT)
    slot_odds: int = _p(10, "candidates asked for at each token of a report's answer: its "
                        "slots' own odds (the predicate, each entity, one more fact or not), "
                        'renormalised over what the schema allows, score the reading '
                        '(agent/core/slot_odds.py); 0 asks for none. Endpoints that return '
                        'no log-probabilities give no odds', AGENT)
    prompt_phrasing: str = _p('words', "how facts are said to the model in the read-back's "
                              "statements and the where-questions' options: words (the "
                              "predicate's words, as measured so far; the templates where "
                              'those words make no sentence, "carried the robot") or '
                              "templates (the domain's sentence templates, as people are "
                              'spoken to)', AGENT, choices=PROMPT_PHRASINGS)
    per_slot: int = _p(30, 'entities offered per argument slot of an answer (the most relevant '
                       'first)', AGENT)
    split_clauses: bool = _p(True, 'read a report or task telling several changes part by part',
                             AGENT)
    resolve_mentions: bool = _p(True, "link a report's or task's words to the things they "
                                'name (mention resolution) and keep answers about them', AGENT)
    changes_only: bool = _p(True, "a report's answer may state only changes about the things "
                            'it names (facts that do not hold yet, one-argument facts flipped)',
                            AGENT)
    read_back: bool = _p(True, "a task's suspect goal literals are read back to the model as "
                         'yes/no questions', AGENT)
    ask_left_out: bool = _p(True, 'ask what a task wants of a thing its planned goal leaves out',
                            AGENT)
    ask_kinds: bool = _p(True, 'ask what must hold of every one of a kind a task names and its '
                         'goal misses', AGENT)
    # lifelong memory (needs a store)
    episodic_k: int = _p(0, 'past episodes in the update/task prompts (0: off)', AGENT)
    experience: bool = _p(False, 'strategies of solved tasks as worked examples (and store '
                          'new ones)', AGENT)
    answer_past: bool = _p(False, 'answer past-tense questions from episodic memory', AGENT)
    memory_file: str = _p('', "SQLite file of lifelong memory's own tables; '': the store file "
                          '(SQLite) or ~/.l3mp/memory/<digest of the URL>.db (PostgreSQL)',
                          AGENT)
    # planning (Algorithm 4)
    engine: str = _p(PORTFOLIO, 'planner engine: portfolio (LAPKT with a short budget, then '
                     'Fast Downward, within plan_timeout; ENHSP for numeric domains, Aries '
                     'then TAMER first for durative ones), or one of lapkt, fast-downward, '
                     'pyperplan, enhsp, aries, tamer', AGENT,
                     choices=ENGINE_SETTINGS)
    plan_timeout: float = _p(30.0, 'seconds per planner call', AGENT)
    max_replans: int = _p(5, 're-plans of one task before it is declared failed', PLANNER)
    execute: str = _p('feedback', 'feedback: a plan stays active until execution_feedback '
                      'ends it; none: no executor, a published plan ends planned and the next '
                      'task starts', PLANNER, choices=EXECUTE_POLICIES)
    execution_timeout: float = _p(120.0, 'execute feedback: seconds a step may go without '
                                  'execution_feedback before the task fails '
                                  '(execution_timeout) and the next starts; 0: wait for ever',
                                  PLANNER)
    patrol: str = _p('off', 'idle: when no task is active, queued or being planned, visit the '
                     'place whose unconfirmed told facts are most worth checking (any task '
                     'pre-empts it); off: the robot moves only when asked (the default: '
                     'moving unasked is a safety matter)', PLANNER, choices=PATROL_POLICIES)
    confirm_plan: bool = _p(False, 'say each plan on say and wait for a yes or no (on '
                            'voice_command, or the confirm service) before it is executed; no '
                            'cancels the task', PLANNER)
    confirm_timeout: float = _p(120.0, 'confirm_plan: seconds a plan waits for the yes or no '
                                'before the task is cancelled; 0: wait for ever', PLANNER)
    apply_step_effects: bool = _p(True, "apply a succeeded step's effects to the KG (no "
                                  'perception)', PLANNER)
    replica_timeout: float = _p(30.0, 'seconds to wait for the world model (store, update '
                                'answers)', AGENT, section='node')
    max_rate: float = _p(10.0, 'perception_node: maximum forwarding rate (Hz)', PERCEPTION,
                         section='node')
    # ai2thor_bridge_node
    controller: str = _p('real', 'real (ai2thor.controller.Controller) or double '
                         '(ControllerDouble)', BRIDGE)
    scene: str = _p('', 'iTHOR scene name for the real controller, e.g. FloorPlan1', BRIDGE)
    house_json: str = _p('', 'ProcTHOR house JSON file (real controller; rooms also name the '
                         'rooms)', BRIDGE)
    platform: str = _p('', 'ai2thor platform, e.g. CloudRendering (headless, needs a Vulkan '
                       'GPU)', BRIDGE)
    double_seed: int = _p(-1, 'controller double: random initial state from this seed (-1: '
                          'default)', BRIDGE)
    visibility_distance: float = _p(1.5, 'metres within which objects are visible / '
                                    'interactable', BRIDGE)
    grid_size: float = _p(0.25, 'navigation grid (m)', BRIDGE)
    types_config: str = _p('config/ai2thor_types.yaml', 'objectType -> domain type YAML',
                           BRIDGE)
    all_objects: bool = _p(False, 'report every object, not just the visible ones (ground '
                           'truth)', BRIDGE)
    initial_all_objects: bool = _p(True, 'the first scene graph reports every object (a '
                                   'prior map)', BRIDGE)
    approach: bool = _p(True, 'approach a target that is out of reach before acting on it',
                        BRIDGE)
    scene_graph_topic: str = _p('scene_graph', 'where scene graphs go (perception/scene_graph '
                                'when perception_node runs)', BRIDGE)
    scene_graph_period: float = _p(2.0, 'seconds between scene graphs while idle (0: only '
                                   'after steps)', BRIDGE)
    step_delay: float = _p(0.0, 'seconds to wait after each executed step', BRIDGE)

    def __post_init__(self) -> None:
        """Check choices and types (a clear ``ValueError`` names the setting)."""
        for f in fields(self):
            value = getattr(self, f.name)
            want = type(f.default) if f.default is not dataclasses.MISSING else list
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
                setattr(self, f.name, value)
            if not isinstance(value, want) or (want is int and isinstance(value, bool)):
                raise ValueError(f'{f.name} must be {want.__name__}, got {value!r}')
            choices = f.metadata.get('choices')
            if choices and value not in choices:
                raise ValueError(f'{f.name} must be one of {", ".join(choices)}, '
                                 f'got {value!r}')

    @classmethod
    def from_params(cls, params: Mapping[str, Any], **overrides: Any) -> Config:
        """Build a config from ROS parameter values (unknown names are an error)."""
        known = {f.name for f in fields(cls)}
        given = {**params, **overrides}
        unknown = sorted(set(given) - known)
        if unknown:
            raise ValueError(f'unknown setting(s): {", ".join(unknown)}')
        return cls(**given)

    def section(self, name: str) -> MappingProxyType[str, Any]:
        """Return the settings of one named section, read-only (see :data:`SECTION_STARTS`)."""
        names = section_names(name)
        if not names:
            raise KeyError(f'no section {name!r} (one of {", ".join(sections())})')
        return MappingProxyType({n: getattr(self, n) for n in names})

    def replace(self, **changes: Any) -> Config:
        """Return a copy with some settings changed (checked like a new config)."""
        return dataclasses.replace(self, **changes)


def _field(name: str) -> dataclasses.Field:
    for f in fields(Config):
        if f.name == name:
            return f
    raise KeyError(f'no setting {name!r}')


def sections() -> dict[str, tuple[str, ...]]:
    """Return every section's settings, in declaration order."""
    out: dict[str, list[str]] = {}
    current = next(iter(SECTION_STARTS.values()))
    for f in fields(Config):
        current = SECTION_STARTS.get(f.name, current)
        out.setdefault(f.metadata.get('section') or current, []).append(f.name)
    return {k: tuple(v) for k, v in out.items()}


def section_names(name: str) -> tuple[str, ...]:
    """Return the names of the settings of one section (empty: no such section)."""
    return sections().get(name, ())


def default(name: str) -> Any:
    """Return the default of a setting."""
    return getattr(Config(), name)


def settings_of(cls: type[S], cfg: Config, section: str = 'language') -> S:
    """Return the settings dataclass ``cls`` filled from ``cfg``'s ``section``.

    A field takes the configuration's setting of the same name (one name end to end).
    """
    given = cfg.section(section)
    return cls(**{f.name: given[f.name] for f in fields(cls) if f.name in given})


def describe(name: str) -> str:
    """Return the description of a setting."""
    return str(_field(name).metadata['help'])


def choices(name: str) -> tuple[str, ...]:
    """Return the allowed values of a setting (empty: any of its type)."""
    return tuple(_field(name).metadata.get('choices') or ())


def node_parameters(*nodes: str) -> tuple[str, ...]:
    """Return the names of the parameters any of ``nodes`` declares, in config order."""
    return tuple(f.name for f in fields(Config) if set(f.metadata['nodes']) & set(nodes))


def _table(names: Iterable[str]) -> dict[str, tuple[Any, str]]:
    base = Config()
    return {n: (getattr(base, n), describe(n)) for n in names}


# name: (default, description), for the nodes; types follow the defaults.
PARAMETERS: dict[str, tuple[Any, str]] = _table(
    node_parameters(WORLD, LANGUAGE, PLANNER, PERCEPTION))
BRIDGE_PARAMETERS: dict[str, tuple[Any, str]] = _table(node_parameters(BRIDGE))
NODE_PARAMETERS: dict[str, tuple[Any, str]] = {**PARAMETERS, **BRIDGE_PARAMETERS}  # any node


# -- changing settings while a node runs ---------------------------------------------
RESTART = 'is read once at start-up: restart the node to change it'
Setter = Callable[[Any], Callable[[], None]]  # checks a value, returns the change to make


def checked(test: Callable[[Any], bool], what: str, change: Callable[[Any], None]) -> Setter:
    """Return a setter that refuses a value failing ``test`` ("must be <what>")."""
    def setter(value: Any) -> Callable[[], None]:
        if not test(value):
            raise ValueError(f'must be {what}, got {value!r}')
        return lambda: change(value)
    return setter


def plan_changes(declared: Mapping[str, Any], setters: Mapping[str, Setter],
                 changes: Mapping[str, Any]) -> tuple[list[Callable[[], None]], str | None]:
    """Check a parameter change request: the changes to make, or the reason to refuse all.

    Parameters the node did not declare from the config (e.g. ``use_sim_time``) are left
    to ROS; a declared one without a setter is refused (:data:`RESTART`).
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
