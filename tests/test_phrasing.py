"""The phrase grammar that reads format criteria in code (`rubricate._judge._compile._phrasing`).

The phrasings here are deliberately not those of `bench/data/format/dev.jsonl` (the set the
grammar was tuned on): each is another way people write the same rule, so these tests check
that the grammar reads meanings, not a list of sentences.
"""

from __future__ import annotations

from typing import Any

import pytest

from rubricate import Judge, Rubric, checks
from rubricate._judge._compile._compiler import READ_IN_CODE
from rubricate._judge._compile._numbers import normalize_numbers
from rubricate._judge._compile._phrasing import parse_criterion, stated_numbers
from rubricate._judge._retry import RetryPolicy
from rubricate.testing import ScriptedChatModel, joint_reply

FAST = RetryPolicy(max_retries=0, initial_delay=0, max_delay=0)
C = checks
_NO_END_STOP = C.each("item", C.negate(C.ends_with_punctuation(".")))


def test_criteria_that_differ_only_in_a_quoted_phrases_case_are_read_apart() -> None:
    from rubricate._judge._compile._compiler import CheckCompiler

    compiler = CheckCompiler()
    (lower,) = (
        c.check for c in compiler.read(Rubric.parse("- 3 sections, each starting with 'Part X'"))
    )
    (upper,) = (
        c.check for c in compiler.read(Rubric.parse("- 3 sections, each starting with 'PART X'"))
    )
    assert lower == C.section_count(marker="Part X", exactly=3)
    assert upper == C.section_count(marker="PART X", exactly=3)


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [
        # absence, however it is said
        ("Refrain from bullet points.", C.bullet_count(exactly=0)),
        ("Your reply shouldn't have a single bullet", C.bullet_count(exactly=0)),
        ("Bullet-free, please", C.bullet_count(exactly=0)),
        ("Never number your points", C.numbered_count(exactly=0)),
        (
            "Skip emojis and bullet points",
            C.all_of(C.emoji_count(exactly=0), C.bullet_count(exactly=0)),
        ),
        ("There should be zero emojis", C.emoji_count(exactly=0)),
        ("It mustn't contain any commas whatsoever", C.no_commas()),
        # bounds in words and digits, before and after the number
        ("Stay within two hundred words", C.word_count(at_most=200)),
        ("Aim for 40 words max", C.word_count(at_most=40)),
        ("Five sentences or less", C.sentence_count(at_most=5)),
        ("Your essay can't be shorter than three paragraphs", C.paragraph_count(at_least=3)),
        ("It should run to more than 1,200 characters", C.character_count(more_than=1200)),
        ("Make it 4 to 6 sentences long", C.sentence_count(at_least=4, at_most=6)),
        ("Never go over twelve lines", C.line_count(at_most=12)),
        ("A minimum of seventy-five words", C.word_count(at_least=75)),
        # per unit
        ("Cap each sentence at fifteen words", C.word_count(at_most=15, per="sentence")),
        ("No paragraph with over 4 sentences", C.sentence_count(at_most=4, per="paragraph")),
        ("Lines of no more than 8 words", C.word_count(at_most=8, per="line")),
        ("Every list item under ten words", C.word_count(fewer_than=10, per="item")),
        # lists
        ("Lay out the steps as an ordered list", C.numbered_count(at_least=1)),
        ("Offer a bulleted list with four entries", C.bullet_count(exactly=4)),
        ("A list containing at least 6 items", C.entry_count(at_least=6)),
        # titles and endings
        ("Open with a short title", C.has_title()),
        ("Give the story a headline", C.has_title()),
        ("The piece should not have a title", C.negate(C.has_title())),
        ("Wrap up with a rhetorical question", C.ends_with_punctuation("?")),
        ("Don't finish on a question", C.negate(C.ends_with_punctuation("?"))),
        ("Close the message with an exclamation", C.ends_with_punctuation("!")),
        ("Sign off with 'Warm wishes'", C.has_sign_off("Warm wishes")),
        ("Your first words must be 'Good morning'", C.starts_with("Good morning")),
        # case, dates, language, words
        ("Section titles in Title Case", C.heading_case("title", skip_title=True)),
        ("Every heading written in sentence case", C.heading_case("sentence")),
        ("Only small letters throughout", C.all_lowercase()),
        ("Write it in block capitals", C.all_capitals()),
        ("Give any dates in the format DD.MM.YYYY", C.date_format("DD.MM.YYYY")),
        ("Answer in Italian", C.language("it")),
        ("Do not say 'basically'", C.keywords_forbidden(["basically"])),
        ("Use 'sustainable' at least three times", C.keyword_count("sustainable", at_least=3)),
        ("Say 'sorry' no more than twice", C.keyword_count("sorry", at_most=2)),
    ],
)
def test_ordinary_phrasings_compile_to_the_check_they_mean(
    criterion: str, expected: checks.Check
) -> None:
    parsed = parse_criterion(criterion)
    assert parsed.check == expected, (criterion, parsed)


@pytest.mark.parametrize(
    "criterion",
    [
        "The tone is upbeat",
        "The answer explains why the sky is blue",
        "Use three paragraphs and a formal register",  # a rule the grammar cannot check
        "Each bullet names a real product",
        "The summary mentions 3 causes of the war",
        "It is not true that the reply has 3 paragraphs",
        "Uses bullet points where they help",
        "Cites at least two sources",
        "Exactly 3 sections",  # sections of what? not said: headings or markers
        # what a list, a link or a code block holds is content, not format
        "Include a link to the pricing page",
        "Put the disclaimer in a code block",
        "Use bullet points for 3 of the sections",  # a count the object would swallow
        "The intro paragraph is in title case",
        "Spell out the name of the company",
        "Don't use inline code",
    ],
)
def test_what_the_grammar_cannot_read_whole_is_not_decided(criterion: str) -> None:
    parsed = parse_criterion(criterion)
    assert parsed.check is None
    assert not parsed.complete


def test_a_partial_read_keeps_what_it_found_and_what_was_left() -> None:
    parsed = parse_criterion("Use exactly 3 paragraphs and a formal register")
    assert parsed.found == (checks.paragraph_count(exactly=3),)
    assert set(parsed.leftover) == {"formal", "register"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Twenty-five words", "25 words"),
        ("one hundred and fifty words", "150 words"),
        ("a hundred words", "100 words"),
        ("a dozen items", "12 items"),
        ("a single paragraph", "1 paragraph"),
        ("a two-sentence answer", "a 2-sentence answer"),
        ("twice", "2 times"),
        ("1,000 characters", "1000 characters"),
        ("a cat and a dog", "a cat and a dog"),
    ],
)
def test_numbers_in_words_become_digits(text: str, expected: str) -> None:
    assert normalize_numbers(text) == expected


def test_a_stated_absence_states_zero() -> None:
    assert 0 in stated_numbers("No bullet points")
    assert 0 in stated_numbers("doesn't use emojis")
    assert 0 not in stated_numbers("Exactly three bullet points")
    assert stated_numbers("between five and 12 words") == {5, 12}


def test_a_criterion_the_grammar_reads_is_compiled_without_a_model_call() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    judge = Judge(model, compile_checks=True, retry=FAST, max_concurrency=1)
    rubric = "- Don't use any bullet points\n- Sounds friendly"

    compiled = judge.compile(rubric)

    bullets, friendly = compiled.mappings
    assert bullets.check == checks.bullet_count(exactly=0)
    assert bullets.reason == READ_IN_CODE
    assert friendly.decided_by == "judge"
    assert compiled.usage.calls == 0  # "friendly" names no check: no compile call either
    evaluation = judge.evaluate(rubric, output="- one\n- two")
    assert [(v.decided_by, v.passed) for v in evaluation.criteria] == [
        ("check", False),
        ("judge", True),
    ]
    assert evaluation.criteria[0].gap == "has 2 bullet points, needs exactly 0"


def test_a_criterion_naming_q1_is_graded_not_crashed_on() -> None:
    # "Q1" looks like the grammar's own name for a lifted quote; it used to raise IndexError.
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    judge = Judge(model, read_checks=True, retry=FAST, max_concurrency=1)

    evaluation = judge.evaluate(
        "- Questions numbered Q1, Q2, Q3 in bold", output="**Q1.** Why?\n**Q2.** How?"
    )

    assert [(v.decided_by, v.passed) for v in evaluation.criteria] == [("judge", True)]
    assert parse_criterion("Start with 'Q1'").check == checks.starts_with("Q1")
    assert parse_criterion("q3 results in a table").check is None


def test_a_partly_read_criterion_goes_to_the_model() -> None:
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])
    from rubricate.testing import tool_reply  # the model's compile answer: none

    model.script.insert(0, tool_reply("check_mapping", {"checks": [{"name": "none"}]}))
    judge = Judge(model, compile_checks=True, retry=FAST, max_concurrency=1)

    compiled = judge.compile("- Exactly two paragraphs in a formal register")

    assert compiled.usage.calls == 1
    assert compiled.mappings[0].decided_by == "judge"


def test_only_format_rules_no_check_read_are_marked_unsure_whatever_the_confidence() -> None:
    model = ScriptedChatModel(
        script=[
            joint_reply(*[(f"C{i}", "pass", "") for i in (1, 2, 3, 4)], ("C5", "fail", "no bold"))
        ]
    )
    judge = Judge(model, read_checks=True, retry=FAST, max_concurrency=1)
    rubric = (
        "- Exactly two paragraphs in a formal register\n"  # read in part: not the register
        "- Sounds friendly\n- Under 50 words\n"
        "- Says the brand name sounds rude in Arabic\n"  # a language named, not a rule on it
        "- Says there are two types of cereal\n"  # a count of things, not of the text's entries
        "- Put the key term in bold"  # names a form the grammar does not read at all
    )

    evaluation = judge.evaluate(rubric, output="- Drink water.\n- Sleep well.")

    assert [(v.decided_by, v.unsure) for v in evaluation.criteria] == [
        ("judge", True),
        ("judge", False),
        ("check", False),
        ("judge", False),
        ("judge", False),
        ("judge", True),
    ]
    flagged = [evaluation.criteria[0], evaluation.criteria[5]]
    assert all("no check could read, decided by the model" in v.reason for v in flagged)
    assert "no check could read" not in evaluation.criteria[1].reason


@pytest.mark.parametrize(
    ("criterion", "names_a_form"),
    [
        ("no punctuation at all", True),
        ("Don't nest lists, keep it flat.", True),
        ("Timestamps in MM:SS format", True),
        ("7 rows, one for every day of the week", True),
        ("All keys in snake_case.", True),
        ("The summary conveys this fact: A row erupted.", False),  # a quarrel, not a table row
        # a fact the output should state is content, whatever its words
        ("The summary conveys this fact: Charlie Austin scored with a header.", False),
        ("Mentions that the smugglers hid 200 items in the lines of a boat", False),
        ("Uses a header row in the table", True),
        ("Release notes: max 5 bullets", True),  # notes here are the output, not a verb
        ("Quotes the minister", False),
        ("Sounds friendly", False),
        # grammar, notation and data named in ordinary words
        ("Written in the past tense throughout", True),
        ("Each step begins with an imperative verb.", True),
        ("days abbreviated (Mon / Wed / Fri)", True),
        ("No ordinal dates", True),
        ("Exactly the four keys I asked for - nothing extra", True),
        ("id must be an integer in every object", True),
        ("Third person throughout, from the dog's point of view", True),
        ("She was the first person to reach the summit", False),
        ("Explains what an HTML comment is", False),  # what the text is about
        ("Lent his voice to the campaign", False),
        ("Top-level key must be `error`", True),
        ("Every date must include the year.", True),
        ("The release date was moved to May", False),
        # the words used, handles and code fences, spelling, type hints, an order of parts
        ("'Leverage' is banned jargon, never use it", True),
        ("colour/flavour/centre must not appear", True),
        ("Answer with just 'A' or 'B'", False),  # which one is content
        ("Say only 'approved' or 'rejected'", True),
        ("Never ping @everyone", True),
        ("Wrap the diff in a ```diff block", True),
        ("American spelling please", True),
        ("Python type annotations on every argument", True),
        ("Field order: name, email, phone", True),
        ("Capitalize every proper noun", True),
        ("The goalkeeper did not appear after the break", False),
        ("Contact us at help@example.com", False),
        ("Drop the `debug:` key", True),
        ("Choices labelled a) through e)", True),
        ("Amounts in words, not numeric", True),
        ("Mentions a numeric score", False),  # what it says
        # a value's notation by example, spacing, order, brackets, heading marks
        ("Prices written like '$4.2M'", True),
        ("Room numbers with a space: B 12, not B12", True),
        ("Sections Intro, Method, Results, in that order", True),
        ("Put the ticket number in parens", True),
        ("File the changes under ## Added and ## Fixed", True),
        ("Alphabetize the glossary", True),
        ("Phrase every heading as a question", True),
        ("Dates written out in full", True),
        ("The tweet went out at 9am with a space for comments", False),
        ("The order of events is described", False),
        ("Write every heading as a question", True),
        ("Offer 3-5 headline options", True),
        ("between two and four examples", True),
        ("Between 20 and 30 people were hurt", False),  # a fact, not pieces of the reply
        # notation in marks: arrows, ticks and crosses, what a table's cells hold
        ("Price changes shown as old → new", True),
        ("Show changes with + and - signs, not arrows", True),
        ("Use ✓ / ✗ rather than Yes / No", True),
        ("Yes or No in the cells", True),
        ("Mentions Cupid's arrow", False),
        # numbers are what a text says as often as how it is laid out
        ("The function returns True for even numbers", False),
        ("Never reveals account numbers", False),
    ],
)
def test_a_rule_that_names_a_form_in_ordinary_words_is_one_of_form(
    criterion: str, names_a_form: bool
) -> None:
    from rubricate._judge._compile._vocabulary import names_form

    assert names_form(criterion) is names_a_form


def leaning_yes(p_yes: float) -> Any:
    """The embedded model's reply to every call: `yes` at P(yes) `p_yes`, or a one-line gap."""
    import math

    from langchain_core.messages import AIMessage

    def reply(messages: Any, kwargs: dict[str, Any]) -> AIMessage:
        if "grammar" not in kwargs:
            return AIMessage("The output has no term set in bold.")
        top = [
            {"token": "yes", "logprob": math.log(p_yes)},
            {"token": "no", "logprob": math.log(1 - p_yes)},
        ]
        entry = {"token": "yes", "logprob": math.log(p_yes), "top_logprobs": top}
        return AIMessage("yes", response_metadata={"logprobs": {"content": [entry]}})

    return reply


def test_a_form_rule_no_check_read_needs_the_stricter_bar_on_the_embedded_model() -> None:
    from rubricate._judge._confidence import FORM_PASS_THRESHOLD, PASS_THRESHOLD
    from rubricate.testing import GrammarScriptedChatModel

    p_yes = (PASS_THRESHOLD + FORM_PASS_THRESHOLD) / 2  # a lean to yes, short of the bar
    model = GrammarScriptedChatModel(script=[leaning_yes(p_yes)], repeat_last=True)
    judge = Judge(model, retry=FAST)
    rubric = "- Put the key term in bold\n- Gives advice about sleep"

    form, content = judge.evaluate(rubric, output="Drink water. Sleep well.").criteria

    assert (form.passed, form.unsure, form.confidence) == (False, True, pytest.approx(p_yes))
    assert form.gap == "The output has no term set in bold."
    assert f"stricter bar P(yes) >= {FORM_PASS_THRESHOLD:.2f}" in form.reason
    assert content.passed and content.confidence == pytest.approx(p_yes)
    # Without the grammar reading criteria, nothing says the rule is one of form.
    plain = Judge(model, retry=FAST, read_checks=False).evaluate(rubric, output="Drink water.")
    assert [v.passed for v in plain.criteria] == [True, True]


def test_the_demo_rubric_fails_an_untitled_haiku() -> None:
    from pathlib import Path

    from rubricate import Rubric

    rubric = Rubric.from_file(Path(__file__).parents[1] / "examples" / "haiku-rubric.md")
    title = next(c for c in rubric.criteria if "title" in c.description)
    assert title.check is not None
    assert not title.check("Cherry blossoms fall\nsoft rain on the temple roof\nspring wakes")[0]
    assert title.check("Spring Rain\n\nCherry blossoms fall\nsoft rain\nspring wakes")[0]


def test_read_parses_each_criterion_text_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import rubricate._judge._compile._compiler as compile_module

    seen: list[str] = []
    real = compile_module.parse_criterion

    def counting(description: str) -> Any:
        seen.append(description)
        return real(description)

    monkeypatch.setattr(compile_module, "parse_criterion", counting)
    compiler = compile_module.CheckCompiler()
    rubric = Rubric.parse("- No bullet points\n- The tone is warm")
    for _ in range(3):
        read = compiler.read(rubric)
        assert not any(compiler.format_unread(c) for c in rubric.criteria)
    assert sorted(seen) == ["No bullet points", "The tone is warm"]
    assert read.criteria[0].check is not None and read.criteria[1].check is None


@pytest.mark.parametrize(
    ("criterion", "expected"),
    [
        # links, addresses, hashtags, marks: present, absent, counted
        ("Provide two or more links", C.url_count(at_least=2)),
        ("Links are forbidden", C.url_count(exactly=0)),
        ("Give an e-mail address", C.email_count(at_least=1)),
        ("Leave out hashtags entirely", C.hashtag_count(exactly=0)),
        ("Tag it with at least 3 hashtags", None),  # "tag it with" is not read: stays unread
        ("Steer clear of exclamation points", C.mark_count("!", exactly=0)),
        ("No more than one exclamation mark", C.mark_count("!", at_most=1)),
        ("Semicolons are not allowed", C.mark_count(";", exactly=0)),
        ("Never use '&'", C.mark_count("&", exactly=0)),
        (
            "Don't use '!' or 'amazing'",
            C.all_of(C.mark_count("!", exactly=0), C.keywords_forbidden(["amazing"])),
        ),
        # code blocks, tables, JSON and nothing else
        ("Provide the shell commands inside a fenced code block", C.code_block_count(at_least=1)),
        ("Use code blocks for all code", C.code_block_count(at_least=1)),
        ("Show the setup command inside a code block", C.code_block_count(at_least=1)),
        ("Please add a website link", C.url_count(at_least=1)),
        ("Contains two or more code blocks", C.code_block_count(at_least=2)),
        ("Show the prices in a table", C.table_count(at_least=1)),
        ("Your table needs at least 4 columns", C.table_size("columns", at_least=4)),
        ("Build a 2-column table", C.table_size("columns", exactly=2)),
        ("A table with 6 rows, excluding the header", C.table_size("rows", exactly=6)),
        ("The table has at most 3 data rows", C.table_size("rows", at_most=3)),
        ("A table with 6 rows", None),  # with or without its header row? the reader's call
        ("Output JSON and nothing else", C.valid_json()),
        # which kind of list, named with what it lists
        (
            "Go with numbered steps instead of bullet points",
            C.all_of(C.numbered_count(at_least=1), C.bullet_count(exactly=0)),
        ),
        ("Lay out the options as bullet points", C.bullet_count(at_least=1)),
        ("Number each step", C.numbered_count(at_least=1)),
        ("Suggest 4 names as bullet points", C.bullet_count(exactly=4)),
        ("Give at least three examples in a numbered list", C.numbered_count(at_least=3)),
        ("The instructions should be numbered", C.numbered_count(at_least=1)),
        # numbers in digits or in words
        ("Write all figures as numerals", C.number_style("digits")),
        ("Don't use numerals", C.number_style("words")),
        ("Numbers below 10 should be spelled out", C.number_style("words", below=10)),
        # sign-offs, postscripts, endings addressed to someone
        ("Finish the letter with a polite sign-off", C.has_sign_off()),
        (
            "Sign off the note with 'Take care'",
            C.within("text:note", C.has_sign_off("Take care")),
        ),
        ("End with the sign-off 'Yours truly'", C.has_sign_off("Yours truly")),
        ("End with 'See you soon'", C.ends_with("See you soon")),
        ("Include a closing line like 'Cheers'", C.has_sign_off()),
        ("End with a question for your audience", C.ends_with_punctuation("?")),
        ("Add a P.S. at the bottom", C.has_postscript()),
        ("Kick things off... no: open with a question", None),
        ("The opening line should be a question", C.opens_with("question")),
        ("Start the message with a warm greeting", C.opens_with("greeting")),
        ("Never open with a question", C.negate(C.opens_with("question"))),
        ("Open with a question about pricing", None),  # what it asks is content
        ("No bullet points outside the table", None),  # a limit on bullets, not on text
        # a blank line separates paragraphs and stanzas: none leaves one block
        ("No stanza breaks (no blank lines).", C.paragraph_count(at_most=1)),
        ("Don't use line breaks", C.line_count(at_most=1)),
        ("No blank line after the heading", None),  # where, not whether
        # "keep X to N": a part named between is the part's own limit, a unit is per unit
        ("Limit the intro to one sentence", None),
        ("Keep paragraphs to 3 sentences", C.sentence_count(per="paragraph", at_most=3)),
        ("Keep sentences to 20 words", C.word_count(per="sentence", at_most=20)),
        ("Keep the whole thing to 2 paragraphs", C.paragraph_count(at_most=2)),
        ("Keep each bullet to 10 words", C.word_count(per="item", at_most=10)),
        # "only the last...": a rule on the other pieces too, which no check here reads
        ("Only the last sentence is a question", None),
        ("Only the first bullet is bold", None),
        # which kind of JSON value
        ("Output a JSON array", C.valid_json(shape="array")),
        ("Return a JSON object", C.valid_json(shape="object")),
        ("Respond in JSON format", C.valid_json()),
        # typed in a hurry
        ("20 wrds or less", C.word_count(at_most=20)),
        # "and" ends a number unless a scale comes before it
        ("Somewhere between four and six bullet points.", C.bullet_count(at_least=4, at_most=6)),
        ("one hundred and five words or fewer", C.word_count(at_most=105)),
        # the word count said as a subject, however its bound is put
        ("Word count must stay below one hundred.", C.word_count(fewer_than=100)),
        ("Word count: 100 max", C.word_count(at_most=100)),
        ("Total word count no more than 200", C.word_count(at_most=200)),
        ("Word count must not exceed 90.", C.word_count(at_most=90)),
        ("word count not under 300", C.word_count(at_least=300)),
        # "short" explained by a ceiling, an intensifier, a reason in brackets: no more rule
        ("Keep it brief - less than fifty words.", C.word_count(fewer_than=50)),
        (
            "Short paragraphs: max three sentences each.",
            C.sentence_count(per="paragraph", at_most=3),
        ),
        (
            "Short paragraphs please, none longer than 3 sentences.",
            C.sentence_count(per="paragraph", at_most=3),
        ),
        ("Short paragraphs, exactly 3 of them.", None),  # short is a rule of its own there
        ("Keep it short: 3 paragraphs.", None),
        ("Absolutely no emoji.", C.emoji_count(exactly=0)),
        ("Shorter than 100 words? (it's Slack, ppl won't read more)", C.word_count(fewer_than=100)),
        ("No emojis (it's a formal letter)", C.emoji_count(exactly=0)),
        (
            "Under 50 words (it's the subject line that counts)",
            C.within("subject", C.word_count(fewer_than=50)),
        ),
        ("Under 50 words (for the intro)", None),
        # the same reason after a comma or a dash, unless it holds a number or names a part
        ("100 words max, it's a one-minute read.", C.word_count(at_most=100)),
        ("2 emoji max, it's for a shelter website not a text", C.emoji_count(at_most=2)),
        ("At most 3 bullets, since people skim", C.bullet_count(at_most=3)),
        ("Under 50 words; readers are busy", C.word_count(fewer_than=50)),
        ("Max 2 hashtags - they look spammy", C.hashtag_count(at_most=2)),
        ("No headings — it's a Slack message.", C.heading_count(exactly=0)),
        ("No emojis, it's a bullet-free zone", None),  # names a unit: maybe a rule
        ("Max 2 hashtags, it's the caption that counts", None),  # names a part
        ("Keep it short, it's under 100 words", C.word_count(fewer_than=100)),
        ("No more than 3 bullets, they should be short", None),  # a second rule, not a reason
        ("Under 80 words - it must sound friendly", None),
        # a clause with a subject of its own says why or where the text goes
        ("Max 4 bullets, the sidebar is narrow", C.bullet_count(at_most=4)),
        ("No emojis - our printer drops them", C.emoji_count(exactly=0)),
        ("Under 70 words so it fits the flyer", C.word_count(fewer_than=70)),
        ("Two hashtags max (Instagram hides the rest)", C.hashtag_count(at_most=2)),
        # ... or before it, then "so", a colon or a semicolon
        (
            "Support agents skim these, so keep it under 90 words",
            C.word_count(fewer_than=90),
        ),
        ("Kiosk screens are small: at most 4 bullets", C.bullet_count(at_most=4)),
        ("Max 2 emojis. Older customers find them noisy.", C.emoji_count(at_most=2)),
        ("Our tone is formal: no emojis", None),  # a quality asked of the text, not a reason
        ("Customers use phones, so under 50 words", None),  # "use" may be a rule of its own
        # ... or what the rule is for
        ("Close with a question to invite comments", C.ends_with_punctuation("?")),
        ("End with a question to keep the reply short", None),  # "short" is a rule
        # ... or what is counted in, which a count of the whole already does
        (
            "The whole post, links included, must come in under 120 words",
            C.word_count(fewer_than=120),
        ),
        ("Just 2 hashtags permitted", C.hashtag_count(at_most=2)),
        ("Bullets of under ten words apiece", C.word_count(per="item", fewer_than=10)),
        # ... but not when it is a rule on the text, its pieces, its tone or what is counted
        ("Under 60 words, the tone is upbeat", None),
        ("No emojis, the reply is addressed to the landlord", None),
        ("Max 5 bullets, they are sorted by price", None),
        ("Under 60 words, the ending is a question", None),
        ("Each tip under 12 words (the emoji doesn't count)", None),
        (
            "Under 40 words, it is in German",
            C.all_of(C.word_count(fewer_than=40), C.language("de")),
        ),
        ("Exactly 3 hashtags, and all of them sit at the end", None),
        # several outputs, named after a preposition or as texts
        # a plural after a preposition: each of several outputs
        (
            "No full stops at the end of the taglines.",
            C.each("output", C.negate(C.ends_with_punctuation("."))),
        ),
        ("each SMS under 160 characters", C.each("output", C.character_count(fewer_than=160))),
        (
            "Use no more than 3 hashtags in the tweets.",
            C.each("output", C.hashtag_count(at_most=3)),
        ),
        ("No emojis in the captions.", C.emoji_count(exactly=0)),  # the same for each as for all
        ("Numbered steps; seven at most", C.numbered_count(at_most=7)),
        ("Use bullets, 5 max.", C.bullet_count(at_most=5)),
        ("Bullets - 5", None),  # five what, exactly or at most?
        ("Must not exceed 90 words (it has to fit in 30 seconds).", C.word_count(at_most=90)),
        ("Please to write the times in 24 hours format, like 09:00", C.time_format(24)),
        # "the JSON" is the JSON the text holds; "valid JSON" asks that the text be JSON
        ("The JSON must be valid (it should parse).", C.valid_json(embedded=True)),
        ("The JSON must parse.", C.valid_json(embedded=True)),
        ("The JSON is valid.", C.valid_json(embedded=True)),
        ("The output must be valid JSON.", C.valid_json()),
        ("Return the JSON only, no prose.", C.valid_json()),
        (
            "Asks followers a question somewhere in the caption",
            C.within("text:caption", C.mark_count("?", at_least=1)),
        ),
        ("The auto-reply is fewer than 60 words.", C.word_count(fewer_than=60)),
        ("Product blurb cannot exceed fifty words.", C.word_count(at_most=50)),
        ("Mention the product name twice.", None),
        # found on the blind dev-h file
        (
            "Summary section: two sentences or fewer.",
            C.within("section:Summary", C.sentence_count(at_most=2)),
        ),
        (
            "Notes section no longer than one sentence.",
            C.within("section:Notes", C.sentence_count(at_most=1)),
        ),
        (
            "Changes section: three bullets or fewer.",
            C.within("section:Changes", C.bullet_count(at_most=3)),
        ),
        ("Each section under 40 words.", C.each("section", C.word_count(fewer_than=40))),
        ("One section per day.", None),
        ("The explanation section needs a proper Markdown heading (##), not just bold text.", None),
        ("Bullets using the • character, 5 max.", None),  # a glyph named, no characters counted
        ("No more than 280 characters.", C.character_count(at_most=280)),
        # several; the case names no heading of its own, so a piece with none goes to the judge
        ("Headlines in Title Case.", C.each("output", C.heading_case("title", required=False))),
        ("Headings in Title Case.", C.heading_case("title")),
        ("No emojis in any subject line.", C.each("output", C.emoji_count(exactly=0))),
        ("Never use emojis in any response.", C.emoji_count(exactly=0)),
        # a count said after its unit, "of them"
        ("Use bullet points, exactly 4 of them.", C.bullet_count(exactly=4)),
        ("Hashtags - at most 3 of them", C.hashtag_count(at_most=3)),
        ("Use emojis, two of them at most.", C.emoji_count(at_most=2)),
        ("Mention three cities, two of them in Spain.", None),
        # typos of people in a hurry
        ("heading shoud be in sentence case", C.heading_case("sentence")),
        ("no more then 5 bullet points", C.bullet_count(at_most=5)),
        ("3 sentances max", C.sentence_count(at_most=3)),
        ("two pargraphs", C.paragraph_count(exactly=2)),
        ("at most 100 charcters", C.character_count(at_most=100)),
        ("no bulletpoints", C.bullet_count(exactly=0)),
        ("It should'nt have over 10 bullet points.", C.bullet_count(at_most=10)),
        ("shd be under 150 words", C.word_count(fewer_than=150)),
        ("It is more then a summary", None),
        ("under 20 wds", C.word_count(fewer_than=20)),  # not 20 entries called "wds"
        ("3 sents max", C.sentence_count(at_most=3)),
        # a unit named as the place another rule applies: not a demand that it be there
        ("Avoid exclamation marks in the headings", None),
        ("No emojis in the table", None),
        ("Present it in a table", C.table_count(at_least=1)),
        # "no <piece> ends with": every piece the other way, not "no bullets" and an end mark
        ("no bullet ends with a period", C.each("item", C.negate(C.ends_with_punctuation(".")))),
        (
            "No line should end with a period",
            C.each("line", C.negate(C.ends_with_punctuation("."))),
        ),
        # which date, which title
        ("Give the start date as YYYY-MM-DD", C.date_format("YYYY-MM-DD", which="start")),
        ("Dates must follow the DD/MM/YYYY format", C.date_format("DD/MM/YYYY")),
        ("Stick to the MM/DD/YYYY date format", None),  # "stick to" is not read
        ("Please use the MM/DD/YYYY date format", C.date_format("MM/DD/YYYY")),
        ("Write every date like 1999-12-31", C.date_format("YYYY-MM-DD")),
        # a format given by an example date
        ("Write dates out like 'July 4, 1976'", C.date_format("MONTH D, YYYY")),
        ("The deadline should be written like May 9, 2025", C.date_format("MONTH D, YYYY")),
        ("Give dates as in 3 Feb 2025", C.date_format("D MON YYYY")),
        ("Dates like 04/05/2025", None),  # day or month first? the example does not say
        # a question is a sentence ending in a question mark
        ("Ask at most two questions", C.question_count(at_most=2)),
        ("Four questions, no more, no less", C.question_count(exactly=4)),
        ("Answer the question in one sentence", None),
        # headings as a reader sees them; "markdown headings" are only those
        ("Exactly two headings", C.heading_count(exactly=2)),
        ("Use at most 1 heading.", C.heading_count(at_most=1)),
        ("Don't use any headings", C.heading_count(exactly=0)),
        ("Exactly 3 markdown headings", C.section_count(exactly=3)),
        # a table's header row, named so it is no heading
        ("Column headers in Title Case", C.table_header(case="title")),
        ("Table headers should be in sentence case", C.table_header(case="sentence")),
        ("The header row is all caps", C.table_header(case="upper")),
        ("Title case for the column names", C.table_header(case="title")),
        ("Headers in title case", C.heading_case("title")),  # a bare "headers": headings
        (
            "Columns should be Date, Amount, Note (in that order).",
            C.table_header(columns=["Date", "Amount", "Note"], exact=True, ordered=True),
        ),
        (
            "3 columns: Q1 Revenue, Q2 Revenue, Change (%)",
            C.table_header(columns=["Q1 Revenue", "Q2 Revenue", "Change (%)"], exact=True),
        ),
        ("Two columns: Pros, Cons, Notes", None),  # which two?
        (
            "The table has columns for Name, Price and Rating",
            C.table_header(columns=["Name", "Price", "Rating"]),
        ),
        ("Add a 'Notes' column", C.table_header(columns=["Notes"])),
        # a place after each name is an order: "German first, Italian second"
        (
            "3 columns: Term first, Definition second, Example third",
            C.table_header(columns=["Term", "Definition", "Example"], exact=True, ordered=True),
        ),
        ("Include a Total column", C.table_header(columns=["Total"])),
        ("Add a wide column", None),  # a name is quoted or capitalised
        ("Columns are aligned", None),
        ("Column headers should be bold", None),
        ("The columns are Name and Role, and keep it short", None),
        # an alternative in brackets that no rule read: the rule is not read whole
        ("Each item starts with a capital letter (or a number)", None),
        # quiz questions in a list need no "?"; "no title over 8 words" bounds several titles
        ("A numbered list, 5 questions exactly", None),
        ("No title longer than 8 words", C.each("output", C.word_count(at_most=8))),
        ("No headline over 10 words", C.each("output", C.word_count(at_most=10))),
        ("The title is no longer than 8 words", C.within("title", C.word_count(at_most=8))),
        # pieces named in the plural as what ends or starts: a rule on each piece
        (
            "Bullet points shouldn't end with periods",
            C.each("item", C.negate(C.ends_with_punctuation("."))),
        ),
        (
            "No full stop at the end of the list items",
            C.each("item", C.negate(C.ends_with_punctuation("."))),
        ),
        ("Lines start with a capital letter", C.each("line", C.opens_with("capital"))),
        # shorthand and small quantities
        ("every bullet starts w/ a capital letter", C.each("item", C.opens_with("capital"))),
        ("at least half a dozen ingredients", C.entry_count(noun="ingredients", at_least=6)),
        ("no more than a couple of exclamation marks", C.mark_count("!", at_most=2)),
        ("a couple of emojis", None),  # two, or a few?
        ("5 steps or fewer", C.entry_count(noun="steps", at_most=5)),
        ("exactly ten items on the list", C.bullet_count(numbered=True, exactly=10)),
        ("Open with a greeting line", C.opens_with("greeting")),
        # the body, with the parts it already leaves out said again
        (
            "Body no longer than 60 words (not counting subject, greeting, sign-off)",
            C.within("body", C.word_count(at_most=60)),
        ),
        (
            "Story body (title excluded) must be exactly 100 words",
            C.within("body", C.word_count(exactly=100)),
        ),
        ("Body under 50 words (not counting the bullet list)", None),
        # a definition is what follows the term: an entry is the whole item
        ("Keep every definition under 12 words", C.each("definition", C.word_count(fewer_than=12))),
        (
            "Every definition starts with a capital letter",
            C.each("definition", C.opens_with("capital")),
        ),
        # shorthand seen on the blind dev-f file
        (
            "No trailing periods on bullet points.",
            C.each("item", C.negate(C.ends_with_punctuation("."))),
        ),
        ("No trailing periods.", None),  # trailing what: lines, bullets, the text?
        ("Emojis: two at most", C.emoji_count(at_most=2)),
        ("hashtags: none pls", C.hashtag_count(exactly=0)),
        (
            "Three learning objectives - no more, no less.",
            C.entry_count(noun="learning objectives", exactly=3),
        ),
        (
            "Output must be raw JSON only: no code fences, no explanation.",
            C.valid_json(allow_fence=False),
        ),
        ("Dates are ISO 8601 (YYYY-MM-DD).", C.date_format("YYYY-MM-DD")),
        ("Prices: dollar sign plus two decimals, e.g. $1,099.00", C.money_format("$", decimals=2)),
        ("Whole statement under 100 words.", C.word_count(fewer_than=100)),
        # named columns and sections, said other ways
        (
            "Sections are exactly Added, Fixed, Changed, in that order.",
            C.heading_names(["Added", "Fixed", "Changed"], exact=True, ordered=True),
        ),
        (
            "Must have sections called Steps to Reproduce, Expected Result and Actual Result.",
            C.heading_names(["Steps to Reproduce", "Expected Result", "Actual Result"]),
        ),
        (
            "The header row reads Column, Type, Description (those exact words).",
            C.table_header(columns=["Column", "Type", "Description"], exact=True),
        ),
        (
            "Table must have Day, Exercise, Sets and Reps columns.",
            C.table_header(columns=["Day", "Exercise", "Sets", "Reps"]),
        ),
        (
            "Params table needs 3 columns: Name, Type, Default.",
            C.table_header(columns=["Name", "Type", "Default"], exact=True),
        ),
        # a count said twice, a list kind said as "one"
        ("Use three emojis (exactly 3).", C.emoji_count(exactly=3)),
        ("Include one link - exactly one.", C.url_count(exactly=1)),
        ("3 hashtags exactly - not 2, not 4", C.hashtag_count(exactly=3)),
        (
            "Use a bulleted list, not a numbered one.",
            C.all_of(C.bullet_count(at_least=1), C.numbered_count(exactly=0)),
        ),
        ("Do NOT number the references.", C.numbered_count(exactly=0)),
        # several answers, asked as a question
        ("Are all the answers 25 words or under?", C.each("answer", C.word_count(at_most=25))),
        # a language tag on a code block, the % sign, the output's own noun
        (
            "Put the code in a fenced block tagged python.",
            C.code_block_count(language="python", at_least=1),
        ),
        ("Put the command in a bash code block", C.code_block_count(language="bash", at_least=1)),
        ("Put shell commands in code blocks tagged with a language", C.code_tagged()),  # any tag
        ("Use the % sign for percentages", C.percent_sign()),
        ("Percentages always with the % symbol", C.percent_sign()),
        ("Keep the notes under 100 words", C.word_count(fewer_than=100)),
        # nesting
        ("Don't nest lists, keep it flat.", C.nested_item_count(exactly=0)),
        ("No nested bullet points", C.nested_item_count(exactly=0)),
        ("Use a nested list somewhere", C.nested_item_count(at_least=1)),
        ("Must include at least one nested (indented) sub-bullet", C.nested_item_count(at_least=1)),
        ("2 sub-bullets under each point", None),  # per point: no check counts that
        # headings named
        (
            "Three sections: Yesterday, Today, Blockers, in that order",
            C.heading_names(["Yesterday", "Today", "Blockers"], exact=True, ordered=True),
        ),
        ("Two headings: Pros and Cons.", C.heading_names(["Pros", "Cons"], exact=True)),
        (
            "Use 'Day 1', 'Day 2', 'Day 3' as the headings",
            C.heading_names(["Day 1", "Day 2", "Day 3"], exact=True),
        ),
        ("Include an FAQ section", C.heading_names(["FAQ"])),
        ("Only use these section headings: Added, Changed, Fixed", None),  # some of them
        (
            "Section headings should be Title Case",
            C.heading_case("title", skip_title=True),
        ),  # a style
        ("Headings: bold", None),
        ("Add a short section", None),
        # money, times and dates said the short way
        ("Prices: dollar sign + two decimal places", C.money_format("$", decimals=2)),
        # how amounts are written, in any order, when every word says it
        ("Prices as whole dollars, no cents", C.money_format(decimals=0, symbols="ignored")),
        ("Two decimal places for all amounts", C.money_format(decimals=2, symbols="ignored")),
        ("Show cents on every amount, e.g. €450.00", C.money_format(decimals=2, symbols="ignored")),
        (
            "amount always 2 decimals, no currency symbol",
            C.money_format(decimals=2, symbols="forbidden"),
        ),
        ("Prices as plain numbers, no dollar sign (e.g. 16).", C.money_format(symbols="forbidden")),
        ("Amounts with two decimals and the £ sign", C.money_format("£", decimals=2)),
        ("Prices in USD with two decimals", None),  # a currency code: no symbol to check
        ("Amounts with 2 decimals, no cents", None),  # two numbers of decimals: no one rule
        ("Money in millions written like $4.2M", None),
        ("every gift under $50", None),
        ("€ sign before every amount", C.money_format("€")),
        ("Times in 12-hour format with AM/PM (like 9:00 AM)", C.time_format(clock=12)),
        ("24-hour clock (like 9 pm)", None),  # the example says otherwise
        ("Dates in the form YYYY-MM-DD", C.date_format("YYYY-MM-DD")),
        # one date asked for, not every date of the text
        ("Include the full date in the form 'December 13, 2024'", None),
        # the keys of a JSON object, as written
        (
            "JSON must include the keys level, format and output",
            C.json_keys(["level", "format", "output"]),
        ),
        (
            "valid JSON w/ exactly the keys title, servings, steps",
            C.json_keys(["title", "servings", "steps"], exact=True),
        ),
        (
            "The JSON should contain the fields `createdAt` and `userId`",
            C.json_keys(["createdAt", "userId"]),
        ),
        ("Return valid JSON with keys: name, email", None),  # only those? readers differ
        ("No punctuation marks at all", C.punctuation_count(exactly=0)),
        ("Punctuation-free", C.punctuation_count(exactly=0)),
        ("At most 5 punctuation marks", C.punctuation_count(at_most=5)),
        ("No punctuation other than a final period.", None),
        ("Use correct punctuation", None),
        ("No markdown headers", C.section_count(exactly=0)),
        ("Don't use '#' headings", C.section_count(exactly=0)),
        # a Markdown heading's level, however it is named
        ("No H1 headings", C.heading_count(level=1, exactly=0)),
        ("Avoid H1s.", C.heading_count(level=1, exactly=0)),
        ("no level-1 heading", C.heading_count(level=1, exactly=0)),
        ("Exactly one top-level heading", C.heading_count(level=1, exactly=1)),
        ("Use ## headings", C.heading_count(level=2, at_least=1)),
        ("Include second-level headers", C.heading_count(level=2, at_least=1)),
        ("At least two subheadings (H3)", C.heading_count(level=3, at_least=2)),
        ("No more than 3 H2s", C.heading_count(level=2, at_most=3)),
        ("no '##' headers", C.heading_count(level=2, exactly=0)),
        (
            "Use H2 and H3 headings",
            C.all_of(C.heading_count(level=2, at_least=1), C.heading_count(level=3, at_least=1)),
        ),
        # every heading at one level ("H2" is not two headings)
        ("Second-level headings only", C.heading_level(exactly=2)),
        ("Use only H2 headings", C.heading_level(exactly=2)),
        ("All headings are H2", C.heading_level(exactly=2)),
        ("Headings should all be level 2.", C.heading_level(exactly=2)),
        ("Every heading must be a level-3 heading", C.heading_level(exactly=3)),
        ("only ### headings", C.heading_level(exactly=3)),
        # a section heading or a subheading is not the text's title
        ("Every section heading is H3 (###).", C.heading_level(exactly=3, skip_title=True)),
        ("Section headings in H2", C.heading_level(exactly=2, skip_title=True)),
        ("Use H2 for every section heading", C.heading_level(exactly=2, skip_title=True)),
        ("All subheadings are H3", C.heading_level(exactly=3, skip_title=True)),
        ("No H3 or deeper headings", C.heading_level(at_most=2, required=False)),
        (
            "Use only H2 headings, no H1 or H3",
            C.all_of(
                C.heading_level(exactly=2),
                C.heading_count(level=1, exactly=0),
                C.heading_count(level=3, exactly=0),
            ),
        ),
        ("Every heading is a question", None),
        ("Only H2 headings are allowed", None),  # allowed, not asked for
        ("Every heading is short", None),
        ("Headings are bold", None),
        ("Level two headings", C.heading_count(level=2, at_least=1)),
        ("Include a question.", C.mark_count("?", at_least=1)),
        ("Ask the reader a question", C.mark_count("?", at_least=1)),
        ("Pose a rhetorical question", C.mark_count("?", at_least=1)),
        # "the question" is the user's: no mark in the output shows it is answered
        ("Answer the question", None),
        ("Stays on the question asked", None),
        ("Quote the question before answering", None),
        ("Include a question about pricing", None),  # what it asks is content
        ("No full stops anywhere", C.mark_count(".", exactly=0)),
        ("Times on the 24-hour clock", C.time_format(24)),
        ("Use 12-hour times", C.time_format(12)),
        # words that say nothing a check does not
        ("The whole thing in lowercase", C.all_lowercase()),
        ("Split the reply into exactly three paragraphs", C.paragraph_count(exactly=3)),
        ("Must fit within 160 characters", C.character_count(at_most=160)),
        ("Return well-formed JSON", C.valid_json()),
        # a word counted without quotes, where nothing else is meant
        ("Mention cardamom at least twice", C.keyword_count("cardamom", at_least=2)),
        ("Use the word synergy no more than 2 times", C.keyword_count("synergy", at_most=2)),
        ("Mention it twice", None),
        ("Use commas at most 3 times", C.mark_count(",", at_most=3)),  # the mark, no word
        ("Mention the founder's name 3 times", None),
        ("Write the date like 31/12/1999", None),  # day or month first? not settled
        ("Times on the 24-hour clock", C.time_format(24)),
        ("Use 12-hour times with am/pm", C.time_format(12)),
        ("Give all times in 12h format", C.time_format(12)),
        ("The article's headline must use title case", C.heading_case("title")),
        ("Put the headline in sentence case", C.heading_case("sentence")),
        ("Every heading follows title case", C.heading_case("title")),
        ("Add a 4-item list", C.bullet_count(numbered=True, exactly=4)),
        # scope, negation and units
        ("No sentence may exceed 18 words", C.word_count(at_most=18, per="sentence")),
        ("No line should be longer than 9 words", C.word_count(at_most=9, per="line")),
        (
            "No paragraph should have more than 3 sentences",
            C.sentence_count(at_most=3, per="paragraph"),
        ),
        ("No sentence should not exceed 20 words", None),  # two negations: unread
        ("No emojis must be used", None),  # "no X must" is no absence the grammar reads
        # an approximate length has no exact bound
        ("Roughly 3 paragraphs", None),
        ("150 words or so", None),
        ("Approximately forty words", None),
        # a vague length beside a rule is a rule the grammar does not read: the whole stays
        ("Keep it short, and no emojis", None),
        ("A long reply in three paragraphs", None),
        # a permission requires nothing; a target is no exact count; "either" is one of two
        ("Hashtags are fine", None),
        ("You can add a table if helpful", None),
        ("Feel free to use emojis", None),
        ("Up to two hashtags are allowed", C.hashtag_count(at_most=2)),
        ("You may not include links", C.url_count(exactly=0)),
        ("Target 250 words", None),
        ("Aim for 250 words at most", C.word_count(at_most=250)),
        ("Either a table or a bulleted list", None),
        # several outputs, each held to the rule (`test_outputs.py` reads them apart)
        ("Each tweet needs one hashtag", C.each("output", C.hashtag_count(exactly=1))),
        ("Every caption under 12 words", C.each("output", C.word_count(fewer_than=12))),
        ("Keep each item under 10 words", C.word_count(fewer_than=10, per="item")),
        # how a part ends or starts is not how the text does
        ("End each bullet with a full stop", C.each("item", C.ends_with_punctuation("."))),
        ("All bullets end with a period", C.each("item", C.ends_with_punctuation("."))),
        ("Finish the title with a question mark", C.within("title", C.ends_with_punctuation("?"))),
        (
            "Start every paragraph with a question",
            C.each("paragraph", C.opens_with("question")),
        ),
        ("Each line starts with a capital letter", C.each("line", C.opens_with("capital"))),
        ("The first letter is capitalized", C.opens_with("capital")),
        ("Capitalize the first word", C.opens_with("capital")),
        ("Capitalise the first word of every line", C.each("line", C.opens_with("capital"))),
        ("Every bullet starts with a lowercase letter", C.each("item", C.opens_with("lowercase"))),
        ("bullets should start with lowercase letters", C.each("item", C.opens_with("lowercase"))),
        ("All bullets start lowercase.", C.each("item", C.opens_with("lowercase"))),
        ("Begin with a small letter", C.opens_with("lowercase")),
        ("Don't start with a lowercase letter", C.negate(C.opens_with("lowercase"))),
        ("Headings start with a lowercase letter", None),  # a heading is no entry
        ("Write it in lowercase letters", C.all_lowercase()),  # the whole text, not its start
        ("The story shouldn't go past 150 words.", C.word_count(at_most=150)),
        ("Should not run past 3 paragraphs", C.paragraph_count(at_most=3)),
        ("Mention events in the past 5 years", None),
        # an explanation of sentence case is no rule on how the text opens
        ("Headings in sentence case (only the first word capitalised)", C.heading_case("sentence")),
        ("Capitalise the major words of each heading", C.heading_case("title")),
        ("heading in ALL CAPS", C.heading_case("upper")),
        ("Title in capital letters", C.heading_case("upper")),
        # the headings are the subject: not the whole text's case or its first letter
        ("Use capital letters for the headings", None),
        ("Headings start with a capital letter", None),
        ("Bullets are all lowercase", None),  # the bullets' case, not the whole text's
        (
            "All lowercase, at least 3 sentences",
            C.all_of(C.sentence_count(at_least=3), C.all_lowercase()),
        ),
        ("Close the email with a question", C.ends_with_punctuation("?")),
        ("Lowercase headings", C.heading_case("lower")),
        ("Three stanzas", C.paragraph_count(exactly=3)),
        ("Emojis are not allowed", C.emoji_count(exactly=0)),
        ("Has 1 or more emojis", C.emoji_count(at_least=1)),
        ("The tagline runs 8 words or fewer", C.word_count(at_most=8)),
        # "words" holds "or": a list of units is split at whole words only
        ("Avoid all-caps words", C.capital_word_count(exactly=0)),
        ("Please don't write any words in all caps", C.capital_word_count(exactly=0)),
        (
            "No emojis or all-caps words",
            C.all_of(C.emoji_count(exactly=0), C.capital_word_count(exactly=0)),
        ),
        # typed in a hurry
        ("plz no emojis", C.emoji_count(exactly=0)),
        ("dont use hashtags", C.hashtag_count(exactly=0)),
        ("atleast 3 bullet pts", C.bullet_count(at_least=3)),
        ("Four paragraphs, no more, no less", C.paragraph_count(exactly=4)),
        # a rule on part of the text: a check would count all of it
        ("The story itself is under 100 words", None),
        ("Under 50 words, not counting the sign-off", None),
        # ...unless the part is the body, which leaves the greeting out already
        (
            "The body (excluding the greeting) is at most 3 sentences",
            C.within("body", C.sentence_count(at_most=3)),
        ),
        (
            "Apart from the title, no more than 2 paragraphs",
            C.within("body", C.paragraph_count(at_most=2)),
        ),
        (
            "Under 100 words (excluding the greeting and the sign-off)",
            C.within("body", C.word_count(fewer_than=100)),
        ),
        ("Exactly 5 lines, title not counted.", C.within("body", C.line_count(exactly=5))),
        # where the hashtags go, with or without a count
        (
            "3-5 hashtags, placed at the end",
            C.all_of(C.hashtags_at_end(), C.hashtag_count(at_least=3, at_most=5)),
        ),
        (
            "Exactly 2 hashtags, and both sit at the very end of the tweet.",
            C.all_of(C.hashtags_at_end(), C.hashtag_count(exactly=2)),
        ),
        (
            "End the post with hashtags (at least 3).",
            C.all_of(C.hashtags_at_end(), C.hashtag_count(at_least=3)),
        ),
        ("End with a hashtag", C.all_of(C.hashtags_at_end(), C.hashtag_count(at_least=1))),
        ("Add hashtags at the end", C.all_of(C.hashtags_at_end(), C.hashtag_count(at_least=1))),
        ("Put all hashtags at the end", C.hashtags_at_end()),
        ("Put the hashtags at the bottom of the post", C.hashtags_at_end()),
        ("Hashtags go on their own line at the very end.", C.hashtags_at_end(own_line=True)),
        (
            "Hashtags on their own line at the end, not sprinkled through the text.",
            C.hashtags_at_end(own_line=True),
        ),
        ("No hashtags at the end", None),
        ("Use 3 emojis, placed at the end, and 2 hashtags", None),  # the emojis go last
        ("End with #blessed", None),
        # an acrostic: the word spelt, named, quoted or in capitals
        ("The first letters of the lines spell SPRING.", C.acrostic("SPRING")),
        ("First letter of each line spells out hope", C.acrostic("hope")),
        ("An acrostic of the word 'HOPE'", C.acrostic("HOPE")),
        ("Acrostic poem spelling SPRING", C.acrostic("SPRING")),
        ("Is it an acrostic for SUMMER?", C.acrostic("SUMMER")),
        ('Acrostic poem spelling out "HAPPY BIRTHDAY"', C.acrostic("HAPPY BIRTHDAY")),
        ("The initial letters of every line form the word Autumn", C.acrostic("Autumn")),
        ("Acrostic poem for kids", None),  # "kids" is the audience, not the word
        ("Make it an acrostic poem", None),
        ("First letter of every line is capitalised", None),  # no word spelt
        # the text around the code, however the code is set aside
        (
            "Keep it under 80 words, not counting the code.",
            C.within("prose", C.word_count(fewer_than=80)),
        ),
        (
            "Explanation under 65 words total (code not counted).",
            C.within("prose", C.word_count(fewer_than=65)),
        ),
        (
            "Explaination outside the code block: no more than 50 words",
            C.within("prose", C.word_count(at_most=50)),
        ),
        (
            "Explanation: one sentence only (not counting the code)",
            C.within("prose", C.sentence_count(exactly=1)),
        ),
        ("Text outside the code: no emojis", C.within("prose", C.emoji_count(exactly=0))),
        ("No more than 20 lines of code, explanation excluded", None),  # a rule on the code
        # ... or around the hashtags
        (
            "Caption text (hashtags excluded) under 30 words",
            C.within("without_hashtags", C.word_count(fewer_than=30)),
        ),
        (
            "Keep the caption itself, hashtags aside, under 45 words.",
            C.within("without_hashtags", C.word_count(fewer_than=45)),
        ),
        (
            "Caption text (before the hashtags) should end with a question.",
            C.within("without_hashtags", C.ends_with_punctuation("?")),
        ),
        (
            "Under 50 words, hashtags not counted",
            C.within("without_hashtags", C.word_count(fewer_than=50)),
        ),
        ("Caption without hashtags under 30 words", None),  # or: no hashtags at all?
        ("Under 100 words excluding code comments", None),
        (
            "The table has exactly three rows, not counting the header",
            C.table_size("rows", exactly=3),
        ),
        # columns are a table's, whether or not the criterion says "table"
        ("Four columns exactly", C.table_size("columns", exactly=4)),
        ("Don't go over 5 columns", C.table_size("columns", at_most=5)),
        ("Two columns of text per page", None),
        # a rule on a named part of the text
        (
            "Emojis are not allowed in the subject line",
            C.within("subject", C.emoji_count(exactly=0)),
        ),
        (
            "Keep the email subject under 60 characters",
            C.within("subject", C.character_count(fewer_than=60)),
        ),
        ("The headline must not exceed 8 words", C.within("title", C.word_count(at_most=8))),
        (
            "Finish the final paragraph with a question mark",
            C.within("last_paragraph", C.ends_with_punctuation("?")),
        ),
        (
            "The title must not end in a period",
            C.within("title", C.negate(C.ends_with_punctuation("."))),
        ),
        (
            "No hashtags in the opening sentence",
            C.within("first_sentence", C.hashtag_count(exactly=0)),
        ),
        ("The opening line starts with 'Dear'", C.within("first_line", C.starts_with("Dear"))),
        ("Don't put any emojis in the title", C.within("title", C.emoji_count(exactly=0))),
        # layout is the whole text's, and a part's content is the model's
        ("The title should be a level-one markdown heading", None),
        ("Name the product in the first sentence", None),
        ("Every headline under 10 words", C.each("output", C.word_count(fewer_than=10))),
        ("Each title ends with a question mark", C.each("output", C.ends_with_punctuation("?"))),
        ("One blank line between the subject and the body", None),
        # framed as an instruction to the grader: the frame states no rule
        ("Verify that the reply is written in German.", C.language(code="de")),
        ("Please confirm whether there are no emojis", C.emoji_count(exactly=0)),
        ("Check the answer is under 80 words", C.word_count(fewer_than=80)),
        ("Check that the tone is warm", None),
        ("Checklist of 3 items", None),
        # a rule on every piece of a kind: a unit, or an entry ("each tip") of a list or lines
        ("Each tip is 15 words or fewer.", C.each("entry", C.word_count(at_most=15))),
        ("Keep each of the tips under 20 words", C.each("entry", C.word_count(fewer_than=20))),
        ("Every bullet begins with the word 'They'", C.each("item", C.starts_with("They"))),
        ("Each step should be a single sentence", C.each("entry", C.sentence_count(exactly=1))),
        ("Every stanza has four lines", C.each("paragraph", C.line_count(exactly=4))),
        ("No emojis in each tip", C.each("entry", C.emoji_count(exactly=0))),
        ("End with a question for every reader", None),  # whom it is for, not its pieces
        ("Every word capitalised", None),  # a word is no entry
        ("Each section under 40 words", C.each("section", C.word_count(fewer_than=40))),
        ("Each tweet under 280 characters", C.each("output", C.character_count(fewer_than=280))),
        ("Every line has 3 lines", None),  # lines are counted in a stanza only
        ("Each sentence has one sentence", None),
        # bold and italics: a style of highlight, or quoted words that must be in bold
        ("Don't use bold text.", C.highlight_count(style="bold", exactly=0)),
        (
            "No bold or italics",
            C.all_of(
                C.highlight_count(style="bold", exactly=0),
                C.highlight_count(style="italic", exactly=0),
            ),
        ),
        ("At least 3 bolded phrases", C.highlight_count(style="bold", at_least=3)),
        ("Bold the word 'sunlight' at least once.", C.bold_keywords(["sunlight"])),
        ("Make 'Warning' and 'Note' bold", C.bold_keywords(["Warning", "Note"])),
        ("The word 'Total' should be bolded", C.bold_keywords(["Total"])),
        ("Bold 'Total' every time it appears", None),  # every occurrence, not one
        ("Bold the term list comprehension.", None),  # unquoted: which words is the reader's
        ("Highlight at least 3 sections with markdown", C.highlight_count(at_least=3)),
        # the other style named as what not to do
        ("Write numbers as digits, not words.", C.number_style("digits")),
        ("Spell out numbers under ten, not as numerals", C.number_style("words", below=10)),
        # alternatives joined by "or": one of them; negated, none of them
        (
            "Start the answer with 'Yes' or 'No'.",
            C.any_of(C.starts_with("Yes"), C.starts_with("No")),
        ),
        (
            "Never start with 'I' or 'We'",
            C.negate(C.any_of(C.starts_with("I"), C.starts_with("We"))),
        ),
        (
            "End with '!' or '?'",
            C.any_of(C.ends_with_punctuation("!"), C.ends_with_punctuation("?")),
        ),
        ("Start with 'A', 'B'", None),  # neither "and" nor "or": not said which
        # a count of things in the user's own noun: entries
        ("Give exactly five tips.", C.entry_count(exactly=5, noun="tips")),
        ("At most four steps", C.entry_count(at_most=4, noun="steps")),
        (
            "There should be at least four action items",
            C.entry_count(at_least=4, noun="action items"),
        ),
        ("Exactly three tips, numbered", C.numbered_count(exactly=3)),
        ("Mentions three benefits", None),  # what it says, maybe in one sentence
        ("The answer lists three fruits", None),  # "apple, banana and cherry" holds no entries
        ("Takes 3 days", None),
        ("Gives 30 as the answer", None),
        ("The word 'story' appears at least 2 times", C.keyword_count("story", at_least=2)),
        ("5 items", C.entry_count(exactly=5)),  # listed with markers or one per line
        ("A list of 5 items", C.entry_count(exactly=5)),
        ("A JSON array with exactly 3 objects", None),  # what a JSON value holds
        ("no more than 4 steps", C.entry_count(at_most=4, noun="steps")),
        # a range of them, in any of the usual forms
        ("2\u20134 quick replies.", C.entry_count(noun="quick replies", at_least=2, at_most=4)),
        ("between four and seven recipes", C.entry_count(noun="recipes", at_least=4, at_most=7)),
        (
            "at least 3 and at most 6 exercises",
            C.entry_count(noun="exercises", at_least=3, at_most=6),
        ),
        ("Give 3-5 tips", C.entry_count(noun="tips", at_least=3, at_most=5)),
        ("no 3-5 tips", None),  # a negated range says nothing a reader could check
        # an "each" or "every" no rule read: the rule is on every piece, or unread
        ("each <50 chars", C.each("output", C.character_count(fewer_than=50))),
        ("Write every number as a numeral", C.number_style("digits")),  # the same for each
        ("answers three words max", C.each("answer", C.word_count(at_most=3))),
        ("Answers should be in English", C.language("en")),
        # how numbers are written, in any order of words: which style is asked, which ruled out
        ("Use digits rather than words for numbers", C.number_style("digits")),
        ("Figures, not words, for all quantities.", C.number_style("digits")),
        ("no spelled-out numbers", C.number_style("digits")),
        ("spell no numbers out, digits only", C.number_style("digits")),
        ("Use numerals (17, not seventeen).", C.number_style("digits")),
        ("Don't use digits for numbers", C.number_style("words")),
        ("Give the square footage in digits.", None),  # one number, not all
        ("Write it in words", None),  # no number named
        # the text is a list, a table or code and nothing else, or nothing comes before it
        ("bullets only, no intro text", C.nothing_but("list")),
        ("nothing outside the table", C.nothing_but("table")),
        ("Don't write anything before or after the code block.", C.nothing_but("code")),
        ("No commentary around the table", C.nothing_but("table")),
        ("no text before or after the list", C.nothing_but("list")),
        ("No intro sentence or heading — just the bullets", C.nothing_but("list")),
        ("Start straight with the list, no intro line.", C.opens_with("list")),
        ("Only 3 bullets", C.bullet_count(exactly=3)),
        ("The answer contains no introduction sentence.", None),  # in prose, the reader's call
        # the body of a letter or an ad: its own paragraphs, words and ending
        (
            "Two paragraphs between the greeting and the sign-off.",
            C.within("body", C.paragraph_count(exactly=2)),
        ),
        (
            "The body (between greeting and sign-off) should be exactly three paragraphs.",
            C.within("body", C.paragraph_count(exactly=3)),
        ),
        (
            "Body copy (everything after the headline) under 20 words",
            C.within("body", C.word_count(fewer_than=20)),
        ),
        ("The title and the first line are short", None),  # two parts
        # a bold title is one written **in bold**, not any title
        ("Give it a bold title", C.has_title(bold=True)),
        ("Headline in bold at the top", C.has_title(bold=True)),
        ("No bold title", None),  # no title, or a plain one?
        # the entries in alphabetical order
        ("Items in alphabetical order.", C.alphabetical()),
        ("Sorted A-Z", C.alphabetical()),
        ("The list is sorted Z to A", C.alphabetical(descending=True)),
        (
            "Use a bulleted list in alphabetical order",
            C.all_of(C.bullet_count(at_least=1), C.alphabetical()),
        ),
        ("Mentions the alphabet", None),
        # a count of pieces and a bound on each, in one breath
        (
            "3 stanzas, 4 lines each",
            C.all_of(C.paragraph_count(exactly=3), C.each("paragraph", C.line_count(exactly=4))),
        ),
        (
            "5 bullets, each under 10 words",
            C.all_of(C.bullet_count(exactly=5), C.word_count(per="item", fewer_than=10)),
        ),
        ("4 bullet points", C.bullet_count(exactly=4)),  # the list's own unit, not entries
        ("time must include am/pm", C.time_format(12)),
        ("Has a title on its own line", C.has_title()),
        # what no piece may break is what each must keep to
        ("No step longer than 20 words", C.each("entry", C.word_count(at_most=20))),
        ("No tweet longer than two sentences.", C.each("output", C.sentence_count(at_most=2))),
        (
            "No period at the end of the subject line.",
            C.within("subject", C.negate(C.ends_with_punctuation("."))),
        ),
        # a list named without a verb
        ("Ten names in a numbered list.", C.numbered_count(exactly=10)),
        ("Action items as a numbered list", C.numbered_count(at_least=1)),
        ("Times in 24-hour HH:MM format.", C.time_format(24, two_digit_hours=True)),
        # rows counted apart from the header; a bare "5 rows" may or may not count it
        ("At least 4 rows, not counting the header row.", C.table_size("rows", at_least=4)),
        ("Header row plus exactly 4 data rows.", C.table_size("rows", exactly=4)),
        ("no more than 6 body rows", C.table_size("rows", at_most=6)),
        ("7 rows, one for every day of the week", None),
        # a word to find, named as one though unquoted; names known by their capitals
        ("includes the word RSVP", C.keywords_present(["RSVP"])),
        ("Use the words privacy and consent.", C.keywords_present(["privacy", "consent"])),
        ("Avoid the word synergy.", C.keywords_forbidden(["synergy"])),
        (
            "Don't use the words basically or literally",
            C.keywords_forbidden(["basically", "literally"]),
        ),
        ("Keep the word count under 100", C.word_count(fewer_than=100)),
        ("include the word yes or no", None),  # one of two
        ("include the word fast and keep it short", None),  # "keep it short" is no word
        ("Mention both Ana and Ben by name.", C.keywords_present(["Ana", "Ben"])),
        ("Greet Sam by his first name", C.keywords_present(["Sam"])),
        ("Mention participants by name", None),  # no name given
        ("Address the customer by name", None),
        # money with its symbol
        ("All prices should be written with a currency symbol.", C.money_format()),
        ("Amounts use the € symbol", C.money_format("€")),
        ("Use the £ sign for all prices", C.money_format("£")),
        ("Every amount written with $ and two decimal places.", C.money_format("$", decimals=2)),
        ("Prices in dollars", None),  # "$12" or "12 dollars"? either
        ("Prices with 'USD'", None),  # a code, not a symbol
        # a count in brackets after its unit
        ("Use bullet points (5 max)", C.bullet_count(at_most=5)),
        ("Hashtags (at least 3 of them)", C.hashtag_count(at_least=3)),
        # quantifiers said the long way: "none of the", "every one", "N is the limit"
        ("None of the sentences is over 15 words.", C.word_count(per="sentence", at_most=15)),
        ("none of the bullets should be longer than 8 words", C.word_count(per="item", at_most=8)),
        ("Sentences: none of them over 20 words", C.word_count(per="sentence", at_most=20)),
        ("Bullets: keep every one at 12 words or under.", C.word_count(per="item", at_most=12)),
        ("Paragraphs: each one under 50 words.", C.word_count(per="paragraph", fewer_than=50)),
        ("Four paragraphs is the limit.", C.paragraph_count(at_most=4)),
        ("3 hashtags is my max", C.hashtag_count(at_most=3)),
        ("Keep each bullet short - 8 words is the ceiling.", C.word_count(per="item", at_most=8)),
        ("Keep every paragraph brief, 60 words max", C.word_count(per="paragraph", at_most=60)),
        # a part said to be counted in, which the count already does
        ("Under 120 words, sign-off included.", C.word_count(fewer_than=120)),
        ("Max 200 chars (hashtags and emojis included)", C.character_count(at_most=200)),
        (
            "Each step 12 words tops, incl. the step number",
            C.each("entry", C.word_count(at_most=12)),
        ),
        ("Make sure the P.S. is included", None),  # a requirement, not a count's scope
        # a reason in other words; a whole thread is the whole text
        ("No exclamation marks, it comes across as pushy", C.mark_count("!", exactly=0)),
        ("Keep it to 3 hashtags across the entire thread", C.hashtag_count(at_most=3)),
        # an intro or a lead is no first paragraph: a newsletter's intro can be two
        ("Keep the intro to 40 words", None),
        ("Lead paragraph under 50 words", None),
        # a title is one line by what it is: "one-line" says nothing of the text
        ("Give the post a one-line heading", C.has_title()),
        ("Include a headline that fits on a single line", C.has_title()),
        # whose pieces they are, named before them
        (
            "No full stop at the end of the feature bullets",
            C.each("item", C.negate(C.ends_with_punctuation("."))),
        ),
        # SQL keywords, however the case is named; the text's own letters are not meant
        ("Keywords of the SQL? No: SQL keywords in capitals please", None),
        ("sql keywords should all be in upper case", C.sql_keywords("upper")),
        ("Capitalized SQL keywords (SELECT, JOIN, ...)", C.sql_keywords("upper")),
        ("keep the SQL keywords lowercase", C.sql_keywords("lower")),
        # bold first, on each piece
        ("Every bullet opens with a bold keyword", C.each("item", C.opens_with("bold"))),
        ("Begin each step with the action in bold", C.each("entry", C.opens_with("bold"))),
        # "short" said, then what short means
        (
            "Keep bullets short: 12 words max each",
            C.word_count(per="item", at_most=12),
        ),
        (
            "Short sentences: no sentence longer than 18 words.",
            C.word_count(per="sentence", at_most=18),
        ),
        ("Keep paragraphs short.", None),  # how short is not said
        ("Give 8 ideas, exactly.", C.entry_count(noun="ideas", exactly=8)),
        # the section headings, not the title
        ("Section headers in ALL CAPS", C.heading_case("upper", skip_title=True)),
        ("subheadings in sentence case", C.heading_case("sentence", skip_title=True)),
        # the reply not wrapped in quotes or a fence
        ("Don't wrap your answer in quotes.", C.negate(C.wrapped_in_quotes())),
        ("Never put the YAML inside a code fence", C.code_block_count(exactly=0)),
        ("don't wrap the title in quotes", None),  # a part's quotes, not the reply's
        # one heading, quoted
        ("Include a heading called 'Next steps'", C.heading_names(["Next steps"])),
        ("The heading should read 'Refund policy'", C.heading_names(["Refund policy"])),
        ("Heading is '## Setup'", None),  # a level too
        ("H3 heading called 'Setup'", None),  # the level of that heading: no check holds it
        # the greeting and the sign-off, quoted
        ("Salutation: exactly 'Dear Dr Reyes,'", C.starts_with("Dear Dr Reyes,")),
        ("The greeting should be 'Hi all'", C.starts_with("Hi all")),
        ("Begin with exactly 'Good morning'", C.starts_with("Good morning")),
        ("Sign off as 'The Orchard team'.", C.has_sign_off("The Orchard team")),
        ("The greeting is warm", None),
        # whose rule it is, said first
        ("Per the house style guide: no semicolons.", C.mark_count(mark=";", exactly=0)),
        ("As per the brief, under 80 words", C.word_count(fewer_than=80)),
        # several outputs of a kind, each held to the rule
        ("30 words or fewer per update", C.each("output", C.word_count(at_most=30))),
        # pieces a text is divided into under headings: slides, lessons, chapters
        ("At most 3 bullets per release.", C.each("section", C.bullet_count(at_most=3))),
        ("max 4 bullets per slide", C.each("section", C.bullet_count(at_most=4))),
        # the section named last, by its heading
        (
            "At most four bullets under Risks.",
            C.within("section:Risks", C.bullet_count(at_most=4)),
        ),
        (
            "two sentences max below the overview heading",
            C.within("section:overview", C.sentence_count(at_most=2)),
        ),
        ("Keep it under Fifty words", C.word_count(fewer_than=50)),  # a bound, no heading
        # a list named by what it holds: the count of its items
        (
            "Benefits list: no more than 4 bullets",
            C.within("list:benefits", C.bullet_count(at_most=4)),
        ),
        ("keep the packing list to 10 items", C.within("list:packing", C.entry_count(at_most=10))),
        ("Pros bullets: 3 max", C.within("list:pros", C.bullet_count(at_most=3))),
        ("The whole list under 120 words", None),  # the list is the reply: no list named
        # where the text goes, said first, is no rule; a part named there is the rule's place
        ("It's going on a flyer, so 40 words max.", C.word_count(at_most=40)),
        ("goes in a tooltip: under 15 words", C.word_count(fewer_than=15)),
        (
            "It goes in the subject line: under 50 characters",
            C.within("subject", C.character_count(fewer_than=50)),
        ),
        # how long it takes to say is the reason for the length, and its "about" no estimate
        ("It takes about 40 seconds to say, so under 90 words", C.word_count(fewer_than=90)),
        ("120 words max (one minute at 120 wpm)", C.word_count(at_most=120)),
        ("Between 50 and 60 words - roughly 25 seconds.", C.word_count(at_least=50, at_most=60)),
        ("At most 30 seconds long", None),  # the duration is the rule: no check times speech
        ("About 100 words (40 seconds spoken)", None),  # the count itself is an estimate
        # numbers, in digits or words, counted like any other unit
        ("Include a number in every bullet", C.each("item", C.number_count(at_least=1))),
        ("no numbers", C.number_count(exactly=0)),
        ("at least 2 numerals", C.number_count(in_digits=True, at_least=2)),
        ("Same number of bullets under each heading", None),  # "number of" counts nothing
        ("Include the order number", None),  # one number the task names, not any number
        ("no numbers or bullets", None),  # beside bullets, "numbers" may be the numbering
        ("Never number", None),  # a verb: no numbered list, maybe
        # the bold is a label: a colon follows it
        (
            "Every bullet leads with a bold label followed by a colon, e.g. **Cost:**",
            C.each("item", C.opens_with("bold_label")),
        ),
        (
            "each bullet starts with a bolded term and a colon inside the bold",
            C.each("item", C.opens_with("bold_label")),
        ),
        # the case of a data object's keys, however the case is named
        ("Every JSON key must be in snake case", C.key_case("snake")),
        ("field names camelCase please", C.key_case("camel")),
        ("Stick to kebab-case for the keys", None),  # "stick to" is no word of the grammar
        ("SCREAMING_SNAKE_CASE for all keys, including nested ones", C.key_case("upper_snake")),
        ("Property names in PascalCase", C.key_case("pascal")),
        # a width to wrap at is a bound on every line
        (
            "Wrap the body text at 72 chars",
            C.within("body", C.character_count(per="line", at_most=72)),
        ),
        ("wrap lines to 100 columns", C.character_count(per="line", at_most=100)),
        # a count of the code's own lines is no count of the whole text (no check reads it yet)
        ("The snippet must stay under 25 lines", None),
        ("Code block: 12 lines max", None),
        ("At most 3 lines inside the code block", None),
        (
            "Add one code block and keep the reply under 150 words",
            C.all_of(C.code_block_count(exactly=1), C.word_count(fewer_than=150)),
        ),
        ("Keep each bullet short", None),  # how short is not said
        ("None of the questions can be answered with yes or no.", None),
        ("Every one of the lines should rhyme.", None),
        # any punctuation mark at the end, on each piece the criterion names
        ("Lines: no end punctuation", C.each("line", C.negate(C.ends_with_punctuation("any")))),
        (
            "Don't put punctuation at the end of the bullets",
            C.each("item", C.negate(C.ends_with_punctuation("any"))),
        ),
        (
            "Each line should end in a punctuation mark",
            C.each("line", C.ends_with_punctuation("any")),
        ),
        ("Finish without any punctuation", C.negate(C.ends_with_punctuation("any"))),
        ("No punctuation at all", C.punctuation_count(exactly=0)),  # a count, not the last mark
        # plural pieces named before what they go without are each of them, not the text's end
        (
            "Steps: no full stops at the end",
            C.each("entry", C.negate(C.ends_with_punctuation("."))),
        ),
        (
            "Bullet points without a trailing period",
            C.each("item", C.negate(C.ends_with_punctuation("."))),
        ),
        (
            "Omit the period at the end of each sentence",
            C.each("sentence", C.negate(C.ends_with_punctuation("."))),
        ),
        # "no more" restates the count before it
        ("Seven tips, no more", C.entry_count(noun="tips", exactly=7)),
        ("Two emojis max - not more than that", C.emoji_count(at_most=2)),
        ("Four paragraphs and not more", C.paragraph_count(exactly=4)),
        ("Up to 3 links, no more than 5 words each", None),  # "no more than" starts a rule
        # the user's own nouns, numbered, are numbered items
        ("Twelve facts, numbered 1 to 12", C.numbered_count(exactly=12)),
        ("Tips numbered - at least 4 of them", C.numbered_count(at_least=4)),
        ("The numbered list: 6 steps at most", C.numbered_count(at_most=6)),
        ("numbered recipes, 3 max", C.numbered_count(at_most=3)),
        ("Nine questions, numbered 1 to 10", None),  # which is it?
        # contractions, and examples listed as such
        ("Please avoid contractions (can't, won't, etc.)", C.contraction_count(exactly=0)),
        ("Write it without any contractions", C.contraction_count(exactly=0)),
        ("No emojis (hearts, smileys and the like)", C.emoji_count(exactly=0)),
        # a grammatical person ruled out, its pronouns listed or not
        ("Do not write in the first person", C.pronoun_count("first", exactly=0)),
        ("no first-person pronouns please", C.pronoun_count("first", exactly=0)),
        (
            "Avoid first person plural: no we/our/us",
            C.pronoun_count("first_plural", exactly=0),
        ),
        ("Never use second person (you, your)", C.pronoun_count("second", exactly=0)),
        ("No first person (keep it formal)", None),  # an aside, not the pronouns
        # a video's or a transcript's timestamps
        ("All chapter timestamps should be in M:SS", C.timestamp_format("m:ss")),
        ("use HH:MM:SS timecodes", C.timestamp_format("hh:mm:ss")),
        # a title said with its place, or above the piece that is the reply
        ("Headline on the first line, on its own", C.has_title()),
        ("Add a short title above the haiku", C.has_title()),
        ("Headline at the top in bold", C.has_title(bold=True)),
        ("A title above the table", None),  # the table may not be the whole reply
        # a date's format shown by an example without a year, and what it says again
        ("Write dates like 5 June", C.date_format("D MONTH")),
        ("Dates as in 'June 5' - no ordinals (5th)", C.date_format("MONTH D")),
        ("Dates day-first, e.g. '5 June'", C.date_format("D MONTH")),
        ("Dates day-first, like 'June 5'", None),  # the example says otherwise
        # two labelled parts, each its own kind of list
        (
            "Action items as a bulleted list, the timeline as a numbered list",
            C.all_of(
                C.within(
                    "field:action items",
                    C.all_of(C.bullet_count(at_least=1), C.numbered_count(exactly=0)),
                ),
                C.within(
                    "field:timeline",
                    C.all_of(C.numbered_count(at_least=1), C.bullet_count(exactly=0)),
                ),
            ),
        ),
        (
            "Use a bulleted list, not a numbered one",
            C.all_of(C.bullet_count(at_least=1), C.numbered_count(exactly=0)),
        ),
        # several outputs named in a question
        ("Are all the captions under 20 words?", C.each("output", C.word_count(fewer_than=20))),
        # an e-mail's subject line
        ("Begin with an email subject line", C.opens_with("subject")),
        ("The subject line comes first", C.opens_with("subject")),
        ("Include a 'Re: Renewal' line", None),  # what the line says: not read
        # where it has to fit, beside the bound that says how much fits
        ("Must fit on one slide: 40 words max", C.word_count(at_most=40)),
        ("It has to fit in a text message (160 characters max)", C.character_count(at_most=160)),
        ("It has to fit on a postcard", None),  # how much fits is not said
        (  # one line is a rule of its own
            "Must fit on one line: under 60 characters",
            C.all_of(C.line_count(at_most=1), C.character_count(fewer_than=60)),
        ),
        # the text outside the code, a frame of necessity, "short" explained, why it goes out
        ("at most 30 words outside the code block", C.within("prose", C.word_count(at_most=30))),
        ("It is important that the reply has no emojis", C.emoji_count(exactly=0)),
        ("reply should be brief: under 25 words", C.word_count(fewer_than=25)),
        ("No hashtags, it goes out on LinkedIn", C.hashtag_count(exactly=0)),
        # double quotes around the reply, around a piece of it, or none
        ("Wrap your reply in double quotes", C.wrapped_in_quotes()),
        ("Put the slogan in quotation marks", C.quote_count(at_least=1)),
        ("Product names in double quotes", None),  # every one: no count says so
        ("Avoid double quotes", C.quote_count(exactly=0)),
        # a line named by what it holds comes last; what the last line reads
        (
            "The sources line should be the final line",
            C.within("last_line", C.keywords_present(["sources"])),
        ),
        ("Final line must read 'Over and out.'", C.ends_with("Over and out.")),
        # hashtags at the end, with the rest said again
        ("Keep hashtags together at the end, never in the middle", C.hashtags_at_end()),
        ("hashtags at the bottom - none inside the post text", C.hashtags_at_end()),
        # phone numbers: there or not, and written like an example
        ("Add a telephone number", C.phone_count(at_least=1)),
        ("no phone numbers", C.phone_count(exactly=0)),
        # units of measurement: a system, one unit for a quantity, units ruled out
        ("Use metric units only.", C.measurement_units(system="metric")),
        ("No imperial units (ft, sq ft, inches).", C.measurement_units(system="metric")),
        ("Measurements should be in metric", C.measurement_units(system="metric")),
        ("imperial units please", C.measurement_units(system="imperial")),
        ("All weights in kg.", C.measurement_units(unit="kg")),
        ("every temperature given in Celsius", C.measurement_units(unit="°C")),
        ("cooking times in minutes only (no hours)", C.measurement_units(unit="min")),
        ("Distances in miles, not km", C.measurement_units(unit="mi")),
        ("Don't use cups or ounces anywhere", C.measurement_units(forbidden=["cup", "oz"])),
        ("Put a space between number and unit (12 g, not 12g)", C.measurement_units(spaced=True)),
        ("Oven temperature in both Celsius and Fahrenheit", None),  # both: no one unit
        ("Distances in kg", None),  # a unit of another quantity
        ("Times in bold", None),
        ("Metric only (no grams)", None),  # the aside contradicts the rule
        # third person: neither the writer's pronouns nor the reader's
        (
            "Third person only – no 'I', 'me' or 'my'.",
            C.all_of(
                C.pronoun_count(person="first", exactly=0),
                C.pronoun_count(person="second", exactly=0),
            ),
        ),
        (
            "write in the third person",
            C.all_of(
                C.pronoun_count(person="first", exactly=0),
                C.pronoun_count(person="second", exactly=0),
            ),
        ),
        ("The third person to sign", None),
        ("No ellipses", C.mark_count("…", exactly=0)),
        ("Exactly 2 horizontal rules", C.divider_count(exactly=2)),
        ("P.S. ≤ 25 words", C.within("postscript", C.word_count(at_most=25))),
        ("H1 title ≤ 60 characters", C.within("title", C.character_count(at_most=60))),
        ("Use an H1 title", C.heading_count(level=1, at_least=1)),
        ("Add a P.S.", C.has_postscript()),
        (
            "Every object has exactly the keys title, date, start_time.",
            C.json_keys(["title", "date", "start_time"], exact=True),
        ),
        (
            "Don't use the words 'apology' or 'apologise' - say sorry instead.",
            C.keywords_forbidden(["apology", "apologise"]),
        ),
        (
            "Output must be only raw JSON - no markdown code fences.",
            C.valid_json(allow_fence=False),
        ),
        ("Use 'Yours sincerely' as the sign-off.", C.has_sign_off("Yours sincerely")),
        ("The sign-off should be 'Best,'", C.has_sign_off("Best,")),
        (
            "Hashtags go at the very end, all on the last line.",
            C.hashtags_at_end(own_line=True),
        ),
        ("Speaker names in ALL CAPS followed by a colon", C.label_case("upper")),
        ("Sentence case for the bold labels.", C.label_case("sentence")),
        ("Dish names in ALL CAPS", None),  # the dishes' names: no check finds them
        ("Every time listed includes a time zone.", C.time_format(zone="any")),
        ("every time stated should say UTC", C.time_format(zone="UTC")),
        ("Subject line is a question", C.within("subject", C.ends_with_punctuation("?"))),
        ("The headline should be a question", C.within("title", C.ends_with_punctuation("?"))),
        ("The title is a question about cats", None),
        ("The object should have exactly four top-level keys.", C.json_key_count(exactly=4)),
        ("each JSON object has at most 5 keys", C.json_key_count(at_most=5)),
        ("3 key points", C.entry_count(noun="key points", exactly=3)),
        ("Each step should begin with a verb.", C.each("entry", C.opens_with("verb"))),
        ("Each bullet starts with an action verb", C.each("item", C.opens_with("verb"))),
        ("Every bullet starts with a past-tense verb.", None),
        ("has to be valid YAML", C.valid_yaml()),
        ("The YAML must parse.", C.valid_yaml()),
        ("explain each step with a YAML comment", None),
        # a table's rows, the header set aside in other words
        ("Three data rows (not counting the header).", C.table_size("rows", exactly=3)),
        ("9 rows max (excluding the header)", C.table_size("rows", at_most=9)),
        ("Header row + exactly 5 data rows", C.table_size("rows", exactly=5)),
        ("exactly 5 rows of data", C.table_size("rows", exactly=5)),
        ("9 rows max", None),  # whether the header is one of them, readers differ
        ("At least three placeholders", C.placeholder_count(brackets="any", at_least=3)),
        (
            "include at least 2 placeholders in square brackets",
            C.placeholder_count(at_least=2),
        ),
        ("Include the word 'RSVP' in capitals", None),  # that word's case, not the text's
        # @mentions: a handle after "@", however the rule names them
        ("Use an @mention", C.mention_count(at_least=1)),
        ("no @-mentions please", C.mention_count(exactly=0)),
        ("At most two at-mentions", C.mention_count(at_most=2)),
        ("Tag exactly one person with an @mention.", C.mention_count(exactly=1)),
        ("ping two teammates at most", C.mention_count(at_most=2)),
        ("Mention one person by name", None),  # no "@", no tag: content
        ("Contact numbers should be written as 020 7946 0321", C.phone_format("020 7946 0321")),
        # a task list, however it is named
        (
            "Format it as a task list (- [ ]) for each step",
            C.each("item", C.opens_with("checkbox")),
        ),
        (
            "every task should have an empty checkbox",
            C.each("item", C.opens_with("empty_checkbox")),
        ),
        # a date's format said as a noun, a number said twice, a shorthand "each"
        ("Date format: MM/DD/YYYY", C.date_format("MM/DD/YYYY")),
        ("The reply shall not exceed two hundred (200) words", C.word_count(at_most=200)),
        ("bullet points ≤ 15 words ea.", C.word_count(per="item", at_most=15)),
        # a closing aside of a few plain words says why or where, not what
        ("At most 2 emojis (company policy)", C.emoji_count(at_most=2)),
        ("150 words max (about a minute read aloud)", C.word_count(at_most=150)),
        ("Add a title (optional)", None),  # a permission: it asks for nothing
        ("Three hashtags (campaign tags)", None),  # which hashtags: the aside names them
        # an "each" that names no piece is said of the several outputs asked for
        ("12 words max each", C.each("output", C.word_count(at_most=12))),
        ("each ≤ 90 chars", C.each("output", C.character_count(at_most=90))),
        ("Paragraphs under 60 words each", C.word_count(per="paragraph", fewer_than=60)),
        # nothing before the piece asked for, however it is said
        ("Nothing before the table, start right with it", C.opens_with("table")),
        ("No commentary - just the code", C.nothing_but("code")),
        # a blank line after a line of its own
        ("Put a blank line between the subject line and the body", C.blank_line_after("subject")),
        ("separate the greeting from the text by one empty line", C.blank_line_after("greeting")),
        ("Blank lines between paragraphs", None),  # that is how paragraphs are told apart
        # a subject line's letter case, as a headline's
        (
            "Subject line written in Title Case",
            C.within("subject", C.heading_case("title", required=False)),
        ),
        # time order, however it is said
        ("Put the milestones in chronological order", C.chronological()),
        ("Entries sorted by date - earliest first", C.chronological()),
        ("Most recent first, please", C.chronological(descending=True)),
        ("list the releases from newest to oldest", C.chronological(descending=True)),
        ("Reverse chronological order, oldest first", None),  # which?
        # grouped under headings: a count of those headings
        ("Organize it under exactly 4 headings", C.heading_count(exactly=4)),
        # a table's header said not to count, however it is said
        ("4 data rows (the header row doesn't count)", C.table_size(dimension="rows", exactly=4)),
        # the whole reply is the JSON when only it is asked for, of the shape named
        ("Just the JSON, please", C.valid_json()),
        ("Reply with a JSON array only, no commentary", C.valid_json(shape="array")),
        ("JSON only - no prose and no code fences", C.valid_json(allow_fence=False)),
        ("The JSON object must be valid", C.valid_json(embedded=True, shape="object")),
        # a reason after "because" or "since" states no rule
        ("Stay under 40 words because it is read on a watch", C.word_count(fewer_than=40)),
        ("No emojis since our readers are lawyers", C.emoji_count(exactly=0)),
        ("Under 40 words because the title counts too", None),  # names a part: not a reason
        # "reach" is the bound itself: not reaching it is staying below
        (
            "The bio must not reach 80 words",
            C.within("text:bio", C.word_count(fewer_than=80)),
        ),
        ("It should reach 300 words", C.word_count(at_least=300)),
        # "all the tips", "every onboarding step": each piece, whatever word says which
        ("Are all the tips 12 words or fewer?", C.each("entry", C.word_count(at_most=12))),
        ("Every setup step shorter than 8 words", C.each("entry", C.word_count(fewer_than=8))),
        ("Keep all steps under 10 words", C.each("entry", C.word_count(fewer_than=10))),
        ("Steps: 12 words or shorter", C.each("entry", C.word_count(at_most=12))),
        ("all caps", C.all_capitals()),
        # "across all the options" is a total over them, which no piece's count is
        ("No more than 2 emojis across all the options", None),
        ("At most 3 emojis in all the bullets", None),
        # one kind of list said against the other, as adjectives, or as what a subject is
        (
            "Numbered, not bulleted",
            C.all_of(C.numbered_count(at_least=1), C.bullet_count(exactly=0)),
        ),
        (
            "bulleted rather than numbered",
            C.all_of(C.bullet_count(at_least=1), C.numbered_count(exactly=0)),
        ),
        ("The tasks must be a numbered list", C.numbered_count(at_least=1)),
        # the 24-hour clock with the other ruled out; "12-hour, no am/pm" says two clocks
        ("24h clock please, no AM/PM", C.time_format(clock=24)),
        ("12-hour clock, no am/pm", None),
        # a house rule for a kind of text holds of this one when it is the same in each
        ("Hashtags are a no-go", C.hashtag_count(exactly=0)),
        ("No exclamation marks in our customer emails", C.mark_count(mark="!", exactly=0)),
        ("Under 50 words in product descriptions", None),  # each one's, or all together?
        # a rule on what is inside blocks of a kind: on each item, else the judge's
        ("No emojis in bullets", C.each("item", C.emoji_count(exactly=0))),
        (
            "Bullet points without links",
            C.all_of(C.bullet_count(at_least=1), C.each("item", C.url_count(exactly=0))),
        ),
        ("No emojis in headings", None),
        ("Tables with no links", None),
        (
            "Use headings, no emojis",
            C.all_of(C.emoji_count(exactly=0), C.heading_count(at_least=1)),
        ),
        # a thing asked for, then others ruled out: the first is no part of the list
        (
            "Include a link, hashtags are banned",
            C.all_of(C.hashtag_count(exactly=0), C.url_count(at_least=1)),
        ),
        (
            "Hashtags and emojis are not allowed",
            C.all_of(C.hashtag_count(exactly=0), C.emoji_count(exactly=0)),
        ),
        # links dressed as Markdown; bare ones ruled out
        ("No raw URLs", C.url_count(form="bare", exactly=0)),
        (
            "Write every link as a markdown link",
            C.all_of(C.url_count(at_least=1), C.url_count(form="bare", exactly=0)),
        ),
        (
            "links like [label](https://...) only, plain URLs are not ok",
            C.all_of(C.url_count(form="bare", exactly=0), C.url_count(at_least=1)),
        ),
        # a count of columns is no column's name
        ("The table needs 4 columns", C.table_size(dimension="columns", exactly=4)),
        # a section at a heading level is counted by its headings
        ("Two H2 sections", C.heading_count(level=2, exactly=2)),
        ("at most 3 ### subsections", C.heading_count(level=3, at_most=3)),
        ("6 numbered tips", C.numbered_count(exactly=6)),
        # the typos of people in a hurry
        ("exaclty 2 paragraphs", C.paragraph_count(exactly=2)),
        ("maxium 40 words", C.word_count(at_most=40)),
        # the clock named with its pattern
        ("Timestamps as HH:MM 24-hour", C.time_format(clock=24, two_digit_hours=True)),
        ("Keep all the SQL in one code block", C.code_block_count(exactly=1)),
        ("The title line is in bold", C.has_title(bold=True)),
        ("Quotes: 12 words max each", C.each("output", C.word_count(at_most=12))),
        # what closes the text
        ("No commentary below the code block", C.closes_with("code")),
        ("Do not write anything after the list", C.closes_with("list")),
        ("The table goes at the very end", C.closes_with("table")),
        # a prohibition's "can" grants nothing; pieces named, then "each"
        (
            "readers skim, so no tip may run over 12 words",
            C.each("entry", C.word_count(at_most=12)),
        ),
        ("Examples under 20 words each", C.each("entry", C.word_count(fewer_than=20))),
        ("Examples: two sentences apiece", C.each("entry", C.sentence_count(exactly=2))),
        # said to be numbered; one list kind over the other, on the part a subject names
        ("The steps are numbered", C.numbered_count(at_least=1)),
        (
            "Toppings should be bullet points, not numbered",
            C.within(
                "field:Toppings",
                C.all_of(C.bullet_count(at_least=1), C.numbered_count(exactly=0)),
            ),
        ),
        # ... a named part being no reason to read the whole text so
        (
            "Format the steps as a bulleted list, not numbered",
            C.within(
                "field:steps",
                C.all_of(C.bullet_count(at_least=1), C.numbered_count(exactly=0)),
            ),
        ),
        # the rule said again, or who asked for it; whom a reason is about
        ("Four bullets, as the client requested", C.bullet_count(exactly=4)),
        ("Exactly 3 lines - keep it short", C.line_count(exactly=3)),
        ("No emojis, email apps show them as squares", C.emoji_count(exactly=0)),
        (
            "Leave the hashtags out of the caption",
            C.within("text:caption", C.hashtag_count(exactly=0)),
        ),
        # a count after a plural's colon, with its bound; a key and its value are no count
        ("tips: 6 max", C.entry_count(noun="tips", at_most=6)),
        ("Examples: at least 2", C.entry_count(noun="examples", at_least=2)),
        ("replicas: 3", None),
        # a rule that opens with a verb a reason's subject could do is no reason
        ("Strip the emojis, readers hate them", C.emoji_count(exactly=0)),
        ("No contractions (e.g. can't, it's)", C.contraction_count(exactly=0)),
        ("Delete any hashtags", C.hashtag_count(exactly=0)),
        # "both" names the pieces as "all" does; a bound said after what it bounds
        ("Both stanzas under 30 words", C.word_count(per="paragraph", fewer_than=30)),
        ("both tips end with a full stop", C.each("entry", C.ends_with_punctuation(mark="."))),
        ("List five reasons exactly", C.entry_count(noun="reasons", exactly=5)),
        ("Say 'honestly' once at most", C.keyword_count(keyword="honestly", at_most=1)),
        # both bounds ruled out, however it is said
        ("Three sentences - no more, no fewer.", C.sentence_count(exactly=3)),
        ("2 hashtags (not 1, not 3)", C.hashtag_count(exactly=2)),
        ("4 paragraphs, neither more nor fewer", C.paragraph_count(exactly=4)),
        ("5 bullets, nothing more, nothing less", C.bullet_count(exactly=5)),
        # a range with its unit said once
        (
            "at least 3 sentences, no more than 5",
            C.all_of(C.sentence_count(at_least=3), C.sentence_count(at_most=5)),
        ),
        (
            "At least 40 words but under 60",
            C.all_of(C.word_count(at_least=40), C.word_count(fewer_than=60)),
        ),
        (
            "3 bullets minimum, 6 maximum",
            C.all_of(C.bullet_count(at_least=3), C.bullet_count(at_most=6)),
        ),
        ("at least 3 sentences, no more than 5 words each", None),
        # marks a piece may end with, and one piece of a kind named in the singular
        ("No line ends with a comma.", C.each("line", C.negate(C.ends_with_punctuation(",")))),
        (
            "End the statement with a semicolon.",
            C.within("text:statement", C.ends_with_punctuation(";")),
        ),
        ("headings must end with a colon", None),  # each heading: no check reads them apart
        ("Headings end with a period", None),
        ("At most 2 colons", C.mark_count(":", at_most=2)),
        ("Use no more than 3 commas", C.mark_count(",", at_most=3)),
        ("Use no more than 3 dashes", None),  # which dash? not an entry either
        ("No full stop at the end of any bullet.", _NO_END_STOP),
        ("Skip full stops at the ends of bullets.", _NO_END_STOP),
        ("Do not end any bullet with a period.", _NO_END_STOP),
        ("No bullet point should end with a full stop", _NO_END_STOP),
        ("Don't start any line with 'And'", C.each("line", C.negate(C.starts_with("And")))),
        # a participle says how the noun before it ends, not the text
        ("Each field starts with a bold label ending in a colon", None),
        (
            "Each step is one sentence ending with a period.",
            C.each("entry", C.all_of(C.sentence_count(exactly=1), C.ends_with_punctuation("."))),
        ),
        # "no list items over 8 words" limits the items; it does not forbid a list
        ("No list items over 8 words", C.word_count(per="item", at_most=8)),
        ("No bullet point longer than 10 words", C.word_count(per="item", at_most=10)),
        ("no list items", C.bullet_count(numbered=True, exactly=0)),
        # a restatement in a sentence of its own, or a bound after a comma
        ("8 entries. Not 7, not 9.", C.entry_count(exactly=8)),
        ("No emojis. None, anywhere.", C.emoji_count(exactly=0)),
        ("Two sentences, tops.", C.sentence_count(at_most=2)),
        ("emojis: three at the very most", C.emoji_count(at_most=3)),
        # who made the rule; what the text does where it goes
        ("House style bans exclamation marks.", C.mark_count("!", exactly=0)),
        ("Our brand voice never uses emoji.", C.emoji_count(exactly=0)),
        ("Answer in ≤2 sentences (it goes in a tooltip).", C.sentence_count(at_most=2)),
        (
            "Never begin with 'Image of' - the screen reader already says it's an image.",
            C.negate(C.starts_with("Image of")),
        ),
        # "none" over a length is of the pieces just named; of nothing named, unread
        (
            "3 bullets, none over 10 words",
            C.all_of(C.bullet_count(exactly=3), C.word_count(per="item", at_most=10)),
        ),
        ("None over 12 words.", None),
        ("none of them over 12 words", None),
        # one more thing to write, in words that are filler alone
        ("3 bullets, then a summary", None),
        # the frame set aside after the count
        (
            "80-120 words, title not included",
            C.within("body", C.word_count(at_least=80, at_most=120)),
        ),
        ("Title is not included", C.negate(C.has_title())),
        # the negation after the quoted words; a quoted line to start with
        ("The word 'shall' must not appear anywhere.", C.keywords_forbidden(["shall"])),
        ("The word 'synergy' must never be used", C.keywords_forbidden(["synergy"])),
        (
            "'synergy' and 'leverage' should not be used",
            C.keywords_forbidden(["synergy", "leverage"]),
        ),
        ("Does it start with a 'Subject:' line?", C.starts_with("Subject:")),
        # a list kind preferred after an example and a dash; the frame joined by "+"
        (
            "Use numbered points (1., 2., 3.) - not bullets.",
            C.all_of(C.numbered_count(at_least=1), C.bullet_count(exactly=0)),
        ),
        (
            "body max 3 paragraphs (greeting + sign-off don't count)",
            C.within("body", C.paragraph_count(at_most=3)),
        ),
        # a count of entries under a labelled part
        (
            "Method: no more than 6 steps.",
            C.within("field:Method", C.entry_count(noun="steps", at_most=6)),
        ),
        # the text around a block ruled out again after "only"
        ("Respond with JSON only - no intro sentence, no explanation after.", C.valid_json()),
        ("Reply is just the JSON, with no sentences before or after it.", C.valid_json()),
        ("Nothing but the JSON: no intro or explanation sentences.", C.valid_json()),
        ("Code only. No explanation text outside the code block.", C.nothing_but("code")),
        ("Nothing outside the table: no intro, no closing line.", C.nothing_but("table")),
        ("Use a table, no intro", None),  # no "only": an intro is one more rule
        ("JSON only, no emojis", C.all_of(C.valid_json(), C.emoji_count(exactly=0))),
        # a placement ("only in the first line") and an outline's "top-level sections" are
        # not "at least one in the first line" and "four H1 headings"
        ("Emoji only in the first line.", None),
        ("Exclamation marks in the greeting only", None),
        ("Four top-level sections.", None),
        ("Exactly two top-level headings", C.heading_count(level=1, exactly=2)),
        # a range said after the unit, with or without brackets
        ("Use bullets — at least 3 but no more than 6.", C.bullet_count(at_least=3, at_most=6)),
        ("Numbered steps, somewhere between 5 and 7.", C.numbered_count(at_least=5, at_most=7)),
        ("bullets: 3-6", C.bullet_count(at_least=3, at_most=6)),
        ("Use bullets (3-6)", C.bullet_count(at_least=3, at_most=6)),
        ("Use bullets (3-6) with short lines", None),
        # what is too long, said as such
        (
            "If it's 120 words or more (signature included), it's too long.",
            C.word_count(fewer_than=120),
        ),
        ("60+ words is too long for a channel post.", C.word_count(fewer_than=60)),
        ("More than 3 bullets is too many", C.bullet_count(at_most=3)),
        ("Anything over 200 words is too long", C.word_count(at_most=200)),
        ("60+ words is too long for the intro", None),  # a piece's length
        # what a count takes in, said after it
        ("under 100 words, sig included", C.word_count(fewer_than=100)),
        ("Under 45 words, buttons included?", C.word_count(fewer_than=45)),
        ("5 numbered rules - no more.", C.numbered_count(exactly=5)),
        # openings and endings said without "with", or said twice
        ("Begins 'To whom it may concern,'", C.starts_with("To whom it may concern,")),
        ("Ends 'Best, Sam'", C.ends_with("Best, Sam")),
        ("End on a question, with nothing after it.", C.ends_with_punctuation("?")),
        ("Use the 24h clock for all times (no am/pm).", C.time_format(clock=24)),
        # the mark named first, then the pieces it ends
        ("Full stop at the end of all bullets.", C.each("item", C.ends_with_punctuation("."))),
        ("Periods at the end of the bullets", C.each("item", C.ends_with_punctuation("."))),
        # a count of names is no verb of saying
        ("10 names exactly", C.entry_count(noun="names", exactly=10)),
        ("Names 3 benefits", None),
        # "section headers" are not the title; "no all-caps headings" is of each heading
        ("section headers ALL CAPS", C.heading_case("upper", skip_title=True)),
        ("No all-caps headings.", None),
        # what looks like a reason but is a rule, or holds one, stays: no silent drop
        ("3 paragraphs; the middle one is the longest", None),
        ("Exactly 4 lines, they rhyme", None),
        ("No exclamation marks, they read as shouting, and no caps", None),
        ("Under 80 words (it's a push notification, the title counts)", None),
        ("Exactly 3 tips (numbered)", None),  # a rule in brackets, not where it goes
        # one more thing asked for, in a word that is filler alone
        ("Each line starts with a capital letter and a number", None),
        ("Under 50 words and a number", None),
        ("Under 50 words and a summary", None),
        ("Under 100 words with a summary", None),
        ("Title in bold with a number", None),
        (
            "Start with a capital letter and end with a period",
            C.all_of(C.opens_with("capital"), C.ends_with_punctuation(".")),
        ),
        # Markdown as such, and plain text; its elements named as examples say the same rule
        ("No markdown.", C.markdown_count(exactly=0)),
        ("Plain text only.", C.markdown_count(exactly=0)),
        ("Reply in plain text.", C.markdown_count(exactly=0)),
        ("Write it in plain text.", C.markdown_count(exactly=0)),
        ("Markdown-free.", C.markdown_count(exactly=0)),
        ("The response should not contain markdown.", C.markdown_count(exactly=0)),
        ("Markdown is not allowed.", C.markdown_count(exactly=0)),
        ("no markdown formatting whatsoever", C.markdown_count(exactly=0)),
        ("Avoid markdown syntax such as asterisks or pound signs.", C.markdown_count(exactly=0)),
        ("No Markdown formatting like bold or headings.", C.markdown_count(exactly=0)),
        ("No markdown at all (no asterisks, hashes, backticks).", C.markdown_count(exactly=0)),
        (
            "plain text only, no markdown (no bullets, bold or headers)",
            C.all_of(C.markdown_count(exactly=0), C.bullet_count(exactly=0)),
        ),
        (
            "Keep it plain text, no bold or italics.",
            C.all_of(
                C.markdown_count(exactly=0),
                C.highlight_count(style="bold", exactly=0),
                C.highlight_count(style="italic", exactly=0),
            ),
        ),
        ("No markdown tables.", C.table_count(exactly=0)),  # an element names its own unit
        ("Use markdown headings.", C.section_count(at_least=1)),
        ("Answers in plain text.", None),  # a rule on the answers only
        ("Store passwords in plain text.", None),
        ("Don't use Markdown # headings.", C.section_count(exactly=0)),
        # a kind of date, named: decided only where every date of the text agrees
        (
            "Every normalised date is YYYY-MM-DD",
            C.date_format("YYYY-MM-DD", which="normalised"),
        ),
        ("Use ISO dates (YYYY-MM-DD)", C.date_format("YYYY-MM-DD")),
        # "valid JSON" alone does not say whether prose may stand around it
        ("Valid JSON", C.valid_json(embedded=None)),
        ("Respond only with valid JSON.", C.valid_json()),
        ("The JSON must be valid.", C.valid_json(embedded=True)),
        # a piece the reply may label, named bare at the start
        ("Summary: 2 sentences or fewer", C.within("text:summary", C.sentence_count(at_most=2))),
        ("Summary is 2 sentences or fewer", C.within("text:summary", C.sentence_count(at_most=2))),
        # each line labelled "Body:" is held to a rule on "every body"
        ("Every body under 70 characters", C.within("body", C.character_count(fewer_than=70))),
        # several subject lines are no one subject line
        (
            "Subject line under 40 characters.",
            C.within("subject", C.character_count(fewer_than=40)),
        ),
        ("Subject lines under 40 characters.", C.each("output", C.character_count(fewer_than=40))),
        # the order sections come in, which says nothing of other headings
        (
            "Sections in the order About us, The role, Benefits",
            C.heading_names(["About us", "The role", "Benefits"], ordered=True),
        ),
        (
            "Sections must follow the order Added, Changed, Fixed",
            C.heading_names(["Added", "Changed", "Fixed"], ordered=True),
        ),
        ("Sections in the order they were asked", None),
        # a purpose said after the rule, whatever its verb
        ("End with a question to keep the conversation going", C.ends_with_punctuation("?")),
        # where a rule comes from, named after it
        ("No links at all — anti-phishing policy", C.url_count(exactly=0)),
        ("Under 50 words, house rule", C.word_count(fewer_than=50)),
        (
            "Subject line (what shows in the inbox) is under 45 characters.",
            C.within("subject", C.character_count(fewer_than=45)),
        ),
        (
            "Every line under 40 characters so nothing wraps on mobile.",
            C.character_count(per="line", fewer_than=40),
        ),
        ("No double quotes, the bot escapes them.", C.quote_count(exactly=0)),
        ("No square brackets.", C.mark_count("[", exactly=0)),
        # time order said by where the newest or oldest entries stand
        ("Newest update on top", C.chronological(descending=True)),
        ("Oldest entry at the top", C.chronological()),
        ("Newest at the bottom", C.chronological()),
        # a unit used a number of times
        ("Bold used at most once.", C.highlight_count(style="bold", at_most=1)),
        ("Use emojis at most twice.", C.emoji_count(at_most=2)),
        ("Exclamation marks at most once.", C.mark_count("!", at_most=1)),
        ("Use the brand name 3 times", None),
        # how amounts are written, read whole before a symbol alone
        ("Prices in € with no decimals.", C.money_format(symbol="€", decimals=0)),
        ("Prices with the $ sign", C.money_format(symbol="$")),
        # marks named by their names
        ("no backticks — the terminal prints them literally", C.mark_count("`", exactly=0)),
        ("No parentheses, listeners can't hear them", C.mark_count("(", exactly=0)),
        ("No asterisks.", C.mark_count("*", exactly=0)),
        ("Don't use brackets.", None),  # round or square: which, is unsaid
        ("no md — the widget shows raw asterisks and hashes", C.markdown_count(exactly=0)),
        (
            "no bold or italics, our helpdesk shows the raw asterisks",
            C.all_of(
                C.highlight_count(style="bold", exactly=0),
                C.highlight_count(style="italic", exactly=0),
            ),
        ),
        # a bound said after the unit of "each"; what a unit is made of; the subject of a clock
        (
            "3 bullets, each 6 words or fewer",
            C.all_of(C.bullet_count(exactly=3), C.word_count(per="item", at_most=6)),
        ),
        ("7 lines of text max (card height)", C.line_count(at_most=7)),
        ("Times use the 24h clock", C.time_format(clock=24)),
        (
            "No lists or numbering, it's read aloud",
            C.all_of(C.bullet_count(numbered=True, exactly=0), C.numbered_count(exactly=0)),
        ),
        # a part under two names, one of them in brackets
        (
            "first line (the hook) under 50 characters",
            C.within("first_line", C.character_count(fewer_than=50)),
        ),
        ("Hook (first line) under 6 words", C.within("first_line", C.word_count(fewer_than=6))),
        (
            "first line (no emojis) under 50 characters",
            C.within(
                "first_line",
                C.all_of(C.emoji_count(exactly=0), C.character_count(fewer_than=50)),
            ),
        ),
        # "per" and a piece: a rule on every piece, as "each" says it
        ("One sentence per bullet.", C.each("item", C.sentence_count(exactly=1))),
        ("At most one sentence per bullet.", C.each("item", C.sentence_count(at_most=1))),
        ("Max 2 emojis per paragraph.", C.each("paragraph", C.emoji_count(at_most=2))),
        ("Exactly one link per bullet.", C.each("item", C.url_count(exactly=1))),
        ("One sentence per step.", C.each("entry", C.sentence_count(exactly=1))),
        ("Format per the style guide.", None),
        ("Write 100 words per minute.", None),
        # the mark bullet points open with
        ("Use • for bullet points, not hyphens or asterisks.", C.bullet_marker("•")),
        ("Hyphens for bullets, not •", C.bullet_marker("-")),
        ("Use '*' for bullets", C.bullet_marker("*")),
        ("Bullets are marked with hyphens.", C.bullet_marker("-")),
        ("Feature list uses • bullets", C.bullet_marker("•")),
        ("Use one bullet style consistently (all - or all *).", C.bullet_marker()),
        ("Don't mix bullet styles", C.bullet_marker()),
        ("Bullets using the • character, 5 max.", None),  # the count is left unread
        ("No hyphens in bullets", None),
        ("Don't use hyphens for bullets", None),  # which mark, then, is unsaid
        ("Use dashes for ranges", None),
        # "nothing over" is "none over"; @-mentioning anyone is any @mention
        ("Short sentences only: nothing over 15 words.", C.word_count(per="sentence", at_most=15)),
        ("Don't @-mention any person or group.", C.mention_count(exactly=0)),
        ("Never @mention anybody", C.mention_count(exactly=0)),
        # ... and a reason stays one
        ("Keep every message short, they show on mobile: under 60 characters", None),
        ("Max 3 sentences, people skim", C.sentence_count(at_most=3)),
        (
            'Avoid "simply" - it comes across as condescending',
            C.keywords_forbidden(["simply"]),
        ),
        # "any message" of several messages is each one
        (
            "Don't start any message with 'Please'",
            C.each("output", C.negate(C.starts_with("Please"))),
        ),
        # the case said again, or its opposite ruled out; a case naming no piece needs none
        (
            "Headings in sentence case, i.e. only the first word capitalized",
            C.heading_case("sentence"),
        ),
        ("Title case, only the first word capitalized", None),
        ("everything lowercase, even the first word of a sentence", C.all_lowercase()),
        ("all lowercase - no caps at all", C.all_lowercase()),
        (
            "Sentence case please, no title case",
            C.all_of(
                C.heading_case("sentence", required=False),
                C.negate(C.heading_case("title", required=False)),
            ),
        ),
        # a language tag on every code block, whatever the language
        ("Each code fence must have a language hint.", C.code_tagged()),
        ("the snippet goes in a code block tagged with its language", C.code_tagged()),
        ("Code fences, if any, carry a language tag (e.g. ```ts)", C.code_tagged(required=False)),
        (
            "Put the script in a code block with the bash language tag",
            C.code_block_count(language="bash", at_least=1),
        ),
        # sentence case allows proper nouns; a section heading is a section's
        ("Sentence case (names aside)", C.heading_case("sentence", required=False)),
        (
            "Headings in sentence case: capitalise only the first word and proper nouns",
            C.heading_case("sentence"),
        ),
        ("Section heading in sentence case", C.heading_case("sentence", skip_title=True)),
        ("Under 90 words so it fits in 40 seconds", C.word_count(fewer_than=90)),
        # a reason after a dash, with no cue word: who or what the rule is for
        ("No hashtags - our older readers find them confusing", C.hashtag_count(exactly=0)),
        ("Skip the emojis; most of the clients print these out", C.emoji_count(exactly=0)),
        ("No emojis - the sign-off must be bold", None),  # a second rule, not a reason
        # the case of a named piece is not the text's
        ("Hashtags in lowercase only", None),
        ("links all lowercase", None),
        # a closing and a name after it
        (
            "Finish with 'All the best,' followed by your full name on the next line",
            C.has_sign_off("All the best,", named=True),
        ),
        ("Sign off with 'Warmly' and then her name", C.has_sign_off("Warmly", named=True)),
        ("close with a sign-off and the sender's name", C.has_sign_off(named=True)),
        ("End with a question mark and your name", None),
        # an emoji first or last, of the text or of each piece
        ("Kick off every bullet with an emoji", C.each("item", C.opens_with("emoji"))),
        ("Each line should end with an emoji.", C.each("line", C.closes_with("emoji"))),
        ("finish the post with one fitting emoji", C.closes_with("emoji")),
        ("Never open with an emoji", C.negate(C.opens_with("emoji"))),
        ("an emoji at the beginning of each bullet", C.each("item", C.opens_with("emoji"))),
        ("start with an emoji and a bold label", None),
        # "stop at" is a ceiling, not a label named "stop"
        ("Stop at five bullets.", C.bullet_count(at_most=5)),
        ("Tops out at 3 hashtags", C.hashtag_count(at_most=3)),
        ("Don't stop at two examples", C.entry_count(noun="examples", more_than=2)),
        # prose beside a rule against lists says that rule again; as a part, it stays a part
        ("Plain prose, no bulleted lists.", C.bullet_count(exactly=0)),
        ("Should read as flowing prose, not as a list", C.bullet_count(numbered=True, exactly=0)),
        ("no lists whatsoever, just prose", C.bullet_count(numbered=True, exactly=0)),
        (
            "Keep it plain prose without lists of any sort (numbered ones included)",
            None,
        ),
        ("Plain prose please.", None),
    ],
)
def test_more_ways_of_saying_a_format_rule(criterion: str, expected: checks.Check | None) -> None:
    assert parse_criterion(criterion).check == expected, criterion


FAQ_IN_BOLD = "\n\n".join(f"**Question {n}?**\nAnswer {n}." for n in range(1, 6))


@pytest.mark.parametrize(
    ("criterion", "output", "passed"),
    [
        # the "no" that opens a scope negates the bound
        ("No sentence should run over 5 words", "One two three four five. Six.", True),
        ("No sentence should run over 5 words", "One two three four five six.", False),
        # a headline alone is its own title
        ("The headline is in title case", "Ten Ways to Grow Basil Indoors", True),
        ("The headline is in title case", "Ten ways to grow basil indoors", False),
        # "4.8 million" is written in digits; "two" is not
        ("Use numerals for every number", "Sales hit $4.8 million in 12 weeks.", True),
        ("Use numerals for every number", "We opened two new stores.", False),
        ("Spell out numbers under ten", "1. We sold 12 kits to nine schools.", True),
        ("Spell out numbers under ten", "We sold 3 kits.", False),
        # a title on top is a heading too, Markdown or not
        ("Leave out headings", "Spring Menu\n\nSoup, bread and a salad.", False),
        ("Leave out headings", "Soup, bread and a salad.\n\nThen cake.", True),
        # so are a bold line and a label over a list; a poem's lines are not
        ("Exactly two headings", "**Pros**\n- light\n\nCons\n- slow", True),
        ("Exactly two headings", "Roses are red\nviolets are blue\n\nsugar is sweet", False),
        ("No headings", "Roses are red\nviolets are blue\n\nsugar is sweet\nand so are you", True),
        # comma-separated data is a table of rows too, its first line the header
        ("Header row plus exactly 2 data rows.", "name,age\nAna,31\nBen,28", True),
        ("Header row plus exactly 2 data rows.", "```csv\nname,age\nAna,31\n```", False),
        ("At least 1 row, not counting the header", "Hi, Ana.\nThanks, again, Ben.", False),
        # an underscore inside a column's name is part of it, not emphasis
        ("Columns exactly: id, user_name, created_at", "id,user_name,created_at\n1,ana,x", True),
        ("Columns exactly: id, user_name, created_at", "id,username,created_at\n1,ana,x", False),
        # any mark counts as end punctuation: a comma too, not a closing bracket
        ("Bullets without end punctuation", "- ship it\n- test it (twice)", True),
        ("Bullets without end punctuation", "- ship it,\n- test it", False),
        ("Bullets without end punctuation", "- ship it\n- test it!", False),
        ("Every line ends with a punctuation mark", "Roses are red,\nviolets are blue.", True),
        ("Every line ends with a punctuation mark", "Roses are red\nviolets are blue.", False),
        # a comma is a mark a line can end with, on its own too
        ("No line ends with a comma.", "Roses are red\nviolets are blue.", True),
        ("No line ends with a comma.", "Roses are red,\nviolets are blue.", False),
        ("Method: at most 3 steps", "Ingredients:\n- egg\n\nMethod:\n1. Beat.\n2. Fry.", True),
        ("Method: at least 3 steps", "Ingredients:\n- egg\n\nMethod:\n1. Beat.\n2. Fry.", False),
        ("Use no more than 2 commas", "Red, green, blue.", True),
        ("Use no more than 2 commas", "Red, green, blue, white.", False),
        # an FAQ's questions set in bold or as headings are questions
        ("Five questions, no more, no fewer.", FAQ_IN_BOLD, True),
        ("Exactly two questions", "## Can I pay by card?\nYes.\n\n## Why?\nBecause.", True),
        # a sentence ends at its mark, inside bold or italics too
        ("Exactly 3 sentences", "**Great job!** Keep going. _Well done._", True),
        ("No more than 2 sentences", "**Great job!** Keep going. _Well done._", False),
        # a list set out as a table: its rows are its items
        (
            "The list has three items.",
            "| Word | Meaning |\n|---|---|\n| a | x |\n| b | y |\n| c | z |",
            True,
        ),
        ("Make it a list of 4 tips", "- one\n  - detail\n- two\n- three\n- four", True),
        # a piece the reply labels with the noun the rule names is what it holds to
        (
            "Every number in the summary is a numeral.",
            "**Summary:** Sales rose 4%.\n\nWe hired two.",
            True,
        ),
        ("Every number in the summary is a numeral.", "Sales rose 4%. We hired two.", False),
        (
            "Keep the summary under 6 words",
            "## Summary\nSales rose.\n\n## Details\nA long story here, told at length.",
            True,
        ),
    ],
)
def test_read_rules_decide_as_a_person_would(criterion: str, output: str, passed: bool) -> None:
    check = parse_criterion(criterion).check
    assert check is not None, criterion
    assert check(output)[0] is passed


def test_an_approximate_bound_or_a_permission_stays_with_the_judge_without_a_compile_call() -> None:
    from rubricate._judge._compile._compiler import APPROXIMATE, PERMISSION

    model = ScriptedChatModel(script=[])
    judge = Judge(model, compile_checks=True, retry=FAST, max_concurrency=1)

    compiled = judge.compile(
        "- Around two hundred words\n- Three sentences or so\n- You may use emojis"
    )

    assert compiled.usage.calls == 0
    assert [m.reason for m in compiled.mappings] == [APPROXIMATE, APPROXIMATE, PERMISSION]
    assert parse_criterion("Around two hundred words").approximate
