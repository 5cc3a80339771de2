# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""The resident embedding server: same vectors as the in-process model, shared, idle exit."""

import json
import os
import time

import numpy as np
import pytest

from l3mp_ros.llm.resident import pid_alive
from l3mp_ros.retrieval import embed, embed_server
from l3mp_ros.retrieval.embed import Embedder, get_embedder
from l3mp_ros.retrieval.embed_server import ResidentEmbedder, use_resident

TEXTS = ['red pen (pen)', 'kitchen table (table)', 'Jerry took the red pen']


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv('L3MP_CACHE_DIR', str(tmp_path))
    monkeypatch.setenv(embed_server.KEEP_ALIVE_ENV, '60')
    monkeypatch.setattr(embed, '_EMBEDDER', None)
    monkeypatch.setattr(embed, '_FACTORY', None)  # in-process CLI tests may have set it
    yield tmp_path
    state = tmp_path / embed_server.STATE_FILE
    if state.exists():  # stop the resident child this test started
        try:
            os.kill(json.loads(state.read_text())['pid'], 15)
        except ProcessLookupError:
            pass


def test_resident_server_gives_the_models_vectors_and_is_shared(cache):
    first = embed_server.resident()
    got = first.encode(TEXTS)
    local = Embedder().encode(TEXTS, cache=False)
    assert got.shape == local.shape and got.dtype == np.float32
    assert np.allclose(got, local, atol=1e-5)
    pid = json.loads((cache / embed_server.STATE_FILE).read_text())['pid']
    second = embed_server.resident()  # another process would find the same one
    assert second.address == first.address
    assert json.loads((cache / embed_server.STATE_FILE).read_text())['pid'] == pid
    assert first.encode([]).shape == (0, local.shape[1])


def test_get_embedder_uses_the_server_only_when_asked(cache, monkeypatch):
    assert isinstance(get_embedder(), Embedder)  # nodes keep their own model
    monkeypatch.setattr(embed, '_EMBEDDER', None)
    use_resident()
    try:
        enc = get_embedder()
        assert isinstance(enc, ResidentEmbedder)
        assert enc.encode(TEXTS).shape == (3, 384) and enc._local is None
        monkeypatch.setattr(embed, '_EMBEDDER', None)
        monkeypatch.setenv(embed_server.KEEP_ALIVE_ENV, '0')
        use_resident()
        assert isinstance(get_embedder(), Embedder)  # keep-alive 0: no server
    finally:
        use_resident(False)


def test_a_server_that_cannot_start_falls_back_to_the_own_model(cache, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError('embedding server did not start')

    monkeypatch.setattr(embed_server, 'resident', broken)
    enc = ResidentEmbedder()
    vecs = enc.encode(TEXTS)
    assert enc._local is not None and vecs.shape == (3, enc.dim)


def test_the_server_exits_when_idle(cache):
    client = embed_server.resident(idle=1.0)
    pid = json.loads((cache / embed_server.STATE_FILE).read_text())['pid']
    client.encode(['x'])
    deadline = time.monotonic() + 30
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
        try:
            os.waitpid(pid, os.WNOHANG)  # reap it if it is our child
        except ChildProcessError:
            pass
    assert not pid_alive(pid)
    with pytest.raises(OSError):
        client.encode(['x'])
