"""Rubric parsing: checklist text, data, files, ids, errors and the text round trip."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rubricate import Criterion, Rubric, RubricError


def descriptions(rubric: Rubric) -> list[str]:
    return [c.description for c in rubric]


def shape(rubric: Rubric) -> list[tuple[str, bool]]:
    return [(c.description, c.required) for c in rubric]


# --- checklist text -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("- Cites a source", "Cites a source"),
        ("* Cites a source", "Cites a source"),
        ("+ Cites a source", "Cites a source"),
        ("• Cites a source", "Cites a source"),
        ("1. Cites a source", "Cites a source"),
        ("1) Cites a source", "Cites a source"),
        ("12. Cites a source", "Cites a source"),
        ("- [ ] Cites a source", "Cites a source"),
        ("- [x] Cites a source", "Cites a source"),
        ("- [X] Cites a source", "Cites a source"),
        ("-\tCites a source", "Cites a source"),
        ("   - Cites a source   ", "Cites a source"),
        ("Cites a source", "Cites a source"),
        ("-   Cites   a\tsource", "Cites a source"),
        # A marker counts only when whitespace follows it.
        ("3.14 is mentioned", "3.14 is mentioned"),
        ("1.5x faster is claimed", "1.5x faster is claimed"),
        ("-1 is handled", "-1 is handled"),
        ("*bold* is used", "*bold* is used"),
        ("2)no space", "2)no space"),
        ("#hashtag is present", "#hashtag is present"),
        ("[ ] without a marker keeps its box", "[ ] without a marker keeps its box"),
        ("- 3.14 is mentioned", "3.14 is mentioned"),
    ],
)
def test_list_markers_are_stripped_only_when_followed_by_whitespace(
    line: str, expected: str
) -> None:
    assert descriptions(Rubric.parse(line)) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "# Rubric\n- One\n\n## Section\n- Two",
        "\n\n- One\n   \n\t\n- Two\n\n",
        "- One\n---\n- Two\n***\n___\n- - -",
        "- One\n```\n- not a criterion\n```\n- Two",
        "- One\n~~~python\nprint('no')\n~~~\n- Two",
        "###### Deep heading\n- One\n#\n- Two",
    ],
    ids=["headings", "blank-lines", "rules", "backtick-fence", "tilde-fence", "heading-levels"],
)
def test_blank_lines_headings_rules_and_fences_are_skipped(text: str) -> None:
    assert descriptions(Rubric.parse(text)) == ["One", "Two"]


@pytest.mark.parametrize(
    ("line", "description", "required"),
    [
        ("- (optional) Has a title", "Has a title", False),
        ("- Has a title (optional)", "Has a title", False),
        ("- (OPTIONAL) Has a title", "Has a title", False),
        ("- Has a title (Optional)", "Has a title", False),
        ("- [ ] (optional) Has a title", "Has a title", False),
        ("(optional) Has a title", "Has a title", False),
        ("- Has an (optional) title", "Has an (optional) title", True),
        ("- Has a title", "Has a title", True),
    ],
)
def test_optional_marker_at_start_or_end(line: str, description: str, required: bool) -> None:
    rubric = Rubric.parse(f"- Anchor\n{line}")
    assert shape(rubric)[1] == (description, required)


def test_a_rubric_with_no_required_criterion_makes_all_required() -> None:
    rubric = Rubric.parse("- (optional) One\n- Two (optional)")
    assert shape(rubric) == [("One", True), ("Two", True)]
    assert rubric.required == tuple(rubric.criteria)


def test_mixed_required_and_optional_are_kept() -> None:
    rubric = Rubric.parse("- One\n- (optional) Two")
    assert shape(rubric) == [("One", True), ("Two", False)]
    assert [c.id for c in rubric.required] == ["one"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "- The answer cites\n  a primary source\n- Short",
            ["The answer cites a primary source", "Short"],
        ),
        ("1. Long\n   and wrapped\n   twice", ["Long and wrapped twice"]),
        # An indented line with a marker is its own (nested) criterion.
        ("- Parent\n  - Child", ["Parent", "Child"]),
        # Not indented: a new criterion, not a continuation.
        ("- First\nSecond", ["First", "Second"]),
        # A blank line ends the criterion above it.
        ("- First\n\n  Second", ["First", "Second"]),
        # A heading ends the criterion above it too.
        ("- First\n# Head\n  Second", ["First", "Second"]),
    ],
)
def test_indented_line_without_marker_continues_the_previous_criterion(
    text: str, expected: list[str]
) -> None:
    assert descriptions(Rubric.parse(text)) == expected


def test_optional_at_the_end_of_a_continued_criterion_marks_it_optional() -> None:
    rubric = Rubric.parse("- Required one\n- Has a\n  title (optional)")
    assert shape(rubric) == [("Required one", True), ("Has a title", False)]


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("- One\n-", 2, "empty criterion"),
        ("- One\n\n- [ ]", 3, "empty criterion"),
        ("- One\n- (optional)", 2, "empty criterion"),
        ("1.", 1, "empty criterion"),
        ("- One\n- Two\n- one", 3, "duplicate criterion 'one' (already on line 1)"),
        ("- Cites a\n  source\n- cites A SOURCE", 3, "already on line 1"),
    ],
)
def test_text_errors_name_the_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(RubricError) as info:
        Rubric.parse(text)
    assert info.value.line == line
    assert info.value.source is None
    assert str(info.value).startswith(f"line {line}: ")
    assert fragment in str(info.value)


def test_the_same_text_is_parsed_once_and_errors_are_raised_every_time() -> None:
    text = "- Cites a source\n- (optional) Under 100 words {check: word_count, at_most: 100}"
    first = Rubric.parse(text)
    assert Rubric.parse(text) is first
    assert Rubric.parse(text + "\n- Has a title") is not first
    for _ in range(2):
        with pytest.raises(RubricError, match="line 2: empty criterion"):
            Rubric.parse("- One\n-")


def test_empty_text_is_an_empty_rubric() -> None:
    rubric = Rubric.parse("# Only a heading\n\n")
    assert len(rubric) == 0
    assert not rubric
    assert rubric.to_text() == ""


# --- ids ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("description", "expected_id"),
    [
        ("The answer cites a source!", "the-answer-cites-a-source"),
        ("Café résumé is spelled right", "cafe-resume-is-spelled-right"),
        ("Under 100 words", "under-100-words"),
        ("!!!", "criterion"),
        ("日本語", "criterion"),
        (
            "Every paragraph of the answer states its main claim in the very first sentence",
            "every-paragraph-of-the-answer-states-its-main",
        ),
    ],
)
def test_ids_are_derived_from_the_description(description: str, expected_id: str) -> None:
    criterion = Criterion(description=description)
    assert criterion.id == expected_id
    assert len(criterion.id) <= 48


def test_derived_ids_do_not_depend_on_position() -> None:
    one = Rubric.parse("- Alpha beta\n- Gamma")
    two = Rubric.parse("- Gamma\n- Zeta\n- Alpha beta")
    assert one["alpha-beta"].description == two["alpha-beta"].description == "Alpha beta"


def test_duplicate_derived_ids_get_a_suffix() -> None:
    rubric = Rubric.parse("- Cites a source.\n- Cites a source!\n- Cites a source?")
    assert [c.id for c in rubric] == ["cites-a-source", "cites-a-source-2", "cites-a-source-3"]


def test_explicit_ids_are_kept_and_derived_ids_avoid_them() -> None:
    rubric = Rubric.parse(
        [
            "Cites a source",
            {"id": "cites-a-source", "description": "Something else"},
            {"id": "  C9  ", "description": "Third"},
        ]
    )
    assert [c.id for c in rubric] == ["cites-a-source-2", "cites-a-source", "C9"]


def test_derived_id_colliding_with_an_earlier_explicit_id_gets_a_suffix() -> None:
    rubric = Rubric.parse([{"id": "short", "description": "Long one"}, "Short"])
    assert [c.id for c in rubric] == ["short", "short-2"]


def test_blank_explicit_id_is_derived() -> None:
    rubric = Rubric.parse([{"id": "", "description": "Same words"}, "Same words!"])
    assert [c.id for c in rubric] == ["same-words", "same-words-2"]


def test_duplicate_explicit_ids_are_an_error() -> None:
    with pytest.raises(RubricError, match=r"criteria\[1\]\.id: duplicate criterion id 'c1'"):
        Rubric.parse([{"id": "c1", "description": "One"}, {"id": "c1", "description": "Two"}])


# --- data forms ---------------------------------------------------------------------------------


def test_list_of_strings() -> None:
    rubric = Rubric.parse(["Has a title", "(optional) Is short", "  Cites   a source  "])
    assert shape(rubric) == [("Has a title", True), ("Is short", False), ("Cites a source", True)]


def test_list_of_dicts_and_criteria() -> None:
    def under_ten_words(evidence: Any) -> bool:
        return len(evidence.output.split()) < 10

    given_criterion = Criterion(id="given", description="Given as an object", required=False)
    rubric = Rubric.parse(
        [
            {"id": "C1", "description": "First", "required": True},
            {"description": "Second", "required": False, "check": under_ten_words},
            given_criterion,
        ]
    )
    assert [(c.id, c.description, c.required) for c in rubric] == [
        ("C1", "First", True),
        ("second", "Second", False),
        ("given", "Given as an object", False),
    ]
    assert rubric["second"].check is under_ten_words
    assert rubric["given"] is given_criterion
    assert rubric.to_dict() == {
        "criteria": [
            {"id": "C1", "description": "First", "required": True},
            {
                "id": "second",
                "description": "Second",
                "required": False,
                "check": "under_ten_words",
            },
            {"id": "given", "description": "Given as an object", "required": False},
        ]
    }


def test_mapping_with_criteria() -> None:
    rubric = Rubric.parse({"criteria": ["One", {"description": "Two", "required": False}]})
    assert shape(rubric) == [("One", True), ("Two", False)]


def test_mapping_whose_criteria_is_checklist_text() -> None:
    rubric = Rubric.parse({"criteria": "- One\n- (optional) Two"})
    assert shape(rubric) == [("One", True), ("Two", False)]


def test_tuple_is_accepted_and_rubric_passes_through() -> None:
    rubric = Rubric.parse(("One", "Two"))
    assert descriptions(rubric) == ["One", "Two"]
    assert Rubric.parse(rubric) is rubric


def test_a_str_is_always_checklist_text_never_a_path(tmp_path: Path) -> None:
    path = tmp_path / "rubric.md"
    path.write_text("- From the file\n", encoding="utf-8")
    assert descriptions(Rubric.parse(str(path))) == [str(path)]
    assert descriptions(Rubric.parse(path)) == ["From the file"]


@pytest.mark.parametrize(
    ("data", "field", "fragment"),
    [
        ([{"description": "a", "colour": "red"}], "criteria[0].colour", "unknown key 'colour'"),
        ([{"id": "x"}], "criteria[0].description", "missing `description`"),
        ([{"description": 5}], "criteria[0].description", "expected a string, got int"),
        ([{"description": "   "}], "criteria[0].description", "non-empty description"),
        (
            ["a", {"description": "b", "required": "yes"}],
            "criteria[1].required",
            "expected true or false, got 'yes'",
        ),
        ([{"description": "a", "required": 1}], "criteria[0].required", "got 1"),
        ([{"description": "a", "check": "len"}], "criteria[0].check", "unknown check 'len'"),
        ([{"description": "a", "check": 5}], "criteria[0].check", "or a callable, got int"),
        ([{"description": "a", "id": 7}], "criteria[0].id", "expected a string, got int"),
        (["a", 3], "criteria[1]", "expected a string or a mapping, got int"),
        (["a", ""], "criteria[1]", "empty criterion"),
        (["a", "(optional)"], "criteria[1]", "empty criterion"),
        (["Cites a source", "cites a SOURCE"], "criteria[1]", "duplicate criterion"),
        ({"criteria": ["a"], "extra": 1}, "extra", "unknown key 'extra'"),
        ({"rules": ["a"]}, "rules", "unknown key 'rules'"),
        ({}, "criteria", "missing the `criteria` list"),
        ({"criteria": 5}, "criteria", "expected a list of criteria, got int"),
    ],
)
def test_data_errors_name_the_field(data: Any, field: str, fragment: str) -> None:
    with pytest.raises(RubricError) as info:
        Rubric.parse(data)
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}: ")
    assert fragment in str(info.value)


@pytest.mark.parametrize("source", [5, None, 1.5, object()])
def test_unsupported_source_type_is_a_rubric_error(source: Any) -> None:
    with pytest.raises(RubricError, match=rf"got {type(source).__name__}$"):
        Rubric.parse(source)


def test_rubric_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="empty criterion"):
        Rubric.parse("-")


def test_criterion_validates_its_own_fields() -> None:
    with pytest.raises(RubricError, match=r"^required: expected true or false, got 'no'$"):
        Criterion(description="x", required="no")  # type: ignore[arg-type]
    with pytest.raises(RubricError, match=r"^check: `check` must be a callable"):
        Criterion(description="x", check=42)  # type: ignore[arg-type]
    with pytest.raises(RubricError, match=r"^description: a criterion needs a non-empty"):
        Criterion(description="\n\t ")


def test_rubric_rejects_non_criteria() -> None:
    with pytest.raises(RubricError, match=r"criteria\[1\]: expected a Criterion, got str"):
        Rubric((Criterion(description="a"), "b"))  # type: ignore[arg-type]


def test_rubric_lookup_iteration_and_equality() -> None:
    rubric = Rubric.parse("- One\n- (optional) Two")
    assert rubric["two"].description == "Two"
    with pytest.raises(KeyError):
        rubric["three"]
    assert [c.id for c in rubric] == ["one", "two"]
    assert len(rubric) == 2
    assert rubric == Rubric.parse(["One", {"description": "Two", "required": False}])
    assert rubric != Rubric.parse("- One\n- Two")


# --- files --------------------------------------------------------------------------------------

_EXPECTED = [("Has a title", True), ("Cites a source", False)]

_FILES = {
    "rubric.md": "# Rubric\n\n- [ ] Has a title\n- [ ] (optional) Cites a source\n",
    "rubric.txt": "1. Has a title\n2. Cites a source (optional)\n",
    "rubric.yaml": (
        "criteria:\n  - Has a title\n  - description: Cites a source\n    required: false\n"
    ),
    "rubric.yml": "- Has a title\n- description: Cites a source\n  required: no\n",
    "rubric.json": json.dumps(
        {"criteria": ["Has a title", {"description": "Cites a source", "required": False}]}
    ),
    "RUBRIC.MD": "- Has a title\n- Cites a source (optional)\n",
}


@pytest.mark.parametrize("name", sorted(_FILES))
def test_load_each_file_type(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(_FILES[name], encoding="utf-8")
    rubric = Rubric.from_file(path)
    assert shape(rubric) == _EXPECTED
    assert rubric.source == str(path)
    assert shape(Rubric.from_file(str(path))) == _EXPECTED
    assert shape(Rubric.parse(path)) == _EXPECTED


def test_empty_yaml_file_is_an_empty_rubric(tmp_path: Path) -> None:
    path = tmp_path / "rubric.yaml"
    path.write_text("", encoding="utf-8")
    assert len(Rubric.from_file(path)) == 0


def _file_error(tmp_path: Path, name: str, content: str | bytes) -> RubricError:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(RubricError) as info:
        Rubric.from_file(path)
    assert info.value.source == str(path)
    assert str(info.value).startswith(str(path))
    return info.value


@pytest.mark.parametrize(
    ("name", "content", "line", "field", "fragment"),
    [
        ("r.md", "- One\n- Two\n\n- one\n", 4, None, "duplicate criterion 'one'"),
        ("r.txt", "- One\n- [x]\n", 2, None, "empty criterion"),
        (
            "r.yaml",
            "criteria:\n  - description: First\n  - description: Second\n    required: maybe\n",
            4,
            "criteria[1].required",
            "expected true or false, got 'maybe'",
        ),
        (
            "r.yaml",
            "criteria:\n  - First\n  - description: Second\n    colour: red\n",
            4,
            "criteria[1].colour",
            "unknown key 'colour'",
        ),
        ("r.yml", "- First\n- Second\n- id: third\n", 3, "criteria[2].description", "missing"),
        ("r.yaml", "criteria:\n  - First\n  - First\n", 3, "criteria[1]", "duplicate criterion"),
        ("r.yaml", "title: x\ncriteria: []\n", 1, "title", "unknown key 'title'"),
        ("r.yaml", "criteria:\n  - [unclosed\n", 3, None, "invalid YAML"),
        ("r.yaml", "criteria:\n  - a\n bad: indent\n", 3, None, "invalid YAML"),
        ("r.json", '{"criteria": [\n  "One",\n  oops\n]}', 3, None, "invalid JSON"),
        (
            "r.json",
            '{"criteria": [{"description": "One", "required": "true"}]}',
            None,
            "criteria[0].required",
            "expected true or false",
        ),
    ],
)
def test_file_errors_name_the_file_line_and_field(
    tmp_path: Path, name: str, content: str, line: int | None, field: str | None, fragment: str
) -> None:
    error = _file_error(tmp_path, name, content)
    assert error.line == line
    assert error.field == field
    assert fragment in str(error)
    location = str(tmp_path / name) + (f":{line}" if line is not None else "")
    assert str(error).startswith(location + ":")


def test_yaml_error_message_reads_file_line_field_reason(tmp_path: Path) -> None:
    error = _file_error(
        tmp_path, "rubric.yaml", "criteria:\n  - One\n  - description: Two\n    required: maybe\n"
    )
    assert str(error) == (
        f"{tmp_path / 'rubric.yaml'}:4: criteria[1].required: expected true or false, got 'maybe'"
    )


def test_unsupported_missing_and_undecodable_files(tmp_path: Path) -> None:
    error = _file_error(tmp_path, "rubric.toml", "criteria = []")
    assert "unsupported rubric file type '.toml'" in str(error)
    assert ".json, .md, .txt, .yaml, .yml" in str(error)
    assert "'(none)'" in str(_file_error(tmp_path, "RUBRIC", "- One"))
    assert "not valid UTF-8 at byte 2" in str(_file_error(tmp_path, "bad.md", b"- \xff\xfe"))
    missing = tmp_path / "missing.yaml"
    with pytest.raises(RubricError, match="file not found") as info:
        Rubric.from_file(missing)
    assert info.value.source == str(missing)


# --- to_text round trip -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "- One\n- (optional) Two\n- Three (optional)",
        ["3.14 is mentioned", "#hashtag", "1) no space", "- dash inside"],
        ["[ ] keeps its box", "[x] this one too", "(optional) [x] and optional"],
        ["--", "* *", "Required"],
        [{"description": "Multi\nline\tdescription"}],
    ],
)
def test_to_text_round_trips(source: Any) -> None:
    rubric = Rubric.parse(source)
    text = rubric.to_text()
    assert shape(Rubric.parse(text)) == shape(rubric)
    assert text.count("\n") == len(rubric) - 1


def test_to_text_format() -> None:
    assert Rubric.parse("1. One\n2. (optional) Two").to_text() == "- One\n- (optional) Two"


# --- properties ---------------------------------------------------------------------------------

_OPTIONAL_EDGE = re.compile(r"^\(optional\)|\(optional\)$", re.IGNORECASE)

# Descriptions that start with a letter (so no list marker, checkbox, heading or `(optional)`
# prefix) and hold no line breaks; whitespace is normalised the way the parser normalises it.
_description = st.builds(
    lambda first, rest: " ".join(f"{first}{rest}".split()),
    st.sampled_from(string.ascii_letters),
    st.text(st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp")), max_size=30),
).filter(lambda d: not _OPTIONAL_EDGE.search(d))


@settings(max_examples=150, deadline=None)
@given(st.lists(_description, min_size=1, max_size=8, unique_by=str.casefold))
def test_dash_checklist_parses_back_to_its_descriptions(items: list[str]) -> None:
    rubric = Rubric.parse("\n".join(f"- {d}" for d in items))
    assert descriptions(rubric) == items
    assert all(c.required for c in rubric)
    assert len({c.id for c in rubric}) == len(items)


_checklist_token = st.sampled_from(
    ["a", "B", " ", "\n", "\n  ", "- ", "* ", "1. ", "2)", "[ ] ", "[x]", "(optional)", "# ",
     "```", "---", "--", "3.14", "•", "\t", "~~~", "_", "=", "é", "<", "\u2028"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_checklist_token, max_size=16).map("".join) | st.text(max_size=60))
def test_parsing_arbitrary_text_raises_only_rubric_error(text: str) -> None:
    try:
        rubric = Rubric.parse(text)
    except RubricError:
        return
    assert all(c.description and c.id for c in rubric)
    assert len({c.id for c in rubric}) == len(rubric)
    if not any(_OPTIONAL_EDGE.search(c.description) for c in rubric):
        assert shape(Rubric.parse(rubric.to_text())) == shape(rubric)
