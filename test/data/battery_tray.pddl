; A service robot with a battery and a tray (issue 59): moves drain the battery by the
; distance, a charger restores it, and the tray carries a limited number of items.
(define (domain battery_tray)
  (:requirements :strips :typing :numeric-fluents)
  (:types robot location item)
  (:predicates
    (robot_at ?r - robot ?l - location)
    (item_at ?i - item ?l - location)
    (on_tray ?i - item ?r - robot)
    (connected ?from - location ?to - location)
    (charger_at ?l - location))
  (:functions
    (battery_level ?r - robot)
    (battery_capacity ?r - robot)
    (distance ?from - location ?to - location)
    (tray_load ?r - robot)
    (tray_capacity ?r - robot))
  (:action move
    :parameters (?r - robot ?from - location ?to - location)
    :precondition (and (robot_at ?r ?from) (connected ?from ?to)
                       (>= (battery_level ?r) (distance ?from ?to)))
    :effect (and (not (robot_at ?r ?from)) (robot_at ?r ?to)
                 (decrease (battery_level ?r) (distance ?from ?to))))
  (:action recharge
    :parameters (?r - robot ?l - location)
    :precondition (and (robot_at ?r ?l) (charger_at ?l)
                       (< (battery_level ?r) (battery_capacity ?r)))
    :effect (assign (battery_level ?r) (battery_capacity ?r)))
  (:action load
    :parameters (?r - robot ?i - item ?l - location)
    :precondition (and (robot_at ?r ?l) (item_at ?i ?l)
                       (< (tray_load ?r) (tray_capacity ?r)))
    :effect (and (not (item_at ?i ?l)) (on_tray ?i ?r) (increase (tray_load ?r) 1)))
  (:action unload
    :parameters (?r - robot ?i - item ?l - location)
    :precondition (and (robot_at ?r ?l) (on_tray ?i ?r))
    :effect (and (not (on_tray ?i ?r)) (item_at ?i ?l) (decrease (tray_load ?r) 1))))
