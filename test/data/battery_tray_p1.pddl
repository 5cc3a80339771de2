; Three cups from the kitchen to the lab: the tray holds two (two trips), and the battery
; does not last both trips without a stop at the kitchen's charger.
(define (problem battery_tray_p1)
  (:domain battery_tray)
  (:objects
    robot1 - robot
    dock kitchen lab - location
    cup1 cup2 cup3 - item)
  (:init
    (robot_at robot1 dock)
    (charger_at kitchen)
    (connected dock kitchen) (connected kitchen dock)
    (connected kitchen lab) (connected lab kitchen)
    (= (distance dock kitchen) 5) (= (distance kitchen dock) 5)
    (= (distance kitchen lab) 10) (= (distance lab kitchen) 10)
    (item_at cup1 kitchen) (item_at cup2 kitchen) (item_at cup3 kitchen)
    (= (battery_level robot1) 20)
    (= (battery_capacity robot1) 40)
    (= (tray_load robot1) 0)
    (= (tray_capacity robot1) 2))
  (:goal (and (item_at cup1 lab) (item_at cup2 lab) (item_at cup3 lab))))
