; Theatre backstage: a stage-hand robot fetches, returns, hangs up and tidies behind the
; scenes of a playhouse during a run of Hamlet (public development evaluation domain for
; l3mp_ros).
;
; Modelling choices:
;
; * There is a single robot (type `robot`, `stagebot` in the KG); each action takes it as
;   ?r, first. Its one gripper is modelled by the flag (gripper_empty ?r): every action
;   that grasps an item consumes the flag, every action that lets go of one restores it.
;   A constraint rule caps the gripper at one item; that the flag and the in_gripper facts
;   agree is left to the actions (see domain.constraints.yaml).
; * All item locations are binary facts whose first argument is the item, so a single
;   "exactly one place" rule covers them:
;     (rests_on ?i ?s)    on a surface: prop table, shelf, dressing table, desk or table;
;     (hangs_on ?c ?k)    a costume on a costume rail;
;     (stored_in ?i ?c)   inside a cabinet (weapons locker, key safe, wardrobe cupboard);
;     (held_by ?i ?p)     in a person's hands;
;     (worn_by ?c ?p)     a costume (garment or headwear) a person has on;
;     (in_gripper ?i ?r)  in the robot's gripper.
; * Areas are joined two ways. Doors are objects: (door_joins ?d ?area) is listed once for
;   each of the two areas a door connects, and go_through_door needs both and an open door.
;   The stage and the two wings have no doors between them: (open_to ?a ?b), listed in
;   both directions, lets the robot walk across.
; * A locked door counts as closed. The robot locks or unlocks one only with the matching
;   key ((key_fits ?k ?d)) in its gripper, so a route through a locked door starts by
;   fetching the key. Cabinets have combination padlocks the robot knows, so no key is
;   involved; while a cabinet is locked nothing goes in or comes out.
; * Lights are fixtures ((lit ?l)): work lights, the ghost light, the follow spot, the
;   mirror lights and a lamp. The robot switches one where it is installed, but never one
;   whose bulb has blown ((blown ?l), set and cleared by reports alone).
; * Fly bars are worked from the fly gallery: (bar_lowered ?b) means the scenery on that
;   bar has been flown in to the stage.
; * Radios and torches are devices: a device charges while it lies on a surface with a
;   charger ((has_charger ?s)), and the robot switches one on or off while it holds it.
;   Only a charged device can be on.
; * Where people are (person_in), which chair they sit on (seated_on) and what costume
;   they wear (worn_by) are never changed by the robot's actions: only reports update
;   these facts. The robot gives items to, and takes them from, people in its area.
; * (belongs_to ?i ?p) records an item's owner (an actor's costume, a technician's radio).
;
; Facts no action changes: door_joins, open_to, key_fits, installed_in, has_charger,
; belongs_to.

(define (domain theatre_backstage)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    area person fixture item robot door - object
    stage wing dressing_room backstage_room - area
    actor stage_manager technician - person
    surface costume_rail cabinet chair light fly_bar - fixture
    prop_table shelf dressing_table desk table - surface
    costume prop device door_key belonging - item
    garment headwear - costume
    radio torch - device)

  (:predicates
    ; where things and people are
    (robot_in ?r - robot ?a - area)
    (person_in ?p - person ?a - area)
    (installed_in ?f - fixture ?a - area)
    (rests_on ?i - item ?s - surface)
    (hangs_on ?c - costume ?k - costume_rail)
    (stored_in ?i - item ?c - cabinet)
    (held_by ?i - item ?p - person)
    (worn_by ?c - costume ?p - person)
    (in_gripper ?i - item ?r - robot)
    (gripper_empty ?r - robot)
    (seated_on ?p - person ?c - chair)
    ; the building
    (door_joins ?d - door ?a - area)
    (open_to ?a - area ?b - area)
    (key_fits ?k - door_key ?d - door)
    (door_open ?d - door)
    (door_locked ?d - door)
    (cabinet_locked ?c - cabinet)
    (has_charger ?s - surface)
    ; lights, flys and devices
    (lit ?l - light)
    (blown ?l - light)
    (bar_lowered ?b - fly_bar)
    (charged ?d - device)
    (switched_on ?d - device)
    ; ownership
    (belongs_to ?i - item ?p - person))

  ; ---------------------------------------------------------------- moving, doors, lights
  (:action go_through_door
    :parameters (?r - robot ?d - door ?from - area ?to - area)
    :precondition (and (robot_in ?r ?from) (door_joins ?d ?from) (door_joins ?d ?to)
                       (door_open ?d))
    :effect (and (not (robot_in ?r ?from)) (robot_in ?r ?to)))

  (:action walk_across
    :parameters (?r - robot ?from - area ?to - area)
    :precondition (and (robot_in ?r ?from) (open_to ?from ?to))
    :effect (and (not (robot_in ?r ?from)) (robot_in ?r ?to)))

  (:action open_door
    :parameters (?r - robot ?d - door ?a - area)
    :precondition (and (robot_in ?r ?a) (door_joins ?d ?a) (not (door_open ?d))
                       (not (door_locked ?d)))
    :effect (door_open ?d))

  (:action close_door
    :parameters (?r - robot ?d - door ?a - area)
    :precondition (and (robot_in ?r ?a) (door_joins ?d ?a) (door_open ?d))
    :effect (not (door_open ?d)))

  (:action unlock_door
    :parameters (?r - robot ?k - door_key ?d - door ?a - area)
    :precondition (and (robot_in ?r ?a) (door_joins ?d ?a) (door_locked ?d)
                       (in_gripper ?k ?r) (key_fits ?k ?d))
    :effect (not (door_locked ?d)))

  (:action lock_door
    :parameters (?r - robot ?k - door_key ?d - door ?a - area)
    :precondition (and (robot_in ?r ?a) (door_joins ?d ?a) (not (door_locked ?d))
                       (not (door_open ?d)) (in_gripper ?k ?r) (key_fits ?k ?d))
    :effect (door_locked ?d))

  (:action switch_light_on
    :parameters (?r - robot ?l - light ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?l ?a) (not (lit ?l))
                       (not (blown ?l)))
    :effect (lit ?l))

  (:action switch_light_off
    :parameters (?r - robot ?l - light ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?l ?a) (lit ?l))
    :effect (not (lit ?l)))

  ; ---------------------------------------------------------------- surfaces
  (:action pick_up
    :parameters (?r - robot ?i - item ?s - surface ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?s ?a) (rests_on ?i ?s)
                       (gripper_empty ?r))
    :effect (and (not (rests_on ?i ?s)) (not (gripper_empty ?r)) (in_gripper ?i ?r)))

  (:action put_down
    :parameters (?r - robot ?i - item ?s - surface ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?s ?a) (in_gripper ?i ?r))
    :effect (and (not (in_gripper ?i ?r)) (gripper_empty ?r) (rests_on ?i ?s)))

  ; ---------------------------------------------------------------- costume rails
  (:action take_off_rail
    :parameters (?r - robot ?c - costume ?k - costume_rail ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?k ?a) (hangs_on ?c ?k)
                       (gripper_empty ?r))
    :effect (and (not (hangs_on ?c ?k)) (not (gripper_empty ?r)) (in_gripper ?c ?r)))

  (:action hang_on_rail
    :parameters (?r - robot ?c - costume ?k - costume_rail ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?k ?a) (in_gripper ?c ?r))
    :effect (and (not (in_gripper ?c ?r)) (gripper_empty ?r) (hangs_on ?c ?k)))

  ; ---------------------------------------------------------------- cabinets
  (:action take_out_of_cabinet
    :parameters (?r - robot ?i - item ?c - cabinet ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?c ?a) (stored_in ?i ?c)
                       (not (cabinet_locked ?c)) (gripper_empty ?r))
    :effect (and (not (stored_in ?i ?c)) (not (gripper_empty ?r)) (in_gripper ?i ?r)))

  (:action put_into_cabinet
    :parameters (?r - robot ?i - item ?c - cabinet ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?c ?a) (in_gripper ?i ?r)
                       (not (cabinet_locked ?c)))
    :effect (and (not (in_gripper ?i ?r)) (gripper_empty ?r) (stored_in ?i ?c)))

  (:action lock_cabinet
    :parameters (?r - robot ?c - cabinet ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?c ?a) (not (cabinet_locked ?c)))
    :effect (cabinet_locked ?c))

  (:action unlock_cabinet
    :parameters (?r - robot ?c - cabinet ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?c ?a) (cabinet_locked ?c))
    :effect (not (cabinet_locked ?c)))

  ; ---------------------------------------------------------------- people
  (:action give_to_person
    :parameters (?r - robot ?i - item ?p - person ?a - area)
    :precondition (and (robot_in ?r ?a) (person_in ?p ?a) (in_gripper ?i ?r))
    :effect (and (not (in_gripper ?i ?r)) (gripper_empty ?r) (held_by ?i ?p)))

  (:action take_from_person
    :parameters (?r - robot ?i - item ?p - person ?a - area)
    :precondition (and (robot_in ?r ?a) (person_in ?p ?a) (held_by ?i ?p)
                       (gripper_empty ?r))
    :effect (and (not (held_by ?i ?p)) (not (gripper_empty ?r)) (in_gripper ?i ?r)))

  ; ---------------------------------------------------------------- fly bars
  (:action fly_in_bar
    :parameters (?r - robot ?b - fly_bar ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?b ?a) (not (bar_lowered ?b)))
    :effect (bar_lowered ?b))

  (:action fly_out_bar
    :parameters (?r - robot ?b - fly_bar ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?b ?a) (bar_lowered ?b))
    :effect (not (bar_lowered ?b)))

  ; ---------------------------------------------------------------- devices
  (:action charge_device
    :parameters (?r - robot ?d - device ?s - surface ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?s ?a) (rests_on ?d ?s)
                       (has_charger ?s) (not (charged ?d)))
    :effect (charged ?d))

  (:action switch_device_on
    :parameters (?r - robot ?d - device)
    :precondition (and (in_gripper ?d ?r) (charged ?d) (not (switched_on ?d)))
    :effect (switched_on ?d))

  (:action switch_device_off
    :parameters (?r - robot ?d - device)
    :precondition (and (in_gripper ?d ?r) (switched_on ?d))
    :effect (not (switched_on ?d)))
)
