; Local history museum: a helper robot fetches, carries, hands over and puts away things
; in a small town museum on a weekday (the foyer with the front desk, the shop and the
; cafe; the town gallery, the mill gallery and the upper gallery with a loan exhibition of
; toys; behind the staff door a corridor, the lift, the store room, the conservation
; studio, the workshop and the loading bay) (public development evaluation domain for
; l3mp_ros).
;
; Modelling choices:
;
; * There is a single robot (type `robot`, `museumbot` in the KG); each action takes it as
;   ?r, first. It has one hand, modelled by the flag (hand_empty ?r): every action that
;   grasps an item consumes the flag, every action that lets go of one restores it, and
;   pushing a trolley needs the hand free. A constraint rule caps the hand at one item;
;   that the flag and the grasped_by facts agree is left to the actions (see
;   domain.constraints.yaml).
; * All item locations are binary facts whose first argument is the item, so a single
;   "exactly one place" rule covers them:
;     (sits_on ?x ?u)        on a support: a plinth, a shelf or racking, a table (desks,
;                            counters and work benches count as tables) or a pallet;
;     (displayed_in ?x ?c)   inside a display case in a gallery;
;     (hanging_from ?x ?h)   on a hook: a gallery's picture hooks, the key hooks, the
;                            coat pegs, the tool wall;
;     (packed_in ?x ?c)      inside a container, a crate or an archive box (containers are
;                            items themselves, so a box goes wherever it is taken with its
;                            contents inside);
;     (on_trolley ?x ?t)     on a trolley;
;     (carried_by ?x ?p)     in a person's hands (or pocket, or bag);
;     (grasped_by ?x ?r)     in the robot's hand.
; * Trolleys are not items: the robot never lifts one. It pushes a trolley from one space
;   to the next (the trolley and whatever is on it go with it), loads items onto it and
;   unloads them. People push trolleys too; reports say where a trolley ends up
;   ((trolley_at ?t ?s)).
; * Spaces are joined two ways. Doorways are objects: (leads_to ?d ?space) is listed once
;   for each of the two spaces a doorway connects, and passing through needs both and an
;   open door ((is_open ?d)). The foyer, the shop and the two ground-floor galleries are
;   open-plan: (adjoins ?a ?b), listed in both directions, lets the robot walk (or push a
;   trolley) across. The lift is a space with a door on each floor. No door is locked in
;   opening hours, so doors are only open or shut.
; * Display cases lock with a key: the robot locks or unlocks one only with the matching
;   key ((key_opens ?k ?c)) in its hand, and takes things out or puts them in only while
;   the case is unlocked. A locked case may have its alarm set ((alarm_set ?c)); only staff
;   set and unset case alarms, with a code, so only reports change that fact, and the
;   robot never unlocks a case while its alarm is set.
; * Crates and archive boxes have lids ((lid_on ?c)). The robot lifts or fits a lid, and
;   packs or unpacks a container, only while the container sits on a support in its
;   space, and packs or unpacks only with the lid off.
; * Appliances (the gallery lights, the studio lamp, the humidifiers in the store room and
;   the upper gallery) are fixtures switched on and off where they are installed
;   ((turned_on ?e)).
; * Where people are (present_in), what happens to the collection (on_loan, labelled,
;   cleaned, damaged), whether a document has been signed (signed) and case alarms
;   (alarm_set) are never changed by the robot's actions: only reports update these
;   facts. People also carry, hang, pack and unpack things and push trolleys; reports say
;   so. The robot gives items to, and takes them from, people in its space.
; * (property_of ?x ?p) records an owner: a person's phone, radio or glasses, a
;   conservator's own trolley; the museum's collection and kit belong to nobody.
;
; Facts no action changes: leads_to, adjoins, fixture_at, key_opens, property_of.

(define (domain local_museum)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    space person fixture portable robot doorway - object
    item trolley - portable
    gallery public_area back_room - space
    curator conservator technician front_of_house volunteer visitor - person
    support display_case hook appliance - fixture
    plinth shelf table pallet - support
    artefact container document case_key belonging - item
    painting ceramic textile - artefact
    crate archive_box - container)

  (:predicates
    ; where people, trolleys and things are
    (robot_location ?r - robot ?s - space)
    (present_in ?p - person ?s - space)
    (fixture_at ?f - fixture ?s - space)
    (trolley_at ?t - trolley ?s - space)
    (sits_on ?x - item ?u - support)
    (displayed_in ?x - item ?c - display_case)
    (hanging_from ?x - item ?h - hook)
    (packed_in ?x - item ?c - container)
    (on_trolley ?x - item ?t - trolley)
    (carried_by ?x - item ?p - person)
    (grasped_by ?x - item ?r - robot)
    (hand_empty ?r - robot)
    ; the building
    (leads_to ?d - doorway ?s - space)
    (adjoins ?a - space ?b - space)
    (is_open ?d - doorway)
    ; cases, containers and appliances
    (case_locked ?c - display_case)
    (alarm_set ?c - display_case)
    (key_opens ?k - case_key ?c - display_case)
    (lid_on ?c - container)
    (turned_on ?e - appliance)
    ; the collection and its paperwork
    (on_loan ?o - artefact)
    (labelled ?o - artefact)
    (cleaned ?o - artefact)
    (damaged ?o - artefact)
    (signed ?d - document)
    ; ownership
    (property_of ?x - portable ?p - person))

  ; ---------------------------------------------------------------- moving, doors
  (:action pass_through_door
    :parameters (?r - robot ?d - doorway ?from - space ?to - space)
    :precondition (and (robot_location ?r ?from) (leads_to ?d ?from) (leads_to ?d ?to)
                       (is_open ?d))
    :effect (and (not (robot_location ?r ?from)) (robot_location ?r ?to)))

  (:action cross_to
    :parameters (?r - robot ?from - space ?to - space)
    :precondition (and (robot_location ?r ?from) (adjoins ?from ?to))
    :effect (and (not (robot_location ?r ?from)) (robot_location ?r ?to)))

  (:action open_door
    :parameters (?r - robot ?d - doorway ?s - space)
    :precondition (and (robot_location ?r ?s) (leads_to ?d ?s) (not (is_open ?d)))
    :effect (is_open ?d))

  (:action close_door
    :parameters (?r - robot ?d - doorway ?s - space)
    :precondition (and (robot_location ?r ?s) (leads_to ?d ?s) (is_open ?d))
    :effect (not (is_open ?d)))

  ; ---------------------------------------------------------------- trolleys
  (:action wheel_trolley_through
    :parameters (?r - robot ?t - trolley ?d - doorway ?from - space ?to - space)
    :precondition (and (robot_location ?r ?from) (trolley_at ?t ?from) (hand_empty ?r)
                       (leads_to ?d ?from) (leads_to ?d ?to) (is_open ?d))
    :effect (and (not (robot_location ?r ?from)) (robot_location ?r ?to)
                 (not (trolley_at ?t ?from)) (trolley_at ?t ?to)))

  (:action wheel_trolley_across
    :parameters (?r - robot ?t - trolley ?from - space ?to - space)
    :precondition (and (robot_location ?r ?from) (trolley_at ?t ?from) (hand_empty ?r)
                       (adjoins ?from ?to))
    :effect (and (not (robot_location ?r ?from)) (robot_location ?r ?to)
                 (not (trolley_at ?t ?from)) (trolley_at ?t ?to)))

  (:action load_trolley
    :parameters (?r - robot ?x - item ?t - trolley ?s - space)
    :precondition (and (robot_location ?r ?s) (trolley_at ?t ?s) (grasped_by ?x ?r))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (on_trolley ?x ?t)))

  (:action unload_trolley
    :parameters (?r - robot ?x - item ?t - trolley ?s - space)
    :precondition (and (robot_location ?r ?s) (trolley_at ?t ?s) (on_trolley ?x ?t)
                       (hand_empty ?r))
    :effect (and (not (on_trolley ?x ?t)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  ; ---------------------------------------------------------------- supports and hooks
  (:action pick_up
    :parameters (?r - robot ?x - item ?u - support ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?u ?s) (sits_on ?x ?u)
                       (hand_empty ?r))
    :effect (and (not (sits_on ?x ?u)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  (:action set_down
    :parameters (?r - robot ?x - item ?u - support ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?u ?s) (grasped_by ?x ?r))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (sits_on ?x ?u)))

  (:action take_off_hook
    :parameters (?r - robot ?x - item ?h - hook ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?h ?s) (hanging_from ?x ?h)
                       (hand_empty ?r))
    :effect (and (not (hanging_from ?x ?h)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  (:action hang_on_hook
    :parameters (?r - robot ?x - item ?h - hook ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?h ?s) (grasped_by ?x ?r))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (hanging_from ?x ?h)))

  ; ---------------------------------------------------------------- crates and boxes
  (:action lift_lid
    :parameters (?r - robot ?c - container ?u - support ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?u ?s) (sits_on ?c ?u)
                       (lid_on ?c) (hand_empty ?r))
    :effect (not (lid_on ?c)))

  (:action fit_lid
    :parameters (?r - robot ?c - container ?u - support ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?u ?s) (sits_on ?c ?u)
                       (not (lid_on ?c)) (hand_empty ?r))
    :effect (lid_on ?c))

  (:action unpack
    :parameters (?r - robot ?x - item ?c - container ?u - support ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?u ?s) (sits_on ?c ?u)
                       (not (lid_on ?c)) (packed_in ?x ?c) (hand_empty ?r))
    :effect (and (not (packed_in ?x ?c)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  (:action pack
    :parameters (?r - robot ?x - item ?c - container ?u - support ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?u ?s) (sits_on ?c ?u)
                       (not (lid_on ?c)) (grasped_by ?x ?r))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (packed_in ?x ?c)))

  ; ---------------------------------------------------------------- display cases
  (:action take_out_of_case
    :parameters (?r - robot ?x - item ?c - display_case ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?c ?s) (displayed_in ?x ?c)
                       (not (case_locked ?c)) (hand_empty ?r))
    :effect (and (not (displayed_in ?x ?c)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  (:action put_in_case
    :parameters (?r - robot ?x - item ?c - display_case ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?c ?s) (grasped_by ?x ?r)
                       (not (case_locked ?c)))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (displayed_in ?x ?c)))

  (:action unlock_case
    :parameters (?r - robot ?k - case_key ?c - display_case ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?c ?s) (case_locked ?c)
                       (not (alarm_set ?c)) (grasped_by ?k ?r) (key_opens ?k ?c))
    :effect (not (case_locked ?c)))

  (:action lock_case
    :parameters (?r - robot ?k - case_key ?c - display_case ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?c ?s) (not (case_locked ?c))
                       (grasped_by ?k ?r) (key_opens ?k ?c))
    :effect (case_locked ?c))

  ; ---------------------------------------------------------------- people
  (:action hand_to
    :parameters (?r - robot ?x - item ?p - person ?s - space)
    :precondition (and (robot_location ?r ?s) (present_in ?p ?s) (grasped_by ?x ?r))
    :effect (and (not (grasped_by ?x ?r)) (hand_empty ?r) (carried_by ?x ?p)))

  (:action take_from
    :parameters (?r - robot ?x - item ?p - person ?s - space)
    :precondition (and (robot_location ?r ?s) (present_in ?p ?s) (carried_by ?x ?p)
                       (hand_empty ?r))
    :effect (and (not (carried_by ?x ?p)) (not (hand_empty ?r)) (grasped_by ?x ?r)))

  ; ---------------------------------------------------------------- appliances
  (:action switch_on
    :parameters (?r - robot ?e - appliance ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?e ?s) (not (turned_on ?e)))
    :effect (turned_on ?e))

  (:action switch_off
    :parameters (?r - robot ?e - appliance ?s - space)
    :precondition (and (robot_location ?r ?s) (fixture_at ?e ?s) (turned_on ?e))
    :effect (not (turned_on ?e)))
)
