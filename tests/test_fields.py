"""A rule on a part the reply labels by name: "Alt text under 125 characters", "CTA: max 4
words", "body copy: 90 chars max" of several notifications.

The criterion's first noun is read as a label only where the reply has a line or heading so
named; a reply without one leaves the criterion to the judge (`CheckUndecided`), flagged
`unsure`. The phrasings are not those of the format dev files.
"""

from __future__ import annotations

import pytest

from grading_fakes import FAST
from rubricate import CheckUndecided, Criterion, Judge, checks
from rubricate._judge._compile._compiler import CheckCompiler
from rubricate._judge._compile._phrasing import parse_criterion
from rubricate.checks._units import field_values
from rubricate.testing import ScriptedChatModel, joint_reply

C = checks

LISTING = (
    "**Meta title:** Handmade Oak Desks | Fenwick & Co\n"
    "**Meta description:** Solid oak desks made to order in Leeds. Free delivery in the UK.\n"
    "**Alt text:** A light oak desk with two drawers beside a window\n"
    "**CTA:** Order yours today"
)
PUSHES = (
    "### Variant A\n"
    "Heading: Your plants miss you\n"
    "Detail: Three of your plants need water today. Open the app to see which.\n\n"
    "### Variant B\n"
    "Heading: Watering day\n"
    "Detail: It's watering day! Your fern and both succulents are thirsty, and the basil too.\n"
)
TALK = (
    "**Title:** Shipping on Fridays Without Fear\n\n"
    "**Abstract:**\n"
    "Most teams freeze deploys before the weekend.\n\n"
    "We stopped, and our incident count fell.\n\n"
    "**Audience:** Platform engineers"
)


@pytest.mark.parametrize(
    ("text", "label", "expected"),
    [
        (LISTING, "meta descriptions", [
            "Solid oak desks made to order in Leeds. Free delivery in the UK."]),
        (LISTING, "Alt", ["A light oak desk with two drawers beside a window"]),
        (LISTING, "call to action", []),
        (PUSHES, "details", [
            "Three of your plants need water today. Open the app to see which.",
            "It's watering day! Your fern and both succulents are thirsty, and the basil too.",
        ]),
        # A label alone on its line holds the paragraphs below it, up to the next bold label.
        (TALK, "abstract", [
            "Most teams freeze deploys before the weekend.\n\n"
            "We stopped, and our incident count fell."]),
        ("## Verdict\n\nWorth it.\n\n## Specs\n\n16 GB", "verdict", ["Worth it."]),
        # A bold label in a list holds the plain lines under it, up to the next bold label.
        (
            "- **Pros:**\n  Light.\n  Note: cheap too.\n- **Cons:** Loud.",
            "pros",
            ["Light.\n  Note: cheap too."],
        ),
    ],
)  # fmt: skip
def test_a_label_names_the_values_the_reply_gives_it(
    text: str, label: str, expected: list[str]
) -> None:
    assert field_values(text, label) == expected


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [
        ("Alt text under 125 characters",
         C.within("field:Alt text", C.character_count(fewer_than=125))),
        ("CTA: max 4 words", C.within("field:CTA", C.word_count(at_most=4))),
        ("the meta description must be 150 characters or fewer",
         C.within("field:meta description", C.character_count(at_most=150))),
        ("Audience line - no more than five words",
         C.within("field:Audience line", C.word_count(at_most=5))),
        ("Opener shouldn't have any emojis", C.within("field:Opener", C.emoji_count(exactly=0))),
        # A verb, a word of manner or the code: no label is named.
        ("Label it with two hashtags", None),
        ("Tight paragraphs, four of them", None),
        ("The query must stay under 30 lines", None),
        # Two subjects: the second rule is not on the first's label.
        ("Pros as bullets and the cons as a numbered list", None),
    ],
)  # fmt: skip
def test_a_rule_on_a_labelled_part_reads_as_one(
    criterion: str, expected: checks.Check | None
) -> None:
    assert parse_criterion(criterion).check == expected, criterion


@pytest.mark.parametrize(
    ("criterion", "text", "passed"),
    [
        ("Alt text under 60 characters", LISTING, True),
        ("Alt text under 40 characters", LISTING, False),
        ("CTA: max 3 words", LISTING, True),
        ("CTA: two words max", LISTING, False),
        # Every "Detail:" line is held to the rule: the second runs over.
        ("Detail text: 70 characters or fewer", PUSHES, False),
        ("Detail text: 90 characters or fewer", PUSHES, True),
        ("Abstract: two paragraphs max", TALK, True),
        ("Abstract has to be a single paragraph", TALK, False),
    ],
)
def test_a_rule_on_a_labelled_part_decides_as_a_person_would(
    criterion: str, text: str, passed: bool
) -> None:
    check = parse_criterion(criterion).check
    assert check is not None, criterion
    assert check.test(text)[0] is passed, check.test(text)


def test_title_subject_and_body_lines_are_those_parts_each_held_to_the_rule() -> None:
    notices = (
        "**A.**\nTitle: Rain tomorrow\nBody: Bring a coat; showers from noon.\n\n"
        "**B.**\nTitle: Sunny weekend ahead for the whole region\nBody: Highs of 24°C."
    )
    assert parse_criterion("titles: 25 characters max").check is not None
    passed, finding = C.within("title", C.character_count(at_most=25)).test(notices)
    assert not passed and finding.endswith("has 40 characters, needs at most 25"), finding
    assert C.within("body", C.character_count(at_most=40)).test(notices)[0] is True
    # "Headline:" on the first line is the title, as "Title:" is.
    hero = "**Headline:** Books that travel with you\n**Subheadline:** Any title, any device."
    assert C.heading_case("sentence").test(hero)[0] is True
    assert C.heading_case("title").test(hero)[0] is False


def test_a_reply_without_the_label_leaves_the_rule_to_the_judge_flagged_unsure() -> None:
    check = C.within("field:CTA", C.word_count(at_most=4))
    with pytest.raises(CheckUndecided, match="no line or heading is labelled 'CTA'"):
        check.test("Order your desk today and get free delivery.")

    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    judge = Judge(model, read_checks=True, retry=FAST, max_concurrency=1)
    decided = judge.evaluate("- CTA: max 4 words", output=LISTING)
    left = judge.evaluate("- CTA: max 4 words", output="Order your desk today, delivered free.")

    assert [(v.decided_by, v.passed) for v in decided.criteria] == [("check", True)]
    assert len(model.calls) == 1  # only the reply without a "CTA:" line asked the model
    (verdict,) = left.criteria
    assert (verdict.decided_by, verdict.passed, verdict.unsure) == ("judge", True, True)
    assert "no line or heading is labelled 'CTA'" in verdict.reason
    assert CheckCompiler().format_unread(Criterion(id="c", description="CTA: max 4 words"))


@pytest.mark.parametrize(
    ("phrase", "text", "passed"),
    [
        ("Sadly", "Dear Ms Ortiz,\n\nSadly, the venue is booked that week.", True),
        ("Sadly", "Hello team!\nSadly we lost the pitch.", True),
        ("Dear Ms Ortiz", "Dear Ms Ortiz,\n\nSadly, the venue is booked.", True),
        # A first line that is no greeting is the start.
        ("Sadly", "Quick update:\n\nSadly, the venue is booked.", False),
        ("Sadly", "Hi, sadly the venue is booked.", False),
    ],
)
def test_a_letter_starts_after_its_greeting(phrase: str, text: str, passed: bool) -> None:
    assert C.starts_with(phrase).test(text)[0] is passed
    assert C.negate(C.starts_with(phrase)).test(text)[0] is not passed
