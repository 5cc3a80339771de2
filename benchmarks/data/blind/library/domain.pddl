; Public library: a mobile robot fetches, reshelves and lends books, runs errands for the
; staff and looks after the reading lamps, doors and loan devices of a town library with
; open stacks, a basement store and a local-history archive (blind evaluation domain for
; l3mp_ros).
;
; Design:
;
; * One robot (type `robot`, `bookbot` in the KG), always the first parameter ?r. It has
;   a single arm: (arm_free ?r) is consumed by every grasp and given back by every
;   release, and (grasped ?i ?r) says what it holds (a rule allows one).
; * Spaces are joined by doors, each listed once per side with (connects ?d ?s). The robot
;   goes through open doors only. A locked door is closed; the robot locks and unlocks
;   one only with the matching key ((key_for ?k ?d)) grasped.
; * Where an item is, always item first, exactly one of:
;     (on_shelf ?i ?b)      on a bookcase (a bookcase, a rack, the new-arrivals shelf);
;     (on ?i ?s)            on a surface: a table, a desk or a book trolley;
;     (inside ?i ?c)        inside a container: returns bin, locker or cabinet;
;     (in_hand ?i ?p)       in somebody's hands;
;     (grasped ?i ?r)       in the robot's arm.
; * People are (in ?p ?s) a space. Only reports move them, and they move things, doors,
;   lamps and loans too; they may also push the robot elsewhere.
; * Reading lamps are furniture with a switch: (lamp_on ?l), worked by the robot in the
;   lamp's space.
; * Lockers and archive cabinets have keypads the robot knows: (cab_locked ?c), no key
;   involved; nothing goes in or out while locked. Returns bins are never locked.
; * Loans: (checked_out_by ?i ?p) is recorded by the robot at a desk (a catalogued item
;   in its arm, the borrower in the room) and cleared at a desk when the item comes back.
;   (reserved_for ?i ?p) holds requests (reports set and clear them).
; * Reshelving: an item goes back only to its own bookcase ((belongs_on ?i ?b), the
;   shelf mark), and only when catalogued and not in need of repair. New acquisitions
;   get catalogued on a desk.
; * Laptops and e-readers charge inside a container with a power outlet ((has_outlet ?c)).
; * (owned_by ?i ?p): personal belongings and a patron's own laptop.
; * needs_repair, reserved_for and where people are change by reports only.
;
; Facts no action changes: connects, key_for, located_in, has_outlet, belongs_on,
; owned_by, in, reserved_for, needs_repair.

(define (domain city_library)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    space person furniture item robot door - object
    public_area stack_area archive_area staff_area - space
    librarian archivist volunteer patron - person
    bookcase surface container lamp - furniture
    table desk trolley - surface
    returns_bin locker cabinet - container
    media device manuscript archive_box key belonging - item
    book magazine dvd - media)

  (:predicates
    ; where the robot, people and furniture are
    (robot_at ?r - robot ?s - space)
    (in ?p - person ?s - space)
    (located_in ?f - furniture ?s - space)
    ; doors and lamps
    (connects ?d - door ?s - space)
    (key_for ?k - key ?d - door)
    (is_open ?d - door)
    (locked ?d - door)
    (lamp_on ?l - lamp)
    ; where items are
    (on_shelf ?i - item ?b - bookcase)
    (on ?i - item ?s - surface)
    (inside ?i - item ?c - container)
    (in_hand ?i - item ?p - person)
    (grasped ?i - item ?r - robot)
    (arm_free ?r - robot)
    ; containers
    (cab_locked ?c - container)
    (has_outlet ?c - container)
    ; the collection
    (checked_out_by ?i - item ?p - person)
    (reserved_for ?i - item ?p - person)
    (belongs_on ?i - item ?b - bookcase)
    (catalogued ?i - item)
    (needs_repair ?i - item)
    (charged ?d - device)
    (owned_by ?i - item ?p - person))

  ; ------------------------------------------------------------ doors, moving, lamps
  (:action go_through
    :parameters (?r - robot ?d - door ?from - space ?to - space)
    :precondition (and (robot_at ?r ?from) (connects ?d ?from) (connects ?d ?to)
                       (is_open ?d))
    :effect (and (not (robot_at ?r ?from)) (robot_at ?r ?to)))

  (:action open_door
    :parameters (?r - robot ?d - door ?s - space)
    :precondition (and (robot_at ?r ?s) (connects ?d ?s) (not (is_open ?d)) (not (locked ?d)))
    :effect (is_open ?d))

  (:action close_door
    :parameters (?r - robot ?d - door ?s - space)
    :precondition (and (robot_at ?r ?s) (connects ?d ?s) (is_open ?d))
    :effect (not (is_open ?d)))

  (:action unlock_door
    :parameters (?r - robot ?k - key ?d - door ?s - space)
    :precondition (and (robot_at ?r ?s) (connects ?d ?s) (locked ?d) (grasped ?k ?r)
                       (key_for ?k ?d))
    :effect (not (locked ?d)))

  (:action lock_door
    :parameters (?r - robot ?k - key ?d - door ?s - space)
    :precondition (and (robot_at ?r ?s) (connects ?d ?s) (not (locked ?d)) (not (is_open ?d))
                       (grasped ?k ?r) (key_for ?k ?d))
    :effect (locked ?d))

  (:action switch_lamp_on
    :parameters (?r - robot ?l - lamp ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?l ?s) (not (lamp_on ?l)))
    :effect (lamp_on ?l))

  (:action switch_lamp_off
    :parameters (?r - robot ?l - lamp ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?l ?s) (lamp_on ?l))
    :effect (not (lamp_on ?l)))

  ; ------------------------------------------------------------ bookcases
  (:action take_from_shelf
    :parameters (?r - robot ?i - item ?b - bookcase ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?b ?s) (on_shelf ?i ?b) (arm_free ?r))
    :effect (and (not (on_shelf ?i ?b)) (not (arm_free ?r)) (grasped ?i ?r)))

  (:action reshelve
    :parameters (?r - robot ?i - item ?b - bookcase ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?b ?s) (grasped ?i ?r) (belongs_on ?i ?b)
                       (catalogued ?i) (not (needs_repair ?i)))
    :effect (and (not (grasped ?i ?r)) (arm_free ?r) (on_shelf ?i ?b)))

  ; ------------------------------------------------------------ tables, desks, trolleys
  (:action pick_up
    :parameters (?r - robot ?i - item ?t - surface ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?t ?s) (on ?i ?t) (arm_free ?r))
    :effect (and (not (on ?i ?t)) (not (arm_free ?r)) (grasped ?i ?r)))

  (:action put_on
    :parameters (?r - robot ?i - item ?t - surface ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?t ?s) (grasped ?i ?r))
    :effect (and (not (grasped ?i ?r)) (arm_free ?r) (on ?i ?t)))

  ; ------------------------------------------------------------ bins, lockers, cabinets
  (:action take_out
    :parameters (?r - robot ?i - item ?c - container ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?c ?s) (inside ?i ?c)
                       (not (cab_locked ?c)) (arm_free ?r))
    :effect (and (not (inside ?i ?c)) (not (arm_free ?r)) (grasped ?i ?r)))

  (:action put_in
    :parameters (?r - robot ?i - item ?c - container ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?c ?s) (grasped ?i ?r)
                       (not (cab_locked ?c)))
    :effect (and (not (grasped ?i ?r)) (arm_free ?r) (inside ?i ?c)))

  (:action unlock_cabinet
    :parameters (?r - robot ?c - container ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?c ?s) (cab_locked ?c))
    :effect (not (cab_locked ?c)))

  (:action lock_cabinet
    :parameters (?r - robot ?c - container ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?c ?s) (not (cab_locked ?c)))
    :effect (cab_locked ?c))

  ; ------------------------------------------------------------ people
  (:action hand_to
    :parameters (?r - robot ?i - item ?p - person ?s - space)
    :precondition (and (robot_at ?r ?s) (in ?p ?s) (grasped ?i ?r))
    :effect (and (not (grasped ?i ?r)) (arm_free ?r) (in_hand ?i ?p)))

  (:action take_from
    :parameters (?r - robot ?i - item ?p - person ?s - space)
    :precondition (and (robot_at ?r ?s) (in ?p ?s) (in_hand ?i ?p) (arm_free ?r))
    :effect (and (not (in_hand ?i ?p)) (not (arm_free ?r)) (grasped ?i ?r)))

  ; ------------------------------------------------------------ loans and the collection
  (:action check_out
    :parameters (?r - robot ?i - item ?p - person ?k - desk ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?k ?s) (in ?p ?s) (grasped ?i ?r)
                       (catalogued ?i) (not (needs_repair ?i)) (not (checked_out_by ?i ?p)))
    :effect (checked_out_by ?i ?p))

  (:action check_in
    :parameters (?r - robot ?i - item ?p - person ?k - desk ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?k ?s) (grasped ?i ?r)
                       (checked_out_by ?i ?p))
    :effect (not (checked_out_by ?i ?p)))

  (:action catalogue
    :parameters (?r - robot ?i - item ?k - desk ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?k ?s) (on ?i ?k) (arm_free ?r)
                       (not (catalogued ?i)))
    :effect (catalogued ?i))

  (:action charge
    :parameters (?r - robot ?d - device ?c - container ?s - space)
    :precondition (and (robot_at ?r ?s) (located_in ?c ?s) (inside ?d ?c) (has_outlet ?c)
                       (not (charged ?d)))
    :effect (charged ?d))
)
