; Hill farm at lambing time: a farm robot fetches, carries, stores, fills, warms and hands
; over kit on a working hill farm in April (the farmhouse kitchen and boot room, the dairy,
; the lambing shed with its pens, the barn that is the feed store, the farmyard and the
; machinery yard, the lane, and three fields up the hill) (public development evaluation
; domain for l3mp_ros).
;
; Modelling choices:
;
; * Names are long snake_case words, and most facts are written from the point of view of
;   the holder, the container or the place, so the argument order is the reverse of the
;   usual "thing first" one for many of them:
;     (occupied_by ?p ?a)   place first: a person or the robot is in a place;
;     (houses ?p ?f)        place first: a fixture is installed in a place;
;     (pen_holds ?pen ?a)   pen first: an animal is shut in a pen;
;     (carrying ?a ?i)      agent first: an item in someone's hands, pocket or arms;
;     (contains ?c ?i)      store first: an item in a fridge, bin or box;
;     (supports ?u ?i)      surface first: an item on a table, shelf, bench or rack;
;     (hook_holds ?h ?i)    hook first: an item hanging on a hook or rack;
;     (loaded_with ?v ?i)   vehicle first: an item in a trailer, link box or vehicle;
;     (key_for ?g ?k)       passage first: the key that opens a padlock or lock;
;     (dam_of ?e ?l)        ewe first: a lamb's mother.
;   Others keep the thing first: (grazing_in ?a ?f) an animal turned out in a field,
;   (loose_in ?a ?p) an animal loose in a place that is not a field (the dog in the
;   kitchen, a ewe that got out into the yard), (parked_at ?v ?p), (hitched_to ?t ?m)
;   (the towed thing first), (belongs_to ?x ?p), (opens_onto ?g ?p), (adjoins ?p ?q).
;   The one-place states are adjectives or participles of different shapes: lame, fed,
;   tagged, filled, warmed_up, bolted, is_lit, is_running, gate_open, needs_milking,
;   hands_free.
; * One robot (type `robot`, `farmbot` in the KG), always the first parameter ?r. The
;   flag (hands_free ?r) says its single gripper is empty: every action that takes hold
;   of an item consumes it and every action that lets go gives it back.
; * Places are joined two ways: a passage (a door or a gate) listed with (opens_onto ?g
;   ?p) for each of its two places, passed only while (gate_open ?g); or an open boundary
;   ((adjoins ?p ?q), listed both ways: the farmyard runs on into the machinery yard). A
;   bolted passage (padlocked or locked) is opened only after the robot unbolts it with
;   its key ((key_for ?g ?k)) in the gripper.
; * Animals are moved by people (and dogs), never by the robot: pen_holds, grazing_in and
;   loose_in change by reports alone. Lambs are born all the time at lambing, but the KG
;   cannot gain entities, so a report of a new lamb has no representable change.
; * Vehicles are driven by people: only reports move the quad, the tractor, the vet's
;   pickup, the trailer and the link box, and only reports hitch and unhitch the trailer
;   and the link box. What is loaded rides along (loaded_with does not change). The robot
;   loads and unloads a vehicle where it stands.
; * Fixtures are installed for good. Lamps (the heat lamps over the pens, the shed and
;   barn lights, the kitchen light, the floodlight) are lit and put out; appliances (the
;   milk cooler, and the heaters: the Aga and the bottle warmer) switched on and off.
; * The robot fills a vessel (a bucket or a bottle) at a tap or from a store holding
;   fodder (scoop), warms a filled vessel on a running heater, feeds a penned ewe from a
;   filled vessel and bottle-feeds a penned lamb from a warm one (the vessel is emptied
;   and cools). People also feed, tag, treat and milk stock; reports say so.
; * lame, tagged and needs_milking change by reports alone, as do where people are.
;
; Facts no action changes: houses, adjoins, opens_onto, key_for, dam_of, belongs_to,
; occupied_by for people, parked_at, hitched_to, pen_holds, grazing_in, loose_in, lame,
; tagged, needs_milking.

(define (domain hill_farm)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    place passage mobile fixture item - object
    field yard building - place
    gate door - passage
    agent animal vehicle - mobile
    robot person - agent
    farmer family child worker visitor - person
    ewe lamb sheepdog pony - animal
    motor towable - vehicle
    surface store hook pen lamp appliance tap - fixture
    heater - appliance
    key device vessel medicine fodder tool - item)

  (:predicates
    ; where people, animals and vehicles are
    (occupied_by ?p - place ?a - agent)
    (grazing_in ?a - animal ?f - field)
    (loose_in ?a - animal ?p - place)
    (pen_holds ?pen - pen ?a - animal)
    (parked_at ?v - vehicle ?p - place)
    (hitched_to ?t - towable ?m - motor)
    ; where items are
    (carrying ?a - agent ?i - item)
    (contains ?c - store ?i - item)
    (supports ?u - surface ?i - item)
    (hook_holds ?h - hook ?i - item)
    (loaded_with ?v - vehicle ?i - item)
    (hands_free ?r - robot)
    ; the layout
    (houses ?p - place ?f - fixture)
    (adjoins ?p - place ?q - place)
    (opens_onto ?g - passage ?p - place)
    (gate_open ?g - passage)
    (bolted ?g - passage)
    (key_for ?g - passage ?k - key)
    ; switches and the state of things
    (is_lit ?l - lamp)
    (is_running ?a - appliance)
    (filled ?v - vessel)
    (warmed_up ?v - vessel)
    ; stock
    (fed ?a - animal)
    (lame ?a - animal)
    (tagged ?l - lamb)
    (needs_milking ?e - ewe)
    (dam_of ?e - ewe ?l - lamb)
    ; ownership
    (belongs_to ?x - object ?p - person))

  ; ---------------------------------------------------------------- getting about
  (:action walk
    :parameters (?r - robot ?from - place ?to - place)
    :precondition (and (occupied_by ?from ?r) (adjoins ?from ?to))
    :effect (and (not (occupied_by ?from ?r)) (occupied_by ?to ?r)))

  (:action go_through
    :parameters (?r - robot ?g - passage ?from - place ?to - place)
    :precondition (and (occupied_by ?from ?r) (opens_onto ?g ?from) (opens_onto ?g ?to)
                       (gate_open ?g))
    :effect (and (not (occupied_by ?from ?r)) (occupied_by ?to ?r)))

  (:action open_gate
    :parameters (?r - robot ?g - passage ?p - place)
    :precondition (and (occupied_by ?p ?r) (opens_onto ?g ?p) (not (gate_open ?g))
                       (not (bolted ?g)))
    :effect (gate_open ?g))

  (:action close_gate
    :parameters (?r - robot ?g - passage ?p - place)
    :precondition (and (occupied_by ?p ?r) (opens_onto ?g ?p) (gate_open ?g))
    :effect (not (gate_open ?g)))

  (:action unbolt
    :parameters (?r - robot ?k - key ?g - passage ?p - place)
    :precondition (and (occupied_by ?p ?r) (opens_onto ?g ?p) (carrying ?r ?k)
                       (key_for ?g ?k) (bolted ?g))
    :effect (not (bolted ?g)))

  (:action bolt
    :parameters (?r - robot ?k - key ?g - passage ?p - place)
    :precondition (and (occupied_by ?p ?r) (opens_onto ?g ?p) (carrying ?r ?k)
                       (key_for ?g ?k) (not (gate_open ?g)) (not (bolted ?g)))
    :effect (bolted ?g))

  ; ---------------------------------------------------------------- surfaces, hooks, stores
  (:action pick_up
    :parameters (?r - robot ?i - item ?u - surface ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?u) (supports ?u ?i) (hands_free ?r))
    :effect (and (not (supports ?u ?i)) (not (hands_free ?r)) (carrying ?r ?i)))

  (:action put_down
    :parameters (?r - robot ?i - item ?u - surface ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?u) (carrying ?r ?i))
    :effect (and (not (carrying ?r ?i)) (hands_free ?r) (supports ?u ?i)))

  (:action unhook
    :parameters (?r - robot ?i - item ?h - hook ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?h) (hook_holds ?h ?i) (hands_free ?r))
    :effect (and (not (hook_holds ?h ?i)) (not (hands_free ?r)) (carrying ?r ?i)))

  (:action hang_up
    :parameters (?r - robot ?i - item ?h - hook ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?h) (carrying ?r ?i))
    :effect (and (not (carrying ?r ?i)) (hands_free ?r) (hook_holds ?h ?i)))

  (:action take_out
    :parameters (?r - robot ?i - item ?c - store ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?c) (contains ?c ?i) (hands_free ?r))
    :effect (and (not (contains ?c ?i)) (not (hands_free ?r)) (carrying ?r ?i)))

  (:action put_away
    :parameters (?r - robot ?i - item ?c - store ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?c) (carrying ?r ?i))
    :effect (and (not (carrying ?r ?i)) (hands_free ?r) (contains ?c ?i)))

  ; ---------------------------------------------------------------- vehicles
  (:action load
    :parameters (?r - robot ?i - item ?v - vehicle ?p - place)
    :precondition (and (occupied_by ?p ?r) (parked_at ?v ?p) (carrying ?r ?i))
    :effect (and (not (carrying ?r ?i)) (hands_free ?r) (loaded_with ?v ?i)))

  (:action unload
    :parameters (?r - robot ?i - item ?v - vehicle ?p - place)
    :precondition (and (occupied_by ?p ?r) (parked_at ?v ?p) (loaded_with ?v ?i)
                       (hands_free ?r))
    :effect (and (not (loaded_with ?v ?i)) (not (hands_free ?r)) (carrying ?r ?i)))

  ; ---------------------------------------------------------------- people
  (:action hand_over
    :parameters (?r - robot ?i - item ?h - person ?p - place)
    :precondition (and (occupied_by ?p ?r) (occupied_by ?p ?h) (carrying ?r ?i))
    :effect (and (not (carrying ?r ?i)) (hands_free ?r) (carrying ?h ?i)))

  (:action take_from
    :parameters (?r - robot ?i - item ?h - person ?p - place)
    :precondition (and (occupied_by ?p ?r) (occupied_by ?p ?h) (carrying ?h ?i)
                       (hands_free ?r))
    :effect (and (not (carrying ?h ?i)) (not (hands_free ?r)) (carrying ?r ?i)))

  ; ---------------------------------------------------------------- lamps and appliances
  (:action switch_on
    :parameters (?r - robot ?a - appliance ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?a) (not (is_running ?a)))
    :effect (is_running ?a))

  (:action switch_off
    :parameters (?r - robot ?a - appliance ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?a) (is_running ?a))
    :effect (not (is_running ?a)))

  (:action light_up
    :parameters (?r - robot ?l - lamp ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?l) (not (is_lit ?l)))
    :effect (is_lit ?l))

  (:action put_out
    :parameters (?r - robot ?l - lamp ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?l) (is_lit ?l))
    :effect (not (is_lit ?l)))

  ; ---------------------------------------------------------------- filling, warming, feeding
  (:action fill_at_tap
    :parameters (?r - robot ?v - vessel ?t - tap ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?t) (carrying ?r ?v) (not (filled ?v)))
    :effect (filled ?v))

  (:action scoop
    :parameters (?r - robot ?v - vessel ?c - store ?f - fodder ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?c) (contains ?c ?f) (carrying ?r ?v)
                       (not (filled ?v)))
    :effect (filled ?v))

  (:action warm
    :parameters (?r - robot ?v - vessel ?h - heater ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?h) (is_running ?h) (carrying ?r ?v)
                       (filled ?v) (not (warmed_up ?v)))
    :effect (warmed_up ?v))

  (:action feed_ewe
    :parameters (?r - robot ?e - ewe ?pen - pen ?v - vessel ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?pen) (pen_holds ?pen ?e)
                       (carrying ?r ?v) (filled ?v) (not (fed ?e)))
    :effect (and (fed ?e) (not (filled ?v)) (not (warmed_up ?v))))

  (:action bottle_feed
    :parameters (?r - robot ?l - lamb ?pen - pen ?v - vessel ?p - place)
    :precondition (and (occupied_by ?p ?r) (houses ?p ?pen) (pen_holds ?pen ?l)
                       (carrying ?r ?v) (filled ?v) (warmed_up ?v) (not (fed ?l)))
    :effect (and (fed ?l) (not (filled ?v)) (not (warmed_up ?v))))
)
