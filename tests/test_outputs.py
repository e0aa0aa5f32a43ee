"""A rule on each of several outputs: "each tagline max 6 words", "no tweet over 280 characters".

The reply's outputs are read apart only where it marks them (one list, or blocks each opened by
a label); elsewhere the check raises `CheckUndecided` and the judge decides, flagged `unsure`.
The phrasings are not those of the format dev files: other ways of writing the same rules.
"""

from __future__ import annotations

import pytest

from rubricate import CheckUndecided, Criterion, Judge, checks
from rubricate._judge._compile._compiler import CheckCompiler
from rubricate._judge._compile._phrasing import parse_criterion
from rubricate._judge._retry import RetryPolicy
from rubricate.checks._units import outputs
from rubricate.testing import ScriptedChatModel, joint_reply

FAST = RetryPolicy(max_retries=0, initial_delay=0, max_delay=0)
C = checks

LISTED = (
    "Here are four taglines for the bakery:\n\n"
    "1. Baked before sunrise\n2. Bread worth waking for\n"
    "3. **Option C:** Warm loaves, warm hearts\n4. Your street's oven\n\n"
    "I'd go with 2: it is the most memorable."
)
LABELLED = (
    "Option 1: Hi, I'm Ada. Ask me about orders or returns.\n\n"
    "Option 2: Welcome back! How can I help today?\n\n"
    "Option 3: Hello there, what do you need?"
)
LABEL_LINES = (
    "Message 1:\nHi {name}, your table at Nonna's is booked for {date}.\n\n"
    "Message 2:\nSee you at {time}! Reply X to cancel."
)
THREAD = (
    "1/3 We read 2,000 tickets.\n\n2/3 Slow replies were not the top complaint.\n\n"
    "3/ Handoffs were."
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            LISTED,
            [
                "Baked before sunrise",
                "Bread worth waking for",
                "Warm loaves, warm hearts",
                "Your street's oven",
            ],
        ),
        (
            LABELLED,
            [
                "Hi, I'm Ada. Ask me about orders or returns.",
                "Welcome back! How can I help today?",
                "Hello there, what do you need?",
            ],
        ),
        (
            LABEL_LINES,
            [
                "Hi {name}, your table at Nonna's is booked for {date}.",
                "See you at {time}! Reply X to cancel.",
            ],
        ),
        ("**Tweet 1**\nWe ship today.\n\n**Tweet 2**\nTry it.", ["We ship today.", "Try it."]),
        (
            THREAD,
            [
                "We read 2,000 tickets.",
                "Slow replies were not the top complaint.",
                "Handoffs were.",
            ],
        ),
        ("Version A:\nCoffee first.\n\nVersion B:\nTea, then.", ["Coffee first.", "Tea, then."]),
    ],
)
def test_outputs_are_read_apart_where_the_reply_marks_them(text: str, expected: list[str]) -> None:
    assert outputs(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Baked before sunrise.\n\nBread worth waking for.",  # paragraphs with no label
        "Post a photo today.\n\nAdd a pinch of salt.",  # "Post a", "Add a" are no labels
        "Option 1:\n- fast\n- cheap\n\nOption 2:\n- slow\n- dear",  # two lists
        "# Plan\n\nWe start in May.\n\nSteps:\n\n- hire\n- build\n\nThen we ship.",  # a document
        "## Intro\nWe start.\n\n## Then\nWe ship.",  # headings open sections, not outputs
        # a bold line may be the output's own title, part of what is counted
        "**Water off on Tuesday**\nFrom 9 to 1.\n\n**Corte de agua el martes**\nDe 9 a 1.",
        "| Case | Message |\n|---|---|\n| Bad email | Check the address |",  # a table
        "Just one line.",
    ],
)
def test_outputs_not_marked_apart_are_not_guessed(text: str) -> None:
    assert outputs(text) is None


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [
        ("each tagline: 5 words tops", C.each("output", C.word_count(at_most=5))),
        ("Taglines under 6 words", C.each("output", C.word_count(fewer_than=6))),
        (
            "Every slogan must be below 40 characters",
            C.each("output", C.character_count(fewer_than=40)),
        ),
        ("One hashtag per post at most", C.each("output", C.hashtag_count(at_most=1))),
        ("No push notification over 60 chars", C.each("output", C.character_count(at_most=60))),
        ("Each version ends with a question", C.each("output", C.ends_with_punctuation("?"))),
        (
            "Each text message fits in 160 characters",
            C.each("output", C.character_count(at_most=160)),
        ),
        ("No emoji in any of the subject lines", C.each("output", C.emoji_count(exactly=0))),
        # the second half of an entry, not an output of its own (`glosses`)
        ("Each answer under 20 words", C.each("answer", C.word_count(fewer_than=20))),
        ("Descriptions: 15 words max each", C.each("description", C.word_count(at_most=15))),
        # a letter case: each output is its own title
        ("Slogans in Title Case", C.each("output", C.heading_case("title", required=False))),
        ("Sentence case on each one", C.each("output", C.heading_case("sentence", required=False))),
        ("Every heading in Title Case", C.heading_case("title")),  # the headings themselves
        # a rule with no bound on each stays with the judge
        ("Every option sounds friendly", None),
    ],
)
def test_a_rule_on_each_output_reads_as_one(criterion: str, expected: checks.Check | None) -> None:
    assert parse_criterion(criterion).check == expected, criterion


@pytest.mark.parametrize(
    ("criterion", "text", "passed"),
    [
        ("each tagline at most four words", LISTED, True),  # the list's lead-in is no tagline
        ("each tagline at most three words", LISTED, False),
        ("Every greeting option is under 50 characters", LABELLED, True),
        ("no message longer than 8 words", LABEL_LINES, False),  # the first has 9 words
        ("every tweet under 60 characters", THREAD, True),
        # a closing mark does not stop a tagline being its own title
        ("Slogans in Title Case", "1. Bread Worth Waking For.\n2. Your Street's Oven!", True),
        ("Slogans in Title Case", "1. Bread worth waking for\n2. Your Street's Oven", False),
    ],
)
def test_a_rule_on_each_output_decides_as_a_person_would(
    criterion: str, text: str, passed: bool
) -> None:
    check = parse_criterion(criterion).check
    assert check is not None, criterion
    assert check(text)[0] is passed


def test_phrasings_that_mean_room_for_n_read_as_at_most() -> None:
    assert parse_criterion("Fits in 280 characters.").check == C.character_count(at_most=280)
    assert parse_criterion("must fit on two lines").check == C.line_count(at_most=2)


def test_outputs_not_marked_apart_go_to_the_judge_flagged_unsure() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    judge = Judge(model, read_checks=True, retry=FAST, max_concurrency=1)
    unmarked = "Baked before sunrise, daily.\n\nBread worth waking for."

    marked = judge.evaluate("- Each tagline under 5 words", output=LISTED)
    left = judge.evaluate("- Each tagline under 5 words", output=unmarked)

    assert [(v.decided_by, v.passed) for v in marked.criteria] == [("check", True)]
    assert len(model.calls) == 1  # only the unmarked reply asked the model
    (verdict,) = left.criteria
    assert (verdict.decided_by, verdict.passed, verdict.unsure) == ("judge", True, True)
    assert "Its check could not decide this output (where each output starts" in verdict.reason
    assert CheckCompiler().format_unread(
        Criterion(id="c", description="Each tagline under 5 words")
    )


def test_a_users_own_check_may_hand_the_criterion_to_the_judge() -> None:
    def cited(evidence: object) -> bool:
        raise CheckUndecided("the sources are not in a list")

    model = ScriptedChatModel(script=[joint_reply(("C1", "fail", "No source is named."))])
    judge = Judge(model, retry=FAST, max_concurrency=1)

    evaluation = judge.evaluate([Criterion(id="src", description="Cites a source", check=cited)])

    (verdict,) = evaluation.criteria
    assert (verdict.decided_by, verdict.passed, verdict.unsure) == ("judge", False, True)
    assert "(the sources are not in a list)" in verdict.reason
    assert "stricter bar" not in verdict.reason  # not a form rule the grammar read


# -- what each heading holds: "per day", "under each category" ----------------------------------

PLAN = (
    "# Lisbon in two days\n\nA relaxed plan.\n\n"
    "## Day 1\n- Coffee at A Brasileira\n- Walk Alfama\n- Tram 28\n\n"
    "## Day 2\n- Belém\n- LX Factory\n"
)
SHOPPING = "**Produce**\n- apples\n- pears\n- kale\n\n**Dairy**\n- milk\n- feta\n"
TABLED = (
    "## Day 1\n\n| Time | Activity |\n|---|---|\n| 9:00 | Coffee |\n| 10:30 | Alfama |\n\n"
    "## Day 2\n\n| Time | Activity |\n|---|---|\n| 9:30 | Belém |\n"
)


def test_sections_are_what_each_heading_holds() -> None:
    from rubricate.checks._units import sections

    # the title over the days and the introduction under it are no section
    assert sections(PLAN) == [
        "- Coffee at A Brasileira\n- Walk Alfama\n- Tram 28",
        "- Belém\n- LX Factory",
    ]
    assert sections(SHOPPING) == ["- apples\n- pears\n- kale", "- milk\n- feta"]
    assert sections("Monday: run\nTuesday: rest") is None  # labels on lines are no headings


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [
        (
            "Up to 3 things to do per day",
            C.each("section", C.entry_count(at_most=3, noun="things")),
        ),
        ("Every category has at least two items", C.each("section", C.entry_count(at_least=2))),
        ("No group may contain more than four tasks", None),  # "contain" is no "have"
        (
            "No group should have more than 4 tasks",
            C.each("section", C.entry_count(at_most=4, noun="tasks")),
        ),
        (
            "Under each heading, no more than 2 bullets",
            C.each("section", C.bullet_count(at_most=2)),
        ),
        ("Each section: 50 words max", C.each("section", C.word_count(at_most=50))),
        ("Each heading under 5 words", None),  # the heading's own words, not what it holds
        ("One bullet per day, seven bullets in total", None),  # a second rule, on the whole
    ],
)
def test_a_rule_on_each_section_reads_as_one(criterion: str, expected: checks.Check | None) -> None:
    assert parse_criterion(criterion).check == expected, criterion


@pytest.mark.parametrize(
    ("criterion", "text", "passed"),
    [
        ("At most 3 activities per day", PLAN, True),
        ("Exactly 3 activities per day", PLAN, False),  # day 2 has two
        ("Every category has at least two items", SHOPPING, True),
        ("Exactly 2 activities per day", TABLED, False),  # day 2 has one
        ("Max 2 activities per day", TABLED, True),  # a table's header row is no activity
    ],
)
def test_a_rule_on_each_section_decides_as_a_person_would(
    criterion: str, text: str, passed: bool
) -> None:
    check = parse_criterion(criterion).check
    assert check is not None, criterion
    assert check(text)[0] is passed


def test_a_text_without_headings_leaves_a_rule_per_section_to_the_judge() -> None:
    check = parse_criterion("Max 5 items per category").check
    assert check is not None
    with pytest.raises(CheckUndecided, match="no headings"):
        check("apples, pears, milk")


# -- what follows the code: "the explanation after the code: one sentence" ------------------------

ANSWERED = "Use a list comprehension:\n\n```python\nsquares = [n * n for n in nums]\n```\n\n"


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [
        ("Text after the snippet: two sentences max", C.sentence_count(at_most=2)),
        ("Everything following the SQL query under 30 words", C.word_count(fewer_than=30)),
        ("Notes below the code block as bullets, 4 at most", C.bullet_count(at_most=4)),
    ],
)
def test_a_rule_on_the_text_after_the_code_reads_as_one(
    criterion: str, expected: checks.Check
) -> None:
    assert parse_criterion(criterion).check == C.within("after_code", expected), criterion


@pytest.mark.parametrize(
    ("text", "passed"),
    [
        (ANSWERED + "It squares each number.", True),
        (ANSWERED + "It squares each number. It keeps the order.", False),
        # the code's own comments and the lead-in before it are not what follows it
        ("Try this. It is short.\n\n```python\n# one. two. three.\nx = 1\n```\n\nDone.", True),
    ],
)
def test_the_text_after_the_code_is_what_follows_its_last_block(text: str, passed: bool) -> None:
    check = parse_criterion("Explanation after the code: one sentence").check
    assert check is not None
    assert check(text)[0] is passed


def test_code_not_in_a_fenced_block_leaves_the_rule_to_the_judge() -> None:
    check = parse_criterion("Explanation after the code: one sentence").check
    assert check is not None
    with pytest.raises(CheckUndecided, match="not in a fenced block"):
        check("FROM python:3.12\nRUN pip install x\n\nThis builds the image.")


# -- the second half of each entry: "answers under 10 words", "each definition one sentence" -------

FAQ = (
    "## FAQ\n\n**Do you deliver?**\nYes, within 5 miles.\n\n"
    "**Can I pay by card?**\nYes. We take every major card and Apple Pay.\n"
)
GLOSSARY = "- **Latency** – the delay before a reply.\n- **Cache:** a store kept close by.\n"
QUIZ = "Q: Capital of Peru?\nA: Lima\n\nQ: Largest ocean?\nA: The Pacific"
MENU_JSON = (
    '[{"dish": "Soup", "description": "Leek and potato."}, '
    '{"dish": "Tart", "description": "Lemon curd."}]'
)
COLUMNS = "| Flag | Description |\n|---|---|\n| `-v` | Print more. |\n| `-q` | Print less |\n"


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        (FAQ, "answer", ["Yes, within 5 miles.", "Yes. We take every major card and Apple Pay."]),
        (GLOSSARY, "definition", ["the delay before a reply.", "a store kept close by."]),
        (QUIZ, "answer", ["Lima", "The Pacific"]),
        (MENU_JSON, "description", ["Leek and potato.", "Lemon curd."]),
        (COLUMNS, "description", ["Print more.", "Print less"]),
        (
            "**Headlines**\n1. Fast fixes\n\n**Descriptions**\n1. We come today.\n2. No fee.",
            "description",
            ["We come today.", "No fee."],
        ),
    ],
)
def test_glosses_are_the_second_half_of_each_entry(
    text: str, kind: str, expected: list[str]
) -> None:
    from rubricate.checks._units import glosses

    assert glosses(text, kind) == expected


@pytest.mark.parametrize(
    ("criterion", "text", "passed"),
    [
        ("answers: 2 sentences max", FAQ, True),
        ("Each answer is one sentence", FAQ, False),  # the card answer has two
        ("Every definition starts with a capital letter", GLOSSARY, False),
        ("answers are a single word", QUIZ, False),  # "The Pacific"
        ("each description ends with a full stop", COLUMNS, False),  # "Print less"
    ],
)
def test_a_rule_on_each_gloss_decides_as_a_person_would(
    criterion: str, text: str, passed: bool
) -> None:
    check = parse_criterion(criterion).check
    assert check is not None, criterion
    assert check(text)[0] is passed


def test_entries_without_a_marked_second_half_leave_the_rule_to_the_judge() -> None:
    check = parse_criterion("Each definition under 12 words").check
    assert check is not None
    with pytest.raises(CheckUndecided, match="where each definition starts"):
        check("Latency is the delay before a reply. A cache is a store kept close by.")


@pytest.mark.parametrize(
    "criterion",
    [
        "Each tagline under 5 words",
        "Max 3 items per category",
        "answers under 10 words",
        "Explanation after the code: one sentence",
        "SQL keywords in uppercase",
    ],
)
def test_a_rule_whose_pieces_may_be_unmarked_counts_as_unread_when_it_reaches_the_judge(
    criterion: str,
) -> None:
    # Read whole, it reaches the judge only when its check found nothing to read: the judge's
    # verdict then needs the stricter bar of a form rule and is flagged.
    assert CheckCompiler().format_unread(Criterion(id="c", description=criterion))
    assert not CheckCompiler().format_unread(Criterion(id="c", description="Under 50 words"))
