; Ferry port: a small island ferry port (ticket office, waiting lounge, quay, linkspan and
; three marshalling lanes) and the ferry that loads there and sails from it (car deck,
; passenger deck with its cafe and luggage rack, two cabins, the crew mess and the bridge).
; A helper robot fetches and carries for the crew and the port staff (public development
; evaluation domain for l3mp_ros).
;
; Modelling choices:
;
; * Most relations name the thing first and where it is second, the way a port log reads:
;     (is_at ?m ?z)          a person, the robot, a dog, a car, van, bike or trolley in an
;                            area (a room, an outdoor area, a deck);
;     (carried_by ?i ?a)     an item in someone's hands, pocket or bag;
;     (lies_on ?i ?s)        an item on a counter, bench, table, bunk or the luggage rack;
;     (stowed_in ?i ?c)      an item in a locker, fridge, the safe or the lost property box;
;     (hangs_on ?i ?h)       an item on the key board or the coat hooks;
;     (packed_in ?i ?v)      an item in a car or van, on a bike, or stacked on a trolley;
;     (in_kennel ?d ?k)      a dog shut in one of the car-deck kennels;
;     (installed_in ?f ?z)   where a fixture is;
;     (leads_to ?p ?z)       a door, ramp or gangway and one of the two areas it joins;
;     (unlocks ?c ?p)        the key or key card that opens a locked door.
;   Three name another party first because that is how people say them: (owns ?person
;   ?thing), (booked_into ?passenger ?cabin) and (next_to ?area ?area) (open ground: the
;   quay runs on to the lanes and the linkspan, the ticket office opens onto the lounge
;   over its counter; listed both ways).
;   One-place states: is_open, locked, switched_on, out_of_order, full, charged, lashed,
;   checked_in, seasick, on_duty, on_lead, gripper_empty.
; * One robot (type robot, `deckbot` in the KG), always the first parameter ?r, with a
;   single gripper: (gripper_empty ?r) is consumed by every action that takes hold of an
;   item and given back by every action that lets go of one.
; * A passage (door, ramp, gangway) is passed only while it is open. The bow ramp is open
;   when it is lowered onto the linkspan, the gangway when it is run out to the quay. A
;   locked door is unlocked first with the key or card that unlocks it, in the gripper.
; * The robot pushes a trolley (with what is packed on it) to the next area, over open
;   ground or through an open passage. Cars, vans and bikes are driven or wheeled by
;   people: only reports move them, and what is packed in them rides along.
; * People and dogs move by reports alone; the robot never leads a dog. A dog is either
;   in an area or shut in a kennel, and a dog in a kennel is off its lead.
; * Equipment (lights, the PA systems, the radar, the coffee machines, the kettle, the
;   chargers) is switched on and off; out-of-order equipment stays off. A dispenser (a
;   coffee machine or the kettle) fills a cup, bowl or flask; a charger charges a gadget
;   held next to it. Vehicles on a deck are lashed (chained) down and unlashed.
; * The ferry's sailing is not modelled: leads_to and next_to are static, and the quay
;   simply cannot be reached while the gangway and the bow ramp are shut.
;
; Facts no action changes: installed_in, leads_to, next_to, unlocks, owns, booked_into,
; is_at for people, dogs, cars, vans and bikes, in_kennel, on_lead, checked_in, seasick,
; on_duty, out_of_order.

(define (domain ferry_port)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    area passage mobile fixture item - object
    room outdoor deck - area
    door ramp gangway - passage
    agent dog vehicle - mobile
    robot person - agent
    passenger crew port_staff - person
    captain deckhand steward - crew
    car van bicycle trolley - vehicle
    surface container hook kennel equipment - fixture
    dispenser charger - equipment
    credential gadget vessel luggage kit - item
    key keycard - credential)

  (:predicates
    ; where things are
    (is_at ?m - mobile ?z - area)
    (in_kennel ?d - dog ?k - kennel)
    (carried_by ?i - item ?a - agent)
    (lies_on ?i - item ?s - surface)
    (stowed_in ?i - item ?c - container)
    (hangs_on ?i - item ?h - hook)
    (packed_in ?i - item ?v - vehicle)
    (gripper_empty ?r - robot)
    ; the layout
    (installed_in ?f - fixture ?z - area)
    (leads_to ?p - passage ?z - area)
    (next_to ?z - area ?y - area)
    (is_open ?p - passage)
    (locked ?p - passage)
    (unlocks ?c - credential ?p - passage)
    ; equipment and the state of things
    (switched_on ?e - equipment)
    (out_of_order ?e - equipment)
    (full ?v - vessel)
    (charged ?g - gadget)
    (lashed ?v - vehicle)
    ; people, dogs and bookings
    (checked_in ?x - mobile)
    (seasick ?p - person)
    (on_duty ?p - person)
    (on_lead ?d - dog)
    (owns ?p - person ?x - object)
    (booked_into ?p - passenger ?c - room))

  ; ---------------------------------------------------------------- moving about
  (:action move
    :parameters (?r - robot ?from - area ?to - area)
    :precondition (and (is_at ?r ?from) (next_to ?from ?to))
    :effect (and (not (is_at ?r ?from)) (is_at ?r ?to)))

  (:action pass_through
    :parameters (?r - robot ?p - passage ?from - area ?to - area)
    :precondition (and (is_at ?r ?from) (leads_to ?p ?from) (leads_to ?p ?to) (is_open ?p))
    :effect (and (not (is_at ?r ?from)) (is_at ?r ?to)))

  (:action open_passage
    :parameters (?r - robot ?p - passage ?z - area)
    :precondition (and (is_at ?r ?z) (leads_to ?p ?z) (not (is_open ?p)) (not (locked ?p)))
    :effect (is_open ?p))

  (:action close_passage
    :parameters (?r - robot ?p - passage ?z - area)
    :precondition (and (is_at ?r ?z) (leads_to ?p ?z) (is_open ?p))
    :effect (not (is_open ?p)))

  (:action unlock
    :parameters (?r - robot ?c - credential ?p - passage ?z - area)
    :precondition (and (is_at ?r ?z) (leads_to ?p ?z) (carried_by ?c ?r) (unlocks ?c ?p)
                       (locked ?p))
    :effect (not (locked ?p)))

  (:action lock
    :parameters (?r - robot ?c - credential ?p - passage ?z - area)
    :precondition (and (is_at ?r ?z) (leads_to ?p ?z) (carried_by ?c ?r) (unlocks ?c ?p)
                       (not (is_open ?p)) (not (locked ?p)))
    :effect (locked ?p))

  ; ---------------------------------------------------------------- surfaces, containers, hooks
  (:action pick_up
    :parameters (?r - robot ?i - item ?s - surface ?z - area)
    :precondition (and (is_at ?r ?z) (installed_in ?s ?z) (lies_on ?i ?s) (gripper_empty ?r))
    :effect (and (not (lies_on ?i ?s)) (not (gripper_empty ?r)) (carried_by ?i ?r)))

  (:action put_down
    :parameters (?r - robot ?i - item ?s - surface ?z - area)
    :precondition (and (is_at ?r ?z) (installed_in ?s ?z) (carried_by ?i ?r))
    :effect (and (not (carried_by ?i ?r)) (gripper_empty ?r) (lies_on ?i ?s)))

  (:action take_out
    :parameters (?r - robot ?i - item ?c - container ?z - area)
    :precondition (and (is_at ?r ?z) (installed_in ?c ?z) (stowed_in ?i ?c) (gripper_empty ?r))
    :effect (and (not (stowed_in ?i ?c)) (not (gripper_empty ?r)) (carried_by ?i ?r)))

  (:action stow
    :parameters (?r - robot ?i - item ?c - container ?z - area)
    :precondition (and (is_at ?r ?z) (installed_in ?c ?z) (carried_by ?i ?r))
    :effect (and (not (carried_by ?i ?r)) (gripper_empty ?r) (stowed_in ?i ?c)))

  (:action take_off_hook
    :parameters (?r - robot ?i - item ?h - hook ?z - area)
    :precondition (and (is_at ?r ?z) (installed_in ?h ?z) (hangs_on ?i ?h) (gripper_empty ?r))
    :effect (and (not (hangs_on ?i ?h)) (not (gripper_empty ?r)) (carried_by ?i ?r)))

  (:action hang
    :parameters (?r - robot ?i - item ?h - hook ?z - area)
    :precondition (and (is_at ?r ?z) (installed_in ?h ?z) (carried_by ?i ?r))
    :effect (and (not (carried_by ?i ?r)) (gripper_empty ?r) (hangs_on ?i ?h)))

  ; ---------------------------------------------------------------- vehicles and trolleys
  (:action pack
    :parameters (?r - robot ?i - item ?v - vehicle ?z - area)
    :precondition (and (is_at ?r ?z) (is_at ?v ?z) (carried_by ?i ?r))
    :effect (and (not (carried_by ?i ?r)) (gripper_empty ?r) (packed_in ?i ?v)))

  (:action unpack
    :parameters (?r - robot ?i - item ?v - vehicle ?z - area)
    :precondition (and (is_at ?r ?z) (is_at ?v ?z) (packed_in ?i ?v) (gripper_empty ?r))
    :effect (and (not (packed_in ?i ?v)) (not (gripper_empty ?r)) (carried_by ?i ?r)))

  (:action push_trolley
    :parameters (?r - robot ?t - trolley ?from - area ?to - area)
    :precondition (and (is_at ?r ?from) (is_at ?t ?from) (next_to ?from ?to))
    :effect (and (not (is_at ?r ?from)) (not (is_at ?t ?from)) (is_at ?r ?to) (is_at ?t ?to)))

  (:action push_trolley_through
    :parameters (?r - robot ?t - trolley ?p - passage ?from - area ?to - area)
    :precondition (and (is_at ?r ?from) (is_at ?t ?from) (leads_to ?p ?from) (leads_to ?p ?to)
                       (is_open ?p))
    :effect (and (not (is_at ?r ?from)) (not (is_at ?t ?from)) (is_at ?r ?to) (is_at ?t ?to)))

  (:action lash
    :parameters (?r - robot ?v - vehicle ?z - deck)
    :precondition (and (is_at ?r ?z) (is_at ?v ?z) (checked_in ?v) (not (lashed ?v)))
    :effect (lashed ?v))

  (:action unlash
    :parameters (?r - robot ?v - vehicle ?z - deck)
    :precondition (and (is_at ?r ?z) (is_at ?v ?z) (lashed ?v))
    :effect (not (lashed ?v)))

  ; ---------------------------------------------------------------- people
  (:action give
    :parameters (?r - robot ?i - item ?p - person ?z - area)
    :precondition (and (is_at ?r ?z) (is_at ?p ?z) (carried_by ?i ?r))
    :effect (and (not (carried_by ?i ?r)) (gripper_empty ?r) (carried_by ?i ?p)))

  (:action take_from
    :parameters (?r - robot ?i - item ?p - person ?z - area)
    :precondition (and (is_at ?r ?z) (is_at ?p ?z) (carried_by ?i ?p) (gripper_empty ?r))
    :effect (and (not (carried_by ?i ?p)) (not (gripper_empty ?r)) (carried_by ?i ?r)))

  ; ---------------------------------------------------------------- equipment
  (:action switch_on
    :parameters (?r - robot ?e - equipment ?z - area)
    :precondition (and (is_at ?r ?z) (installed_in ?e ?z) (not (switched_on ?e))
                       (not (out_of_order ?e)))
    :effect (switched_on ?e))

  (:action switch_off
    :parameters (?r - robot ?e - equipment ?z - area)
    :precondition (and (is_at ?r ?z) (installed_in ?e ?z) (switched_on ?e))
    :effect (not (switched_on ?e)))

  (:action recharge
    :parameters (?r - robot ?g - gadget ?c - charger ?z - area)
    :precondition (and (is_at ?r ?z) (installed_in ?c ?z) (switched_on ?c) (carried_by ?g ?r)
                       (not (charged ?g)))
    :effect (charged ?g))

  (:action fill
    :parameters (?r - robot ?v - vessel ?d - dispenser ?z - area)
    :precondition (and (is_at ?r ?z) (installed_in ?d ?z) (switched_on ?d) (carried_by ?v ?r)
                       (not (full ?v)))
    :effect (full ?v))
)
