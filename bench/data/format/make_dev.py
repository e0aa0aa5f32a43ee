"""The ordinary-phrasing format DEVELOPMENT set: outputs, criteria and hand labels.

Every label below was set by hand, reading the output. Count-based labels are cross-checked
with plain Python (`verify`, independent of `rubricate.checks`): running this file fails on any
disagreement, then writes `dev.jsonl` next to it. Criteria are phrased the way people write
rubrics (imperative, negative, "under", "no more than", numbers in words), not as IFEval's
templates. Tuning happens on this split only; the test split is written blind, elsewhere.

    python bench/data/format/make_dev.py
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_name("dev.jsonl")


def words(t: str) -> int:
    return len([w for w in t.split() if re.search(r"\w", w)])


def sentences(t: str) -> list[str]:
    flat = re.sub(r"^\s*(?:[-*]|\d+\.)\s+", "", t, flags=re.M)
    flat = re.sub(r"^#+\s*", "", flat, flags=re.M)
    return [s for s in re.split(r"(?<=[.!?])\s+|\n\s*\n", flat) if re.search(r"\w", s)]


def paragraphs(t: str) -> list[str]:
    return [p for p in re.split(r"\n\s*\n", t.strip()) if p.strip()]


def bullets(t: str) -> int:
    return len(re.findall(r"^\s*[-*•] \S", t, flags=re.M))


def numbered(t: str) -> int:
    return len(re.findall(r"^\s*\d+[.)] \S", t, flags=re.M))


def lines(t: str) -> int:
    return len([ln for ln in t.splitlines() if ln.strip()])


def emojis(t: str) -> int:
    return len(re.findall("[\U0001f300-\U0001faff\u2600-\u27bf]", t))


Crit = tuple[str, bool] | tuple[str, bool, Callable[[str], bool]]

OUTPUTS: dict[str, tuple[str, str]] = {}
CRITERIA: dict[str, list[Crit]] = {}


def item(key: str, task: str, output: str, criteria: list[Crit]) -> None:
    OUTPUTS[key] = (task, output)
    CRITERIA[key] = criteria


# --- lists and bullets ---------------------------------------------------------------------
item(
    "bullets-email",
    "Write a short email to the team about Friday's office move.",
    "Hi team,\n\nA few notes before Friday's move:\n\n- Pack your desk by Thursday evening.\n"
    "- Label every box with your name.\n- Take laptops home for the weekend.\n\n"
    "Any questions before then?",
    [
        ("No bullet points.", False, lambda t: bullets(t) == 0),
        ("Don't use any bullet points", False, lambda t: bullets(t) == 0),
        ("The email uses bullet points.", True, lambda t: bullets(t) > 0),
        ("Include a bulleted list with exactly three items", True, lambda t: bullets(t) == 3),
        ("Contains a list of 4 items", False, lambda t: bullets(t) + numbered(t) == 4),
        ("Ends with a question", True),
        ("Never end the email with a question.", False),
        ("Keep it under 60 words.", True, lambda t: words(t) < 60),
        ("Must be at least one hundred words long", False, lambda t: words(t) >= 100),
        ("Avoid numbered lists.", True, lambda t: numbered(t) == 0),
        ("No emojis", True, lambda t: emojis(t) == 0),
    ],
)
item(
    "prose-email",
    "Write a short email to the team about Friday's office move.",
    "Hi team,\n\nBefore Friday's move, please pack your desk by Thursday evening and label every "
    "box with your name. Laptops should go home with you for the weekend.\n\nThanks for your "
    "help, and see you in the new office.",
    [
        ("No bullet points.", True, lambda t: bullets(t) == 0),
        ("The response doesn't use any bullet points.", True, lambda t: bullets(t) == 0),
        ("Use bullets for the action items", False),
        ("Ends with a question", False),
        ("The last sentence must not be a question.", True),
        ("Fewer than fifty words", True, lambda t: words(t) < 50),
        ("Write no more than 3 paragraphs", True, lambda t: len(paragraphs(t)) <= 3),
        ("Exactly two paragraphs", False, lambda t: len(paragraphs(t)) == 2),
        ("The email has three paragraphs", True, lambda t: len(paragraphs(t)) == 3),
    ],
)
item(
    "numbered-recipe",
    "Give me a simple pancake recipe.",
    "# Easy Pancakes\n\n1. Whisk 1 cup of flour with 2 teaspoons of baking powder.\n"
    "2. Add 1 egg and 1 cup of milk, then stir until smooth.\n3. Heat a greased pan over "
    "medium heat.\n4. Pour a quarter cup of batter per pancake.\n5. Flip when bubbles form "
    "and cook until golden.\n\nServe warm with syrup.",
    [
        ("Uses a numbered list", True, lambda t: numbered(t) > 0),
        ("Don't use a numbered list.", False, lambda t: numbered(t) == 0),
        ("Steps are given as a numbered list of 5 steps", True, lambda t: numbered(t) == 5),
        ("A list with six items", False, lambda t: bullets(t) + numbered(t) == 6),
        ("No bullet points", True, lambda t: bullets(t) == 0),
        ("Has a title", True),
        ("The recipe starts with a heading", True),
        ("The heading is in title case.", True),
        ("Headings use sentence case", False),
        ("Under 80 words in total", True, lambda t: words(t) < 80),
        ("Does not end with a question mark", True),
    ],
)
item(
    "bullet-recipe",
    "Give me a simple pancake recipe.",
    "Here is a quick recipe:\n\n* Whisk flour and baking powder.\n* Add an egg and milk.\n"
    "* Cook in a hot pan until golden.\n\nEnjoy!",
    [
        ("Uses a numbered list", False, lambda t: numbered(t) > 0),
        ("Do not number the steps.", True, lambda t: numbered(t) == 0),
        ("Present the steps as bullet points", True, lambda t: bullets(t) > 0),
        ("A bulleted list of 3 steps", True, lambda t: bullets(t) == 3),
        ("The list has at least five items", False, lambda t: bullets(t) + numbered(t) >= 5),
        ("Has a title", False),
        ("Ends with an exclamation mark", True),
        ("Finish with a question for the reader", False),
    ],
)

# --- titles --------------------------------------------------------------------------------
HAIKU = "Cherry blossoms fall\nsoft rain on the temple roof\nspring wakes the river"
item(
    "haiku-untitled",
    "Write a haiku about spring.",
    HAIKU,
    [
        ("The poem has a title", False),
        ("Give it a title.", False),
        ("Don't add a title", True),
        ("The poem has three lines", True, lambda t: lines(t) == 3),
        ("Exactly 3 lines", True, lambda t: lines(t) == 3),
        ("At most 20 words", True, lambda t: words(t) <= 20),
        ("all lowercase", False),
        ("Under ten words", False, lambda t: words(t) < 10),
    ],
)
item(
    "haiku-titled",
    "Write a haiku about spring, with a title.",
    "Spring Rain\n\n" + HAIKU,
    [
        ("The poem has a title", True),
        ("Includes a title line", True),
        ("Has a title in double angle brackets like <<Title>>", False),
        ("The poem is exactly four lines long", True, lambda t: lines(t) == 4),
        ("The title is in title case", True),
        ("No more than fifteen words", True, lambda t: words(t) <= 15),
    ],
)
item(
    "angle-title",
    "Write a haiku about winter with a title in double angular brackets.",
    "<<Winter Quiet>>\n\nsnow on the cedar\nthe kettle hums by the stove\nnight holds its breath",
    [
        ("Has a title wrapped in double angular brackets, e.g. <<title>>", True),
        ("The poem has a title", True),
        ("It doesn't have a title", False),
        ("Write it in lowercase only", False),
    ],
)
item(
    "title-colon",
    "Write a short product blurb for a water bottle.",
    "Title: The Bottle That Keeps Up\n\nOur steel bottle keeps drinks cold for a full day. It "
    "fits every cup holder and weighs less than a paperback.",
    [
        ("Starts with a title", True),
        ("The blurb is titled", True),
        ("The blurb has no title.", False),
        ("At most two sentences", False, lambda t: len(sentences(t)) <= 2),
        ("Keep it to three sentences or fewer", True, lambda t: len(sentences(t)) <= 3),
        (
            "No sentence has more than 12 words",
            True,
            lambda t: all(words(s) <= 12 for s in sentences(t)),
        ),
        (
            "Each sentence is under 10 words",
            False,
            lambda t: all(words(s) < 10 for s in sentences(t)),
        ),
    ],
)
item(
    "untitled-article",
    "Write a short paragraph about bees.",
    "Bees pollinate about a third of the crops we eat. Without them, apples, almonds and "
    "blueberries would become rare and expensive. Protecting wild meadows helps them thrive.",
    [
        ("Include a heading at the top", False),
        ("The response has a title.", False),
        ("Write a single paragraph", True, lambda t: len(paragraphs(t)) == 1),
        ("Exactly 3 sentences", True, lambda t: len(sentences(t)) == 3),
        ("no more than two sentences", False, lambda t: len(sentences(t)) <= 2),
        ("Must contain commas", True),
        ("Don't use commas", False),
        ("Under 200 characters", True, lambda t: len(t.strip()) < 200),
        ("At most 280 characters", True, lambda t: len(t.strip()) <= 280),
    ],
)
item(
    "heading-md",
    "Explain photosynthesis briefly with a heading.",
    "## How plants make food\n\nPlants turn light, water and carbon dioxide into sugar. "
    "Oxygen is released as a by-product.",
    [
        ("Has a title", True),
        ("Begin with a markdown heading", True),
        ("Headings should be in sentence case", True),
        ("Use title case for the heading", False),
        ("The answer is at least 25 words", False, lambda t: words(t) >= 25),
        ("Over 15 words", True, lambda t: words(t) > 15),
    ],
)

# --- endings -------------------------------------------------------------------------------
item(
    "ends-question",
    "Write a friendly note inviting a neighbour to a barbecue.",
    "Hi Sam! We're firing up the grill on Saturday at 5 pm and would love to have you over. "
    "Bring nothing but an appetite. Can you make it?",
    [
        ("Ends with a question", True),
        ("Finish with a question.", True),
        ("Should close by asking a question", True),
        ("Doesn't end with a question", False),
        ("End with a period.", False),
        ("Ends with 'Can you make it?'", True),
        ('The note ends with the phrase "See you there!"', False),
        ("Use no more than 40 words", True, lambda t: words(t) <= 40),
        ("Four sentences or more", True, lambda t: len(sentences(t)) >= 4),
    ],
)
item(
    "ends-statement",
    "Write a friendly note inviting a neighbour to a barbecue.",
    "Hi Sam, we're grilling on Saturday at 5 pm. Come by if you're free. See you there!",
    [
        ("Ends with a question", False),
        ("Never ends with a question.", True),
        ("Ends with 'See you there!'", True),
        ("End with an exclamation point", True),
        ('Sign off with "Cheers, Alex"', False),
        ("Start with 'Hi Sam'", True),
        ('Begins with "Dear Sam"', False),
        ("Must be fewer than 20 words", True, lambda t: words(t) < 20),
        ("Write exactly two sentences", False, lambda t: len(sentences(t)) == 2),
    ],
)
item(
    "signoff",
    "Reply to a customer asking about a late order.",
    "Dear Ms Park,\n\nSorry for the delay. Your order shipped this morning and should arrive "
    "on Thursday.\n\nBest regards,\nSam",
    [
        ('Ends with "Best regards,\nSam"', True),
        ("End the reply with 'Kind regards'", False),
        ('Starts with "Dear"', True),
        ("The reply must not start with 'Hi'", True),
        ("Three paragraphs", True, lambda t: len(paragraphs(t)) == 3),
        ("No more than 2 paragraphs", False, lambda t: len(paragraphs(t)) <= 2),
        ("The reply is at most thirty words", True, lambda t: words(t) <= 30),
    ],
)

# --- emojis ---------------------------------------------------------------------------------
item(
    "emoji-post",
    "Write a short social media post announcing our bakery's new sourdough.",
    "Fresh out of the oven 🍞 Our new sourdough is here! Crusty outside, soft inside. "
    "Come try a slice this weekend 🎉",
    [
        ("No emojis", False, lambda t: emojis(t) == 0),
        ("Avoid emojis.", False, lambda t: emojis(t) == 0),
        ("Include at least one emoji", True, lambda t: emojis(t) >= 1),
        ("Uses emojis", True, lambda t: emojis(t) > 0),
        ("At most one emoji", False, lambda t: emojis(t) <= 1),
        ("Use exactly 2 emojis", True, lambda t: emojis(t) == 2),
        ("Under 280 characters", True, lambda t: len(t.strip()) < 280),
        ("The post is under 15 words", False, lambda t: words(t) < 15),
    ],
)
item(
    "plain-post",
    "Write a short social media post announcing our bakery's new sourdough.",
    "Our new sourdough is here. Crusty outside, soft inside, and baked fresh every morning. "
    "Come try a slice this weekend.",
    [
        ("No emojis", True, lambda t: emojis(t) == 0),
        ("The post must not contain any emojis", True, lambda t: emojis(t) == 0),
        ("Add some emojis", False, lambda t: emojis(t) > 0),
        ("Emoji-free", True, lambda t: emojis(t) == 0),
        ("Fewer than 100 characters", False, lambda t: len(t.strip()) < 100),
        ("Keep it to 3 sentences", True, lambda t: len(sentences(t)) == 3),
    ],
)

# --- case -----------------------------------------------------------------------------------
item(
    "lowercase",
    "Write a tiny poem about the sea, no capitals.",
    "the sea folds its grey hands\nover the sleeping harbour\nand sings to the gulls",
    [
        ("all lowercase", True),
        ("Write everything in lowercase letters", True),
        ("No capital letters at all", True),
        ("Use only capital letters", False),
        ("The poem has a title", False),
        ("Three lines", True, lambda t: lines(t) == 3),
        ("At least 5 lines", False, lambda t: lines(t) >= 5),
    ],
)
item(
    "uppercase",
    "Write a warning sign for a construction site.",
    "DANGER: HARD HAT AREA. NO ENTRY WITHOUT SAFETY BOOTS.",
    [
        ("Written entirely in capital letters", True),
        ("ALL CAPS", True),
        ("Must be in lowercase", False),
        ("Don't write it in all caps", False),
        ("At most ten words", True, lambda t: words(t) <= 10),
        ("Two sentences", True, lambda t: len(sentences(t)) == 2),
    ],
)
item(
    "mixedcase",
    "Write a warning sign for a construction site.",
    "Danger: hard hat area. No entry without safety boots.",
    [
        ("Written entirely in capital letters", False),
        ("Don't use all caps.", True),
        ("all lower case", False),
        ("No more than 10 words", True, lambda t: words(t) <= 10),
    ],
)
item(
    "headings-title-case",
    "Write a short guide to starting a vegetable garden, with section headings.",
    "# Starting a Vegetable Garden\n\n## Choose the Right Spot\n\nPick a place with six hours "
    "of sun.\n\n## Prepare the Soil\n\nMix in compost before planting.\n\n## Water Wisely\n\n"
    "Water deeply twice a week.",
    [
        ("Headings are in title case", True),
        ("Use Title Case for all section headings", True),
        ("Section headings in sentence case", False),
        ("Has at least three headings", True),
        ("Has exactly 2 headings", False),
        ("Has a title", True),
        ("No bullet points", True, lambda t: bullets(t) == 0),
        ("Each paragraph has at most one sentence", True),
        ("Under 60 words", True, lambda t: words(t) < 60),
    ],
)
item(
    "headings-sentence-case",
    "Write a short guide to starting a vegetable garden, with section headings.",
    "# Starting a vegetable garden\n\n## Choose the right spot\n\nPick a place with six hours "
    "of sun. Avoid low corners where water pools.\n\n## Prepare the soil\n\nMix in compost "
    "before planting.",
    [
        ("Headings are in title case", False),
        ("All headings should use sentence case", True),
        ("Headings must not be in title case", True),
        ("Each paragraph has at most one sentence", False),
        ("No paragraph has more than two sentences", True),
        ("Use headings", True),
        ("Don't use any headings", False),
    ],
)

# --- dates and numbers ----------------------------------------------------------------------
item(
    "dates-iso",
    "List the project milestones with their dates.",
    "- Kickoff: 2024-03-04\n- Design review: 2024-04-15\n- Launch: 2024-06-30",
    [
        ("Dates are in YYYY-MM-DD format", True),
        ("Write all dates as YYYY-MM-DD", True),
        ("Use the DD/MM/YYYY format for dates", False),
        ("Dates use ISO 8601 format", True),
        ("Exactly three bullet points", True, lambda t: bullets(t) == 3),
        ("Uses a numbered list", False, lambda t: numbered(t) > 0),
        ("A list with 3 items", True, lambda t: bullets(t) + numbered(t) == 3),
    ],
)
item(
    "dates-words",
    "List the project milestones with their dates.",
    "1. Kickoff: March 4, 2024\n2. Design review: April 15, 2024\n3. Launch: June 30, 2024",
    [
        ("Dates are in YYYY-MM-DD format", False),
        ("Format every date as YYYY-MM-DD.", False),
        ("Uses a numbered list", True, lambda t: numbered(t) > 0),
        ("No bullets", True, lambda t: bullets(t) == 0),
        ("A list of three items", True, lambda t: bullets(t) + numbered(t) == 3),
        ("The list has more than 3 items", False, lambda t: bullets(t) + numbered(t) > 3),
    ],
)
item(
    "dates-mixed",
    "Summarize the meeting schedule.",
    "We meet on 2024-05-02 for planning and on 05/16/2024 for the review.",
    [
        ("Dates should be written as YYYY-MM-DD", False),
        ("Use ISO dates (YYYY-MM-DD)", False),
        ("One sentence", True, lambda t: len(sentences(t)) == 1),
        ("Write under twenty words", True, lambda t: words(t) < 20),
    ],
)

# --- length, per paragraph / sentence -------------------------------------------------------
LONG = (
    "Remote work has changed how teams communicate. Meetings moved online, and written updates "
    "became the main way to share progress across time zones.\n\n"
    "Many companies found that clear documentation matters more than ever. When people cannot "
    "tap a colleague on the shoulder, a well-kept wiki saves hours every week. Teams that write "
    "things down make fewer repeated mistakes.\n\n"
    "Still, some conversations need a live call. Hard feedback, brainstorming and onboarding "
    "go better face to face, even on a screen."
)
item(
    "three-paragraphs",
    "Write three paragraphs about remote work.",
    LONG,
    [
        ("Exactly three paragraphs", True, lambda t: len(paragraphs(t)) == 3),
        (
            "The response should have at least four paragraphs",
            False,
            lambda t: len(paragraphs(t)) >= 4,
        ),
        ("Between 2 and 4 paragraphs", True, lambda t: 2 <= len(paragraphs(t)) <= 4),
        (
            "Each paragraph has at most three sentences",
            True,
            lambda t: all(len(sentences(p)) <= 3 for p in paragraphs(t)),
        ),
        (
            "No paragraph should have more than 2 sentences",
            False,
            lambda t: all(len(sentences(p)) <= 2 for p in paragraphs(t)),
        ),
        (
            "Keep every sentence under 25 words",
            True,
            lambda t: all(words(s) < 25 for s in sentences(t)),
        ),
        (
            "Sentences must be shorter than 15 words",
            False,
            lambda t: all(words(s) < 15 for s in sentences(t)),
        ),
        (
            "Each paragraph is under 50 words",
            True,
            lambda t: all(words(p) < 50 for p in paragraphs(t)),
        ),
        (
            "Every paragraph has at least thirty words",
            False,
            lambda t: all(words(p) >= 30 for p in paragraphs(t)),
        ),
        ("Write more than 70 words", True, lambda t: words(t) > 70),
        ("The answer is 100 words or fewer", True, lambda t: words(t) <= 100),
        ("Don't exceed seventy words", False, lambda t: words(t) <= 70),
        ("at least seven sentences", True, lambda t: len(sentences(t)) >= 7),
        ("No more than six sentences", False, lambda t: len(sentences(t)) <= 6),
        ("Uses no bullet points", True, lambda t: bullets(t) == 0),
    ],
)
item(
    "one-paragraph",
    "Summarize remote work in one paragraph.",
    "Remote work moved meetings online and made written updates central. Clear documentation "
    "became essential, though some conversations still need a live call.",
    [
        ("One paragraph only", True, lambda t: len(paragraphs(t)) == 1),
        ("Write at least two paragraphs", False, lambda t: len(paragraphs(t)) >= 2),
        ("Must be two sentences", True, lambda t: len(sentences(t)) == 2),
        ("Fewer than 3 sentences", True, lambda t: len(sentences(t)) < 3),
        ("More than three sentences", False, lambda t: len(sentences(t)) > 3),
        ("Between 20 and 30 words", True, lambda t: 20 <= words(t) <= 30),
        ("Max 20 words", False, lambda t: words(t) <= 20),
        (
            "Each sentence should be no longer than 15 words",
            True,
            lambda t: all(words(s) <= 15 for s in sentences(t)),
        ),
        (
            "Every sentence has fewer than ten words",
            False,
            lambda t: all(words(s) < 10 for s in sentences(t)),
        ),
    ],
)
item(
    "tweet",
    "Write a tweet about our product launch.",
    "Launch day! Our new note-taking app syncs across all your devices and works offline. "
    "Try it free for 30 days.",
    [
        ("Under 280 characters", True, lambda t: len(t.strip()) < 280),
        ("Must not exceed 100 characters", False, lambda t: len(t.strip()) <= 100),
        ("at least 50 characters", True, lambda t: len(t.strip()) >= 50),
        ("Use no more than two sentences", False, lambda t: len(sentences(t)) <= 2),
        ("Three sentences or fewer", True, lambda t: len(sentences(t)) <= 3),
        ("Twenty words or more", True, lambda t: words(t) >= 20),
        ("More than twenty words", False, lambda t: words(t) > 20),
    ],
)
item(
    "short-lines",
    "Write a short poem about the city at night.",
    "Neon hums on wet streets\nTaxis drift like slow fish\nA window glows then dies\n"
    "The city dreams awake",
    [
        ("Four lines", True, lambda t: lines(t) == 4),
        ("The poem has no more than 3 lines", False, lambda t: lines(t) <= 3),
        (
            "Each line has at most five words",
            True,
            lambda t: all(words(ln) <= 5 for ln in t.splitlines() if ln.strip()),
        ),
        (
            "Every line is under 4 words",
            False,
            lambda t: all(words(ln) < 4 for ln in t.splitlines() if ln.strip()),
        ),
        ("Don't use commas", True),
        ("Untitled: no title", True),
        ("No emojis", True, lambda t: emojis(t) == 0),
    ],
)
item(
    "bullets-per-item",
    "List three tips for better sleep.",
    "- Go to bed at the same time every night.\n- Keep your bedroom cool and dark.\n"
    "- Put your phone away an hour before bed.",
    [
        (
            "Each bullet point is at most ten words",
            True,
            lambda t: all(words(ln) - 1 <= 10 for ln in t.splitlines()),
        ),
        (
            "Keep each bullet under 8 words",
            False,
            lambda t: all(words(ln) - 1 < 8 for ln in t.splitlines()),
        ),
        ("Exactly three bullet points", True, lambda t: bullets(t) == 3),
        ("At least 4 bullets", False, lambda t: bullets(t) >= 4),
        ("No numbered list", True, lambda t: numbered(t) == 0),
        ("Has a title", False),
    ],
)

# --- words, commas, quotes, json, language ---------------------------------------------------
item(
    "no-commas",
    "Describe your morning routine without commas.",
    "I wake up at six and drink a glass of water. Then I stretch for ten minutes and make "
    "coffee. After that I read the news before work.",
    [
        ("No commas", True),
        ("Don't use any commas.", True),
        ("Avoid commas entirely", True),
        ("Use at least 3 sentences", True, lambda t: len(sentences(t)) >= 3),
        ("Fewer than thirty words", True, lambda t: words(t) < 30),
        ("Over 40 words", False, lambda t: words(t) > 40),
    ],
)
item(
    "quoted",
    "Give me a one-line motivational quote, in quotation marks.",
    '"Small steps every day add up to big changes."',
    [
        ("Wrap the whole response in double quotes", True),
        ("Put the entire answer in quotation marks", True),
        ("Exactly one sentence", True, lambda t: len(sentences(t)) == 1),
        ("The quote is under 10 words", True, lambda t: words(t) < 10),
        ("Ends with a question", False),
    ],
)
item(
    "unquoted",
    "Give me a one-line motivational quote, in quotation marks.",
    "Small steps every day add up to big changes.",
    [
        ("Wrap the whole response in double quotes", False),
        ("Ends with a period", True),
        ("Must be at least twelve words", False, lambda t: words(t) >= 12),
    ],
)
item(
    "json-out",
    "Return the user's name and age as JSON.",
    '{"name": "Ana", "age": 34}',
    [
        ("Output valid JSON", True),
        ("The answer must be in JSON format", True),
        ("No commas", False),
        ("Under 20 words", True, lambda t: words(t) < 20),
    ],
)
item(
    "json-broken",
    "Return the user's name and age as JSON.",
    "Here is the JSON: {name: Ana, age: 34}",
    [
        ("Output valid JSON", False),
        ("The whole response is valid JSON", False),
        ("Begins with 'Here is'", True),
    ],
)
item(
    "french",
    "Réponds en français : quel temps fait-il à Paris au printemps ?",
    "Au printemps, il fait doux à Paris. Les journées s'allongent et les parcs se remplissent "
    "de fleurs, même s'il pleut encore souvent.",
    [
        ("Written in French", True),
        ("The answer is in English", False),
        ("Respond in French and use at most 2 sentences", True, lambda t: len(sentences(t)) <= 2),
        ("No more than twenty-five words", True, lambda t: words(t) <= 25),
        ("Use fewer than 15 words", False, lambda t: words(t) < 15),
    ],
)
item(
    "keywords",
    "Write a product description for a backpack.",
    "This backpack is waterproof and light. A padded sleeve protects your laptop, and the "
    "waterproof zips keep rain out.",
    [
        ("Mention the word 'waterproof'", True),
        ('Use the word "waterproof" at least twice', True),
        ("Use the word 'laptop' at least 3 times", False),
        ("Don't use the word 'cheap'", True),
        ("Avoid the words 'light' and 'heavy'", False),
        ("Include the keywords 'padded' and 'durable'", False),
        ("Two sentences or fewer", True, lambda t: len(sentences(t)) <= 2),
    ],
)

# --- content criteria that must stay with the judge (labels still by hand) ------------------
item(
    "content-mixed",
    "Write three bullet points on why exercise helps.",
    "- Exercise strengthens the heart.\n- It lifts your mood.\n- It helps you sleep better.",
    [
        ("Exactly three bullet points, each about a health benefit", True),
        ("Uses a friendly tone and no bullet points", False),
        ("The bullet points mention sleep", True),
    ],
)

criteria_count = sum(len(c) for c in CRITERIA.values())


def build() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    problems: list[str] = []
    for key, (task, output) in OUTPUTS.items():
        crits = []
        for index, entry in enumerate(CRITERIA[key], start=1):
            description, label = entry[0], entry[1]
            if len(entry) == 3:
                verified = entry[2](output)  # type: ignore[misc]
                if verified != label:
                    problems.append(
                        f"{key}#{index} {description!r}: hand {label}, count {verified}"
                    )
            crits.append({"id": f"c{index}", "description": description, "label": label})
        rows.append(
            {
                "id": f"format-dev:{key}",
                "source": "format-dev",
                "task": task,
                "output": output,
                "criteria": crits,
            }
        )
    if problems:
        raise SystemExit("labels disagree with the counts:\n" + "\n".join(problems))
    return rows


if __name__ == "__main__":
    rows = build()
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    labels = [c["label"] for r in rows for c in r["criteria"]]
    print(f"{len(rows)} outputs, {len(labels)} criteria ({sum(labels)} pass) -> {OUT}")
