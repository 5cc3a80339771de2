; A PlanSys2-style robot domain (durative actions, empty :functions), written for the tests:
; the robot moves between waypoints (its position is deleted at start, added at end), must
; keep its battery over the whole move, and inspects a waypoint where it is.
(define (domain patrol_durative)
(:requirements :strips :typing :adl :fluents :durative-actions)
(:types robot waypoint)
(:predicates
  (robot_at ?r - robot ?w - waypoint)
  (connected ?a ?b - waypoint)
  (charged ?r - robot)
  (charger_at ?w - waypoint)
  (inspected ?w - waypoint))
(:functions
)
(:durative-action move
  :parameters (?r - robot ?a ?b - waypoint)
  :duration (= ?duration 5)
  :condition (and (at start (connected ?a ?b)) (at start (robot_at ?r ?a))
                  (over all (charged ?r)))
  :effect (and (at start (not (robot_at ?r ?a))) (at end (robot_at ?r ?b))))
(:durative-action charge
  :parameters (?r - robot ?w - waypoint)
  :duration (= ?duration 10)
  :condition (and (at start (robot_at ?r ?w)) (over all (charger_at ?w)))
  :effect (at end (charged ?r)))
(:durative-action inspect
  :parameters (?r - robot ?w - waypoint)
  :duration (= ?duration 2)
  :condition (and (over all (robot_at ?r ?w)) (at end (charged ?r)))
  :effect (at end (inspected ?w)))
)
