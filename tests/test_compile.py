"""Compiling criteria to catalogue checks (`Judge(compile_checks=True)`), with a fake judge model.

The fake answers the compile call as a provider's structured output would (a forced tool call
named after the schema), so everything from the prompt to the verdict's `decided_by` runs.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from langchain_core.messages import AIMessage, BaseMessage
from typer.testing import CliRunner

from rubricate import CompiledRubric, Judge, Rubric, checks, create_rubric_scorer
from rubricate._cli import create_app
from rubricate._judge._compile import _compiler as _compile
from rubricate._judge._compile._compiler import (
    MAX_PARTS,
    NAMES_NO_CHECK,
    SCHEMA_TITLE,
    CheckCompiler,
    mapping_schema,
    read_mapping,
)
from rubricate._judge._compile._grounding import (
    CUES,
    FLAG_CUES,
    contradicted,
    names_a_check,
    uncovered,
    ungrounded,
)
from rubricate._judge._compile._phrasing import ParsedCriterion
from rubricate._judge._retry import RetryPolicy
from rubricate._local._tool_calls import json_schema_grammar
from rubricate.checks._registry import describe
from rubricate.testing import ScriptedChatModel, joint_reply, tool_reply

FAST = RetryPolicy(max_retries=0, initial_delay=0, max_delay=0)


@pytest.fixture(autouse=True)
def model_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests drive the model's mapping: the phrase grammar reads nothing here.

    Criteria such as "at most 5 words" are read in code before any model call
    (`tests/test_phrasing.py`); switching that off keeps every mapping below the model's.
    """
    monkeypatch.setattr(_compile, "parse_criterion", lambda description: ParsedCriterion(None))


# One call at a time, so the scripted replies meet the criteria in order.
RUBRIC = "- The reply has at most 5 words\n- The reply mentions Paris"


def mapping(**check: Any) -> AIMessage:
    """The model's compile answer: `{"checks": [{...}]}` as a forced tool call."""
    return tool_reply(SCHEMA_TITLE, {"checks": [check]})


def mappings(*specs: dict[str, Any]) -> AIMessage:
    """A compile answer naming several checks."""
    return tool_reply(SCHEMA_TITLE, {"checks": list(specs)})


def none() -> AIMessage:
    return mapping(name="none")


def assert_problem(found: str | None, expected: str | None) -> None:
    """`found` is no problem when none is expected, else one that contains `expected`."""
    if expected is None:
        assert found is None
    else:
        assert found is not None and expected in found, found


def compile_prompts(model: ScriptedChatModel) -> list[str]:
    return [p for p in model.prompts() if "Checks:" in p]


def test_a_valid_mapping_is_decided_in_code_and_the_rest_by_the_judge() -> None:
    model = ScriptedChatModel(
        script=[mapping(name="word_count", at_most=5), none(), joint_reply(("C1", "pass", ""))]
    )
    judge = Judge(model, compile_checks=True, retry=FAST, max_concurrency=1)

    evaluation = judge.evaluate(RUBRIC, output="Paris is the capital of France, I think")

    short, paris = evaluation.criteria
    assert (short.decided_by, short.passed) == ("check", False)
    assert short.gap == "has 8 words, needs at most 5"
    assert (paris.decided_by, paris.passed) == ("judge", True)
    assert evaluation.result == "needs_revision"
    assert evaluation.usage.calls == 3  # two compile calls, one joint grading call
    # The judge's grading call lists only the criterion left to it.
    grading = model.prompts()[-1]
    assert "mentions Paris" in grading and "at most 5 words" not in grading


def test_the_mapping_is_cached_per_criterion_text() -> None:
    model = ScriptedChatModel(
        script=[
            mapping(name="word_count", at_most=5),
            none(),
            joint_reply(("C1", "pass", "")),
            joint_reply(("C1", "fail", "No Paris.")),
        ]
    )
    judge = Judge(model, compile_checks=True, retry=FAST, max_concurrency=1)
    judge.evaluate(RUBRIC, output="Paris, yes")
    second = judge.evaluate(RUBRIC, output="London")

    assert len(compile_prompts(model)) == 2  # none on the second evaluation
    assert second.usage.calls == 1
    assert [v.decided_by for v in second.criteria] == ["check", "judge"]
    assert judge.compile(RUBRIC).usage.calls == 0


def test_compile_shows_the_mapping() -> None:
    model = ScriptedChatModel(script=[mapping(name="word_count", at_most=5), none()])
    compiled = Judge(model, retry=FAST, max_concurrency=1).compile(RUBRIC)

    assert isinstance(compiled, CompiledRubric)
    assert [m.decided_by for m in compiled.mappings] == ["check", "judge"]
    assert compiled.compiled[0].check == checks.word_count(at_most=5)
    assert compiled.rubric.criteria[0].check == checks.word_count(at_most=5)
    assert compiled.rubric.criteria[1].check is None
    text = compiled.describe()
    assert text.splitlines()[0] == "1 of 2 criteria compiled to checks:"
    assert "word_count(at_most=5)" in text
    assert "judge (no check decides it exactly)" in text
    data = compiled.to_dict()
    assert data["criteria"][0]["check"] == {"name": "word_count", "at_most": 5}
    assert data["usage"]["calls"] == 2
    json.dumps(data)


def test_an_unknown_check_gets_one_correction_then_stays_with_the_judge() -> None:
    model = ScriptedChatModel(
        script=[mapping(name="word_counter", at_most=5), mapping(name="word_cont"), none()]
    )
    compiled = Judge(model, retry=FAST, max_concurrency=1).compile(RUBRIC)

    first = compiled.mappings[0]
    assert first.decided_by == "judge"
    assert first.reason.startswith("mapping rejected: unknown check 'word_cont'")
    correction = model.prompts()[1]
    assert "unknown check 'word_counter'" in correction
    assert "did you mean 'word_count'" in correction


def test_arguments_not_in_the_criterion_are_rejected_without_a_second_try() -> None:
    model = ScriptedChatModel(script=[mapping(name="keyword_count", keyword="Paris", at_least=1)])
    compiled = Judge(model, retry=FAST).compile("- The reply mentions Paris")

    (only,) = compiled.mappings
    assert only.decided_by == "judge"
    assert only.reason == "mapping rejected: the criterion does not state the number 1 (`at_least`)"
    assert len(model.calls) == 1


def test_invalid_arguments_are_rejected_with_the_catalogues_reason() -> None:
    model = ScriptedChatModel(
        script=[mapping(name="word_count", at_most=4, exactly=5), mapping(name="word_count")]
    )
    compiled = Judge(model, retry=FAST, max_concurrency=1).compile("- Exactly 5, at most 4 words")

    assert compiled.mappings[0].decided_by == "judge"
    assert "`exactly` cannot be combined with `at_most`" in model.prompts()[1]
    assert "needs a bound" in compiled.mappings[0].reason


def test_a_corrected_mapping_is_used() -> None:
    model = ScriptedChatModel(
        script=[mapping(name="no_comas"), mapping(name="no_commas"), joint_reply()]
    )
    evaluation = Judge(model, compile_checks=True, retry=FAST, max_concurrency=1).evaluate(
        "- Uses no commas", output="One, two"
    )
    (verdict,) = evaluation.criteria
    assert verdict.decided_by == "check"
    assert not verdict.passed and "comma" in verdict.gap


def test_a_criterion_with_several_rules_compiles_to_checks_that_must_all_pass() -> None:
    model = ScriptedChatModel(
        script=[mappings({"name": "word_count", "at_most": 3}, {"name": "no_commas"})]
    )
    judge = Judge(model, compile_checks=True, retry=FAST)

    compiled = judge.compile("- At most 3 words, and no commas")
    (mapped,) = compiled.mappings
    assert mapped.check == checks.all_of(checks.word_count(at_most=3), checks.no_commas())
    assert "-> word_count(at_most=3) and no_commas()" in compiled.describe()
    assert mapped.to_dict()["check"] == [
        {"name": "word_count", "at_most": 3},
        {"name": "no_commas"},
    ]

    (verdict,) = judge.evaluate("- At most 3 words, and no commas", output="Yes, two").criteria
    assert (verdict.decided_by, verdict.passed) == ("check", False)
    assert verdict.gap == "has 1 comma, first in 'Yes,'"
    assert len(model.calls) == 1  # cached, and nothing left for the judge


def test_none_beside_a_check_gets_a_correction_round() -> None:
    model = ScriptedChatModel(
        script=[
            mappings({"name": "paragraph_count", "exactly": 3}, {"name": "none"}),
            none(),
        ]
    )
    compiled = Judge(model, retry=FAST).compile("- Exactly 3 paragraphs in a warm tone")

    assert compiled.mappings[0].decided_by == "judge"
    assert compiled.mappings[0].reason == "no check decides it exactly"
    assert '"none" together with checks' in model.prompts()[1]


def test_criteria_with_their_own_check_are_not_sent_to_the_model() -> None:
    model = ScriptedChatModel(script=[none(), joint_reply(("C1", "pass", ""))])
    rubric = Rubric.parse("- Short {check: word_count, at_most: 3}\n- Polite in every sentence")
    compiled = Judge(model, retry=FAST, max_concurrency=1).compile(rubric)

    assert [m.source for m in compiled.mappings] == ["rubric", "judge"]
    assert len(model.calls) == 1


def test_a_judge_failure_leaves_criteria_to_the_judge_and_is_not_cached() -> None:
    model = ScriptedChatModel(
        script=[
            ValueError("bad request"),
            mapping(name="word_count", at_most=5),
            none(),
        ]
    )
    judge = Judge(model, max_concurrency=1, retry=FAST)
    failed = judge.compile(RUBRIC)
    assert [m.decided_by for m in failed.mappings] == ["judge", "judge"]
    assert all("the judge failed" in m.reason for m in failed.mappings)
    assert len(model.calls) == 1  # the second criterion was not tried after the failure

    again = judge.compile(RUBRIC)
    assert [m.decided_by for m in again.mappings] == ["check", "judge"]


def test_the_scorer_compiles_too() -> None:
    model = ScriptedChatModel(script=[mapping(name="no_commas")])
    scorer = create_rubric_scorer(model, "- Uses no commas", compile_checks=True)
    result = scorer.run(input="Count", output="one two three")
    assert result.passed
    assert result.evaluation.criteria[0].decided_by == "check"


# -- the answer shape and its validation ---------------------------------------------------------


def test_the_schema_names_every_check_and_none_and_makes_a_grammar() -> None:
    schema = mapping_schema()
    listed = schema["properties"]["checks"]
    assert (listed["minItems"], listed["maxItems"]) == (1, MAX_PARTS)
    branches = listed["items"]["anyOf"]
    names = [b["properties"]["name"]["const"] for b in branches]
    assert names == ["none", *checks.CATALOGUE]
    word_count = branches[names.index("word_count")]
    assert word_count["properties"]["at_most"] == {"type": "integer"}
    assert "less_than" not in word_count["properties"]  # one spelling of the synonym
    assert branches[names.index("keyword_count")]["required"] == ["name", "keyword"]
    grammar = json_schema_grammar(schema)
    assert '"\\"word_count\\""' in grammar and '"\\"none\\""' in grammar


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ({"checks": [{"name": "none"}]}, (None, None)),
        ({"checks": [{"name": "none"}, {"name": "none"}]}, (None, None)),
        ({"checks": [{"name": "word_count", "at_most": 5, "exactly": None}]}, "ok"),
        (
            {"checks": [{"name": "word_count", "at_most": 5}, {"name": "no_commas"}]},
            (checks.all_of(checks.word_count(at_most=5), checks.no_commas()), None),
        ),
        # Shapes a provider may return when it renames or flattens the wrapper.
        ({"check": {"name": "none"}}, (None, None)),
        ({"name": "no_commas"}, (checks.no_commas(), None)),
        ({"check": {"name": "word_count", "at_most": 5, "exactly": None}}, "ok"),
        ("not json", "expected"),
        ({"verdict": "pass"}, "expected"),
        ({"checks": []}, "expected"),
        ({"checks": ["no_commas"]}, "expected"),
        ({"checks": [{"name": "word_count", "at_most": "many"}]}, "expected an integer"),
        (
            {"checks": [{"name": "no_commas"}, {"name": "word_count", "at_most": "many"}]},
            "check 2: word_count: expected an integer",
        ),
        # Bounds that `exactly` implies are dropped; contradicting ones are not.
        ({"checks": [{"name": "word_count", "exactly": 5, "more_than": 1, "at_most": 9}]}, "five"),
        ({"checks": [{"name": "word_count", "exactly": 5, "more_than": 5}]}, "cannot be combined"),
        ({"checks": [{"name": "no_commas"}, {"name": "none"}]}, '"none" together with checks'),
    ],
)
def test_read_mapping(raw: Any, expected: Any) -> None:
    check, problem = read_mapping(raw, "At most 5 words, exactly 5 words, no commas")
    if expected == "ok":
        assert (check, problem) == (checks.word_count(at_most=5), None)
    elif expected == "five":
        assert (check, problem) == (checks.word_count(exactly=5), None)
    elif isinstance(expected, str):
        assert check is None and problem is not None and expected in problem
    else:
        assert (check, problem) == expected


@pytest.mark.parametrize(
    ("check", "description", "problem"),
    [
        (checks.word_count(at_most=300), "Under 300 words", None),
        (checks.word_count(at_most=1_000), "At most 1,000 words", None),
        (checks.sentence_count(exactly=3), "Exactly three sentences", None),
        (checks.keyword_count(keyword="war", at_least=2), "Says 'war' twice or more", None),
        (checks.ends_with(phrase="That is all."), "Ends with \u201cthat is all.\u201d", None),
        (checks.ends_with(phrase="Bye"), "The last word is Bye", None),
        (checks.keywords_present(["Budget", "deadline"]), "Uses budget and deadline", None),
        (checks.language(code="de"), "Written in German", None),
        (checks.starts_with(phrase="Dear", case_sensitive=True), "Opens with Dear", None),
        (checks.starts_with(phrase="door"), "The door was flung open", "starts_with"),
        (checks.ends_with(phrase="1945"), "The war came to an end in 1945", "ends_with"),
        (checks.word_count(at_least=1), "Mentions the treaty in a word", "the number 1"),
        (checks.keywords_present(["Obama"]), "Mentions that the president visited", "'Obama'"),
        (checks.one_of(["yes", "no", "maybe"]), "Answers 'yes' or 'no'", "'maybe'"),
        # The kind of check must be what the criterion talks about.
        (checks.word_count(at_least=5), "At least 5 paragraphs", "what word_count checks"),
        (checks.keywords_present(["maybe"]), "Never say 'maybe'", "keywords_present"),
        (checks.language("de"), "The mayor resigned", "what language checks"),
        (checks.one_of(["The mayor resigned"]), "The mayor resigned", "what one_of checks"),
        (checks.keywords_forbidden(["maybe"]), "Never say 'maybe'", None),
        (checks.keywords_forbidden(["maybe"]), "Don't say 'maybe'", None),
        (checks.no_commas(), "The tone is friendly", "what no_commas checks"),
        (checks.keywords_present(["new book"]), "Conveys that he has a new book", "keywords"),
        (checks.starts_with(phrase="Write a poem"), "First repeats 'Write a poem'", None),
        (checks.has_postscript(marker="P.P.S"), "Ends with a P.P.S postscript", None),
        (checks.has_postscript(marker="P.P.S."), "A postscript starting with 'P.P.S'", None),
        (checks.ends_with(phrase="Bye."), "Ends with 'Bye'", "'Bye.'"),
        (checks.starts_with(phrase="Why?"), "Begin by restating 'Why?'", None),
        (checks.part_count("###", exactly=2), "Two answers divided by ###", None),
        (checks.part_count("###", exactly=2), "Two answers, then ###", "part_count"),
        (checks.part_count("***", exactly=2), "Two answers split by ###", "'***'"),
        (checks.paragraph_starts_with(2, "So"), "The second paragraph starts with 'So'", None),
        (checks.paragraph_starts_with(3, "So"), "The second paragraph starts with 'So'", "3"),
        # Each part of a combined check is grounded on its own.
        (
            checks.all_of(checks.language("de"), checks.all_capitals()),
            "In German, all in capital letters",
            None,
        ),
        (
            checks.all_of(checks.all_capitals(), checks.word_count(at_most=50)),
            "In German, all in capital letters",
            "what word_count checks",
        ),
    ],
)
def test_arguments_must_come_from_the_criterion(
    check: checks.Check, description: str, problem: str | None
) -> None:
    assert_problem(ungrounded(check, description), problem)


@pytest.mark.parametrize(
    ("check", "description", "problem"),
    [
        # Which way a bound points is the criterion's, however the number is written.
        (checks.word_count(at_most=70), "Should be under 70 words", None),
        (checks.word_count(at_least=70), "Should be under 70 words", "at most 70"),
        (checks.sentence_count(at_least=2), "In 2 sentences or fewer", "at most 2"),
        (checks.sentence_count(at_most=2), "Two sentences max", None),
        (
            checks.table_size("rows", at_least=3),
            "Exactly three data rows in the table",
            "exactly 3",
        ),
        (checks.bullet_count(exactly=5), "No fewer than five bullets", "at least 5"),
        (checks.bullet_count(at_least=5), "No fewer than five bullets", None),
        (checks.word_count(more_than=40), "Don't go over 40 words", "at most 40"),
        (checks.bullet_count(exactly=5), "Use 5 bullets", None),  # no word says which way
        # A phrase that is the rule itself, not text the output should hold.
        (
            checks.starts_with(phrase="Mention the company name in the first sentence."),
            "Mention the company name in the first sentence.",
            "criterion's own words",
        ),
        (checks.starts_with(phrase="Dear team,"), "Start with 'Dear team,'", None),
        # A check that only finds something, on a criterion that rules it out.
        (checks.all_capitals(), "Avoid acronyms or words in all caps", "rules out"),
        (checks.has_title(), "Don't give it a title", "rules out"),
        (checks.all_capitals(), "Write it all in capital letters, no lowercase", None),
        (checks.language("fr"), "In French, not English", None),
        # The name of someone named by a role, not the role's word.
        (checks.keyword_count("groom", at_least=2), "Mentions the groom by name twice", "name of"),
        (checks.keyword_count("Maria", at_least=3), "Mention Maria's name 3 times", None),
        # How a piece starts or ends, and a rule on each piece, are not the whole text's.
        (
            checks.starts_with(phrase="Impact:"),
            "Include a line that starts with 'Impact:'",
            "a piece",
        ),
        (
            checks.ends_with_punctuation("?"),
            "Each item should be a question ending in a question mark",
            "each piece",
        ),
        (checks.word_count(per="item", at_most=12), "Each bullet under 12 words", None),
        (checks.emoji_count(exactly=0), "No emojis in any line, or in each heading", None),
        (checks.word_count(at_most=10), "Answers under 10 words each", "each piece"),
        (checks.section_count(marker="SECTION", exactly=3), "3 sections, each with a title", None),
        # several outputs, unless the rule means the same for each
        (checks.word_count(at_most=3), "answers three words max", "several outputs"),
        (checks.emoji_count(exactly=0), "No emojis in the captions", None),
        # what the text should hold, described, is no phrase to find
        (checks.ends_with(phrase="rhyming couplet"), "Ends with a rhyming couplet", "describes"),
        (checks.bold_keywords(["deadline"]), "bold the deadline in the body", "describes"),
        (checks.ends_with(phrase="Bye"), "The last word is Bye", None),
        (checks.starts_with(phrase="Subject:"), "Start with a Subject: line", None),
        (checks.bold_keywords(["Deadline"]), "Put 'Deadline' in bold", None),
        # a phrase with more after it is no ending
        (
            checks.ends_with(phrase="Kind regards,"),
            "End with 'Kind regards,' and then my name",
            "more after",
        ),
    ],
)
def test_a_mapping_that_says_the_opposite_of_the_criterion_is_rejected(
    check: checks.Check, description: str, problem: str | None
) -> None:
    assert_problem(contradicted(check, description), problem)


def test_a_contradicted_mapping_leaves_the_criterion_with_the_judge() -> None:
    model = ScriptedChatModel(
        script=[mapping(name="word_count", at_least=70), mapping(name="word_count", at_least=70)]
    )
    compiled = Judge(model, retry=FAST).compile("- Keep it under 70 words")

    (only,) = compiled.mappings
    assert only.decided_by == "judge"
    assert only.reason == "mapping rejected: the criterion asks for at most 70, not `at_least=70`"
    assert "asks for at most 70" in model.prompts()[1]  # one correction round, as for a typo


def test_every_catalogue_check_has_a_cue() -> None:
    assert set(CUES) == set(checks.CATALOGUE)
    for cue in CUES.values():
        re.compile(cue)


@pytest.mark.parametrize(
    ("description", "names"),
    [
        ("The entire response is in the language with ISO code 'ru'", True),
        ("Respond in German, please", True),
        ("Answer with one of the following options: 'yes', 'no'", True),
        ("Reply 'yes' or 'no'", True),
        ("At most 300 words", True),
        ("Do not use any commas", True),
        ("The mayor resigned on Tuesday after the audit", False),
        ("Officials found a 10m shortfall", False),
    ],
)
def test_a_criterion_names_a_check_when_it_talks_about_one(description: str, names: bool) -> None:
    assert names_a_check(description, checks.CATALOGUE) is names


def test_a_criterion_that_names_no_check_is_not_sent_to_the_model() -> None:
    model = ScriptedChatModel(script=[mapping(name="word_count", at_most=50)])
    compiled = Judge(model, retry=FAST, max_concurrency=1).compile(
        "- The mayor resigned on Tuesday\n- At most 50 words"
    )
    assert [m.decided_by for m in compiled.mappings] == ["judge", "check"]
    assert compiled.mappings[0].reason == NAMES_NO_CHECK
    assert len(compile_prompts(model)) == 1
    assert "At most 50 words" in compile_prompts(model)[0]


# -- the command line ----------------------------------------------------------------------------


def test_grade_compile_checks_shows_the_mapping_and_records_decided_by(tmp_path: Any) -> None:
    def reply(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        prompt = str(messages[-1].content)
        if "Checks:" in prompt:
            criterion = prompt.rsplit("Criterion:", 1)[1]
            return mapping(name="no_commas") if "commas" in criterion else none()
        return joint_reply(("C1", "pass", ""))

    model = ScriptedChatModel(script=[reply], repeat_last=True)
    app = create_app(judge_factory=lambda spec, options: Judge(model, **options, retry=FAST))
    source = tmp_path / "in.jsonl"
    source.write_text(
        "\n".join(json.dumps({"id": str(i), "output": out}) for i, out in enumerate(["a, b", "ab"]))
        + "\n"
    )
    results = tmp_path / "out.jsonl"
    run = CliRunner().invoke(
        app,
        [
            "grade",
            str(source),
            "-r",
            "- Uses no commas\n- Is friendly in every sentence",
            "-o",
            str(results),
            "--compile-checks",
        ],
    )
    assert run.exit_code == 0, run.output
    assert "1 of 2 criteria compiled to checks" in run.output
    assert "no_commas()" in run.output
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    commas = [line["criteria"][0] for line in lines]
    assert [c["decided_by"] for c in commas] == ["check", "check"]
    assert [c["passed"] for c in commas] == [False, True]
    assert len(compile_prompts(model)) == 2  # compiled once for the whole file


def test_grade_results_cache_keys_on_compile_checks() -> None:
    """A result graded without compiling must not be reused once compiling is on (or back)."""
    from rubricate._batch._items import GradeItem
    from rubricate._batch._results import cache_key, judge_fingerprint

    def key(**options: Any) -> str | None:
        judge = Judge(ScriptedChatModel(script=[]), retry=FAST, **options)
        return cache_key(
            Rubric.parse(RUBRIC), GradeItem(id="1", output="Paris"), judge_fingerprint(judge)
        )

    plain, compiled = key(), key(compile_checks=True)
    assert plain is not None and compiled is not None and plain != compiled
    assert key(compile_checks=False) == plain


def test_every_prompt_example_is_a_mapping_the_compiler_accepts() -> None:
    """The examples teach the answer shape, so each must be one `read_mapping` accepts as is."""
    request = CheckCompiler()._request
    examples = re.findall(r"^Criterion: (.+)\n(\{.*\})$", request, re.MULTILINE)
    assert len(examples) >= 10
    for criterion, answer in examples:
        check, problem = read_mapping(json.loads(answer), criterion)
        assert problem is None, (criterion, problem)
        if '"none"' not in answer:
            assert check is not None, criterion


@pytest.mark.parametrize(
    ("check", "description", "problem"),
    [
        (checks.paragraph_count(exactly=6), "6 paragraphs; paragraph 2 starts with 'so'", "'so'"),
        (
            checks.all_of(checks.paragraph_count(exactly=6), checks.paragraph_starts_with(2, "So")),
            "6 paragraphs; paragraph 2 starts with 'so'",
            None,
        ),
        (checks.section_count(marker="SECTION", exactly=3), "3 sections: 'SECTION X'", None),
        (checks.letter_count("n", at_most=3), "The letter 'n' at most 3 times", None),
        (checks.starts_with("Hi"), 'The response\'s first word is "Hi"', None),
        (checks.highlight_count(at_least=2), "Highlight 2 parts, like 'this one'", None),
        (checks.no_commas(), "No commas, and mention \u201cParis\u201d", "'Paris'"),
        (checks.wrapped_in_quotes(), "Wrapped in double quotes", None),
    ],
)
def test_every_quoted_phrase_must_be_used_by_a_check(
    check: checks.Check, description: str, problem: str | None
) -> None:
    assert_problem(uncovered(check, description), problem)


def test_a_rule_left_out_of_the_mapping_gets_a_correction_round() -> None:
    criterion = "- Exactly 2 paragraphs, and paragraph 2 starts with the word 'so'"
    model = ScriptedChatModel(
        script=[
            mapping(name="paragraph_count", exactly=2),
            mappings(
                {"name": "paragraph_count", "exactly": 2},
                {"name": "paragraph_starts_with", "paragraph": 2, "phrase": "so"},
            ),
        ]
    )
    (mapped,) = Judge(model, retry=FAST).compile(criterion).mappings

    assert "the criterion quotes 'so', which no check uses" in model.prompts()[1]
    assert mapped.check == checks.all_of(
        checks.paragraph_count(exactly=2), checks.paragraph_starts_with(2, "so")
    )


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        (
            "The response is in English and all lowercase",
            checks.all_of(checks.all_lowercase(), checks.language("en")),
        ),
        ("Written in the German language, all lowercase", None),
        ("All lowercase letters", checks.all_lowercase()),
        ("All lowercase, like English poetry", checks.all_lowercase()),
    ],
)
def test_a_language_the_criterion_names_is_checked_too(
    description: str, expected: checks.Check | None
) -> None:
    check, problem = read_mapping({"checks": [{"name": "all_lowercase"}]}, description)
    assert problem is None
    if expected is None:
        expected = checks.all_of(checks.all_lowercase(), checks.language("de"))
    assert check == expected


@pytest.mark.parametrize(
    ("spec", "description", "expected"),
    [
        (
            {"name": "starts_with", "phrase": "So", "case_sensitive": True},
            "Starts with the word 'so'",
            checks.starts_with("So"),
        ),
        (
            {"name": "starts_with", "phrase": "So", "case_sensitive": True},
            "Starts with 'So', in that exact case",
            checks.starts_with("So", case_sensitive=True),
        ),
        (
            {"name": "part_count", "separator": "##", "exactly": 2, "distinct": True},
            "Two answers divided by ##",
            checks.part_count("##", exactly=2),
        ),
        (
            {"name": "part_count", "separator": "##", "exactly": 2, "distinct": True},
            "Two different answers divided by ##",
            checks.part_count("##", exactly=2, distinct=True),
        ),
        (
            {"name": "valid_json", "allow_fence": False},
            "The whole answer is JSON",
            checks.valid_json(),
        ),
    ],
)
def test_a_true_false_option_the_criterion_does_not_ask_for_takes_its_default(
    spec: dict[str, Any], description: str, expected: checks.Check
) -> None:
    assert read_mapping({"checks": [spec]}, description) == (expected, None)


def test_every_flag_cue_names_a_real_option() -> None:
    flags = {p.name for name in checks.CATALOGUE for p in describe(name).params if p.kind == "bool"}
    assert set(FLAG_CUES) == flags


def test_an_invented_extra_check_is_dropped_and_a_stated_divider_filled_in() -> None:
    model = ScriptedChatModel(
        script=[
            mappings(
                {"name": "paragraph_count", "exactly": 2, "more_than": 1},
                {"name": "paragraph_starts_with", "paragraph": 1, "phrase": "***"},
            )
        ]
    )
    criterion = "- Exactly two paragraphs, separated by the divider ***"
    (mapped,) = Judge(model, retry=FAST).compile(criterion).mappings

    assert mapped.check == checks.paragraph_count(exactly=2, separator="***")
    assert len(model.calls) == 1


@pytest.mark.parametrize(
    ("spec", "description", "expected"),
    [
        (
            {"name": "section_count", "exactly": 3},
            "3 sections, each starting with 'SECTION X'",
            checks.section_count(marker="SECTION X", exactly=3),
        ),
        (
            {"name": "has_postscript"},
            "Ends with a postscript starting with 'P.P.S'",
            checks.has_postscript(marker="P.P.S"),
        ),
        (
            {"name": "paragraph_count", "exactly": 4},
            "Exactly 4 paragraphs separated by the divider ---.",
            checks.paragraph_count(exactly=4, separator="---"),
        ),
        (
            {"name": "paragraph_count", "exactly": 4},
            "Exactly 4 paragraphs, each --- well, you know",
            checks.paragraph_count(exactly=4),
        ),
        (
            {"name": "paragraph_count", "exactly": 4},
            "Exactly 4 paragraphs separated by blank lines",
            checks.paragraph_count(exactly=4),
        ),
    ],
)
def test_optional_arguments_the_criterion_states_are_filled_in(
    spec: dict[str, Any], description: str, expected: checks.Check
) -> None:
    assert read_mapping({"checks": [spec]}, description) == (expected, None)


def test_a_phrase_split_at_its_inner_quotes_is_completed_and_merged() -> None:
    split = {"checks": [{"name": "starts_with", "phrase": p} for p in ("Say ", "hi", " now")]}
    criterion = "First repeats the request: 'Say \"hi\" now, and wave.'"
    assert read_mapping(split, criterion) == (checks.starts_with('Say "hi" now, and wave.'), None)


@pytest.mark.parametrize(
    ("spec", "criterion", "expected"),
    [
        (
            {"name": "starts_with", "phrase": "Dear Sir"},
            "Starts with 'Dear Sir or Madam'",
            checks.starts_with("Dear Sir or Madam"),
        ),
        (
            {"name": "ends_with", "phrase": "Is that all?"},
            'Ends with "So, is that all?"',
            checks.ends_with("So, is that all?"),
        ),
        (
            {"name": "paragraph_starts_with", "paragraph": 2, "phrase": "In"},
            "Paragraph 2 starts with 'In short'",
            checks.paragraph_starts_with(2, "In short"),
        ),
    ],
)
def test_a_phrase_cut_short_is_completed_from_the_quote(
    spec: dict[str, Any], criterion: str, expected: checks.Check
) -> None:
    assert read_mapping({"checks": [spec]}, criterion) == (expected, None)


def test_a_phrase_is_not_completed_from_the_wrong_end() -> None:
    ends = {"checks": [{"name": "ends_with", "phrase": "Dear"}]}
    assert read_mapping(ends, "Ends with 'Dear Sir'") == (checks.ends_with("Dear"), None)


def test_two_different_start_phrases_are_sent_back() -> None:
    both = {"checks": [{"name": "starts_with", "phrase": p} for p in ("Hello", "Goodbye")]}
    check, problem = read_mapping(both, "Starts with 'Hello', or else starts with 'Goodbye'")
    assert check is None
    assert problem == (
        "2 starts_with checks with different phrases, but a text starts with one: give one "
        "starts_with with the whole phrase"
    )
    assert not problem.startswith("the criterion does not")  # so it gets its correction round
