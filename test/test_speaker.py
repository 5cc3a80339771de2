# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Who "I" is: a report that opens by naming its speaker (agent/core/speaker.py)."""

import pytest

from l3mp_ros.agent.core.request import Request
from l3mp_ros.agent.core.speaker import third_person

from .agent_fixtures import dev_world, household_world


@pytest.fixture
def world(tmp_path):
    return household_world(tmp_path)


@pytest.mark.parametrize('said, read', [
    ("Jerry: I've taken the red pen to my room.", "Jerry has taken the red pen to Jerry's room."),
    ("Anna here, I'm in the kitchen now.", 'Anna is in the kitchen now.'),
    ('Anna on the radio from the kitchen: the light is off, I switched it off myself.',
     'The light is off, Anna switched it off.'),
    ('Jerry again, me and Anna are in the living room.', 'Jerry and Anna are in the living room.'),
    ('Jerry: give me the red pen.', 'Give Jerry the red pen.'),
    # openings of other shapes: a name first (or an owner), or after "from", then a colon
    ('Anna on the desk: I moved the red pen.', 'Anna moved the red pen.'),
    ('Jerry to the kitchen, over: my room is free now.', "Jerry's room is free now."),
    ("Anna's note for the evening: I've left the red pen on the table.",
     'Anna has left the red pen on the table.'),
    ('Text from Jerry: I am in the kitchen.', 'Jerry is in the kitchen.'),
    # the openings of radio and phone talk
    ("Jerry again. I'm in the kitchen.", 'Jerry is in the kitchen.'),
    ("Anna, over. I'm in the kitchen.", 'Anna is in the kitchen.'),
    ("Jerry to base, over. I've taken the red pen.", 'Jerry has taken the red pen.'),
    ("Hi, this is Anna, I'm in the kitchen.", 'Anna is in the kitchen.'),
    ("It's Jerry. I am in the kitchen.", 'Jerry is in the kitchen.'),
    ('Anna in the kitchen here. I switched the light off.', 'Anna switched the light off.'),
])
def test_an_opening_that_names_the_speaker_is_read_in_the_third_person(world, said, read):
    assert third_person(world, world.kg, said) == read
    assert Request.start(world, said).text == read


@pytest.mark.parametrize('said', [
    'Jerry, who was in the kitchen, took the red pen.',  # a name and a comma: no opening
    "I've taken the red pen.",  # no one named: "I" stays
    'Kitchen: the light is off.',  # a room, not a person
    'Bob: I took the red pen.',  # no such person
    'Anna went to the kitchen.',
    # a clause before the colon, a report about someone, too long an opening
    'Jerry went to the kitchen and said: the light is off.',
    'Update on Anna: she is in the kitchen.',
    'Anna on the desk by the window of the living room now: the light is off.',
    "It's Monday. I moved the red pen.",  # not a person
    'Anna, over there, took the red pen.',  # "over" ends no call here
    "It's Anna's pen. I moved it.",
])
def test_without_an_opening_naming_a_person_the_report_is_unchanged(world, said):
    assert third_person(world, world.kg, said) == said


@pytest.mark.parametrize('said, who', [
    ("Jerry: I've taken the red pen to my room.", 'jerry'),
    ('Text from Anna: I am in the kitchen.', 'anna'),
    ('Anna went to the kitchen.', None),
    ('Update on Anna: she is in the kitchen.', None),
])
def test_the_request_keeps_who_the_opening_names_as_the_speaker(world, said, who):
    assert Request.start(world, said).speaker == who


@pytest.mark.parametrize('said, head, meant', [
    # the stand trolley is in the hall with Tom, the gear trolley in the corridor
    ("Tom: I've taken the last two stands off the trolley.", 'trolley', ['stand_trolley']),
    # without a speaker nothing tells the trolleys apart
    ("Someone's taken the last two stands off the trolley.", 'trolley',
     ['gear_trolley', 'stand_trolley']),
    # the amp in Marcus's room, of three
    ('Marcus: switched the little amp off and unplugged it.', 'amp', ['small_amp']),
])
def test_a_thing_said_by_its_kind_is_the_one_where_the_speaker_is(
        tmp_path, said, head, meant):
    world = dev_world(tmp_path, 'musicschool')
    mentions = Request.start(world, said).resolve()
    assert next(m.candidates for m in mentions if m.text == head) == meant


@pytest.mark.parametrize('said, ended', [
    ('Marcus: switched the little amp off and unplugged it.', {('plugged', 'small_amp')}),
    ("Marcus: I haven't unplugged the little amp.", set()),  # "n't" before it: no end
    ('Marcus: switched the little amp off.', set()),  # the word never said with "un"
])
def test_a_state_ended_by_its_word_with_un_is_read(tmp_path, said, ended):
    from l3mp_ros.agent.core.destinations import unworded_states

    world = dev_world(tmp_path, 'musicschool')
    req = Request.start(world, said)
    got = unworded_states(world, req.kg, req.text, req.resolve())
    assert {(f.predicate, *f.args) for f in got} == ended


@pytest.mark.parametrize('said, read', [
    # where the graph has the speaker (Anna is in her bedroom)
    ('Anna: the red pen is on the table in here.',
     "The red pen is on the table in Anna's bedroom."),
    # "Name here." opens a report too
    ("Anna here. I've put the red pen in here.", "Anna has put the red pen in Anna's bedroom."),
    # a place the words put someone or something into before "here": the graph's place
    # may be stale, and the place said twice drew the model's whole reading there
    ('Jerry: I went to the kitchen and left the red pen in here.',
     'Jerry went to the kitchen and left the red pen in here.'),
    ('Anna: I left the red pen in the kitchen, the light is on in here.',
     'Anna left the red pen in the kitchen, the light is on in here.'),
    # someone was brought somewhere no word names: "here" stays open
    ("Jerry: I brought the red pen over to Anna, I'm in here with her.",
     'Jerry brought the red pen over to Anna, Jerry is in here with her.'),
    # "here" opening a sentence, or with its place after it, is no place to fill
    ("Anna: here's the red pen.", "Here's the red pen."),
    ("Jerry: it's cold out here in the kitchen.", "It's cold out here in the kitchen."),
    # a radio call's opening puts no one anywhere; the things named lie elsewhere
    ('Anna: kitchen to living room, the light is off here.',
     'Kitchen to living room, the light is off here.'),
    # without a speaker "here" is no one's place
    ('The red pen is on the table in here.', 'The red pen is on the table in here.'),
])
def test_here_is_said_as_the_place_the_speaker_is_in(world, said, read):
    assert Request.start(world, said).text == read


@pytest.mark.parametrize('said, read', [
    # the running order came from the office; Tom is in the recital hall, and so is a stand
    ("Tom: I've fetched the running order from the office. It's on the stand up here.",
     "Tom has fetched the running order from the office. It's on the stand in the recital hall."),
    # the violin and its case lie in the store, Lily in the foyer, Helen in the staff room:
    # nothing named lies where Helen is, so "here" stays open
    ("Helen: I've fetched one of the school violins down from the store for Lily. Its case "
     "is on the floor in here.",
     'Helen has fetched one of the school violins down from the store for Lily. Its case '
     'is on the floor in here.'),
    # a call sign is who calls whom: Marcus is in his room, not in the office
    ('Marcus: room 2 to office, the little amp is off in here.',
     'Room 2 to office, the little amp is off in practice room 2.'),
])
def test_here_on_a_development_set(tmp_path, said, read):
    world = dev_world(tmp_path, 'musicschool')
    assert Request.start(world, said).text == read


@pytest.mark.parametrize('said, read, who', [
    # the one warden opens by her role: the rest says her name, not "Warden" (which the
    # model read as the warden's radio)
    ("Warden here. I've put the path lights on. I'm back at the desk.",
     'Gwen has put the path lights on. Gwen is back at the desk.', 'gwen'),
    ("Kieran, over. I'm down at the lake.", 'Kieran is down at the lake.', 'kieran'),
    ("Hi, this is Nadia Khan, I've found pitch six.", 'Nadia Khan has found pitch six.',
     'nadia_khan'),
    ("Priya here, I'm in at reception with Gwen.", 'Priya is in at reception with Gwen.',
     'priya'),
])
def test_people_who_share_a_root_type_with_robots_open_reports(tmp_path, said, read, who):
    """The campsite's people sit under "mobile" with its robot and barrows: still names."""
    world = dev_world(tmp_path, 'campsite')
    got = Request.start(world, said)
    assert (got.text, got.speaker) == (read, who)


@pytest.mark.parametrize('said, read, who', [
    # a call sign of a few words and no verb, the report after it in the first person
    ("Anna, kitchen. I've switched the light off.", 'Anna, kitchen. Anna has switched the '
     'light off.', 'anna'),
    ("Jerry in the living room. I'm done with my book.", "Jerry in the living room. Jerry "
     "is done with Jerry's book.", 'jerry'),
    ("Kitchen, this is Anna. Jerry and I ate.", 'Kitchen, this is Anna. Jerry and Anna ate.',
     'anna'),
    ('Jerry. I took the red pen.', 'Jerry. Jerry took the red pen.', 'jerry'),
    # a clause, no one first, or no first person after it: no call sign
    ("Anna went out. I've switched the light off.", "Anna went out. I've switched the light "
     "off.", None),
    ("Jerry, Anna. I've switched the light off.", "Jerry, Anna. I've switched the light off.",
     None),
    ('Anna, kitchen. The light is off.', 'Anna, kitchen. The light is off.', None),
    ("Jerry's pen. I took it.", "Jerry's pen. I took it.", None),
])
def test_a_call_sign_names_the_speaker_and_stays_in_the_report(world, said, read, who):
    """ "Priya, car deck.", "Bev in the office.", "Deck, this is Marta on the bridge.":
    radio talk names its speaker in a sentence of its own; it may say where they are, so
    it stays, and only the first person after it is read as them."""
    got = Request.start(world, said)
    assert (got.text, got.speaker) == (read, who)


@pytest.mark.parametrize('said, read, who', [
    # a first name alone names the person though a thing is named after its owner
    # (rhys_radio) and the person is named in full (rhys_evans)
    ("Rhys, over. I've shut the yard gate.", 'Rhys has shut the yard gate.', 'rhys_evans'),
    ("Anita here. I've trimmed the ewe's foot.", "Anita has trimmed the ewe's foot.",
     'anita_patel'),
    ("Gareth, from the barn. I've come over.", 'Gareth, from the barn. Gareth has come over.',
     'gareth_morgan'),
])
def test_people_named_in_full_open_reports_by_their_first_names(tmp_path, said, read, who):
    world = dev_world(tmp_path, 'hillfarm')
    got = Request.start(world, said)
    assert (got.text, got.speaker) == (read, who)
