; Office mail delivery: a second, small domain used to show that the verifier and the
; planners are domain-agnostic. Plain STRIPS with typing and negative preconditions
; (no conditional effects). Areas are joined by doors (static door_connects facts, two
; per door); a locked door opens only after a keycard for it unlocks it. Letters are left
; in the addressee's office; parcels must be handed over in person and are then signed
; for. The robot carries any number of things.
;
; `located_at` and `carried` take (either mail keycard). unified-planning 1.3.0's PDDL
; reader cannot parse `either`: its users replace the union by a common supertype (here
; `object`) before handing the text to UP, and keep the union for type checking.
(define (domain office)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    area door robot person mail keycard - object
    room corridor - area
    office mailroom - room
    letter parcel - mail
    urgent_letter - letter)

  (:predicates
    (robot_at ?r - robot ?a - area)
    (person_at ?p - person ?a - area)
    (located_at ?x - (either mail keycard) ?a - area)
    (carried ?x - (either mail keycard) ?r - robot)
    (delivered ?m - mail ?p - person)
    (signed_for ?m - parcel)
    (addressed_to ?m - mail ?p - person)
    (works_in ?p - person ?o - office)
    (door_connects ?d - door ?a - area)
    (door_open ?d - door)
    (door_locked ?d - door)
    (key_for ?k - keycard ?d - door))

  (:action go_through
    :parameters (?r - robot ?d - door ?from - area ?to - area)
    :precondition (and (robot_at ?r ?from) (door_connects ?d ?from) (door_connects ?d ?to)
                       (door_open ?d))
    :effect (and (not (robot_at ?r ?from)) (robot_at ?r ?to)))

  (:action open_door
    :parameters (?r - robot ?d - door ?a - area)
    :precondition (and (robot_at ?r ?a) (door_connects ?d ?a) (not (door_open ?d))
                       (not (door_locked ?d)))
    :effect (door_open ?d))

  (:action close_door
    :parameters (?r - robot ?d - door ?a - area)
    :precondition (and (robot_at ?r ?a) (door_connects ?d ?a) (door_open ?d))
    :effect (not (door_open ?d)))

  (:action unlock_door
    :parameters (?r - robot ?d - door ?k - keycard ?a - area)
    :precondition (and (robot_at ?r ?a) (door_connects ?d ?a) (door_locked ?d)
                       (key_for ?k ?d) (carried ?k ?r))
    :effect (not (door_locked ?d)))

  (:action pick_up_mail
    :parameters (?r - robot ?m - mail ?a - area)
    :precondition (and (robot_at ?r ?a) (located_at ?m ?a))
    :effect (and (not (located_at ?m ?a)) (carried ?m ?r)))

  (:action drop_mail
    :parameters (?r - robot ?m - mail ?a - area)
    :precondition (and (robot_at ?r ?a) (carried ?m ?r))
    :effect (and (not (carried ?m ?r)) (located_at ?m ?a)))

  (:action pick_up_keycard
    :parameters (?r - robot ?k - keycard ?a - area)
    :precondition (and (robot_at ?r ?a) (located_at ?k ?a))
    :effect (and (not (located_at ?k ?a)) (carried ?k ?r)))

  (:action drop_keycard
    :parameters (?r - robot ?k - keycard ?a - area)
    :precondition (and (robot_at ?r ?a) (carried ?k ?r))
    :effect (and (not (carried ?k ?r)) (located_at ?k ?a)))

  (:action deliver_letter
    :parameters (?r - robot ?m - letter ?p - person ?o - office)
    :precondition (and (robot_at ?r ?o) (carried ?m ?r) (addressed_to ?m ?p) (works_in ?p ?o))
    :effect (and (not (carried ?m ?r)) (delivered ?m ?p)))

  (:action deliver_parcel
    :parameters (?r - robot ?m - parcel ?p - person ?a - area)
    :precondition (and (robot_at ?r ?a) (person_at ?p ?a) (carried ?m ?r)
                       (addressed_to ?m ?p))
    :effect (and (not (carried ?m ?r)) (delivered ?m ?p) (signed_for ?m)))
)
