; Community bike workshop and cafe: a small shop-assistant robot fetches tools and parts,
; tidies up, serves the cafe and does simple jobs on bikes clamped in the repair stands
; (public development evaluation domain for l3mp_ros).
;
; Modelling choices:
;
; * There is a single robot (type `robot`, `shopbot` in the KG); each action takes it as
;   ?r, first. It has one gripper, modelled by the flag (gripper_free ?r): every action
;   that grasps something consumes the flag, every action that lets go restores it. A
;   constraint rule caps the gripper at one thing; that the flag and the in_gripper facts
;   agree is left to the actions (see domain.constraints.yaml).
; * Items are bikes and carryable things (tools, parts, wheels, keys, cups, lubricants and
;   other consumables). The robot is small: it never lifts a bike, so its grasping actions
;   take a `carryable`. Every location is a binary fact whose first argument is the item,
;   so one "exactly one place" rule covers them all:
;     (placed_on ?i ?s)   on a surface: workbench, shelf, counter, pegboard (the tool
;                         wall) or sink;
;     (stored_in ?i ?c)   inside a container: cabinet, fridge or the till;
;     (held_by ?i ?p)     in a person's hands (a person wheeling a bike holds it);
;     (in_gripper ?i ?r)  in the robot's gripper;
;     (mounted_on ?b ?s)  a bike clamped in a repair stand;
;     (parked_at ?b ?k)   a bike in a bike rack;
;     (fitted_to ?w ?b)   a wheel that is on a bike (loose wheels lie on surfaces).
; * Doors are objects of their own. (connects ?d ?room) is listed once for each of the two
;   rooms a door joins; go_through needs both and an open door. Either side can open or
;   close it. A locked door counts as closed, and the robot can only unlock (or lock) it
;   with the matching key ((key_fits ?k ?d)) in its gripper, so a route through a locked
;   door starts by fetching the key. The yard and the pavement at the shop front are rooms
;   too.
; * Containers (the parts cabinet, the key cabinet, the cafe fridge and the till) may be
;   locked (container_locked). They have combination locks or a PIN the robot knows, so no
;   key is involved; while one is locked nothing goes in or comes out.
; * Lights are per room: (lights_on ?room), switched by the robot when it is in that room.
; * Fixtures are bolted down: (fixture_in ?f ?room) never changes.
; * Appliances (coffee machine, compressor, parts washer) are switched on and off by the
;   robot; it will not switch on one that is out_of_order. The compressor in the room of a
;   repair stand inflates the tyres of the bike clamped in it; a lubricant in the gripper
;   oils the chain of a bike in a stand.
; * Cafe: the coffee machine fills a clean, empty cup standing on a counter in its room;
;   washing happens at a sink and makes an empty cup clean; tipping out a cup at the sink
;   leaves it empty and dirty. A full cup is always a clean one (nobody pours coffee into a
;   dirty cup): cup_full requires cup_clean.
; * Where people are (person_at), where bikes stand (mounted_on, parked_at), which wheels
;   are on which bikes (fitted_to) and whether a wheel is trued (wheel_trued) are never
;   changed by the robot's actions: only reports from people update these facts. The
;   robot gives things to, and takes them from, people in the room it is in.
; * (owned_by ?i ?p) records an item's owner (a customer's bike, a mechanic's own tools or
;   mug, parts ordered for a customer). out_of_order is set and cleared by reports alone.
;
; Facts no action changes: connects, key_fits, fixture_in, owned_by.

(define (domain bike_workshop)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    room person fixture item robot door - object
    outdoor_area - room
    mechanic volunteer customer - person
    surface container repair_stand appliance bike_rack - fixture
    workbench shelf counter pegboard sink - surface
    cabinet fridge - container
    espresso_machine air_compressor - appliance
    bike carryable - item
    tool part wheel key cup lubricant consumable - carryable)

  (:predicates
    ; where things are
    (robot_at ?r - robot ?room - room)
    (person_at ?p - person ?room - room)
    (fixture_in ?f - fixture ?room - room)
    (placed_on ?i - carryable ?s - surface)
    (stored_in ?i - carryable ?c - container)
    (held_by ?i - item ?p - person)
    (in_gripper ?i - carryable ?r - robot)
    (gripper_free ?r - robot)
    (mounted_on ?b - bike ?s - repair_stand)
    (parked_at ?b - bike ?k - bike_rack)
    (fitted_to ?w - wheel ?b - bike)
    ; the building
    (connects ?d - door ?room - room)
    (key_fits ?k - key ?d - door)
    (door_open ?d - door)
    (door_locked ?d - door)
    (lights_on ?room - room)
    (container_locked ?c - container)
    ; machines, bikes and cups
    (switched_on ?a - appliance)
    (out_of_order ?a - appliance)
    (tyres_inflated ?b - bike)
    (chain_oiled ?b - bike)
    (wheel_trued ?w - wheel)
    (cup_full ?c - cup)
    (cup_clean ?c - cup)
    (owned_by ?i - item ?p - person))

  ; ---------------------------------------------------------------- doors, moving, lights
  (:action go_through
    :parameters (?r - robot ?d - door ?from - room ?to - room)
    :precondition (and (robot_at ?r ?from) (connects ?d ?from) (connects ?d ?to)
                       (door_open ?d))
    :effect (and (not (robot_at ?r ?from)) (robot_at ?r ?to)))

  (:action open_door
    :parameters (?r - robot ?d - door ?room - room)
    :precondition (and (robot_at ?r ?room) (connects ?d ?room) (not (door_open ?d))
                       (not (door_locked ?d)))
    :effect (door_open ?d))

  (:action close_door
    :parameters (?r - robot ?d - door ?room - room)
    :precondition (and (robot_at ?r ?room) (connects ?d ?room) (door_open ?d))
    :effect (not (door_open ?d)))

  (:action unlock_door
    :parameters (?r - robot ?k - key ?d - door ?room - room)
    :precondition (and (robot_at ?r ?room) (connects ?d ?room) (door_locked ?d)
                       (in_gripper ?k ?r) (key_fits ?k ?d))
    :effect (not (door_locked ?d)))

  (:action lock_door
    :parameters (?r - robot ?k - key ?d - door ?room - room)
    :precondition (and (robot_at ?r ?room) (connects ?d ?room) (not (door_locked ?d))
                       (not (door_open ?d)) (in_gripper ?k ?r) (key_fits ?k ?d))
    :effect (door_locked ?d))

  (:action switch_on_lights
    :parameters (?r - robot ?room - room)
    :precondition (and (robot_at ?r ?room) (not (lights_on ?room)))
    :effect (lights_on ?room))

  (:action switch_off_lights
    :parameters (?r - robot ?room - room)
    :precondition (and (robot_at ?r ?room) (lights_on ?room))
    :effect (not (lights_on ?room)))

  ; ---------------------------------------------------------------- surfaces
  (:action pick_up
    :parameters (?r - robot ?i - carryable ?s - surface ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?s ?room) (placed_on ?i ?s)
                       (gripper_free ?r))
    :effect (and (not (placed_on ?i ?s)) (not (gripper_free ?r)) (in_gripper ?i ?r)))

  (:action put_down
    :parameters (?r - robot ?i - carryable ?s - surface ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?s ?room) (in_gripper ?i ?r))
    :effect (and (not (in_gripper ?i ?r)) (gripper_free ?r) (placed_on ?i ?s)))

  ; ---------------------------------------------------------------- containers
  (:action take_out
    :parameters (?r - robot ?i - carryable ?c - container ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?c ?room) (stored_in ?i ?c)
                       (not (container_locked ?c)) (gripper_free ?r))
    :effect (and (not (stored_in ?i ?c)) (not (gripper_free ?r)) (in_gripper ?i ?r)))

  (:action put_away
    :parameters (?r - robot ?i - carryable ?c - container ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?c ?room) (in_gripper ?i ?r)
                       (not (container_locked ?c)))
    :effect (and (not (in_gripper ?i ?r)) (gripper_free ?r) (stored_in ?i ?c)))

  (:action lock_container
    :parameters (?r - robot ?c - container ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?c ?room)
                       (not (container_locked ?c)))
    :effect (container_locked ?c))

  (:action unlock_container
    :parameters (?r - robot ?c - container ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?c ?room) (container_locked ?c))
    :effect (not (container_locked ?c)))

  ; ---------------------------------------------------------------- people
  (:action hand_over
    :parameters (?r - robot ?i - carryable ?p - person ?room - room)
    :precondition (and (robot_at ?r ?room) (person_at ?p ?room) (in_gripper ?i ?r))
    :effect (and (not (in_gripper ?i ?r)) (gripper_free ?r) (held_by ?i ?p)))

  (:action take_from_person
    :parameters (?r - robot ?i - carryable ?p - person ?room - room)
    :precondition (and (robot_at ?r ?room) (person_at ?p ?room) (held_by ?i ?p)
                       (gripper_free ?r))
    :effect (and (not (held_by ?i ?p)) (not (gripper_free ?r)) (in_gripper ?i ?r)))

  ; ---------------------------------------------------------------- appliances and bikes
  (:action switch_on_appliance
    :parameters (?r - robot ?a - appliance ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?a ?room) (not (switched_on ?a))
                       (not (out_of_order ?a)))
    :effect (switched_on ?a))

  (:action switch_off_appliance
    :parameters (?r - robot ?a - appliance ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?a ?room) (switched_on ?a))
    :effect (not (switched_on ?a)))

  (:action inflate_tyres
    :parameters (?r - robot ?b - bike ?s - repair_stand ?a - air_compressor ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?s ?room) (fixture_in ?a ?room)
                       (mounted_on ?b ?s) (switched_on ?a) (not (tyres_inflated ?b)))
    :effect (tyres_inflated ?b))

  (:action oil_chain
    :parameters (?r - robot ?b - bike ?s - repair_stand ?l - lubricant ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?s ?room) (mounted_on ?b ?s)
                       (in_gripper ?l ?r) (not (chain_oiled ?b)))
    :effect (chain_oiled ?b))

  ; ---------------------------------------------------------------- cafe
  (:action fill_cup
    :parameters (?r - robot ?c - cup ?s - counter ?m - espresso_machine ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?s ?room) (fixture_in ?m ?room)
                       (placed_on ?c ?s) (switched_on ?m) (cup_clean ?c)
                       (not (cup_full ?c)) (gripper_free ?r))
    :effect (cup_full ?c))

  (:action wash_cup
    :parameters (?r - robot ?c - cup ?s - sink ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?s ?room) (placed_on ?c ?s)
                       (not (cup_full ?c)) (not (cup_clean ?c)) (gripper_free ?r))
    :effect (cup_clean ?c))

  (:action tip_out_cup
    :parameters (?r - robot ?c - cup ?s - sink ?room - room)
    :precondition (and (robot_at ?r ?room) (fixture_in ?s ?room) (placed_on ?c ?s)
                       (cup_full ?c) (gripper_free ?r))
    :effect (and (not (cup_full ?c)) (not (cup_clean ?c))))
)
