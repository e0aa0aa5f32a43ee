"""Batch grading (`rubricate._batch._grade`): streaming, results lines, resume, cache, failures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from grading_fakes import TOKENS, KeywordJudge, keyword_judge
from rubricate import Criterion, Judge, Rubric, RubricError
from rubricate._batch._grade import agrade_file, grade_file
from rubricate._batch._items import GradeItem, ItemResult, iter_results, parse_item
from rubricate._batch._labels import parse_labelled
from rubricate._batch._results import default_results_path
from rubricate._batch._streaming import BatchProgress, LineProblem, iter_jsonl
from rubricate.testing import GrammarScriptedChatModel

RUBRIC = "- Mentions Paris\n- Mentions France"


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    lines = [row if isinstance(row, (str, bytes)) else json.dumps(row) for row in rows]
    data = b"".join((x if isinstance(x, bytes) else x.encode()) + b"\n" for x in lines)
    path.write_bytes(data)
    return path


def read_results(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


class Recorder(BatchProgress):
    def __init__(self) -> None:
        self.total: int | None = None
        self.done_count = 0
        self.problems: list[LineProblem] = []

    def start(self, *, total: int) -> None:
        self.total = total

    def done(self, *, passed: bool, error: bool, cached: bool = False) -> None:
        self.done_count += 1

    def problem(self, problem: LineProblem) -> None:
        self.problems.append(problem)


# -- input lines -------------------------------------------------------------------------------


def test_parse_item_accepts_the_documented_fields() -> None:
    item = parse_item(
        {"id": 7, "output": "x", "task": "t", "rubric": ["A", "B"], "extra": 1}, line=3, path="f"
    )
    assert isinstance(item, GradeItem)
    assert (item.id, item.output, item.task, item.line) == (7, "x", "t", 3)
    assert item.rubric is not None and [c.description for c in item.rubric] == ["A", "B"]


@pytest.mark.parametrize("item_id", ["", " ", "\t\n", True, False, 1.5, None, ["a"]])
def test_every_reader_of_item_ids_refuses_the_same_ids(item_id: Any) -> None:
    """Input lines, results lines and labelled lines share one rule (a blank id is no id)."""
    assert isinstance(parse_item({"id": item_id, "output": "x"}, line=1, path="in"), LineProblem)
    labelled = {"id": item_id, "output": "x", "criteria": [{"description": "d", "label": True}]}
    assert isinstance(parse_labelled(labelled, line=1, path="l"), LineProblem)
    with pytest.raises(ValueError, match="no valid `id`"):
        ItemResult.from_dict({"id": item_id, "result": "satisfied"})


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ([1, 2], "expected a JSON object, got an array"),
        ({"output": "x"}, "missing `id`"),
        ({"id": "", "output": "x"}, "`id` must be a non-empty string or an integer, got ''"),
        ({"id": True, "output": "x"}, "`id` must be a non-empty string or an integer, got True"),
        ({"id": 1.5, "output": "x"}, "`id` must be a non-empty string or an integer, got 1.5"),
        ({"id": "a"}, "id 'a': missing `output`"),
        ({"id": "a", "output": 3}, "id 'a': `output` must be a string, got a number"),
        ({"id": "a", "output": "x", "task": ["t"]}, "id 'a': `task` must be a string, got an"),
        ({"id": "a", "output": "x", "rubric": 5}, "id 'a': `rubric`: a rubric must be"),
        ({"id": "a", "output": "x", "rubric": "# only a heading"}, "`rubric` has no criteria"),
        ({"id": "a", "output": "x", "rubric": "- A\n- a"}, "duplicate criterion"),
    ],
)
def test_parse_item_names_what_is_wrong(value: Any, reason: str) -> None:
    problem = parse_item(value, line=4, path="in.jsonl")
    assert isinstance(problem, LineProblem)
    assert problem.line == 4
    assert reason in problem.reason
    assert str(problem).startswith("in.jsonl:4: ")


def test_iter_jsonl_reports_bad_lines_and_streams_the_rest(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "in.jsonl",
        [b"\xef\xbb\xbf" + b'{"a": 1}', "", "{not json", b'{"b": "\xff"}', '{"c": 3}'],
    )
    entries = list(iter_jsonl(path))
    assert [type(e).__name__ for e in entries] == [
        "JsonLine",
        "LineProblem",
        "LineProblem",
        "JsonLine",
    ]
    assert entries[1].line == 3 and "invalid JSON" in entries[1].reason  # type: ignore[union-attr]
    assert entries[2].line == 4 and "not valid UTF-8" in entries[2].reason  # type: ignore[union-attr]
    assert entries[3].value == {"c": 3}  # type: ignore[union-attr]


def test_default_results_path_sits_next_to_the_input(tmp_path: Path) -> None:
    assert default_results_path(tmp_path / "outs.jsonl") == tmp_path / "outs.results.jsonl"


# -- grading ------------------------------------------------------------------------------------


def test_each_item_gets_one_result_line_with_verdicts_usage_and_latency(tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"id": "a", "output": "Paris is in France.", "task": "Where is Paris?"},
            {"id": 2, "output": "Paris, Texas."},
        ],
    )
    fake = KeywordJudge()
    summary = grade_file(source, tmp_path / "out.jsonl", judge=keyword_judge(fake), rubric=RUBRIC)

    rows = {row["id"]: row for row in read_results(tmp_path / "out.jsonl")}
    assert set(rows) == {"a", 2}
    good, bad = rows["a"], rows[2]
    assert (good["score"], good["passed"], good["result"], good["error"]) == (
        1.0,
        True,
        "satisfied",
        None,
    )
    assert good["line"] == 1 and good["cached"] is False
    assert [c["id"] for c in good["criteria"]] == ["mentions-paris", "mentions-france"]
    assert good["usage"] == {"input_tokens": TOKENS[0], "output_tokens": TOKENS[1], "calls": 1}
    assert good["latency_s"] >= 0 and good["mode"] == "joint"
    assert (bad["score"], bad["passed"], bad["result"]) == (0.0, False, "needs_revision")
    assert bad["criteria"][1] == {
        "id": "mentions-france",
        "name": "Mentions France",
        "passed": False,
        "gap": "The output never mentions france.",
        "required": True,
        "decided_by": "judge",
    }
    assert (summary.items, summary.passed, summary.errors, summary.malformed) == (2, 1, 0, 0)
    assert summary.pass_rate == 0.5
    assert summary.criteria["mentions-paris"].pass_rate == 1.0
    assert summary.criteria["mentions-france"].pass_rate == 0.5
    assert summary.usage.total_tokens == 2 * sum(TOKENS)
    assert summary.ok


def test_the_task_reaches_the_judge(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "output": "Paris", "task": "Name it"}])
    judge = keyword_judge(KeywordJudge())
    grade_file(source, tmp_path / "out.jsonl", judge=judge, rubric="- Mentions Paris")
    assert "<task>\nName it\n</task>" in judge.model.prompts()[0]  # type: ignore[attr-defined]


def test_a_line_rubric_overrides_the_batch_rubric(tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"id": "own", "output": "Rome", "rubric": "- Mentions Rome"},
            {"id": "own-list", "output": "Rome", "rubric": [{"id": "r", "description": "Is Rome"}]},
            {"id": "batch", "output": "Rome"},
        ],
    )
    grade_file(source, tmp_path / "out.jsonl", judge=keyword_judge(KeywordJudge()), rubric=RUBRIC)
    rows = {row["id"]: row for row in read_results(tmp_path / "out.jsonl")}
    assert [c["id"] for c in rows["own"]["criteria"]] == ["mentions-rome"]
    assert rows["own"]["passed"] is True
    assert [c["id"] for c in rows["own-list"]["criteria"]] == ["r"]
    assert [c["id"] for c in rows["batch"]["criteria"]] == ["mentions-paris", "mentions-france"]


def test_lines_without_any_rubric_are_malformed(tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [{"id": "a", "output": "Rome", "rubric": "- Mentions Rome"}, {"id": "b", "output": "x"}],
    )
    recorder = Recorder()
    summary = grade_file(
        source, tmp_path / "out.jsonl", judge=keyword_judge(KeywordJudge()), progress=recorder
    )
    assert summary.items == 1 and summary.malformed == 1
    assert "id 'b': no `rubric` field and no batch rubric (--rubric)" in recorder.problems[0].reason


def test_malformed_lines_are_reported_with_line_numbers_skipped_and_counted(tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [
            {"id": "a", "output": "Paris France"},
            "{oops",
            {"id": "b"},
            b'{"id": "c", "output": "\xc3"}',
            {"id": "d", "output": 5},
            {"id": "a", "output": "again"},
            {"id": "e", "output": "Paris"},
        ],
    )
    recorder = Recorder()
    summary = grade_file(
        source,
        tmp_path / "out.jsonl",
        judge=keyword_judge(KeywordJudge()),
        rubric=RUBRIC,
        progress=recorder,
    )
    assert [p.line for p in recorder.problems] == [2, 3, 4, 5, 6]
    assert "duplicate id 'a' (first on line 1)" in recorder.problems[-1].reason
    assert summary.malformed == 5 and summary.problems == recorder.problems
    assert summary.items == 2 and not summary.ok
    assert [row["id"] for row in read_results(tmp_path / "out.jsonl")] == ["a", "e"]
    assert recorder.total == 7 and recorder.done_count == 2


def test_a_judge_failure_is_recorded_on_its_item_and_the_batch_goes_on(tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl",
        [{"id": "boom", "output": "EXPLODE"}, {"id": "fine", "output": "Paris France"}],
    )
    summary = grade_file(
        source, tmp_path / "out.jsonl", judge=keyword_judge(KeywordJudge()), rubric=RUBRIC
    )
    rows = {row["id"]: row for row in read_results(tmp_path / "out.jsonl")}
    assert rows["boom"]["result"] == "grader_error"
    assert rows["boom"]["passed"] is False and rows["boom"]["score"] == 0
    assert "RuntimeError: the provider exploded" in rows["boom"]["error"]
    assert "cache_key" not in rows["boom"]
    assert rows["fine"]["passed"] is True
    assert (summary.errors, summary.passed, summary.pass_rate) == (1, 1, 1.0)
    assert not summary.ok


def test_an_unexpected_exception_from_the_judge_is_recorded_too(tmp_path: Path) -> None:
    class Broken(Judge):
        async def aevaluate(self, *args: Any, **kwargs: Any) -> Any:
            raise TypeError("bug in a judge subclass")

    source = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "output": "x"}])
    summary = grade_file(
        source,
        tmp_path / "out.jsonl",
        judge=Broken(keyword_judge(KeywordJudge()).model),
        rubric=RUBRIC,
    )
    [row] = read_results(tmp_path / "out.jsonl")
    assert row["error"] == "Grader raised TypeError: bug in a judge subclass"  # as the loop
    assert summary.errors == 1


# -- cache --------------------------------------------------------------------------------------


def test_identical_items_are_graded_once_even_when_in_flight_together(tmp_path: Path) -> None:
    rows = [{"id": f"i{n}", "output": "Paris France", "task": "t"} for n in range(6)]
    rows.append({"id": "other-task", "output": "Paris France", "task": "different"})
    rows.append({"id": "other-rubric", "output": "Paris France", "rubric": "- Mentions Paris"})
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    fake = KeywordJudge()
    summary = grade_file(
        source, tmp_path / "out.jsonl", judge=keyword_judge(fake), rubric=RUBRIC, concurrency=4
    )
    assert fake.calls == 3
    assert summary.cache_hits == 5 and summary.items == 8 and summary.passed == 8
    results = {row["id"]: row for row in read_results(tmp_path / "out.jsonl")}
    hits = [row for row in results.values() if row["cached"]]
    assert len(hits) == 5
    original = {
        row["id"] for row in results.values() if row["id"].startswith("i") and not row["cached"]
    }
    assert {row["cache_of"] for row in hits} == original
    for row in hits:
        assert row["usage"] == {"input_tokens": 0, "output_tokens": 0, "calls": 0}
        assert row["criteria"] == results[row["cache_of"]]["criteria"]
    assert summary.run_usage.calls == 3


def test_a_different_judge_setting_is_a_cache_miss(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "output": "Paris"}])
    grade_file(source, tmp_path / "out.jsonl", judge=keyword_judge(KeywordJudge()), rubric=RUBRIC)
    source2 = write_jsonl(tmp_path / "in2.jsonl", [{"id": "b", "output": "Paris"}])
    fake = KeywordJudge()
    judge = Judge(keyword_judge(fake).model, mode="joint", system_prompt="Be strict.")
    summary = grade_file(source2, tmp_path / "out.jsonl", judge=judge, rubric=RUBRIC)
    assert fake.calls == 1 and summary.cache_hits == 0


def test_failed_gradings_are_not_reused(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": n, "output": "EXPLODE"} for n in range(3)])
    fake = KeywordJudge()
    summary = grade_file(source, tmp_path / "out.jsonl", judge=keyword_judge(fake), rubric=RUBRIC)
    assert fake.calls == 3 and summary.errors == 3 and summary.cache_hits == 0


def test_rubrics_with_code_checks_are_not_cached(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": n, "output": "same"} for n in range(2)])
    rubric = Rubric((Criterion(description="Short", check=lambda ev: len(ev.output) < 10),))
    summary = grade_file(
        source, tmp_path / "out.jsonl", judge=keyword_judge(KeywordJudge()), rubric=rubric
    )
    assert summary.cache_hits == 0 and summary.passed == 2
    assert all("cache_key" not in row for row in read_results(tmp_path / "out.jsonl"))


# -- resume -------------------------------------------------------------------------------------


def test_an_interrupted_run_resumes_without_grading_twice_or_losing_anything(
    tmp_path: Path,
) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl", [{"id": f"item-{n}", "output": f"Paris {n}"} for n in range(7)]
    )
    out = tmp_path / "out.jsonl"
    first = KeywordJudge(interrupt_after=3)
    with pytest.raises(KeyboardInterrupt):
        grade_file(source, out, judge=keyword_judge(first), rubric=RUBRIC)
    saved = read_results(out)
    assert [row["id"] for row in saved] == ["item-0", "item-1", "item-2"]

    second = KeywordJudge()
    recorder = Recorder()
    summary = grade_file(source, out, judge=keyword_judge(second), rubric=RUBRIC, progress=recorder)
    assert second.outputs == [f"Paris {n}" for n in range(3, 7)]  # nothing graded twice
    rows = read_results(out)
    assert sorted(row["id"] for row in rows) == [f"item-{n}" for n in range(7)]  # nothing lost
    assert rows[:3] == saved
    assert (summary.resumed, summary.graded, summary.items) == (3, 4, 7)
    assert recorder.total == 4
    assert summary.usage.calls == 7 and summary.run_usage.calls == 4


def test_a_concurrent_interrupted_run_keeps_whole_lines_only(tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl", [{"id": n, "output": f"Paris {n}"} for n in range(20)]
    )
    out = tmp_path / "out.jsonl"
    with pytest.raises(KeyboardInterrupt):
        grade_file(
            source,
            out,
            judge=keyword_judge(KeywordJudge(interrupt_after=9)),
            rubric=RUBRIC,
            concurrency=4,
        )
    first_ids = [row["id"] for row in read_results(out)]  # every line parses
    assert len(first_ids) <= 9
    second = KeywordJudge()
    grade_file(source, out, judge=keyword_judge(second), rubric=RUBRIC, concurrency=4)
    assert sorted(row["id"] for row in read_results(out)) == list(range(20))
    assert second.calls == 20 - len(first_ids)


def test_a_torn_last_line_is_reported_and_its_item_graded_again(tmp_path: Path) -> None:
    source = write_jsonl(
        tmp_path / "in.jsonl", [{"id": "a", "output": "Paris"}, {"id": "b", "output": "Paris"}]
    )
    out = tmp_path / "out.jsonl"
    grade_file(source, out, judge=keyword_judge(KeywordJudge()), rubric=RUBRIC)
    data = out.read_bytes()
    out.write_bytes(data[: len(data) - 20])  # a hard kill in the middle of the second line
    recorder = Recorder()
    fake = KeywordJudge()
    summary = grade_file(source, out, judge=keyword_judge(fake), rubric=RUBRIC, progress=recorder)
    assert summary.unreadable_results == 1 and "unreadable result" in recorder.problems[0].reason
    assert summary.malformed == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 3  # the torn line stays, the new result starts on a fresh line
    assert sorted(r.id for r in iter_results(out)) == ["a", "b"]
    # The survivor was reused from the results file by the cache, across runs.
    assert fake.calls == 0 and summary.cache_hits == 1


def test_results_from_a_previous_run_seed_the_cache(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    first = write_jsonl(tmp_path / "a.jsonl", [{"id": "x", "output": "Paris"}])
    grade_file(first, out, judge=keyword_judge(KeywordJudge()), rubric=RUBRIC)
    second = write_jsonl(tmp_path / "b.jsonl", [{"id": "y", "output": "Paris"}])
    fake = KeywordJudge()
    summary = grade_file(second, out, judge=keyword_judge(fake), rubric=RUBRIC)
    assert fake.calls == 0 and summary.cache_hits == 1
    assert read_results(out)[-1]["cache_of"] == "x"


# -- arguments and the embedded model --------------------------------------------------------------


def test_bad_arguments_fail_before_any_call(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "output": "x"}])
    judge = keyword_judge(KeywordJudge())
    with pytest.raises(ValueError, match="must not be the input file"):
        grade_file(source, source, judge=judge, rubric=RUBRIC)
    with pytest.raises(ValueError, match="`concurrency` must be an int >= 1, got 0"):
        grade_file(source, tmp_path / "o.jsonl", judge=judge, rubric=RUBRIC, concurrency=0)
    with pytest.raises(RubricError, match="no criteria"):
        grade_file(source, tmp_path / "o.jsonl", judge=judge, rubric="# nothing")


async def test_the_embedded_model_grades_one_item_at_a_time(tmp_path: Path) -> None:
    active = 0
    peak = 0

    def reply(messages: Any, kwargs: Any) -> str:
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        import time

        time.sleep(0.01)
        active -= 1
        return "yes"

    model = GrammarScriptedChatModel(script=[reply], repeat_last=True)
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": n, "output": str(n)} for n in range(4)])
    summary = await agrade_file(
        source, tmp_path / "out.jsonl", judge=Judge(model), rubric=RUBRIC, concurrency=4
    )
    assert summary.passed == 4 and peak == 1
    assert summary.mode == "per_criterion"


def test_item_result_round_trips_and_rejects_non_results() -> None:
    result = ItemResult(id="a", line=1, score=1.0, passed=True, result="satisfied")
    assert ItemResult.from_dict(result.to_dict()) == result
    with pytest.raises(ValueError, match="`result` must be one of"):
        ItemResult.from_dict({"id": "a", "result": "great"})
    with pytest.raises(ValueError, match="no valid `id`"):
        ItemResult.from_dict({"result": "satisfied"})


def test_a_result_line_keeps_the_reasons_of_passed_criteria() -> None:
    # A cache hit is rebuilt from the stored line: the passes' reasons must survive the trip.
    from rubricate import CriterionVerdict

    verdict = CriterionVerdict(id="c1", name="Mentions Paris", passed=True, reason="It says Paris.")
    stored = ItemResult(
        id="x", line=1, score=1.0, passed=True, result="satisfied", criteria=(verdict,)
    )
    again = ItemResult.from_dict(json.loads(json.dumps(stored.to_dict())))
    assert again.criteria[0].reason == "It says Paris."
    assert again.criteria == stored.criteria
