# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""world_model_node: the KG's writer on the ROS graph.

Subscribes ``scene_graph`` (perception) and ``kg_update`` (updates computed by nodes in
other processes); applies one update at a time through :class:`WorldModel`; publishes
every applied, rejected or malformed input on ``events`` and the KG on ``kg/markers``
(at most ``markers_rate`` Hz, edges labelled with their predicate). Read-only queries
(``kg_query/v1``: facts about an entity, facts matching a pattern, the snapshot) are
answered on ``kg_query_result``. Services ``save_snapshot``, ``kg_stats`` and
``kg_snapshot`` (std_srvs/Trigger). ``perception_config``,
``max_scene_entities`` and the marker settings can be changed live. Updates other
writers of the same store commit (``l3mp kg apply`` while the robot runs) are picked
up every ``store_poll`` seconds (SQLite) or as soon as PostgreSQL notifies the commit, or
before the next write, and published on ``events``.
"""

from __future__ import annotations

import json
import sys
import threading
from typing import Any

from builtin_interfaces.msg import Duration
from geometry_msgs.msg import Point
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup
from rclpy.node import Node
from std_msgs.msg import ColorRGBA, String
from std_srvs.srv import Trigger
from visualization_msgs.msg import Marker, MarkerArray

from ..compose import open_world
from ..config import WORLD, Config, checked, node_parameters
from ..schemas import WireError, error_event, loads_object, validate
from ..world import query, replica
from ..world.layout import marker_layout
from ..world.model import ApplyResult, WorldModel
from ..world.perceive import PerceptionError, load_perceivable, scene_graph_update
from .common import (
    COMMAND_QOS,
    LATCHED_QOS,
    STREAM_QOS,
    declare,
    guarded,
    live_parameters,
    publish_json,
    restart_timer,
    run,
)

MAX_MESSAGE_BYTES = 4_000_000


class WorldModelNode(Node):
    """Owns the :class:`WorldModel`; everything else reads or asks."""

    def __init__(self, world: WorldModel | None = None, **kwargs: Any) -> None:
        super().__init__('world_model', **kwargs)
        self.params = declare(self, node_parameters(WORLD))
        self._owns_world = world is None
        self.world = world if world is not None else open_world(
            Config.from_params(self.params), writer=self.get_fully_qualified_name())
        self.perceivable = load_perceivable(self.params['perception_config'])
        self.events_pub = self.create_publisher(String, 'events', COMMAND_QOS)
        self.markers_pub = self.create_publisher(MarkerArray, 'kg/markers', LATCHED_QOS)
        self.world.listeners.append(self._on_applied)
        writes = MutuallyExclusiveCallbackGroup()  # one update at a time
        self.create_subscription(String, 'scene_graph', self._on_scene_graph, STREAM_QOS,
                                 callback_group=writes)
        self.create_subscription(String, 'kg_update', self._on_kg_update, COMMAND_QOS,
                                 callback_group=writes)
        self.create_service(Trigger, 'save_snapshot', self._save_snapshot,
                            callback_group=writes)
        self.create_service(Trigger, 'kg_stats', self._kg_stats, callback_group=writes)
        reads = MutuallyExclusiveCallbackGroup()  # snapshots: never blocked by a long write
        self.query_pub = self.create_publisher(String, 'kg_query_result', COMMAND_QOS)
        self.create_subscription(String, 'kg_query', self._on_query, COMMAND_QOS,
                                 callback_group=reads)
        self.create_service(Trigger, 'kg_snapshot', self._kg_snapshot, callback_group=reads)
        self._current = threading.local()  # provenance of the update being applied here
        self._dirty = threading.Event()
        self._dirty.set()
        self._markers_timer = self.create_timer(
            1.0 / max(float(self.params['markers_rate']), 0.01), self._publish_markers)
        poll = float(self.params['store_poll'])
        self._stop = threading.Event()
        self._listener = None
        listen = getattr(self.world.store, 'listen', None)
        if callable(listen):  # PostgreSQL: every commit is pushed (LISTEN/NOTIFY)
            self._listener = listen()
            threading.Thread(target=self._follow, name='store_events', daemon=True).start()
        elif poll > 0 and self.world.store is not None:  # SQLite: look every poll seconds
            self.create_timer(poll, self._refresh, callback_group=writes)
        live_parameters(self, self.params, self._setters())
        self.get_logger().info(
            f'world model: {len(self.world.kg.entities)} entities, {len(self.world.kg)} facts, '
            f'store {self.params["store"] or "(memory)"}')

    def _setters(self) -> dict[str, Any]:
        def perception(path: str) -> Any:
            preds = load_perceivable(path)  # ValueError: unreadable, malformed
            unknown = sorted(p for p in preds if p not in self.world.domain.predicates)
            if unknown:
                raise ValueError(f'names predicates the domain lacks: {", ".join(unknown)}')
            return lambda: setattr(self, 'perceivable', preds)

        def rate(v: float) -> None:
            self._markers_timer = restart_timer(self, self._markers_timer, v,
                                                self._publish_markers)

        return {'perception_config': perception,
                'max_scene_entities': checked(lambda v: v > 0, 'a positive count',
                                              lambda v: None),  # read per message
                'markers_rate': checked(lambda v: v > 0, 'a positive rate (Hz)', rate),
                'markers_frame': checked(lambda v: isinstance(v, str), 'a frame name',
                                         lambda v: self._dirty.set())}

    # -- events ---------------------------------------------------------------
    def _on_applied(self, eid: int | None, result: ApplyResult) -> None:
        try:
            meta = None if result.external else getattr(self._current, 'meta', None)
            if meta is not None:  # our own apply: no need to read the event back
                body = error_event(meta['source'], list(result.errors))
                body.update(id=eid, status='applied' if result.applied else 'rejected',
                            diff=result.update.to_json(), topic='scene_graph',
                            new_entities=[{'name': n, 'type': t}
                                          for n, t in sorted(result.new_entities.items())],
                            info=meta['info'])
            else:
                body = self.world.event_message(eid, result)
            publish_json(self.events_pub, body)
        except Exception as exc:  # a listener must not break the writer
            self.get_logger().error(f'cannot publish event {eid}: {exc}')
        if result.applied:
            self._dirty.set()

    def _error(self, source: str, errors: list[str], topic: str,
               request_id: str | None = None) -> None:
        self.get_logger().warning(f'{topic}: ' + '; '.join(errors)[:300])
        publish_json(self.events_pub, error_event(source, errors, topic=topic,
                                                  request_id=request_id))

    def _parse(self, msg: String, topic: str, source: str) -> dict | None:
        try:
            data = loads_object(msg.data, max_bytes=MAX_MESSAGE_BYTES)
        except WireError as exc:
            self._error(source, [str(exc)], topic)
            return None
        return data

    def _follow(self) -> None:
        """Catch up whenever another writer commits (or the listener had to reconnect)."""
        while not self._stop.is_set():
            try:
                if self._listener.wait(1.0):
                    self._refresh()
            except Exception as exc:  # the thread must go on following
                self.get_logger().error(f'store listener: {exc!r}')
                self._stop.wait(1.0)

    def _refresh(self) -> None:
        try:
            self.world.refresh()  # listeners publish what another writer committed
        except Exception as exc:  # no exception escapes a callback
            self.get_logger().error(f'cannot follow the store: {exc!r}')

    # -- inputs ---------------------------------------------------------------
    @guarded('scene_graph')
    def _on_scene_graph(self, msg: String) -> None:
        try:
            data = self._parse(msg, 'scene_graph', 'perception')
            if data is None:
                return
            limit = int(self.params['max_scene_entities'])
            size = max(len(data.get('entities') or []), len(data.get('observed') or []))
            if size > limit:  # refuse before the (costly) schema check
                self._error('perception', [f'scene graph too large: {size} entities '
                                           f'(limit {limit})'], 'scene_graph')
                return
            errors = validate('scene_graph', data)
            if errors:
                self._error('perception', errors, 'scene_graph')
                return
            kg = self.world.kg  # read under the single-writer group: nothing else writes
            try:
                update, new = scene_graph_update(kg, data, self.perceivable, self.world.domain,
                                                 self.world.constraints, limit)
            except PerceptionError as exc:
                self._error('perception', exc.errors, 'scene_graph')
                return
            if update.is_empty() and not new:
                return  # nothing changed: no event
            source = str(data.get('source') or 'perception')
            info = {'stamp': data.get('stamp'), 'observed': len(data.get('observed') or [])}
            self._current.meta = {'source': source, 'info': info}
            try:
                self.world.apply(update, source=source, new_entities=new, info=info)
            finally:
                self._current.meta = None
        except Exception as exc:  # no exception escapes a callback
            self._error('perception', [f'internal error: {exc!r}'], 'scene_graph')

    @guarded('kg_update')
    def _on_kg_update(self, msg: String) -> None:
        try:
            data = self._parse(msg, 'kg_update', 'kg_update')
            if data is None:
                return
            if data.get('schema') != replica.KG_UPDATE_SCHEMA:
                self._error('kg_update', [f'not a {replica.KG_UPDATE_SCHEMA} message'],
                            'kg_update', data.get('request_id'))
                return
            problems = validate('kg_update', data)
            if problems:
                self._error('kg_update', problems, 'kg_update', data.get('request_id'))
                return
            replica.apply_request(self.world, data,
                                  sources=tuple(self.params['kg_update_sources']),
                                  max_facts=int(self.params['kg_update_max_facts']))
        except Exception as exc:
            self._error('kg_update', [f'internal error: {exc!r}'], 'kg_update')

    @guarded('kg_query')
    def _on_query(self, msg: String) -> None:
        rid = None
        try:
            data = self._parse(msg, 'kg_query', 'kg_query')
            if data is None:
                return
            rid = data.get('request_id') if isinstance(data.get('request_id'), str) else None
            problems = validate('kg_query', data)
            store = self.world.store
            last = store.last_event_id() if store is not None else None
            body = (query.result(rid, errors=problems, last_event_id=last) if problems else
                    query.answer(self.world.snapshot(), data, self.world.domain.predicates,
                                 last))
        except Exception as exc:  # no exception escapes a callback
            body = query.result(rid, errors=[f'internal error: {exc!r}'])
        publish_json(self.query_pub, body)

    # -- services -------------------------------------------------------------
    def _save_snapshot(self, request: Trigger.Request,
                       response: Trigger.Response) -> Trigger.Response:
        try:
            if self.world.store is None:
                response.success, response.message = False, 'no store (in-memory KG)'
            else:
                sid = self.world.store.save_snapshot(self.world.snapshot())
                response.success, response.message = True, f'snapshot {sid}'
        except Exception as exc:
            response.success, response.message = False, str(exc)
        return response

    def _kg_stats(self, request: Trigger.Request,
                  response: Trigger.Response) -> Trigger.Response:
        kg = self.world.snapshot()
        types: dict[str, int] = {}
        for t in kg.entities.values():
            types[t] = types.get(t, 0) + 1
        stats = {'entities': len(kg.entities), 'facts': len(kg), 'types': types,
                 'last_event_id': self.world.store.last_event_id() if self.world.store else None}
        response.success, response.message = True, json.dumps(stats)
        return response

    def _kg_snapshot(self, request: Trigger.Request,
                     response: Trigger.Response) -> Trigger.Response:
        response.success, response.message = True, self.world.snapshot().dumps()
        return response

    # -- markers --------------------------------------------------------------
    def _publish_markers(self) -> None:
        if not self._dirty.is_set() or self.markers_pub.get_subscription_count() == 0:
            return
        self._dirty.clear()
        try:
            self.markers_pub.publish(self._markers())
        except Exception as exc:
            self.get_logger().error(f'cannot publish markers: {exc!r}')

    def _markers(self) -> MarkerArray:
        kg = self.world.snapshot()
        ents, lines = marker_layout(kg, domain=self.world.domain)
        stamp = self.get_clock().now().to_msg()
        frame = str(self.params['markers_frame'])
        out = MarkerArray()
        out.markers.append(Marker(action=Marker.DELETEALL))
        where: dict[str, Point] = {}
        for i, (name, type_, _, (x, y, z)) in enumerate(ents):
            where[name] = Point(x=x, y=y, z=z)
            m = Marker(type=Marker.TEXT_VIEW_FACING, action=Marker.ADD, ns='entities', id=i,
                       text=f'{name} ({type_})', lifetime=Duration())
            m.header.frame_id, m.header.stamp = frame, stamp
            m.pose.position = where[name]
            m.pose.orientation.w = 1.0
            m.scale.z = 0.4 if type_ != 'room' else 0.8
            m.color = ColorRGBA(r=1.0, g=1.0, b=1.0, a=1.0)
            out.markers.append(m)
        edges = Marker(type=Marker.LINE_LIST, action=Marker.ADD, ns='facts', id=0)
        edges.header.frame_id, edges.header.stamp = frame, stamp
        edges.pose.orientation.w = 1.0
        edges.scale.x = 0.02
        edges.color = ColorRGBA(r=0.3, g=0.7, b=1.0, a=0.8)
        for i, (a, pred, b) in enumerate(lines):
            if a in where and b in where:
                edges.points.extend([where[a], where[b]])
                label = Marker(type=Marker.TEXT_VIEW_FACING, action=Marker.ADD,
                               ns='fact_labels', id=i, text=pred, lifetime=Duration())
                label.header.frame_id, label.header.stamp = frame, stamp
                label.pose.position = Point(x=(where[a].x + where[b].x) / 2,
                                            y=(where[a].y + where[b].y) / 2,
                                            z=(where[a].z + where[b].z) / 2 + 0.1)
                label.pose.orientation.w = 1.0
                label.scale.z = 0.2
                label.color = ColorRGBA(r=0.6, g=0.85, b=1.0, a=0.9)
                out.markers.append(label)
        out.markers.append(edges)
        return out

    def destroy_node(self) -> None:
        """Stop listening to the world model before the node goes."""
        if self._on_applied in self.world.listeners:
            self.world.listeners.remove(self._on_applied)
        self._stop.set()
        if self._listener is not None:
            self._listener.close()
        if self._owns_world:
            self.world.close()
        super().destroy_node()


def main(args: list[str] | None = None) -> int:
    """Run the world model node."""
    return run(WorldModelNode, args, name='world_model_node')


if __name__ == '__main__':
    sys.exit(main())
