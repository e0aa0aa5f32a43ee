"""The rubric scorer: `score`, `passed` and `reason` from one evaluation (`createRubricScorer`).

Improvements over the reference: gating uses the configured `required` flags; with no rubric the
judge is not called and the result says `skipped`; `passed` does not depend on `scale`, so a
completion check works at any scale; the reason's counts always match the verdicts listed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Unpack

from langchain_core.messages import BaseMessage

from .._models import ModelLike
from .._rubric._rubric import Rubric, RubricLike
from .._sync import run_sync
from .._types import Evaluation
from ._evidence import message_text
from ._judge import Judge
from ._options import JudgeOptions, check_options

__all__ = ["RubricScorer", "ScoreResult", "create_rubric_scorer", "format_reason"]

_Messages = Sequence[BaseMessage | Mapping[str, Any]]


@dataclass(kw_only=True, frozen=True)
class ScoreResult:
    """What `RubricScorer.run` returns."""

    score: float
    """`scale` when every required criterion passed (or nothing was graded), else 0."""
    passed: bool
    """Whether every required criterion passed, whatever the scale."""
    reason: str
    """Every criterion with satisfied / not satisfied and its gap; feedback for the agent.

    A model verdict with a confidence shows it as `(P(met) 0.93)`, and one marked `unsure`
    reads `[satisfied, unsure]` / `[not satisfied, unsure]`."""
    evaluation: Evaluation
    skipped: bool = False
    """True when no rubric could be resolved: nothing was graded and nothing was called."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "score": self.score,
            "passed": self.passed,
            "reason": self.reason,
            "skipped": self.skipped,
            "evaluation": self.evaluation.to_dict(),
        }


class RubricScorer:
    """Scores outputs against a fixed rubric, or a rubric given with each run.

    Build it with `create_rubric_scorer`.
    """

    def __init__(
        self,
        judge: Judge,
        criteria: Rubric | None,
        *,
        scale: float = 1,
        id: str | None = None,
        name: str | None = None,
    ) -> None:
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or scale <= 0:
            raise ValueError(f"`scale` must be a positive number, got {scale!r}")
        self.judge = judge
        self.criteria = criteria
        self.scale = scale
        self.id = id
        """How `is_task_complete` reports this scorer (`ScorerOutcome.id`)."""
        self.name = name

    def run(
        self,
        input: Any = None,
        output: Any = None,
        *,
        rubric: RubricLike | None = None,
        messages: _Messages = (),
        request_context: Mapping[str, Any] | None = None,
        additional_context: Mapping[str, Any] | None = None,
    ) -> ScoreResult:
        """Score synchronously; see `arun`."""
        return run_sync(
            self.arun(
                input,
                output,
                rubric=rubric,
                messages=messages,
                request_context=request_context,
                additional_context=additional_context,
            )
        )

    async def arun(
        self,
        input: Any = None,
        output: Any = None,
        *,
        rubric: RubricLike | None = None,
        messages: _Messages = (),
        request_context: Mapping[str, Any] | None = None,
        additional_context: Mapping[str, Any] | None = None,
    ) -> ScoreResult:
        """Grade `output` for the task `input` and score it.

        Args:
            input: The task: a string, a list of messages, or a mapping (which may hold `rubric`).
            output: The output: a string, an assistant message, or a list of messages (the
                last assistant message is graded, the rest is the transcript).
            rubric: A rubric for this run; overrides the scorer's own criteria.
            messages: The transcript behind the output, if any.
            request_context: Per-request values; its `rubric` is used when no criteria are fixed.
            additional_context: Extra values; its `rubric` is the next place looked at.

        """
        resolved = self._resolve_rubric(rubric, request_context, additional_context, input)
        task = _task_text(input)
        text, transcript = _output_text(output)
        evaluation = await self.judge.aevaluate(
            resolved if resolved is not None else Rubric(),
            output=text,
            task=task,
            messages=[*transcript, *messages] if transcript else messages,
        )
        return self.score(evaluation)

    def score(self, evaluation: Evaluation) -> ScoreResult:
        """Turn an evaluation into a score, a pass flag and a reason."""
        passed = evaluation.result == "satisfied"
        return ScoreResult(
            score=self.scale if passed else 0,
            passed=passed,
            reason=format_reason(evaluation, scale=self.scale),
            evaluation=evaluation,
            skipped=evaluation.skipped,
        )

    def _resolve_rubric(
        self,
        rubric: RubricLike | None,
        request_context: Mapping[str, Any] | None,
        additional_context: Mapping[str, Any] | None,
        input: Any,
    ) -> RubricLike | None:
        if rubric is not None:
            return rubric
        if self.criteria is not None:
            return self.criteria
        for source in (request_context, additional_context, input):
            if isinstance(source, Mapping) and source.get("rubric") is not None:
                found: RubricLike = source["rubric"]
                return found
        return None


def create_rubric_scorer(
    model: ModelLike = "local",
    criteria: RubricLike | None = None,
    *,
    scale: float = 1,
    id: str | None = None,
    name: str | None = None,
    **options: Unpack[JudgeOptions],
) -> RubricScorer:
    r"""Create a rubric scorer: 1 (times `scale`) only when every required criterion passes.

    Args:
        model: The judge: `"local"`, `"llamacpp:/path.gguf"`, `"provider:model-id"` or a
            LangChain chat model.
        criteria: A checklist string, a list of strings / dicts / `Criterion`, a `Rubric`, or a
            `Path` to a rubric file. Leave it out to take `rubric` from each run's context.
        scale: Multiplies the score.
        id: The scorer's id in `is_task_complete` results.
        name: The scorer's name in `is_task_complete` results and reasons.
        **options: The judge's settings (`JudgeOptions`), such as `mode`, `tools`,
            `system_prompt`, `compile_checks` or `explain_passes` (which puts why each passed
            criterion is met in `reason`).

    Example:
        ```python
        scorer = create_rubric_scorer(
            model="local", criteria="- The poem has three lines\\n- The theme is spring"
        )
        result = scorer.run(input="Write a haiku about spring.", output=haiku)
        result.score, result.passed, result.reason
        ```

    """
    check_options(options, "create_rubric_scorer()")
    rubric = Rubric.parse(criteria) if criteria is not None else None
    judge = Judge(model, **options)
    return RubricScorer(judge, rubric, scale=scale, id=id, name=name)


def format_reason(evaluation: Evaluation, *, scale: float = 1) -> str:
    """A per-criterion account whose header counts match the lines below it."""
    if evaluation.skipped:
        return (
            f"Score {_number(scale)}/{_number(scale)}: no rubric, so nothing was graded (skipped)."
        )
    if evaluation.result == "grader_error":
        return (
            f"Score 0/{_number(scale)}: the judge failed, so nothing was verified. "
            f"{evaluation.explanation}"
        )
    required = [v for v in evaluation.criteria if v.required]
    unmet = [v for v in required if not v.passed]
    score = scale if evaluation.result == "satisfied" else 0
    if evaluation.result == "failed":
        header = f"Score 0/{_number(scale)}: {evaluation.explanation}"
    elif unmet:
        header = (
            f"Score 0/{_number(scale)}: {len(unmet)} of {len(required)} required criteria "
            "not satisfied. Address each one below."
        )
    else:
        header = (
            f"Score {_number(score)}/{_number(scale)}: all {len(required)} required criteria "
            "satisfied."
        )
    lines = [header]
    for verdict in evaluation.criteria:
        tag = "" if verdict.required else " (optional)"
        state = "satisfied" if verdict.passed else "not satisfied"
        if verdict.unsure:
            state += ", unsure"
        sure = "" if verdict.confidence is None else f" (P(met) {verdict.confidence:.2f})"
        if verdict.passed:
            why = f": {verdict.reason}" if verdict.reason else ""
            lines.append(f"- [{state}]{tag} {verdict.name}{sure}{why}")
        else:
            lines.append(f"- [{state}]{tag} {verdict.name}{sure}: {verdict.gap}")
    return "\n".join(lines)


def _number(value: float) -> str:
    return f"{value:g}"


def _task_text(input: Any) -> str:
    if input is None:
        return ""
    if isinstance(input, str):
        return input
    if isinstance(input, BaseMessage):
        return message_text(input)
    if isinstance(input, Mapping):
        for key in ("task", "input", "prompt", "question"):
            if isinstance(input.get(key), str):
                return str(input[key])
        return ""
    if isinstance(input, Sequence):
        return "\n".join(message_text(m) for m in input if isinstance(m, (BaseMessage, Mapping)))
    return str(input)


def _output_text(output: Any) -> tuple[str, list[BaseMessage | Mapping[str, Any]]]:
    """The text to grade and, when `output` is a conversation, the transcript behind it."""
    if output is None:
        return "", []
    if isinstance(output, str):
        return output, []
    if isinstance(output, (BaseMessage, Mapping)):
        return message_text(output), []
    if isinstance(output, Sequence):
        items = [m for m in output if isinstance(m, (BaseMessage, Mapping))]
        return "", items
    raise TypeError(
        f"`output` must be a string, a message or a list of messages, got {type(output).__name__}"
    )
