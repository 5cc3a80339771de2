; Music school on a Saturday: a helper robot fetches, carries, puts away and hands over
; instruments, music and kit at a community music school on a Saturday morning (the foyer
; with the sign-in table and the lost-property box, the office behind reception, a
; corridor off the foyer with three practice rooms, the staff room and the locked
; instrument store, the recital hall with its stage; outside, the car park) (public
; development evaluation domain for l3mp_ros).
;
; Modelling choices:
;
; * Predicate names are short and mixed in style, as modellers write them: terse ones
;   (at, on, in, open, lit, fits), camelCase ones (inCase, onStand, onTrolley, heldBy,
;   inGrip, handFree, hungOn, brokenString, ownedBy, checkedIn) and unary adjectives
;   (tuned, plugged, powered, locked, signed, paid, booked). Object names are snake_case.
;   The project's PDDL reader lowercases names, so the store knows `incase`, `onstand`.
; * One robot (type `robot`, `helperbot` in the KG), always the first parameter ?r of an
;   action. It has one hand: (handFree ?r) is consumed by every action that takes hold of
;   an item and given back by every action that lets go of one, and pushing a trolley
;   needs the hand free. A constraint rule caps the hand at one item; that the flag and
;   the inGrip facts agree is left to the actions.
; * (at ?x ?s) says which space something is in, whatever it is: the robot, a person, a
;   trolley, a fixture (installed for good), or an item standing on the floor of a room
;   (a music stand, an amplifier, a keyboard on its own legs, an instrument case put down,
;   a cello leaning on the wall). Every other place an item can be is a binary fact with
;   the item first, so one "exactly one place" rule covers them all:
;     (at ?x ?s)         on the floor of a space;
;     (on ?x ?u)         on a surface: a desk, table, shelf or the store shelves, or on
;                        top of a piano (pianos are surfaces that can be tuned);
;     (in ?x ?c)         in a storage fixture: the filing cabinet, the lost-property box,
;                        the music library cabinet, the staff cupboard;
;     (hungOn ?x ?h)     on a hook: the key hooks in the office, the coat hooks in the
;                        staff room, the guitar hangers on the store wall;
;     (inCase ?i ?c)     an instrument in a case (the case is an item itself: the
;                        instrument goes wherever its case is taken, a gig bag included);
;     (onStand ?x ?st)   on a stand, a music stand for folders and books, the guitar stand
;                        for a guitar (a stand is an item: what is on it goes with it);
;     (onTrolley ?x ?t)  on the gear trolley or the stand trolley;
;     (heldBy ?x ?p)     in a person's hands, bag or pocket, or worn;
;     (inGrip ?x ?r)     in the robot's hand.
; * Trolleys are `portable` but not items: the robot pushes them through an open door or
;   across an open way, with their load aboard (onTrolley does not change).
; * Spaces are joined two ways: a door (an object, (joins ?d ?s) listed for each of its
;   two spaces) that the robot passes only while it is open, or an open way with no door
;   ((adjoins ?a ?b), listed both ways: the foyer runs into the corridor, and the recital
;   hall has a ramp up to its stage). Doors are locked and unlocked with a key that fits
;   ((fits ?k ?d)); a locked door is never open. Storage may be `locked` too (the robot
;   never takes anything out of, or puts anything in, locked storage), but it has no key
;   here: only reports lock or unlock it.
; * Lights (the hall lights, the stage lights, the store lights) are fixtures the robot
;   switches on and off ((lit ?l)). Amplifiers and keyboards are items: whether one is
;   plugged in at the wall and switched on ((plugged ?x), (powered ?x)) changes by reports
;   alone (the robot carries them but does not set them up); a powered one is plugged in,
;   and a plugged-in one stands on the floor of a room (constraint rules), so the robot
;   lifts only unplugged ones.
; * Where people are, whether an instrument or piano is in tune (tuned) or has a broken
;   string (brokenString, never both), whether a form or register is signed, whether a
;   pupil has signed in at the front desk (checkedIn) or paid the term's fees (paid), and
;   which rooms are booked change by reports alone. People also carry, put down, hand
;   over, pack and unpack instruments; reports say so. The robot gives items to, and
;   takes them from, people in its space.
; * (ownedBy ?x ?p) records whose a thing is: a pupil's instrument, case or folder, a
;   teacher's guitar, coat, mug or register, a parent's umbrella. The school's own kit
;   (the school violins, the cello, the school guitar, the stands, amps and keyboards)
;   belongs to nobody.
;
; Facts no action changes: joins, adjoins, fits, ownedBy, and at for fixtures.

(define (domain music_school)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    space person fixture portable robot door - object
    practiceRoom room commonArea outdoor - space
    teacher pupil parent caretaker receptionist - person
    surface storage hook light - fixture
    piano - surface
    item trolley - portable
    instrument case stand amp music cable key paperwork gadget belonging - item
    strings wind keyboard - instrument)

  (:predicates
    ; where the robot, people, trolleys, fixtures and things are
    (at ?x - object ?s - space)
    (on ?x - item ?u - surface)
    (in ?x - item ?c - storage)
    (hungOn ?x - item ?h - hook)
    (inCase ?i - instrument ?c - case)
    (onStand ?x - item ?st - stand)
    (onTrolley ?x - item ?t - trolley)
    (heldBy ?x - item ?p - person)
    (inGrip ?x - item ?r - robot)
    (handFree ?r - robot)
    ; the building
    (joins ?d - door ?s - space)
    (adjoins ?a - space ?b - space)
    (open ?d - door)
    (locked ?x - object)
    (fits ?k - key ?d - door)
    (lit ?l - light)
    ; gear and instruments
    (plugged ?x - item)
    (powered ?x - item)
    (tuned ?x - object)
    (brokenString ?i - instrument)
    ; paperwork, pupils, rooms and owners
    (signed ?p - paperwork)
    (checkedIn ?p - pupil)
    (paid ?p - pupil)
    (booked ?s - space)
    (ownedBy ?x - object ?p - person))

  ; ---------------------------------------------------------------- getting about, doors
  (:action goThrough
    :parameters (?r - robot ?d - door ?from - space ?to - space)
    :precondition (and (at ?r ?from) (joins ?d ?from) (joins ?d ?to) (open ?d))
    :effect (and (not (at ?r ?from)) (at ?r ?to)))

  (:action walk
    :parameters (?r - robot ?from - space ?to - space)
    :precondition (and (at ?r ?from) (adjoins ?from ?to))
    :effect (and (not (at ?r ?from)) (at ?r ?to)))

  (:action openDoor
    :parameters (?r - robot ?d - door ?s - space)
    :precondition (and (at ?r ?s) (joins ?d ?s) (not (open ?d)) (not (locked ?d)))
    :effect (open ?d))

  (:action closeDoor
    :parameters (?r - robot ?d - door ?s - space)
    :precondition (and (at ?r ?s) (joins ?d ?s) (open ?d))
    :effect (not (open ?d)))

  (:action unlockDoor
    :parameters (?r - robot ?k - key ?d - door ?s - space)
    :precondition (and (at ?r ?s) (joins ?d ?s) (inGrip ?k ?r) (fits ?k ?d) (locked ?d))
    :effect (not (locked ?d)))

  (:action lockDoor
    :parameters (?r - robot ?k - key ?d - door ?s - space)
    :precondition (and (at ?r ?s) (joins ?d ?s) (inGrip ?k ?r) (fits ?k ?d)
                       (not (open ?d)) (not (locked ?d)))
    :effect (locked ?d))

  ; ---------------------------------------------------------------- trolleys
  (:action pushThrough
    :parameters (?r - robot ?t - trolley ?d - door ?from - space ?to - space)
    :precondition (and (at ?r ?from) (at ?t ?from) (handFree ?r)
                       (joins ?d ?from) (joins ?d ?to) (open ?d))
    :effect (and (not (at ?r ?from)) (at ?r ?to) (not (at ?t ?from)) (at ?t ?to)))

  (:action pushAcross
    :parameters (?r - robot ?t - trolley ?from - space ?to - space)
    :precondition (and (at ?r ?from) (at ?t ?from) (handFree ?r) (adjoins ?from ?to))
    :effect (and (not (at ?r ?from)) (at ?r ?to) (not (at ?t ?from)) (at ?t ?to)))

  (:action loadTrolley
    :parameters (?r - robot ?x - item ?t - trolley ?s - space)
    :precondition (and (at ?r ?s) (at ?t ?s) (inGrip ?x ?r))
    :effect (and (not (inGrip ?x ?r)) (handFree ?r) (onTrolley ?x ?t)))

  (:action unloadTrolley
    :parameters (?r - robot ?x - item ?t - trolley ?s - space)
    :precondition (and (at ?r ?s) (at ?t ?s) (onTrolley ?x ?t) (handFree ?r))
    :effect (and (not (onTrolley ?x ?t)) (not (handFree ?r)) (inGrip ?x ?r)))

  ; ---------------------------------------------------------------- floor, surfaces, storage, hooks
  (:action lift
    :parameters (?r - robot ?x - item ?s - space)
    :precondition (and (at ?r ?s) (at ?x ?s) (not (plugged ?x)) (handFree ?r))
    :effect (and (not (at ?x ?s)) (not (handFree ?r)) (inGrip ?x ?r)))

  (:action setDown
    :parameters (?r - robot ?x - item ?s - space)
    :precondition (and (at ?r ?s) (inGrip ?x ?r))
    :effect (and (not (inGrip ?x ?r)) (handFree ?r) (at ?x ?s)))

  (:action pickUp
    :parameters (?r - robot ?x - item ?u - surface ?s - space)
    :precondition (and (at ?r ?s) (at ?u ?s) (on ?x ?u) (handFree ?r))
    :effect (and (not (on ?x ?u)) (not (handFree ?r)) (inGrip ?x ?r)))

  (:action putOn
    :parameters (?r - robot ?x - item ?u - surface ?s - space)
    :precondition (and (at ?r ?s) (at ?u ?s) (inGrip ?x ?r))
    :effect (and (not (inGrip ?x ?r)) (handFree ?r) (on ?x ?u)))

  (:action takeOut
    :parameters (?r - robot ?x - item ?c - storage ?s - space)
    :precondition (and (at ?r ?s) (at ?c ?s) (in ?x ?c) (not (locked ?c)) (handFree ?r))
    :effect (and (not (in ?x ?c)) (not (handFree ?r)) (inGrip ?x ?r)))

  (:action putIn
    :parameters (?r - robot ?x - item ?c - storage ?s - space)
    :precondition (and (at ?r ?s) (at ?c ?s) (inGrip ?x ?r) (not (locked ?c)))
    :effect (and (not (inGrip ?x ?r)) (handFree ?r) (in ?x ?c)))

  (:action unhook
    :parameters (?r - robot ?x - item ?h - hook ?s - space)
    :precondition (and (at ?r ?s) (at ?h ?s) (hungOn ?x ?h) (handFree ?r))
    :effect (and (not (hungOn ?x ?h)) (not (handFree ?r)) (inGrip ?x ?r)))

  (:action hangUp
    :parameters (?r - robot ?x - item ?h - hook ?s - space)
    :precondition (and (at ?r ?s) (at ?h ?s) (inGrip ?x ?r))
    :effect (and (not (inGrip ?x ?r)) (handFree ?r) (hungOn ?x ?h)))

  ; ---------------------------------------------------------------- cases and stands
  (:action unpack
    :parameters (?r - robot ?i - instrument ?c - case ?s - space)
    :precondition (and (at ?r ?s) (at ?c ?s) (inCase ?i ?c) (handFree ?r))
    :effect (and (not (inCase ?i ?c)) (not (handFree ?r)) (inGrip ?i ?r)))

  (:action pack
    :parameters (?r - robot ?i - instrument ?c - case ?s - space)
    :precondition (and (at ?r ?s) (at ?c ?s) (inGrip ?i ?r))
    :effect (and (not (inGrip ?i ?r)) (handFree ?r) (inCase ?i ?c)))

  (:action takeOffStand
    :parameters (?r - robot ?x - item ?st - stand ?s - space)
    :precondition (and (at ?r ?s) (at ?st ?s) (onStand ?x ?st) (handFree ?r))
    :effect (and (not (onStand ?x ?st)) (not (handFree ?r)) (inGrip ?x ?r)))

  (:action putOnStand
    :parameters (?r - robot ?x - item ?st - stand ?s - space)
    :precondition (and (at ?r ?s) (at ?st ?s) (inGrip ?x ?r))
    :effect (and (not (inGrip ?x ?r)) (handFree ?r) (onStand ?x ?st)))

  ; ---------------------------------------------------------------- people
  (:action give
    :parameters (?r - robot ?x - item ?p - person ?s - space)
    :precondition (and (at ?r ?s) (at ?p ?s) (inGrip ?x ?r))
    :effect (and (not (inGrip ?x ?r)) (handFree ?r) (heldBy ?x ?p)))

  (:action takeFrom
    :parameters (?r - robot ?x - item ?p - person ?s - space)
    :precondition (and (at ?r ?s) (at ?p ?s) (heldBy ?x ?p) (handFree ?r))
    :effect (and (not (heldBy ?x ?p)) (not (handFree ?r)) (inGrip ?x ?r)))

  ; ---------------------------------------------------------------- lights
  (:action lightsOn
    :parameters (?r - robot ?l - light ?s - space)
    :precondition (and (at ?r ?s) (at ?l ?s) (not (lit ?l)))
    :effect (lit ?l))

  (:action lightsOff
    :parameters (?r - robot ?l - light ?s - space)
    :precondition (and (at ?r ?s) (at ?l ?s) (lit ?l))
    :effect (not (lit ?l)))
)
