"""A grading pass that resuming an interrupted graph does not run again.

A LangGraph interrupt inside the grading hook (a person reviewing the verdict in `on_evaluation`,
a grader tool asking for approval) ends the hook's node, and resuming runs that node again from
its start. deepagents' grader is a nested agent graph, so the checkpointer hands back its finished
run instead of asking the model again. Ours runs in a one-node nested graph for the same reason:
on a resume the pass's evaluation comes back from the checkpoint, so the verdict a person
reviewed is the one applied, and it is paid for once. Outside a graph, or without a
checkpointer, the nested graph simply runs.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from typing_extensions import TypedDict

from .._sync import run_sync
from .._types import Evaluation

__all__ = ["NODE", "aevaluate_once", "evaluate_once"]

NODE = "rubricate_grade"
"""The nested graph's one node (its name shows in the checkpoint namespace)."""

Evaluate = Callable[[], Coroutine[Any, Any, Evaluation]]


class _Graded(TypedDict):
    evaluation: dict[str, Any] | None
    """`Evaluation.to_dict()`: plain data, so any checkpointer keeps it."""


def _graph(node: Callable[..., Any]) -> CompiledStateGraph[_Graded, Any, _Graded, _Graded]:
    # Built for each pass, around that pass's evidence: the state keeps only the result. A
    # nested graph compiled without a checkpointer uses its parent's.
    graph = StateGraph(_Graded)
    graph.add_node(NODE, node)
    graph.add_edge(START, NODE)
    graph.add_edge(NODE, END)
    return graph.compile(name=NODE)


def evaluate_once(evaluate: Evaluate) -> Evaluation:
    """Run `evaluate()` from a sync hook, or take its result from the checkpoint on a resume."""

    def node(state: _Graded) -> _Graded:
        return {"evaluation": run_sync(evaluate()).to_dict()}

    return _result(_graph(node).invoke({"evaluation": None}))


async def aevaluate_once(evaluate: Evaluate) -> Evaluation:
    """Async twin of `evaluate_once`."""

    async def node(state: _Graded) -> _Graded:
        return {"evaluation": (await evaluate()).to_dict()}

    return _result(await _graph(node).ainvoke({"evaluation": None}))


def _result(state: dict[str, Any]) -> Evaluation:
    data = state.get("evaluation")
    if data is None:
        raise RuntimeError(f"rubricate: the nested {NODE!r} graph ended without an evaluation")
    return Evaluation.from_dict(data)
