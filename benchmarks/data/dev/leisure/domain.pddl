; Leisure centre: a helper robot fetches, carries, puts away and hands over equipment at a
; public leisure centre on a busy Saturday (reception with the café counter, the changing
; rooms with their lockers, the pool hall with four lanes, the sauna and the pool hoist,
; the gym, the sports hall with two courts, the first-aid room, the plant room and the
; store; outside, the car park) (public development evaluation domain for l3mp_ros).
;
; Modelling choices:
;
; * Predicate, action and multiword type names are written in camelCase (personAt,
;   onSurface, pickUp, firstAidKit); object names in the KG stay snake_case (lane_3,
;   locker_12, mrs_okoye).
; * One robot (type `robot`, `centrebot` in the KG), always the first parameter ?r of an
;   action. It carries one thing at a time in its gripper: (gripperFree ?r) is consumed by
;   every action that takes hold of an item and given back by every action that lets go
;   of one, and pushing a trolley needs the gripper free. A constraint rule caps the
;   gripper at one item; that the flag and the inGripper facts agree is left to the
;   actions.
; * Every place an item can be is a binary fact with the item first, so one "exactly one
;   place" rule covers them all:
;     (onSurface ?x ?s)  on a surface: a desk, counter, bench, shelf, the lifeguard
;                        chair, the charging dock, or a lane end or court (lanes and
;                        courts are surfaces: kit is left at the end of lane 2 or on
;                        court one);
;     (hungOn ?x ?h)     on a hook: the key cabinet, the float rack, the mop hooks;
;     (storedIn ?x ?c)   in a storage fixture: a cupboard, the first-aid cabinet, the
;                        towel bin, the lost-property box, or a locker;
;     (onTrolley ?x ?t)  on the float trolley, the cleaning trolley or the hall trolley;
;     (heldBy ?x ?p)     in a person's hands, bag or pocket;
;     (wornBy ?x ?p)     worn: armbands, goggles, a locker key on its wristband;
;     (inGripper ?x ?r)  in the robot's gripper.
; * People are not items and the robot never moves them: reports alone say where people
;   are (a child goes where its parent takes it; each person has their own personAt).
; * Areas are joined two ways: a door (an object, (connects ?d ?a) listed for each of its
;   two areas) that the robot passes only while it is open, or an open way through with
;   no door ((adjacent ?a ?b), listed both ways: reception runs through the turnstiles
;   into the changing rooms, and the changing rooms open onto the pool hall). Doors and
;   lockers are locked and unlocked with a key that fits ((keyFits ?k ?x), (isLocked ?x),
;   typed on object for both); a locked door is never open.
; * Trolleys are `portable` but not items: the robot pushes them through an open door or
;   across an open way with their load aboard, and the load does not change.
; * Fixtures are installed for good ((installedIn ?f ?a)). Appliances (the sauna, the pool
;   hoist, the hall lights, the fans, the pool heater) are switched on and off, never
;   while out of order. The robot mops a wet floor dry with a mop in its gripper (isWet
;   holds of areas, meaning their floor, and of towels) and puts a radio on the charging
;   dock to charge it.
; * Where people are, who has signed in at the desk, which lanes and courts are
;   in use, which area is closed to the public, what is out of order, whether a first-aid
;   kit is stocked and whether a towel is wet change by reports alone. People also carry,
;   hang, put away, wear and hand things over; reports say so.
; * (belongsTo ?x ?o) records whose a thing is: a member's bag or towel, a child's
;   armbands, a locker key, a mug. The centre's own kit belongs to nobody.
;
; Facts no action changes: connects, adjacent, installedIn, keyFits, belongsTo.

(define (domain leisure_centre)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    area person fixture portable robot door - object
    room outdoorArea - area
    staff member visitor child - person
    surface hook storage appliance - fixture
    lane court chargingDock - surface
    locker - storage
    item trolley - portable
    poolKit sportsKit towel mop cleaningKit firstAidKit key radio paperwork
      kitchenware belonging hoistSling supplies - item)

  (:predicates
    ; where the robot, people, trolleys and things are
    (robotAt ?r - robot ?a - area)
    (personAt ?p - person ?a - area)
    (installedIn ?f - fixture ?a - area)
    (trolleyAt ?t - trolley ?a - area)
    (onSurface ?x - item ?s - surface)
    (hungOn ?x - item ?h - hook)
    (storedIn ?x - item ?c - storage)
    (onTrolley ?x - item ?t - trolley)
    (heldBy ?x - item ?p - person)
    (wornBy ?x - item ?p - person)
    (inGripper ?x - item ?r - robot)
    (gripperFree ?r - robot)
    ; the building
    (connects ?d - door ?a - area)
    (adjacent ?a - area ?b - area)
    (doorOpen ?d - door)
    (isLocked ?x - object)
    (keyFits ?k - key ?x - object)
    (isOn ?f - appliance)
    (outOfOrder ?f - fixture)
    (isWet ?x - object)
    (inUse ?f - fixture)
    (closedToPublic ?a - area)
    ; people and things
    (signedIn ?p - person)
    (isCharged ?x - radio)
    (isStocked ?k - firstAidKit)
    (belongsTo ?x - object ?o - object))

  ; ---------------------------------------------------------------- getting about
  (:action goThrough
    :parameters (?r - robot ?d - door ?from - area ?to - area)
    :precondition (and (robotAt ?r ?from) (connects ?d ?from) (connects ?d ?to)
                       (doorOpen ?d))
    :effect (and (not (robotAt ?r ?from)) (robotAt ?r ?to)))

  (:action walkTo
    :parameters (?r - robot ?from - area ?to - area)
    :precondition (and (robotAt ?r ?from) (adjacent ?from ?to))
    :effect (and (not (robotAt ?r ?from)) (robotAt ?r ?to)))

  (:action openDoor
    :parameters (?r - robot ?d - door ?a - area)
    :precondition (and (robotAt ?r ?a) (connects ?d ?a) (not (doorOpen ?d))
                       (not (isLocked ?d)))
    :effect (doorOpen ?d))

  (:action shutDoor
    :parameters (?r - robot ?d - door ?a - area)
    :precondition (and (robotAt ?r ?a) (connects ?d ?a) (doorOpen ?d))
    :effect (not (doorOpen ?d)))

  (:action unlockDoor
    :parameters (?r - robot ?k - key ?d - door ?a - area)
    :precondition (and (robotAt ?r ?a) (connects ?d ?a) (inGripper ?k ?r)
                       (keyFits ?k ?d) (isLocked ?d))
    :effect (not (isLocked ?d)))

  (:action lockDoor
    :parameters (?r - robot ?k - key ?d - door ?a - area)
    :precondition (and (robotAt ?r ?a) (connects ?d ?a) (inGripper ?k ?r)
                       (keyFits ?k ?d) (not (doorOpen ?d)) (not (isLocked ?d)))
    :effect (isLocked ?d))

  ; ---------------------------------------------------------------- trolleys
  (:action pushThrough
    :parameters (?r - robot ?t - trolley ?d - door ?from - area ?to - area)
    :precondition (and (robotAt ?r ?from) (trolleyAt ?t ?from) (gripperFree ?r)
                       (connects ?d ?from) (connects ?d ?to) (doorOpen ?d))
    :effect (and (not (robotAt ?r ?from)) (robotAt ?r ?to)
                 (not (trolleyAt ?t ?from)) (trolleyAt ?t ?to)))

  (:action pushTo
    :parameters (?r - robot ?t - trolley ?from - area ?to - area)
    :precondition (and (robotAt ?r ?from) (trolleyAt ?t ?from) (gripperFree ?r)
                       (adjacent ?from ?to))
    :effect (and (not (robotAt ?r ?from)) (robotAt ?r ?to)
                 (not (trolleyAt ?t ?from)) (trolleyAt ?t ?to)))

  (:action loadTrolley
    :parameters (?r - robot ?x - item ?t - trolley ?a - area)
    :precondition (and (robotAt ?r ?a) (trolleyAt ?t ?a) (inGripper ?x ?r))
    :effect (and (not (inGripper ?x ?r)) (gripperFree ?r) (onTrolley ?x ?t)))

  (:action unloadTrolley
    :parameters (?r - robot ?x - item ?t - trolley ?a - area)
    :precondition (and (robotAt ?r ?a) (trolleyAt ?t ?a) (onTrolley ?x ?t)
                       (gripperFree ?r))
    :effect (and (not (onTrolley ?x ?t)) (not (gripperFree ?r)) (inGripper ?x ?r)))

  ; ---------------------------------------------------------------- surfaces and hooks
  (:action pickUp
    :parameters (?r - robot ?x - item ?s - surface ?a - area)
    :precondition (and (robotAt ?r ?a) (installedIn ?s ?a) (onSurface ?x ?s)
                       (gripperFree ?r))
    :effect (and (not (onSurface ?x ?s)) (not (gripperFree ?r)) (inGripper ?x ?r)))

  (:action putDown
    :parameters (?r - robot ?x - item ?s - surface ?a - area)
    :precondition (and (robotAt ?r ?a) (installedIn ?s ?a) (inGripper ?x ?r))
    :effect (and (not (inGripper ?x ?r)) (gripperFree ?r) (onSurface ?x ?s)))

  (:action unhook
    :parameters (?r - robot ?x - item ?h - hook ?a - area)
    :precondition (and (robotAt ?r ?a) (installedIn ?h ?a) (hungOn ?x ?h)
                       (gripperFree ?r))
    :effect (and (not (hungOn ?x ?h)) (not (gripperFree ?r)) (inGripper ?x ?r)))

  (:action hangUp
    :parameters (?r - robot ?x - item ?h - hook ?a - area)
    :precondition (and (robotAt ?r ?a) (installedIn ?h ?a) (inGripper ?x ?r))
    :effect (and (not (inGripper ?x ?r)) (gripperFree ?r) (hungOn ?x ?h)))

  ; ---------------------------------------------------------------- storage and lockers
  (:action takeOut
    :parameters (?r - robot ?x - item ?c - storage ?a - area)
    :precondition (and (robotAt ?r ?a) (installedIn ?c ?a) (storedIn ?x ?c)
                       (not (isLocked ?c)) (gripperFree ?r))
    :effect (and (not (storedIn ?x ?c)) (not (gripperFree ?r)) (inGripper ?x ?r)))

  (:action putIn
    :parameters (?r - robot ?x - item ?c - storage ?a - area)
    :precondition (and (robotAt ?r ?a) (installedIn ?c ?a) (inGripper ?x ?r)
                       (not (isLocked ?c)))
    :effect (and (not (inGripper ?x ?r)) (gripperFree ?r) (storedIn ?x ?c)))

  (:action unlockLocker
    :parameters (?r - robot ?k - key ?l - locker ?a - area)
    :precondition (and (robotAt ?r ?a) (installedIn ?l ?a) (inGripper ?k ?r)
                       (keyFits ?k ?l) (isLocked ?l))
    :effect (not (isLocked ?l)))

  (:action lockLocker
    :parameters (?r - robot ?k - key ?l - locker ?a - area)
    :precondition (and (robotAt ?r ?a) (installedIn ?l ?a) (inGripper ?k ?r)
                       (keyFits ?k ?l) (not (isLocked ?l)))
    :effect (isLocked ?l))

  ; ---------------------------------------------------------------- people
  (:action give
    :parameters (?r - robot ?x - item ?p - person ?a - area)
    :precondition (and (robotAt ?r ?a) (personAt ?p ?a) (inGripper ?x ?r))
    :effect (and (not (inGripper ?x ?r)) (gripperFree ?r) (heldBy ?x ?p)))

  (:action takeFrom
    :parameters (?r - robot ?x - item ?p - person ?a - area)
    :precondition (and (robotAt ?r ?a) (personAt ?p ?a) (heldBy ?x ?p) (gripperFree ?r))
    :effect (and (not (heldBy ?x ?p)) (not (gripperFree ?r)) (inGripper ?x ?r)))

  ; ---------------------------------------------------------------- appliances, floors, radios
  (:action switchOn
    :parameters (?r - robot ?f - appliance ?a - area)
    :precondition (and (robotAt ?r ?a) (installedIn ?f ?a) (not (isOn ?f))
                       (not (outOfOrder ?f)))
    :effect (isOn ?f))

  (:action switchOff
    :parameters (?r - robot ?f - appliance ?a - area)
    :precondition (and (robotAt ?r ?a) (installedIn ?f ?a) (isOn ?f))
    :effect (not (isOn ?f)))

  (:action mopFloor
    :parameters (?r - robot ?m - mop ?a - area)
    :precondition (and (robotAt ?r ?a) (inGripper ?m ?r) (isWet ?a))
    :effect (not (isWet ?a)))

  (:action chargeRadio
    :parameters (?r - robot ?x - radio ?d - chargingDock ?a - area)
    :precondition (and (robotAt ?r ?a) (installedIn ?d ?a) (onSurface ?x ?d)
                       (not (isCharged ?x)))
    :effect (isCharged ?x))
)
