# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Household benchmark reports: ``report.json``, a Table-I-style ``report.md`` and plots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from l3mp_ros_bench.household.variants import VARIANTS

REPORT_SCHEMA = 'l3mp/household_report/v1'


def _pct(value: float | None) -> str:
    return '–' if value is None else f'{100 * value:.1f}'


def _paper(value: float | None) -> str:
    return '–' if value is None else f'{value:g}'


def report_json(summaries: list[dict[str, Any]], meta: dict[str, Any]) -> dict[str, Any]:
    """Return the ``report.json`` body."""
    return {'schema': REPORT_SCHEMA, **meta, 'variants': summaries}


def report_markdown(summaries: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    """Return a Markdown report with the Table-I comparison."""
    model = meta.get('model') or ('oracle' if meta.get('oracle') else '?')
    tok = 'est. tokens' if meta.get('oracle') else 'tokens'
    lines = [
        '# Household benchmark',
        '',
        f'Model: **{model}**; seed {meta.get("seed")}; stream: {meta.get("changes")} state '
        f'changes, {meta.get("tasks")} tasks (a task every {meta.get("task_every")} '
        f'changes); planner {meta.get("engine")}.',
        '',
        '| variant | state changes % | plans % | paper state % (GPT-4o) | paper plans % '
        f'(GPT-4o) | diff % | {tok}/update | {tok}/task | LLM calls | reprompts | '
        'planner speedup |',
        '|---|---|---|---|---|---|---|---|---|---|---|',
    ]
    for s in summaries:
        v = VARIANTS.get(s['variant'])
        tok_u = s['tokens']['update']['per_step']['mean']
        tok_t = s['tokens']['task']['per_step']['mean']
        speed = s.get('planner_speedup')
        bound = '≥' if s.get('planner_speedup_lower_bound') else ''
        state = '–' if not s['updates'] else _pct(s['state_change_success'])
        lines.append(
            f'| {s["label"]} | {state} | {_pct(s["plan_success"])} | '
            f'{_paper(v.paper_state if v else None)} | {_paper(v.paper_plan if v else None)} | '
            f'{_pct(s["diff_success"]) if s["updates"] else "–"} | '
            f'{"–" if tok_u is None else f"{tok_u:.0f}"} | '
            f'{"–" if tok_t is None else f"{tok_t:.0f}"} | {s["llm_calls"]} | '
            f'{s["reprompts"]} | {"–" if speed is None else f"{bound}{speed:.1f}×"} |')
    asked = [s for s in summaries if s.get('questions')]
    if meta.get('speaker') == 'gold':
        lines += ['', 'Asked back (`--speaker gold`, answered from the truth): ' + '; '.join(
            f'{s["label"]} {s["questions"]} questions, {s["questions_per_change"]:.2f} per '
            f'change, on {s["changes_asked"]} changes' for s in asked) if asked else
            'Asked back (`--speaker gold`): no question.']
    lines += ['', 'State changes %: change steps after which the KG of the agent equals the '
              'ground truth (errors are never forgiven). Diff %: change steps whose KG change '
              'equals the gold diff. Plans %: tasks whose plan, executed on the ground truth, '
              'reaches the gold goal. Tokens include retrieval calls'
              + ('; the oracle has no tokenizer: "est. tokens" are characters / 4.'
                 if meta.get('oracle') else '.'),
              'Planner speedup: full-KG planner time / (retrieval without LLM latency + '
              'planner time on the retrieved context), mean over the measured successful '
              'tasks (a full-KG run that hit its time limit counts with the limit: a lower '
              'bound).', '']
    for s in summaries:
        lines.append(f'## {s["label"]}: {s["description"]}')
        lines.append('')
        lines.append(f'Wall time {s["timing"]["wall_seconds"]:.0f} s (of which '
                     f'{s["timing"]["measurement_seconds"]:.0f} s measuring the full-KG '
                     f'planner); complete: {s["complete"]}.')
        lines.append('')
        lines.append('| change kind | n | state ok | diff ok |')
        lines.append('|---|---|---|---|')
        for kind, d in s['per_kind']['changes'].items():
            lines.append(f'| {kind} | {d["n"]} | {d["state_ok"]} | {d["diff_ok"]} |')
        lines.append('')
        lines.append('| task kind | n | success |')
        lines.append('|---|---|---|')
        for kind, d in s['per_kind']['tasks'].items():
            lines.append(f'| {kind} | {d["n"]} | {d["success"]} |')
        lines.append('')
    return '\n'.join(lines) + '\n'


def plot(summaries: list[dict[str, Any]], records: dict[str, list[dict[str, Any]]],
         out_dir: Path, *, estimated: bool = False) -> list[Path]:
    """Write ``tokens.png`` (per-step token distributions) and ``speedup.png``.

    ``speedup.png`` only when some task was measured on the whole KG (a stale one from an
    earlier run is removed); ``estimated``: the token counts are characters / 4.
    """
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt

    written: list[Path] = []
    names = [s['variant'] for s in summaries]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, kind, title in ((axes[0], 'change', 'tokens per state update'),
                            (axes[1], 'task', 'tokens per task')):
        data = [[r['llm']['prompt_tokens'] + r['llm']['completion_tokens']
                 for r in records.get(n, []) if r['kind'] == kind] or [0] for n in names]
        ax.boxplot(data)
        ax.set_xticks(range(1, len(names) + 1), [s['label'] for s in summaries],
                      rotation=30)
        ax.set_title(title)
        ax.set_ylabel('estimated tokens (characters / 4)' if estimated
                      else 'prompt + completion tokens')
    fig.tight_layout()
    path = out_dir / 'tokens.png'
    fig.savefig(path, dpi=100)
    plt.close(fig)
    written.append(path)

    path = out_dir / 'speedup.png'
    if not any(s['timing']['speedup']['measured'] for s in summaries):
        path.unlink(missing_ok=True)  # nothing measured: no empty plot
        return written
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for s in summaries:
        pts = s['timing']['speedup']['measured']
        xs = [p['rag_seconds'] + p['planner_seconds'] for p in pts]
        ys = [p['full_planner_seconds'] for p in pts]
        if xs:
            ax.scatter(xs, ys, label=s['label'])
    top = max(max(p['full_planner_seconds'] for s in summaries
                  for p in s['timing']['speedup']['measured']), 1.0)
    ax.plot([0, top], [0, top], 'k--', linewidth=0.8, label='no speedup')
    ax.legend()
    ax.set_xlabel('retrieval + planner on the retrieved context (s)')
    ax.set_ylabel('planner on the whole KG (s)')
    ax.set_title('planner time (paper Fig. 4)')
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    written.append(path)
    return written


def write_reports(summaries: list[dict[str, Any]], records: dict[str, list[dict[str, Any]]],
                  meta: dict[str, Any], out_dir: Path) -> list[Path]:
    """Write ``report.json``, ``report.md`` and the plots into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [out_dir / 'report.json', out_dir / 'report.md']
    paths[0].write_text(json.dumps(report_json(summaries, meta), indent=2) + '\n',
                        encoding='utf-8')
    paths[1].write_text(report_markdown(summaries, meta), encoding='utf-8')
    paths += plot(summaries, records, out_dir, estimated=bool(meta.get('oracle')))
    return paths
