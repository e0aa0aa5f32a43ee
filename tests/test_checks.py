"""The check catalogue: every check, its counting rule, its gap and its argument errors."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rubricate import CheckUndecided, Criterion, Evidence, Judge, Rubric, RubricError, checks
from rubricate.checks._registry import describe
from rubricate.testing import ScriptedChatModel

HAS_LANGDETECT = importlib.util.find_spec("langdetect") is not None
needs_langdetect = pytest.mark.skipif(not HAS_LANGDETECT, reason="langdetect is not installed")

# Minimal valid arguments for every check, to run the whole catalogue generically.
SAMPLE_ARGS: dict[str, dict[str, Any]] = {
    "acrostic": {"word": "SPRING"},
    "all_capitals": {},
    "all_lowercase": {},
    "bullet_count": {"at_least": 1},
    "bullet_marker": {"marker": "-"},
    "markdown_count": {"exactly": 0},
    "capital_word_count": {"at_most": 2},
    "character_count": {"at_most": 100},
    "alphabetical": {},
    "blank_line_after": {"part": "subject"},
    "chronological": {},
    "bold_keywords": {"keywords": ["cat"]},
    "code_block_count": {"at_least": 1},
    "code_tagged": {},
    "contraction_count": {"exactly": 0},
    "date_format": {"format": "YYYY-MM-DD"},
    "email_count": {"at_least": 1},
    "entry_count": {"exactly": 3},
    "emoji_count": {"exactly": 0},
    "ends_with": {"phrase": "end."},
    "ends_with_punctuation": {"mark": "?"},
    "has_postscript": {},
    "has_sign_off": {},
    "has_title": {},
    "hashtag_count": {"at_most": 2},
    "hashtags_at_end": {},
    "heading_case": {"case": "title"},
    "highlight_count": {"at_least": 1},
    "keyword_count": {"keyword": "cat", "exactly": 1},
    "keywords_forbidden": {"keywords": ["dog"]},
    "keywords_present": {"keywords": ["cat"]},
    "language": {"code": "en"},
    "letter_count": {"letter": "a", "at_least": 1},
    "line_count": {"at_most": 3},
    "money_format": {},
    "measurement_units": {"system": "metric"},
    "mark_count": {"mark": "!", "exactly": 0},
    "no_commas": {},
    "nothing_but": {"kind": "list"},
    "number_count": {"at_least": 1},
    "number_style": {"style": "digits"},
    "numbered_count": {"exactly": 0},
    "one_of": {"options": ["yes", "no"]},
    "opens_with": {"kind": "question"},
    "closes_with": {"kind": "table"},
    "paragraph_count": {"exactly": 1},
    "paragraph_starts_with": {"paragraph": 2, "phrase": "The"},
    "part_count": {"separator": "***", "exactly": 2},
    "pronoun_count": {"person": "first", "exactly": 0},
    "placeholder_count": {"at_least": 1},
    "question_count": {"exactly": 2},
    "quote_count": {"at_least": 1},
    "punctuation_count": {"exactly": 0},
    "heading_count": {"at_least": 1},
    "heading_level": {"exactly": 2},
    "heading_names": {"names": ["Today"]},
    "phone_count": {"at_least": 1},
    "mention_count": {"exactly": 1},
    "valid_yaml": {},
    "json_key_count": {"exactly": 2},
    "label_case": {"case": "upper"},
    "divider_count": {"exactly": 1},
    "phone_format": {"example": "(555) 123-4567"},
    "percent_sign": {},
    "nested_item_count": {"exactly": 0},
    "section_count": {"at_least": 1},
    "sentence_count": {"at_most": 3},
    "sql_keywords": {"case": "upper"},
    "starts_with": {"phrase": "The"},
    "table_count": {"at_least": 1},
    "table_header": {"case": "title"},
    "json_keys": {"keys": ["title"]},
    "key_case": {"case": "snake"},
    "table_size": {"dimension": "rows", "at_least": 1},
    "timestamp_format": {"format": "MM:SS"},
    "time_format": {"clock": 24},
    "url_count": {"at_least": 1},
    "valid_json": {},
    "word_count": {"at_most": 10},
    "wrapped_in_quotes": {},
}

EDGE_TEXTS = [
    "",
    "   \n\t  \n",
    "The cat sat.   \n\n",
    "- one\n- two\n\n1. three",
    '```json\n{"a": 1}\n```',
    "Ünïcödé 文字 ✓ — emoji 🙂, P.S. done",
    "<<Title>>\n\n# Heading\n\n*hi* [name] end.",
]


def run(check: checks.Check, text: str) -> tuple[bool, str]:
    return check(text)


def passes(check: checks.Check, text: str) -> bool:
    return check(text)[0]


# --- the Check object -----------------------------------------------------------------------


def test_check_is_named_by_its_call_form_and_compares_by_arguments() -> None:
    check = checks.word_count(at_most=300)
    assert check.__name__ == "word_count(at_most=300)"
    assert repr(check) == "checks.word_count(at_most=300)"
    assert check == checks.create("word_count", at_most=300)
    assert check != checks.word_count(at_most=301)
    assert check.to_spec() == {"name": "word_count", "at_most": 300}
    # Defaults are left out; positional arguments are named; lists read back as lists.
    assert checks.has_postscript("P.S.") == checks.has_postscript()
    assert checks.has_postscript().__name__ == "has_postscript()"
    assert checks.letter_count("q", at_least=2).__name__ == "letter_count(letter='q', at_least=2)"
    spec = checks.keywords_present(["a", "b"]).to_spec()
    assert spec == {"name": "keywords_present", "keywords": ["a", "b"]}
    assert hash(checks.keywords_present(["a", "b"])) == hash(checks.keywords_present(("a", "b")))


def test_check_takes_evidence_or_a_string() -> None:
    check = checks.word_count(at_most=2)
    assert check(Evidence(output="one two three", task="ignored words here")) == (
        False,
        "has 3 words, needs at most 2",
    )
    assert check("one two") == (True, "has 2 words, needs at most 2")


def test_catalogue_is_sorted_and_every_check_is_documented() -> None:
    names = list(checks.CATALOGUE)
    assert names == sorted(names)
    assert set(names) == set(SAMPLE_ARGS)
    docs = (Path(__file__).parents[1] / "docs" / "checks.md").read_text(encoding="utf-8")
    for name in names:
        info = describe(name)
        assert info.summary, name
        assert all(p.doc for p in info.params), name
        assert f"| `{name}` |" in docs, f"{name} is missing from docs/checks.md"
        assert "Example:" in (inspect.getdoc(info.factory) or ""), name
        assert checks.CATALOGUE[name] is getattr(checks, name)


@pytest.mark.parametrize("name", sorted(SAMPLE_ARGS))
@pytest.mark.parametrize("text", EDGE_TEXTS)
def test_every_check_answers_edge_texts_with_a_bool_and_a_finding(name: str, text: str) -> None:
    if name == "language" and not HAS_LANGDETECT:
        pytest.skip("langdetect is not installed")
    check = checks.create(name, **SAMPLE_ARGS[name])
    passed, finding = _answer(check, text)
    assert isinstance(passed, bool)
    assert isinstance(finding, str) and finding.strip()
    assert _answer(check, text) == (passed, finding)  # deterministic


def _answer(check: checks.Check, text: str) -> tuple[bool, str]:
    """The check's verdict and finding, or `CheckUndecided` with its reason.

    `CheckUndecided` is the one exception a check raises by design: it leaves the text to the
    judge ("SQL keywords in uppercase" of a text with no SQL), and it must say why.
    """
    try:
        return check(text)
    except CheckUndecided as undecided:
        assert str(undecided).strip()
        return False, f"undecided: {undecided}"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_no_check_raises_on_arbitrary_text(text: str) -> None:
    for name, args in SAMPLE_ARGS.items():
        if name == "language":
            continue
        passed, finding = _answer(checks.create(name, **args), text)
        assert isinstance(passed, bool) and finding


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text("ab \n-.,!", min_size=1, max_size=8), max_size=30).map(" ".join))
def test_word_count_agrees_with_its_rule(text: str) -> None:
    expected = sum(1 for token in text.split() if any(c.isalnum() for c in token))
    assert checks.word_count(exactly=expected)(text)[0]
    assert not checks.word_count(exactly=expected + 1)(text)[0]


async def test_a_catalogue_check_decides_a_criterion_without_any_model_call() -> None:
    model = ScriptedChatModel(script=[])
    rubric = [
        Criterion(description="At most 3 words", check=checks.word_count(at_most=3)),
        Criterion(description="No commas", check=checks.no_commas()),
    ]
    evaluation = await Judge(model).aevaluate(rubric, output="Hello, big wide world")
    assert model.calls == []
    assert evaluation.result == "needs_revision"
    first, second = evaluation.criteria
    assert first.decided_by == "check"
    assert first.gap == "has 4 words, needs at most 3"
    assert second.gap == "has 1 comma, first in 'Hello,'"
    assert evaluation.criteria[0].to_dict()["decided_by"] == "check"


# --- bounds ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bounds", "count", "passed", "needs"),
    [
        ({"at_least": 3}, 3, True, "at least 3"),
        ({"at_least": 3}, 2, False, "at least 3"),
        ({"at_most": 3}, 3, True, "at most 3"),
        ({"at_most": 3}, 4, False, "at most 3"),
        ({"exactly": 3}, 3, True, "exactly 3"),
        ({"exactly": 3}, 2, False, "exactly 3"),
        ({"fewer_than": 3}, 2, True, "fewer than 3"),
        ({"fewer_than": 3}, 3, False, "fewer than 3"),
        ({"less_than": 3}, 3, False, "less than 3"),
        ({"more_than": 3}, 4, True, "more than 3"),
        ({"more_than": 3}, 3, False, "more than 3"),
        ({"at_least": 2, "at_most": 4}, 4, True, "at least 2 and at most 4"),
        ({"at_least": 2, "at_most": 4}, 5, False, "at least 2 and at most 4"),
        ({"more_than": 1, "fewer_than": 3}, 2, True, "more than 1 and fewer than 3"),
        ({"exactly": 0}, 0, True, "exactly 0"),
    ],
)
def test_relations(bounds: dict[str, int], count: int, passed: bool, needs: str) -> None:
    text = " ".join(["w"] * count)
    noun = "word" if count == 1 else "words"
    assert checks.word_count(**bounds)(text) == (passed, f"has {count} {noun}, needs {needs}")


@pytest.mark.parametrize(
    ("bounds", "field", "fragment"),
    [
        ({}, None, "word_count needs a bound: one of at_least, at_most, exactly"),
        ({"at_most": -1}, "at_most", "must be >= 0, got -1"),
        ({"at_most": "300"}, "at_most", "expected an integer, got '300'"),
        ({"at_most": True}, "at_most", "expected an integer, got True"),
        ({"at_most": 2.5}, "at_most", "expected an integer, got 2.5"),
        ({"exactly": 2, "at_most": 3}, "at_most", "`exactly` cannot be combined with `at_most`"),
        ({"at_least": 1, "more_than": 2}, "more_than", "both bounds on the same side"),
        ({"fewer_than": 3, "less_than": 4}, "less_than", "both bounds on the same side"),
        ({"at_least": 5, "at_most": 2}, "at_most", "no count satisfies these bounds"),
        ({"more_than": 2, "fewer_than": 3}, "fewer_than", "no count satisfies"),
        ({"at_mots": 3}, "at_mots", "has no argument 'at_mots' (did you mean 'at_most'?)"),
    ],
)
def test_bad_bounds_name_the_argument(
    bounds: dict[str, Any], field: str | None, fragment: str
) -> None:
    with pytest.raises(RubricError) as info:
        checks.word_count(**bounds)
    assert info.value.field == field
    assert fragment in str(info.value)
    assert "word_count" in str(info.value)


def test_argument_binding_errors() -> None:
    letter_count: Any = checks.letter_count  # called wrongly on purpose
    with pytest.raises(RubricError, match=r"takes 1 positional argument\(s\) \(letter\), got 2"):
        letter_count("a", "b", at_least=1)
    with pytest.raises(RubricError, match="`letter` is given twice") as twice:
        letter_count("a", letter="b", at_least=1)
    assert twice.value.field == "letter"
    with pytest.raises(RubricError, match="letter_count needs the argument `letter`") as missing:
        checks.create("letter_count", at_least=1)
    assert missing.value.field == "letter"
    with pytest.raises(
        RubricError, match="unknown check 'nope'; known checks: acrostic, all_capitals"
    ):
        checks.create("nope")
    with pytest.raises(RubricError, match="expected true or false, got 'yes'"):
        checks.create("valid_json", allow_fence="yes")
    with pytest.raises(RubricError, match=r"expected a list of strings, got 5"):
        checks.create("keywords_present", keywords=5)


# --- words ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("", 0),
        ("   \n\t  ", 0),
        ("one", 1),
        ("one two   three\n\nfour  \n", 4),
        ("don't stop", 2),
        ("a well-known fact", 3),
        ("pi is 3.14", 3),
        ("- item one\n- item two", 4),
        ("**bold** and _italic_", 3),
        ("— - * # & ...", 0),
        ("Grüße aus Köln", 3),
        ("你好 世界", 2),
        ("Visit https://example.com now", 3),
        ("trailing whitespace   \n\n\t", 2),
    ],
)
def test_word_count_rule(text: str, count: int) -> None:
    assert checks.word_count(exactly=count)(text)[0], checks.word_count(exactly=count)(text)


def test_word_count_gap_says_what_was_found() -> None:
    assert run(checks.word_count(at_least=2), "one") == (False, "has 1 word, needs at least 2")
    assert run(checks.word_count(at_most=2), "") == (True, "has 0 words, needs at most 2")


# --- sentences ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("", 0),
        ("   ", 0),
        ("One sentence", 1),
        ("One. Two! Three? ", 3),
        ("Wait... what?! Really.", 3),
        ('He said "Hi!" Then left.', 2),
        ("Dr. Smith met Mrs. Jones, e.g. at noon. They talked.", 2),
        ("J. R. R. Tolkien wrote it.", 1),
        ("Pi is 3.14 and e is 2.72.", 1),
        ("A line\nwrapped inside a paragraph.", 1),
        ("First paragraph\n\nSecond paragraph", 2),
        # Headings, a bold title and code hold no sentence.
        ("# Heading\nBody text.", 1),
        ("**Senior Engineer (Remote)**\n\nJoin a team of twelve.", 1),
        ("```bash\nwc -l *.py\n```\nThe last line is the total.", 1),
        ("- item one\n- item two.", 2),
        ("1. First. Second.\n2. Third", 3),
        ("- [ ] Task. Done", 2),
        ("这是第一句。这是第二句！", 2),
        ("Ends with space.   \n\n  ", 1),
        ("... . !", 0),
    ],
)
def test_sentence_count_rule(text: str, count: int) -> None:
    result = checks.sentence_count(exactly=count)(text)
    assert result[0], result


# --- paragraphs -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("", 0),
        ("\n\n  \n", 0),
        ("One paragraph\nstill the same one.", 1),
        ("One.\n\nTwo.\n\n\n\nThree.", 3),
        ("One.\n   \t\nTwo.", 2),
        ("One.\r\n\r\nTwo.", 2),
        ("One.\n***\nTwo.\n* * *\nThree.", 3),
        ("One.\n\n---\n\nTwo.", 2),
        ("One.\n\n...\n\nTwo.", 2),
        ("Code:\n```\na = 1\n\nb = 2\n```\nafter", 1),
        ("# Title\nText under it.", 1),
        ("Trailing.\n\n   \n", 1),
    ],
)
def test_paragraph_count_rule(text: str, count: int) -> None:
    result = checks.paragraph_count(exactly=count)(text)
    assert result[0], result


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("One.\n\nStill one.\n***\nTwo.", 2),
        ("One.\n  ***  \nTwo.\n***\n\nThree.", 3),
        ("One.\n---\nstill one.", 1),
        ("Code:\n```\n***\n```\nafter", 1),
        ("***\nOne.\n***", 1),
        ("", 0),
    ],
)
def test_paragraph_count_with_a_separator(text: str, count: int) -> None:
    result = checks.paragraph_count(separator="***", exactly=count)(text)
    assert result[0], result


def test_paragraph_count_rejects_a_blank_separator() -> None:
    with pytest.raises(RubricError, match="separator") as caught:
        checks.paragraph_count(separator="  ", exactly=2)
    assert caught.value.field == "separator"


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("", 0),
        ("One answer.", 1),
        ("First.\n******\nSecond.", 2),
        ("First. ****** Second.", 2),  # anywhere in a line
        ("******\nFirst.\n******\nSecond.\n******  \n", 2),  # empty ends are no parts
        ("First.\n******\n \n******\nSecond.", 2),  # nor is an empty middle
        ("Première. ****** Deuxième 🙂 ****** 第三", 3),
        ("- a\n- b\n******\n1. c", 2),
        ("*** not the separator ***", 1),
    ],
)
def test_part_count_rule(text: str, count: int) -> None:
    result = checks.part_count("******", exactly=count)(text)
    assert result[0], result


def test_part_count_finding_and_distinct_parts() -> None:
    two = checks.part_count("******", exactly=2, distinct=True)
    assert two("A.\n******\nB.") == (True, "has 2 parts split at '******', needs exactly 2")
    assert two("A.") == (False, "has 1 part split at '******', needs exactly 2")
    assert two("Same  answer.\n******\nSame answer.") == (False, "parts 1 and 2 are the same")
    assert checks.part_count("******", exactly=2)("A.\n******\nA.")[0]


def test_part_count_rejects_a_blank_separator() -> None:
    with pytest.raises(RubricError, match="separator") as caught:
        checks.part_count(" ", exactly=2)
    assert caught.value.field == "separator"


@pytest.mark.parametrize(
    ("text", "passed", "finding"),
    [
        ("Intro.\n\nHowever, no.", True, "paragraph 2 starts with 'However'"),
        ("Intro.\n\n**however** no.", True, "paragraph 2 starts with 'However'"),
        ('Intro.\n\n> "However" no.', True, "paragraph 2 starts with 'However'"),
        ("Intro.\n***\nHowever  it is.", True, "paragraph 2 starts with 'However'"),
        ("Intro.\n\nHowevers", False, "paragraph 2 starts with 'Howevers', needs 'However'"),
        ("Intro.\n\nBut however", False, "paragraph 2 starts with 'But however', needs 'However'"),
        ("However, one paragraph.", False, "has 1 paragraph, so no paragraph 2"),
        ("", False, "has 0 paragraphs, so no paragraph 2"),
        (
            "Intro.\n\nPor último, é isso.",
            False,
            "paragraph 2 starts with 'Por último, é isso.', needs 'However'",
        ),
    ],
)
def test_paragraph_starts_with(text: str, passed: bool, finding: str) -> None:
    assert checks.paragraph_starts_with(2, "However")(text) == (passed, finding)


def test_paragraph_starts_with_numbers_paragraphs_from_one() -> None:
    assert checks.paragraph_starts_with(1, "Über")("über alles.\n\nZwei.")[0]
    assert not checks.paragraph_starts_with(1, "Über", case_sensitive=True)("über alles.")[0]
    with pytest.raises(RubricError, match="count from 1, got 0") as caught:
        checks.paragraph_starts_with(0, "Hi")
    assert caught.value.field == "paragraph"


# --- combined checks --------------------------------------------------------------------------


def test_all_of_passes_only_when_every_part_passes() -> None:
    german_caps = checks.all_of(checks.language("de"), checks.all_capitals())
    assert german_caps.name == "all_of"
    assert german_caps.__name__ == "language(code='de') and all_capitals()"
    assert repr(german_caps) == "checks.all_of(checks.language(code='de'), checks.all_capitals())"
    short = checks.all_of(checks.word_count(at_most=3), checks.no_commas())
    assert short("one two") == (True, "has 2 words, needs at most 3; has no commas")
    # Only the parts that failed are reported.
    assert short("one, two three four") == (
        False,
        "has 4 words, needs at most 3; has 1 comma, first in 'one,'",
    )
    assert short("one two three four") == (False, "has 4 words, needs at most 3")


def test_all_of_flattens_and_validates() -> None:
    a, b, c = checks.no_commas(), checks.all_capitals(), checks.word_count(at_most=3)
    assert checks.all_of(checks.all_of(a, b), c) == checks.all_of(a, b, c)
    assert checks.all_of(a) == a
    assert checks.all_of(a, b) != checks.all_of(b, a)
    with pytest.raises(RubricError, match="at least one check"):
        checks.all_of()
    with pytest.raises(RubricError, match="got function"):
        checks.all_of(a, lambda evidence: True)  # type: ignore[arg-type]
    assert checks.from_spec([{"name": "no_commas"}, "all_capitals"]) == checks.all_of(a, b)
    with pytest.raises(RubricError, match="empty list"):
        checks.from_spec([])


# --- bullets --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count", "numbered_count"),
    [
        ("", 0, 0),
        ("- a\n* b\n+ c\n• d", 4, 4),
        ("- a\n  - nested\n    * deeper", 3, 3),
        ("1. one\n2) two\n- three", 1, 3),
        ("* * *\n---\n- - -", 0, 0),
        ("**bold** start\n*emphasis* here\n-1 is negative", 0, 0),
        ("- \n-   \n- —", 0, 0),
        ("```\n- not a bullet\n```\n- a bullet", 1, 1),
        ("text - with a dash\n  - indented item  \n", 1, 1),
    ],
)
def test_bullet_count_rule(text: str, count: int, numbered_count: int) -> None:
    assert checks.bullet_count(exactly=count)(text)[0], checks.bullet_count(exactly=count)(text)
    assert checks.bullet_count(numbered=True, exactly=numbered_count)(text)[0]


@pytest.mark.parametrize(
    ("marker", "text", "passed"),
    [
        ("•", "• a\n• b\n  • nested", True),
        ("•", "• a\n- b", False),
        ("-", "Intro - with a dash\n- a\n- b\n1. numbered items are no bullets", True),
        ("-", "```\n* not a bullet\n```\n- a", True),
        ("-", "No list at all.", False),  # the rule presumes bullet points
        (None, "- a\n- b", True),
        (None, "- a\n* b", False),
        (None, "No list at all.", True),
    ],
)
def test_bullet_marker(marker: str | None, text: str, passed: bool) -> None:
    assert checks.bullet_marker(marker)(text)[0] is passed


def test_bullet_marker_says_which_marks_it_found() -> None:
    assert checks.bullet_marker("•")("- a\n* b\n• c") == (
        False,
        "marks bullet points with hyphens and asterisks, needs bullet dots (•)",
    )
    with pytest.raises(RubricError, match="marker"):
        checks.bullet_marker(">")


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("Plain words, one *, and snake_case_names; 5*3 = 15.", True),
        ("• dots are plain text too\n• so is this", True),
        ("Hello **there**", False),
        ("a _quiet_ word", False),
        ("# Title\n\nBody.", False),
        ("Run `make test`.", False),
        ("See [the docs](https://example.com).", False),
        ("> quoted\n\nreply", False),
        ("a\n\n---\n\nb", False),
        ("```json\n{}\n```", False),
        ("| a | b |\n|---|---|\n| 1 | 2 |", False),
        ("* starred\n* items", False),
        ("- a dash list\n- **and bold**", False),  # decided by the bold whatever the list is
    ],
)
def test_markdown_count_no_markdown(text: str, passed: bool) -> None:
    assert checks.markdown_count(exactly=0)(text)[0] is passed


@pytest.mark.parametrize("text", ["- a dash list\n- of plain lines", "1. numbered\n2. lines"])
def test_markdown_count_leaves_a_plain_list_to_the_judge(text: str) -> None:
    """A '-' or numbered list is Markdown and plain text alike: the verdict must not hang on it."""
    with pytest.raises(CheckUndecided, match="plain text uses too"):
        checks.markdown_count(exactly=0)(text)
    assert checks.markdown_count(at_most=5)(text)[0] is True  # it does not hang on them here


def test_markdown_count_names_the_first_mark() -> None:
    assert checks.markdown_count(exactly=0)("## Plan\n\nShip **today**.") == (
        False,
        "has 2 Markdown marks, needs exactly 0 (first: '## Plan')",
    )


def test_no_bullets_gap() -> None:
    assert run(checks.bullet_count(exactly=0), "- a\n- b") == (
        False,
        "has 2 bullet points, needs exactly 0",
    )
    assert run(checks.bullet_count(numbered=True, at_least=3), "1. a") == (
        False,
        "has 1 list item, needs at least 3",
    )


# --- sections -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("# Plan\n\n## Costs\nLow.\n\n**Risks**\nFew.", 3),  # Markdown, and a bold line
        ("What went well\n- short standups\n\nWhat did not\n- late QA", 2),  # labels
        ("Spring Menu\n\nSoup, bread and a salad for everyone.", 1),  # the title
        ("1. Getting started\n2. Inviting your team\n3. Exporting data", 3),  # an outline
        ("1. Open the lid.\n2. Pour the water in.", 0),  # steps, not titles
        ("Snow on the road\nthe lake is still\n\nno birds\nonly wind", 0),  # a poem
        ("Hi Sam,\n\nThe launch moved to May.\n\nBest regards\n\nAna", 0),  # a letter
        ("```\n# a comment\n```", 0),
    ],
)
def test_heading_count_counts_what_a_reader_takes_for_headings(text: str, count: int) -> None:
    assert checks.heading_count(exactly=count)(text)[0], (
        text,
        checks.heading_count(exactly=0)(text),
    )


_STANDUP = (
    "# Standup\n\n**Yesterday**\n- fixed the bug\n\n## Today (Tue)\n- review\n\nBlockers:\n- none"
)


@pytest.mark.parametrize(
    ("check", "text", "passed", "finding"),
    [
        (
            checks.heading_names(["Yesterday", "Today", "Blockers"], exact=True, ordered=True),
            _STANDUP,
            True,
            "has the headings Yesterday, Today, Blockers",
        ),
        (
            checks.heading_names(["Today", "Yesterday"], ordered=True),
            _STANDUP,
            False,
            "has the headings Standup | Yesterday | Today (Tue) | Blockers, "
            "needs them in the order Today, Yesterday",
        ),
        (
            checks.heading_names(["Yesterday", "Today"], exact=True),
            "**Yesterday:** shipped\n**Today:** tests\n\n## Risks\nNone.",
            False,
            "has the heading 'Risks', needs only Yesterday, Today",
        ),
        # a line label that names nothing asked may be prose
        (
            checks.heading_names(["Yesterday", "Today"], exact=True),
            "**Yesterday:** shipped\n**Today:** tests\nNote: the office is closed",
            True,
            "has the headings Yesterday, Today",
        ),
        (
            checks.heading_names(["Pros"]),
            "It runs at 10:30.",
            False,
            "has no heading 'Pros' (its headings: It runs at 10)",
        ),
    ],
)
def test_heading_names_finds_headings_and_line_labels(
    check: checks.Check, text: str, passed: bool, finding: str
) -> None:
    assert run(check, text) == (passed, finding)


@pytest.mark.parametrize(
    ("text", "nested"),
    [
        ("- a\n- b\n  - b1\n  - b2\n- c", 2),
        ("1. Set up hosting\n   a. Compare hosts\n   b. Connect feeds\n2. Publish", 2),
        ("- a\n\tb\n- c", 0),  # an indented line of prose continues its item
        ("Intro:\n  - first\n  - second", 0),  # a whole list indented is not nested
        ("- a\n\nSome prose.\n\n  - b", 0),  # prose ends the list
    ],
)
def test_nested_item_count_counts_items_under_an_item(text: str, nested: int) -> None:
    assert checks.nested_item_count(exactly=nested)(text)[0], checks.nested_item_count(exactly=0)(
        text
    )


def test_heading_count_by_level_counts_markdown_headings_of_that_level() -> None:
    text = "# Plan\n\n## Costs\nLow.\n\n**Risks**\nFew.\n\n## Dates\n\n### May\n\n```\n## code\n```"
    assert run(checks.heading_count(level=1, exactly=1), text) == (
        True,
        "has 1 H1 heading, needs exactly 1",
    )
    # the bold line is a heading a reader sees, but it has no level
    assert run(checks.heading_count(level=2, at_most=1), text) == (
        False,
        "has 2 H2 headings, needs at most 1 (first: '## Costs')",
    )
    assert run(checks.heading_count(level=4, exactly=0), text)[0]
    assert not run(checks.heading_count(level=3, exactly=0), text)[0]


def test_heading_level_judges_every_markdown_heading_and_may_leave_out_the_title() -> None:
    report = "# Outage report\n\n## Summary\nDown 2h.\n\n**Impact**\nAll users.\n\n## Fix\nDone."
    # a bold line has no level; the H1 title is a heading at level 1
    assert run(checks.heading_level(exactly=2), report) == (
        False,
        "has an H1 heading '# Outage report', needs exactly 2",
    )
    assert run(checks.heading_level(exactly=2, skip_title=True), report) == (
        True,
        "its 2 Markdown headings are at level exactly 2",
    )
    # a first heading at the wanted level is a section, not a title to leave out
    assert run(checks.heading_level(exactly=3, skip_title=True), "### Steps\n1. Open it")[0]
    assert not run(checks.heading_level(exactly=2, skip_title=True), "## A\nx\n### B\ny")[0]
    # "use only H2 headings" needs one; "no H3 or deeper" does not
    assert run(checks.heading_level(exactly=2), "No headings here.") == (
        False,
        "has no Markdown heading, needs headings at level exactly 2",
    )
    assert run(checks.heading_level(at_most=2, required=False), "No headings here.")[0]
    assert not run(checks.heading_level(at_most=2, required=False), "## A\n#### Deep")[0]


@pytest.mark.parametrize("level", [0, 7, -1])
def test_heading_count_rejects_a_level_markdown_does_not_have(level: int) -> None:
    with pytest.raises(RubricError, match="1 to 6"):
        checks.heading_count(level=level, exactly=0)


_WORKOUTS = "| Day | Workout | Duration (min) |\n|---|---|---|\n| Mon | Run | 30 |\n"


@pytest.mark.parametrize(
    ("check", "passed", "finding"),
    [
        (
            checks.table_header(columns=["day", "Workout", "Duration"], exact=True),
            True,
            "has the columns day, Workout, Duration",
        ),
        (
            checks.table_header(columns=["Workout", "Day"], ordered=True),
            False,
            "has the columns Day | Workout | Duration (min), needs them in the order Workout, Day",
        ),
        (
            checks.table_header(columns=["Day", "Notes"]),
            False,
            "has no column 'Notes' (its header: Day | Workout | Duration (min))",
        ),
        (
            checks.table_header(columns=["Day"], exact=True),
            False,
            "has the columns Day | Workout | Duration (min), needs only Day",
        ),
        # a unit in brackets is no word of the header's case
        (checks.table_header(case="title"), True, "has every header cell in title case"),
        (checks.table_header(case="lower"), False, "has the header cell 'Day', not in lower case"),
    ],
)
def test_table_header_names_columns_and_their_case(
    check: checks.Check, passed: bool, finding: str
) -> None:
    assert run(check, _WORKOUTS) == (passed, finding)


def test_entry_count_finds_a_list_by_the_last_word_of_its_noun() -> None:
    plan = "**Objectives**\n- one\n- two\n- three\n\n**Schedule**\n1. a\n2. b\n3. c\n4. d"
    assert checks.entry_count(noun="learning objectives", exactly=3)(plan)[0]
    # with no label naming it, every list's entries count
    assert checks.entry_count(noun="agenda points", exactly=7)(plan)[0]


def test_table_header_reads_comma_separated_data_after_a_line_of_prose() -> None:
    text = "Here's the CSV you asked for:\n\nsku,name,price\nA-100,Desk Lamp,39.99\nA-101,Arm,89.00"
    assert run(checks.table_header(case="lower"), text) == (
        True,
        "has every header cell in lower case",
    )
    assert run(checks.table_size(dimension="rows", exactly=2), text) == (
        True,
        "has 2 rows, needs exactly 2",
    )


def test_table_header_fails_a_text_without_a_table_and_asks_for_something() -> None:
    assert run(checks.table_header(case="title"), "Day: Mon") == (
        False,
        "has no table, needs a header row",
    )
    with pytest.raises(RubricError, match="give `columns`, `case` or both"):
        checks.table_header()
    with pytest.raises(RubricError, match="need `columns`"):
        checks.table_header(exact=True, case="title")


def test_section_count_by_markdown_headings() -> None:
    text = "Intro text.\n# One\nbody\n## Two\n###### Three\n#hashtag\n####### seven\n#\n"
    assert run(checks.section_count(exactly=3), text) == (
        True,
        "has 3 sections headed by a Markdown heading, needs exactly 3",
    )
    assert checks.section_count(exactly=0)("```\n# comment in code\n```")[0]


@pytest.mark.parametrize(
    "marker", ["SECTION", "SECTION X", "SECTION N", "SECTION <n>", "SECTION #"]
)
def test_section_marker_may_carry_a_number_placeholder(marker: str) -> None:
    check = checks.section_count(marker=marker, exactly=2)
    assert check("SECTION 1\nIntro.\nSECTION 2\nMore.") == (
        True,
        "has 2 sections marked SECTION <n>, needs exactly 2",
    )


def test_section_count_by_marker() -> None:
    text = "SECTION 1\nfoo\n**SECTION 2**\nbar\nSection 3\nSECTIONS 4\nSECTION five"
    assert run(checks.section_count(marker="SECTION", exactly=2), text) == (
        True,
        "has 2 sections marked SECTION <n>, needs exactly 2",
    )
    assert checks.section_count(marker="Section", exactly=1)(text)[0]
    with pytest.raises(RubricError, match="`marker` must not be blank"):
        checks.section_count(marker="  ", exactly=1)


# --- letters, keywords, capitals, placeholders, highlights ----------------------------------


def test_letter_count_is_case_insensitive() -> None:
    assert run(checks.letter_count("q", at_least=3), "Quick quiz") == (
        False,
        "has the letter 'q' 2 times, needs at least 3",
    )
    assert checks.letter_count("Q", exactly=2)("Quick quiz")[0]
    assert checks.letter_count("é", exactly=2)("Été")[0]
    assert run(checks.letter_count("z", exactly=1), "zoo") == (
        True,
        "has the letter 'z' 1 time, needs exactly 1",
    )
    for bad in ("", "ab", "1", " "):
        with pytest.raises(RubricError, match="must be a single letter") as info:
            checks.letter_count(bad, at_least=1)
        assert info.value.field == "letter"


def test_keyword_count_matches_whole_words_case_insensitively() -> None:
    # "cats" is the keyword in the plural; "category" and "bobcat" are other words
    text = "Cat, cat! CAT. category cats bobcat"
    assert run(checks.keyword_count("cat", at_least=5), text) == (
        False,
        "has 'cat' 4 times, needs at least 5",
    )
    assert checks.keywords_present(["riddle", "box"])("Two riddles in the boxes.")[0]
    assert not checks.keywords_forbidden(["delve"])("She delves into it.")[0]
    assert not checks.keyword_count("war", at_least=1)("warm software toward")[0]
    assert not checks.one_of(["yes", "no"])("yess")[0]  # a fixed answer is matched exactly
    assert checks.keyword_count("machine   learning", exactly=2)(
        "Machine learning and machine\nlearning; machinelearning"
    )[0]
    assert checks.keyword_count("C++", exactly=1)("I like C++ a lot")[0]
    with pytest.raises(RubricError, match="`keyword` must not be blank"):
        checks.keyword_count("  ", at_least=1)


def test_capital_word_count() -> None:
    text = "NASA and the ESA, I think. HELLO, World! AI-ready 123"
    assert run(checks.capital_word_count(exactly=4), text) == (
        True,
        "has 4 words in all capitals, needs exactly 4",
    )
    assert checks.capital_word_count(exactly=1)("ÉTÉ été")[0]


def test_placeholder_count() -> None:
    text = "Dear [name], at [address]. See [the docs](http://x) and [ ] or []. [a [b] c]"
    assert run(checks.placeholder_count(at_least=4), text) == (
        False,
        "has 3 placeholders like [name], needs at least 4",
    )
    assert checks.placeholder_count(exactly=0)("")[0]


def test_highlight_count() -> None:
    text = "*one* and **two** and * not * and 2*3*4\n* bullet\n***bold-italic*** **a*"
    assert run(checks.highlight_count(exactly=2), text) == (
        True,
        "has 2 highlighted spans like *this*, needs exactly 2",
    )
    assert run(checks.highlight_count(style="bold", exactly=0), text) == (
        False,
        "has 1 bold span like **this**, needs exactly 0",
    )
    assert checks.highlight_count(style="italic", exactly=1)(text)[0]
    assert checks.highlight_count(style="bold", exactly=0)("- *Note*: plain text")[0]
    with pytest.raises(RubricError, match="`style` must be 'any', 'bold' or 'italic'") as bad:
        checks.highlight_count(style="underline", exactly=0)
    assert bad.value.field == "style"


def test_bold_keywords() -> None:
    check = checks.bold_keywords(["deadline", "total cost"])
    assert run(check, "The **Deadline** is Friday; the **total  cost** is $40.") == (
        True,
        "has 'deadline' and 'total cost' in bold",
    )
    assert run(check, "The **deadline** is Friday; the total cost is $40.") == (
        False,
        "has 'total cost' not in bold",
    )
    assert run(check, "Friday, *deadline*.") == (
        False,
        "has 'deadline' not in bold and no 'total cost' at all",
    )


# --- keywords present / forbidden -----------------------------------------------------------


def test_keywords_present() -> None:
    check = checks.keywords_present(["privacy", "data retention", "GDPR"])
    assert run(check, "Our privacy policy covers DATA\nretention.") == (
        False,
        "is missing 'GDPR'",
    )
    assert run(check, "privacy, data retention, gdpr") == (
        True,
        "has 'privacy', 'data retention' and 'GDPR'",
    )
    assert not checks.keywords_present("cat")("category")[0]
    assert checks.keywords_present("cat").to_spec() == {
        "name": "keywords_present",
        "keywords": ["cat"],
    }


def test_keywords_forbidden() -> None:
    check = checks.keywords_forbidden(["delve", "tapestry"])
    assert run(check, "Let us DELVE into this delve-ing tapestry.") == (
        False,
        "has the forbidden 'delve' 2 times, 'tapestry' once",
    )
    assert run(check, "") == (True, "has none of 'delve' or 'tapestry'")


@pytest.mark.parametrize("name", ["keywords_present", "keywords_forbidden"])
def test_keyword_lists_must_hold_non_blank_strings(name: str) -> None:
    with pytest.raises(RubricError, match="`keywords` must not be empty"):
        checks.create(name, keywords=[])
    with pytest.raises(RubricError, match="`keywords` holds a blank entry") as info:
        checks.create(name, keywords=["a", " "])
    assert info.value.field == "keywords[1]"
    with pytest.raises(RubricError, match="expected a string, got True") as info:
        checks.create(name, keywords=["a", True])
    assert info.value.field == "keywords[1]"
    assert "quote yes, no" in str(info.value)


# --- case and commas ------------------------------------------------------------------------


def test_all_lowercase() -> None:
    assert run(checks.all_lowercase(), "all good here. ß ç 123 中文") == (
        True,
        "has no capital letters",
    )
    assert run(checks.all_lowercase(), "nearly all good, Except This") == (
        False,
        "has 2 capital letters, first in 'Except'",
    )
    assert not checks.all_lowercase()("ünïcode Ärger")[0]
    assert checks.all_lowercase()("")[0]


def test_all_capitals() -> None:
    assert run(checks.all_capitals(), "ALL GOOD, 123! ÄÖÜ 中文") == (
        True,
        "has no lowercase letters",
    )
    assert run(checks.all_capitals(), "ALMOST all") == (
        False,
        "has 3 lowercase letters, first in 'all'",
    )
    assert not checks.all_capitals()("STRASSE ß")[0]


def test_no_commas() -> None:
    assert run(checks.no_commas(), "No commas here.\n") == (True, "has no commas")
    assert run(checks.no_commas(), "One, two, three") == (
        False,
        "has 2 commas, first in 'One,'",
    )
    for comma in ("，", "、", "،"):
        assert not checks.no_commas()(f"a{comma}b")[0]


# --- starts / ends / one of -----------------------------------------------------------------


def test_starts_with() -> None:
    check = checks.starts_with("Dear hiring manager")
    assert check("  \n dear   HIRING\nmanager, hello")[0]
    assert run(check, "Hello there, dear hiring manager") == (
        False,
        "starts with 'Hello there, dear hiring manager', needs to start with 'Dear hiring manager'",
    )
    assert not checks.starts_with("Dear", case_sensitive=True)("dear all")[0]
    assert not check("")[0]
    with pytest.raises(RubricError, match="`phrase` must not be blank"):
        checks.starts_with(" ")


def test_a_phrase_ending_in_a_mark_may_be_followed_by_a_closing_quote() -> None:
    ends = checks.ends_with("Can I get my money back?")
    assert ends('I wondered, "Can I get my money back?"')[0]
    assert ends("(Can I get my money back?)")[0]
    assert not ends("Can I get my money back? Yes.")[0]


def test_ends_with_ignores_trailing_whitespace() -> None:
    check = checks.ends_with("Is there anything else I can help with?")
    assert check("Sure.\nIs there anything else I can help with?  \n\n")[0]
    assert check("is there anything   else i can help with?")[0]
    assert run(check, "Is there anything else I can help with? Bye.") == (
        False,
        "ends with 'Is there anything else I can help with? Bye.', "
        "needs to end with 'Is there anything else I can help with?'",
    )
    found, gap = check("Thanks for asking. " * 5 + "Bye.")
    assert not found
    assert gap.startswith(
        "ends with '…anks for asking. Thanks for asking. Thanks for asking. Bye.'"
    )
    assert gap.endswith("needs to end with 'Is there anything else I can help with?'")
    assert run(checks.ends_with("x"), "") == (False, "ends with '', needs to end with 'x'")


def test_one_of() -> None:
    check = checks.one_of(["My answer is yes.", "My answer is no."])
    assert run(check, "  my answer is YES.\n") == (True, "is the answer 'my answer is YES.'")
    assert run(check, "My answer is yes. Because...") == (
        False,
        "is 'My answer is yes. Because...', needs to be one of "
        "'My answer is yes.' or 'My answer is no.'",
    )
    contains = checks.one_of(["yes", "no"], contains=True)
    assert run(contains, "I think yes, mostly") == (True, "contains the answer 'yes'")
    assert not contains("I don't know")[0]  # "no" is not a whole word of "know"
    with pytest.raises(RubricError, match="`options` must not be empty"):
        checks.one_of([])


# --- format ---------------------------------------------------------------------------------


def test_wrapped_in_quotes() -> None:
    check = checks.wrapped_in_quotes()
    assert check('  "Hello, world."  \n')[0]
    assert check("“Curly quotes”")[0]
    assert not check('"')[0]
    assert run(check, "") == (False, "is empty, needs to be wrapped in double quotes")
    assert run(check, "'single'") == (
        False,
        'starts with "\'" and ends with "\'", needs to be wrapped in double quotes',
    )


@pytest.mark.parametrize(
    ("text", "passed", "finding"),
    [
        ('{"a": [1, 2], "b": "é"}', True, "is valid JSON (an object)"),
        ("  \n[1, 2]\n  ", True, "is valid JSON (an array)"),
        ('```json\n{"a": 1}\n```', True, "is valid JSON (an object, fenced)"),
        ('```JSON\n{"a": 1}\n```\n\n', True, "is valid JSON (an object, fenced)"),
        ('```\n{"a": 1}```', True, "is valid JSON (an object, fenced)"),
        ("42", True, "is valid JSON (a number)"),
        ("null", True, "is valid JSON (null)"),
        ("", False, "is empty, needs to be valid JSON"),
        ("```json\n```", False, "is empty, needs to be valid JSON"),
        ('{"a": 1,}', False, "is not valid JSON: Expecting property name enclosed in double"),
        ('{"a": 1} trailing', False, "is not valid JSON: Extra data (line 1, column 10)"),
        ('Here it is:\n```json\n{"a": 1}\n```', False, "is not valid JSON: Expecting value"),
        ('{"a": NaN}', False, "is not valid JSON: NaN is not allowed in JSON"),
        ("{'a': 1}", False, "is not valid JSON"),
    ],
)
def test_valid_json(text: str, passed: bool, finding: str) -> None:
    result = checks.valid_json()(text)
    assert result[0] is passed
    assert result[1].startswith(finding), result


def test_valid_json_said_alone_leaves_prose_around_valid_json_to_the_judge() -> None:
    either = checks.valid_json(embedded=None)
    with pytest.raises(CheckUndecided, match="prose around it"):
        either('Here it is:\n\n```json\n{"id": 1}\n```')
    assert either('{"id": 1}')[0]
    assert not either('Here it is:\n\n```json\n{"id": 1,}\n```')[0]
    assert not either("No JSON here.")[0]


def test_valid_json_without_fences() -> None:
    assert run(checks.valid_json(allow_fence=False), '```json\n{"a": 1}\n```') == (
        False,
        "is JSON inside a code fence, needs to be bare JSON",
    )
    assert checks.valid_json(allow_fence=False)('{"a": 1}')[0]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("We can't come, and they're late; I'd wait. It's fine, let's go.", 5),
        ("Maria's car and the team's plan were ready at 5 o'clock.", 0),  # possessives
        ("I’m sure you’ll like it", 2),  # typographic apostrophes
        ('Do not use it.\n```python\nprint("don\'t")\n```', 0),  # code is not prose
    ],
)
def test_contraction_count(text: str, count: int) -> None:
    assert checks.contraction_count(exactly=count)(text)[0], text


@pytest.mark.parametrize(
    ("person", "text", "count"),
    [
        ("first", "I think we should go; it's my call and ours.", 4),
        ("first_plural", "I think we should go; it's my call and ours.", 2),
        ("first_singular", "Myself, I'd rather not.", 2),
        ("second", "You and yours. The US market grew.", 2),
        ("first_plural", "The US market grew, said the U.S. office.", 0),  # the country
        ("first", '"We are thrilled," said the CEO. The firm grew.', 0),  # quoted speech
        ("first", "Steps:\n(i) mix\n(ii) bake", 0),  # a list marker
    ],
)
def test_pronoun_count(person: str, text: str, count: int) -> None:
    assert checks.pronoun_count(person, exactly=count)(text)[0], (person, text)


def test_pronoun_count_names_what_it_found_and_refuses_an_unknown_person() -> None:
    assert run(checks.pronoun_count("first_plural", exactly=0), "Our team and I.") == (
        False,
        "has 1 first-person plural pronoun, needs exactly 0 (first: 'Our')",
    )
    wanted = "`person` must be one of first, first_singular, first_plural, second, got 'third'"
    with pytest.raises(RubricError, match=re.escape(wanted)):
        checks.pronoun_count("third", exactly=0)


@pytest.mark.parametrize(
    ("text", "count", "finding"),
    [
        ("1. Tell me about a time.\n2. How did you cope?\n3. What went wrong?", 3, "(the items"),
        ("- Fast delivery\n- Low price\n- Any questions? Ask us!", 1, "has 1 question"),
        ("Why now? Because spring. Ready to start?", 2, "has 2 questions"),
        # a quiz: each numbered question over its lettered options, a request among them
        (
            "Quiz!\n\n1. What is H2O?\nA) Water\nB) Salt\n\n2. Which gas do we breathe?\n"
            "A) Oxygen\nB) Neon\n\n3. Name a planet.\nA) Mars\nB) Moon",
            3,
            "(the items",
        ),
    ],
)
def test_question_count(text: str, count: int, finding: str) -> None:
    passed, found = checks.question_count(exactly=count)(text)
    assert passed and finding in found, found


@pytest.mark.parametrize(
    ("format", "text", "finding"),
    [
        ("MM:SS", "00:00 Intro\n02:15 Setup\n58:10 Outro", "has 3 timestamps, all in MM:SS"),
        ("MM:SS", "00:00 Intro\n1:02:30 Q&A", "has the timestamp '1:02:30', needs MM:SS"),
        ("m:ss", "0:00 Intro\n2:15 Setup", "has 2 timestamps, all in M:SS"),
        ("HH:MM:SS", "[00:12:04] Ana: hi", "has 1 timestamp, all in HH:MM:SS"),
        ("MM:SS", "Doors open at 7:30 pm.", "has no timestamp, needs timestamps in MM:SS"),
    ],
)
def test_timestamp_format(format: str, text: str, finding: str) -> None:
    passed, found = checks.timestamp_format(format)(text)
    assert found == finding
    assert passed is ("needs" not in finding)


def test_a_press_releases_headline_is_its_title_not_its_release_line() -> None:
    release = (
        "FOR IMMEDIATE RELEASE\n\nGreenGrid Raises $30 Million to Build Solar Farms\n\n"
        "CHICAGO, April 8, 2025 - GreenGrid today announced new funding."
    )
    assert checks.has_title()(release)[0]
    headline = checks.within("title", checks.word_count(fewer_than=8))
    assert run(headline, release) == (
        False,
        "the title 'GreenGrid Raises $30 Million to Build So…' has 8 words, needs fewer than 8",
    )


def test_quote_count_counts_double_quoted_passages_and_a_stray_mark() -> None:
    assert checks.quote_count(exactly=2)("He said \"hi\" and “bye”; it's Ana's.")[0]
    assert run(checks.quote_count(exactly=0), 'A stray " mark') == (
        False,
        "has 1 quoted passage, needs exactly 0 (first: '“ mark”')",
    )


def test_phone_numbers_and_how_they_are_written() -> None:
    text = "Call (555) 201-4478 on 2024-02-12, not 192.168.1.1; toll-free 1-800-555-0199."
    assert checks.phone_count(exactly=2)(text)[0]
    assert run(checks.phone_format("(555) 123-4567"), text) == (
        False,
        "has '1-800-555-0199', needs it written like '(555) 123-4567'",
    )
    assert checks.phone_format("+44 7700 900123")("Ring +44 7700 900456 today.")[0]
    assert not checks.phone_format("+44 7700 900123")("Ring 07700 900456 today.")[0]
    with pytest.raises(RubricError, match="`example` must be one phone number"):
        checks.phone_format("call me")
    # groups split by spaces alone are a number only where a word says so
    assert checks.phone_count(exactly=0)("Rooms 101 102 103 are free.")[0]
    assert checks.phone_count(exactly=1)("Ring us on 0161 496 0123 today.")[0]


def test_mentions_are_handles_after_an_at_sign_not_email_addresses() -> None:
    text = "Thanks @marta and @dev-team! Mail ops@example.com; coffee @ $3.\n```\n@skip\n```"
    assert run(checks.mention_count(exactly=1), text) == (
        False,
        "has 2 @mentions, needs exactly 1 (first: '@marta')",
    )
    assert checks.mention_count(exactly=0)("Write to me@example.org, not at 5 @ 6.")[0]
    assert checks.mention_count(exactly=2)("cc @here, @j.smith.")[0]


@pytest.mark.parametrize(
    ("piece", "verb"),
    [
        ("1. Preheat the oven to 200°C.", True),
        ("- [ ] Ship a small fix", True),
        ("Step 3: **Check** the cable", True),
        ("**Filter:** Sort the rows by date", True),
        ("You should now restart the router.", False),
        ("Carefully remove the tray.", False),
        ("3 eggs, beaten", False),
        ("Lunch with your buddy", None),  # neither list knows it
    ],
)
def test_opens_with_a_verb_from_the_lists_or_leaves_it_to_the_judge(
    piece: str, verb: bool | None
) -> None:
    if verb is None:
        with pytest.raises(CheckUndecided, match="opens with a verb"):
            checks.opens_with("verb")(piece)
    else:
        assert checks.opens_with("verb")(piece)[0] is verb


def test_time_format_with_a_time_zone_on_every_time() -> None:
    agenda = "Standup 09:00 UTC, demo 14:30–15:00 UTC, drinks 18:00."
    assert run(checks.time_format(zone="any"), agenda) == (
        False,
        "has the time '18:00' with no time zone, needs times with a time zone",
    )
    assert checks.time_format(24, zone="UTC")("Standup 09:00 UTC; demo 14:30–15:00 (UTC)")[0]
    assert not checks.time_format(zone="UTC")("Standup 09:00 CET")[0]
    with pytest.raises(RubricError, match="`zone` must be 'any' or a time zone"):
        checks.time_format(zone="teatime")
    with pytest.raises(RubricError, match="say `clock`, `zone` or `two_digit_hours`"):
        checks.time_format()


def test_label_case_reads_the_labels_that_open_lines() -> None:
    script = "HOST: Welcome back.\n[Music fades]\nGUEST: Thanks, at 10:30 sharp.\nHost: So."
    assert run(checks.label_case("upper"), script) == (
        False,
        "has the label 'Host', needs it in upper case",
    )
    assert checks.label_case("sentence")(
        "**Wrong password**\nTry again.\n\n**File too large**\nNo."
    )[0]
    assert not checks.label_case("upper")("No labels here, just prose.")[0]


def test_dividers_are_rule_lines_not_heading_underlines() -> None:
    text = "### Shipped\n- a\n\n---\n\nTitle\n---\n\n* * *\n```\n---\n```"
    assert run(checks.divider_count(exactly=2), text) == (True, "has 2 dividers, needs exactly 2")


def test_a_phrase_with_a_number_s_place_starts_with_any_number() -> None:
    assert checks.starts_with("Week N:")("Week 3: Python basics")[0]
    assert not checks.starts_with("Week N:")("Week three: Python")[0]
    assert checks.starts_with("Plan B")("Plan B is ready")[0]


def test_the_postscript_is_a_part_without_its_marker() -> None:
    letter = "Dear Ana,\n\nSee you soon.\n\nBest,\nSam\n\nP.S. Bring the maps, please."
    assert checks.within("postscript", checks.word_count(exactly=4))(letter)[0]


def test_an_ellipsis_is_the_mark_or_a_run_of_dots() -> None:
    assert run(checks.mark_count("…", exactly=0), "Wait... what…? Fine.") == (
        False,
        "has 2 ellipses, needs exactly 0",
    )
    assert checks.mark_count("...", exactly=1)("So.... yes.")[0]


def test_json_key_count_counts_each_top_level_objects_keys() -> None:
    assert checks.json_key_count(exactly=2)('{"q": "Why?", "a": {"x": 1, "y": 2}}')[0]
    assert run(checks.json_key_count(exactly=2), '[{"q": 1, "a": 2}, {"q": 1}]') == (
        False,
        "object 2 of 2 has 1 key, needs exactly 2",
    )
    assert checks.json_key_count(at_most=3)("Config:\n```yaml\nname: x\nport: 80\n```")[0]
    with pytest.raises(CheckUndecided, match="no JSON or YAML object"):
        checks.json_key_count(exactly=4)("Four keys: a, b, c, d.")


def test_valid_yaml_parses_the_yaml_blocks_or_the_whole_text() -> None:
    config = "Here it is:\n```yaml\nservices:\n  web:\n    image: nginx\n```"
    assert run(checks.valid_yaml(), config) == (True, "its YAML block parses")
    broken = "```yml\nservices: [web, db\n```"
    assert not checks.valid_yaml()(broken)[0]
    assert checks.valid_yaml()("name: x\nitems:\n  - a\n  - b")[0]
    assert not checks.valid_yaml()("```yaml\njust words\n```")[0]
    with pytest.raises(CheckUndecided, match="prose, not a YAML mapping"):
        checks.valid_yaml()("Just some prose here.")


def test_placeholders_in_braces_count_when_any_brackets_do() -> None:
    mail = "Hi {{customer_name}}, your code is {code}. See [link](https://x.io).\n```\n{skip}\n```"
    assert checks.placeholder_count(exactly=0)(mail)[0]
    assert checks.placeholder_count(brackets="any", exactly=2)(mail)[0]
    assert checks.placeholder_count(brackets="any", exactly=0)('JSON: {"a": 1}')[0]
    with pytest.raises(RubricError, match="`brackets` must be 'square' or 'any'"):
        checks.placeholder_count(brackets="curly")


def test_money_format_decimals_alone_or_without_symbols() -> None:
    menu = "Soup $6, salad $8.50, bread 3.00"
    assert run(checks.money_format(decimals=0, symbols="ignored"), menu) == (
        False,
        "has the amount '$8.50', needs 0 decimal places",
    )
    assert run(checks.money_format(symbols="forbidden"), menu) == (
        False,
        "has the amount '$6', needs it without a symbol",
    )
    assert checks.money_format(decimals=2, symbols="forbidden")("Soup 6.00, salad 8.50")[0]
    with pytest.raises(CheckUndecided, match="no amount of money"):
        checks.money_format(decimals=0, symbols="ignored")("Soup 6, salad 8")
    with pytest.raises(CheckUndecided, match=r"'15\.5', which may be an amount"):
        checks.money_format(decimals=2, symbols="forbidden")("amount\n49.90\n15.5")
    with pytest.raises(RubricError, match="`symbols` must be one of"):
        checks.money_format(symbols="none")
    with pytest.raises(RubricError, match="needs `symbols` 'required'"):
        checks.money_format("$", symbols="forbidden")


def test_measurement_units_by_system_by_quantity_and_ruled_out() -> None:
    recipe = "Whisk 200 g flour with 2 cups milk and a teaspoon of salt. Bake at 180°C for 25 min."
    assert run(checks.measurement_units(system="metric"), recipe) == (
        False,
        "has '2 cups', an imperial unit, needs metric",
    )
    assert checks.measurement_units(unit="°C")(recipe)[0]
    assert run(checks.measurement_units(unit="kg"), recipe) == (
        False,
        "has '200 g', needs every weight in kg",
    )
    assert not checks.measurement_units(forbidden=["tsp"])(recipe)[0]  # "a teaspoon of"
    assert checks.measurement_units(system="metric")("Run 5 km in 30 minutes at 10 km/h.")[0]
    # money, millions, a network and a decade are no measurements
    assert checks.measurement_units(forbidden=["lb", "m"])("£5 a week; $10m; 5G; the 1990s")[0]
    assert not checks.measurement_units(spaced=True)("Add 12g of yeast.")[0]
    assert checks.measurement_units(spaced=True)("Add 12 g of yeast to a 12-inch pan.")[0]
    # a mile measured without a number; miles of fields are no measure
    assert run(
        checks.measurement_units(system="metric"), "12 km long; the last mile is steep."
    ) == (
        False,
        "has 'the last mile', an imperial unit, needs metric",
    )
    assert run(checks.measurement_units(system="metric"), "12 km past miles of fields.") == (
        True,
        "has 1 measurement, all as asked",
    )


@pytest.mark.parametrize(
    ("text", "opens", "closes"),
    [
        ("🎉 Big news: we shipped!", True, False),
        ("- ✨ Faster sync", True, False),  # past a list marker
        ("**🚀 Launch day**", True, False),  # past bold marks, before and after
        ("We shipped 🎉", False, True),
        ("Thanks for reading! 🙏🏽", False, True),  # a skin tone is part of its emoji
        ("Wow 🎉!", False, False),  # a mark after the emoji ends the text
        ("No emoji here.", False, False),
    ],
)
def test_an_emoji_first_or_last(text: str, opens: bool, closes: bool) -> None:
    assert checks.opens_with("emoji")(text)[0] is opens
    assert checks.closes_with("emoji")(text)[0] is closes


def test_an_emoji_first_in_every_bullet_says_which_bullet_lacks_one() -> None:
    bullets = "- 🌙 Dark mode\n- Attach PDFs\n- ⚡ Faster search"
    assert run(checks.each("item", checks.opens_with("emoji")), bullets) == (
        False,
        "list item 2 of 3, 'Attach PDFs', opens with 'Attach PDFs', needs an emoji first",
    )


def test_closes_with_what_comes_last() -> None:
    table = "Prices:\n\n| item | cost |\n|---|---|\n| tea | 2 |\n"
    assert run(checks.closes_with("table"), table) == (True, "closes with the table: '| tea | 2 |'")
    assert run(checks.closes_with("table"), table + "\nEnjoy!") == (
        False,
        "has 'Enjoy!' after the table",
    )
    assert run(checks.closes_with("list"), "Steps:\n- mix\n- bake\n  until golden") == (
        True,
        "closes with the list: 'until golden'",
    )
    assert run(checks.closes_with("code"), "No code here.") == (False, "has no code")
    with pytest.raises(RubricError, match="kind"):
        checks.closes_with("heading")


@pytest.mark.parametrize(
    ("rule", "text"),
    [
        ({"system": "metric"}, "Preheat the oven to 350 degrees."),  # no scale said
        ({"unit": "°C"}, "Serve it cold."),  # no temperature at all
        ({"system": "imperial"}, "Rest for 10 minutes."),  # time is in both systems
    ],
)
def test_measurement_units_leaves_to_the_judge_what_no_unit_settles(
    rule: dict[str, str], text: str
) -> None:
    with pytest.raises(CheckUndecided):
        checks.measurement_units(**rule)(text)


def test_measurement_units_rejects_unknown_units_and_empty_rules() -> None:
    with pytest.raises(RubricError, match="unknown unit 'stone'"):
        checks.measurement_units(unit="stone")
    with pytest.raises(RubricError, match="say `system`, `unit`, `forbidden` or `spaced`"):
        checks.measurement_units()


def test_a_date_format_without_a_year_sets_the_order_and_a_sentence_may_end_after_it() -> None:
    day_first = checks.date_format("D MONTH")
    assert day_first("See you on 22 July and 3 October.")[0]
    assert day_first("Doors open 22 July 2025.")[0]  # a year after it is allowed
    assert run(day_first, "See you on July 22.") == (False, "has the date 'July 22', needs D MONTH")
    assert not day_first("See you on the 22nd July.")[0]  # no ordinals


def test_opens_with_a_subject_line_first_or_in_a_memos_header() -> None:
    subject = checks.opens_with("subject")
    assert subject("**Subject:** Heater\n\nHi Ana,")[0]
    assert subject("MEMO\n\nTo: All staff\nSubject: Desks\n\nClear them.")[0]
    assert run(subject, "Hi Ana,\nSubject: x") == (
        False,
        "opens with 'Hi Ana,\\nSubject: x', needs a subject line (Subject: ...)",
    )


def test_opens_with_a_checkbox_ticked_or_not() -> None:
    boxes = checks.each("item", checks.opens_with("checkbox"))
    empty = checks.each("item", checks.opens_with("empty_checkbox"))
    text = "- [ ] Tent\n- [x] Stove\n* ☐ Map"
    assert boxes(text)[0]
    assert run(empty, text) == (
        False,
        "list item 2 of 3, '[x] Stove', opens with a ticked box: '[x] Stove', "
        "needs an empty one, [ ]",
    )
    assert not boxes("- Tent\n- [ ] Stove")[0]


def test_valid_json_of_a_shape() -> None:
    assert run(checks.valid_json(shape="array"), '{"a": 1}') == (
        False,
        "is valid JSON but an object, needs an array",
    )
    assert checks.valid_json(shape="array")("```json\n[1, 2]\n```")[0]
    embedded = checks.valid_json(embedded=True, shape="object")
    assert embedded('Here it is:\n```json\n{"a": 1}\n```')[0]
    assert run(embedded, "Here:\n```json\n[1]\n```") == (
        False,
        "JSON block 1 of 1 is an array, needs an object",
    )
    with pytest.raises(RubricError, match="`shape` must be 'object' or 'array', got 'list'"):
        checks.valid_json(shape="list")


def test_has_title_in_angle_brackets() -> None:
    check = checks.has_title(angle_brackets=True)
    assert run(check, "<<Poem of Joy>>\nverse") == (True, "has the title '<<Poem of Joy>>'")
    assert check("text then <<A title>> inline")[0]
    assert run(check, "<<>> << >> <<\nsplit>> <<...>>") == (
        False,
        "has no title in double angular brackets, such as <<Title>>",
    )
    assert not check("# A Heading\n\nBody text.")[0]


HAIKU = "Cherry blossoms fall\nsoft rain on the temple roof\nspring wakes the river"


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("<<Poem of Joy>>\nverse", "<<Poem of Joy>>"),
        ("# Spring Rain\n" + HAIKU, "# Spring Rain"),
        ("Title: Spring Rain\n" + HAIKU, "Title: Spring Rain"),
        ("**Spring Rain**\n" + HAIKU, "**Spring Rain**"),
        ("Spring Rain\n\n" + HAIKU, "Spring Rain"),
        ("\n  Why Bees Matter?\n\nBees pollinate crops.", "Why Bees Matter?"),
    ],
)
def test_has_title_finds_what_a_reader_takes_for_a_title(text: str, title: str) -> None:
    assert run(checks.has_title(), text) == (True, f"has the title {title!r}")


@pytest.mark.parametrize(
    "text",
    [
        HAIKU,  # the first line is already the poem
        "",
        "Just one line with no body",
        "Dear Sam,\n\nThanks for the note.",  # a greeting ends in a comma
        "Hi team\n\nA few notes before the move.",  # and is no title without one either
        "Why do bees matter?\n\nThey pollinate crops.",  # a question asked, not a title
        "- Pack your desk\n\n- Label boxes",  # a list item
        "Bees pollinate about a third of the crops we eat.\n\nMore text.",  # a sentence
        "One two three four five six seven eight nine ten eleven twelve thirteen\n\nBody.",
    ],
)
def test_an_untitled_text_has_no_title(text: str) -> None:
    passed, finding = checks.has_title()(text)
    assert not passed
    assert finding.startswith(("has no title line", "is empty"))


@pytest.mark.parametrize(
    ("text", "marker", "passed"),
    [
        ("Body.\n\nP.S. See you soon.", "P.S.", True),
        ("Body.\n\np.s. lowercase works", "P.S.", True),
        ("Body.\n  P. S. spaced", "P.S.", True),
        ("Body.\n**P.S.** bold", "P.S.", True),
        ("Body.\nP.S no final period", "P.S.", True),
        ("Body. P.S. in the middle of a line", "P.S.", False),
        ("Body.\nPS without periods", "P.S.", False),
        ("Body.\nP.P.S. only a second postscript", "P.S.", False),
        ("Body.\nP.P.S. second postscript", "P.P.S.", True),
        ("Body.\nP.S. first only", "P.P.S.", False),
        ("", "P.S.", False),
    ],
)
def test_has_postscript(text: str, marker: str, passed: bool) -> None:
    assert checks.has_postscript(marker)(text)[0] is passed


def test_has_postscript_findings_and_marker_errors() -> None:
    assert run(checks.has_postscript(), "Hi.\nP.S. bye") == (True, "has a postscript: 'P.S. bye'")
    assert run(checks.has_postscript("p.p.s"), "Hi.") == (
        False,
        "has no postscript starting with P.P.S.",
    )
    for bad in ("", "PS", "P.S.!", "1.2."):
        with pytest.raises(RubricError, match="`marker` must be letters separated by periods"):
            checks.has_postscript(bad)


# --- language -------------------------------------------------------------------------------


ENGLISH = "The weather today is sunny and warm, so we are going for a long walk in the park."
GERMAN = "Das Wetter ist heute sonnig und warm, deshalb machen wir einen langen Spaziergang."
CHINESE = "今天天气晴朗温暖，所以我们要去公园散步很长时间。"


@needs_langdetect
@pytest.mark.parametrize(
    ("code", "text", "passed", "finding"),
    [
        ("en", ENGLISH, True, "reads as English (en)"),
        ("de", GERMAN, True, "reads as German (de)"),
        ("EN", GERMAN, False, "reads as German (de), needs English (en)"),
        ("zh", CHINESE, True, "reads as Chinese (simplified) (zh-cn)"),
        ("en", "", False, "has no text to tell the language from, needs English (en)"),
        ("en", "123 !!! --", False, "has no text to tell the language from, needs English (en)"),
    ],
)
def test_language(code: str, text: str, passed: bool, finding: str) -> None:
    assert checks.language(code)(text) == (passed, finding)


def test_language_code_is_validated_without_langdetect() -> None:
    with pytest.raises(RubricError, match="unknown language code 'english'") as info:
        checks.language("english")
    assert info.value.field == "code"
    assert checks.language("zh_CN").to_spec() == {"name": "language", "code": "zh_CN"}


@needs_langdetect
def test_language_is_deterministic() -> None:
    short = "ok fine"
    results = {checks.language("en")(short) for _ in range(5)}
    assert len(results) == 1


def test_language_without_langdetect_fails_the_criterion_with_an_install_hint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rubricate.checks import _language

    _language._factory.cache_clear()
    real_import = importlib.import_module

    def no_langdetect(name: str, package: str | None = None) -> Any:
        if name.startswith("langdetect"):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return real_import(name, package)

    monkeypatch.setattr(importlib, "import_module", no_langdetect)
    try:
        evaluation = Judge(ScriptedChatModel(script=[])).evaluate(
            [Criterion(description="In English", check=checks.language("en"))], output=ENGLISH
        )
    finally:
        _language._factory.cache_clear()
    [verdict] = evaluation.criteria
    assert not verdict.passed
    assert re.search(r"raised ModuleNotFoundError: .*pip install 'langdetect", verdict.gap)


# --- checks for ordinary phrasing: lists, emojis, lines, characters, per-unit limits ---------


def test_numbered_count_counts_numbered_items_only() -> None:
    text = "Steps:\n1. Mix\n2) Bake\n- serve\n```\n3. not an item\n```"
    assert run(checks.numbered_count(exactly=2), text) == (
        True,
        "has 2 numbered items, needs exactly 2",
    )
    assert not checks.numbered_count(exactly=0)(text)[0]
    assert checks.numbered_count(exactly=0)("- a bullet\n- another")[0]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("Fresh bread 🍞 and a party 🎉", 2),
        ("Thumbs 👍🏽 and a coder 👩‍💻", 2),  # a skin tone and a joined sequence count once
        ("Done ✅", 1),
        ("Arrows → and © or ™ are not emojis", 0),
        ("", 0),
    ],
)
def test_emoji_count(text: str, count: int) -> None:
    assert checks.emoji_count(exactly=count)(text)[0]
    assert not checks.emoji_count(exactly=count + 1)(text)[0]


def test_emoji_count_names_the_first_emoji_it_found() -> None:
    assert run(checks.emoji_count(exactly=0), "Hi 🎉 there 🍞") == (
        False,
        "has 2 emojis, needs exactly 0 (first: 🎉)",
    )


def test_line_count_skips_blank_and_markless_lines() -> None:
    text = "Cherry blossoms fall\n\nsoft rain\n---\nspring wakes\n"
    assert run(checks.line_count(exactly=3), text) == (True, "has 3 lines, needs exactly 3")


def test_character_count_trims_the_text() -> None:
    assert run(checks.character_count(at_most=5), "  hello \n") == (
        True,
        "has 5 characters, needs at most 5",
    )
    assert not checks.character_count(fewer_than=5)("hello")[0]


@pytest.mark.parametrize(
    ("check", "text", "passed", "finding"),
    [
        (
            checks.word_count(at_most=3, per="sentence"),
            "One two three. Four five six seven.",
            False,
            "sentence 2 has 4 words, needs at most 3",
        ),
        (
            checks.word_count(at_most=4, per="sentences"),
            "One two three. Four five six seven.",
            True,
            "every sentence has 3 to 4 words, needs at most 4",
        ),
        (
            checks.sentence_count(at_most=1, per="paragraph"),
            "One. Two.\n\nThree.",
            False,
            "paragraph 1 has 2 sentences, needs at most 1",
        ),
        (
            checks.word_count(fewer_than=3, per="item"),
            "Intro text here.\n- one two\n1. three four",
            True,
            "every item has 2 words, needs fewer than 3",
        ),
        (
            checks.character_count(at_most=10, per="line"),
            "short\nthis line is long",
            False,
            "line 2 has 17 characters, needs at most 10",
        ),
        (
            checks.word_count(at_most=5, per="item"),
            "No list at all.",
            True,
            "has no item, so none breaks the limit (at most 5 words)",
        ),
    ],
)
def test_per_unit_limits_apply_to_every_unit(
    check: checks.Check, text: str, passed: bool, finding: str
) -> None:
    assert run(check, text) == (passed, finding)


def test_per_takes_only_units_that_hold_the_counted_one() -> None:
    with pytest.raises(RubricError, match="`per` must be one of paragraph, got 'line'"):
        checks.sentence_count(at_most=2, per="line")
    with pytest.raises(RubricError, match="`per` must be one of sentence, paragraph"):
        checks.word_count(at_most=2, per="chapter")


# --- endings, heading case, dates, whole-word starts and ends --------------------------------


@pytest.mark.parametrize(
    ("text", "mark", "passed"),
    [
        ("Can you make it?", "?", True),
        ('He asked, "Can you make it?"', "?", True),
        ("Is it **really?**\n\n", "?", True),
        ("Can you make it? Thanks.", "?", False),
        ("See you there!", "!", True),
        ("Well...", "...", True),
        ("Well…", "…", True),
        ("", "?", False),
    ],
)
def test_ends_with_punctuation(text: str, mark: str, passed: bool) -> None:
    assert checks.ends_with_punctuation(mark)(text)[0] is passed


def test_ends_with_punctuation_takes_one_mark() -> None:
    with pytest.raises(RubricError, match="`mark` must be one of"):
        checks.ends_with_punctuation("?!")


@pytest.mark.parametrize(
    ("text", "case", "passed"),
    [
        ("# Choose the Right Spot\n\nText.\n\n## Water Wisely\n\nMore.", "title", True),
        ("# Choose the right spot\n\nText.", "title", False),
        ("# Choose the right spot\n\n## Why Paris matters\n\nText.", "sentence", True),
        ("# Choose the Right Spot\n\nText.", "sentence", False),
        ("Spring Rain\n\nCherry blossoms fall", "title", True),  # a title line counts
        ("## all quiet\n\ntext", "lower", True),
        ("Just text, no heading.", "title", False),
    ],
)
def test_heading_case(text: str, case: str, passed: bool) -> None:
    assert checks.heading_case(case)(text)[0] is passed


def test_heading_case_leaves_a_heading_that_may_hold_a_name_to_the_judge() -> None:
    readme = "## Installation\n\n### With Homebrew\nbrew install x\n\n### From source\nmake"
    with pytest.raises(CheckUndecided, match="may be a name"):
        checks.heading_case("sentence")(readme)
    # a word the text writes in lower case is no name; two capitals are title case
    said = "## Root Cause\n\nThe root cause was a lock.\n\n## Action items\n\nAdd a lint."
    assert not checks.heading_case("sentence")(said)[0]
    titled = "## Getting Started Fast\n\nx\n\n## Next steps\n\ny"
    assert not checks.heading_case("sentence")(titled)[0]
    # "GitHub" is a name by its inner capital; ".github/" in a path is no lower-case word
    ci = "## Running tests\n\nx\n\n## Using GitHub Actions\n\nSee .github/workflows and Actions."
    with pytest.raises(CheckUndecided, match="may be a name"):
        checks.heading_case("sentence")(ci)


def test_heading_case_leaves_a_first_line_that_may_be_a_headline_to_the_judge() -> None:
    promo = "WINTER COAT SALE\n20% off all winter coats\nThis week only."
    with pytest.raises(CheckUndecided, match="may be a headline"):
        checks.heading_case("upper")(promo)
    assert not checks.heading_case("sentence")("1. Getting started\n2. Setting Up Alerts")[0]


def test_code_tagged_needs_a_language_on_every_fence() -> None:
    two = "```bash\nls\n```\n\nThen:\n\n```\ncat notes.txt\n```"
    assert run(checks.code_tagged(), two) == (False, "code block 2 of 2 opens '```', no tag")
    assert run(checks.code_tagged(), "```py\nprint(1)\n```") == (
        True,
        "its code block carries a language tag (py)",
    )
    assert not checks.code_tagged()("No code at all.")[0]
    assert checks.code_tagged(required=False)("No code at all.")[0]


def test_sentence_case_allows_the_names_of_days_and_months() -> None:
    assert checks.heading_case("sentence")("Office closed on Friday, March 14")[0]
    assert not checks.heading_case("sentence")("Office Closed On Friday")[0]
    assert checks.heading_case("title")("Office Closed On Friday")[0]


def test_heading_case_not_required_leaves_a_text_without_headings_to_the_judge() -> None:
    messages = "- **Wrong password:** That password doesn't match.\n- **Offline:** Try again."
    assert not checks.heading_case("sentence")(messages)[0]
    with pytest.raises(CheckUndecided, match="no heading or title"):
        checks.heading_case("sentence", required=False)(messages)
    assert checks.heading_case("sentence", required=False)("# Getting started\n\nText.")[0]
    with pytest.raises(RubricError, match="required: heading_case: expected true or false"):
        checks.heading_case("title", required="no")  # type: ignore[arg-type]


def test_heading_case_names_the_heading_that_breaks_it() -> None:
    assert run(checks.heading_case("title case"), "# Good Title\n\n## bad one\n\nx") == (
        False,
        "has the heading 'bad one', not in title case",
    )
    with pytest.raises(RubricError, match="`case` must be one of title, sentence"):
        checks.heading_case("camel")


@pytest.mark.parametrize(
    ("text", "spec", "passed", "finding"),
    [
        (
            "Kickoff 2024-03-04, launch 2024-06-30.",
            "YYYY-MM-DD",
            True,
            "has 2 dates, all written as YYYY-MM-DD",
        ),
        ("On 2024-3-4.", "YYYY-MM-DD", False, "has the date '2024-3-4', needs YYYY-MM-DD"),
        (
            "On March 4, 2024.",
            "YYYY-MM-DD",
            False,
            "has the date 'March 4, 2024', needs YYYY-MM-DD",
        ),
        ("On 04/03/2024.", "DD/MM/YYYY", True, "has 1 date, all written as DD/MM/YYYY"),
        ("On 2024-13-40.", "YYYY-MM-DD", False, "has the date '2024-13-40', needs YYYY-MM-DD"),
        ("No dates here.", "YYYY-MM-DD", False, "has no date, needs dates written as YYYY-MM-DD"),
        # a date a reader sees without its year still counts: "by March 20"
        (
            "Launch 2024-04-02; pricing copy by March 20.",
            "YYYY-MM-DD",
            False,
            "has the date 'March 20', needs YYYY-MM-DD",
        ),
        (
            "You may 5 times retry on 2024-04-02.",
            "YYYY-MM-DD",
            True,
            "has 1 date, all written as YYYY-MM-DD",
        ),
        # the month by name
        (
            "Due June 5, 2024, review October 14, 2024.",
            "MONTH D, YYYY",
            True,
            "has 2 dates, all written as MONTH D, YYYY",
        ),
        (
            "Due 2024-06-05.",
            "MONTH D, YYYY",
            False,
            "has the date '2024-06-05', needs MONTH D, YYYY",
        ),
        (
            "Due Jun. 5, 2024.",
            "MONTH D, YYYY",
            False,
            "has the date 'Jun. 5, 2024', needs MONTH D, YYYY",
        ),
        ("Due 5 Jun 2024.", "D MON YYYY", True, "has 1 date, all written as D MON YYYY"),
    ],
)
def test_date_format(text: str, spec: str, passed: bool, finding: str) -> None:
    assert run(checks.date_format(spec), text) == (passed, finding)


def test_date_format_takes_no_version_number_for_a_date() -> None:
    assert checks.date_format("YYYY-MM-DD")("## [2.4.0] - 2025-03-14\n\nv1.10.3 fixes it.")[0]
    assert not checks.date_format("YYYY-MM-DD")("Released 1990-7-4, patched 5.3.24.")[0]


def test_date_format_of_a_kind_of_dates_decides_only_where_all_dates_agree() -> None:
    """'Every normalised date' of a list mapping raw dates to normalised ones."""
    normalised = checks.date_format("YYYY-MM-DD", which="normalised")
    with pytest.raises(CheckUndecided, match="normalised"):
        normalised("3 March 1988 → 1988-03-03\n1990-7-4 → 1990-07-04")
    assert normalised("Born 1988-03-03, joined 2010-07-04.")[0]
    assert not normalised("Born 3 March 1988, joined 4 July 2010.")[0]


def test_date_format_needs_a_month_and_a_day() -> None:
    with pytest.raises(RubricError, match="`format` spells a date"):
        checks.date_format("YYYY")


def test_starts_and_ends_with_match_whole_words() -> None:
    assert not checks.starts_with("Yes")("Yesterday was fine")[0]
    assert checks.starts_with("Yes")("Yes, it was")[0]
    assert not checks.ends_with("end.")("a long weekend.")[0]
    assert checks.ends_with("end.")("the end.")[0]


# --- links, addresses, hashtags, code blocks, tables, marks --------------------------------


def test_links_addresses_and_hashtags_are_counted_as_a_reader_sees_them() -> None:
    text = (
        "See [the guide](https://example.org/guide) or www.example.com/faq.\n"
        "Write to help@example.co.uk. #Launch #ship_it page#top #1\n\n# A heading"
    )
    assert run(checks.url_count(exactly=2), text) == (True, "has 2 links, needs exactly 2")
    assert checks.email_count(exactly=1)(text)[0]
    assert checks.hashtag_count(exactly=2)(text)[0]
    assert run(checks.url_count(exactly=0), "Visit https://a.example/x.") == (
        False,
        "has 1 link, needs exactly 0 (first: 'https://a.example/x')",
    )
    assert checks.hashtag_count(exactly=0)("```\n#include <stdio.h>\n```")[0]
    assert checks.url_count(exactly=2)("Go to example.com/help or docs.python.org.")[0]
    assert checks.url_count(exactly=0)("Use Node.js, e.g. in app.py; mail a@b.org")[0]


def test_a_link_is_bare_unless_markdown_dresses_it() -> None:
    dressed = "Read [the guide](https://example.org/guide) or <https://example.org/faq>."
    bare = "Docs live at https://example.org/docs and [the FAQ](https://example.org/faq)."
    no_bare = checks.url_count(form="bare", exactly=0)
    assert run(no_bare, dressed) == (True, "has 0 bare links, needs exactly 0")
    assert run(no_bare, bare) == (
        False,
        "has 1 bare link, needs exactly 0 (first: 'https://example.org/docs')",
    )
    assert checks.url_count(form="markdown", exactly=1)(bare)[0]
    assert not checks.url_count(form="markdown", at_least=1)("See https://example.org.")[0]
    # a link to a page of the same text is no web address
    assert checks.url_count(form="markdown", exactly=0)("See [below](#usage).")[0]
    with pytest.raises(RubricError, match="`form` must be one of any, bare, markdown"):
        checks.url_count(form="html", exactly=0)


def test_code_blocks_are_fenced_and_closed() -> None:
    text = "Run:\n\n```bash\nls -la\n```\n\nthen `pwd` and\n~~~\nexit\n~~~"
    assert checks.code_block_count(exactly=2)(text)[0]
    assert checks.code_block_count(exactly=0)("Use `ls -la` here.")[0]
    assert checks.code_block_count(exactly=0)("```\nnever closed")[0]


def test_table_count_needs_a_delimiter_row() -> None:
    table = "| Plan | Price |\n|------|:-----:|\n| Basic | $5 |\n\nAfter."
    assert checks.table_count(exactly=1)(table)[0]
    assert checks.table_count(exactly=0)("a | b\nno delimiter")[0]
    assert checks.table_count(exactly=0)("```\n| a | b |\n|---|---|\n```")[0]


def test_table_size_counts_body_rows_and_header_cells() -> None:
    table = "| Plan | Price | Seats |\n|---|---|---|\n| Basic | $5 | 1 |\n| Team | $20 | 5 |"
    assert run(checks.table_size("rows", exactly=2), table) == (True, "has 2 rows, needs exactly 2")
    assert checks.table_size("columns", exactly=3)(table)[0]
    assert not checks.table_size("columns", exactly=3)("No table here.")[0]
    with pytest.raises(RubricError, match="`dimension` must be 'rows' or 'columns'"):
        checks.table_size("cells", exactly=1)


@pytest.mark.parametrize(
    ("clock", "text", "passed"),
    [
        (24, "The coach leaves at 08:45 and returns by 15:30.", True),
        (24, "The coach leaves at 8:45 am.", False),
        (24, "Doors open at 7pm, talks at 19:30.", False),
        (24, "We won 3-1 in 2024.", False),  # no time of day at all
        (12, "Doors open at 7pm; talks start at 7:30 p.m.", True),
        (12, "Talks start at 19:30.", False),
        (24, "Tickets cost $4.50 and weigh 1.25 kg; doors at 18:00.", True),
    ],
)
def test_time_format(clock: int, text: str, passed: bool) -> None:
    assert checks.time_format(clock)(text)[0] is passed


@pytest.mark.parametrize(
    ("text", "passed", "finding"),
    [
        ('{"title": "Soup", "servings": 2}', True, "has the keys 'title' and 'servings'"),
        # JSON in a code block, with prose around it
        (
            'Here it is:\n\n```json\n{"title": "Soup", "servings": 2, "tags": []}\n```\nEnjoy.',
            False,
            "has the key 'tags', needs only 'title' and 'servings'",
        ),
        (
            '[{"title": "A", "servings": 1}, {"Title": "B", "servings": 2}]',
            False,
            "object 2 lacks the key 'title'",
        ),
        (
            '["title", "servings"]',
            False,
            "holds JSON that is not an object (nor an array of objects)",
        ),
        (
            "title: Soup",
            False,
            "is not valid JSON: Expecting value (line 1, column 1), nor holds a code block of JSON",
        ),
    ],
)
def test_json_keys_reads_the_json_of_the_text_or_of_its_code_block(
    text: str, passed: bool, finding: str
) -> None:
    assert run(checks.json_keys(["title", "servings"], exact=True), text) == (passed, finding)


@pytest.mark.parametrize(
    ("text", "passed", "finding"),
    [
        ("Up 12% and 3.5%.", True, "has 2 percentages, all with the % sign"),
        ("Up 12% and 50 per cent.", False, "has the percentage '50 per cent', needs the % sign"),
        ("No figures here.", False, "has no percentage, needs percentages with the % sign"),
    ],
)
def test_percent_sign(text: str, passed: bool, finding: str) -> None:
    assert run(checks.percent_sign(), text) == (passed, finding)


def test_code_block_count_by_language_tag() -> None:
    text = "Run:\n\n```py\nprint(1)\n```\n\n```\nplain\n```"
    assert run(checks.code_block_count(language="python", exactly=1), text) == (
        True,
        "has 1 code block tagged python, needs exactly 1",
    )
    assert not checks.code_block_count(language="bash", at_least=1)(text)[0]
    with pytest.raises(RubricError, match="one word"):
        checks.code_block_count(language="two words", at_least=1)


def test_mark_count() -> None:
    assert run(checks.mark_count("!", exactly=0), "Wow!! Great.") == (
        False,
        "has 2 '!' marks, needs exactly 0",
    )
    assert checks.mark_count(";", at_most=1)("One; two.")[0]
    with pytest.raises(RubricError, match="`mark` must be punctuation"):
        checks.mark_count("ok", exactly=0)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("snow on the hill\nno one walks there now", 0),
        ("don't stop the light-hearted song", 0),  # part of a word
        ("- milk\n- eggs\n1. bread\n## Shop", 0),  # markers open a line
        ("#spring @ana 50% & more / less", 0),  # symbols
        ("Hello, world. “Quoted” (aside) wait—what…", 8),
        ("¿Qué? ¡Sí!", 4),  # any script's marks
    ],
)
def test_punctuation_count_counts_the_marks_of_a_sentence(text: str, count: int) -> None:
    assert checks.punctuation_count(exactly=count)(text) == (
        True,
        f"has {count} punctuation mark{'' if count == 1 else 's'}, needs exactly {count}",
    )


@pytest.mark.parametrize(
    ("style", "below", "text", "passed"),
    [
        ("digits", None, "We hired 12 people in 3 cities.", True),
        ("digits", None, "We hired twelve people.", False),
        ("digits", None, "Revenue reached 4.8 million.", True),  # a scale after digits
        ("digits", None, "One of the best, and no one minded.", True),  # "one" as a pronoun
        ("digits", None, "It has one port.", False),
        ("digits", None, "A one-off fee of 5 euros.", True),
        ("digits", 10, "It has twenty-five ports.", True),
        ("digits", 10, "It has seven ports.", False),
        ("words", None, "Three cats and twelve dogs.", True),
        ("words", None, "1. Three cats\n2. Four dogs", True),  # list markers are no numbers
        ("words", None, "Founded in 1998.", False),
        ("words", 10, "We sold 12 kits at 9:30 and 2.5 stars.", True),
        ("words", 10, "We sold 4 kits.", False),
    ],
)
def test_number_style(style: str, below: int | None, text: str, passed: bool) -> None:
    assert checks.number_style(style, below=below)(text)[0] is passed


def test_number_style_names_a_bad_argument() -> None:
    with pytest.raises(RubricError, match="`style` must be 'digits' or 'words'"):
        checks.number_style("roman")
    with pytest.raises(RubricError, match="`below`"):
        checks.number_style("words", below=0)


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("Hi Jo,\n\nSee you Monday.\n\nKind regards,\nAlex Chen\nHead of Sales", True),
        ("Thanks again, Priya", True),
        ("All the best!", True),
        ("Hi Jo,\n\nThank you for your help with the move.", False),
        ("Hi Jo,\n\nBest of luck with the new job.", False),
    ],
)
def test_has_sign_off(text: str, passed: bool) -> None:
    assert checks.has_sign_off()(text)[0] is passed


def test_has_sign_off_with_a_phrase_takes_whole_lines_and_a_name_after() -> None:
    assert checks.has_sign_off("Best")("See you soon.\n\nBest,\nLeo")[0]
    assert not checks.has_sign_off("Best")("See you soon.\n\nBest wishes,\nLeo")[0]
    assert checks.has_sign_off("Cheers, Alex")("Bye for now.\n\nCheers,\nAlex")[0]
    assert not checks.has_sign_off("Cheers, Alex")("See you there!")[0]
    with pytest.raises(RubricError, match="`phrase` must not be blank"):
        checks.has_sign_off("  ")


@pytest.mark.parametrize(
    ("text", "phrase", "passed"),
    [
        ("See you Monday.\n\nKind regards,\nMaya Osei", "Kind regards,", True),
        ("See you Monday.\n\nKind regards,", "Kind regards,", False),
        ("See you Monday.\n\nKind regards,\n[Your name]", "Kind regards,", True),  # its slot
        ("See you Monday.\n\nThanks, Sam", None, True),  # the name on the closing's line
        ("See you Monday.\n\nCheers!", None, False),
        ("Could we meet Tuesday instead?\n\nThanks for your patience,\nDaniel", None, True),
    ],
)
def test_has_sign_off_named_needs_a_name_after_the_closing(
    text: str, phrase: str | None, passed: bool
) -> None:
    assert checks.has_sign_off(phrase, named=True)(text)[0] is passed


def test_has_sign_off_takes_a_short_line_ending_in_a_comma_over_a_name() -> None:
    letter = "Could we meet Tuesday instead?\n\nThanks for your flexibility,\nDaniel"
    assert checks.has_sign_off()(letter)[0]
    assert not checks.has_sign_off()("Here is the plan, in short,\nwe ship Monday.")[0]


@pytest.mark.parametrize(
    ("kind", "text", "passed"),
    [
        ("question", "Ever wondered why? Here is the answer.", True),
        ("question", "Why Tea Matters\n\nHave you ever tried it? It is good.", True),
        ("question", "Tea is good. Is it?", False),
        ("greeting", "Hello team,\n\nThe build is green.", True),
        ("greeting", "The build is green.\n\nHi!", False),
    ],
)
def test_opens_with(kind: str, text: str, passed: bool) -> None:
    assert checks.opens_with(kind)(text)[0] is passed


def test_heading_case_takes_a_lone_headline_as_the_title() -> None:
    assert checks.heading_case("title")("Seven Habits of Calm Cooks")[0]
    assert not checks.heading_case("title")("Seven habits of calm cooks")[0]
    long_line = " ".join(["word"] * 25)
    assert not checks.heading_case("lower")(long_line)[0]  # a paragraph is no title
    assert not checks.heading_case("sentence")("The cat sat on the mat.")[0]  # nor a sentence


# --- a part of the text --------------------------------------------------------------------

LETTER = (
    "Subject: Your order has shipped 📦\n\nHi Dana,\n\nYour parcel left our warehouse today. "
    "It should arrive on Thursday.\n\nTrack it any time from your account page. Questions? Just "
    "reply to this e-mail.\n\nKind regards,\nThe Shop team"
)


@pytest.mark.parametrize(
    ("part", "expected"),
    [
        ("subject", "Your order has shipped 📦"),
        ("first_line", "Subject: Your order has shipped 📦"),
        ("last_line", "The Shop team"),
        # a letter's subject, greeting and sign-off are not its opening and closing paragraphs
        ("first_paragraph", "Your parcel left our warehouse today. It should arrive on Thursday."),
        (
            "last_paragraph",
            "Track it any time from your account page. Questions? Just reply to this e-mail.",
        ),
        ("first_sentence", "Subject: Your order has shipped 📦"),
        # the body: between the greeting and the sign-off
        (
            "body",
            "Your parcel left our warehouse today. It should arrive on Thursday. Track it any "
            "time from your account page. Questions? Just reply to this e-mail.",
        ),
    ],
)
def test_the_parts_a_rule_can_be_about(part: str, expected: str) -> None:
    from rubricate.checks._units import part_text

    assert " ".join((part_text(LETTER, part) or "").split()) == expected


def test_within_applies_its_check_to_the_part_only() -> None:
    subject = checks.within("subject", checks.emoji_count(exactly=0))
    assert run(subject, LETTER) == (
        False,
        "the subject line 'Your order has shipped 📦' has 1 emoji, needs exactly 0 (first: 📦)",
    )
    closing = checks.within("last_paragraph", checks.word_count(at_most=20))
    assert closing(LETTER)[0] and not checks.word_count(at_most=20)(LETTER)[0]
    title = checks.within("title", checks.ends_with_punctuation("?"))
    assert title("# Why Do Tides Turn?\n\nThe moon pulls the sea.")[0]
    assert title("Why Do Tides Turn?")[0]  # a headline alone is its own title
    # No title: checked as empty text, so a limit holds and a requirement does not.
    assert run(title, "The moon pulls the sea. It turns twice a day.")[1].startswith("has no title")
    assert not title("The moon pulls the sea. It turns twice a day.")[0]
    assert checks.within("title", checks.emoji_count(exactly=0))("No title here. At all.")[0]


def test_a_csv_header_stands_though_a_row_is_ragged() -> None:
    data = "date,item,amount\n2025-05-02,Train,64.50\n2025-05-03,Dinner, Pizza Express,48.20\n"
    data += "2025-05-03,Taxi,14.00"
    assert checks.table_header(case="lower")(data)[0]
    assert not checks.table_header(case="title")(data)[0]
    assert not checks.table_header(case="lower")("Hi, Ana.\nThanks, again, Ben.")[0]


def test_a_letters_body_starts_under_its_greeting_and_a_memos_under_its_header() -> None:
    from rubricate.checks._units import part_text

    letter = (
        "14 April 2025\n\nCustomer Relations\nPO Box 4410\n\nDear Sir or Madam,\n\n"
        "Re: Account 7718\n\nI am writing about my bill.\n\nPlease refund it.\n\n"
        "Yours faithfully,\n\nClaire Dunn"
    )
    assert part_text(letter, "body") == "I am writing about my bill.\n\nPlease refund it."
    memo = "MEMO\n\nTo: All staff\nFrom: Facilities\nSubject: Desks\n\nClear your desk.\n\nLock it."
    assert part_text(memo, "body") == "Clear your desk.\n\nLock it."


def test_a_sign_off_is_a_closing_over_a_name_not_a_stanza() -> None:
    from rubricate.checks._units import part_text

    letter = "Hello friends,\n\nA.\n\nB.\n\nHappy planting,\nThe Greenleaf Team"
    assert part_text(letter, "body") == "A.\n\nB."
    # a closing alone, a blank line, then the name and role
    formal = "To Whom It May Concern:\n\nA.\n\nB.\n\nSincerely,\n\nDr. Helen Marsh\nSenior Engineer"
    assert part_text(formal, "body") == "A.\n\nB."
    poem = "Night Walk\n\nThe moon is high,\nthe road is long\n\nAnd so I go,\nInto the night"
    assert part_text(poem, "body") == (
        "The moon is high,\nthe road is long\n\nAnd so I go,\nInto the night"
    )


def test_the_body_leaves_out_a_headline_and_a_postscript() -> None:
    body = checks.within("body", checks.paragraph_count(exactly=2))
    assert run(body, LETTER)[0]
    assert body(LETTER + "\n\nP.S. Free returns until May.")[0]
    assert checks.within("body", checks.word_count(at_most=6))(
        "Big Sale Today\n\nHalf price until Sunday."
    )[0]


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("Sun on the hill\nPetals\nRain\nIvy\nNests\nGreen", True),
        ("sun\npetals\n\nrain\nivy\n\nnests\ngreen", True),  # stanza breaks, any case
        ("# Spring\n\nSun\nPetals\nRain\nIvy\nNests\nGreen", True),  # a title is no line
        ('**S**un\n- Petals\n> Rain\n1. Ivy\n"Nests"\nGreen', True),  # marks passed over
        ("Sun\nPetals\nRain\nIvy\nNests\nEvery branch is green", False),  # SPRINE
        ("Sun\nPetals\nRain\nIvy\nNests", False),  # a letter short
        ("", False),
    ],
)
def test_acrostic(text: str, passed: bool) -> None:
    assert checks.acrostic("SPRING")(text)[0] is passed


def test_acrostic_findings_and_errors() -> None:
    poem = "Rooftops drumming\nAll night\nIn the morning\nNothing left"
    assert run(checks.acrostic("RAIN"), poem) == (True, "the lines' first letters spell 'RAIN'")
    assert run(checks.acrostic("rain"), poem)[0]
    assert run(checks.acrostic("HAPPY DAY"), "H\nA\nP\nP\nY\nD\nA\nY")[0]
    assert run(checks.acrostic("RAINY"), poem) == (
        False,
        "the lines' first letters spell 'RAIN', need 'RAINY'",
    )
    with pytest.raises(RubricError, match="acrostic: `word` needs a letter"):
        checks.acrostic("123")


@pytest.mark.parametrize(
    ("text", "at_end", "own_line"),
    [
        ("Spring is here! 🌸 #spring #flowers", True, False),
        ("Spring is here!\n\n#spring #flowers 🌷", True, True),
        ("Spring is here! #spring and #flowers everywhere", False, False),
        ("#spring starts today. Enjoy!", False, False),
        ("Love this #spring day.\n#sun", False, False),  # one in the text, one at the end
        ("No tags here.", True, True),  # nothing out of place; a count asks for some
        ("Run it:\n```\n#include <x>\n```\nDone.\n#c", True, True),  # code holds none
    ],
)
def test_hashtags_at_end(text: str, at_end: bool, own_line: bool) -> None:
    assert checks.hashtags_at_end()(text)[0] is at_end
    assert checks.hashtags_at_end(own_line=True)(text)[0] is own_line


def test_hashtags_at_end_findings() -> None:
    assert run(checks.hashtags_at_end(), "Hi there #a #b") == (
        True,
        "its 2 hashtags close the text: #a #b",
    )
    assert run(checks.hashtags_at_end(own_line=True), "Hi there.\n#a") == (
        True,
        "its one hashtag sits on its own line: #a",
    )
    assert run(checks.hashtags_at_end(), "Love this #spring day. #sun") == (
        False,
        "has #spring before its last words ('Love this #spring day. #sun')",
    )
    assert run(checks.hashtags_at_end(own_line=True), "Hi there #a") == (
        False,
        "its hashtags share a line with other words: 'Hi there #a'",
    )


def test_the_text_without_its_hashtags() -> None:
    from rubricate.checks._units import part_text

    caption = "Fresh bread, warm from the oven! #bakery\n\nCome early.\n\n#sourdough #local"
    assert part_text(caption, "without_hashtags") == (
        "Fresh bread, warm from the oven!\n\nCome early."
    )
    words = checks.within("without_hashtags", checks.word_count(at_most=8))
    assert words(caption)[0] and not checks.word_count(at_most=8)(caption)[0]
    question = checks.within("without_hashtags", checks.ends_with_punctuation("?"))
    assert question("Who wants a slice? #pie #baking")[0]
    assert checks.within("without_hashtags", checks.word_count(at_most=0))("#only #tags")[0]


def test_the_prose_is_the_text_outside_its_code_blocks() -> None:
    from rubricate.checks._units import part_text

    answer = (
        "Use a list comprehension:\n\n```python\nsquares = [n * n for n in range(10)]\n"
        "print(squares)\n```\n\nIt builds the list in one pass."
    )
    prose = checks.within("prose", checks.word_count(at_most=12))
    passed, finding = run(prose, answer)
    assert passed and finding.startswith("the text outside the code 'Use a list comprehension:")
    assert finding.endswith("has 11 words, needs at most 12")
    assert part_text(answer, "prose") == (
        "Use a list comprehension:\n\nIt builds the list in one pass."
    )
    assert not checks.word_count(at_most=12)(answer)[0]  # the code's words count there
    assert prose("No code here, only a few words.")[0]  # without code, the prose is the text
    assert not checks.within("prose", checks.word_count(at_least=1))("```\nx = 1\n```")[0]


def test_within_reads_and_writes_its_rubric_forms() -> None:
    check = checks.within("subject", checks.character_count(at_most=50))
    assert check.__name__ == "character_count(at_most=50) in the subject line"
    assert check.to_spec() == {
        "within": "subject",
        "check": {"name": "character_count", "at_most": 50},
    }
    assert checks.from_spec(check.to_spec()) == check
    rubric = Rubric.parse(
        "- Short subject {check: {within: subject, check: {name: character_count, at_most: 50}}}"
    )
    assert rubric.criteria[0].check == check
    assert Rubric.parse(rubric.to_text()).criteria[0].check == check
    with pytest.raises(RubricError, match="`part` must be one of") as bad_part:
        checks.from_spec({"within": "footer", "check": "no_commas"})
    assert bad_part.value.field == "part"
    with pytest.raises(RubricError, match="needs a bound") as bad_check:
        checks.from_spec({"within": "title", "check": {"name": "word_count"}})
    assert bad_check.value.field == "check"
    with pytest.raises(RubricError, match="`within` takes the part and the check"):
        checks.from_spec({"within": "title"})


TIPS = "Sleep tips\n\nHere are three tips:\n- Dim the lights.\n- Skip late coffee.\n- Wake at seven"


def test_each_applies_its_check_to_every_unit_and_names_the_first_that_fails() -> None:
    period = checks.each("item", checks.ends_with_punctuation("."))
    assert run(period, TIPS) == (
        False,
        "list item 3 of 3, 'Wake at seven', ends with 'Wake at seven', needs to end with '.'",
    )
    assert run(period, TIPS + ".") == (
        True,
        "all 3 list items pass ends_with_punctuation(mark='.')",
    )
    # Presumes the pieces: no list, no list item passes.
    assert run(period, "Dim the lights. Skip late coffee.") == (False, "has no list item")
    stanza = checks.each("paragraph", checks.line_count(exactly=2))
    assert stanza("Roses are red\nviolets blue\n\nsugar is sweet\nand so are you")[0]
    assert not stanza("Roses are red\nviolets blue\n\nsugar is sweet")[0]
    short = checks.each("sentence", checks.word_count(at_most=3))
    assert short("Dim the lights. Skip coffee.")[0] and not short("Dim all the lights.")[0]


def test_an_entry_is_a_list_item_or_else_a_line_that_is_not_a_title_or_lead_in() -> None:
    brief = checks.each("entry", checks.word_count(at_most=3))
    assert brief(TIPS)[0]  # the list items; the title and the lead-in line are no entries
    unlisted = "Sleep tips\n\nHere are three tips:\nDim the lights.\nSkip late coffee."
    assert brief(unlisted)[0]
    assert run(brief, unlisted + "\nWake at seven every day.")[1].startswith(
        "entry 3 of 3, 'Wake at seven every day.', has 5 words"
    )


RECIPE = (
    "Tomato pasta\n\nIngredients:\n- spaghetti\n- olive oil\n  - extra virgin\n- basil\n\n"
    "Steps:\n1. Boil the pasta.\n2. Toss it in the oil."
)


def test_entry_count_counts_top_level_items_or_lines_or_sentences() -> None:
    assert run(checks.entry_count(exactly=5), RECIPE) == (
        True,
        "has 5 entries, needs exactly 5",  # the nested "extra virgin" is a detail
    )
    assert checks.entry_count(exactly=3)("Tips\n\nHere are three:\nSleep.\n\nDrink.\nWalk.")[0]
    assert checks.entry_count(exactly=3)("Sleep early. Drink water. Walk daily.")[0]


def test_starts_with_reads_an_email_after_its_header_lines() -> None:
    email = "Subject: Lunch on Friday\nTo: Sam\n\nHi Sam,\n\nThanks for the invite."
    assert run(checks.starts_with("Hi Sam,"), email) == (
        True,
        "starts with 'Hi Sam,' after its header lines",
    )
    assert checks.starts_with("Thanks")(email)[0]  # after the header and the greeting
    assert checks.starts_with("Subject:")(email)[0]  # the header itself, when asked
    assert not checks.starts_with("Hi Sam,")("Lunch on Friday\n\nHi Sam,")[0]  # no header


def test_heading_case_of_the_section_headings_leaves_the_title_out() -> None:
    sections = checks.heading_case("upper", skip_title=True)
    notes = "# Patch 1.12\n\n## BALANCE\n- Mage nerfed\n\n## BUG FIXES\n- Fixed falling"
    assert run(sections, notes) == (True, "has every 2 section headings in upper case")
    assert not checks.heading_case("upper")(notes)[0]  # the title counts there
    assert not sections(notes.replace("## BUG FIXES", "## Bug fixes"))[0]
    with pytest.raises(CheckUndecided, match="no Markdown section heading"):
        sections("Patch 1.12\n\nBALANCE\n- Mage nerfed")


def test_a_named_list_is_the_one_so_labelled_else_the_only_list() -> None:
    pros = checks.within("list:pros", checks.bullet_count(at_most=2))
    labelled = "## Pros\n- light\n- cheap\n\n## Cons\n- loud\n- slow\n- hot"
    assert run(pros, labelled)[0]  # the three cons are another list's
    assert not pros("Worth it:\n- light\n- cheap\n- quiet")[0]  # the only list: three
    with pytest.raises(CheckUndecided, match="2 lists and labels none 'pros'"):
        pros("Good:\n- light\n\nBad:\n- loud\n- slow\n- hot")
    assert pros("Light and cheap, though loud.")[0]  # no list: no bullets in it


def test_number_count_counts_digits_and_leaves_numbers_in_words_to_the_judge() -> None:
    each = checks.each("item", checks.number_count(at_least=1))
    assert run(each, "- Cut costs by 12%\n- Hired 3 engineers") == (
        True,
        "all 2 list items pass number_count(at_least=1)",
    )
    assert not each("1. Cut costs by 12%\n2. Hired engineers")[0]  # "2." marks the item
    with pytest.raises(CheckUndecided, match="'five' in words"):
        each("- Cut costs by 12%\n- Opened five stores")
    assert checks.number_count(in_digits=True, exactly=0)("Opened five stores, H2O on tap.")[0]
    assert not checks.number_count(exactly=0)("Opened 5 stores.")[0]


def test_opens_with_a_bold_label_needs_the_colon_inside_or_right_after_the_bold() -> None:
    label = checks.opens_with("bold_label")
    assert run(label, "- **Cost:** $40") == (True, "opens with the bold label 'Cost' and a colon")
    assert label("**Cost**: $40")[0]
    assert run(label, "- **Cost** is $40") == (
        False,
        "opens with 'Cost' in bold, with no colon after it",
    )
    assert not label("Cost: $40")[0]


def test_entry_count_counts_a_row_of_bracketed_quick_replies() -> None:
    reply = "Sure, I can help. Is it for this order?\n\n[This order] [Future orders] [Both]"
    assert run(checks.entry_count(noun="quick replies", at_least=2, at_most=4), reply) == (
        True,
        "has 3 entries (quick replies), needs at least 2 and at most 4",
    )
    assert not checks.entry_count(exactly=2)(reply + " [Cancel]")[0]


def test_entry_count_of_a_noun_in_one_paragraph_is_left_to_the_judge() -> None:
    """A headline read aloud may take two sentences: the count lies between one and six."""
    briefing = (
        "First, rates held. Inflation is slow. Second, a tram line. It opens soon. Third, a win."
    )
    with pytest.raises(CheckUndecided, match="which sentences make one headlines"):
        checks.entry_count(exactly=3, noun="headlines")(briefing)
    assert not checks.entry_count(more_than=5, noun="headlines")(briefing)[0]  # at most five


def test_heading_names_leaves_a_name_on_a_line_of_its_own_to_the_judge() -> None:
    listing = "Sunny Flat by the River\n\nThe space\nA bright flat.\n\nGuest access\nAll yours."
    ordered = checks.heading_names(["The space", "Guest access"], ordered=True)
    with pytest.raises(CheckUndecided, match="a line reads 'The space'"):
        ordered(listing)
    assert not ordered("## Guest access\n\nAll yours.")[0]  # named nowhere: no such heading


def test_opens_with_bold_reads_past_a_list_marker() -> None:
    assert checks.opens_with("bold")("1. **Preheat** the oven.")[0]
    assert checks.opens_with("bold")("__Owner__: Sam")[0]
    assert not checks.opens_with("bold")("Preheat the **oven**.")[0]
    assert not checks.opens_with("bold")("** not bold** here")[0]


@pytest.mark.parametrize(
    ("case", "text", "passed"),
    [
        ("snake", '{"order_id": 7, "items": [{"sku_code": "A1", "qty": 2}]}', True),
        ("snake", '{"order_id": 7, "items": [{"skuCode": "A1"}]}', False),  # nested too
        ("camel", 'Here it is:\n\n```json\n{"orderId": 7, "total": 3}\n```', True),
        ("camel", '{"order_id": 7}', False),
        ("pascal", '{"OrderId": 7, "Total": 3}', True),
        ("kebab", "```yaml\nlog-level: info\nmax-files: 7\n```", True),
        ("upper_snake", "DB_HOST: db\nDB_PORT: 5432\nmode: prod", False),  # bare YAML
    ],
)
def test_key_case_reads_every_key_of_the_json_or_yaml(case: str, text: str, passed: bool) -> None:
    assert checks.key_case(case).test(text)[0] is passed


def test_key_case_leaves_a_text_without_data_to_the_judge() -> None:
    with pytest.raises(CheckUndecided, match="no JSON or YAML object"):
        checks.key_case("snake").test("Name: Sam is our new hire.\nShe starts Monday.")
    with pytest.raises(RubricError, match="must be one of snake, camel"):
        checks.key_case("screaming")


def test_entry_count_counts_a_tables_rows_and_a_list_written_with_commas() -> None:
    menu = "| Dish | Price |\n|---|---|\n| Soup | 6 |\n| Salad | 7 |\n| Tart | 5 |\n\nEnjoy!"
    assert checks.entry_count(exactly=3)(menu)[0]  # the rows, not the closing line
    assert checks.entry_count(exactly=5)("milk, rye bread, two lemons, olive oil, basil")[0]
    # A sentence whose clauses hold commas is one entry, not a list.
    assert checks.entry_count(exactly=1)(
        "Preheat the oven, grease a tin, then bake the batter for forty minutes until golden."
    )[0]


def test_entry_count_with_a_noun_counts_the_list_its_label_names() -> None:
    assert run(checks.entry_count(exactly=3, noun="ingredients"), RECIPE) == (
        True,
        "has 3 entries (ingredients), needs exactly 3",
    )
    assert checks.entry_count(exactly=2, noun="steps")(RECIPE)[0]
    # No list named: every list counts.
    assert checks.entry_count(exactly=5, noun="tips")(RECIPE)[0]
    with pytest.raises(RubricError, match="`noun` must be a word") as bad:
        checks.entry_count(exactly=2, noun="  ")
    assert bad.value.field == "noun"


def test_each_reads_and_writes_its_rubric_forms() -> None:
    check = checks.each("items", checks.starts_with("They"))
    assert check.unit == "item" and check.part == ""
    assert check.__name__ == "starts_with(phrase='They') in every list item"
    assert check.to_spec() == {"each": "item", "check": {"name": "starts_with", "phrase": "They"}}
    assert checks.from_spec(check.to_spec()) == check
    rubric = Rubric.parse(
        "- Bullets open with They {check: {each: item, check: {name: starts_with, phrase: They}}}"
    )
    assert rubric.criteria[0].check == check
    assert Rubric.parse(rubric.to_text()).criteria[0].check == check
    with pytest.raises(RubricError, match="`unit` must be one of") as bad_unit:
        checks.from_spec({"each": "word", "check": "no_commas"})
    assert bad_unit.value.field == "unit"
    with pytest.raises(RubricError, match="`each` takes the unit and the check"):
        checks.from_spec({"each": "line"})


def test_opens_with_a_capital_letter_looks_past_marks_quotes_and_digits() -> None:
    capital = checks.opens_with("capital")
    assert run(capital, "- **Drink** water") == (
        True,
        "opens with the capital 'D': '- **Drink** water'",
    )
    assert run(capital, '1. "quiet" nights') == (
        False,
        "opens with the lowercase 'q': '1. \"quiet\" nights', needs a capital letter",
    )
    assert not capital("")[0] and capital("Élan")[0]


def test_embedded_json_is_the_json_a_text_holds() -> None:
    config = 'Here is the config:\n\n```json\n{"level": "info"}\n```\n\nRestart after.'
    embedded = checks.valid_json(embedded=True)
    assert run(embedded, config) == (True, "its JSON code block parses")
    assert not checks.valid_json()(config)[0]  # "valid JSON" asks that the text be JSON
    broken = config.replace('"info"}', '"info",}')
    assert run(embedded, broken)[1].startswith("JSON block 1 of 1 is not valid JSON")
    assert run(embedded, '{"a": 1}') == (True, "is valid JSON (an object)")
    untagged = "Two arrays:\n```\n[1, 2]\n```\nand\n```\n[3,]\n```"
    assert run(embedded, untagged) == (
        False,
        "JSON block 2 of 2 is not valid JSON: Expecting value (line 1, column 4)",
    )
    assert run(embedded, "No JSON, only `code`.") == (
        False,
        "holds no JSON: neither the whole text nor a JSON code block",
    )


def test_a_section_is_what_the_text_says_under_its_heading_or_label() -> None:
    report = (
        "# Bug 142\n\n## Summary\nExport fails. It hangs.\n\n## Steps\n1. Open\n2. Click\n\n"
        "```yaml\nkey: value\n```\n\n**Notes:** none really.\nSecond line."
    )
    summary = checks.within("section:Summary", checks.sentence_count(at_most=2))
    assert run(summary, report) == (
        True,
        "the Summary section 'Export fails. It hangs.' has 2 sentences, needs at most 2",
    )
    # a label in a code block is code; the section runs to the next heading or label
    assert checks.within("section:steps", checks.numbered_count(exactly=2))(report)[0]
    notes = checks.within("Section: Notes", checks.sentence_count(at_most=1))
    assert run(notes, report)[1].startswith("the Notes section 'none really.")
    assert run(checks.within("section:Fix", checks.word_count(at_most=5)), report) == (
        False,
        "has no Fix section",
    )
    assert summary.to_spec() == {
        "within": "section:Summary",
        "check": {"name": "sentence_count", "at_most": 2},
    }
    with pytest.raises(RubricError, match="needs the section's name"):
        checks.within("section: ", checks.word_count(at_most=5))


def test_an_ending_is_read_past_the_emojis_after_it() -> None:
    question = checks.ends_with_punctuation("?")
    assert run(question, "What would you like to do today? 🙂") == (
        True,
        "ends with '?': 'What would you like to do today?'",
    )
    assert not question("Fun! 🎉🎉")[0]


def test_a_first_paragraph_is_no_heading_on_top() -> None:
    report = "## Executive Summary\n\nChurn rose. Two causes.\n\nMore text."
    first = checks.within("first_paragraph", checks.sentence_count(exactly=1))
    assert not first(report)[0]  # "Churn rose. Two causes." has two sentences


def test_with_warm_wishes_is_a_sign_off_over_any_name() -> None:
    card = (
        "Dear Mrs Patel,\n\nThank you.\n\nWe noticed.\n\nHave a good summer.\n\n"
        "With warm wishes,\nSarah and James (Leo's parents)"
    )
    assert run(checks.within("body", checks.paragraph_count(at_most=3)), card)[0]


def test_a_title_on_top_is_no_paragraph_or_stanza() -> None:
    poem = (
        "**Autumn Rain**\n\nleaves fall\nslowly down\nto the ground\n\nrain comes\nsoft\nand cold"
    )
    assert run(checks.paragraph_count(exactly=2), poem) == (
        True,
        "has 2 paragraphs, needs exactly 2",
    )
    assert checks.each("paragraph", checks.line_count(exactly=3))(poem)[0]
    essay = "# Why sleep matters\n\nFirst point.\n\nSecond point."
    assert checks.paragraph_count(exactly=2)(essay)[0]
    # a separator still counts what it separates, title and all (IFEval's rule)
    assert checks.paragraph_count(separator="***", exactly=2)("<<T>>\n\nOne.\n***\nTwo.")[0]
    # a lone heading is the text's one paragraph
    assert checks.paragraph_count(exactly=1)("# Only a heading")[0]


def test_opens_with_a_lowercase_letter_is_the_other_side_of_a_capital() -> None:
    lowercase = checks.opens_with("lowercase")
    assert run(lowercase, "- **drink** water") == (
        True,
        "opens with the lowercase 'd': '- **drink** water'",
    )
    assert run(lowercase, "2. Quiet nights") == (
        False,
        "opens with the capital 'Q': '2. Quiet nights', needs a lowercase letter",
    )
    assert run(lowercase, "42") == (False, "opens with no letter: '42', needs a lowercase letter")
    bullets = checks.each("item", lowercase)
    assert bullets("- sleep more\n- drink water")[0]
    assert not bullets("- sleep more\n- Drink water")[0]


def test_nothing_but_and_opening_with_a_list_table_or_code() -> None:
    listed = "- one\n- two\n  more of two\n1. three"
    assert run(checks.nothing_but("list"), listed) == (True, "is nothing but the list")
    assert run(checks.nothing_but("list"), "Here you go:\n" + listed) == (
        False,
        "has 'Here you go:' outside the list",
    )
    assert run(checks.nothing_but("list"), "Plain prose.") == (False, "has no list")
    table = "| a | b |\n|---|---|\n| 1 | 2 |"
    assert checks.nothing_but("table")(table)[0]
    assert not checks.nothing_but("table")(table + "\n\nNote: rounded.")[0]
    assert checks.nothing_but("code")("```py\nx = 1\n```")[0]
    opens = checks.opens_with("list")
    assert run(opens, "Here you go:\n" + listed) == (
        False,
        "opens with 'Here you go:' before any list",
    )
    assert opens(listed + "\n\nHope this helps!")[0]  # only the opening is asked about
    with pytest.raises(RubricError, match="`kind` must be 'list', 'table' or 'code'"):
        checks.nothing_but("prose")


def test_a_bold_title_is_written_in_bold() -> None:
    bold = checks.has_title(bold=True)
    assert run(bold, "**Spring**\n\nRain on the roof.") == (
        True,
        "has the title '**Spring**' in bold",
    )
    assert bold("# **Spring**\n\nRain on the roof.")[0]
    assert run(bold, "# Spring\n\nRain on the roof.") == (
        False,
        "has the title '# Spring', not in bold: write it as **Title**",
    )
    assert not bold("Rain on the roof\nall night long")[0]


@pytest.mark.parametrize(
    ("part", "text", "finding"),
    [
        (
            "subject",
            "Fix login loop\n\nThe token expired.",
            "has a blank line after the subject line",
        ),
        ("subject", "Fix login loop\nThe token expired.", "has 'The token expired.' right after"),
        ("subject", "Draft:\nSubject: Heater\n\nHi Ana,", "has a blank line after the subject"),
        (
            "greeting",
            "Subject: Heater\n\nHi Ana,\nThe heater broke.",
            "has 'The heater broke.' right",
        ),
        ("greeting", "The heater broke.", "has no greeting line"),
        ("first_line", "Only a line", "has nothing after the first line"),
    ],
)
def test_blank_line_after(part: str, text: str, finding: str) -> None:
    passed, found = checks.blank_line_after(part)(text)
    assert found.startswith(finding) and passed is finding.startswith("has a blank"), found


@pytest.mark.parametrize(
    ("text", "descending", "passed"),
    [
        ("- **1969** – Apollo 11\n- 1971-04-19 – Salyut 1\n- March 1981 – Shuttle", False, True),
        ("- *Nudge* (2008)\n- *Noise* (2021)\n- *Irrational* (2008)", False, False),
        (
            "| Date | Event |\n|---|---|\n| 2 June 2023 | late |\n| 19 July 2023 | notice |",
            False,
            True,
        ),
        ("[14:20 UTC] Investigating\n[14:45 UTC] Identified\n[3:05 pm UTC] Fixed", False, True),
        ("- v2.0, May 4, 2024\n- v1.9, 1st March 2024\n- v1.8 (2023)", True, True),
        ("- 9:00 coffee\n- 8:30 standup", False, False),
    ],
)
def test_chronological(text: str, descending: bool, passed: bool) -> None:
    assert checks.chronological(descending=descending)(text)[0] is passed, text


def test_chronological_leaves_an_undated_entry_to_the_judge() -> None:
    with pytest.raises(CheckUndecided, match="entry 'Midday: sunny' holds no date or time"):
        checks.chronological()("- Start (7:00): cold\n- Midday: sunny")
    with pytest.raises(CheckUndecided, match="dated and others hold only a time"):
        checks.chronological()("- 2024-05-01 launch\n- 14:00 review")
    assert run(checks.chronological(), "- 1961 Kennedy\n- 1957 Sputnik") == (
        False,
        "has '1957 Sputnik' after '1961 Kennedy'",
    )


def test_alphabetical_compares_entries_case_accents_marks_and_articles_aside() -> None:
    assert run(checks.alphabetical(), "- Banana\n- apple") == (False, "has 'apple' after 'Banana'")
    ordered = "Fruit\n\n- apple\n- **Banana**\n- The Cherry\n- Éclair"
    assert run(checks.alphabetical(), ordered) == (True, "has its 4 entries in order, A to Z")
    assert checks.alphabetical(descending=True)("Zed\nAbe")[0]
    with pytest.raises(CheckUndecided, match="one entry"):  # not what a reader would sort
        checks.alphabetical()("1. Definitions\n\n   1.1 Zeta means...\n   1.2 Alpha means...")


def test_time_format_with_two_digit_hours() -> None:
    padded = checks.time_format(24, two_digit_hours=True)
    assert run(padded, "09:00 Welcome\n2:00 Panel") == (
        False,
        "has the time '2:00', needs a two-digit hour",
    )
    assert padded("09:00 Welcome\n14:00 Panel")[0]
    assert checks.time_format(24)("09:00 Welcome\n2:00 Panel")[0]


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        ("Coffee $3.50, tea $2.", True),
        ("Total: 12,50 € per person", True),
        ("Coffee 3.50, tea $2.", False),  # two decimals and no unit: a price without a symbol
        ("It costs 12 dollars.", False),
        ("EUR 40, paid at the door", False),
        ("Bake 20 minutes at 180°C with 3 eggs.", False),  # no money at all
        ("We meet at 12.30 and the ticket is $8.", True),  # a time is no price
        ("Add 1.25 kg of flour; the bag was £2.", True),  # nor a weight
    ],
)
def test_money_format_finds_amounts_of_money_and_their_symbols(text: str, passed: bool) -> None:
    assert checks.money_format()(text)[0] is passed


def test_money_format_with_a_symbol_and_decimals() -> None:
    dollars = checks.money_format("$", decimals=2)
    assert dollars("$3.50 and $1,250.00")[0]
    assert run(dollars, "$3.5 and $1,250.00") == (
        False,
        "has the amount '$3.5', needs 2 decimal places",
    )
    assert run(checks.money_format("€"), "€4 and $3") == (
        False,
        "has the amount '$3', needs the € symbol",
    )
    with pytest.raises(RubricError, match="`symbol` must be one of"):
        checks.money_format("USD")


def test_any_of_passes_when_one_option_does_and_reads_its_rubric_form() -> None:
    yes_or_no = checks.any_of(checks.starts_with("Yes"), checks.starts_with("No"))
    assert run(yes_or_no, "No, it ships on Monday.") == (True, "starts with 'No'")
    failed, finding = run(yes_or_no, "Maybe.")
    assert not failed and "'Yes'" in finding and "'No'" in finding
    assert yes_or_no.__name__ == "starts_with(phrase='Yes') or starts_with(phrase='No')"
    three = checks.any_of(yes_or_no, checks.starts_with("Maybe"))
    assert len(three.options) == 3  # alternatives nest flat
    assert checks.any_of(checks.no_commas()) == checks.no_commas()
    spec = {
        "any_of": [
            {"name": "starts_with", "phrase": "Yes"},
            {"name": "starts_with", "phrase": "No"},
        ]
    }
    assert yes_or_no.to_spec() == spec and checks.from_spec(spec) == yes_or_no
    rubric = Rubric.parse(
        "- Answer yes or no first {check: "
        + "{any_of: [{name: starts_with, phrase: 'Yes'}, {name: starts_with, phrase: 'No'}]}}"
    )
    assert rubric.criteria[0].check == yes_or_no
    assert Rubric.parse(rubric.to_text()).criteria[0].check == yes_or_no
    with pytest.raises(RubricError, match="`any_of` stands alone") as beside:
        checks.from_spec({"any_of": ["no_commas"], "name": "all_capitals"})
    assert beside.value.field == "name"
    with pytest.raises(RubricError, match="needs a bound") as bad:
        checks.from_spec({"any_of": ["no_commas", {"name": "word_count"}]})
    assert bad.value.field == "any_of[1]"


# --- negation -----------------------------------------------------------------------------


def test_negate_passes_when_its_check_fails_and_keeps_the_finding() -> None:
    check = checks.negate(checks.ends_with_punctuation("?"))
    assert check.__name__ == "not ends_with_punctuation(mark='?')"
    assert run(check, "Is it?") == (False, "ends with '?': 'Is it?'")
    assert check("It is.")[0]
    assert checks.negate(check) == checks.ends_with_punctuation("?")


def test_negate_reads_and_writes_its_rubric_forms() -> None:
    check = checks.negate(checks.has_title())
    assert check.to_spec() == {"not": {"name": "has_title"}}
    assert checks.from_spec({"not": {"name": "has_title"}}) == check
    rubric = Rubric.parse("- No title {check: {not: {name: has_title}}}")
    assert rubric.criteria[0].check == check
    assert Rubric.parse(rubric.to_text()).criteria[0].check == check
    with pytest.raises(RubricError, match="`not` stands alone"):
        checks.from_spec({"not": "has_title", "name": "x"})
