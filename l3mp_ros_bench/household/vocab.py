# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Word lists the household generator draws from (names, colours, titles, foods).

Every list is a tuple in a fixed order, so sampling with a seeded ``random.Random`` is
reproducible. Entity names built from these words are snake_case and never equal a type,
predicate or action name of ``pddl/household.pddl`` (the generator checks this).
"""

from __future__ import annotations

PEOPLE: tuple[str, ...] = (
    'anna', 'jerry', 'helen', 'joshua', 'deborah', 'dorothy', 'michael', 'sarah', 'david',
    'laura', 'kevin', 'emily', 'brian', 'olivia', 'jason', 'megan', 'robert', 'rachel',
    'thomas', 'sophia', 'daniel', 'grace', 'steven', 'hannah', 'andrew', 'chloe', 'peter',
    'julia', 'george', 'nora', 'martin', 'alice', 'victor', 'irene', 'frank', 'lucy',
    'oscar', 'maria', 'samuel', 'ruth',
)

COLOURS: tuple[str, ...] = (
    'red', 'blue', 'green', 'black', 'white', 'yellow', 'orange', 'purple', 'pink', 'brown',
    'grey', 'tan', 'navy', 'teal', 'maroon', 'olive', 'beige', 'cyan', 'magenta', 'violet',
    'indigo', 'gold', 'silver', 'bronze', 'crimson', 'scarlet', 'turquoise', 'lavender',
    'lime', 'mint', 'coral', 'salmon', 'peach', 'ivory', 'charcoal', 'burgundy', 'khaki',
    'amber', 'aqua', 'rose', 'plum', 'mustard', 'emerald', 'cobalt', 'copper',
)

GARMENTS: tuple[str, ...] = (
    'shirt', 'jeans', 'socks', 'sweater', 'towel', 'dress', 'skirt', 'jacket', 'scarf',
    'hoodie', 'shorts', 'blouse', 'pajamas', 'cardigan', 'trousers', 'vest',
)

BOOK_TITLES: tuple[str, ...] = (
    'dune', 'emma', 'hamlet', 'ulysses', 'beloved', 'dracula', 'frankenstein', 'walden',
    'persuasion', 'middlemarch', 'moby_dick', 'jane_eyre', 'war_and_peace', 'the_odyssey',
    'the_iliad', 'don_quixote', 'great_expectations', 'little_women', 'the_hobbit',
    'brave_new_world', 'animal_farm', 'nineteen_eighty_four', 'the_great_gatsby',
    'wuthering_heights', 'pride_and_prejudice', 'sense_and_sensibility', 'oliver_twist',
    'the_trial', 'the_stranger', 'lolita', 'rebecca', 'matilda', 'heidi', 'candide',
    'macbeth', 'othello', 'king_lear', 'the_raven', 'dubliners', 'siddhartha',
    'anna_karenina', 'the_idiot', 'the_jungle', 'invisible_man', 'things_fall_apart',
    'the_road', 'atonement', 'the_secret_garden', 'treasure_island', 'robinson_crusoe',
    'gulliver_travels', 'the_time_machine', 'a_tale_of_two_cities', 'north_and_south',
)

PERISHABLES: tuple[str, ...] = (
    'milk', 'eggs', 'cheese', 'butter', 'yogurt', 'cream', 'apples', 'bananas', 'grapes',
    'strawberries', 'blueberries', 'lettuce', 'spinach', 'carrots', 'celery', 'cucumber',
    'tomatoes', 'broccoli', 'chicken_breast', 'ground_beef', 'salmon_fillet', 'ham',
    'bacon', 'sausages', 'tofu', 'hummus', 'salsa', 'leftover_pizza', 'leftover_soup',
    'orange_slices', 'lemons', 'limes', 'peppers', 'mushrooms', 'zucchini', 'cottage_cheese',
    'sour_cream', 'mozzarella', 'cheddar', 'pears', 'peaches', 'kiwis', 'watermelon',
)

# Six categories of non-perishables (the pantry's shelves in the authors' simulator).
NONPERISHABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ('canned goods', ('canned_beans', 'canned_tuna', 'canned_corn', 'canned_tomatoes',
                      'canned_peaches', 'canned_soup', 'canned_chickpeas')),
    ('grains', ('rice', 'pasta', 'spaghetti', 'oats', 'quinoa', 'flour', 'couscous')),
    ('snacks', ('crackers', 'pretzels', 'potato_chips', 'popcorn', 'granola_bars',
                'almonds', 'cookies')),
    ('breakfast', ('cereal', 'pancake_mix', 'peanut_butter', 'honey', 'jam',
                   'maple_syrup')),
    ('baking', ('sugar', 'baking_soda', 'yeast', 'cocoa_powder', 'vanilla_extract',
                'brown_sugar')),
    ('spices', ('salt', 'black_pepper', 'cinnamon', 'paprika', 'oregano', 'cumin',
                'chili_flakes')),
)

KITCHENWARE: tuple[str, ...] = (
    'dinner_plate', 'cereal_bowl', 'coffee_mug', 'frying_pan', 'saucepan', 'soup_bowl',
    'salad_plate', 'teapot', 'cutting_board', 'mixing_bowl', 'soup_pot', 'serving_tray',
    'baking_dish', 'tea_cup',
)

GLASSES: tuple[str, ...] = ('drinking_glass', 'juice_glass', 'tall_glass', 'wine_glass')

LIQUIDS: tuple[str, ...] = ('water', 'orange_juice', 'apple_juice', 'lemonade', 'iced_tea')

CHANNELS: tuple[str, ...] = (
    'news_channel', 'sports_channel', 'cartoon_channel', 'movie_channel', 'music_channel',
    'weather_channel', 'cooking_channel',
)
