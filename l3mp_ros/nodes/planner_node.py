# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""planner_node: tasks and goals → ``plan``; re-plans when the world or execution disagrees.

``task`` (NL, Algorithm 4) and ``goal`` (PDDL) are planned on a worker thread in arrival
order. :class:`~l3mp_ros.tasking.lifecycle.TaskLifecycle` keeps the active task: re-plans on
``events``/``execution_feedback``, ``execution_timeout``, ``planned`` with no executor.
Every status goes out on ``plan`` (transient-local), final ones as a sentence on ``say``;
``cancel`` takes a task id or ``all``; service ``tasks`` (std_srvs/Trigger) lists them.

With ``patrol: idle`` an idle planner sends the robot to look at the place whose
perceivable facts are most worth checking (told and unconfirmed, or unseen for long;
:mod:`l3mp_ros.tasking.patrol`): planned like a goal on the worker, published on ``plan``
with ``patrol: true`` and executed like any task; a task arriving on ``task`` or ``goal``
pre-empts it at once.

With nothing publishing ``execution_feedback`` (no executor) a plan ends ``planned`` at
once. With ``confirm_plan`` a plan is said and waits for a plain yes or no on
``voice_command`` (or service ``confirm``, std_srvs/SetBool) before it is executed.
The logic is :class:`~l3mp_ros.tasking.inputs.PlannerInputs`.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from std_msgs.msg import String
from std_srvs.srv import SetBool, Trigger

from ..agent.task.task import new_task_id
from ..compose import agent_setters
from ..config import PATROL_POLICIES, PLANNER, checked, node_parameters
from ..schemas import loads
from ..tasking.inputs import Outlets, PlannerInputs
from .common import COMMAND_QOS, PLAN_QOS, guarded, publish_json, run
from .common import trigger_answer as answer
from .managed import AgentNode, Given

TIMEOUT_CHECK_PERIOD = 0.5  # seconds between looks at the active task's execution clock


class PlannerNode(AgentNode):
    """Owns the active task and publishes its plans."""

    def __init__(self, agent: Given = None, world: Given = None, **kwargs: Any) -> None:
        super().__init__('planner', node_parameters(PLANNER), agent, world, **kwargs)
        self.start()

    def configure(self) -> None:
        """Build the agent, the ``plan`` publisher and the inputs (task manager, patrol)."""
        super().configure()
        self.plan_pub = self.publisher('plan', PLAN_QOS)
        out = Outlets(plan=lambda body: publish_json(self.plan_pub, body), say=self._say,
                      event=lambda body: publish_json(self.events_pub, body),
                      warn=self.get_logger().warning, submit=self.worker.submit)
        self.inputs = PlannerInputs(self.agent, self.params, out,
                                    has_executor=self._has_executor, new_id=new_task_id)

    def _has_executor(self) -> bool:
        """Tell whether an executor is attached: a node publishing ``execution_feedback``."""
        return self.count_publishers('execution_feedback') > 0

    def setters(self) -> dict[str, Any]:
        """Engine, time-outs, attempts, the execute and patrol policies change live."""
        out = agent_setters(self.agent, self.inputs.tasks)
        out['patrol'] = checked(lambda v: v in PATROL_POLICIES,
                                'one of ' + ', '.join(PATROL_POLICIES), self.inputs.set_patrol)
        return out

    def activate(self) -> None:
        """Open the task inputs, the status service and the execution clock."""
        for topic, callback in (('task', self._on_task), ('goal', self._on_goal),
                                ('cancel', self._on_cancel), ('events', self._on_event),
                                ('execution_feedback', self._on_feedback),
                                ('voice_command', self._on_voice)):
            self.subscribe(topic, callback, COMMAND_QOS)
        self.service(Trigger, 'tasks', lambda q, r: answer(
            r, lambda: (True, json.dumps(self.inputs.tasks.status()))))
        self.service(SetBool, 'confirm',
                     lambda q, r: answer(r, lambda: self.inputs.answer(q.data)))
        self.timer(TIMEOUT_CHECK_PERIOD, self.inputs.tick)
        self.follow_log()

    @guarded('task')
    def _on_task(self, msg: String) -> None:
        self.inputs.request('task', msg.data)

    @guarded('goal')
    def _on_goal(self, msg: String) -> None:
        self.inputs.request('goal', msg.data)

    @guarded('cancel')
    def _on_cancel(self, msg: String) -> None:
        self.inputs.cancel(msg.data)

    @guarded('events')
    def _on_event(self, msg: String) -> None:
        data = loads(msg.data)
        if self.replica is not None:
            self.replica.on_event(data)
        self.inputs.event(data)

    @guarded('execution_feedback')
    def _on_feedback(self, msg: String) -> None:
        self.inputs.feedback(msg.data)

    @guarded('voice_command')
    def _on_voice(self, msg: String) -> None:
        self.inputs.voice(msg.data)


def main(args: list[str] | None = None) -> int:
    """Run the planner node."""
    return run(PlannerNode, args, name='planner_node')


if __name__ == '__main__':
    sys.exit(main())
