# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""``l3mp chat`` as a person at a terminal uses it: a real pseudo-terminal, a real store.

The child is the ``l3mp`` CLI on the slave side of a pty (its controlling terminal, so
Ctrl-C is a real SIGINT), the LLM the loopback scripted server. What the robot says is
read off the terminal; what it wrote is read from the store, during and after the session.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import socket
import sys
import time
from pathlib import Path

import pytest

from l3mp_ros.agent.task.outcome import TaskOutcome
from l3mp_ros.agent.turn import EXPIRED, Turn
from l3mp_ros.cli import main
from l3mp_ros.llm.protocol import Answer
from l3mp_ros.planning.planner import PlanResult
from l3mp_ros.planning.status import Status
from l3mp_ros.testing import FakeOpenAI
from l3mp_ros.testing.fake_openai import NO_OPTION
from l3mp_ros.text import UtteranceKind
from l3mp_ros.world.kg import Fact
from l3mp_ros.world.store import Store

from .agent_fixtures import read_back_reply

ROOT = Path(__file__).resolve().parent.parent
PROMPT = 'you> '
ROBOT = 'robot> '
WAIT = 120.0  # seconds a reply may take on a loaded machine (the first loads the embedder)
_ESCAPES = re.compile(r'\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r')

REPORT = 'Jerry took the red pen from the living room table.'
HELD = Fact('in_person_hand', ('red_pen', 'jerry'))
ON_TABLE = Fact('placed_at_table', ('red_pen', 'living_room_table'))
LIGHT = Fact('light_on', ('kitchen_light',))
ROUTED = {'content': {'kind': 'report'}}  # the router's call: neither a task nor a question
# the pen to Jerry and Jerry to his bedroom (never said); the read-back says yes to the pen
# (0.9), no to the move (0.3); asked again without it the model writes it anyway: in doubt,
# so the robot asks (as in test_asking_back.py)
PEN = {'content': {'facts': [['in_person_hand', 'red_pen', 'jerry'],
                             ['person_in_room', 'jerry', 'jerry_bedroom']]}}
SCRIPT = [ROUTED, {'content': {'facts': [['light_on', 'kitchen_light', 'false']]}},
          read_back_reply(0.97),
          ROUTED, PEN, read_back_reply(0.9), read_back_reply(0.3, 'no'), PEN]


class Terminal:
    """``l3mp chat`` on a pseudo-terminal: type a line, read what the robot says back."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, 'PYTHONPATH': str(ROOT), 'TERM': 'dumb',
               'L3MP_PHRASES': 'rules', 'L3MP_PHRASEBOOKS': 'off',
               'L3MP_LOCAL_KEEP_ALIVE': '0', 'L3MP_EMBED_KEEP_ALIVE': '0'}
        for name in ('L3MP_LLM_URL', 'L3MP_LLM_CACHE', 'L3MP_LLM_MODEL'):
            env.pop(name, None)
        code = 'import sys; from l3mp_ros.cli import main; sys.exit(main())'
        argv = [sys.executable, '-c', code, 'chat', *args]
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty is its terminal
            try:
                os.chdir(ROOT)
                os.execve(sys.executable, argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.screen = ''  # everything the terminal showed
        self._unread = ''
        self.code: int | None = None

    def _read(self, until: re.Pattern[str], timeout: float = WAIT) -> str:
        """Read until ``until`` matches what is unread; return up to the match's end."""
        deadline = time.monotonic() + timeout
        while not (m := until.search(self._unread)):
            left = deadline - time.monotonic()
            assert left > 0, f'no {until.pattern!r} in time; the terminal shows:\n{self.screen}'
            if select.select([self.fd], [], [], min(left, 1.0))[0]:
                try:
                    data = os.read(self.fd, 4096).decode(errors='replace')
                except OSError:  # EIO: the child closed the terminal
                    data = ''
                if not data:
                    raise AssertionError(f'the session ended; it showed:\n{self.screen}')
                data = _ESCAPES.sub('', data)
                self.screen += data
                self._unread += data
        got, self._unread = self._unread[:m.end()], self._unread[m.end():]
        return got

    def prompt(self) -> list[str]:
        """Wait for the prompt; return the robot's lines printed before it."""
        return _robot_lines(self._read(re.compile(r'(^|\n)you> $')))

    def say(self, line: str) -> list[str]:
        """Type ``line`` at the prompt; return the robot's reply (its lines)."""
        os.write(self.fd, (line + '\n').encode())
        return self.prompt()

    def press(self, key: bytes) -> int:
        """Press a key (Ctrl-D, Ctrl-C) at the prompt; return the exit code it left with."""
        os.write(self.fd, key)
        return self.wait()

    def wait(self, timeout: float = WAIT) -> int:
        """Return the child's exit code, reading what it still prints.

        Leaving unloads the embedder and the interpreter's modules: beside a model run on
        two cores that alone has taken over 30 s, so the wait is a reply's (``WAIT``).
        """
        deadline = time.monotonic() + timeout
        while self.code is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.code = os.waitstatus_to_exitcode(status)
                break
            assert time.monotonic() < deadline, f'still running; it showed:\n{self.screen}'
            if select.select([self.fd], [], [], 0.2)[0]:
                try:
                    self.screen += _ESCAPES.sub('', os.read(self.fd, 4096).decode('utf-8',
                                                                                  'replace'))
                except OSError:
                    time.sleep(0.05)
        return self.code

    def close(self) -> None:
        """End the child if a failed test left it running; release the terminal."""
        if self.code is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(self.fd)


def _robot_lines(text: str) -> list[str]:
    """Return the robot's lines in ``text`` (a reply and its continuation lines)."""
    out: list[str] = []
    for line in text.split('\n'):
        if line.startswith(ROBOT):
            out.append(line[len(ROBOT):])
        elif out and line.startswith(' ' * len(ROBOT)):
            out.append(line.strip())
    return out


@pytest.fixture
def store(tmp_path):
    path = tmp_path / 'kg.db'
    assert main(['kg', 'init', '--domain', str(ROOT / 'pddl' / 'household.pddl'), '--from',
                 str(ROOT / 'config' / 'household_state.json'), '--store', str(path),
                 '--phrases', 'rules']) == 0
    return path


def _kg(path: Path):
    with Store(path) as s:
        return s.load_kg(), s.history()


def test_a_session_asks_back_takes_answers_and_keeps_every_reply(store, capsys):
    capsys.readouterr()
    with FakeOpenAI(SCRIPT, answers=NO_OPTION) as fake:
        # the pen read back too (SCRIPT answers it), not settled by "took the red pen"
        term = Terminal('--store', str(store), '--llm', fake.base_url, '--model', 'fake',
                        '--no-settled-places')
        try:
            hello = term.prompt()
            assert len(hello) == 1 and 'Ctrl-D' in hello[0]
            assert term.say('') == []  # an empty line: the prompt again, nothing said
            # a question answered from the facts, without the model
            where = term.say('Where is the red pen?')
            assert len(where) == 1 and 'red pen' in where[0], term.screen
            assert 'living room table' in where[0] and fake.requests == []
            # a report read, checked and written; in the store before the reply is shown
            noted = term.say('Anna switched off the kitchen light.')
            assert len(noted) == 1 and noted[0].startswith('Noted. '), term.screen
            assert 'kitchen light' in noted[0]
            kg, _ = _kg(store)
            assert LIGHT not in kg and ON_TABLE in kg
            # a reading in doubt: the robot asks, and the next line answers it
            asked = term.say(REPORT)
            assert len(asked) == 1 and 'With that, which is right? 1. ' in asked[0], term.screen
            assert asked[0].endswith('Or none of them?') and 'red pen' in asked[0]
            calls = len(fake.requests)
            yes = term.say('the first one')
            assert len(yes) == 1 and yes[0].startswith('Noted. ') and 'Jerry' in yes[0]
            assert len(fake.requests) == calls  # the answer needs no model call
            kg, events = _kg(store)
            assert HELD in kg and ON_TABLE not in kg
            assert events[-1].info.get('support') == 'confirmed'
            # right after a report, "undo that" takes it back
            undone = term.say('undo that')
            assert len(undone) == 1 and undone[0].startswith('Taken back. '), term.screen
            assert len(fake.requests) == calls and fake.remaining == 0
            assert term.press(b'\x04') == 0  # Ctrl-D leaves
        finally:
            term.close()
    assert 'Traceback' not in term.screen
    kg, events = _kg(store)
    assert HELD not in kg and ON_TABLE in kg and LIGHT not in kg  # the undo and the light
    assert events[-1].info['withdraws'] == events[-2].id
    assert [e.utterance for e in events if e.status == 'clarify'] == [REPORT]


def _dead_port() -> int:
    with socket.socket() as s:  # a port nobody listens on: bound, then let go
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def test_an_unreachable_llm_fails_one_line_and_the_session_goes_on(store):
    url = f'http://127.0.0.1:{_dead_port()}/v1'
    term = Terminal('--store', str(store), '--llm', url, '--model', 'fake',
                    '--llm-timeout', '2')
    try:
        term.prompt()
        failed = term.say(REPORT)
        assert len(failed) == 1 and failed[0].startswith('Sorry, '), term.screen
        assert 'unreachable' in failed[0] or 'unavailable' in failed[0]
        where = term.say('Where is the red pen?')  # still there, and the facts unchanged
        assert len(where) == 1 and 'living room table' in where[0], term.screen
        long = term.say('x' * 2001)
        assert len(long) == 1 and 'at most 2000' in long[0]
        assert term.press(b'\x03') == 0  # Ctrl-C at the prompt leaves cleanly
    finally:
        term.close()
    assert 'Traceback' not in term.screen and 'KeyboardInterrupt' not in term.screen
    kg, events = _kg(store)
    assert ON_TABLE in kg and [e.status for e in events] == ['init']


def test_exit_leaves_and_help_names_chat(store, capsys):
    with pytest.raises(SystemExit):
        main(['--help'])
    assert 'chat' in capsys.readouterr().out
    term = Terminal('--store', str(store), '--llm', f'http://127.0.0.1:{_dead_port()}/v1')
    try:
        term.prompt()
        os.write(term.fd, b'exit\n')
        assert term.wait() == 0
    finally:
        term.close()
    assert term.screen.count(PROMPT) == 1


def test_a_turn_says_a_plan_step_by_step_and_a_question_left_unanswered(tmp_path):
    from .agent_fixtures import household_world

    # what the chat prints: a plan's steps in sentences, by the domain's actions
    plan = PlanResult(Status.SOLVED, [
        '(remove_from_table the_robot red_pen living_room_table living_room)',
        '(move_to_room the_robot living_room anna_bedroom)',
        '(hand_to_person the_robot red_pen anna anna_bedroom)'])
    task = Turn('Bring the pen to Anna', UtteranceKind.TASK,
                task=TaskOutcome('t1', 'Bring the pen to Anna', Status.SOLVED, plan=plan))
    world = household_world(tmp_path)
    assert task.failed is None and task.reply(world) == [
        'My plan for "Bring the pen to Anna" (3 steps):',
        '1. Remove the red pen from the living room table in the living room.',
        "2. Move from the living room to Anna's bedroom.",
        "3. Hand the red pen to Anna in Anna's bedroom."]
    world.close()
    # the words only (no world): the steps as planned
    assert task.reply(None)[1] == \
        '1. (remove_from_table the_robot red_pen living_room_table living_room)'
    none = TaskOutcome('t2', 'Fly', Status.UNSOLVABLE, errors=['no plan reaches that\ngoal'])
    assert Turn('Fly', UtteranceKind.TASK, task=none).reply(None) == [
        'I cannot do "Fly" (unsolvable): no plan reaches that goal']
    held = TaskOutcome('t3', 'Light it', Status.ALREADY_SATISFIED)
    assert Turn('Light it', UtteranceKind.TASK, task=held).reply(None) == [
        'Nothing to do: "Light it" already holds.']
    answer = Answer('Where is the pen?', 'The pen is on the desk.')
    late = Turn('Where is the pen?', UtteranceKind.QUESTION, answer=answer, expired=[4])
    assert late.reply(None) == [EXPIRED, 'The pen is on the desk.']
    answer.error = 'LLM unavailable: refused'
    assert late.failed == 'LLM unavailable: refused'
