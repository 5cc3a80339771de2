; Family campsite: a helper robot fetches, carries, stores and hands over kit on a busy
; summer weekend at a small holiday park (two fields of tent pitches and two static
; caravans; the reception and shop, the shower block, the washing-up area, the play area,
; the camp kitchen in the old barn, the car park with its gas cage, and the lake with the
; kayak hut) (public development evaluation domain for l3mp_ros).
;
; Modelling choices:
;
; * Names are terse, classic IPC style: short lower-case predicates, several of them
;   overloaded so that the argument types tell the cases apart (at: a person, the robot,
;   a barrow or the buggy in a space; held: an item in a person's hands or in the
;   robot's; in: an item in a store; on: an item on a support, a pitch among them).
;   Object names in the KG are snake_case (pitch_4, gas_cage, blue_water_carrier).
; * One robot (type `robot`, `sitebot` in the KG), always the first parameter ?r. Robots
;   and people are both `agent`s, so (held ?x ?a) covers a thing in someone's hands and
;   a thing in the robot's one hand. The flag (handempty ?r) says the robot's hand is
;   free: every action that takes hold of an item consumes it, every action that lets go
;   gives it back, and pushing a barrow needs the hand free. A constraint rule caps the
;   robot at one held item; that the flag and the held facts agree is left to the actions.
; * Every place an item can be is a binary fact with the item first, so one "exactly one
;   place" rule covers them all:
;     (on ?x ?u)       on a support: a desk, shelf, table, bench, the draining board, the
;                      jetty, the kayak rack, the charging point, or a tent pitch;
;     (hung ?x ?h)     on a hook: the key hooks, towel hooks, barn hooks, the pegs in the
;                      kayak hut, the lifebuoy post;
;     (in ?x ?c)       in a store: the big freezer, the barn freezer, the valuables
;                      lockers, the lost-property box, the gas cage, the kit box;
;     (loaded ?x ?v)   in a wheelbarrow, a camping cart or the site buggy;
;     (held ?x ?a)     in a person's hands, pocket or worn, or in the robot's hand.
; * Tents are items. A tent stands on its pitch while it is up ((pitched ?t), which
;   requires it to be `on` something); people pitch and strike tents, so `pitched` changes
;   by reports alone, and the robot moves a tent only once it is struck and bagged.
; * Spaces are joined two ways: a doorway (a door or a gate) listed with (joins ?d ?s)
;   for each of its two spaces, passed only while (open ?d); or an open boundary
;   ((connected ?a ?b), listed both ways: the green runs on to the top field, the play
;   area and the washing-up area, the top field down to the lower field). The robot
;   unlocks and locks a doorway only with a key that fits it ((fits ?k ?d)) in its hand;
;   the lake gate has a code lock, so only reports change it.
; * Vehicles: the robot pushes a barrow (the site wheelbarrow, the Hendersons' camping
;   cart) with its hand free, through an open doorway or across an open boundary, the
;   load aboard (loaded does not change). The site buggy is driven by the staff: only
;   reports move it, though the robot loads and unloads it where it stands.
; * Fixtures are installed for good ((located ?f ?s)). Lamps are switched on and off
;   ((lit ?l): the path lights, the shower-block lights, the barn lights, the hut
;   light); appliances likewise ((powered ?a): the shower boiler, the tea urn, the
;   bouncy-castle blower). The robot fills an empty water carrier at a tap with the
;   carrier in its hand, rinses a dirty pot or bowl under a tap, and charges a device
;   (a radio, a lantern, a power bank) standing on the charging point.
; * Whether a gas bottle has run out (full), whether kit is wet, dirty, frozen or blown
;   up (inflated), whether a camper has paid, whether a member of staff is on duty, and
;   where people and the buggy are change by reports alone. People also carry, hang,
;   stow, load, fill carriers and wheel barrows; reports say so.
; * (owns ?p ?x) records an owner (a camper's tent, carrier, lantern, pots, keys; a
;   child's teddy or football; a member of staff's radio, barrow or tool bag); the site's
;   own kit belongs to nobody. (booked ?u ?p) says whose pitch a pitch is this weekend.
;
; Facts no action changes: located, connected, joins, fits, owns, booked, pitched, paid,
; on-duty, frozen, inflated, wet.

(define (domain family_campsite)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    space mobile fixture item doorway - object
    field shore building - space
    caravan - building
    agent vehicle - mobile
    robot person - agent
    warden staff camper child visitor - person
    barrow buggy - vehicle
    support hook store lamp appliance tap - fixture
    pitch charger - support
    tent carrier cylinder device key boat kit - item
    door gate - doorway)

  (:predicates
    ; where things are
    (at ?x - mobile ?s - space)
    (located ?f - fixture ?s - space)
    (on ?x - item ?u - support)
    (in ?x - item ?c - store)
    (hung ?x - item ?h - hook)
    (loaded ?x - item ?v - vehicle)
    (held ?x - item ?a - agent)
    (handempty ?r - robot)
    ; the layout
    (connected ?a - space ?b - space)
    (joins ?d - doorway ?s - space)
    (open ?d - doorway)
    (locked ?d - doorway)
    (fits ?k - key ?d - doorway)
    ; switches and the state of things
    (lit ?l - lamp)
    (powered ?a - appliance)
    (pitched ?t - tent)
    (full ?x - item)
    (charged ?d - device)
    (wet ?x - item)
    (dirty ?x - item)
    (frozen ?x - item)
    (inflated ?x - item)
    ; people
    (owns ?p - person ?x - object)
    (booked ?u - pitch ?p - person)
    (paid ?p - person)
    (on-duty ?p - person))

  ; ---------------------------------------------------------------- getting about
  (:action walk
    :parameters (?r - robot ?from - space ?to - space)
    :precondition (and (at ?r ?from) (connected ?from ?to))
    :effect (and (not (at ?r ?from)) (at ?r ?to)))

  (:action pass
    :parameters (?r - robot ?d - doorway ?from - space ?to - space)
    :precondition (and (at ?r ?from) (joins ?d ?from) (joins ?d ?to) (open ?d))
    :effect (and (not (at ?r ?from)) (at ?r ?to)))

  (:action open-door
    :parameters (?r - robot ?d - doorway ?s - space)
    :precondition (and (at ?r ?s) (joins ?d ?s) (not (open ?d)) (not (locked ?d)))
    :effect (open ?d))

  (:action close-door
    :parameters (?r - robot ?d - doorway ?s - space)
    :precondition (and (at ?r ?s) (joins ?d ?s) (open ?d))
    :effect (not (open ?d)))

  (:action unlock
    :parameters (?r - robot ?k - key ?d - doorway ?s - space)
    :precondition (and (at ?r ?s) (joins ?d ?s) (held ?k ?r) (fits ?k ?d) (locked ?d))
    :effect (not (locked ?d)))

  (:action lock
    :parameters (?r - robot ?k - key ?d - doorway ?s - space)
    :precondition (and (at ?r ?s) (joins ?d ?s) (held ?k ?r) (fits ?k ?d)
                       (not (open ?d)) (not (locked ?d)))
    :effect (locked ?d))

  ; ---------------------------------------------------------------- barrows and the buggy
  (:action push
    :parameters (?r - robot ?b - barrow ?from - space ?to - space)
    :precondition (and (at ?r ?from) (at ?b ?from) (handempty ?r) (connected ?from ?to))
    :effect (and (not (at ?r ?from)) (at ?r ?to) (not (at ?b ?from)) (at ?b ?to)))

  (:action push-through
    :parameters (?r - robot ?b - barrow ?d - doorway ?from - space ?to - space)
    :precondition (and (at ?r ?from) (at ?b ?from) (handempty ?r)
                       (joins ?d ?from) (joins ?d ?to) (open ?d))
    :effect (and (not (at ?r ?from)) (at ?r ?to) (not (at ?b ?from)) (at ?b ?to)))

  (:action load
    :parameters (?r - robot ?x - item ?v - vehicle ?s - space)
    :precondition (and (at ?r ?s) (at ?v ?s) (held ?x ?r))
    :effect (and (not (held ?x ?r)) (handempty ?r) (loaded ?x ?v)))

  (:action unload
    :parameters (?r - robot ?x - item ?v - vehicle ?s - space)
    :precondition (and (at ?r ?s) (at ?v ?s) (loaded ?x ?v) (handempty ?r))
    :effect (and (not (loaded ?x ?v)) (not (handempty ?r)) (held ?x ?r)))

  ; ---------------------------------------------------------------- supports, hooks, stores
  (:action pick-up
    :parameters (?r - robot ?x - item ?u - support ?s - space)
    :precondition (and (at ?r ?s) (located ?u ?s) (on ?x ?u) (handempty ?r))
    :effect (and (not (on ?x ?u)) (not (handempty ?r)) (held ?x ?r)))

  (:action put-down
    :parameters (?r - robot ?x - item ?u - support ?s - space)
    :precondition (and (at ?r ?s) (located ?u ?s) (held ?x ?r))
    :effect (and (not (held ?x ?r)) (handempty ?r) (on ?x ?u)))

  (:action unhook
    :parameters (?r - robot ?x - item ?h - hook ?s - space)
    :precondition (and (at ?r ?s) (located ?h ?s) (hung ?x ?h) (handempty ?r))
    :effect (and (not (hung ?x ?h)) (not (handempty ?r)) (held ?x ?r)))

  (:action hang
    :parameters (?r - robot ?x - item ?h - hook ?s - space)
    :precondition (and (at ?r ?s) (located ?h ?s) (held ?x ?r))
    :effect (and (not (held ?x ?r)) (handempty ?r) (hung ?x ?h)))

  (:action take-out
    :parameters (?r - robot ?x - item ?c - store ?s - space)
    :precondition (and (at ?r ?s) (located ?c ?s) (in ?x ?c) (handempty ?r))
    :effect (and (not (in ?x ?c)) (not (handempty ?r)) (held ?x ?r)))

  (:action put-in
    :parameters (?r - robot ?x - item ?c - store ?s - space)
    :precondition (and (at ?r ?s) (located ?c ?s) (held ?x ?r) (not (wet ?x)))
    :effect (and (not (held ?x ?r)) (handempty ?r) (in ?x ?c)))

  ; ---------------------------------------------------------------- people
  (:action give
    :parameters (?r - robot ?x - item ?p - person ?s - space)
    :precondition (and (at ?r ?s) (at ?p ?s) (held ?x ?r))
    :effect (and (not (held ?x ?r)) (handempty ?r) (held ?x ?p)))

  (:action take-back
    :parameters (?r - robot ?x - item ?p - person ?s - space)
    :precondition (and (at ?r ?s) (at ?p ?s) (held ?x ?p) (handempty ?r))
    :effect (and (not (held ?x ?p)) (not (handempty ?r)) (held ?x ?r)))

  ; ---------------------------------------------------------------- switches, taps, charging
  (:action switch-on
    :parameters (?r - robot ?a - appliance ?s - space)
    :precondition (and (at ?r ?s) (located ?a ?s) (not (powered ?a)))
    :effect (powered ?a))

  (:action switch-off
    :parameters (?r - robot ?a - appliance ?s - space)
    :precondition (and (at ?r ?s) (located ?a ?s) (powered ?a))
    :effect (not (powered ?a)))

  (:action light
    :parameters (?r - robot ?l - lamp ?s - space)
    :precondition (and (at ?r ?s) (located ?l ?s) (not (lit ?l)))
    :effect (lit ?l))

  (:action douse
    :parameters (?r - robot ?l - lamp ?s - space)
    :precondition (and (at ?r ?s) (located ?l ?s) (lit ?l))
    :effect (not (lit ?l)))

  (:action fill
    :parameters (?r - robot ?c - carrier ?t - tap ?s - space)
    :precondition (and (at ?r ?s) (located ?t ?s) (held ?c ?r) (not (full ?c)))
    :effect (full ?c))

  (:action rinse
    :parameters (?r - robot ?x - kit ?t - tap ?s - space)
    :precondition (and (at ?r ?s) (located ?t ?s) (held ?x ?r) (dirty ?x))
    :effect (not (dirty ?x)))

  (:action charge
    :parameters (?r - robot ?d - device ?c - charger ?s - space)
    :precondition (and (at ?r ?s) (located ?c ?s) (on ?d ?c) (not (charged ?d)))
    :effect (charged ?d))
)
