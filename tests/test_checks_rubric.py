"""Naming a catalogue check in a rubric: checklist markers, structured rubrics, errors."""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rubricate import Criterion, Judge, Rubric, RubricError, checks
from rubricate.testing import ScriptedChatModel, joint_reply


def only(rubric: Rubric) -> Criterion:
    [criterion] = rubric.criteria
    return criterion


# --- checklist markers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "description", "required", "check"),
    [
        (
            "- At most 300 words {check: word_count, at_most: 300}",
            "At most 300 words",
            True,
            checks.word_count(at_most=300),
        ),
        ("- No commas {check: no_commas}", "No commas", True, checks.no_commas()),
        ("No commas   {check:no_commas}   ", "No commas", True, checks.no_commas()),
        ("1. No commas {check: no_commas}", "No commas", True, checks.no_commas()),
        ("- [ ] No commas {check: no_commas}", "No commas", True, checks.no_commas()),
        ("- (optional) No commas {check: no_commas}", "No commas", False, checks.no_commas()),
        ("- No commas (optional) {check: no_commas}", "No commas", False, checks.no_commas()),
        ("- No commas {check: no_commas} (optional)", "No commas", False, checks.no_commas()),
        (
            "- Mentions both {check: keywords_present, keywords: [Acme Phone, 'Acme, Inc.']}",
            "Mentions both",
            True,
            checks.keywords_present(["Acme Phone", "Acme, Inc."]),
        ),
        (
            '- Signs off {check: ends_with, phrase: "Best, Sam {check: x}"}',
            "Signs off",
            True,
            checks.ends_with("Best, Sam {check: x}"),
        ),
        (
            '- Yes or no {check: one_of, options: ["yes", "no"], contains: true}',
            "Yes or no",
            True,
            checks.one_of(["yes", "no"], contains=True),
        ),
        (
            "- Uses {braces} in text {check: section_count, marker: SECTION, exactly: 2}",
            "Uses {braces} in text",
            True,
            checks.section_count(marker="SECTION", exactly=2),
        ),
    ],
)
def test_a_trailing_marker_names_a_check_and_leaves_the_description_clean(
    line: str, description: str, required: bool, check: checks.Check
) -> None:
    criterion = Rubric.parse(f"{line}\n- Another, required criterion").criteria[0]
    assert criterion.description == description
    assert criterion.required is required
    assert criterion.check == check
    assert criterion.id == Criterion(description=description).id


@pytest.mark.parametrize(
    "line",
    [
        "- Prints {check: ok} first",
        "- Returns a dict like {'check': 1}",
        "- Mentions check: word_count",
        "- Uses a{check: word_count} without a space",
        "- The text {Check the spelling} is fine",
        "- Ends with a capitalised {Check: this}",
    ],
)
def test_criteria_text_is_never_read_as_a_marker(line: str) -> None:
    criterion = only(Rubric.parse(line))
    assert criterion.check is None
    assert criterion.description == line[2:]


def test_a_continued_criterion_carries_its_marker_on_its_last_line() -> None:
    rubric = Rubric.parse(
        "- The summary stays short,\n  at most 50 words {check: word_count, at_most: 50}\n- Polite"
    )
    first, second = rubric.criteria
    assert first.description == "The summary stays short, at most 50 words"
    assert first.check == checks.word_count(at_most=50)
    assert second.check is None


def test_list_of_strings_items_take_markers_too() -> None:
    rubric = Rubric.parse(["Short {check: word_count, at_most: 5}", "Polite"])
    assert rubric.criteria[0].description == "Short"
    assert rubric.criteria[0].check == checks.word_count(at_most=5)
    assert rubric.criteria[1].check is None


def test_the_judge_sees_no_marker_and_only_judged_criteria() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    rubric = "- At most 5 words {check: word_count, at_most: 5}\n- The tone is polite"
    evaluation = Judge(model).evaluate(rubric, output="Thank you kindly for the help today.")
    [prompt] = model.prompts()
    assert "{check" not in prompt and "At most 5 words" not in prompt
    assert "C1: The tone is polite" in prompt
    short, polite = evaluation.criteria
    assert (short.passed, short.gap, short.decided_by) == (
        False,
        "has 7 words, needs at most 5",
        "check",
    )
    assert short.name == "At most 5 words"
    assert (polite.passed, polite.decided_by) == (True, "judge")


# --- structured rubrics -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("check", "expected"),
    [
        ("no_commas", checks.no_commas()),
        ("  no_commas ", checks.no_commas()),
        ({"name": "word_count", "at_most": 300}, checks.word_count(at_most=300)),
        ({"name": "valid_json", "allow_fence": False}, checks.valid_json(allow_fence=False)),
        ({"name": "keywords_present", "keywords": "solo"}, checks.keywords_present(["solo"])),
        (
            [{"name": "language", "code": "de"}, "all_capitals"],
            checks.all_of(checks.language("de"), checks.all_capitals()),
        ),
    ],
)
def test_structured_check_by_name_or_mapping(check: Any, expected: checks.Check) -> None:
    criterion = only(Rubric.parse([{"description": "x", "check": check}]))
    assert criterion.check == expected


def test_a_callable_check_still_works_in_data() -> None:
    def short(evidence: Any) -> bool:
        return len(evidence.output) < 10

    assert only(Rubric.parse([{"description": "x", "check": short}])).check is short
    assert only(Rubric.parse([{"description": "x", "check": None}])).check is None


def test_yaml_and_json_files(tmp_path: Path) -> None:
    yaml_file = tmp_path / "rubric.yaml"
    yaml_file.write_text(
        "criteria:\n"
        "  - description: At most 300 words\n"
        "    check: {name: word_count, at_most: 300}\n"
        "  - description: No commas\n"
        "    check: no_commas\n"
        "  - description: Mentions both\n"
        "    check:\n"
        "      name: keywords_present\n"
        "      keywords: [Acme Phone, 'Acme Watch']\n"
        "  - \"Ends politely {check: ends_with, phrase: 'Thanks!'}\"\n",
        encoding="utf-8",
    )
    rubric = Rubric.from_file(yaml_file)
    assert [c.check for c in rubric] == [
        checks.word_count(at_most=300),
        checks.no_commas(),
        checks.keywords_present(["Acme Phone", "Acme Watch"]),
        checks.ends_with("Thanks!"),
    ]
    json_file = tmp_path / "rubric.json"
    json_file.write_text(json.dumps(rubric.to_dict()), encoding="utf-8")
    assert [c.check for c in Rubric.from_file(json_file)] == [c.check for c in rubric]


def test_markdown_file_with_markers(tmp_path: Path) -> None:
    path = tmp_path / "rubric.md"
    path.write_text(
        "# Format\n- Three paragraphs {check: paragraph_count, exactly: 3}\n\n# Content\n- Kind\n",
        encoding="utf-8",
    )
    rubric = Rubric.from_file(path)
    assert [c.check for c in rubric] == [checks.paragraph_count(exactly=3), None]


# --- round trips ------------------------------------------------------------------------------


def test_to_text_and_to_dict_write_the_checks_back() -> None:
    rubric = Rubric.parse(
        [
            Criterion(description="Short", check=checks.word_count(at_least=2, at_most=5)),
            Criterion(description="Ends", check=checks.ends_with('Say "bye", ok?'), required=False),
            Criterion(description="Lists", check=checks.one_of(["yes", "no"])),
            Criterion(description="Plain"),
            Criterion(description="Own code", check=lambda ev: True),
        ]
    )
    text = rubric.to_text()
    assert text.splitlines()[:2] == [
        "- Short {check: word_count, at_least: 2, at_most: 5}",
        '- (optional) Ends {check: ends_with, phrase: "Say \\"bye\\", ok?"}',
    ]
    back = Rubric.parse(text)
    assert [(c.description, c.required) for c in back] == [
        (c.description, c.required) for c in rubric
    ]
    assert [c.check for c in back][:4] == [c.check for c in rubric][:4]
    assert back.criteria[4].check is None  # a Python callable has no text form
    data = rubric.to_dict()
    assert data["criteria"][0]["check"] == {"name": "word_count", "at_least": 2, "at_most": 5}
    assert data["criteria"][2]["check"] == {"name": "one_of", "options": ["yes", "no"]}
    assert data["criteria"][4]["check"] == "<lambda>"
    json.dumps(data)
    from_data = Rubric.from_data({"criteria": data["criteria"][:4]})
    assert [c.check for c in from_data] == [c.check for c in rubric][:4]


_phrase = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=40).filter(
    lambda s: s.split()
)


@settings(max_examples=150, deadline=None)
@given(_phrase, st.sampled_from(string.ascii_letters))
def test_any_phrase_survives_the_marker_round_trip(phrase: str, first: str) -> None:
    criterion = Criterion(description=f"{first} ends well", check=checks.ends_with(phrase))
    back = only(Rubric.parse(Rubric.parse([criterion]).to_text()))
    assert back.check == criterion.check
    assert back.description == criterion.description


# --- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "- Short {check: word_cont, at_most: 3}",
            "line 1: check: unknown check 'word_cont' (did you mean 'word_count'?); known checks: ",
        ),
        (
            "- a\n- Short {check: word_count, at_most: '3'}",
            "line 2: check.at_most: word_count: expected an integer, got '3'",
        ),
        (
            "- Short {check: word_count, at_mots: 3}",
            "line 1: check.at_mots: word_count has no argument 'at_mots' "
            "(did you mean 'at_most'?); its arguments: per, at_least, at_most, exactly, "
            "fewer_than, less_than, more_than",
        ),
        (
            "- Short {check: word_count}",
            "line 1: check: word_count needs a bound: one of at_least, at_most, exactly, "
            "fewer_than, less_than, more_than",
        ),
        (
            "- Letters {check: letter_count, at_least: 2}",
            "line 1: check.letter: letter_count needs the argument `letter`",
        ),
        (
            "- x {check: keywords_present, keywords: [yes, no]}",
            "line 1: check.keywords[0]: keywords_present: expected a string, got True "
            "(in YAML, quote yes, no, on, off, true and false to keep them as text)",
        ),
        (
            "- Short {check: word_count at_most=3}",
            "line 1: check: unknown check 'word_count at_most=3' (a check name is one word; "
            "arguments are `key: value` pairs, as in {check: word_count, at_most: 300})",
        ),
        (
            "- Short {check: word_count, at_most: 3",
            "line 1: check: malformed check marker '{check: word_count, at_most: 3' (",
        ),
        ("- Uses {check: x} and {y}", "line 1: check: malformed check marker"),
        ("- Returns {check: true}", "line 1: check: a check name must be a string, got True"),
        (
            "- {check: no_commas}",
            "line 1: check: a check marker needs the criterion's description before it",
        ),
        (
            "- (optional) {check: no_commas}",
            "line 1: check: a check marker needs the criterion's description before it",
        ),
        (
            "- Long\n  and continued {check: word_count, at_most: -1}",
            "line 2: check.at_most: word_count: must be >= 0, got -1",
        ),
        (
            "- Short {check: word_count, at_most:3}",
            "line 1: check.at_most:3: word_count has no argument 'at_most:3' (did you mean "
            "'at_most'?); its arguments: per, at_least, "
            "at_most, exactly, fewer_than, less_than, more_than (write `key: value`, with a "
            "space after the colon)",
        ),
        (
            "- Short {check: word_count, at_most: 3, 7: x}",
            "line 1: check: word_count: argument names are strings, got 7",
        ),
    ],
)
def test_marker_errors_name_the_line_check_and_argument(text: str, message: str) -> None:
    with pytest.raises(RubricError) as info:
        Rubric.parse(text)
    assert str(info.value).startswith(message), str(info.value)


@pytest.mark.parametrize(
    ("data", "field", "fragment"),
    [
        ([{"description": "x", "check": "nope"}], "criteria[0].check", "unknown check 'nope'"),
        (
            [{"description": "x", "check": "word_cont"}],
            "criteria[0].check",
            "(did you mean 'word_count'?)",
        ),
        (
            [{"description": "x", "check": {"name": "nope"}}],
            "criteria[0].check.name",
            "unknown check 'nope'",
        ),
        (
            [{"description": "x", "check": {"at_most": 3}}],
            "criteria[0].check.name",
            "missing `name`",
        ),
        (
            ["a", {"description": "x", "check": {"name": "word_count", "at_most": "3"}}],
            "criteria[1].check.at_most",
            "word_count: expected an integer, got '3'",
        ),
        (
            [{"description": "x", "check": {"name": "one_of", "options": ["a", 3]}}],
            "criteria[0].check.options[1]",
            "one_of: expected a string, got 3",
        ),
        (
            [{"description": "x", "check": {"name": "starts_with"}}],
            "criteria[0].check.phrase",
            "starts_with needs the argument `phrase`",
        ),
        (
            [{"description": "x", "check": {"name": "no_commas", "strict": True}}],
            "criteria[0].check.strict",
            "no_commas has no argument 'strict'; its arguments: none",
        ),
        (["x {check: nope}"], "criteria[0].check", "unknown check 'nope'"),
        (
            ["x {check: word_count, exactly: -2}"],
            "criteria[0].check.exactly",
            "must be >= 0, got -2",
        ),
        ([{"description": "x", "check": 5}], "criteria[0].check", "or a callable, got int"),
        (
            [{"description": "x", "check": ["no_commas", {"name": "word_count", "at_most": "3"}]}],
            "criteria[0].check[1].at_most",
            "word_count: expected an integer, got '3'",
        ),
        ([{"description": "x", "check": []}], "criteria[0].check", "an empty list of checks"),
        ([{"description": "x", "check": ["no_commas", 3]}], "criteria[0].check[1]", "got int"),
        (
            ["x {check: [no_commas, {name: word_count}]}"],
            "criteria[0].check[1]",
            "word_count needs a bound",
        ),
    ],
)
def test_structured_errors_name_the_field(data: Any, field: str, fragment: str) -> None:
    with pytest.raises(RubricError) as info:
        Rubric.parse(data)
    assert info.value.field == field
    assert fragment in str(info.value)


def test_yaml_errors_point_at_the_argument_line(tmp_path: Path) -> None:
    path = tmp_path / "rubric.yaml"
    path.write_text(
        "criteria:\n"
        "  - description: Short\n"
        "    check:\n"
        "      name: word_count\n"
        "      at_most: -3\n",
        encoding="utf-8",
    )
    with pytest.raises(RubricError) as info:
        Rubric.from_file(path)
    assert str(info.value) == (
        f"{path}:5: criteria[0].check.at_most: word_count: must be >= 0, got -3"
    )
    path.write_text("criteria:\n  - Fine\n  - 'Short {check: word_count, at_most: x}'\n")
    with pytest.raises(RubricError) as info:
        Rubric.from_file(path)
    assert str(info.value) == (
        f"{path}:3: criteria[1].check.at_most: word_count: expected an integer, got 'x'"
    )


def test_markdown_file_errors_name_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "rubric.md"
    path.write_text("# Title\n- Fine\n- Short {check: wordcount, at_most: 3}\n", encoding="utf-8")
    with pytest.raises(RubricError) as info:
        Rubric.from_file(path)
    assert str(info.value).startswith(
        f"{path}:3: check: unknown check 'wordcount' (did you mean 'word_count'?)"
    )


def test_a_list_of_checks_round_trips_through_the_marker_and_data() -> None:
    rubric = Rubric.parse(
        "- In German, in capitals {check: [{name: language, code: de}, all_capitals]}"
    )
    check = only(rubric).check
    assert check == checks.all_of(checks.language("de"), checks.all_capitals())
    assert rubric.to_text() == (
        '- In German, in capitals {check: [{name: language, code: "de"}, all_capitals]}'
    )
    assert Rubric.parse(rubric.to_text()) == rubric
    assert Rubric.parse(rubric.to_dict()) == rubric
    with pytest.raises(RubricError, match="inside each check, not beside the list"):
        Rubric.parse("- x {check: [no_commas, all_capitals], at_most: 3}")
