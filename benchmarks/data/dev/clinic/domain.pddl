; Small veterinary clinic: a helper robot fetches, carries, hands over and puts away things
; around a two-vet practice (reception, two consulting rooms, the prep room, the ward with
; its kennels, the store room, the staff room and the yard) on a busy afternoon (public
; development evaluation domain for l3mp_ros).
;
; Modelling choices:
;
; * There is a single robot (type `robot`, `vetbot` in the KG); each action takes it as
;   ?r, first. Its one gripper is modelled by the flag (gripper_empty ?r): every action
;   that grasps an item consumes the flag, every action that lets go of one restores it.
;   A constraint rule caps the gripper at one item; that the flag and the in_gripper facts
;   agree is left to the actions (see domain.constraints.yaml).
; * Things that can be somewhere are `movable`: items and animals. The robot handles
;   items only (every grasping action takes an `item`); it never lifts, leads or shuts in
;   an animal, but it does carry a carrier with an animal inside, which goes where the
;   carrier goes. All locations are binary facts whose first argument is the thing, so one
;   "exactly one place" rule covers the items and another the animals:
;     (rests_on ?m ?s)     on a surface: exam table, table (desk, bench, worktop), shelf or
;                          the feeding counter (items, and an animal up on a table);
;     (hangs_on ?i ?h)     an item on a hook (leads by the back door, the key hook, coats);
;     (stored_in ?i ?c)    an item in a cabinet (pharmacy cupboard, drugs fridge, store
;                          cupboard);
;     (in_kennel ?m ?k)    in a kennel: the animal boarded there, its bowl and its bedding;
;     (in_carrier ?n ?c)   an animal in a pet carrier (carriers hold animals only);
;     (held_by ?m ?p)      in a person's hands or arms;
;     (worn_by ?g ?n)      pet gear an animal has on: a lead clipped on, a cone, a muzzle;
;     (animal_in ?n ?a)    an animal on its own feet in an area (walking on its lead,
;                          sitting at its owner's feet);
;     (in_gripper ?i ?r)   an item in the robot's gripper.
; * Areas are joined two ways. Doors are objects: (door_joins ?d ?area) is listed once for
;   each of the two areas a door connects, and go_through_door needs both and an open door.
;   Reception and the back corridor are open-plan: (open_to ?a ?b), listed in both
;   directions, lets the robot walk across. No door is locked in opening hours, so doors
;   are only open or shut.
; * Cabinets lock with a key: the robot locks or unlocks one only with the matching key
;   ((key_fits ?k ?c)) in its gripper, so getting a drug out of the locked pharmacy
;   cupboard starts by fetching its key (the vets carry it). A cabinet with no key (the
;   drugs fridge) is never locked. While a cabinet is locked nothing goes in or comes out.
; * Kennels have doors ((kennel_open ?k)). The robot opens and shuts them and puts items
;   in or takes them out only while the door is open; who is boarded in which kennel is
;   up to the nurses.
; * Feeding: the robot fills an empty bowl it holds at a feeding counter ((bowl_full ?b));
;   an animal eating it empties it, which only a report can say.
; * Devices (phones, the ward tablet, clippers, the cat scale, the thermometer) charge
;   while they lie on a surface with a charger ((has_charger ?s)), and the robot switches
;   one on or off while it holds it. Only a charged device can be on.
; * Where people and animals are (person_in, animal_in), animals in kennels, carriers,
;   arms or on tables, pet gear on animals (worn_by) and whether an animal is still under
;   sedation (sedated) are never changed by the robot's actions: only reports update these
;   facts. The robot gives items to, and takes them from, people in its area.
; * (belongs_to ?m ?p) records an owner: a client's pet, lead, carrier or handbag, a
;   nurse's phone, a vet's stethoscope.
;
; Facts no action changes: door_joins, open_to, key_fits, installed_in, has_charger,
; belongs_to.

(define (domain vet_clinic)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    area person fixture movable robot door - object
    item animal - movable
    public_room clinical_room staff_area outdoor_area - area
    vet vet_nurse receptionist pet_owner - person
    surface kennel cabinet hook - fixture
    exam_table table shelf feed_station - surface
    carrier pet_gear bowl medicine supply device cabinet_key belonging - item
    dog cat rabbit - animal)

  (:predicates
    ; where people, animals and things are
    (robot_in ?r - robot ?a - area)
    (person_in ?p - person ?a - area)
    (animal_in ?n - animal ?a - area)
    (installed_in ?f - fixture ?a - area)
    (rests_on ?m - movable ?s - surface)
    (hangs_on ?i - item ?h - hook)
    (stored_in ?i - item ?c - cabinet)
    (in_kennel ?m - movable ?k - kennel)
    (in_carrier ?n - animal ?c - carrier)
    (held_by ?m - movable ?p - person)
    (worn_by ?g - pet_gear ?n - animal)
    (in_gripper ?i - item ?r - robot)
    (gripper_empty ?r - robot)
    ; the building
    (door_joins ?d - door ?a - area)
    (open_to ?a - area ?b - area)
    (door_open ?d - door)
    (kennel_open ?k - kennel)
    (cabinet_locked ?c - cabinet)
    (key_fits ?k - cabinet_key ?c - cabinet)
    (has_charger ?s - surface)
    ; devices, bowls and patients
    (charged ?d - device)
    (switched_on ?d - device)
    (bowl_full ?b - bowl)
    (sedated ?n - animal)
    ; ownership
    (belongs_to ?m - movable ?p - person))

  ; ---------------------------------------------------------------- moving, doors
  (:action go_through_door
    :parameters (?r - robot ?d - door ?from - area ?to - area)
    :precondition (and (robot_in ?r ?from) (door_joins ?d ?from) (door_joins ?d ?to)
                       (door_open ?d))
    :effect (and (not (robot_in ?r ?from)) (robot_in ?r ?to)))

  (:action walk_across
    :parameters (?r - robot ?from - area ?to - area)
    :precondition (and (robot_in ?r ?from) (open_to ?from ?to))
    :effect (and (not (robot_in ?r ?from)) (robot_in ?r ?to)))

  (:action open_door
    :parameters (?r - robot ?d - door ?a - area)
    :precondition (and (robot_in ?r ?a) (door_joins ?d ?a) (not (door_open ?d)))
    :effect (door_open ?d))

  (:action close_door
    :parameters (?r - robot ?d - door ?a - area)
    :precondition (and (robot_in ?r ?a) (door_joins ?d ?a) (door_open ?d))
    :effect (not (door_open ?d)))

  ; ---------------------------------------------------------------- surfaces and hooks
  (:action pick_up
    :parameters (?r - robot ?i - item ?s - surface ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?s ?a) (rests_on ?i ?s)
                       (gripper_empty ?r))
    :effect (and (not (rests_on ?i ?s)) (not (gripper_empty ?r)) (in_gripper ?i ?r)))

  (:action put_down
    :parameters (?r - robot ?i - item ?s - surface ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?s ?a) (in_gripper ?i ?r))
    :effect (and (not (in_gripper ?i ?r)) (gripper_empty ?r) (rests_on ?i ?s)))

  (:action take_off_hook
    :parameters (?r - robot ?i - item ?h - hook ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?h ?a) (hangs_on ?i ?h)
                       (gripper_empty ?r))
    :effect (and (not (hangs_on ?i ?h)) (not (gripper_empty ?r)) (in_gripper ?i ?r)))

  (:action hang_on_hook
    :parameters (?r - robot ?i - item ?h - hook ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?h ?a) (in_gripper ?i ?r))
    :effect (and (not (in_gripper ?i ?r)) (gripper_empty ?r) (hangs_on ?i ?h)))

  ; ---------------------------------------------------------------- cabinets
  (:action take_out_of_cabinet
    :parameters (?r - robot ?i - item ?c - cabinet ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?c ?a) (stored_in ?i ?c)
                       (not (cabinet_locked ?c)) (gripper_empty ?r))
    :effect (and (not (stored_in ?i ?c)) (not (gripper_empty ?r)) (in_gripper ?i ?r)))

  (:action put_into_cabinet
    :parameters (?r - robot ?i - item ?c - cabinet ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?c ?a) (in_gripper ?i ?r)
                       (not (cabinet_locked ?c)))
    :effect (and (not (in_gripper ?i ?r)) (gripper_empty ?r) (stored_in ?i ?c)))

  (:action unlock_cabinet
    :parameters (?r - robot ?k - cabinet_key ?c - cabinet ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?c ?a) (cabinet_locked ?c)
                       (in_gripper ?k ?r) (key_fits ?k ?c))
    :effect (not (cabinet_locked ?c)))

  (:action lock_cabinet
    :parameters (?r - robot ?k - cabinet_key ?c - cabinet ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?c ?a) (not (cabinet_locked ?c))
                       (in_gripper ?k ?r) (key_fits ?k ?c))
    :effect (cabinet_locked ?c))

  ; ---------------------------------------------------------------- kennels
  (:action open_kennel
    :parameters (?r - robot ?k - kennel ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?k ?a) (not (kennel_open ?k)))
    :effect (kennel_open ?k))

  (:action close_kennel
    :parameters (?r - robot ?k - kennel ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?k ?a) (kennel_open ?k))
    :effect (not (kennel_open ?k)))

  (:action take_from_kennel
    :parameters (?r - robot ?i - item ?k - kennel ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?k ?a) (kennel_open ?k)
                       (in_kennel ?i ?k) (gripper_empty ?r))
    :effect (and (not (in_kennel ?i ?k)) (not (gripper_empty ?r)) (in_gripper ?i ?r)))

  (:action put_in_kennel
    :parameters (?r - robot ?i - item ?k - kennel ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?k ?a) (kennel_open ?k)
                       (in_gripper ?i ?r))
    :effect (and (not (in_gripper ?i ?r)) (gripper_empty ?r) (in_kennel ?i ?k)))

  ; ---------------------------------------------------------------- people
  (:action give_to_person
    :parameters (?r - robot ?i - item ?p - person ?a - area)
    :precondition (and (robot_in ?r ?a) (person_in ?p ?a) (in_gripper ?i ?r))
    :effect (and (not (in_gripper ?i ?r)) (gripper_empty ?r) (held_by ?i ?p)))

  (:action take_from_person
    :parameters (?r - robot ?i - item ?p - person ?a - area)
    :precondition (and (robot_in ?r ?a) (person_in ?p ?a) (held_by ?i ?p)
                       (gripper_empty ?r))
    :effect (and (not (held_by ?i ?p)) (not (gripper_empty ?r)) (in_gripper ?i ?r)))

  ; ---------------------------------------------------------------- feeding
  (:action fill_bowl
    :parameters (?r - robot ?b - bowl ?s - feed_station ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?s ?a) (in_gripper ?b ?r)
                       (not (bowl_full ?b)))
    :effect (bowl_full ?b))

  ; ---------------------------------------------------------------- devices
  (:action charge_device
    :parameters (?r - robot ?d - device ?s - surface ?a - area)
    :precondition (and (robot_in ?r ?a) (installed_in ?s ?a) (rests_on ?d ?s)
                       (has_charger ?s) (not (charged ?d)))
    :effect (charged ?d))

  (:action switch_device_on
    :parameters (?r - robot ?d - device)
    :precondition (and (in_gripper ?d ?r) (charged ?d) (not (switched_on ?d)))
    :effect (switched_on ?d))

  (:action switch_device_off
    :parameters (?r - robot ?d - device)
    :precondition (and (in_gripper ?d ?r) (switched_on ?d))
    :effect (not (switched_on ?d)))
)
