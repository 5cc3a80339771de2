; Neighbourhood bistro: a helper robot runs plates, glasses and stock around a small
; restaurant during a weekday lunch service (the dining room with its numbered tables, the
; bar, the terrace, the kitchen with its pass, the dish pit, the back corridor with the
; walk-in freezer, the dry store, the office and the bin yard behind the back door)
; (blind evaluation domain for l3mp_ros).
;
; Modelling choices:
;
; * There is a single robot (type `robot`, `platebot` in the KG); each action takes it as
;   ?r, first. Its one gripper is modelled by the flag (gripper_empty ?r): every action
;   that grasps an item consumes the flag, every action that lets go of one restores it.
;   A constraint rule caps the gripper at one item; that the flag and the in_gripper facts
;   agree is left to the actions (see domain.constraints.yaml).
; * All item locations are binary facts whose first argument is the item, so a single
;   "exactly one place" rule covers them:
;     (rests_on ?i ?s)     on a surface: a dining table, a counter (the bar, the server
;                          station, the prep counter, the office desk), a shelf or rack,
;                          or the delivery pallet in the bin yard;
;     (on_pass ?d ?p)      a plated dish waiting on the pass between kitchen and floor
;                          (the pass holds dishes only);
;     (stored_in ?i ?c)    in a cabinet: the walk-in fridge, the walk-in freezer, the wine
;                          cabinet or the office safe;
;     (loaded_in ?t ?w)    plates, glasses or trays racked in the dishwasher;
;     (held_by ?i ?p)      in a person's hands (or pocket);
;     (in_gripper ?i ?r)   in the robot's gripper.
;   A stack or set of plates or glasses used together is one entity (`side_plates`,
;   `wine_glasses`); a dish stands for the food and the plate it is served on.
; * Areas are joined two ways. Doors are objects: (door_joins ?d ?area) is listed once for
;   each of the two areas a door connects, and go_through_door needs both and an open
;   door. The dining room and the bar, the kitchen and the dish pit, and the kitchen and
;   the back corridor are open to each other: (open_to ?a ?b), listed in both directions,
;   lets the robot walk across. Doors are only open or shut.
; * The wine cabinet and the office safe lock with a key: the robot locks or unlocks one
;   only with the matching key ((key_fits ?k ?c)) in its gripper. A cabinet with no key
;   (the walk-ins) is never locked. While a cabinet is locked nothing goes in or comes out.
; * Service: a chef calls a dish ready ((order_ready ?d)) while it sits on the pass; the
;   robot collects only a ready dish from the pass, and a collected dish is no longer
;   waiting. (ordered_by ?i ?p) records which diner ordered a dish or a drink.
; * Tables: (seated_at ?p ?t) for a diner sitting at a dining table, (table_laid ?t) once
;   it is set for the next guests (the robot lays one by putting a clean plate on it),
;   (reserved ?t) for a booking. (bill_paid ?p) means the diner's bill is settled, by them
;   or by whoever paid for their table; the robot can take a card payment at the table
;   with a card reader.
; * Appliances (ovens, the fryer, the dishwasher, the coffee machine, the music, the patio
;   heater) are fixtures switched on or off where they are installed ((switched_on ?x));
;   one that is out of order ((out_of_order ?x)) cannot be switched on. Tableware is dirty
;   or clean ((dirty ?t)); the robot loads the dishwasher while it is off, and a running
;   dishwasher washes what is loaded in it.
; * Where people are (person_in), who sits where (seated_at), which dishes are ready
;   (order_ready), what is booked (reserved), what breaks down (out_of_order) and what
;   people eat, drink, carry, put down, use up or get dirty are never changed by the
;   robot's actions except as listed: reports update these facts. People move about,
;   diners sit down, get up and pay, chefs plate up and call dishes ready, staff open and
;   lock cabinets and hand things to each other. The robot gives items to, and takes them
;   from, people in its area.
; * (belongs_to ?i ?p) records an item's owner (a server's tray, a diner's umbrella, the
;   manager's phone).
;
; Facts no action changes: door_joins, open_to, key_fits, installed_in, ordered_by,
; belongs_to.

(define (domain bistro)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    area person fixture item robot door - object
    front_of_house back_of_house outdoor_area - area
    chef kitchen_porter server manager driver diner - person
    surface pass cabinet appliance - fixture
    dining_table counter shelf - surface
    oven fryer dishwasher - appliance
    dish drink tableware stock equipment cabinet_key belonging - item
    plate glass - tableware
    card_reader - equipment)

  (:predicates
    ; where people and things are
    (robot_in ?r - robot ?a - area)
    (person_in ?p - person ?a - area)
    (installed_in ?f - fixture ?a - area)
    (rests_on ?i - item ?s - surface)
    (on_pass ?d - dish ?p - pass)
    (stored_in ?i - item ?c - cabinet)
    (loaded_in ?t - tableware ?w - dishwasher)
    (held_by ?i - item ?p - person)
    (in_gripper ?i - item ?r - robot)
    (gripper_empty ?r - robot)
    ; the building
    (door_joins ?d - door ?a - area)
    (open_to ?a - area ?b - area)
    (door_open ?d - door)
    (cabinet_locked ?c - cabinet)
    (key_fits ?k - cabinet_key ?c - cabinet)
    ; kitchen and appliances
    (switched_on ?x - appliance)
    (out_of_order ?x - appliance)
    (dirty ?t - tableware)
    (order_ready ?d - dish)
    ; tables and diners
    (seated_at ?p - diner ?t - dining_table)
    (table_laid ?t - dining_table)
    (reserved ?t - dining_table)
    (bill_paid ?p - diner)
    (ordered_by ?i - item ?p - diner)
    ; ownership
    (belongs_to ?i - item ?p - person))

  ; ---------------------------------------------------------------- moving, doors
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
    :precondition (and (robot_in ?r ?a) (door_joins ?d ?a) (not (door_open ?d)))
    :effect (door_open ?d))

  (:action close_door
    :parameters (?r - robot ?d - door ?a - area)
    :precondition (and (robot_in ?r ?a) (door_joins ?d ?a) (door_open ?d))
    :effect (not (door_open ?d)))

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

  ; ---------------------------------------------------------------- the pass
  (:action collect_from_pass
    :parameters (?r - robot ?d - dish ?p - pass ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?p ?a) (on_pass ?d ?p)
                       (order_ready ?d) (gripper_empty ?r))
    :effect (and (not (on_pass ?d ?p)) (not (order_ready ?d)) (not (gripper_empty ?r))
                 (in_gripper ?d ?r)))

  (:action put_on_pass
    :parameters (?r - robot ?d - dish ?p - pass ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?p ?a) (in_gripper ?d ?r))
    :effect (and (not (in_gripper ?d ?r)) (gripper_empty ?r) (on_pass ?d ?p)))

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

  (:action unlock_cabinet
    :parameters (?r - robot ?k - cabinet_key ?c - cabinet ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?c ?a) (cabinet_locked ?c)
                       (in_gripper ?k ?r) (key_fits ?k ?c))
    :effect (not (cabinet_locked ?c)))

  (:action lock_cabinet
    :parameters (?r - robot ?k - cabinet_key ?c - cabinet ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?c ?a) (not (cabinet_locked ?c))
                       (in_gripper ?k ?r) (key_fits ?k ?c))
    :effect (cabinet_locked ?c))

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

  ; ---------------------------------------------------------------- dishwasher
  (:action load_dishwasher
    :parameters (?r - robot ?t - tableware ?w - dishwasher ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?w ?a) (in_gripper ?t ?r)
                       (not (switched_on ?w)))
    :effect (and (not (in_gripper ?t ?r)) (gripper_empty ?r) (loaded_in ?t ?w)))

  (:action unload_dishwasher
    :parameters (?r - robot ?t - tableware ?w - dishwasher ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?w ?a) (loaded_in ?t ?w)
                       (not (switched_on ?w)) (gripper_empty ?r))
    :effect (and (not (loaded_in ?t ?w)) (not (gripper_empty ?r)) (in_gripper ?t ?r)))

  (:action wash_load
    :parameters (?r - robot ?t - tableware ?w - dishwasher ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?w ?a) (loaded_in ?t ?w)
                       (switched_on ?w) (dirty ?t))
    :effect (not (dirty ?t)))

  ; ---------------------------------------------------------------- appliances
  (:action switch_on
    :parameters (?r - robot ?x - appliance ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?x ?a) (not (switched_on ?x))
                       (not (out_of_order ?x)))
    :effect (switched_on ?x))

  (:action switch_off
    :parameters (?r - robot ?x - appliance ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?x ?a) (switched_on ?x))
    :effect (not (switched_on ?x)))

  ; ---------------------------------------------------------------- tables
  (:action lay_table
    :parameters (?r - robot ?t - dining_table ?p - plate ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?t ?a) (in_gripper ?p ?r)
                       (not (dirty ?p)) (not (table_laid ?t)))
    :effect (and (not (in_gripper ?p ?r)) (gripper_empty ?r) (rests_on ?p ?t)
                 (table_laid ?t)))

  (:action take_payment
    :parameters (?r - robot ?c - card_reader ?p - diner ?t - dining_table ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?t ?a) (in_gripper ?c ?r)
                       (seated_at ?p ?t) (not (bill_paid ?p)))
    :effect (bill_paid ?p))
)
