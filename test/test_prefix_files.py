# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Saved prompt prefixes: named for model, build and prompt; a refused file is deleted.

The embedded server's own save and restore run in test_local_llm.py (slow); here the
protocol boundary: a server that refuses slot actions (a damaged file, an endpoint that is
not llama.cpp) leaves nothing behind and nothing is used.
"""

import os
import time

from l3mp_ros.llm.prefixes import MIN_PREFIX_CHARS, PrefixFiles
from l3mp_ros.testing import FakeOpenAI

SYSTEM = 'x' * MIN_PREFIX_CHARS


def test_names_depend_on_model_build_and_prompt(tmp_path):
    model = tmp_path / 'm.gguf'
    model.write_bytes(b'weights')
    files = PrefixFiles(tmp_path / 'slots', model, build='b1')
    assert files.path(SYSTEM) == files.path(SYSTEM)
    assert files.path(SYSTEM) != files.path(SYSTEM + ' ')
    assert files.path(SYSTEM) != PrefixFiles(tmp_path / 'slots', model, build='b2').path(SYSTEM)
    other = tmp_path / 'n.gguf'
    other.write_bytes(b'other weights')
    assert files.path(SYSTEM) != PrefixFiles(tmp_path / 'slots', other, build='b1').path(SYSTEM)
    assert files.wanted(SYSTEM) and not files.wanted(SYSTEM[:-1])  # short: not worth a file


def test_refused_save_and_restore_leave_nothing(tmp_path):
    model = tmp_path / 'm.gguf'
    model.write_bytes(b'weights')
    files = PrefixFiles(tmp_path / 'slots', model, build='b1')
    with FakeOpenAI(responder=lambda request: 'ok') as server:
        root = server.base_url[:-3]
        assert not files.save(root, SYSTEM)  # no slot endpoint: nothing saved
        assert files.wanted(SYSTEM) and not list((tmp_path / 'slots').glob('*'))
        damaged = files.path(SYSTEM)
        damaged.write_bytes(b'damaged')
        assert files.restore(root) == []
        assert not damaged.exists()  # refused: deleted, to be saved anew


def test_prune_keeps_the_newest(tmp_path):
    model = tmp_path / 'm.gguf'
    model.write_bytes(b'weights')
    files = PrefixFiles(tmp_path / 'slots', model, build='b1')
    files.folder.mkdir()
    now = time.time()
    for i in range(5):
        path = files.path(SYSTEM + str(i))
        path.write_bytes(b'k')
        os.utime(path, (now - 100 + i, now - 100 + i))
    files.prune(keep=2)
    assert [p.name for p in files.files()] == [files.path(SYSTEM + str(i)).name
                                               for i in (4, 3)]


def test_prepare_sends_the_domains_static_prompts(capsys):
    from l3mp_ros.agent.core.examples import system_for
    from l3mp_ros.cli import main
    from l3mp_ros.compose import load_domain
    from l3mp_ros.config import Config

    domain = load_domain(Config())
    with FakeOpenAI(responder=lambda request: '.') as server:
        assert main(['prepare', '--llm', server.base_url, '--model', 'm']) == 0
        sent = [r['messages'][0]['content'] for r in server.requests]
        limits = {r['max_tokens'] for r in server.requests}
    assert sent == [system_for(k, domain.schema, domain.constraints) for k in ('update', 'goal')]
    assert limits == {1}
    assert 'update prompt of household' in capsys.readouterr().out


def test_prepare_refuses_a_missing_domain(capsys, tmp_path):
    from l3mp_ros.cli import main

    assert main(['prepare', '--domain', str(tmp_path / 'none.pddl'), '--llm',
                 'http://127.0.0.1:9/v1']) == 2
    assert 'no domain file' in capsys.readouterr().err
