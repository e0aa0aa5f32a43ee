"""Bad input (issue 6, part 4): property-based tests of the rubric parser and verdict validation,
and the limits: a 1 MB output, a 200-criterion rubric, empty output, unicode / RTL / emoji /
control characters, invalid UTF-8 in `rubricate grade` input. Each works or fails with an error
naming what and where, and nothing already graded is lost.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, BaseMessage
from typer.testing import CliRunner

from fakes import text
from grading_fakes import FAST, KeywordJudge, keyword_judge
from rubricate import Judge, Rubric, RubricError
from rubricate._batch._grade import grade_file
from rubricate._cli import create_app
from rubricate._judge._answers import parse_criterion, parse_joint
from rubricate.testing import GrammarScriptedChatModel, ScriptedChatModel, joint_reply

FAST_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
ENV = {"COLUMNS": "200", "NO_COLOR": "1"}
WEIRD = "\u202eRTL override \u05e9\u05dc\u05d5\u05dd \U0001f389 emoji \x00\x07\x1b[31m ctrl \ufeff"

# -- the rubric parser ---------------------------------------------------------------------------

lines = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        ["- ", "* ", "1. ", "- [ ] ", "- [x] ", "# ", "---", "```", "(optional) "]
    ).flatmap(lambda prefix: st.text(max_size=30).map(lambda body: prefix + body)),
    st.just("- a criterion {check: word_count, at_most: 5}"),
    st.just("- {check: nope}"),
)
checklists = st.lists(lines, max_size=12).map("\n".join)


@FAST_SETTINGS
@given(checklists)
def test_checklist_text_parses_or_raises_rubric_error_with_a_line(text: str) -> None:
    try:
        rubric = Rubric.from_text(text, source="rubric.md")
    except RubricError as exc:
        assert str(exc).startswith("rubric.md"), str(exc)
        return
    ids = [c.id for c in rubric]
    assert len(set(ids)) == len(ids) and all(ids)
    assert all(c.description and c.description == " ".join(c.description.split()) for c in rubric)
    assert not rubric or any(c.required for c in rubric)
    # The checklist form reads back as the same rubric.
    again = Rubric.from_text(rubric.to_text())
    assert [(c.description, c.required) for c in again] == [
        (c.description, c.required) for c in rubric
    ]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
criterion_items = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"description": json_values | st.text(max_size=20)},
        optional={
            "id": json_values | st.text(max_size=10),
            "required": json_values,
            "check": json_values,
        },
    ),
)


@FAST_SETTINGS
@given(st.one_of(json_values, st.lists(criterion_items, max_size=6)).map(lambda x: {"criteria": x}))
def test_rubric_data_builds_or_raises_rubric_error_naming_the_field(data: Any) -> None:
    try:
        rubric = Rubric.parse(data)
    except RubricError as exc:
        assert exc.field or "criteria" in str(exc) or "rubric" in str(exc), str(exc)
        return
    assert len({c.id for c in rubric}) == len(rubric)


# -- verdict validation --------------------------------------------------------------------------

LABELS = ["C1", "C2", "C3"]
label_like = st.sampled_from([*LABELS, "C4", "c1", " C2 ", "C01", "", "Criterion 1"]) | st.text(
    max_size=4
)
verdict_like = st.sampled_from(["pass", "fail", "cannot_evaluate", "PASS", " pass", "yes", ""])
items = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"criterion": label_like | json_values, "verdict": verdict_like | json_values},
        optional={"gap": st.text(max_size=12) | json_values, "extra": json_values},
    ),
)
joint_answers = st.one_of(
    json_values,
    st.text(max_size=40),
    st.lists(items, max_size=8).map(lambda xs: {"verdicts": xs}),
    st.lists(items, max_size=8).map(lambda xs: {"verdicts": xs, "note": "all criteria pass"}),
)


def valid_passes(raw: Any) -> set[str]:
    """Labels with a well-formed `pass` in `raw` and no other verdict for the same label."""
    if not isinstance(raw, dict) or not isinstance(raw.get("verdicts"), list):
        return set()
    seen: dict[str, set[str]] = {}
    for item in raw["verdicts"]:
        if isinstance(item, dict) and isinstance(item.get("criterion"), str):
            verdict = item.get("verdict")
            seen.setdefault(item["criterion"].strip(), set()).add(
                verdict.strip() if isinstance(verdict, str) else repr(verdict)
            )
    return {label for label, verdicts in seen.items() if verdicts == {"pass"}}


@FAST_SETTINGS
@given(joint_answers)
def test_parse_joint_never_raises_and_never_invents_a_pass(raw: Any) -> None:
    parsed = parse_joint(raw, LABELS)
    assert set(parsed.answers) <= set(LABELS)
    assert set(parsed.problems) <= {*LABELS, "*"}
    assert set(parsed.answers).isdisjoint(parsed.problems)
    assert set(parsed.answers) | (set(parsed.problems) - {"*"}) == set(LABELS)
    for label, answer in parsed.answers.items():
        assert answer.verdict in ("pass", "fail", "cannot_evaluate")
        if answer.verdict == "fail":
            assert answer.gap
        if answer.passed:
            assert label in valid_passes(raw)


criterion_answers = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {"verdict": verdict_like | json_values},
        optional={"gap": st.text(max_size=12) | json_values, "criterion": label_like},
    ),
    st.lists(
        st.fixed_dictionaries({"verdict": verdict_like, "gap": st.text(max_size=5)}),
        min_size=1,
        max_size=3,
    ),
)


@FAST_SETTINGS
@given(criterion_answers)
def test_parse_criterion_never_raises_and_passes_only_a_pass(raw: Any) -> None:
    answer, problem = parse_criterion(raw)
    assert (answer is None) != (problem is None)
    if answer is None:
        assert isinstance(problem, str) and problem
        return
    assert answer.verdict in ("pass", "fail", "cannot_evaluate")
    answers = raw if isinstance(raw, list) else [raw]
    if answer.passed:
        assert all(a.get("verdict", "").strip() == "pass" for a in answers)
    elif answer.verdict == "fail":
        assert answer.gap


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(joint_answers, min_size=2, max_size=2))
def test_the_judge_is_satisfied_only_when_every_label_has_a_valid_pass(answers: Any) -> None:
    replies = [
        AIMessage(
            "",
            tool_calls=[{"name": "RubricVerdicts", "args": a, "id": "c", "type": "tool_call"}],
        )
        if isinstance(a, dict)
        else AIMessage(str(a))
        for a in answers
    ]
    model = ScriptedChatModel(script=replies)
    evaluation = Judge(model, mode="joint", retry=FAST).evaluate(
        "- Mentions alpha\n- Mentions bravo\n- Mentions charlie", output="alpha"
    )
    assert evaluation.result != "grader_error"
    passes = valid_passes(answers[0]) | valid_passes(answers[1])
    for label, verdict in zip(LABELS, evaluation.criteria, strict=True):
        if verdict.passed:
            assert label in passes
    if evaluation.result == "satisfied":
        assert passes >= set(LABELS)


# -- limits --------------------------------------------------------------------------------------


def passing_joint(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
    """Pass every criterion the joint prompt lists, however many."""
    prompt = "\n".join(str(m.content) for m in messages)
    block = prompt[prompt.rindex("<criteria>") : prompt.rindex("</criteria>")]
    labels = re.findall(r"^(C\d+): ", block, re.MULTILINE)
    return joint_reply(*((label, "pass", "") for label in labels))


def test_a_1_mb_output_is_graded_with_the_trim_stated() -> None:
    output = "Paris " + "x" * 1_000_000 + " France"
    model = ScriptedChatModel(script=[passing_joint])
    evaluation = Judge(model, mode="joint", retry=FAST).evaluate(
        "- Mentions Paris\n- Mentions France", output=output
    )
    assert evaluation.passed
    prompt = model.prompts()[0]
    assert len(prompt) < 70_000
    assert "characters omitted by rubricate" in prompt
    assert "The output is 1,000,013 characters long" in prompt


def test_a_200_criterion_rubric_in_both_modes() -> None:
    rubric = Rubric.parse("\n".join(f"- Criterion number {n} holds" for n in range(200)))
    assert len(rubric) == 200 and len({c.id for c in rubric}) == 200
    joint = Judge(ScriptedChatModel(script=[passing_joint]), mode="joint", retry=FAST)
    evaluation = joint.evaluate(rubric, output="anything")
    assert evaluation.passed and len(evaluation.criteria) == 200

    # One verdict short: corrected once, then that criterion fails closed.
    def all_but_last(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        reply = passing_joint(messages, kwargs)
        args = reply.tool_calls[0]["args"]
        return joint_reply(*((v["criterion"], "pass", "") for v in args["verdicts"][:-1]))

    short = Judge(ScriptedChatModel(script=[all_but_last], repeat_last=True), retry=FAST)
    evaluation = short.evaluate(rubric, output="anything")
    assert evaluation.result == "needs_revision"
    assert [v.unverified for v in evaluation.criteria].count(True) == 1
    assert evaluation.criteria[-1].unverified

    yes_no = GrammarScriptedChatModel(script=[text("yes")], repeat_last=True)
    evaluation = Judge(yes_no, retry=FAST).evaluate(rubric, output="anything")
    assert evaluation.passed and evaluation.usage.calls == 200


def test_empty_output_is_graded_not_crashed() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "fail", "There is no answer."))])
    evaluation = Judge(model, retry=FAST).evaluate("- Mentions Paris", output="")
    assert evaluation.result == "needs_revision"
    assert "<output>\n\n</output>" in model.prompts()[0]


def test_unicode_rtl_emoji_and_control_characters_everywhere() -> None:
    rubric = Rubric.parse(f"- {WEIRD} first\n- \U0001f389\U0001f388\n- \u05e9\u05dc\u05d5\u05dd")
    assert [c.id for c in rubric] == [
        "rtl-override-emoji-31m-ctrl-first",
        "criterion",
        "criterion-2",
    ]
    # The invisible characters make the output suspect: it is graded again with them masked.
    model = ScriptedChatModel(script=[passing_joint], repeat_last=True)
    evaluation = Judge(model, retry=FAST).evaluate(rubric, output=WEIRD, task=WEIRD)
    assert evaluation.passed and evaluation.usage.calls == 2
    json.dumps(evaluation.to_dict())  # JSON-ready whatever the characters
    assert WEIRD.strip().split()[0] in model.prompts()[0]


def write_lines(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"".join(line + b"\n" for line in lines))
    return path


def row(item_id: Any, output: str) -> bytes:
    return json.dumps({"id": item_id, "output": output}, ensure_ascii=False).encode()


def test_grade_handles_weird_and_huge_lines_and_names_bad_utf8_by_line(tmp_path: Path) -> None:
    source = write_lines(
        tmp_path / "in.jsonl",
        [
            row("big", "Paris " + "y" * 1_000_000),
            row("empty", ""),
            row("weird", f"Paris {WEIRD}"),
            b'{"id": "bad", "output": "Paris \xff\xfe broken"}',
            row("after", "Paris again"),
            row("\u202e\U0001f389<b>\x07</b>", "Paris"),
        ],
    )
    results = tmp_path / "out.jsonl"
    report = tmp_path / "report.html"
    fake = KeywordJudge()
    app = create_app(judge_factory=lambda spec, options: keyword_judge(fake, options))
    args = ["grade", str(source), "-r", "- Mentions Paris", "-o", str(results)]
    run = CliRunner().invoke(app, [*args, "--report", str(report)], env=ENV)
    assert run.exit_code == 1, run.output  # a skipped line makes the run incomplete
    message = " ".join(run.output.split())
    assert f"{source}:4: not valid UTF-8 (byte 0xff at byte 32)" in message
    rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [
        "big",
        "empty",
        "weird",
        "after",
        "\u202e\U0001f389<b>\x07</b>",
    ]
    assert [r["passed"] for r in rows] == [True, False, True, True, True]
    html = report.read_text(encoding="utf-8")
    assert "\u202e\U0001f389&lt;b&gt;\x07&lt;/b&gt;" in html  # kept, and escaped
    assert "<b>\x07" not in html

    # Fix the bad line and rerun: only that line is graded, nothing before is lost or redone.
    saved = results.read_bytes()
    source.write_bytes(source.read_bytes().replace(b"\xff\xfe", b"ok"))
    again = KeywordJudge()
    app = create_app(judge_factory=lambda spec, options: keyword_judge(again, options))
    run = CliRunner().invoke(app, args, env=ENV)
    assert run.exit_code == 0, run.output
    assert results.read_bytes().startswith(saved)
    assert again.outputs == ["Paris ok broken"]


def test_a_rubric_file_with_invalid_utf8_is_named_with_the_byte(tmp_path: Path) -> None:
    rubric = tmp_path / "rubric.md"
    rubric.write_bytes(b"- Mentions Paris\n- Mentions \xc3\x28 France\n")
    # The file and the byte offset (0-based) of the first bad byte.
    with pytest.raises(RubricError, match=r"rubric\.md: not valid UTF-8 at byte 28$"):
        Rubric.from_file(rubric)
    source = write_lines(tmp_path / "in.jsonl", [row("a", "Paris")])
    app = create_app(judge_factory=lambda spec, options: keyword_judge(KeywordJudge(), options))
    run = CliRunner().invoke(app, ["grade", str(source), "-r", str(rubric)], env=ENV)
    assert run.exit_code == 2
    assert "rubric.md: not valid UTF-8 at byte 28" in " ".join(run.output.split())


def test_a_line_rubric_that_is_garbage_is_skipped_with_its_line_and_the_rest_graded(
    tmp_path: Path,
) -> None:
    source = write_lines(
        tmp_path / "in.jsonl",
        [
            row("a", "Paris"),
            json.dumps(
                {"id": "b", "output": "Paris", "rubric": {"criteria": [{"nope": 1}]}}
            ).encode(),
            json.dumps({"id": "c", "output": "Paris", "rubric": [""] * 3}).encode(),
            row("d", "Paris"),
        ],
    )
    out = tmp_path / "out.jsonl"
    summary = grade_file(
        source, out, judge=keyword_judge(KeywordJudge()), rubric="- Mentions Paris"
    )
    reasons = [str(p) for p in summary.problems]
    assert any(":2: id 'b': `rubric`: criteria[0].nope: unknown key 'nope'" in r for r in reasons)
    assert any(":3: id 'c': `rubric`:" in r for r in reasons)
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == ["a", "d"]
