; Marina and boatyard: a helper robot fetches, carries, stows and hands over kit at a small
; marina with its boatyard on a Saturday in spring, launch season (two pontoons of berths
; and the fuel pontoon with the fuel berth; ashore the quay, the boatyard with its travel
; hoist and cradles, the slipway with the dinghy rack and the car park; the harbour office,
; the chandlery, the workshop shed and the clubhouse with its café) (public development
; evaluation domain for l3mp_ros).
;
; Modelling choices:
;
; * Predicate, action and multiword type names are written IPC-style, hyphenated lower
;   case (robot-at, moored-at, held-by, berth-holder, fuel-can); object names in the KG
;   stay snake_case (berth_a2, mr_pascoe, ian_fuel_can).
; * One robot (type `robot`, `marinabot` in the KG), always the first parameter ?r of an
;   action. It has one hand, modelled by the flag (hand-empty ?r): every action that takes
;   hold of an item consumes it, every action that lets go of one gives it back, and
;   pushing a trolley needs the hand free. A constraint rule caps the hand at one item;
;   that the flag and the grasped-by facts agree is left to the actions.
; * Every place an item can be is a binary fact with the item first, so one "exactly one
;   place" rule covers them all:
;     (sits-on ?x ?u)      on a support: a bench, counter, shelf, the workbench, the
;                          engine stand, or the radio charging dock;
;     (hung-on ?x ?h)      on a hook: the key board, the noticeboard on the quay, the
;                          fender rail in the chandlery, the shed hooks, the lifejacket
;                          pegs in the clubhouse;
;     (stowed-in ?x ?c)    in a store (the deck box on A pontoon, the fuel store, the
;                          parts cupboard) or in a boat's locker;
;     (mounted-on ?o ?v)   an outboard engine bolted on a boat's transom (the engine goes
;                          wherever the boat goes);
;     (on-trolley ?x ?t)   on the dock trolley or the yard trolley;
;     (held-by ?x ?p)      in a person's hands, pocket or worn;
;     (grasped-by ?x ?r)   in the robot's hand.
; * Boats are neither items nor fixtures: their crews and the yard move them, so only
;   reports change where a boat is. A boat is in exactly one of three places:
;   (moored-at ?v ?b) afloat at a berth (berths are fixtures on a pontoon, the fuel berth
;   on the fuel pontoon), (ashore-on ?v ?s) on a boat stand (a cradle in the boatyard, the
;   dinghy rack on the slipway), or (slung-in ?v ?h) in the slings of the travel hoist.
;   A boat's lockers are fixed to it ((locker-on ?l ?v), never changed), so what is stowed
;   in them goes with the boat. The robot cannot climb a ladder: it reaches a boat's
;   lockers, and fits or takes off an outboard, only while the boat lies at a berth in
;   its space.
; * Spaces are joined two ways: a doorway (a door or a gate: the pontoon gate between the
;   quay and A pontoon, the yard gate between the quay and the boatyard) listed with
;   (leads-to ?d ?s) for each of its two spaces, which the robot passes only while it is
;   open; or an open boundary ((adjoins ?a ?b), listed both ways: A pontoon runs on to B
;   pontoon and to the fuel pontoon, the quay to the car park, the boatyard down to the
;   slipway). People lock and unlock doors and gates with keys and codes the robot does
;   not have, so (locked ?d) changes by reports alone, and the robot opens only a
;   doorway that is not locked.
; * Trolleys (the dock trolley, the yard trolley) are `portable` but not items: the robot
;   pushes them through an open doorway or across an open boundary with their load
;   aboard (on-trolley does not change).
; * Fixtures are installed for good ((fixture-at ?f ?s)). Electrical fixtures (the pontoon
;   lights, the shore-power post on B pontoon, the yard floodlight, the shed lights, the
;   coffee machine and the fuel pump) are switched on and off where they stand
;   ((switched-on ?e)). The robot fills an empty fuel can at the fuel pump while the pump
;   is on, with the can in its hand, and charges a handheld radio standing on the
;   charging dock in the harbour office.
; * Where people and boats are, whether a boat's tank has been filled (fuelled, which
;   also marks a full fuel can), whether an outboard has been serviced, a form signed, a
;   wetsuit or lifejacket wet, a doorway locked, and a radio's battery gone flat change by
;   reports alone. People also carry, hang, stow, fit outboards and push trolleys;
;   reports say so. The robot gives items to, and takes them from, people in its space.
; * (property-of ?x ?p) records an owner: a berth-holder's boat, outboard, fuel can,
;   lifejacket, fender or keys, a visitor's form, a member of staff's radio, mug or tool
;   bag. The marina's own kit belongs to nobody.
;
; Facts no action changes: leads-to, adjoins, fixture-at, locker-on, moored-at, ashore-on,
; slung-in, property-of.

(define (domain marina_boatyard)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    space person fixture portable robot doorway boat - object
    waterside shore-area building - space
    harbourmaster marina-staff berth-holder visitor - person
    support hook storage electrical berth boat-stand travel-hoist - fixture
    charging-dock - support
    store boat-locker - storage
    cradle dinghy-rack - boat-stand
    fuel-pump - electrical
    door gate - doorway
    cruiser dinghy - boat
    item trolley - portable
    outboard fuel-can paperwork gear - item)

  (:predicates
    ; where the robot, people, boats, trolleys and things are
    (robot-at ?r - robot ?s - space)
    (person-at ?p - person ?s - space)
    (fixture-at ?f - fixture ?s - space)
    (trolley-at ?t - trolley ?s - space)
    (moored-at ?v - boat ?b - berth)
    (ashore-on ?v - boat ?s - boat-stand)
    (slung-in ?v - boat ?h - travel-hoist)
    (locker-on ?l - boat-locker ?v - boat)
    (sits-on ?x - item ?u - support)
    (hung-on ?x - item ?h - hook)
    (stowed-in ?x - item ?c - storage)
    (mounted-on ?o - outboard ?v - boat)
    (on-trolley ?x - item ?t - trolley)
    (held-by ?x - item ?p - person)
    (grasped-by ?x - item ?r - robot)
    (hand-empty ?r - robot)
    ; the marina's layout
    (leads-to ?d - doorway ?s - space)
    (adjoins ?a - space ?b - space)
    (is-open ?d - doorway)
    (locked ?d - doorway)
    ; switches, batteries, fuel and the state of boats and kit
    (switched-on ?e - electrical)
    (charged ?x - gear)
    (fuelled ?x - object)
    (serviced ?o - outboard)
    (signed ?d - paperwork)
    (wet ?x - gear)
    ; ownership
    (property-of ?x - object ?p - person))

  ; ---------------------------------------------------------------- getting about
  (:action go-through
    :parameters (?r - robot ?d - doorway ?from - space ?to - space)
    :precondition (and (robot-at ?r ?from) (leads-to ?d ?from) (leads-to ?d ?to)
                       (is-open ?d))
    :effect (and (not (robot-at ?r ?from)) (robot-at ?r ?to)))

  (:action walk-to
    :parameters (?r - robot ?from - space ?to - space)
    :precondition (and (robot-at ?r ?from) (adjoins ?from ?to))
    :effect (and (not (robot-at ?r ?from)) (robot-at ?r ?to)))

  (:action open-door
    :parameters (?r - robot ?d - doorway ?s - space)
    :precondition (and (robot-at ?r ?s) (leads-to ?d ?s) (not (is-open ?d))
                       (not (locked ?d)))
    :effect (is-open ?d))

  (:action close-door
    :parameters (?r - robot ?d - doorway ?s - space)
    :precondition (and (robot-at ?r ?s) (leads-to ?d ?s) (is-open ?d))
    :effect (not (is-open ?d)))

  ; ---------------------------------------------------------------- trolleys
  (:action push-trolley-through
    :parameters (?r - robot ?t - trolley ?d - doorway ?from - space ?to - space)
    :precondition (and (robot-at ?r ?from) (trolley-at ?t ?from) (hand-empty ?r)
                       (leads-to ?d ?from) (leads-to ?d ?to) (is-open ?d))
    :effect (and (not (robot-at ?r ?from)) (robot-at ?r ?to)
                 (not (trolley-at ?t ?from)) (trolley-at ?t ?to)))

  (:action push-trolley-to
    :parameters (?r - robot ?t - trolley ?from - space ?to - space)
    :precondition (and (robot-at ?r ?from) (trolley-at ?t ?from) (hand-empty ?r)
                       (adjoins ?from ?to))
    :effect (and (not (robot-at ?r ?from)) (robot-at ?r ?to)
                 (not (trolley-at ?t ?from)) (trolley-at ?t ?to)))

  (:action load-trolley
    :parameters (?r - robot ?x - item ?t - trolley ?s - space)
    :precondition (and (robot-at ?r ?s) (trolley-at ?t ?s) (grasped-by ?x ?r))
    :effect (and (not (grasped-by ?x ?r)) (hand-empty ?r) (on-trolley ?x ?t)))

  (:action unload-trolley
    :parameters (?r - robot ?x - item ?t - trolley ?s - space)
    :precondition (and (robot-at ?r ?s) (trolley-at ?t ?s) (on-trolley ?x ?t)
                       (hand-empty ?r))
    :effect (and (not (on-trolley ?x ?t)) (not (hand-empty ?r)) (grasped-by ?x ?r)))

  ; ---------------------------------------------------------------- supports and hooks
  (:action pick-up
    :parameters (?r - robot ?x - item ?u - support ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?u ?s) (sits-on ?x ?u)
                       (hand-empty ?r))
    :effect (and (not (sits-on ?x ?u)) (not (hand-empty ?r)) (grasped-by ?x ?r)))

  (:action put-down
    :parameters (?r - robot ?x - item ?u - support ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?u ?s) (grasped-by ?x ?r))
    :effect (and (not (grasped-by ?x ?r)) (hand-empty ?r) (sits-on ?x ?u)))

  (:action unhook
    :parameters (?r - robot ?x - item ?h - hook ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?h ?s) (hung-on ?x ?h)
                       (hand-empty ?r))
    :effect (and (not (hung-on ?x ?h)) (not (hand-empty ?r)) (grasped-by ?x ?r)))

  (:action hang-up
    :parameters (?r - robot ?x - item ?h - hook ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?h ?s) (grasped-by ?x ?r))
    :effect (and (not (grasped-by ?x ?r)) (hand-empty ?r) (hung-on ?x ?h)))

  ; ---------------------------------------------------------------- stores and boat lockers
  (:action take-out
    :parameters (?r - robot ?x - item ?c - store ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?c ?s) (stowed-in ?x ?c)
                       (hand-empty ?r))
    :effect (and (not (stowed-in ?x ?c)) (not (hand-empty ?r)) (grasped-by ?x ?r)))

  (:action put-away
    :parameters (?r - robot ?x - item ?c - store ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?c ?s) (grasped-by ?x ?r))
    :effect (and (not (grasped-by ?x ?r)) (hand-empty ?r) (stowed-in ?x ?c)))

  (:action take-from-boat-locker
    :parameters (?r - robot ?x - item ?l - boat-locker ?v - boat ?b - berth ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?b ?s) (moored-at ?v ?b)
                       (locker-on ?l ?v) (stowed-in ?x ?l) (hand-empty ?r))
    :effect (and (not (stowed-in ?x ?l)) (not (hand-empty ?r)) (grasped-by ?x ?r)))

  (:action stow-in-boat-locker
    :parameters (?r - robot ?x - item ?l - boat-locker ?v - boat ?b - berth ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?b ?s) (moored-at ?v ?b)
                       (locker-on ?l ?v) (grasped-by ?x ?r))
    :effect (and (not (grasped-by ?x ?r)) (hand-empty ?r) (stowed-in ?x ?l)))

  ; ---------------------------------------------------------------- outboards
  (:action mount-outboard
    :parameters (?r - robot ?o - outboard ?v - boat ?b - berth ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?b ?s) (moored-at ?v ?b)
                       (grasped-by ?o ?r))
    :effect (and (not (grasped-by ?o ?r)) (hand-empty ?r) (mounted-on ?o ?v)))

  (:action unmount-outboard
    :parameters (?r - robot ?o - outboard ?v - boat ?b - berth ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?b ?s) (moored-at ?v ?b)
                       (mounted-on ?o ?v) (hand-empty ?r))
    :effect (and (not (mounted-on ?o ?v)) (not (hand-empty ?r)) (grasped-by ?o ?r)))

  ; ---------------------------------------------------------------- people
  (:action hand-to
    :parameters (?r - robot ?x - item ?p - person ?s - space)
    :precondition (and (robot-at ?r ?s) (person-at ?p ?s) (grasped-by ?x ?r))
    :effect (and (not (grasped-by ?x ?r)) (hand-empty ?r) (held-by ?x ?p)))

  (:action take-from
    :parameters (?r - robot ?x - item ?p - person ?s - space)
    :precondition (and (robot-at ?r ?s) (person-at ?p ?s) (held-by ?x ?p)
                       (hand-empty ?r))
    :effect (and (not (held-by ?x ?p)) (not (hand-empty ?r)) (grasped-by ?x ?r)))

  ; ---------------------------------------------------------------- switches, fuel, radios
  (:action switch-on
    :parameters (?r - robot ?e - electrical ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?e ?s) (not (switched-on ?e)))
    :effect (switched-on ?e))

  (:action switch-off
    :parameters (?r - robot ?e - electrical ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?e ?s) (switched-on ?e))
    :effect (not (switched-on ?e)))

  (:action fill-can
    :parameters (?r - robot ?c - fuel-can ?p - fuel-pump ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?p ?s) (switched-on ?p)
                       (grasped-by ?c ?r) (not (fuelled ?c)))
    :effect (fuelled ?c))

  (:action charge-radio
    :parameters (?r - robot ?x - gear ?d - charging-dock ?s - space)
    :precondition (and (robot-at ?r ?s) (fixture-at ?d ?s) (sits-on ?x ?d)
                       (not (charged ?x)))
    :effect (charged ?x))
)
