; A small typed domain with action costs (:action-costs, fixed increases), a domain
; constant (the depot), a predicate and an action sharing a name (lift), a type declared
; twice and :constants after :predicates: PDDL that planners read and UP's reader refuses.
(define (domain depot_costs)
  (:requirements :typing :action-costs)
  (:types place crate - object truck place)
  (:predicates (at ?x - (either truck crate) ?p - place) (in ?c - crate ?t - truck)
               (road ?a ?b - place) (lift ?c - crate))
  (:constants depot - place)
  (:functions (total-cost) - number)
  (:action drive :parameters (?t - truck ?a ?b - place)
    :precondition (and (at ?t ?a) (road ?a ?b))
    :effect (and (not (at ?t ?a)) (at ?t ?b) (increase (total-cost) 5)))
  (:action lift :parameters (?c - crate ?t - truck ?p - place)
    :precondition (and (at ?c ?p) (at ?t ?p))
    :effect (and (not (at ?c ?p)) (in ?c ?t) (lift ?c) (increase (total-cost) 1)))
  (:action drop :parameters (?c - crate ?t - truck ?p - place)
    :precondition (and (in ?c ?t) (at ?t ?p))
    :effect (and (not (in ?c ?t)) (at ?c ?p) (increase (total-cost) 1))))
