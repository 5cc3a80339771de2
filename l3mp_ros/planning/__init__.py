# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Planning: UP engines (LAPKT, Fast Downward, pyperplan), ``solve`` and ``validate``.

Importing :mod:`l3mp_ros.planning.engines` (or any name below from this package, which
loads it on first use) registers the ``lapkt`` engine in unified-planning's factory, so
``OneshotPlanner(name='lapkt', params={'search': 'bfws'})`` works afterwards. The engines
(and unified-planning's engine machinery, which pulls in SciPy) are loaded only when a
plan is made or checked: ``l3mp update`` never pays for them. :func:`warm` imports them in
the background of work that does not need them (a task's LLM call).
"""

from __future__ import annotations

import importlib
import threading
from typing import Any

__all__ = ['ENGINES', 'EngineResult', 'plan_strings', 'register_engines', 'solve', 'validate',
           'wait_warm', 'warm']

#: what the first plan of a process imports: unified-planning's engine machinery (SciPy
#: through ConfigSpace, ~1 s on two cores), its PDDL reader and the engines' packages
WARM_MODULES = ('unified_planning.engines', 'unified_planning.io', 'up_fast_downward',
                'up_pyperplan')
_warming: threading.Thread | None = None
_warm_lock = threading.Lock()


def warm() -> threading.Thread:
    """Import :data:`WARM_MODULES` in a background thread, once per process.

    Imports only: the planning environment is still made by the first plan, in its
    caller's thread, which first waits for this one (:func:`wait_warm`), so the two never
    import unified-planning's modules at once. A failing import is left to that first
    plan to report.
    """
    global _warming
    with _warm_lock:
        if _warming is None:
            _warming = threading.Thread(target=_import_all, name='planning-warm', daemon=True)
            _warming.start()
        return _warming


def wait_warm() -> None:
    """Wait until a :func:`warm` thread, if one was started, has done its imports."""
    thread = _warming
    if thread is not None and thread is not threading.current_thread():
        thread.join()


def _import_all() -> None:
    for name in WARM_MODULES:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the first plan imports it again and says why
            pass


def __getattr__(name: str) -> Any:
    if name in __all__:
        from l3mp_ros.planning import engines
        return getattr(engines, name)
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
