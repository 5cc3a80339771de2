; Hospital ward: a nursing robot fetches and delivers medicine, linen, meal trays and
; equipment between the rooms of one ward. Held-out evaluation domain for the language
; pipeline (benchmarks/data/ward_reports.json); not used by the tests or the tuning sets.
; Plain STRIPS with typing and negative preconditions (no conditional effects).
;
; Modelling choices:
; * Every room opens on the ward corridor through a door of its own (static
;   door_connects facts, two per door). The robot goes through open doors only, opens and
;   closes unlocked ones; locking and unlocking are done by staff (reports only), so a
;   locked door (the pharmacy's) is a wall to the robot until someone unlocks it.
; * Where an item is: (item_at ?i ?place) lying in a room or the corridor, or
;   (held_by ?i ?h) in someone's hands or on the robot (its tray carries any number of
;   things). A rule keeps exactly one of the two per item.
; * (assigned_to ?i ?patient) records whose an item is (a prescription, a meal tray, a
;   blanket, a wheelchair); it never changes.
; * Beds are fixed in their rooms ((bed_in ?b ?room), static). (lying_in ?patient ?b):
;   a patient lying in a bed. People moving, getting in and out of bed, and staff
;   locking and unlocking doors are changed by reports alone.
; * Room lights ((light_on ?room)) and the privacy curtains of patient rooms
;   ((curtain_closed ?room)) are switched and drawn by the robot from inside the room.
;
; `held_by` takes (either person robot). unified-planning 1.3.0's PDDL reader cannot
; parse `either`: l3mp_ros (DomainSchema.from_text) replaces the union by the nearest
; common supertype (here `object`) before handing the text to UP, and keeps the union for
; type checking, as for test/data/office.pddl.
(define (domain hospital_ward)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    place door robot person bed item - object
    room corridor - place
    patient_room service_room - room
    staff patient - person
    nurse doctor - staff
    medicine linen meal_tray equipment - item
    mobility_aid - equipment)

  (:predicates
    (robot_at ?r - robot ?p - place)
    (person_in ?p - person ?pl - place)
    (item_at ?i - item ?pl - place)
    (held_by ?i - item ?h - (either person robot))
    (assigned_to ?i - item ?pt - patient)
    (door_connects ?d - door ?pl - place)
    (door_open ?d - door)
    (door_locked ?d - door)
    (light_on ?rm - room)
    (curtain_closed ?rm - patient_room)
    (bed_in ?b - bed ?rm - patient_room)
    (lying_in ?pt - patient ?b - bed))

  ; ---------------------------------------------------------------- moving and doors
  (:action go_through
    :parameters (?r - robot ?d - door ?from - place ?to - place)
    :precondition (and (robot_at ?r ?from) (door_connects ?d ?from) (door_connects ?d ?to)
                       (door_open ?d))
    :effect (and (not (robot_at ?r ?from)) (robot_at ?r ?to)))

  (:action open_door
    :parameters (?r - robot ?d - door ?p - place)
    :precondition (and (robot_at ?r ?p) (door_connects ?d ?p) (not (door_open ?d))
                       (not (door_locked ?d)))
    :effect (door_open ?d))

  (:action close_door
    :parameters (?r - robot ?d - door ?p - place)
    :precondition (and (robot_at ?r ?p) (door_connects ?d ?p) (door_open ?d))
    :effect (not (door_open ?d)))

  ; ---------------------------------------------------------------- lights and curtains
  (:action switch_light_on
    :parameters (?r - robot ?rm - room)
    :precondition (and (robot_at ?r ?rm) (not (light_on ?rm)))
    :effect (light_on ?rm))

  (:action switch_light_off
    :parameters (?r - robot ?rm - room)
    :precondition (and (robot_at ?r ?rm) (light_on ?rm))
    :effect (not (light_on ?rm)))

  (:action close_curtain
    :parameters (?r - robot ?rm - patient_room)
    :precondition (and (robot_at ?r ?rm) (not (curtain_closed ?rm)))
    :effect (curtain_closed ?rm))

  (:action open_curtain
    :parameters (?r - robot ?rm - patient_room)
    :precondition (and (robot_at ?r ?rm) (curtain_closed ?rm))
    :effect (not (curtain_closed ?rm)))

  ; ---------------------------------------------------------------- items
  (:action pick_up
    :parameters (?r - robot ?i - item ?p - place)
    :precondition (and (robot_at ?r ?p) (item_at ?i ?p))
    :effect (and (not (item_at ?i ?p)) (held_by ?i ?r)))

  (:action put_down
    :parameters (?r - robot ?i - item ?p - place)
    :precondition (and (robot_at ?r ?p) (held_by ?i ?r))
    :effect (and (not (held_by ?i ?r)) (item_at ?i ?p)))

  (:action hand_over
    :parameters (?r - robot ?i - item ?h - person ?p - place)
    :precondition (and (robot_at ?r ?p) (person_in ?h ?p) (held_by ?i ?r))
    :effect (and (not (held_by ?i ?r)) (held_by ?i ?h)))

  (:action take_from
    :parameters (?r - robot ?i - item ?h - person ?p - place)
    :precondition (and (robot_at ?r ?p) (person_in ?h ?p) (held_by ?i ?h))
    :effect (and (not (held_by ?i ?h)) (held_by ?i ?r)))
)
