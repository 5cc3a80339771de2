; Retained fire station: a helper robot fetches, carries, stows and hands over kit at a
; small part-time (on-call) fire station on a Monday drill night (the appliance bay with
; two pumps and a rescue van, the hose drying tower, the kit room, the watch room with the
; radio desk and the key cabinet, the mess room with its kitchen, the office; outside the
; forecourt, the yard and the training ground) (public development evaluation domain for
; l3mp_ros).
;
; Modelling choices:
;
; * There is a single robot (type `robot`, `stationbot` in the KG); each action takes it
;   as ?r, first. It has one hand, modelled by the flag (hand_empty ?r): every action that
;   grasps an item consumes the flag, every action that lets go of one restores it, and
;   pushing a trolley needs the hand free. A constraint rule caps the hand at one item;
;   that the flag and the grasped_by facts agree is left to the actions (see
;   domain.constraints.yaml).
; * All item locations are binary facts whose first argument is the item, so a single
;   "exactly one place" rule covers them:
;     (sits_on ?x ?u)        on a support: a bench, desk, table, worktop, shelf or rack;
;     (hanging_from ?x ?h)   on a hook: the kit pegs, the drying tower's hose hooks, the
;                            key cabinet, the coat hooks, the mug hooks;
;     (stowed_in ?x ?l)      in a locker: a firefighter's kit locker in the kit room, or
;                            one of the lockers built into a pump or the rescue van;
;     (fitted_to ?c ?b)      a breathing apparatus (BA) cylinder fitted to a BA set (the
;                            set is an item itself: the cylinder goes wherever the set is
;                            taken);
;     (on_charge ?x ?c)      a radio, torch or camera standing in a charger;
;     (on_trolley ?x ?t)     on a trolley;
;     (carried_by ?x ?p)     in a person's hands (or worn, or in a pocket);
;     (grasped_by ?x ?r)     in the robot's hand.
; * Trolleys (the kit trolley, the hose barrow) are `portable` but not items: the robot
;   pushes them and never lifts one. It pushes a trolley through an open doorway or across
;   an open boundary with its load aboard (on_trolley does not change).
; * Spaces are joined two ways. A doorway, an ordinary door or a roller shutter of the
;   appliance bay, is an object listed with (leads_to ?d ?s) for each of its two spaces,
;   and the robot passes only while it is open; the mess room and its kitchen, and the
;   forecourt, the yard and the training ground, are open to each other: (adjoins ?a ?b),
;   listed in both directions. Nothing is locked on a drill night, so doorways are only
;   open or shut, and the robot opens and shuts doors and shutters alike.
; * Vehicles (two pumps and the rescue van) are not fixtures: crews drive them, so only
;   reports change (vehicle_at ?v ?s). A vehicle's lockers are fixed to it
;   ((locker_on ?l ?v), never changed), so what is stowed in them goes with the vehicle,
;   and the robot reaches them wherever the vehicle stands. Kit lockers stand in the kit
;   room (fixture_at). Lockers have no locks and no flag for their doors: kit is stowed
;   and taken out at once.
; * A BA set takes one cylinder. The robot fits a cylinder, or takes one off, only while
;   the set sits on a support in its space (the BA bench, normally); that a set has no
;   other cylinder is a constraint rule, not a precondition (STRIPS cannot ask "no
;   cylinder fitted" without one more flag).
; * Electrical fixtures (the bay lights, the drying tower heater, the mess heater, the
;   yard floodlight and the radio and torch chargers) are switched on and off where they
;   are installed ((turned_on ?e)). A radio, torch or camera left in a
;   charger that is switched on can be charged ((charged ?x)); the robot waits for it.
; * Where people are (present_in), where vehicles are (vehicle_at), whether a cylinder is
;   full, a BA set has passed its test, a hose is wet or rolled, a checklist, logbook or
;   form has been signed, a piece of fire kit is dirty, and a battery that goes flat, are
;   never changed by the robot's actions: only reports update these facts. People also
;   carry, hang, stow, fit cylinders and push trolleys; reports say so. The robot gives
;   items to, and takes them from, people in its space.
; * (property_of ?x ?p) records an owner: a firefighter's helmet, tunic, leggings or kit
;   locker, a person's radio or mug, a visitor's coat or form; the station's kit belongs
;   to nobody. Lockers may be owned, so the owned thing is an object, not just a portable.
;
; Facts no action changes: leads_to, adjoins, fixture_at, locker_on, vehicle_at,
; property_of.

(define (domain fire_station)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    space person fixture portable robot doorway vehicle - object
    item trolley - portable
    bay_area station_room outdoor_area - space
    watch_manager crew_manager firefighter support_staff visitor - person
    support hook locker electrical - fixture
    kit_locker vehicle_locker - locker
    charger - electrical
    door roller_shutter - doorway
    fire_engine support_vehicle - vehicle
    ppe ba_set cylinder hose device paperwork gear - item)

  (:predicates
    ; where people, vehicles, trolleys and things are
    (robot_location ?r - robot ?s - space)
    (present_in ?p - person ?s - space)
    (fixture_at ?f - fixture ?s - space)
    (vehicle_at ?v - vehicle ?s - space)
    (locker_on ?l - vehicle_locker ?v - vehicle)
    (trolley_at ?t - trolley ?s - space)
    (sits_on ?x - item ?u - support)
    (hanging_from ?x - item ?h - hook)
    (stowed_in ?x - item ?l - locker)
    (fitted_to ?c - cylinder ?b - ba_set)
    (on_charge ?x - device ?c - charger)
    (on_trolley ?x - item ?t - trolley)
    (carried_by ?x - item ?p - person)
    (grasped_by ?x - item ?r - robot)
    (hand_empty ?r - robot)
    ; the building
    (leads_to ?d - doorway ?s - space)
    (adjoins ?a - space ?b - space)
    (is_open ?d - doorway)
    ; appliances, batteries and the state of the kit
    (turned_on ?e - electrical)
    (charged ?x - device)
    (cylinder_full ?c - cylinder)
    (ba_tested ?b - ba_set)
    (hose_wet ?h - hose)
    (hose_rolled ?h - hose)
    (dirty ?k - ppe)
    (signed ?d - paperwork)
    ; ownership
    (property_of ?x - object ?p - person))

  ; ---------------------------------------------------------------- moving, doors
  (:action pass_through_door
    :parameters (?r - robot ?d - doorway ?from - space ?to - space)
    :precondition (and (robot_location ?r ?from) (leads_to ?d ?from) (leads_to ?d ?to)
                       (is_open ?d))
    :effect (and (not (robot_location ?r ?from)) (robot_location ?r ?to)))

  (:action cross_to
    :parameters (?r - robot ?from - space ?to - space)
    :precondition (and (robot_location ?r ?from) (adjoins ?from ?to))
    :effect (and (not (robot_location ?r ?from)) (robot_location ?r ?to)))

  (:action open_door
    :parameters (?r - robot ?d - doorway ?s - space)
    :precondition (and (robot_location ?r ?s) (leads_to ?d ?s) (not (is_open ?d)))
    :effect (is_open ?d))

  (:action close_door
    :parameters (?r - robot ?d - doorway ?s - space)
    :precondition (and (robot_location ?r ?s) (leads_to ?d ?s) (is_open ?d))
    :effect (not (is_open ?d)))

  ; ---------------------------------------------------------------- trolleys
  (:action wheel_trolley_through
    :parameters (?r - robot ?t - trolley ?d - doorway ?from - space ?to - space)
    :precondition (and (robot_location ?r ?from) (trolley_at ?t ?from) (hand_empty ?r)
                       (leads_to ?d ?from) (leads_to ?d ?to) (is_open ?d))
    :effect (and (not (robot_location ?r ?from)) (robot_location ?r ?to)
                 (not (trolley_at ?t ?from)) (trolley_at ?t ?to)))

  (:action wheel_trolley_across
    :parameters (?r - robot ?t - trolley ?from - space ?to - space)
    :precondition (and (robot_location ?r ?from) (trolley_at ?t ?from) (hand_empty ?r)
                       (adjoins ?from ?to))
    :effect (and (not (robot_location ?r ?from)) (robot_location ?r ?to)
                 (not (trolley_at ?t ?from)) (trolley_at ?t ?to)))

  (:action load_trolley
    :parameters (?r - robot ?x - item ?t - trolley ?s - space)
    :precondition (and (robot_location ?r ?s) (trolley_at ?t ?s) (grasped_by ?x ?r))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (on_trolley ?x ?t)))

  (:action unload_trolley
    :parameters (?r - robot ?x - item ?t - trolley ?s - space)
    :precondition (and (robot_location ?r ?s) (trolley_at ?t ?s) (on_trolley ?x ?t)
                       (hand_empty ?r))
    :effect (and (not (on_trolley ?x ?t)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  ; ---------------------------------------------------------------- supports and hooks
  (:action pick_up
    :parameters (?r - robot ?x - item ?u - support ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?u ?s) (sits_on ?x ?u)
                       (hand_empty ?r))
    :effect (and (not (sits_on ?x ?u)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  (:action set_down
    :parameters (?r - robot ?x - item ?u - support ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?u ?s) (grasped_by ?x ?r))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (sits_on ?x ?u)))

  (:action take_off_hook
    :parameters (?r - robot ?x - item ?h - hook ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?h ?s) (hanging_from ?x ?h)
                       (hand_empty ?r))
    :effect (and (not (hanging_from ?x ?h)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  (:action hang_on_hook
    :parameters (?r - robot ?x - item ?h - hook ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?h ?s) (grasped_by ?x ?r))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (hanging_from ?x ?h)))

  ; ---------------------------------------------------------------- lockers
  (:action take_out_of_locker
    :parameters (?r - robot ?x - item ?l - kit_locker ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?l ?s) (stowed_in ?x ?l)
                       (hand_empty ?r))
    :effect (and (not (stowed_in ?x ?l)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  (:action stow_in_locker
    :parameters (?r - robot ?x - item ?l - kit_locker ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?l ?s) (grasped_by ?x ?r))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (stowed_in ?x ?l)))

  (:action take_out_of_vehicle_locker
    :parameters (?r - robot ?x - item ?l - vehicle_locker ?v - vehicle ?s - space)
    :precondition (and (robot_location ?r ?s) (vehicle_at ?v ?s) (locker_on ?l ?v)
                       (stowed_in ?x ?l) (hand_empty ?r))
    :effect (and (not (stowed_in ?x ?l)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  (:action stow_in_vehicle_locker
    :parameters (?r - robot ?x - item ?l - vehicle_locker ?v - vehicle ?s - space)
    :precondition (and (robot_location ?r ?s) (vehicle_at ?v ?s) (locker_on ?l ?v)
                       (grasped_by ?x ?r))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (stowed_in ?x ?l)))

  ; ---------------------------------------------------------------- BA sets
  (:action fit_cylinder
    :parameters (?r - robot ?c - cylinder ?b - ba_set ?u - support ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?u ?s) (sits_on ?b ?u)
                       (grasped_by ?c ?r))
    :effect (and (not (grasped_by ?c ?r)) (hand_empty ?r) (fitted_to ?c ?b)))

  (:action remove_cylinder
    :parameters (?r - robot ?c - cylinder ?b - ba_set ?u - support ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?u ?s) (sits_on ?b ?u)
                       (fitted_to ?c ?b) (hand_empty ?r))
    :effect (and (not (fitted_to ?c ?b)) (not (hand_empty ?r)) (grasped_by ?c ?r)))

  ; ---------------------------------------------------------------- chargers
  (:action put_on_charge
    :parameters (?r - robot ?x - device ?c - charger ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?c ?s) (grasped_by ?x ?r))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (on_charge ?x ?c)))

  (:action take_off_charge
    :parameters (?r - robot ?x - device ?c - charger ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?c ?s) (on_charge ?x ?c)
                       (hand_empty ?r))
    :effect (and (not (on_charge ?x ?c)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  (:action charge
    :parameters (?r - robot ?x - device ?c - charger ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?c ?s) (on_charge ?x ?c)
                       (turned_on ?c) (not (charged ?x)))
    :effect (charged ?x))

  ; ---------------------------------------------------------------- people
  (:action hand_to
    :parameters (?r - robot ?x - item ?p - person ?s - space)
    :precondition (and (robot_location ?r ?s) (present_in ?p ?s) (grasped_by ?x ?r))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (carried_by ?x ?p)))

  (:action take_from
    :parameters (?r - robot ?x - item ?p - person ?s - space)
    :precondition (and (robot_location ?r ?s) (present_in ?p ?s) (carried_by ?x ?p)
                       (hand_empty ?r))
    :effect (and (not (carried_by ?x ?p)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  ; ---------------------------------------------------------------- electrical fixtures
  (:action switch_on
    :parameters (?r - robot ?e - electrical ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?e ?s) (not (turned_on ?e)))
    :effect (turned_on ?e))

  (:action switch_off
    :parameters (?r - robot ?e - electrical ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?e ?s) (turned_on ?e))
    :effect (not (turned_on ?e)))
)
