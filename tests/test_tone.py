"""Criteria about tone alone: recognised however they are phrased, and on the embedded model
decided at their own, stricter bar and marked `unsure`."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from fakes import yes_no
from rubricate import Judge
from rubricate._judge._confidence import TONE_PASS_THRESHOLD, UNSURE_BAND
from rubricate._judge._retry import RetryPolicy
from rubricate._judge._tone import about_tone
from rubricate.testing import GrammarScriptedChatModel, ScriptedChatModel, joint_reply

FAST = RetryPolicy(max_retries=0, initial_delay=0, max_delay=0)

TONE = [
    "The reply is polite.",
    "polite but firm",
    "Warm, affectionate tone",
    "Not sarcastic",
    "no sarcasm",
    "Doesn't sound defensive",
    "Avoid sounding pushy or condescending.",
    "Is the tone encouraging?",
    "The email should sound confident, not arrogant",
    "Responds to the user in a respectful, non-dismissive way",
    "It's professional",
    "Keeps a casual, chatty tone throughout.",
    "Written in a formal, businesslike register.",
    "tone: friendly",
    "A friendly reminder with no passive aggression",
]
NOT_TONE = [
    "Ends with 'Kind regards'",  # a sign-off, and a quoted phrase
    "Kind regards at the end",
    "Uses kid-friendly words",
    "Recommends a warm coat",
    "Mentions the friendly staff",
    "Apologises and offers a refund in a friendly way",  # content as well as tone
    "Neutral tone (no opinions of the writer)",  # says what neutral means: content
    "Laid out like a formal letter: date, salutation, body, sign-off",
    "The summary conveys this fact: The council was polite to residents.",
    "Under 50 words",
    "Says 'be polite' to the bot",
    "Uses the passive voice",  # grammar, not tone
]


@pytest.mark.parametrize("description", TONE)
def test_criteria_about_tone_alone_are_recognised(description: str) -> None:
    assert about_tone(description)


@pytest.mark.parametrize("description", NOT_TONE)
def test_criteria_that_ask_for_more_than_a_tone_are_not(description: str) -> None:
    assert not about_tone(description)


def _yes_at(p_yes: float) -> Any:
    def reply(messages: Any, kwargs: dict[str, Any]) -> AIMessage:
        if "grammar" not in kwargs:
            return AIMessage("The reply brushes the customer off.")
        return yes_no(p_yes)

    return reply


def test_a_tone_criterion_needs_the_stricter_bar_on_the_embedded_model() -> None:
    # The model's usual lean to "yes": clear of the uncertainty band, short of the tone bar.
    p_yes = (UNSURE_BAND[1] + TONE_PASS_THRESHOLD) / 2
    model = GrammarScriptedChatModel(script=[_yes_at(p_yes)], repeat_last=True)
    rubric = "- The reply is polite\n- Mentions the courier"

    tone, content = Judge(model, retry=FAST).evaluate(rubric, output="Not our problem.").criteria

    assert (tone.passed, tone.unsure, tone.confidence) == (False, True, pytest.approx(p_yes))
    assert tone.gap == "The reply brushes the customer off."
    assert f"stricter bar P(yes) >= {TONE_PASS_THRESHOLD:.2f}" in tone.reason
    assert "tone" in tone.reason
    assert content.passed and not content.unsure
    # A sure "yes" still passes, and is still marked for a look.
    sure = GrammarScriptedChatModel(script=[_yes_at(0.99)], repeat_last=True)
    [polite] = Judge(sure, retry=FAST).evaluate("- The reply is polite", output="Thanks!").criteria
    assert (polite.passed, polite.unsure) == (True, True)


def test_a_remote_judge_keeps_its_own_verdict_on_tone() -> None:
    # A large remote model reads tone well enough: no bar, no flag beyond its own confidence.
    model = ScriptedChatModel(script=[joint_reply(("C1", "pass", ""))])

    [verdict] = (
        Judge(model, retry=FAST).evaluate("- The reply is polite", output="Thanks!").criteria
    )

    assert verdict.passed and not verdict.unsure
