; Plant nursery: a mobile robot helps the growers of a small production nursery - two
; glasshouses, a polytunnel, a potting shed, a mess room, a padlocked chemical store and
; the yard between them. It carries pots, trays and tools, waters and tags plants, works
; the doors, roof vents and heaters and keeps the battery tools charged (blind evaluation
; domain for l3mp_ros).
;
; Design:
;
; * Agents are the robot (`rover` in the KG) and the people; (at ?a ?z) says which zone
;   each of them is in. Every action takes the robot as its first parameter ?r.
; * The robot carries one thing at a time: (carrying ?r ?x), with the blocks-world style
;   flag (handempty ?r). People hold things: (holding ?p ?x) - holder first, like the
;   robot's carrying.
; * Otherwise a thing is, thing first:
;     (on_bench ?x ?b)       on a bench, a staging table or a shelf;
;     (on_floor ?x ?z)       standing on the ground of a zone (big pots, sacks);
;     (in_barrow ?x ?b)      in a wheelbarrow;
;     (on_hook ?x ?k)        hanging on a rack of hooks (tools, coats, keys);
;     (plugged_into ?t ?c)   a battery tool on a charge point.
; * Fixtures stand in a zone, (in_zone ?f ?z). Wheelbarrows are the only fixtures that
;   move: people wheel them about (the robot cannot), and what is in one goes with it.
; * Doors: (opens_onto ?d ?z) once per side. The robot passes a door that is not
;   door_shut; a padlocked door is shut, and the robot opens or fits the padlock only
;   while carrying the key that unlocks it ((unlocks ?k ?d)).
; * Roof vents, heaters: the robot works them in their zone. Misting runs on a timer
;   (misting is set by reports only).
; * Plants: (soil_dry ?p) until watered; the robot waters a plant standing on a bench,
;   not one that is waterlogged. (tagged ?p) for a plant label, written on a bench.
;   (wants_shade ?p) is a fixed property of the plant, (looks_after ?g ?p) names the
;   grower or volunteer in charge of it. infested and waterlogged come from reports.
; * Battery tools: a charge point tops a tool up while the robot plugs it in, so plug_in
;   clears battery_low; reports say when a battery runs low.
; * (owned_by ?x ?p): personal things and people's own tools.
;
; Facts no action changes: opens_onto, unlocks, in_zone, wants_shade, looks_after,
; owned_by, misting, infested, waterlogged. Where people are changes by reports only.

(define (domain plant_nursery)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    zone agent fixture item door - object
    robot person - agent
    glasshouse tunnel_house outbuilding open_ground - zone
    grower apprentice volunteer - person
    bench rack charge_point vent heater mister barrow - fixture
    plant tool sack key belonging - item
    seed_tray shrub tropical orchid fern - plant
    hand_tool power_tool - tool)

  (:predicates
    (at ?a - agent ?z - zone)
    (in_zone ?f - fixture ?z - zone)
    (opens_onto ?d - door ?z - zone)
    (unlocks ?k - key ?d - door)
    (door_shut ?d - door)
    (padlocked ?d - door)
    (vent_open ?v - vent)
    (heater_on ?h - heater)
    (misting ?m - mister)
    (on_bench ?x - item ?b - bench)
    (on_floor ?x - item ?z - zone)
    (in_barrow ?x - item ?b - barrow)
    (on_hook ?x - item ?k - rack)
    (plugged_into ?t - power_tool ?c - charge_point)
    (holding ?p - person ?x - item)
    (carrying ?r - robot ?x - item)
    (handempty ?r - robot)
    (soil_dry ?p - plant)
    (waterlogged ?p - plant)
    (tagged ?p - plant)
    (infested ?p - plant)
    (wants_shade ?p - plant)
    (looks_after ?g - person ?p - plant)
    (owned_by ?x - item ?p - person)
    (battery_low ?t - power_tool))

  ; ------------------------------------------------------------ moving and doors
  (:action move
    :parameters (?r - robot ?d - door ?from - zone ?to - zone)
    :precondition (and (at ?r ?from) (opens_onto ?d ?from) (opens_onto ?d ?to)
                       (not (door_shut ?d)))
    :effect (and (not (at ?r ?from)) (at ?r ?to)))

  (:action open_door
    :parameters (?r - robot ?d - door ?z - zone)
    :precondition (and (at ?r ?z) (opens_onto ?d ?z) (door_shut ?d) (not (padlocked ?d)))
    :effect (not (door_shut ?d)))

  (:action shut_door
    :parameters (?r - robot ?d - door ?z - zone)
    :precondition (and (at ?r ?z) (opens_onto ?d ?z) (not (door_shut ?d)))
    :effect (door_shut ?d))

  (:action remove_padlock
    :parameters (?r - robot ?k - key ?d - door ?z - zone)
    :precondition (and (at ?r ?z) (opens_onto ?d ?z) (padlocked ?d) (carrying ?r ?k)
                       (unlocks ?k ?d))
    :effect (not (padlocked ?d)))

  (:action fit_padlock
    :parameters (?r - robot ?k - key ?d - door ?z - zone)
    :precondition (and (at ?r ?z) (opens_onto ?d ?z) (door_shut ?d) (not (padlocked ?d))
                       (carrying ?r ?k) (unlocks ?k ?d))
    :effect (padlocked ?d))

  ; ------------------------------------------------------------ climate
  (:action open_vent
    :parameters (?r - robot ?v - vent ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?v ?z) (not (vent_open ?v)))
    :effect (vent_open ?v))

  (:action close_vent
    :parameters (?r - robot ?v - vent ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?v ?z) (vent_open ?v))
    :effect (not (vent_open ?v)))

  (:action switch_on_heater
    :parameters (?r - robot ?h - heater ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?h ?z) (not (heater_on ?h)))
    :effect (heater_on ?h))

  (:action switch_off_heater
    :parameters (?r - robot ?h - heater ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?h ?z) (heater_on ?h))
    :effect (not (heater_on ?h)))

  ; ------------------------------------------------------------ carrying things
  (:action lift_from_bench
    :parameters (?r - robot ?x - item ?b - bench ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?b ?z) (on_bench ?x ?b) (handempty ?r))
    :effect (and (not (on_bench ?x ?b)) (not (handempty ?r)) (carrying ?r ?x)))

  (:action set_on_bench
    :parameters (?r - robot ?x - item ?b - bench ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?b ?z) (carrying ?r ?x))
    :effect (and (not (carrying ?r ?x)) (handempty ?r) (on_bench ?x ?b)))

  (:action pick_up_off_floor
    :parameters (?r - robot ?x - item ?z - zone)
    :precondition (and (at ?r ?z) (on_floor ?x ?z) (handempty ?r))
    :effect (and (not (on_floor ?x ?z)) (not (handempty ?r)) (carrying ?r ?x)))

  (:action set_down
    :parameters (?r - robot ?x - item ?z - zone)
    :precondition (and (at ?r ?z) (carrying ?r ?x))
    :effect (and (not (carrying ?r ?x)) (handempty ?r) (on_floor ?x ?z)))

  (:action take_out_of_barrow
    :parameters (?r - robot ?x - item ?b - barrow ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?b ?z) (in_barrow ?x ?b) (handempty ?r))
    :effect (and (not (in_barrow ?x ?b)) (not (handempty ?r)) (carrying ?r ?x)))

  (:action load_into_barrow
    :parameters (?r - robot ?x - item ?b - barrow ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?b ?z) (carrying ?r ?x))
    :effect (and (not (carrying ?r ?x)) (handempty ?r) (in_barrow ?x ?b)))

  (:action take_off_hook
    :parameters (?r - robot ?x - item ?k - rack ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?k ?z) (on_hook ?x ?k) (handempty ?r))
    :effect (and (not (on_hook ?x ?k)) (not (handempty ?r)) (carrying ?r ?x)))

  (:action hang_on_hook
    :parameters (?r - robot ?x - item ?k - rack ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?k ?z) (carrying ?r ?x))
    :effect (and (not (carrying ?r ?x)) (handempty ?r) (on_hook ?x ?k)))

  (:action give
    :parameters (?r - robot ?x - item ?p - person ?z - zone)
    :precondition (and (at ?r ?z) (at ?p ?z) (carrying ?r ?x))
    :effect (and (not (carrying ?r ?x)) (handempty ?r) (holding ?p ?x)))

  (:action take_from
    :parameters (?r - robot ?x - item ?p - person ?z - zone)
    :precondition (and (at ?r ?z) (at ?p ?z) (holding ?p ?x) (handempty ?r))
    :effect (and (not (holding ?p ?x)) (not (handempty ?r)) (carrying ?r ?x)))

  ; ------------------------------------------------------------ plants and tools
  (:action water
    :parameters (?r - robot ?p - plant ?b - bench ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?b ?z) (on_bench ?p ?b) (soil_dry ?p)
                       (not (waterlogged ?p)))
    :effect (not (soil_dry ?p)))

  (:action tag_plant
    :parameters (?r - robot ?p - plant ?b - bench ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?b ?z) (on_bench ?p ?b) (handempty ?r)
                       (not (tagged ?p)))
    :effect (tagged ?p))

  (:action plug_in
    :parameters (?r - robot ?t - power_tool ?c - charge_point ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?c ?z) (carrying ?r ?t))
    :effect (and (not (carrying ?r ?t)) (handempty ?r) (plugged_into ?t ?c)
                 (not (battery_low ?t))))

  (:action unplug
    :parameters (?r - robot ?t - power_tool ?c - charge_point ?z - zone)
    :precondition (and (at ?r ?z) (in_zone ?c ?z) (plugged_into ?t ?c) (handempty ?r))
    :effect (and (not (plugged_into ?t ?c)) (not (handempty ?r)) (carrying ?r ?t)))
)
