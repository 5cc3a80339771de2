; A PlanSys2-style robot domain with independent actions (issue 59): a robot drives while
; its arm stows, and a second robot inspects a room meanwhile. Planned natively the three
; run at once; compiled to instantaneous actions they run one after another.
(define (domain fleet_durative)
(:requirements :strips :typing :durative-actions)
(:types robot waypoint)
(:predicates
  (robot_at ?r - robot ?w - waypoint)
  (connected ?a ?b - waypoint)
  (arm_out ?r - robot)
  (arm_stowed ?r - robot)
  (inspected ?w - waypoint))
(:durative-action move
  :parameters (?r - robot ?a ?b - waypoint)
  :duration (= ?duration 10)
  :condition (and (at start (connected ?a ?b)) (at start (robot_at ?r ?a)))
  :effect (and (at start (not (robot_at ?r ?a))) (at end (robot_at ?r ?b))))
(:durative-action stow_arm
  :parameters (?r - robot)
  :duration (= ?duration 3)
  :condition (at start (arm_out ?r))
  :effect (and (at start (not (arm_out ?r))) (at end (arm_stowed ?r))))
(:durative-action inspect
  :parameters (?r - robot ?w - waypoint)
  :duration (= ?duration 4)
  :condition (over all (robot_at ?r ?w))
  :effect (at end (inspected ?w)))
)
