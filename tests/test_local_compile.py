"""One compile on the real embedded model: format criteria become checks, a fact does not."""

from __future__ import annotations

import pytest

from rubricate import Judge
from rubricate._judge._compile._compiler import NAMES_NO_CHECK, READ_IN_CODE

pytestmark = pytest.mark.local_model


def test_the_embedded_model_compiles_a_word_limit_and_leaves_a_fact_to_the_judge() -> None:
    judge = Judge("local", compile_checks=True)
    compiled = judge.compile(
        "- The response has fewer than 100 words.\n- The summary says the mayor resigned.\n"
        "- Every bullet point names a fruit."
    )

    words, fact, bullets = compiled.mappings
    assert words.reason == READ_IN_CODE  # the phrase grammar reads it: no model call for it
    assert words.decided_by == "check", compiled.describe()
    assert words.check is not None and words.check.name == "word_count"
    assert words.check("word " * 99)[0] is True
    assert words.check("word " * 100)[0] is False
    assert fact.decided_by == "judge", compiled.describe()
    assert fact.reason == NAMES_NO_CHECK  # a fact names no check: it never reaches the model
    # The grammar cannot read the bullet rule whole (what each bullet names is content), and it
    # names a check, so the model is asked about it (whatever it answers, its mapping is
    # validated against the criterion's own words).
    assert compiled.usage.calls >= 1
    assert bullets.reason not in (READ_IN_CODE, NAMES_NO_CHECK), compiled.describe()

    evaluation = judge.evaluate(compiled.rubric, output="The mayor resigned on Monday.")
    assert [v.decided_by for v in evaluation.criteria][:2] == ["check", "judge"]
    assert evaluation.criteria[0].passed
