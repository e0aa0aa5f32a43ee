"""Code a deepagents user has, written against deepagents' own `RubricMiddleware`.

tests/test_deepagents_parity.py runs it as it is and with only its import line changed to
rubricate (`from deepagents.middleware import (` becomes `from rubricate import (`); the two
runs must show the same.
"""

from __future__ import annotations

from typing import Any

from deepagents import create_deep_agent
from deepagents.middleware import (
    RUBRIC_GRADER_MESSAGE_SOURCE,
    CriterionEval,
    GraderVerdict,
    RubricEvaluation,
    RubricMiddleware,
    RubricResult,
)
from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.memory import InMemorySaver

GIVE_UP: set[RubricResult] = {"max_iterations_reached", "failed", "grader_error"}
GRADER_VERDICTS: set[GraderVerdict] = {"satisfied", "needs_revision", "failed"}


def main(worker: BaseChatModel, grader: BaseChatModel) -> dict[str, Any]:
    """Run a revision loop and report what the user's code sees of it."""
    seen: list[RubricEvaluation] = []
    gave_up: list[str] = []

    def on_evaluation(evaluation: RubricEvaluation) -> None:
        seen.append(evaluation)
        if evaluation["result"] in GIVE_UP:
            gave_up.append(evaluation["result"])

    agent = create_deep_agent(
        model=worker,
        middleware=[
            RubricMiddleware(
                model=grader, max_iterations=2, on_evaluation=on_evaluation, system_prompt=None
            )
        ],
        checkpointer=InMemorySaver(),
    )
    config: Any = {"configurable": {"thread_id": "user"}}
    request = {"messages": [{"role": "user", "content": "What is the capital of France?"}]}
    events = [
        event
        for event in agent.stream(
            {**request, "rubric": "- Names the capital city\n- Answers in one sentence"},
            config,
            stream_mode="custom",
        )
        if str(event.get("type", "")).startswith("rubric_evaluation")
    ]
    state = agent.get_state(config).values
    failing: list[CriterionEval] = [c for e in seen for c in e["criteria"] if not c["passed"]]
    feedback = [
        m
        for m in state["messages"]
        if m.additional_kwargs.get("lc_source") == RUBRIC_GRADER_MESSAGE_SOURCE
    ]
    return {
        "events": [
            (e["type"], e["iteration"], e.get("result"), e.get("unverified")) for e in events
        ],
        "results": [e["result"] for e in seen],
        "grader_verdicts": [e["result"] for e in seen if e["result"] in GRADER_VERDICTS],
        "gaps": [(c["name"], c["gap"]) for c in failing if "gap" in c],
        "gave_up": gave_up,
        "status": state["_rubric_status"],
        "iterations": state["_rubric_iterations"],
        "criteria": state["_rubric_criteria"],
        "feedback": [(m.type, m.name) for m in feedback],
        "answer": state["messages"][-1].content,
    }
