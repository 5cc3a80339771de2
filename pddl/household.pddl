; Household domain for L3M+P (lifelong LLM+P planning with a knowledge graph).
;
; Modelled on the authors' text household simulator (rooms with furniture, movable items,
; people, one robot), written anew. Modelling choices:
;
; * One robot (type `agent`); every action names it as its first parameter. Its hand is
;   UNLIMITED: it may carry any number of items at once (there is no hand-empty predicate).
;   People's carrying limits are not modelled either.
; * Rooms are fully connected: `move_to_room` needs no adjacency facts.
; * Every fact about an item is item-first: (placed_at_X ?item ?container),
;   (in_agent_hand ?item ?agent), (in_person_hand ?item ?person), so "where is an item" is
;   always argument 0. An item is in exactly one place (see household.constraints.yaml).
; * A shelf item has two facts: (placed_at_shelf ?i ?shelf) and (on_shelf_level ?i ?level);
;   levels are objects of their own, tied to their shelf by the static
;   (shelf_has_level ?shelf ?level). The pantry has no levels.
; * Fridge and pantry facts accept any `food`, so a person's report "the milk is in the
;   pantry" is well typed; the robot's actions enforce the rules (fridge takes perishables,
;   pantry non-perishables). The kitchen sink holds kitchenware (dishes and glasses), the
;   washer, dryer and laundry basket hold cloths.
; * Every action needs the robot in the room that has the furniture it uses
;   (room_has is static: furniture never moves).
; * TVs are switched on/off and change channel only with their own remote in the robot's
;   hand (static `remote_controls`); a TV keeps its last channel while off.
; * The robot answers a phone by holding it (pick it up or take it from a person first).
;   `phone_owned_by` (static) names whose phone it is.
; * Washing a dish needs it in the kitchen sink with that sink's faucet running; the faucet
;   stays on afterwards. Washing does not change a glass's contents.
; * A glass is filled only while held, empty and clean, with the robot in a room that has a
;   fridge (drinks live in the kitchen); filling makes it dirty. It is emptied while held, in
;   a room with a kitchen sink. `liquid` objects are kinds of drink, not movable items.
; * `run_washer_cycle` makes every cloth in that washer clean and wet; `run_dryer_cycle`
;   makes every cloth in that dryer dry (forall/when conditional effects).
;
; Static predicates (no action changes them): room_has, shelf_has_level, remote_controls,
; phone_owned_by. Person locations change only through reports, never through actions.

(define (domain household)
  (:requirements :strips :typing :negative-preconditions :conditional-effects)

  (:types
    room agent person furniture shelf_level channel item liquid - object
    table shelf fridge pantry sink washer dryer laundrybasket tv light window toilet - furniture
    kitchensink bathroomsink - sink
    book pen cloth phone remote food kitchenware - item
    perishable nonperishable - food
    glass - kitchenware)

  (:predicates
    (placed_at_table ?i - item ?t - table)
    (placed_at_shelf ?i - item ?s - shelf)
    (on_shelf_level ?i - item ?l - shelf_level)
    (shelf_has_level ?s - shelf ?l - shelf_level)
    (placed_at_fridge ?f - food ?fr - fridge)
    (placed_at_pantry ?f - food ?p - pantry)
    (placed_at_kitchensink ?k - kitchenware ?s - kitchensink)
    (placed_at_washer ?c - cloth ?w - washer)
    (placed_at_dryer ?c - cloth ?d - dryer)
    (placed_at_laundrybasket ?c - cloth ?b - laundrybasket)
    (in_person_hand ?i - item ?p - person)
    (in_agent_hand ?i - item ?a - agent)
    (person_in_room ?p - person ?r - room)
    (agent_in_room ?a - agent ?r - room)
    (room_has ?r - room ?f - furniture)
    (light_on ?l - light)
    (window_open ?w - window)
    (faucet_on ?s - sink)
    (phone_ringing ?ph - phone)
    (phone_owned_by ?ph - phone ?p - person)
    (tv_on ?tv - tv)
    (tv_playing_channel ?tv - tv ?c - channel)
    (remote_controls ?rm - remote ?tv - tv)
    (cloth_is_clean ?c - cloth)
    (cloth_is_dry ?c - cloth)
    (dish_is_clean ?k - kitchenware)
    (glass_empty ?g - glass)
    (glass_has_liquid ?g - glass ?l - liquid))

  ; ---------------------------------------------------------------- moving
  (:action move_to_room
    :parameters (?a - agent ?from - room ?to - room)
    :precondition (agent_in_room ?a ?from)
    :effect (and (not (agent_in_room ?a ?from)) (agent_in_room ?a ?to)))

  ; ---------------------------------------------------------------- table
  (:action remove_from_table
    :parameters (?a - agent ?i - item ?t - table ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?t) (placed_at_table ?i ?t))
    :effect (and (not (placed_at_table ?i ?t)) (in_agent_hand ?i ?a)))

  (:action place_at_table
    :parameters (?a - agent ?i - item ?t - table ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?t) (in_agent_hand ?i ?a))
    :effect (and (not (in_agent_hand ?i ?a)) (placed_at_table ?i ?t)))

  ; ---------------------------------------------------------------- shelf (with level)
  (:action remove_from_shelf
    :parameters (?a - agent ?i - item ?s - shelf ?l - shelf_level ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?s)
                       (placed_at_shelf ?i ?s) (on_shelf_level ?i ?l))
    :effect (and (not (placed_at_shelf ?i ?s)) (not (on_shelf_level ?i ?l))
                 (in_agent_hand ?i ?a)))

  (:action place_at_shelf
    :parameters (?a - agent ?i - item ?s - shelf ?l - shelf_level ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?s) (shelf_has_level ?s ?l)
                       (in_agent_hand ?i ?a))
    :effect (and (not (in_agent_hand ?i ?a)) (placed_at_shelf ?i ?s) (on_shelf_level ?i ?l)))

  ; ---------------------------------------------------------------- fridge (perishables)
  (:action remove_from_fridge
    :parameters (?a - agent ?f - food ?fr - fridge ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?fr) (placed_at_fridge ?f ?fr))
    :effect (and (not (placed_at_fridge ?f ?fr)) (in_agent_hand ?f ?a)))

  (:action place_at_fridge
    :parameters (?a - agent ?f - perishable ?fr - fridge ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?fr) (in_agent_hand ?f ?a))
    :effect (and (not (in_agent_hand ?f ?a)) (placed_at_fridge ?f ?fr)))

  ; ---------------------------------------------------------------- pantry (non-perishables)
  (:action remove_from_pantry
    :parameters (?a - agent ?f - food ?p - pantry ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?p) (placed_at_pantry ?f ?p))
    :effect (and (not (placed_at_pantry ?f ?p)) (in_agent_hand ?f ?a)))

  (:action place_at_pantry
    :parameters (?a - agent ?f - nonperishable ?p - pantry ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?p) (in_agent_hand ?f ?a))
    :effect (and (not (in_agent_hand ?f ?a)) (placed_at_pantry ?f ?p)))

  ; ---------------------------------------------------------------- kitchen sink (kitchenware)
  (:action remove_from_kitchensink
    :parameters (?a - agent ?k - kitchenware ?s - kitchensink ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?s) (placed_at_kitchensink ?k ?s))
    :effect (and (not (placed_at_kitchensink ?k ?s)) (in_agent_hand ?k ?a)))

  (:action place_at_kitchensink
    :parameters (?a - agent ?k - kitchenware ?s - kitchensink ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?s) (in_agent_hand ?k ?a))
    :effect (and (not (in_agent_hand ?k ?a)) (placed_at_kitchensink ?k ?s)))

  ; ---------------------------------------------------------------- washer, dryer, basket
  (:action remove_from_washer
    :parameters (?a - agent ?c - cloth ?w - washer ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?w) (placed_at_washer ?c ?w))
    :effect (and (not (placed_at_washer ?c ?w)) (in_agent_hand ?c ?a)))

  (:action place_at_washer
    :parameters (?a - agent ?c - cloth ?w - washer ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?w) (in_agent_hand ?c ?a))
    :effect (and (not (in_agent_hand ?c ?a)) (placed_at_washer ?c ?w)))

  (:action remove_from_dryer
    :parameters (?a - agent ?c - cloth ?d - dryer ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?d) (placed_at_dryer ?c ?d))
    :effect (and (not (placed_at_dryer ?c ?d)) (in_agent_hand ?c ?a)))

  (:action place_at_dryer
    :parameters (?a - agent ?c - cloth ?d - dryer ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?d) (in_agent_hand ?c ?a))
    :effect (and (not (in_agent_hand ?c ?a)) (placed_at_dryer ?c ?d)))

  (:action remove_from_laundrybasket
    :parameters (?a - agent ?c - cloth ?b - laundrybasket ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?b) (placed_at_laundrybasket ?c ?b))
    :effect (and (not (placed_at_laundrybasket ?c ?b)) (in_agent_hand ?c ?a)))

  (:action place_at_laundrybasket
    :parameters (?a - agent ?c - cloth ?b - laundrybasket ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?b) (in_agent_hand ?c ?a))
    :effect (and (not (in_agent_hand ?c ?a)) (placed_at_laundrybasket ?c ?b)))

  (:action run_washer_cycle
    :parameters (?a - agent ?w - washer ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?w))
    :effect (forall (?c - cloth)
              (when (placed_at_washer ?c ?w)
                    (and (cloth_is_clean ?c) (not (cloth_is_dry ?c))))))

  (:action run_dryer_cycle
    :parameters (?a - agent ?d - dryer ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?d))
    :effect (forall (?c - cloth)
              (when (placed_at_dryer ?c ?d) (cloth_is_dry ?c))))

  ; ---------------------------------------------------------------- lights, windows, faucets
  (:action turn_on_light
    :parameters (?a - agent ?l - light ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?l) (not (light_on ?l)))
    :effect (light_on ?l))

  (:action turn_off_light
    :parameters (?a - agent ?l - light ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?l) (light_on ?l))
    :effect (not (light_on ?l)))

  (:action open_window
    :parameters (?a - agent ?w - window ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?w) (not (window_open ?w)))
    :effect (window_open ?w))

  (:action close_window
    :parameters (?a - agent ?w - window ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?w) (window_open ?w))
    :effect (not (window_open ?w)))

  (:action turn_on_faucet
    :parameters (?a - agent ?s - sink ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?s) (not (faucet_on ?s)))
    :effect (faucet_on ?s))

  (:action turn_off_faucet
    :parameters (?a - agent ?s - sink ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?s) (faucet_on ?s))
    :effect (not (faucet_on ?s)))

  ; ---------------------------------------------------------------- TV (remote in hand)
  (:action turn_on_tv
    :parameters (?a - agent ?tv - tv ?rm - remote ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?tv) (remote_controls ?rm ?tv)
                       (in_agent_hand ?rm ?a) (not (tv_on ?tv)))
    :effect (tv_on ?tv))

  (:action turn_off_tv
    :parameters (?a - agent ?tv - tv ?rm - remote ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?tv) (remote_controls ?rm ?tv)
                       (in_agent_hand ?rm ?a) (tv_on ?tv))
    :effect (not (tv_on ?tv)))

  (:action switch_tv_channel
    :parameters (?a - agent ?tv - tv ?rm - remote ?c - channel ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?tv) (remote_controls ?rm ?tv)
                       (in_agent_hand ?rm ?a) (tv_on ?tv) (not (tv_playing_channel ?tv ?c)))
    :effect (and (forall (?old - channel)
                   (when (tv_playing_channel ?tv ?old) (not (tv_playing_channel ?tv ?old))))
                 (tv_playing_channel ?tv ?c)))

  ; ---------------------------------------------------------------- phones
  (:action answer_phone
    :parameters (?a - agent ?ph - phone)
    :precondition (and (in_agent_hand ?ph ?a) (phone_ringing ?ph))
    :effect (not (phone_ringing ?ph)))

  ; ---------------------------------------------------------------- dishes and glasses
  (:action wash_dish
    :parameters (?a - agent ?k - kitchenware ?s - kitchensink ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?s) (placed_at_kitchensink ?k ?s)
                       (faucet_on ?s) (not (dish_is_clean ?k)))
    :effect (dish_is_clean ?k))

  (:action fill_glass
    :parameters (?a - agent ?g - glass ?l - liquid ?fr - fridge ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?fr) (in_agent_hand ?g ?a)
                       (glass_empty ?g) (dish_is_clean ?g))
    :effect (and (not (glass_empty ?g)) (glass_has_liquid ?g ?l) (not (dish_is_clean ?g))))

  (:action empty_glass
    :parameters (?a - agent ?g - glass ?l - liquid ?s - kitchensink ?r - room)
    :precondition (and (agent_in_room ?a ?r) (room_has ?r ?s) (in_agent_hand ?g ?a)
                       (glass_has_liquid ?g ?l))
    :effect (and (not (glass_has_liquid ?g ?l)) (glass_empty ?g)))

  ; ---------------------------------------------------------------- people
  (:action hand_to_person
    :parameters (?a - agent ?i - item ?p - person ?r - room)
    :precondition (and (agent_in_room ?a ?r) (person_in_room ?p ?r) (in_agent_hand ?i ?a))
    :effect (and (not (in_agent_hand ?i ?a)) (in_person_hand ?i ?p)))

  (:action take_from_person
    :parameters (?a - agent ?i - item ?p - person ?r - room)
    :precondition (and (agent_in_room ?a ?r) (person_in_room ?p ?r) (in_person_hand ?i ?p))
    :effect (and (not (in_person_hand ?i ?p)) (in_agent_hand ?i ?a)))
)
