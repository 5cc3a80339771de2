# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The ROS demo talks over DDS (issue 69, Deliver 5), against the scripted loopback LLM.

The demo's nodes and its run (:func:`l3mp_ros.nodes.demo.run`) in this process: the
scripted person's answers go out on ``voice_command`` (a probe hears them there), the
confirmed reading is written with ``confirmed`` support, the slip is taken back, and the
where-answer said on ``say`` is the written fact's.
"""

import pytest

from .ros_fixtures import Probe  # first: it isolates this session's ROS domain

pytestmark = pytest.mark.ros

from rclpy.parameter import Parameter  # noqa: E402

from l3mp_ros.nodes import demo  # noqa: E402
from l3mp_ros.testing import FakeOpenAI  # noqa: E402
from l3mp_ros.world.events import EventStatus  # noqa: E402
from l3mp_ros.world.kg import Fact  # noqa: E402

from .test_demo import AWAY, HELD, REPORT, SLIP, respond  # noqa: E402


def _matched(client, topics=('nl_update', 'voice_command'), wait=20.0):
    """Wait until the language node and the probe both listen to the client's topics."""
    import time
    end = time.monotonic() + wait
    while any(client.pubs[t].get_subscription_count() < 2 for t in topics):
        assert time.monotonic() < end, 'the probe or the language node is not matched'
        time.sleep(0.05)


# the read-back's odds of the slip: below the asking bar or not, the slip is not asked
# about: where someone went, right after their verb of going, is not read back
# (settled_places)
@pytest.mark.parametrize('odds', [0.9, 0.6])
def test_the_ros_demo_asks_back_and_the_person_answers_on_voice_command(
        spinner, tmp_path, capsys, odds):
    with FakeOpenAI(responder=lambda r: respond(r, odds), answers={}) as fake:
        values = {**demo.settings(tmp_path, fake.base_url, 'fake', 'full', 'fast-downward'),
                  'llm_timeout': 10.0, 'plan_timeout': 20.0}
        (tmp_path / 'robot').mkdir()
        nodes = demo.demo_nodes(
            parameter_overrides=[Parameter(k, value=v) for k, v in values.items()])
        for node in nodes:
            spinner.add(node)
        probe = spinner.add(Probe('demo_probe', listen=('voice_command', 'nl_update', 'say')))
        client = nodes[-1]
        _matched(client)
        assert demo.run(client, timeout=60.0) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    # what the person said went out on the topics a person's words go on
    assert probe.got['nl_update'] == [REPORT, SLIP], out
    # the slip is believed for a moment, then taken back
    assert probe.got['voice_command'] == ['The second one.', "No, that's wrong.",
                                          'Where is the red pen?'], out
    # the question was said on say before it was answered, and printed with its answer
    say = probe.got['say']
    asked = next(i for i, s in enumerate(say) if 'With that, which is right?' in s)
    assert "1. Jerry is in Jerry's bedroom." in say[asked] and 'Nothing else.' in say[asked]
    assert f'   robot [say]: {say[asked]}' in lines
    assert '>> person [voice_command]: The second one.' in lines
    # the reading confirmed is written so; the slip is taken back
    world = nodes[0].world
    assert HELD in world.kg and world.support_of(HELD).kind == 'confirmed'
    assert AWAY not in world.kg
    assert Fact('person_in_room', ('anna', 'anna_bedroom')) in world.kg
    events = world.events()
    slip = next(e for e in events if e.status == EventStatus.APPLIED
                and (e.utterance or '').startswith(SLIP))
    back = [e for e in events if e.info.get('withdraws') == slip.id]
    assert len(back) == 1 and back[0].status == EventStatus.APPLIED
    assert any(s.startswith("Taken back. Anna is in Anna's bedroom.") for s in say), say
    assert not any('Anna is in the kitchen' in s and s.endswith(('right?', 'them?'))
                   for s in say), say  # never asked about
    # the answer on say is the written fact's, and it is what the demo printed
    where = next(s for s in say if s.startswith('The red pen is') and 'which is' not in s)
    assert where.startswith("The red pen is in Jerry's hand.")
    assert '(confirmed when I asked back)' in where
    assert f'   robot [say]: {where}' in lines
    assert any('(red_pen, in_person_hand, jerry): confirmed (event #' in ln for ln in lines)
    summary = lines[lines.index('== summary') + 1:]
    assert any('answered "The second one."' in ln and '(support confirmed)' in ln
               for ln in summary), out
    assert any(ln.strip().startswith('goal "(and (light_on laundry_room_light))": planned')
               for ln in summary), out
    # the plan's steps are printed and summed up in sentences (the message keeps PDDL)
    lit = 'Turn on the laundry room light in the laundry room.'
    assert any(ln.strip().startswith('goal "') and ln.endswith(lit) for ln in summary), out
    assert any(ln.strip().startswith('1. ') and '_' not in ln for ln in lines), out
    assert summary[-1].strip() == ('what the robot holds of red_pen: '
                                   '(red_pen, in_person_hand, jerry) [confirmed]'), out
