; Animal rescue shelter: a helper robot fetches, carries, puts away and hands over things
; at a small rescue centre for dogs, cats and rabbits on an adoption open day (reception,
; the kennel block with five kennels, the cattery with three pens, the small animal room
; with the rabbit hutch, the vet room, the food prep room, the laundry, the store room and
; the staff room; outside, the exercise field, which staff also call the paddock, and the
; car park) (public development evaluation domain for l3mp_ros).
;
; Modelling choices:
;
; * One robot (type `robot`, `shelterbot` in the KG), always the first parameter ?r of an
;   action. It carries one thing at a time: (hand-free ?r) is consumed by every action
;   that takes hold of an item and given back by every action that lets go of one, and
;   pushing a trolley needs the hand free. A constraint rule caps the hand at one item;
;   that the flag and the in-hand facts agree is left to the actions.
; * Every place an item can be is a binary fact with the item first, so one "exactly one
;   place" rule covers them all:
;     (on ?x ?s)          on a surface: a desk, table, counter, draining board or shelf;
;     (hung-on ?x ?h)     on a hook: the lead hooks, the key box, the coat pegs, the
;                         drying rail in the laundry;
;     (inside ?x ?c)      in a container: a cupboard, the drug fridge, the laundry basket,
;                         the washing machine, or a kennel, pen or hutch (bowls and
;                         bedding go in with the animal);
;     (on-trolley ?x ?t)  on the feed trolley or in the wheelbarrow;
;     (held-by ?x ?p)     in a person's hands, pocket or arms;
;     (worn-by ?x ?n)     a lead, collar or harness clipped on an animal;
;     (in-hand ?x ?r)     in the robot's hand.
; * Animals are not items and the robot never handles them: only reports move them. An
;   animal is in exactly one of three places: (housed-in ?n ?e) in its kennel, pen or
;   hutch; (in-carrier ?n ?c) shut in a carrier or crate, which is an item and goes
;   wherever it is carried (the animal inside does not change); (animal-at ?n ?a) out
;   of its enclosure with people, in a room or outside (a dog on its lead out on the field,
;   a cat on the exam table). A lead or harness worn by a dog goes with the dog.
; * Areas are joined two ways: a door or gate (an object, (connects ?d ?a) listed for
;   each of its two areas) that the robot passes only while it is open, or an open
;   boundary with no door ((adjacent ?a ?b), listed both ways: the kennel block, the food
;   prep room and the laundry run into each other, as do the cattery and the small animal
;   room). Nothing is locked during opening hours, so doors are only open or shut.
; * Trolleys (the feed trolley, the wheelbarrow) are `portable` but not items: the robot
;   pushes them through an open door or across an open boundary with their load aboard.
; * Fixtures are installed for good ((installed-in ?f ?a)). Appliances (the kennel
;   heater, the heat lamp over the rabbits, the lamp in the vet room) are switched on and
;   off; the washing machine is a container that is started and stopped, and nothing goes
;   in or comes out of a container while it is on ((is-on ?f), typed on fixture for both).
; * Bowls are filled at the dry-food bin in the food prep room (only a clean, empty bowl),
;   emptied and rinsed at the sink; the robot does all three with the bowl in its hand.
; * Where people and animals are, whether an animal has been fed, walked, vaccinated or
;   adopted, whether a form is signed, and whether bedding is dirty are changed by reports
;   alone (washing is the machine's job, and people say when a thing comes out clean).
;   People also carry, hang, put away and hand things over; reports say so. The robot
;   gives items to, and takes them from, people in its area.
; * (belongs-to ?x ?o) records whose a thing is: an animal's lead, bowl, blanket, drops or
;   form, a person's keys, mug or coat. The centre's own kit belongs to nobody.
;
; Facts no action changes: connects, adjacent, installed-in, belongs-to.

(define (domain rescue-shelter)
  (:requirements :strips :typing :negative-preconditions)

  (:types
    area person animal fixture portable robot door - object
    room grounds - area
    staff volunteer visitor - person
    dog cat small-pet - animal
    surface hook container appliance feed-bin sink - fixture
    store enclosure washer - container
    kennel pen - enclosure
    item trolley - portable
    tack bowl bedding carrier supply paperwork gear - item)

  (:predicates
    ; where the robot, people, animals, trolleys and things are
    (robot-at ?r - robot ?a - area)
    (person-at ?p - person ?a - area)
    (animal-at ?n - animal ?a - area)
    (housed-in ?n - animal ?e - enclosure)
    (in-carrier ?n - animal ?c - carrier)
    (installed-in ?f - fixture ?a - area)
    (trolley-at ?t - trolley ?a - area)
    (on ?x - item ?s - surface)
    (hung-on ?x - item ?h - hook)
    (inside ?x - item ?c - container)
    (on-trolley ?x - item ?t - trolley)
    (held-by ?x - item ?p - person)
    (worn-by ?x - tack ?n - animal)
    (in-hand ?x - item ?r - robot)
    (hand-free ?r - robot)
    ; the buildings and grounds
    (connects ?d - door ?a - area)
    (adjacent ?a - area ?b - area)
    (door-open ?d - door)
    (is-on ?f - fixture)
    ; animals, bowls, bedding and paperwork
    (bowl-full ?b - bowl)
    (is-dirty ?x - item)
    (fed ?n - animal)
    (walked ?n - dog)
    (vaccinated ?n - animal)
    (is-adopted ?n - animal)
    (is-signed ?d - paperwork)
    ; whose things are
    (belongs-to ?x - object ?o - object))

  ; ---------------------------------------------------------------- getting about
  (:action go-through
    :parameters (?r - robot ?d - door ?from - area ?to - area)
    :precondition (and (robot-at ?r ?from) (connects ?d ?from) (connects ?d ?to)
                       (door-open ?d))
    :effect (and (not (robot-at ?r ?from)) (robot-at ?r ?to)))

  (:action walk-to
    :parameters (?r - robot ?from - area ?to - area)
    :precondition (and (robot-at ?r ?from) (adjacent ?from ?to))
    :effect (and (not (robot-at ?r ?from)) (robot-at ?r ?to)))

  (:action open-door
    :parameters (?r - robot ?d - door ?a - area)
    :precondition (and (robot-at ?r ?a) (connects ?d ?a) (not (door-open ?d)))
    :effect (door-open ?d))

  (:action shut-door
    :parameters (?r - robot ?d - door ?a - area)
    :precondition (and (robot-at ?r ?a) (connects ?d ?a) (door-open ?d))
    :effect (not (door-open ?d)))

  ; ---------------------------------------------------------------- trolleys
  (:action push-through
    :parameters (?r - robot ?t - trolley ?d - door ?from - area ?to - area)
    :precondition (and (robot-at ?r ?from) (trolley-at ?t ?from) (hand-free ?r)
                       (connects ?d ?from) (connects ?d ?to) (door-open ?d))
    :effect (and (not (robot-at ?r ?from)) (robot-at ?r ?to)
                 (not (trolley-at ?t ?from)) (trolley-at ?t ?to)))

  (:action push-to
    :parameters (?r - robot ?t - trolley ?from - area ?to - area)
    :precondition (and (robot-at ?r ?from) (trolley-at ?t ?from) (hand-free ?r)
                       (adjacent ?from ?to))
    :effect (and (not (robot-at ?r ?from)) (robot-at ?r ?to)
                 (not (trolley-at ?t ?from)) (trolley-at ?t ?to)))

  (:action load-trolley
    :parameters (?r - robot ?x - item ?t - trolley ?a - area)
    :precondition (and (robot-at ?r ?a) (trolley-at ?t ?a) (in-hand ?x ?r))
    :effect (and (not (in-hand ?x ?r)) (hand-free ?r) (on-trolley ?x ?t)))

  (:action unload-trolley
    :parameters (?r - robot ?x - item ?t - trolley ?a - area)
    :precondition (and (robot-at ?r ?a) (trolley-at ?t ?a) (on-trolley ?x ?t)
                       (hand-free ?r))
    :effect (and (not (on-trolley ?x ?t)) (not (hand-free ?r)) (in-hand ?x ?r)))

  ; ---------------------------------------------------------------- surfaces and hooks
  (:action pick-up
    :parameters (?r - robot ?x - item ?s - surface ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?s ?a) (on ?x ?s) (hand-free ?r))
    :effect (and (not (on ?x ?s)) (not (hand-free ?r)) (in-hand ?x ?r)))

  (:action put-down
    :parameters (?r - robot ?x - item ?s - surface ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?s ?a) (in-hand ?x ?r))
    :effect (and (not (in-hand ?x ?r)) (hand-free ?r) (on ?x ?s)))

  (:action unhook
    :parameters (?r - robot ?x - item ?h - hook ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?h ?a) (hung-on ?x ?h)
                       (hand-free ?r))
    :effect (and (not (hung-on ?x ?h)) (not (hand-free ?r)) (in-hand ?x ?r)))

  (:action hang-up
    :parameters (?r - robot ?x - item ?h - hook ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?h ?a) (in-hand ?x ?r))
    :effect (and (not (in-hand ?x ?r)) (hand-free ?r) (hung-on ?x ?h)))

  ; ---------------------------------------------------------------- containers
  (:action take-out
    :parameters (?r - robot ?x - item ?c - container ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?c ?a) (inside ?x ?c)
                       (not (is-on ?c)) (hand-free ?r))
    :effect (and (not (inside ?x ?c)) (not (hand-free ?r)) (in-hand ?x ?r)))

  (:action put-in
    :parameters (?r - robot ?x - item ?c - container ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?c ?a) (in-hand ?x ?r)
                       (not (is-on ?c)))
    :effect (and (not (in-hand ?x ?r)) (hand-free ?r) (inside ?x ?c)))

  ; ---------------------------------------------------------------- people
  (:action give
    :parameters (?r - robot ?x - item ?p - person ?a - area)
    :precondition (and (robot-at ?r ?a) (person-at ?p ?a) (in-hand ?x ?r))
    :effect (and (not (in-hand ?x ?r)) (hand-free ?r) (held-by ?x ?p)))

  (:action take-from
    :parameters (?r - robot ?x - item ?p - person ?a - area)
    :precondition (and (robot-at ?r ?a) (person-at ?p ?a) (held-by ?x ?p) (hand-free ?r))
    :effect (and (not (held-by ?x ?p)) (not (hand-free ?r)) (in-hand ?x ?r)))

  ; ---------------------------------------------------------------- appliances
  (:action switch-on
    :parameters (?r - robot ?f - appliance ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?f ?a) (not (is-on ?f)))
    :effect (is-on ?f))

  (:action switch-off
    :parameters (?r - robot ?f - appliance ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?f ?a) (is-on ?f))
    :effect (not (is-on ?f)))

  (:action start-washer
    :parameters (?r - robot ?w - washer ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?w ?a) (not (is-on ?w)))
    :effect (is-on ?w))

  (:action stop-washer
    :parameters (?r - robot ?w - washer ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?w ?a) (is-on ?w))
    :effect (not (is-on ?w)))

  ; ---------------------------------------------------------------- bowls
  (:action fill-bowl
    :parameters (?r - robot ?b - bowl ?f - feed-bin ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?f ?a) (in-hand ?b ?r)
                       (not (bowl-full ?b)) (not (is-dirty ?b)))
    :effect (bowl-full ?b))

  (:action empty-bowl
    :parameters (?r - robot ?b - bowl ?k - sink ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?k ?a) (in-hand ?b ?r)
                       (bowl-full ?b))
    :effect (not (bowl-full ?b)))

  (:action rinse-bowl
    :parameters (?r - robot ?b - bowl ?k - sink ?a - area)
    :precondition (and (robot-at ?r ?a) (installed-in ?k ?a) (in-hand ?b ?r)
                       (is-dirty ?b) (not (bowl-full ?b)))
    :effect (not (is-dirty ?b)))
)
