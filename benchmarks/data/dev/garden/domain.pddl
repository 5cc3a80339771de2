; Community garden: a helper robot fetches, carries, waters and tidies on a community
; garden site with allotment plots, a greenhouse, a polytunnel, a potting shed, a tool store,
; a compost area and a small clubhouse with a kitchen (public development evaluation
; domain for l3mp_ros).
;
; Modelling choices:
;
; * There is a single robot (type `robot`, `gardenbot` in the KG); each action takes it as
;   ?r, first. Its one gripper is modelled by the flag (gripper_empty ?r): every action
;   that grasps an item consumes the flag, every action that lets go of one restores it.
;   A constraint rule caps the gripper at one item; that the flag and the in_gripper facts
;   agree is left to the actions (see domain.constraints.yaml).
; * All item locations are binary facts whose first argument is the item, so a single
;   "exactly one place" rule covers them:
;     (rests_on ?i ?s)       on a surface: a bench, a shelf or a table (the kitchen
;                            counter counts as a table);
;     (hangs_on ?i ?k)       on a rack: the tool rack, the hooks in the potting shed, the
;                            hose reel;
;     (stored_in ?i ?c)      inside a cupboard or box (seed cupboard, key box, kitchen
;                            cupboard); none of them is locked, so they have no lock state;
;     (in_propagator ?p ?g)  a plant (usually a seed tray) inside the heated propagator;
;     (planted_in ?p ?b)     a plant planted out in a bed (a plot's bed, the greenhouse
;                            border, the polytunnel bed);
;     (held_by ?i ?p)        in a person's hands;
;     (in_gripper ?i ?r)     in the robot's gripper.
;   A seed tray or a pot stands for the plants in it; planting out moves that plant
;   entity into the bed. New trays or pots (sowing, potting on) are new entities, which a
;   report cannot make.
; * Areas are joined two ways. Doors and gates are objects (type `door`, gates a subtype):
;   (door_joins ?d ?area) is listed once for each of the two areas a door connects, and
;   go_through_door needs both and an open door. The main path, the open plots, the
;   compost area and the polytunnel (open at both ends) have no doors between them:
;   (path_to ?a ?b), listed in both directions, lets the robot walk along.
; * A locked door counts as closed. The robot locks or unlocks one only with the matching
;   key ((key_fits ?k ?d)) in its gripper, so a route through a locked door starts by
;   fetching the key (spare keys live in the key box in the clubhouse).
; * Appliances are fixtures switched on and off where they are installed: the lights,
;   the greenhouse propagator and the clubhouse kettle (plugged in on the kitchen counter,
;   so it is not carried about) share (switched_on ?x).
; * Water: a tap runs while (tap_on ?t); a water butt holds rain water unless
;   (butt_empty ?b). The robot fills a watering can held in its gripper at a running tap
;   or at a butt that is not empty, and never a broken one ((broken ?t), any tool). A full
;   can ((can_full ?c)) waters one plant or one seed tray, on a surface or in a bed, and is
;   empty afterwards; watering makes (watered ?p) true.
; * (sprouted ?p) marks seedlings that have come up and (harvested ?p) a crop that has
;   been picked from; only reports set or clear them, as they do (butt_empty ?b) and
;   (broken ?t).
; * Where people are (person_in) is never changed by the robot's actions: only reports
;   update it. People may also carry things, plant things out and water things; reports
;   say so. The robot gives items to, and takes them from, people in its area.
; * (belongs_to ?i ?p) records an item's owner (a plot holder's spade, a volunteer's flask).
;
; Facts no action changes: door_joins, path_to, key_fits, installed_in, belongs_to.

(define (domain community_garden)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    area person fixture item robot door - object
    outdoor_area plot glasshouse building - area
    volunteer plot_holder warden - person
    surface rack cabinet bed appliance tap water_butt - fixture
    bench shelf table - surface
    light propagator kettle - appliance
    gate - door
    plant tool key belonging supply - item
    seed_tray crop_plant - plant
    watering_can - tool)

  (:predicates
    ; where things and people are
    (robot_in ?r - robot ?a - area)
    (person_in ?p - person ?a - area)
    (installed_in ?f - fixture ?a - area)
    (rests_on ?i - item ?s - surface)
    (hangs_on ?i - item ?k - rack)
    (stored_in ?i - item ?c - cabinet)
    (in_propagator ?p - plant ?g - propagator)
    (planted_in ?p - plant ?b - bed)
    (held_by ?i - item ?p - person)
    (in_gripper ?i - item ?r - robot)
    (gripper_empty ?r - robot)
    ; the site
    (door_joins ?d - door ?a - area)
    (path_to ?a - area ?b - area)
    (key_fits ?k - key ?d - door)
    (door_open ?d - door)
    (door_locked ?d - door)
    ; appliances and water
    (switched_on ?x - appliance)
    (tap_on ?t - tap)
    (butt_empty ?b - water_butt)
    (can_full ?c - watering_can)
    (broken ?t - tool)
    ; plants
    (watered ?p - plant)
    (sprouted ?p - plant)
    (harvested ?p - plant)
    ; ownership
    (belongs_to ?i - item ?p - person))

  ; ---------------------------------------------------------------- moving and doors
  (:action go_through_door
    :parameters (?r - robot ?d - door ?from - area ?to - area)
    :precondition (and (robot_in ?r ?from) (door_joins ?d ?from) (door_joins ?d ?to)
                       (door_open ?d))
    :effect (and (not (robot_in ?r ?from)) (robot_in ?r ?to)))

  (:action walk_path
    :parameters (?r - robot ?from - area ?to - area)
    :precondition (and (robot_in ?r ?from) (path_to ?from ?to))
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
    :parameters (?r - robot ?k - key ?d - door ?a - area)
    :precondition (and (robot_in ?r ?a) (door_joins ?d ?a) (door_locked ?d)
                       (in_gripper ?k ?r) (key_fits ?k ?d))
    :effect (not (door_locked ?d)))

  (:action lock_door
    :parameters (?r - robot ?k - key ?d - door ?a - area)
    :precondition (and (robot_in ?r ?a) (door_joins ?d ?a) (not (door_locked ?d))
                       (not (door_open ?d)) (in_gripper ?k ?r) (key_fits ?k ?d))
    :effect (door_locked ?d))

  ; ---------------------------------------------------------------- appliances
  (:action switch_on
    :parameters (?r - robot ?x - appliance ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?x ?a) (not (switched_on ?x)))
    :effect (switched_on ?x))

  (:action switch_off
    :parameters (?r - robot ?x - appliance ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?x ?a) (switched_on ?x))
    :effect (not (switched_on ?x)))

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

  ; ---------------------------------------------------------------- racks
  (:action take_off_rack
    :parameters (?r - robot ?i - item ?k - rack ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?k ?a) (hangs_on ?i ?k)
                       (gripper_empty ?r))
    :effect (and (not (hangs_on ?i ?k)) (not (gripper_empty ?r)) (in_gripper ?i ?r)))

  (:action hang_on_rack
    :parameters (?r - robot ?i - item ?k - rack ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?k ?a) (in_gripper ?i ?r))
    :effect (and (not (in_gripper ?i ?r)) (gripper_empty ?r) (hangs_on ?i ?k)))

  ; ---------------------------------------------------------------- cupboards
  (:action take_out_of_cabinet
    :parameters (?r - robot ?i - item ?c - cabinet ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?c ?a) (stored_in ?i ?c)
                       (gripper_empty ?r))
    :effect (and (not (stored_in ?i ?c)) (not (gripper_empty ?r)) (in_gripper ?i ?r)))

  (:action put_into_cabinet
    :parameters (?r - robot ?i - item ?c - cabinet ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?c ?a) (in_gripper ?i ?r))
    :effect (and (not (in_gripper ?i ?r)) (gripper_empty ?r) (stored_in ?i ?c)))

  ; ---------------------------------------------------------------- propagator
  (:action take_out_of_propagator
    :parameters (?r - robot ?p - plant ?g - propagator ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?g ?a) (in_propagator ?p ?g)
                       (gripper_empty ?r))
    :effect (and (not (in_propagator ?p ?g)) (not (gripper_empty ?r)) (in_gripper ?p ?r)))

  (:action put_in_propagator
    :parameters (?r - robot ?p - plant ?g - propagator ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?g ?a) (in_gripper ?p ?r))
    :effect (and (not (in_gripper ?p ?r)) (gripper_empty ?r) (in_propagator ?p ?g)))

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

  ; ---------------------------------------------------------------- water
  (:action turn_tap_on
    :parameters (?r - robot ?t - tap ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?t ?a) (not (tap_on ?t)))
    :effect (tap_on ?t))

  (:action turn_tap_off
    :parameters (?r - robot ?t - tap ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?t ?a) (tap_on ?t))
    :effect (not (tap_on ?t)))

  (:action fill_can_at_tap
    :parameters (?r - robot ?c - watering_can ?t - tap ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?t ?a) (tap_on ?t)
                       (in_gripper ?c ?r) (not (can_full ?c)) (not (broken ?c)))
    :effect (can_full ?c))

  (:action fill_can_at_butt
    :parameters (?r - robot ?c - watering_can ?b - water_butt ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?b ?a) (not (butt_empty ?b))
                       (in_gripper ?c ?r) (not (can_full ?c)) (not (broken ?c)))
    :effect (can_full ?c))

  (:action water_plant_on_surface
    :parameters (?r - robot ?c - watering_can ?p - plant ?s - surface ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?s ?a) (rests_on ?p ?s)
                       (in_gripper ?c ?r) (can_full ?c))
    :effect (and (not (can_full ?c)) (watered ?p)))

  (:action water_plant_in_bed
    :parameters (?r - robot ?c - watering_can ?p - plant ?b - bed ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?b ?a) (planted_in ?p ?b)
                       (in_gripper ?c ?r) (can_full ?c))
    :effect (and (not (can_full ?c)) (watered ?p)))
)
