# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The planner node's logic without ROS: task requests in, a task's lifecycle, sentences out.

:mod:`.inputs` is what the planner node does with each message
(:class:`~.inputs.PlannerInputs`: requests, cancels, feedback, yes/no, the patrol clock);
:mod:`.requests` reads the ``task``/``goal``/``cancel`` messages; :mod:`.lifecycle` keeps
the active task and its queue (:class:`~.lifecycle.TaskLifecycle`: execution feedback,
re-planning, timeouts); :mod:`.patrol` chooses where an idle robot looks. Algorithm 4
itself (an NL task → a goal → a plan) is :mod:`l3mp_ros.agent.task.task`.
"""
