"""`bench/format_bench.py` and `bench/verdicts.py` run as a user runs them, on a scripted model
(the split, the summary's figures, the checkpoint's removal) and with no model (`--grammar`)."""

from __future__ import annotations

import json
from pathlib import Path

from benches import ran, run_bench, write_items


def test_format_bench_grades_both_variants(tmp_path: Path) -> None:
    items = [
        {
            "id": f"item-{n}",
            "task": "Write something.",
            "output": "- a bullet\n- another" if n % 2 else "Plain text.",
            "criteria": [
                {"id": "c1", "description": "No bullet points", "label": n % 2 == 0},
                {"id": "c2", "description": "The tone is warm", "label": True},
            ],
        }
        for n in range(4)
    ]
    data = write_items(tmp_path / "format.jsonl", items)
    out = tmp_path / "summary.json"

    ran(run_bench("format_bench", data, "--out", out, "--judge", "python:bench_models.pass_all"))

    report = json.loads(out.read_text())
    assert not out.with_suffix(".partial.jsonl").exists()
    assert report["judge"].endswith(":scripted")
    compiled, plain = report["variants"]["compiled"], report["variants"]["plain"]
    assert (compiled["criteria"], compiled["decided_by_check"]) == (8, 4)
    assert compiled["check_accuracy"] == 1.0
    assert compiled["balanced_accuracy"] == 1.0
    assert plain["decided_by_check"] == 0
    assert plain["confusion"] == {"tp": 6, "fp": 2, "fn": 0, "tn": 0}
    assert plain["balanced_accuracy"] == 0.5
    assert plain["seconds_per_criterion"] >= 0


def test_format_bench_keeps_the_dev_half(tmp_path: Path) -> None:
    ids = [f"ifeval:{n}" for n in range(20)]
    rows = [
        {"id": i, "task": "t", "output": "o", "criteria": [{"description": "c", "label": True}]}
        for i in ids
    ]
    data = write_items(tmp_path / "ifeval.jsonl", rows)

    def items(split: str) -> int:
        out = tmp_path / f"{split}.json"
        args = [data, "--split", split, "--variants", "plain", "--out", out]
        ran(run_bench("format_bench", *args, "--judge", "python:bench_models.pass_all"))
        return json.loads(out.read_text())["variants"]["plain"]["items"]  # type: ignore[no-any-return]

    dev, test = items("dev"), items("test")
    assert dev and test and dev + test == len(ids)


def test_grammar_mode_measures_the_phrase_grammar_without_a_model(tmp_path: Path) -> None:
    item = {
        "id": "item-1",
        "task": "Write something.",
        "output": "- a bullet\n- another",
        "criteria": [
            {"id": "c1", "description": "No bullet points", "label": False},
            {"id": "c2", "description": "Use bullet points", "label": False},  # mislabelled
            {"id": "c3", "description": "The tone is warm", "label": True},
        ],
    }
    data = write_items(tmp_path / "format.jsonl", [item])
    out = tmp_path / "grammar.json"

    printed = ran(run_bench("format_bench", data, "--grammar", "--out", out)).stdout

    figures = json.loads(out.read_text())[str(data)]
    assert (figures["criteria"], figures["read_in_code"], figures["wrong"]) == (3, 2, 1)
    assert figures["code_accuracy"] == 0.5
    assert "WRONG item-1: 'Use bullet points'" in printed
    assert "'The tone is warm'" in printed


def test_grammar_mode_prints_only_counts_for_a_frozen_split(tmp_path: Path) -> None:
    criteria = [
        {"id": "c1", "description": "Use bullet points", "label": False},
        {"id": "c2", "description": "The tone is warm", "label": True},
    ]
    item = {"id": "item-1", "task": "t", "output": "- a bullet", "criteria": criteria}
    data = write_items(tmp_path / "test-b.jsonl", [item])

    printed = ran(run_bench("format_bench", data, "--grammar", "--out", tmp_path / "g.json")).stdout

    assert "1/2 read in code" in printed and "0/1 right" in printed
    assert "bullet" not in printed and "tone" not in printed


def test_verdicts_reads_both_format_dev_files_and_stops_without_the_blind_split(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "data"
    for name in ("dev.jsonl", "dev-b.jsonl"):
        criteria = [{"description": "Says hello", "label": True}]
        write_items(
            folder / "format" / name,
            [{"id": name, "task": "t", "output": "o", "criteria": criteria}],
        )
    out = tmp_path / "verdicts.json"
    args = ["--sets", "format", "--variants", "default", "--hand-written", folder, "--out", out]

    ran(run_bench("verdicts", "--split", "dev", *args, "--model", "python:bench_models.pass_all"))

    figures = json.loads(out.read_text())["sets"]["format"]["default"]
    assert (figures["items"], figures["criteria"], figures["accuracy"]) == (2, 2, 1.0)
    one_file = tmp_path / "dev-b.json"
    chosen = ["--files", "dev-b.jsonl", "--out", one_file]
    ran(
        run_bench(
            "verdicts",
            "--split",
            "dev",
            *args[:-2],
            *chosen,
            "--model",
            "python:bench_models.pass_all",
        )
    )
    assert json.loads(one_file.read_text())["sets"]["format"]["default"]["items"] == 1
    refused = run_bench(
        "verdicts", "--split", "test", *args, "--model", "python:bench_models.unused"
    )
    assert refused.returncode != 0
    assert "test split" in refused.stderr and "test.jsonl is missing" in refused.stderr


def test_verdicts_grades_the_context_always_variant_beside_the_default(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    criteria = [{"description": "The poem is about spring", "label": True}]
    write_items(
        folder / "trivial" / "dev.jsonl",
        [{"id": "one", "task": "Write a haiku about spring.", "output": "o", "criteria": criteria}],
    )
    out = tmp_path / "verdicts.json"
    ran(
        run_bench(
            "verdicts",
            "--split",
            "dev",
            "--sets",
            "trivial",
            "--variants",
            "default",
            "context-always",
            "--hand-written",
            folder,
            "--out",
            out,
            "--model",
            "python:bench_models.pass_all",
        )
    )

    by_variant = json.loads(out.read_text())["sets"]["trivial"]
    assert set(by_variant) == {"default", "context-always"}
    assert all(v["criteria"] == 1 and v["accuracy"] == 1.0 for v in by_variant.values())
