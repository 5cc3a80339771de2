; L3M+P AI2-THOR / ProcTHOR domain (l3mp_ros).
; Typed STRIPS with negative preconditions; one robot with one hand.
; Object types come from AI2-THOR objectType via config/ai2thor_types.yaml.
; Facts mirror AI2-THOR object metadata (see l3mp_ros/ai2thor/scene_graph.py):
;   isOpen -> is_open, isToggled -> is_toggled, isDirty -> is_dirty, isBroken -> is_broken,
;   isFilledWithLiquid -> is_filled, isCooked -> is_cooked, isSliced -> is_sliced,
;   temperature Cold/Hot -> is_cold/is_hot, isPickedUp -> held_by, the innermost
;   parentReceptacles entry -> in_receptacle, floor polygon of the room -> in_room.
; A held item is in no room and no receptacle.  Closed-world: absent flag = false.
; Task goals (paper Sec. V-B):
;   pick & place     (in_receptacle mug_1 diningtable_1)
;   wash dishes      (not (is_dirty plate_1))
;   clean bed        (not (is_dirty bed_1))
;   discard broken   (in_receptacle vase_1 garbagecan_1)
;   keep food cold   (in_receptacle apple_1 fridge_1)
(define (domain ai2thor)
  (:requirements :strips :typing :negative-preconditions)
  (:types
    robot room thing - object
    item fixture - thing
    food dish decor - item
    surface container garbage_can appliance - fixture
    sink bed - surface
    fridge - container
    faucet - appliance
  )
  (:predicates
    (robot_in_room ?rb - robot ?rm - room)
    (robot_at ?rb - robot ?t - thing)
    (hand_empty ?rb - robot)
    (held_by ?o - item ?rb - robot)
    (in_receptacle ?o - item ?r - thing)
    (in_room ?t - thing ?rm - room)
    (is_open ?t - thing)
    (is_toggled ?t - thing)
    (is_dirty ?t - thing)
    (is_broken ?t - thing)
    (is_filled ?t - thing)
    (is_cooked ?t - thing)
    (is_sliced ?t - thing)
    (is_cold ?t - thing)
    (is_hot ?t - thing)
  )

  ; GetInteractablePoses + TeleportFull to a pose facing ?to.
  (:action navigate_to
    :parameters (?rb - robot ?from - thing ?to - thing ?rm_from - room ?rm_to - room)
    :precondition (and (robot_at ?rb ?from) (robot_in_room ?rb ?rm_from) (in_room ?to ?rm_to))
    :effect (and (not (robot_at ?rb ?from)) (not (robot_in_room ?rb ?rm_from))
                 (robot_at ?rb ?to) (robot_in_room ?rb ?rm_to)))

  ; PickupObject from an open receptacle (counter, table, shelf, sink, bed ...).
  (:action pickup
    :parameters (?rb - robot ?o - item ?r - surface ?rm - room)
    :precondition (and (robot_at ?rb ?r) (robot_in_room ?rb ?rm) (hand_empty ?rb)
                       (in_receptacle ?o ?r) (in_room ?o ?rm))
    :effect (and (not (in_receptacle ?o ?r)) (not (in_room ?o ?rm)) (not (hand_empty ?rb))
                 (held_by ?o ?rb)))

  ; PickupObject from an openable receptacle (fridge, cabinet, drawer, microwave).
  (:action pickup_from
    :parameters (?rb - robot ?o - item ?c - container ?rm - room)
    :precondition (and (robot_at ?rb ?c) (robot_in_room ?rb ?rm) (hand_empty ?rb)
                       (is_open ?c) (in_receptacle ?o ?c) (in_room ?o ?rm))
    :effect (and (not (in_receptacle ?o ?c)) (not (in_room ?o ?rm)) (not (hand_empty ?rb))
                 (held_by ?o ?rb)))

  ; PickupObject of an item lying on/in another item (egg in a bowl).
  (:action pickup_from_item
    :parameters (?rb - robot ?o - item ?r - item ?rm - room)
    :precondition (and (robot_at ?rb ?r) (robot_in_room ?rb ?rm) (hand_empty ?rb)
                       (in_receptacle ?o ?r) (in_room ?o ?rm))
    :effect (and (not (in_receptacle ?o ?r)) (not (in_room ?o ?rm)) (not (hand_empty ?rb))
                 (held_by ?o ?rb)))

  ; PutObject onto an open receptacle.
  (:action put_on
    :parameters (?rb - robot ?o - item ?r - surface ?rm - room)
    :precondition (and (held_by ?o ?rb) (robot_at ?rb ?r) (robot_in_room ?rb ?rm))
    :effect (and (not (held_by ?o ?rb)) (hand_empty ?rb) (in_receptacle ?o ?r) (in_room ?o ?rm)))

  ; PutObject into an opened receptacle.
  (:action put_in
    :parameters (?rb - robot ?o - item ?c - container ?rm - room)
    :precondition (and (held_by ?o ?rb) (robot_at ?rb ?c) (robot_in_room ?rb ?rm) (is_open ?c))
    :effect (and (not (held_by ?o ?rb)) (hand_empty ?rb) (in_receptacle ?o ?c) (in_room ?o ?rm)))

  ; PutObject into a GarbageCan.
  (:action discard
    :parameters (?rb - robot ?o - item ?g - garbage_can ?rm - room)
    :precondition (and (held_by ?o ?rb) (robot_at ?rb ?g) (robot_in_room ?rb ?rm))
    :effect (and (not (held_by ?o ?rb)) (hand_empty ?rb) (in_receptacle ?o ?g) (in_room ?o ?rm)))

  ; OpenObject / CloseObject.
  (:action open
    :parameters (?rb - robot ?c - container)
    :precondition (and (robot_at ?rb ?c) (not (is_open ?c)))
    :effect (is_open ?c))

  (:action close
    :parameters (?rb - robot ?c - container)
    :precondition (and (robot_at ?rb ?c) (is_open ?c))
    :effect (not (is_open ?c)))

  ; ToggleObjectOn / ToggleObjectOff (faucets, microwaves, lamps ...).
  (:action toggle_on
    :parameters (?rb - robot ?t - fixture)
    :precondition (and (robot_at ?rb ?t) (not (is_toggled ?t)))
    :effect (is_toggled ?t))

  (:action toggle_off
    :parameters (?rb - robot ?t - fixture)
    :precondition (and (robot_at ?rb ?t) (is_toggled ?t))
    :effect (not (is_toggled ?t)))

  ; CleanObject on a dish that lies in a sink basin under a running faucet of the same room.
  (:action wash
    :parameters (?rb - robot ?d - dish ?s - sink ?f - faucet ?rm - room)
    :precondition (and (robot_at ?rb ?s) (robot_in_room ?rb ?rm) (in_receptacle ?d ?s)
                       (in_room ?s ?rm) (in_room ?f ?rm) (is_toggled ?f) (is_dirty ?d))
    :effect (not (is_dirty ?d)))

  ; CleanObject on a Bed (AI2-THOR beds are dirtyable: dirty = unmade).
  (:action make_bed
    :parameters (?rb - robot ?b - bed)
    :precondition (and (robot_at ?rb ?b) (is_dirty ?b))
    :effect (not (is_dirty ?b)))

  ; EmptyLiquidFromObject on the held item.
  (:action empty_liquid
    :parameters (?rb - robot ?o - item)
    :precondition (and (held_by ?o ?rb) (is_filled ?o))
    :effect (not (is_filled ?o)))
)
