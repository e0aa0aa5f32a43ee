"""The `rubricate` command line through typer's CliRunner, with a fake judge at the boundary."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from grading_fakes import KeywordJudge, keyword_judge
from rubricate import Judge, JudgeOptions, ModelError
from rubricate._cli import ExitCode, create_app
from rubricate.testing import GrammarScriptedChatModel

RUBRIC = "- Mentions Paris\n- Mentions France"
ENV = {"COLUMNS": "120", "NO_COLOR": "1"}


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def read_results(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


class Factory:
    """A judge factory recording what the command asked for."""

    def __init__(self, make: Callable[[JudgeOptions], Judge]) -> None:
        self.make = make
        self.requests: list[tuple[str, JudgeOptions]] = []

    def __call__(self, spec: str, options: JudgeOptions) -> Judge:
        self.requests.append((spec, options))
        return self.make(options)


def run(args: list[str], fake: KeywordJudge | None = None, factory: Any = None) -> Result:
    if factory is None:
        fake = fake or KeywordJudge()
        factory = Factory(lambda options: keyword_judge(fake, options))  # type: ignore[arg-type]
    app = create_app(judge_factory=factory)
    return CliRunner().invoke(app, args, env=ENV)


@pytest.fixture
def items(tmp_path: Path) -> Path:
    return write_jsonl(
        tmp_path / "items.jsonl",
        [
            {"id": "good", "output": "Paris is in France.", "task": "Where is Paris?"},
            {"id": "half", "output": "Paris, Texas."},
            {"id": "none", "output": "Rome."},
        ],
    )


# -- help and usage -----------------------------------------------------------------------------


@pytest.mark.parametrize("command", [[], ["grade"], ["agreement"]])
def test_every_command_has_help_with_examples_and_exit_codes(command: list[str]) -> None:
    result = run([*command, "--help"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.replace("│", " ").split())
    if command:
        assert "Examples:" in text and f"rubricate {command[0]} " in text
        assert "Exit codes: 0 every line graded; 1 some items could not be graded" in text
        assert "--judge" in text and "--mode" in text and "-j" in text
    else:
        assert "grade" in text and "agreement" in text


def test_no_arguments_show_help_and_version_prints() -> None:
    assert "Usage" in run([]).output
    result = run(["--version"])
    assert result.exit_code == 0 and result.stdout.startswith("rubricate ")


def test_grade_help_says_parallel_jobs_do_not_help_the_embedded_model() -> None:
    text = " ".join(run(["grade", "--help"]).stdout.replace("│", " ").split())
    assert "the embedded model runs one call at a time" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["grade", "missing.jsonl", "-r", "- A"], "does not exist"),
        (["grade", "{items}", "-r", "rubric.yaml"], "rubric.yaml: file not found"),
        (["grade", "{items}", "-r", "# heading only"], "--rubric has no criteria"),
        (["grade", "{items}", "-r", "- A\n- a"], "duplicate criterion"),
        (["grade", "{items}", "-r", "- A", "-j", "0"], "greater than or equal to 1"),
        (["grade", "{items}", "-r", "- A", "--mode", "both"], "'both' is not one of"),
        (["grade", "{items}", "-r", "- A", "-o", "{items}"], "must not be the input file"),
        (["grade", "{items}", "-r", "- A", "--report", "{items}"], "--report must be a different"),
        (["agreement", "{items}", "--limit", "0"], "greater than or equal to 1"),
        (["agreement", "{items}", "-o", "{items}"], "-o must not be one of the labelled files"),
    ],
)
def test_usage_errors_exit_2(items: Path, args: list[str], message: str) -> None:
    fake = KeywordJudge()
    result = run([a.replace("{items}", str(items)) for a in args], fake)
    assert result.exit_code == ExitCode.USAGE == 2, result.output
    assert message in " ".join(result.output.replace("│", " ").split())
    assert fake.calls == 0


def test_a_judge_that_cannot_be_created_exits_2(items: Path) -> None:
    def factory(spec: str, options: JudgeOptions) -> Judge:
        raise ModelError(f"cannot tell the provider of model {spec!r}")

    result = run(["grade", str(items), "-r", "- A", "--judge", "nope"], factory=factory)
    assert result.exit_code == 2
    assert "Error: cannot create the judge 'nope': cannot tell the provider" in result.stderr


# -- grade --------------------------------------------------------------------------------------


def test_grade_writes_results_and_prints_the_summary(items: Path, tmp_path: Path) -> None:
    factory = Factory(lambda options: keyword_judge(KeywordJudge(), options))
    out = tmp_path / "results.jsonl"
    args = ["grade", str(items), "--rubric", RUBRIC, "-o", str(out), "--judge", "openai:x"]
    result = run([*args, "--mode", "joint", "-j", "2"], factory=factory)

    assert result.exit_code == ExitCode.OK == 0, result.output
    assert factory.requests == [("openai:x", {"mode": "joint"})]
    rows = {row["id"]: row for row in read_results(out)}
    assert {k: v["passed"] for k, v in rows.items()} == {"good": True, "half": False, "none": False}
    text = result.stdout
    assert "Grading summary" in text
    assert "3 (3 graded now)" in text
    assert "1 of 3 graded (33.3%)" in text
    assert "600 in + 60 out, 6 calls" not in text  # one joint call an item: 3 calls
    assert "300 in + 30 out, 3 calls" in text
    assert "Pass rate per criterion" in text
    assert "Mentions Paris" in text and "2/3" in text and "66.7%" in text
    assert "Mentions France" in text and "1/3" in text
    assert str(out) in text


def test_grade_defaults_the_results_path_and_takes_a_rubric_file(
    items: Path, tmp_path: Path
) -> None:
    rubric = tmp_path / "rubric.yaml"
    rubric.write_text("criteria:\n  - id: paris\n    description: Mentions Paris\n")
    result = run(["grade", str(items), "--rubric", str(rubric)])
    assert result.exit_code == 0, result.output
    rows = read_results(tmp_path / "items.results.jsonl")
    assert [row["criteria"][0]["id"] for row in rows] == ["paris"] * 3


def test_a_bad_rubric_file_names_the_line(items: Path, tmp_path: Path) -> None:
    rubric = tmp_path / "rubric.yaml"
    rubric.write_text("criteria:\n  - description: A\n    required: yes please\n")
    result = run(["grade", str(items), "--rubric", str(rubric)])
    assert result.exit_code == 2
    assert f"invalid --rubric: {rubric}:3: criteria[0].required" in " ".join(result.stderr.split())


def test_grade_per_line_rubrics_need_no_batch_rubric(tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"id": 1, "output": "Rome", "rubric": "- Mentions Rome"},
            {"id": 2, "output": "Rome", "rubric": ["Mentions Oslo"]},
        ],
    )
    result = run(["grade", str(source)])
    assert result.exit_code == 0, result.output
    rows = {row["id"]: row for row in read_results(tmp_path / "in.results.jsonl")}
    assert rows[1]["passed"] is True and rows[2]["passed"] is False
    assert "Mentions Rome" in result.stdout and "Mentions Oslo" in result.stdout


def test_grade_malformed_lines_are_reported_and_exit_1(tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [{"id": "a", "output": "Paris France"}, "{oops", {"id": "b", "output": None}],
    )
    result = run(["grade", str(source), "-r", RUBRIC])
    assert result.exit_code == ExitCode.INCOMPLETE == 1
    err = " ".join(result.stderr.split())
    assert f"Skipped {source}:2: invalid JSON" in err
    assert f"Skipped {source}:3: id 'b': `output` must be a string, got null" in err
    assert "Malformed lines │ 2 input line(s) skipped" in result.stdout
    assert len(read_results(tmp_path / "in.results.jsonl")) == 1


def test_grade_judge_errors_are_recorded_and_exit_1(tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [{"id": "a", "output": "EXPLODE"}, {"id": "b", "output": "Paris France"}],
    )
    result = run(["grade", str(source), "-r", RUBRIC])
    assert result.exit_code == 1
    assert "Errors          │ 1 item(s) the judge failed on" in result.stdout
    rows = {row["id"]: row for row in read_results(tmp_path / "in.results.jsonl")}
    assert "the provider exploded" in rows["a"]["error"] and rows["b"]["passed"] is True


def test_grade_interrupted_then_resumed(tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl", [{"id": n, "output": f"Paris France {n}"} for n in range(5)]
    )
    out = tmp_path / "out.jsonl"
    first = run(
        ["grade", str(source), "-r", RUBRIC, "-o", str(out)], KeywordJudge(interrupt_after=2)
    )
    assert first.exit_code == ExitCode.INTERRUPTED == 130
    assert "Interrupted. The 2 item(s) graded in this run are saved" in " ".join(
        first.stderr.split()
    )
    assert [row["id"] for row in read_results(out)] == [0, 1]

    fake = KeywordJudge()
    second = run(["grade", str(source), "-r", RUBRIC, "-o", str(out)], fake)
    assert second.exit_code == 0, second.output
    assert fake.outputs == [f"Paris France {n}" for n in (2, 3, 4)]
    assert sorted(row["id"] for row in read_results(out)) == [0, 1, 2, 3, 4]
    assert "5 (3 graded now; 2 already in the results file)" in second.stdout

    third = run(["grade", str(source), "-r", RUBRIC, "-o", str(out)], fake)
    assert third.exit_code == 0 and fake.calls == 3
    assert "5 (0 graded now; 5 already in the results file)" in third.stdout


def test_grade_cache_hits_show_in_the_summary(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": n, "output": "Paris"} for n in range(4)])
    fake = KeywordJudge()
    result = run(["grade", str(source), "-r", RUBRIC, "-j", "3"], fake)
    assert result.exit_code == 0 and fake.calls == 1
    assert "4 (4 graded now, 3 of them from cache)" in result.stdout


def test_grade_on_the_embedded_model_notes_that_jobs_do_not_apply(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": n, "output": str(n)} for n in range(3)])
    model = GrammarScriptedChatModel(script=["yes"], repeat_last=True)
    result = run(
        ["grade", str(source), "-r", RUBRIC, "-j", "4"],
        factory=lambda spec, options: Judge(model, **options),
    )
    assert result.exit_code == 0, result.output
    assert "-j 4 has no effect on the embedded model" in " ".join(result.stderr.split())
    assert "3 of 3 graded (100.0%)" in result.stdout


def test_grade_writes_the_html_report(items: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    result = run(["grade", str(items), "-r", RUBRIC, "--report", str(report)])
    assert result.exit_code == 0
    assert f"Report: {report}" in result.stderr
    html = report.read_text()
    assert html.startswith("<!doctype html>") and "Mentions France" in html


def test_python_dash_m_runs_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    import runpy

    monkeypatch.setattr(sys, "argv", ["rubricate", "--version"])
    with pytest.raises(SystemExit) as exit_info:
        runpy.run_module("rubricate", run_name="__main__")
    assert exit_info.value.code == 0


# -- agreement ----------------------------------------------------------------------------------


def labelled(path: Path, extra: list[Any] | None = None) -> Path:
    def crit(cid: str, word: str, label: bool) -> dict[str, Any]:
        return {"id": cid, "description": f"Mentions {word}", "label": label}

    rows: list[Any] = [
        {"id": "a1", "source": "a", "output": "Paris",
         "criteria": [crit("paris", "Paris", True), crit("rome", "Rome", True)]},
        {"id": "a2", "source": "a", "output": "Rome",
         "criteria": [crit("paris", "Paris", False), crit("rome", "Rome", False)]},
        {"id": "b1", "source": "b", "output": "Paris Rome",
         "criteria": [crit("paris", "Paris", True), crit("oslo", "Oslo", False)]},
        {"id": "b2", "source": "b", "output": "Oslo",
         "criteria": [crit("oslo", "Oslo", True), crit("paris", "Paris", False)]},
    ]  # fmt: skip
    return write_jsonl(path, rows + (extra or []))


def test_agreement_prints_tables_and_writes_json(tmp_path: Path) -> None:
    bench = labelled(tmp_path / "bench.jsonl")
    out = tmp_path / "agreement.json"
    result = run(["agreement", str(bench), "-o", str(out), "--seed", "3"])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert "Agreement with the labels" in text and "Per criterion id" in text
    overall = next(line for line in text.splitlines() if line.startswith("overall"))
    assert overall.split()[:5] == ["overall", "8", "0.750", "0.750", "0.50"]
    assert overall.split()[-1] == "3/1/1/3"  # TP/FP/FN/TN
    rome = next(line for line in text.splitlines() if line.startswith("rome"))
    assert rome.split()[:5] == ["rome", "2", "0.000", "0.000", "-1.00"]
    data = json.loads(out.read_text())
    assert data["overall"]["kappa"] == pytest.approx(0.5)
    assert data["seed"] == 3 and data["items_used"] == 4
    assert set(data["per_source"]) == {"a", "b"}
    assert set(data["per_criterion"]) == {"paris", "rome", "oslo"}
    assert f"Wrote {out}" in result.stderr


def test_agreement_reports_auroc_ece_and_draws_a_reliability_diagram(tmp_path: Path) -> None:
    bench = labelled(tmp_path / "bench.jsonl")
    html = tmp_path / "agreement.html"
    fake = KeywordJudge(p_pass={"pass": 0.9, "fail": 0.2})

    result = run(["agreement", str(bench), "--report", str(html)], fake)

    assert result.exit_code == 0, result.output
    header = next(line for line in result.stdout.splitlines() if "Kappa" in line)
    assert "AUROC" in header and "ECE" in header
    overall = next(line for line in result.stdout.splitlines() if line.startswith("overall"))
    assert overall.split()[-3:-1] == ["0.75", "0.10"]  # AUROC, ECE (hand-computed in
    # test_agreement)
    page = html.read_text(encoding="utf-8")
    assert page.count('<svg class="reliability"') == 3  # overall, then sources a and b
    assert "overall: AUROC 0.750, ECE 0.100, 8 verdicts with a confidence" in page
    assert "http://" not in page and "<script" not in page
    assert f"Report: {html}" in result.stderr


def test_agreement_limit_and_incomplete_exit_code(tmp_path: Path) -> None:
    bench = labelled(tmp_path / "bench.jsonl", ["{broken"])
    fake = KeywordJudge()
    result = run(["agreement", str(bench), "--limit", "2", "--seed", "1"], fake)
    assert result.exit_code == 1  # the malformed line
    assert fake.calls == 2
    assert "2 of 4 items (seeded sample, seed 1)" in " ".join(result.stdout.split())
    assert f"Skipped {bench}:5: invalid JSON" in " ".join(result.stderr.split())


def test_agreement_judge_errors_exit_1(tmp_path: Path) -> None:
    bad = {"id": "boom", "source": "a", "output": "EXPLODE",
           "criteria": [{"id": "x", "description": "Mentions X", "label": True}]}  # fmt: skip
    result = run(["agreement", str(labelled(tmp_path / "b.jsonl", [bad]))])
    assert result.exit_code == 1
    assert "1 item(s) the judge failed on, left out of the metrics: boom" in result.stdout


def test_agreement_without_scikit_learn_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "sklearn", None)
    result = run(["agreement", str(labelled(tmp_path / "b.jsonl"))])
    assert result.exit_code == 2
    assert "pip install 'rubricate[eval]'" in result.stderr
