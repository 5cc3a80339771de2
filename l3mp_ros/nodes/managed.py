# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""ManagedNode: the lifecycle shape every l3mp node shares (``lifecycle_msgs`` services).

* **unconfigured** (after construction): parameters are declared, nothing is loaded.
* **configure** reads the parameters and loads what the node needs (store, domain, model
  handles, worker threads) and creates its publishers (lifecycle publishers: silent until
  active). A failure (a missing store, a bad parameter) is one log line and leaves the node
  unconfigured; the next ``configure`` tries again.
* **activate** opens the inputs: subscriptions, services, timers. **deactivate** closes
  them again (messages sent meanwhile are not taken).
* **cleanup** releases what configure loaded; **shutdown** does whatever is left.
* An exception in a transition goes to ErrorProcessing: one log line, everything is
  released and the node is back to unconfigured.

``autostart`` (parameter, default true) configures and activates the node as soon as it is
constructed, as nav2's lifecycle manager does; with false it waits for a manager
(``ros2 lifecycle set <node> configure``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rclpy.lifecycle import LifecycleNode, LifecycleState, TransitionCallbackReturn
from std_msgs.msg import String

from ..agent.agent import Agent
from ..config import Config
from ..schemas import error_event
from .common import (
    COMMAND_QOS,
    Worker,
    declare,
    live_parameters,
    publish_json,
    publish_when_matched,
)

OK = TransitionCallbackReturn.SUCCESS
# seconds between a replica's looks at the writer's event log for events it never heard
REPLICA_REFRESH_PERIOD = 1.0


class ManagedNode(LifecycleNode):
    """A lifecycle node: subclasses fill in :meth:`configure`, :meth:`activate`, :meth:`release`.

    Subclasses declare their parameters with ``super().__init__(name, names, **kwargs)``
    and call :meth:`start` last in their constructor.
    """

    def __init__(self, name: str, parameters: Iterable[str], **kwargs: Any) -> None:
        super().__init__(name, **kwargs)
        names = tuple(parameters)
        self.params = declare(self, names if 'autostart' in names else (*names, 'autostart'))
        self._inputs: list[tuple[str, Any]] = []  # made in activate, gone at deactivate
        self._publishers: list[Any] = []  # made in configure, gone at cleanup
        self._on_set: Any = None
        self.configured = False
        self.failure: str | None = None  # why the last configure failed

    # -- what subclasses write ---------------------------------------------------------
    def configure(self) -> None:
        """Load what the node needs; raise to refuse (the node stays unconfigured)."""

    def activate(self) -> None:
        """Open subscriptions, services and timers (with :meth:`subscribe` and friends)."""

    def release(self) -> None:
        """Release what :meth:`configure` loaded (called once per successful configure)."""

    def setters(self) -> dict[str, Any]:
        """Return the parameters that can change live (see ``config.plan_changes``)."""
        return {}

    # -- helpers -------------------------------------------------------------------------
    def start(self) -> None:
        """Configure and activate now when ``autostart`` is set."""
        if self.params['autostart'] and self.trigger_configure() == OK:
            self.trigger_activate()

    @property
    def state(self) -> str:
        """Return the label of the current lifecycle state: ``active``, ``inactive``, ..."""
        return self._state_machine.current_state[1]

    def publisher(self, topic: str, qos: Any, msg_type: Any = String) -> Any:
        """Return a new lifecycle publisher: it publishes only while the node is active."""
        pub = self.create_lifecycle_publisher(msg_type, topic, qos)
        self._publishers.append(pub)
        return pub

    def subscribe(self, topic: str, callback: Callable[[Any], None], qos: Any,
                  msg_type: Any = String, **kwargs: Any) -> Any:
        """Create a subscription that lives while the node is active."""
        sub = self.create_subscription(msg_type, topic, callback, qos, **kwargs)
        self._inputs.append(('subscription', sub))
        return sub

    def service(self, srv_type: Any, name: str, callback: Callable[[Any, Any], Any],
                **kwargs: Any) -> Any:
        """Create a service that lives while the node is active."""
        srv = self.create_service(srv_type, name, callback, **kwargs)
        self._inputs.append(('service', srv))
        return srv

    def timer(self, period: float, callback: Callable[[], None], **kwargs: Any) -> Any:
        """Create a timer that lives while the node is active."""
        tmr = self.create_timer(period, callback, **kwargs)
        self._inputs.append(('timer', tmr))
        return tmr

    def _close_inputs(self) -> None:
        destroy = {'subscription': self.destroy_subscription, 'service': self.destroy_service,
                   'timer': self.destroy_timer}
        while self._inputs:
            kind, entity = self._inputs.pop()
            destroy[kind](entity)

    def _release_all(self) -> None:
        self._close_inputs()
        if self._on_set is not None:
            self.remove_on_set_parameters_callback(self._on_set)
            self._on_set = None
        while self._publishers:
            self.destroy_lifecycle_publisher(self._publishers.pop())
        if self.configured:
            self.configured = False
            self.release()

    # -- transitions ---------------------------------------------------------------------
    def on_configure(self, state: LifecycleState) -> TransitionCallbackReturn:
        """Read the parameters and load; a failure leaves the node unconfigured."""
        self.params = {n: self.get_parameter(n).value for n in self.params}
        try:
            self.configured = True
            self.configure()
            self._on_set = live_parameters(self, self.params, self.setters())
        except Exception as exc:  # a missing store, a bad parameter: one line, try again
            self.failure = str(exc) or repr(exc)
            self.get_logger().error(f'configure failed: {self.failure}')
            try:
                self._release_all()
            except Exception as again:  # releasing half-loaded parts must not raise
                self.get_logger().error(f'release after failed configure: {again!r}')
            return TransitionCallbackReturn.FAILURE
        self.failure = None
        return OK

    def on_activate(self, state: LifecycleState) -> TransitionCallbackReturn:
        """Enable the publishers, then open the inputs."""
        super().on_activate(state)
        try:
            self.activate()
        except Exception as exc:  # → ErrorProcessing: everything is released
            self.get_logger().error(f'activate failed: {exc!r}')
            return TransitionCallbackReturn.ERROR
        self.get_logger().info('active')
        return OK

    def on_deactivate(self, state: LifecycleState) -> TransitionCallbackReturn:
        """Close the inputs, then silence the publishers."""
        self._close_inputs()
        super().on_deactivate(state)
        self.get_logger().info('inactive')
        return OK

    def on_cleanup(self, state: LifecycleState) -> TransitionCallbackReturn:
        """Release everything configure loaded."""
        self._release_all()
        return OK

    def on_shutdown(self, state: LifecycleState) -> TransitionCallbackReturn:
        """Release whatever is still held."""
        self._release_all()
        return OK

    def on_error(self, state: LifecycleState) -> TransitionCallbackReturn:
        """Release everything; the node goes back to unconfigured."""
        self.get_logger().error(f'error in a transition from {state.label}; releasing '
                                'everything (unconfigured)')
        try:
            self._release_all()
        except Exception as exc:
            self.get_logger().error(f'release failed: {exc!r}')
        return OK

    def destroy_node(self) -> None:
        """Release what is held, then go."""
        self._release_all()
        super().destroy_node()


Given = Any  # an object, or a zero-argument callable returning it (resolved at configure)


class AgentNode(ManagedNode):
    """Base of the nodes that run agent pipelines on a worker thread.

    The agent is the one given, one built on ``world`` (same process as the writer), or
    one on a read-only replica of the store that forwards writes on ``kg_update``; both may
    be callables resolved at configure (the writer node of a bringup configures first).
    Configure builds the agent, the ``say``/``events`` publishers and the worker.
    """

    def __init__(self, name: str, parameters: Iterable[str], agent: Given = None,
                 world: Given = None, **kwargs: Any) -> None:
        super().__init__(name, parameters, **kwargs)
        self._given_agent, self._given_world = agent, world
        self.agent: Agent | None = None
        self.replica: Any = None
        self.worker: Worker | None = None

    def configure(self) -> None:
        """Build (or take) the agent; open the publishers and the worker."""
        self.say_pub = self.publisher('say', COMMAND_QOS)
        self.events_pub = self.publisher('events', COMMAND_QOS)
        self.agent = self._attach_agent()
        self.worker = Worker(self.get_name(), self._job_failed)

    def _attach_agent(self) -> Agent:
        from ..compose import build_agent, open_replica
        agent, world = self._given_agent, self._given_world
        agent = agent() if callable(agent) else agent
        if agent is not None:
            return agent
        world = world() if callable(world) else world
        cfg = Config.from_params(self.params)
        if world is None:  # another process owns the KG: follow it, forward writes
            update_pub = self.publisher('kg_update', COMMAND_QOS)
            timeout = float(self.params['replica_timeout'])
            self.replica = world = open_replica(
                cfg, lambda body: publish_when_matched(update_pub, body, timeout))
        return build_agent(cfg, world, warm=True)  # the model loads while the node configures

    def follow_log(self) -> None:
        """On a replica, replay on a clock what the writer logged but this node never heard."""
        if self.replica is not None:
            self.timer(REPLICA_REFRESH_PERIOD, self._refresh_replica)

    def _refresh_replica(self) -> None:
        try:
            if self.replica is not None and self.replica.refresh():
                self.get_logger().info(f'followed the log to event {self.replica.last_event_id}')
        except Exception as exc:  # a store briefly unreadable: try again on the next tick
            self.get_logger().warning(f'cannot read the event log: {exc!r}')

    def release(self) -> None:
        """Finish queued work; close the replica and the LLM client this node opened."""
        if self.worker is not None:
            self.worker.stop()
            self.worker = None
        if self.replica is not None:
            self.replica.close()
            self.replica = None
        if self.agent is not None and self._given_agent is None:
            close = getattr(self.agent.llm, 'close', None)
            if callable(close):
                close()
        self.agent = None

    def _say(self, text: str) -> None:
        self.say_pub.publish(String(data=text))

    def _job_failed(self, label: str, exc: BaseException) -> None:
        self.get_logger().error(f'{label} failed: {exc!r}')
        publish_json(self.events_pub, error_event(self.get_name(), [f'{label} failed: {exc}'],
                                                  topic=label))
