"""Differential test: deepagents' own `RubricMiddleware` against rubricate's, in the same graph.

Every scenario runs twice through `langchain.agents.create_agent` with the same scripted worker:
once with deepagents' middleware (its grader answers a `GraderResponse` tool call) and once with
rubricate's (its judge answers one verdict per criterion label). The verdicts are equivalent, so
what a user can observe must be equal: the stream events and their keys, the callback payloads,
the private state after each invoke, and the injected feedback messages' role and tags. The
differences we intend are listed in docs/deepagents.md, and each is asserted here too, so a
deepagents release that changes behaviour fails this file.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import inspect
import json
import logging
import re
import sys
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import deepagents.middleware.rubric as deepagents_rubric
import pytest
from langchain.agents import create_agent
from langchain.agents.middleware import ModelCallLimitMiddleware
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command, interrupt

from fakes import text
from rubricate import JudgeOptions, RubricMiddleware
from rubricate.testing import ScriptedChatModel, joint_reply, tool_reply

pytestmark = pytest.mark.filterwarnings(
    "ignore::langchain_core._api.beta_decorator.LangChainBetaWarning"
)

Side = Literal["deepagents", "rubricate"]
SIDES: tuple[Side, ...] = ("deepagents", "rubricate")

RUBRIC = "- Mentions Paris\n- Under ten words"
NAMES = ("Mentions Paris", "Under ten words")

# -- the intended differences (docs/deepagents.md), as data the assertions use ----------------

EXTRA_RECORD_KEYS = {"usage", "latency_s"}
"""Keys our evaluation records (callback, `_rubric_evaluations`) add: what grading cost."""
EXTRA_CRITERION_KEYS = {"id", "required", "decided_by"}
"""Keys our criterion entries add: the configured criterion each verdict is matched to."""
OPTIONAL_CRITERION_KEYS = {"unverified", "reason"}
"""Keys our criterion entries add when they apply: failed closed; why a pass is one."""
EXTRA_STATE_KEYS = {"_rubric_spent", "_rubric_best", "_rubric_stop_reason"}
"""Private state only we keep: budget spend, best draft, why a run stopped."""
MISSING_PARAMETERS = {
    "grader_middleware",
    "grader_context_schema",
    "grader_state_schema",
    "prepare_messages_for_grader",
    "build_grader_state",
}
"""deepagents' parameters for its nested grader agent; rubricate's judge is not an agent."""
EXTRA_PARAMETERS = {
    "criteria",
    "best_draft",
    "budget",
    "max_evaluations_kept",
    "completion",
}
"""Our own loop parameters, all optional, all off or automatic by default."""
SHARED_OPTIONS = {"system_prompt", "tools"}
"""deepagents' judge parameters, which rubricate takes as judge options (`JudgeOptions`)."""


# -- the verdicts, in each side's answer shape -------------------------------------------------

Criteria = tuple[tuple[bool, str], ...]
"""Per criterion, in rubric order: passed, and the gap when it did not."""


def reference_reply(
    criteria: Criteria,
    *,
    names: tuple[str, ...] = NAMES,
    result: str | None = None,
    explanation: str = "Graded.",
) -> AIMessage:
    """deepagents' grader answer: a `GraderResponse` tool call (its ToolStrategy)."""
    items: list[dict[str, Any]] = []
    for name, (passed, gap) in zip(names, criteria, strict=True):
        items.append(
            {"name": name, "passed": True}
            if passed
            else {"name": name, "passed": False, "gap": gap}
        )
    verdict = result or ("satisfied" if all(p for p, _ in criteria) else "needs_revision")
    return tool_reply(
        "GraderResponse", {"result": verdict, "explanation": explanation, "criteria": items}
    )


def rubricate_reply(criteria: Criteria, *, unscorable: bool = False) -> AIMessage:
    """rubricate's judge answer: one verdict per label (`cannot_evaluate` makes it `failed`)."""
    failing = "cannot_evaluate" if unscorable else "fail"
    return joint_reply(
        *(
            (f"C{i}", "pass" if passed else failing, gap)
            for i, (passed, gap) in enumerate(criteria, start=1)
        )
    )


def replies(side: Side, *passes: Criteria) -> list[Any]:
    make = reference_reply if side == "deepagents" else rubricate_reply
    return [make(c) for c in passes]


PASS: Criteria = ((True, ""), (True, ""))
FAIL: Criteria = ((False, "Name the city."), (True, ""))


# -- running one side --------------------------------------------------------------------------


@dataclass
class Run:
    """What one side showed over a sequence of invokes on one checkpointed thread."""

    events: list[list[dict[str, Any]]] = field(default_factory=list)
    callbacks: list[dict[str, Any]] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)
    messages: list[BaseMessage] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stream: list[list[tuple[str, Any]]] = field(default_factory=list)
    """Per invoke, the `updates` (node names) and `messages` (node, message type) stream."""
    interrupts: list[list[Any]] = field(default_factory=list)
    """After each invoke, the values of the interrupts the thread waits on."""
    grader_calls: list[int] = field(default_factory=list)
    """After each invoke, how many calls the scripted grader model has answered."""
    grader: ScriptedChatModel | None = None


def stream_view(mode: str, chunk: Any) -> tuple[str, Any]:
    """What a UI streaming the agent shows: which nodes updated, which messages streamed."""
    if mode == "messages":
        message, metadata = chunk
        return mode, (metadata.get("langgraph_node"), message.type, message.name)
    return mode, sorted(chunk)


def make_middleware(side: Side, model: Any, **kwargs: Any) -> Any:
    if side == "deepagents":
        return deepagents_rubric.RubricMiddleware(model=model, **kwargs)
    return RubricMiddleware(model=model, **kwargs)


def run(
    side: Side,
    *,
    worker: list[Any],
    grader: list[Any] | str,
    invokes: list[dict[str, Any] | Command[Any]],
    on_evaluation: Callable[[dict[str, Any]], Any] | None = None,
    extra_middleware: list[Any] | None = None,
    asynchronous: bool = False,
    **kwargs: Any,
) -> Run:
    """Invoke a `create_agent` graph with `side`'s middleware; collect what a user can see."""
    out = Run()
    model: Any = grader
    if not isinstance(grader, str):
        model = out.grader = ScriptedChatModel(script=grader)

    def record(evaluation: dict[str, Any]) -> None:
        out.callbacks.append(dict(evaluation))
        if on_evaluation is not None:
            on_evaluation(evaluation)

    middleware = make_middleware(side, model, on_evaluation=record, **kwargs)
    graph = create_agent(
        ScriptedChatModel(script=worker),
        middleware=[*(extra_middleware or []), middleware],
        checkpointer=InMemorySaver(),
    )
    config: Any = {"configurable": {"thread_id": "parity"}}

    modes = ["custom", "updates", "messages"]

    async def collect(state: Any, into: list[Any]) -> None:
        async for chunk in graph.astream(state, config, stream_mode=modes):
            into.append(chunk)

    for state in invokes:
        chunks: list[Any] = []
        try:
            if asynchronous:
                asyncio.run(collect(state, chunks))
            else:
                chunks.extend(graph.stream(state, config, stream_mode=modes))
        except KeyboardInterrupt:
            out.errors.append("KeyboardInterrupt")
        out.events.append([chunk for mode, chunk in chunks if mode == "custom"])
        out.stream.append([stream_view(mode, chunk) for mode, chunk in chunks if mode != "custom"])
        values = dict(graph.get_state(config).values)
        out.states.append({k: v for k, v in values.items() if k.startswith("_")})
        out.messages = list(values.get("messages", []))
        out.interrupts.append([i.value for i in graph.get_state(config).interrupts])
        out.grader_calls.append(len(out.grader.calls) if out.grader is not None else 0)
    return out


def both(**kwargs: Any) -> dict[Side, Run]:
    """Run a scenario on both sides; `worker`/`grader` may be functions of the side."""
    runs: dict[Side, Run] = {}
    for side in SIDES:
        resolved = {
            k: (v(side) if callable(v) and k in ("grader", "worker") else v)
            for k, v in kwargs.items()
        }
        runs[side] = run(side, **resolved)
    return runs


# -- comparing ---------------------------------------------------------------------------------


class RunIds:
    """Names grading run ids by order of first appearance, so two sides' ids compare."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def __call__(self, run_id: Any) -> str:
        assert isinstance(run_id, str) and run_id, run_id
        return self.names.setdefault(run_id, f"run{len(self.names)}")


def criteria_view(criteria: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(c["name"], c["passed"], c.get("gap")) for c in criteria]


def record_view(record: dict[str, Any], ids: RunIds, criteria: bool) -> dict[str, Any]:
    """What must be equal in an evaluation record (explanations are worded differently)."""
    shown = {
        "grading_run_id": ids(record["grading_run_id"]),
        "iteration": record["iteration"],
        "result": record["result"],
        "unverified": record["unverified"],
    }
    if criteria:
        shown["criteria"] = criteria_view(record["criteria"])
    return shown


def view(side: Side, result: Run, *, criteria: bool = True) -> dict[str, Any]:
    """Everything compared, with our documented extras checked and then set aside.

    `criteria=False` leaves the criterion lists out (where a scenario documents they differ).
    """
    ids = RunIds()
    events = []
    for invoke in result.events:
        shown = []
        for event in invoke:
            keys = set(event)
            item: dict[str, Any] = {
                "keys": sorted(keys),
                "type": event["type"],
                "grading_run_id": ids(event["grading_run_id"]),
                "iteration": event["iteration"],
            }
            if event["type"] == "rubric_evaluation_end":
                item.update(result=event["result"], unverified=event["unverified"])
                if criteria:
                    item.update(
                        criteria=criteria_view(event["criteria"]),
                        criterion_keys=sorted(criterion_keys(side, event["criteria"])),
                    )
            shown.append(item)
        events.append(shown)
    states = []
    for state in result.states:
        keys = set(state)
        if side == "rubricate":
            assert keys >= EXTRA_STATE_KEYS or not keys
            keys -= EXTRA_STATE_KEYS
        shown_state: dict[str, Any] = {"keys": sorted(keys)}
        for key in ("_rubric_status", "_rubric_iterations", "_active_rubric", "_rubric_criteria"):
            shown_state[key] = state.get(key)
        if "_current_grading_run_id" in state:
            shown_state["run"] = ids(state["_current_grading_run_id"])
        shown_state["evaluations"] = [
            record_view(r, ids, criteria) for r in state.get("_rubric_evaluations", [])
        ]
        states.append(shown_state)
    callbacks = []
    for record in result.callbacks:
        keys = set(record)
        if side == "rubricate":
            assert keys >= EXTRA_RECORD_KEYS
            keys -= EXTRA_RECORD_KEYS
        shown_record = {"keys": sorted(keys), **record_view(record, ids, criteria)}
        if criteria:
            shown_record["criterion_keys"] = sorted(criterion_keys(side, record["criteria"]))
        callbacks.append(shown_record)
    feedback = [
        (m.type, m.name, m.additional_kwargs)
        for m in result.messages
        if m.additional_kwargs.get("lc_source") == "rubric_grader"
    ]
    return {
        "events": events,
        "states": states,
        "callbacks": callbacks,
        "feedback": feedback,
        "roles": [(m.type, m.name) for m in result.messages],
        "errors": result.errors,
        "interrupts": result.interrupts,
        "stream": result.stream,
    }


def criterion_keys(side: Side, criteria: list[dict[str, Any]]) -> set[str]:
    """The union of the criterion entries' keys, less our documented extras."""
    keys: set[str] = set()
    for criterion in criteria:
        own = set(criterion)
        if side == "rubricate":
            assert own >= EXTRA_CRITERION_KEYS, own
            own -= EXTRA_CRITERION_KEYS | OPTIONAL_CRITERION_KEYS
        keys |= own
    return keys


def assert_same(runs: dict[Side, Run], *, criteria: bool = True) -> dict[str, Any]:
    """Assert both sides showed the same; return deepagents' view for further checks."""
    reference = view("deepagents", runs["deepagents"], criteria=criteria)
    ours = view("rubricate", runs["rubricate"], criteria=criteria)
    for part in reference:
        assert ours[part] == reference[part], part
    return reference


def ask(rubric: Any = RUBRIC, question: str = "What is the capital of France?") -> dict[str, Any]:
    state: dict[str, Any] = {"messages": [HumanMessage(question)]}
    if rubric is not None:
        state["rubric"] = rubric
    return state


# -- scenarios ---------------------------------------------------------------------------------


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_satisfied_the_first_time(asynchronous: bool) -> None:
    runs = both(
        worker=[text("Paris.")],
        grader=lambda side: replies(side, PASS),
        invokes=[ask()],
        asynchronous=asynchronous,
    )
    seen = assert_same(runs)
    assert [e["type"] for e in seen["events"][0]] == [
        "rubric_evaluation_start",
        "rubric_evaluation_end",
    ]
    assert seen["events"][0][1]["keys"] == sorted(
        {"type", "grading_run_id", "iteration", "result", "explanation", "criteria", "unverified"}
    )
    assert seen["callbacks"][0]["keys"] == sorted(
        {"grading_run_id", "iteration", "result", "explanation", "criteria", "unverified"}
    )
    assert seen["states"][0]["_rubric_status"] == "satisfied"
    assert seen["states"][0]["_rubric_criteria"] == list(NAMES)
    assert seen["feedback"] == []


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_revision_then_satisfied(asynchronous: bool) -> None:
    runs = both(
        worker=[text("A big city."), text("Paris.")],
        grader=lambda side: replies(side, FAIL, PASS),
        invokes=[ask()],
        asynchronous=asynchronous,
    )
    seen = assert_same(runs)
    assert [c["result"] for c in seen["callbacks"]] == ["needs_revision", "satisfied"]
    assert seen["feedback"] == [
        ("human", "rubric_grader", {"lc_source": "rubric_grader"}),
    ]
    assert seen["roles"] == [
        ("human", None),
        ("ai", None),
        ("human", "rubric_grader"),
        ("ai", None),
    ]
    # Intended difference: deepagents' grader sees its own earlier feedback in the transcript;
    # rubricate's judge never grades its own feedback.
    reference_second = runs["deepagents"].grader.prompts()[1]  # type: ignore[union-attr]
    ours_second = runs["rubricate"].grader.prompts()[1]  # type: ignore[union-attr]
    assert "Name the city." in reference_second
    assert "Name the city." not in ours_second


def test_cap_reached_is_written_into_the_callback_event_and_evaluations() -> None:
    runs = both(
        worker=[text("A city."), text("Still a city.")],
        grader=lambda side: replies(side, FAIL, FAIL),
        invokes=[ask()],
        max_iterations=2,
    )
    seen = assert_same(runs)
    assert [c["result"] for c in seen["callbacks"]] == ["needs_revision", "max_iterations_reached"]
    assert seen["events"][0][-1]["result"] == "max_iterations_reached"
    assert seen["states"][0]["_rubric_status"] == "max_iterations_reached"
    assert [e["result"] for e in seen["states"][0]["evaluations"]] == [
        "needs_revision",
        "max_iterations_reached",
    ]
    assert runs["rubricate"].messages[-1].content == "Still a city."


def test_failed() -> None:
    cannot: Criteria = ((False, "The transcript cannot show it."), (True, ""))

    def grader(side: Side) -> list[Any]:
        if side == "deepagents":
            return [reference_reply(cannot, result="failed")]
        return [rubricate_reply(cannot, unscorable=True)]

    seen = assert_same(both(worker=[text("Paris.")], grader=grader, invokes=[ask()]))
    assert seen["states"][0]["_rubric_status"] == "failed"
    assert seen["states"][0]["_rubric_criteria"] == []  # a failed pass freezes no names
    assert seen["feedback"] == []


def test_unverified_when_the_grader_accounts_for_no_criterion() -> None:
    """deepagents downgrades a `satisfied` with no criteria; we fail each criterion closed."""

    def grader(side: Side) -> list[Any]:
        if side == "deepagents":
            empty = tool_reply(
                "GraderResponse", {"result": "satisfied", "explanation": "ok", "criteria": []}
            )
            return [empty, empty, reference_reply(PASS)]
        empty = tool_reply("RubricVerdicts", {"verdicts": []})
        return [empty, empty, rubricate_reply(PASS)]

    runs = both(worker=[text("Paris."), text("Paris, France.")], grader=grader, invokes=[ask()])
    seen = assert_same(runs, criteria=False)
    assert [(c["result"], c["unverified"]) for c in seen["callbacks"]] == [
        ("needs_revision", True),
        ("satisfied", False),
    ]
    assert seen["states"][0]["_rubric_criteria"] == list(NAMES)
    # Intended difference: deepagents' record lists no criteria (its grader named none); ours
    # names each configured criterion, failed closed and flagged `unverified`.
    first_reference = runs["deepagents"].callbacks[0]["criteria"]
    first_ours = runs["rubricate"].callbacks[0]["criteria"]
    assert first_reference == []
    assert [c["name"] for c in first_ours] == list(NAMES)
    assert all(c["unverified"] and not c["passed"] for c in first_ours)


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_grader_error_from_an_exception(
    asynchronous: bool, caplog: pytest.LogCaptureFixture
) -> None:
    runs = both(
        worker=[text("Paris.")],
        grader=[ValueError("bad request")],
        invokes=[ask()],
        asynchronous=asynchronous,
    )
    seen = assert_same(runs)
    assert seen["states"][0]["_rubric_status"] == "grader_error"
    assert seen["callbacks"][0]["criteria"] == []
    for side in SIDES:
        explanation = runs[side].callbacks[0]["explanation"]
        assert "ValueError" in explanation and "bad request" in explanation, side


@pytest.mark.parametrize(
    "model",
    [
        "openai:gpt-5-mini",  # the provider package is installed, the key is not set
        "gpt-5-mini",  # a bare id, resolved by init_chat_model as deepagents does
        "no_such_provider:some-model",  # an id nothing can resolve
        "mistralai:mistral-large-latest",  # its provider package is not installed (below)
    ],
)
def test_grader_error_when_the_judge_cannot_be_built(
    model: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "langchain_mistralai", None)  # importing it fails
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # never the network
    runs = both(worker=[text("Paris.")], grader=model, invokes=[ask()])
    seen = assert_same(runs)
    assert seen["states"][0]["_rubric_status"] == "grader_error"
    assert [e["type"] for e in seen["events"][0]] == [
        "rubric_evaluation_start",
        "rubric_evaluation_end",
    ]
    assert runs["rubricate"].messages[-1].content == "Paris."  # the agent's answer stands
    if model.startswith("mistralai:"):
        for side in SIDES:
            assert "langchain-mistralai" in runs[side].callbacks[0]["explanation"], side


def test_no_rubric_means_nothing_happens() -> None:
    runs = both(worker=[text("Paris.")], grader=[], invokes=[ask(rubric=None)])
    seen = assert_same(runs)
    assert seen["events"] == [[]]
    assert seen["states"] == [
        {
            "keys": [],
            "_rubric_status": None,
            "_rubric_iterations": None,
            "_active_rubric": None,
            "_rubric_criteria": None,
            "evaluations": [],
        }
    ]
    assert runs["deepagents"].grader.calls == runs["rubricate"].grader.calls == []  # type: ignore[union-attr]


def test_reinvoke_after_a_terminal_status_and_a_new_rubric_mid_thread() -> None:
    def grader(side: Side) -> list[Any]:
        if side == "deepagents":
            return [
                reference_reply(PASS),
                reference_reply(PASS),
                reference_reply(((True, ""),), names=("Names a city",)),
            ]
        return [rubricate_reply(PASS), rubricate_reply(PASS), rubricate_reply(((True, ""),))]

    runs = both(
        worker=[text("Paris."), text("Paris again."), text("Lyon.")],
        grader=grader,
        invokes=[
            ask(),
            {"messages": [HumanMessage("And again?")]},  # the rubric sticks to the thread
            ask("- Names a city", "Another city?"),
        ],
    )
    seen = assert_same(runs)
    assert [s["run"] for s in seen["states"]] == ["run0", "run1", "run2"]
    assert [s["_rubric_iterations"] for s in seen["states"]] == [1, 1, 1]
    assert seen["states"][2]["_active_rubric"] == "- Names a city"
    assert seen["states"][2]["_rubric_criteria"] == ["Names a city"]


def test_interrupt_and_resume_on_a_checkpointer() -> None:
    runs = both(
        worker=[text("A city."), KeyboardInterrupt(), text("Paris.")],
        grader=lambda side: replies(side, FAIL, PASS),
        invokes=[ask(), {"messages": [], "rubric": RUBRIC}],
    )
    seen = assert_same(runs)
    assert seen["errors"] == ["KeyboardInterrupt"]
    assert seen["states"][0]["_rubric_status"] == "needs_revision"
    assert seen["states"][1]["_rubric_status"] == "satisfied"
    assert [(e["grading_run_id"], e["iteration"]) for e in seen["states"][1]["evaluations"]] == [
        ("run0", 0),
        ("run0", 1),
    ]


def graded_by_draft(side: Side) -> Callable[[list[BaseMessage], dict[str, Any]], AIMessage]:
    """A grader whose verdict depends on the draft alone, so a repeated call repeats it."""

    def reply(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
        passed = "Paris, France" in "\n".join(str(m.content) for m in messages)
        return replies(side, PASS if passed else FAIL)[0]

    return reply


@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync", "async"])
def test_an_interrupt_in_the_callback_then_resume_on_a_checkpointer(asynchronous: bool) -> None:
    """Human review of each verdict (deepagents: "a callback may interrupt"), resumed twice."""
    reviewed: dict[Side, list[tuple[str, Any]]] = {"deepagents": [], "rubricate": []}

    def runs_for(side: Side) -> Run:
        def review(evaluation: dict[str, Any]) -> None:
            answer = interrupt({"review": evaluation["result"]})
            reviewed[side].append((evaluation["result"], answer))

        return run(
            side,
            worker=[text("A city."), text("It is Paris, France.")],
            grader=[graded_by_draft(side)] * 2,
            invokes=[ask(), Command(resume="approved"), Command(resume="approved too")],
            on_evaluation=review,
            asynchronous=asynchronous,
        )

    runs = {side: runs_for(side) for side in SIDES}
    seen = assert_same(runs)
    assert seen["interrupts"] == [
        [{"review": "needs_revision"}],
        [{"review": "satisfied"}],
        [],
    ]
    assert [s["_rubric_status"] for s in seen["states"]] == [None, "needs_revision", "satisfied"]
    for side in SIDES:
        # The verdict a person approved is the one applied: a resume does not grade again.
        assert reviewed[side] == [
            ("needs_revision", "approved"),
            ("satisfied", "approved too"),
        ], side
        assert runs[side].grader_calls == [1, 2, 2], side


def test_a_callback_that_raises_is_logged_and_the_loop_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(_: Any) -> None:
        raise RuntimeError("callback bug")

    with caplog.at_level(logging.ERROR):
        runs = both(
            worker=[text("A city."), text("Paris.")],
            grader=lambda side: replies(side, FAIL, PASS),
            invokes=[ask()],
            on_evaluation=broken,
        )
    seen = assert_same(runs)
    assert seen["states"][0]["_rubric_status"] == "satisfied"
    raised = [r for r in caplog.records if r.exc_info and "callback bug" in str(r.exc_info[1])]
    assert {r.name for r in raised} == {"deepagents.middleware.rubric", "rubricate"}
    assert len(raised) == 4  # two passes, each side logged each


def test_grader_tools() -> None:
    calls: dict[Side, list[str]] = {"deepagents": [], "rubricate": []}

    def runner(side: Side) -> Any:
        @tool
        def run_test_suite(code: str) -> str:
            """Run the test suite against `code`."""
            calls[side].append(code)
            return "3 passed"

        return run_test_suite

    def grader(side: Side) -> list[Any]:
        use = tool_reply("run_test_suite", {"code": "def f(): ..."})
        if side == "deepagents":
            return [use, reference_reply(PASS)]
        return [use, text("The tests pass."), rubricate_reply(PASS)]

    runs = {
        side: run(
            side,
            worker=[text("Paris.")],
            grader=grader(side),
            invokes=[ask()],
            tools=[runner(side)],
        )
        for side in SIDES
    }
    seen = assert_same(runs)
    assert seen["states"][0]["_rubric_status"] == "satisfied"
    assert calls["deepagents"] == calls["rubricate"] == ["def f(): ..."]


def test_an_interrupt_in_a_grader_tool_then_resume_on_a_checkpointer() -> None:
    """A grader tool that asks a person first (human-in-the-loop), then the resume."""
    asked: dict[Side, list[Any]] = {"deepagents": [], "rubricate": []}

    def runner(side: Side) -> Any:
        @tool
        def run_test_suite(code: str) -> str:
            """Run the test suite against `code`, once a person allows it."""
            answer = interrupt({"allow": code})
            asked[side].append(answer)
            return str(answer)

        return run_test_suite

    def grader(side: Side) -> Callable[[list[BaseMessage], dict[str, Any]], AIMessage]:
        def reply(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
            if not any(m.type == "tool" for m in messages):
                return tool_reply("run_test_suite", {"code": "def f(): ..."})
            if side == "deepagents":
                return reference_reply(PASS)
            if "RubricVerdicts" in tool_names(kwargs):
                return rubricate_reply(PASS)
            return text("The tests pass.")

        return reply

    runs = {
        side: run(
            side,
            worker=[text("Paris.")],
            grader=[grader(side)] * 4,
            invokes=[ask(), Command(resume="3 passed")],
            tools=[runner(side)],
        )
        for side in SIDES
    }
    seen = assert_same(runs)
    assert seen["interrupts"] == [[{"allow": "def f(): ..."}], []]
    assert [s["_rubric_status"] for s in seen["states"]] == [None, "satisfied"]
    assert asked["deepagents"] == asked["rubricate"] == ["3 passed"]
    # Intended difference: deepagents' grader agent resumes from its checkpoint after the tool
    # call; rubricate's judge asks its tool-using turn again on the resume (one call more), then
    # the tool gets the person's answer, as in deepagents.
    assert runs["deepagents"].grader_calls == [1, 2]
    assert runs["rubricate"].grader_calls == [1, 4]  # tool call, again, after the tool, verdicts


# -- intended differences, each asserted -------------------------------------------------------


def test_constructor_parameters() -> None:
    reference = inspect.signature(deepagents_rubric.RubricMiddleware.__init__).parameters
    signature = inspect.signature(RubricMiddleware.__init__).parameters
    ours = {n: p for n, p in signature.items() if p.kind is not inspect.Parameter.VAR_KEYWORD}
    options = set(JudgeOptions.__annotations__)
    assert set(reference) - set(ours) - options == MISSING_PARAMETERS
    assert set(ours) - set(reference) == EXTRA_PARAMETERS
    assert set(reference) & options == SHARED_OPTIONS
    for name in set(reference) & set(ours):
        assert ours[name].default == reference[name].default, name
        assert ours[name].kind == reference[name].kind, name
    for name in SHARED_OPTIONS:  # keyword-only there; `None`, the judge's default, here too
        assert reference[name].kind is inspect.Parameter.KEYWORD_ONLY, name
        assert reference[name].default is None, name
    with pytest.raises(TypeError, match="'grader_middleware'"):
        RubricMiddleware(model="local", grader_middleware=[])  # type: ignore[call-arg]
    # Hook spans in a trace leave the state out on both sides.
    reference_policy = deepagents_rubric.RubricMiddleware.trace_policy
    assert RubricMiddleware.trace_policy == reference_policy
    assert reference_policy is not None and reference_policy.process_inputs is not None


@pytest.mark.parametrize(
    "bad",
    [
        {"model": ""},
        {"model": None},
        {"model": "x", "max_iterations": 0},
        {"model": "x", "max_iterations": -1},
        {"model": "x", "max_iterations": 1.5},
        {"model": "x", "max_iterations": True},
    ],
)
def test_bad_constructor_arguments_raise_the_same_errors(bad: dict[str, Any]) -> None:
    with pytest.raises(Exception) as reference:
        deepagents_rubric.RubricMiddleware(**bad)
    with pytest.raises(Exception) as ours:
        RubricMiddleware(**bad)
    assert type(ours.value) is type(reference.value)
    assert "max_iterations" in str(ours.value) or "model" in str(ours.value)


def test_a_callback_that_is_not_callable_is_refused_at_once() -> None:
    """Intended difference: deepagents takes it and fails (logged) at the first evaluation."""
    deepagents_rubric.RubricMiddleware(model="x", on_evaluation="print")
    with pytest.raises(TypeError, match="on_evaluation"):
        RubricMiddleware(model="x", on_evaluation="print")  # type: ignore[arg-type]


def literals(annotation: Any) -> set[str]:
    """The values of a `Literal`, or of a union of them."""
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is Literal:
        return set(args)
    return set().union(*(literals(arg) for arg in args))


def test_the_names_a_deepagents_user_imports() -> None:
    import deepagents.middleware

    import rubricate

    # Every rubric name deepagents exports, where its users import them from.
    exported = {n for n in deepagents.middleware.__all__ if hasattr(deepagents_rubric, n)}
    assert exported == {
        "RubricMiddleware",
        "RubricState",
        "RubricEvaluation",
        "RubricResult",
        "GraderResponse",
        "GraderVerdict",
        "CriterionEval",
        "CriterionPass",
        "CriterionFail",
        "RUBRIC_GRADER_MESSAGE_SOURCE",
        "GRADER_SYSTEM_PROMPT",
    }
    for name in exported:
        assert name in rubricate.__all__, name
    assert literals(rubricate.GraderVerdict) == literals(deepagents_rubric.GraderVerdict)
    for shape in ("CriterionPass", "CriterionFail"):
        reference_shape = getattr(deepagents_rubric, shape)
        ours_shape = getattr(rubricate, shape)
        assert set(ours_shape.__annotations__) == set(reference_shape.__annotations__), shape
    assert rubricate.RUBRIC_GRADER_MESSAGE_SOURCE == deepagents_rubric.RUBRIC_GRADER_MESSAGE_SOURCE
    assert literals(rubricate.RubricResult) == literals(deepagents_rubric.RubricResult)
    reference_keys = set(deepagents_rubric.RubricEvaluation.__annotations__)
    assert set(rubricate.RubricEvaluation.__annotations__) - reference_keys == EXTRA_RECORD_KEYS
    reference_state = set(deepagents_rubric.RubricState.__annotations__)
    ours_state = set(rubricate.RubricState.__annotations__)
    assert ours_state - reference_state == EXTRA_STATE_KEYS | {"_rubric_forced_exits"}
    assert set(deepagents_rubric.GraderResponse.model_fields) == set(
        rubricate.GraderResponse.model_fields
    )
    # Intended difference: one status of our own, only with a budget.
    assert literals(rubricate.RunStatus) - literals(deepagents_rubric.RubricResult) == {
        "budget_exhausted"
    }
    # Intended difference: our default grading instructions are our own (measured; see _prompts).
    assert rubricate.GRADER_SYSTEM_PROMPT != deepagents_rubric.GRADER_SYSTEM_PROMPT


def test_a_forced_exit_is_recorded_not_graded() -> None:
    runs = both(
        worker=[text("never reached")],
        grader=lambda side: replies(side, PASS),
        invokes=[ask()],
        extra_middleware=[ModelCallLimitMiddleware(run_limit=0, exit_behavior="end")],
    )
    # deepagents grades the limit's closing message as if it were the answer.
    assert [c["result"] for c in runs["deepagents"].callbacks] == ["satisfied"]
    assert runs["rubricate"].callbacks == []
    [forced] = runs["rubricate"].states[0]["_rubric_forced_exits"]
    assert forced["reason"].startswith("Model call limits exceeded")


def test_a_transient_grader_error_is_retried() -> None:
    class RateLimitError(Exception):
        status_code = 429

    runs = {}
    for side in SIDES:
        kwargs: dict[str, Any] = {}
        runs[side] = run(
            side,
            worker=[text("Paris.")],
            grader=[RateLimitError("slow down"), *replies(side, PASS)],
            invokes=[ask()],
            **kwargs,
        )
    assert runs["deepagents"].states[0]["_rubric_status"] == "grader_error"
    assert "(HTTP 429)" in runs["deepagents"].callbacks[0]["explanation"]
    assert runs["rubricate"].states[0]["_rubric_status"] == "satisfied"
    assert runs["rubricate"].callbacks[0]["usage"]["calls"] == 2


def test_a_structured_rubric() -> None:
    structured = [{"description": "Mentions Paris"}, {"description": "Under ten words"}]
    runs = both(
        worker=[text("Paris.")], grader=lambda side: replies(side, PASS), invokes=[ask(structured)]
    )
    assert runs["deepagents"].states[0]["_rubric_status"] == "grader_error"  # it needs a str
    assert runs["rubricate"].states[0]["_rubric_status"] == "satisfied"


def test_a_rubric_with_no_criteria() -> None:
    """Intended difference: a rubric of blanks or headings alone is graded by no call of ours."""
    runs = both(
        worker=[text("Paris.")],
        grader=lambda side: replies(side, PASS),
        invokes=[ask("  \n# Rubric\n")],
    )
    assert runs["deepagents"].grader_calls == [1]  # its grader is asked to find criteria
    assert runs["rubricate"].grader_calls == [0]
    [ours] = runs["rubricate"].callbacks
    assert (ours["result"], ours["criteria"]) == ("satisfied", [])
    assert "no criteria" in ours["explanation"]


def test_the_evaluations_log_is_bounded() -> None:
    invokes = [ask()] + [{"messages": [HumanMessage(f"Again, {i}?")]} for i in range(50)]
    runs = both(
        worker=[text("Paris.")] * 51,
        grader=lambda side: replies(side, *[PASS] * 51),
        invokes=invokes,
    )
    assert len(runs["deepagents"].states[-1]["_rubric_evaluations"]) == 51
    assert len(runs["rubricate"].states[-1]["_rubric_evaluations"]) == 50


def test_the_feedback_text_is_our_own() -> None:
    runs = both(
        worker=[text("A big city."), text("Paris.")],
        grader=lambda side: replies(side, FAIL, PASS),
        invokes=[ask()],
    )
    [reference] = [m for m in runs["deepagents"].messages if m.name == "rubric_grader"]
    [ours] = [m for m in runs["rubricate"].messages if m.name == "rubric_grader"]
    assert reference.content != ours.content
    for message in (reference, ours):
        assert "- Mentions Paris: Name the city." in message.content
        assert "- Under ten words" in message.content


def test_every_row_of_the_differences_table_names_tests_that_exist() -> None:
    docs = (Path(__file__).parents[1] / "docs" / "deepagents.md").read_text(encoding="utf-8")
    table = docs.split("## Intended differences", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    tests_dir = Path(__file__).parent
    defined = {
        name
        for path in tests_dir.glob("test_*.py")
        for name in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
    }
    assert len(rows) > 10
    for row in rows[1:]:  # the header names no test
        cell = row.rsplit("|", 2)[-2]
        named = re.findall(r"`(?:tests/\w+\.py::)?(test_\w+)`", cell)
        constants = re.findall(r"`([A-Z][A-Z_]+)`", cell)  # checked in every scenario
        assert named or constants, row
        assert set(named) <= defined, row
        assert all(isinstance(globals().get(c), set) for c in constants), row


def test_the_tested_deepagents_version_is_the_documented_one() -> None:
    version = importlib.metadata.version("deepagents")
    docs = (Path(__file__).parents[1] / "docs" / "deepagents.md").read_text(encoding="utf-8")
    assert re.search(rf"deepagents {re.escape(version)}\b", docs), version


class NoToolCallingModel(ScriptedChatModel):
    """A chat model without tool calling (LangChain's default `bind_tools` raises)."""

    def bind_tools(self, tools: Any, *, tool_choice: Any = None, **kwargs: Any) -> Any:
        raise NotImplementedError("this model does not support tool calling")


def test_a_model_without_tool_calling() -> None:
    @tool
    def count_words(text: str) -> int:
        """Count the words of `text`."""
        return len(text.split())

    answer = json.dumps(
        {"verdicts": [{"criterion": c, "verdict": "pass", "gap": ""} for c in ("C1", "C2")]}
    )
    with_tools: dict[Side, Run] = {}
    without: dict[Side, Run] = {}
    for side in SIDES:
        for runs, tools in ((with_tools, [count_words]), (without, None)):
            grader = NoToolCallingModel(script=[AIMessage(answer)])
            middleware = make_middleware(side, grader, tools=tools)
            graph = create_agent(
                ScriptedChatModel(script=[text("Paris.")]),
                middleware=[middleware],
                checkpointer=InMemorySaver(),
            )
            config: Any = {"configurable": {"thread_id": "t"}}
            graph.invoke(ask(), config)
            values = graph.get_state(config).values
            runs[side] = Run(states=[{k: v for k, v in values.items() if k.startswith("_")}])
    # With grader tools neither can grade: both end `grader_error`, not an exception.
    assert {side: r.states[0]["_rubric_status"] for side, r in with_tools.items()} == {
        "deepagents": "grader_error",
        "rubricate": "grader_error",
    }
    # Intended difference: without tools rubricate asks for the verdicts as JSON in plain text.
    assert without["deepagents"].states[0]["_rubric_status"] == "grader_error"
    assert without["rubricate"].states[0]["_rubric_status"] == "satisfied"


def test_model_ids_resolve_without_provider_profiles(monkeypatch: pytest.MonkeyPatch) -> None:
    from deepagents._models import resolve_model

    from rubricate import resolve_chat_model

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-a-real-key-000000")
    for spec, profiled in (("openai:gpt-5-mini", True), ("gpt-5-mini", None)):
        reference, ours = resolve_model(spec), resolve_chat_model(spec)
        assert type(ours) is type(reference)
        assert ours.model_name == reference.model_name  # type: ignore[attr-defined]
        # deepagents' OpenAI profile turns the Responses API on for `openai:` ids only.
        assert reference.use_responses_api is profiled  # type: ignore[attr-defined]
        assert ours.use_responses_api is None  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec",
    [
        "gpt-5-mini",
        "openai:gpt-5-mini",
        "claude-sonnet-4-5",
        "anthropic:claude-sonnet-4-5",
        "google_genai:gemini-2.5-flash",
        "ollama:llama3",
    ],
)
def test_model_ids_resolve_to_the_model_deepagents_builds(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from deepagents._models import resolve_model

    from rubricate import resolve_chat_model

    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.setenv(key, "test-not-a-real-key-000000")
    reference, ours = resolve_model(spec), resolve_chat_model(spec)
    assert type(ours) is type(reference)
    name = "model_name" if hasattr(reference, "model_name") else "model"
    assert getattr(ours, name) == getattr(reference, name)


# -- a deepagents user's code, with only its import line changed --------------------------------

USER_SCRIPT = Path(__file__).parent / "data" / "deepagents_user.py"


def tool_names(kwargs: dict[str, Any]) -> set[str]:
    names = set()
    for bound in kwargs.get("tools") or []:
        if isinstance(bound, dict):  # an OpenAI tool, or a JSON schema (its title)
            spec = bound.get("function", bound)
            names.add(spec.get("name") or spec.get("title"))
        else:
            names.add(getattr(bound, "name", None) or getattr(bound, "__name__", ""))
    return names


def either_grader(messages: list[BaseMessage], kwargs: dict[str, Any]) -> AIMessage:
    """Answers in the shape asked for: passes the draft when it names Paris."""
    passed = "Paris" in "\n".join(str(m.content) for m in messages)
    criteria: Criteria = PASS if passed else ((False, "Name the city."), (True, ""))
    names = ("Names the capital city", "Answers in one sentence")
    if "GraderResponse" in tool_names(kwargs):
        return reference_reply(criteria, names=names)
    return rubricate_reply(criteria)


def run_user_script(import_from: str, drafts: tuple[str, ...]) -> dict[str, Any]:
    source = USER_SCRIPT.read_text(encoding="utf-8")
    [line] = [x for x in source.splitlines() if x.startswith("from deepagents.middleware import")]
    source = source.replace(line, line.replace("deepagents.middleware", import_from, 1))
    namespace: dict[str, Any] = {"__name__": "deepagents_user"}
    exec(compile(source, str(USER_SCRIPT), "exec"), namespace)
    worker = ScriptedChatModel(script=[text(draft) for draft in drafts])
    grader = ScriptedChatModel(script=[either_grader], repeat_last=True)
    return namespace["main"](worker, grader)  # type: ignore[no-any-return]


CAP = "max_iterations_reached"


@pytest.mark.parametrize(
    ("drafts", "results", "gave_up"),
    [
        (("A big city in France.", "Paris."), ["needs_revision", "satisfied"], []),
        (("A city.", "A town."), ["needs_revision", CAP], [CAP]),
    ],
    ids=["revised", "capped"],
)
def test_a_deepagents_users_code_runs_unchanged_but_for_the_import_line(
    drafts: tuple[str, ...], results: list[str], gave_up: list[str]
) -> None:
    reference = run_user_script("deepagents.middleware", drafts)
    ours = run_user_script("rubricate", drafts)
    assert ours == reference
    assert reference["results"] == results and reference["gave_up"] == gave_up
    assert reference["gaps"][0] == ("Names the capital city", "Name the city.")
    assert reference["feedback"][0] == ("human", "rubric_grader")
    assert reference["answer"] == drafts[-1]
