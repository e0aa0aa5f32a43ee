"""The judge: grades evidence against a rubric and returns an `Evaluation`.

One evaluation goes: code checks (no model) -> optional grader-tool phase -> verdicts, either
`joint` (one call for every criterion) or `per_criterion` (one small call each; concurrent for
remote models, sequential on the embedded model so its KV cache reuses the shared prefix).

On the embedded model a per-criterion verdict is a grammar-constrained `yes` / `no`, and only a
`no` pays for a second, one-line call asking for the gap: output tokens are what cost time on a
CPU. Remote models answer a small JSON verdict through their provider's structured output, or
through a forced tool call when an OpenAI-compatible server rejects that (llama-cpp-python's
does).

Every model verdict carries the model's P(criterion met) when the model gives log-probabilities
(`rubricate._judge._confidence`): the embedded model always, OpenAI-style models when asked. On the
embedded model the yes/no verdict is that probability against the calibrated `PASS_THRESHOLD`.

Verdicts are matched to configured criteria by label, never by what the judge echoes; anything
missing, unknown or contradictory is corrected once and then fails closed as `unverified`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Unpack

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.tools import BaseTool
from langchain_core.tools import tool as as_tool
from langgraph.errors import GraphBubbleUp

from .._exceptions import GraderError
from .._models import ModelLike, model_name, resolve_chat_model, supports_grammar
from .._rubric._rubric import Criterion, Rubric, RubricLike
from .._sync import run_sync
from .._types import CriterionVerdict, Evaluation, EvaluationResult, Evidence, Mode
from ..checks import graded_output
from . import _prompts as prompts
from ._answers import (
    Answer,
    answer_text,
    criterion_schema,
    joint_schema,
    parse_criterion,
    parse_joint,
)
from ._calls import Meter, ModelCalls
from ._code_checks import run_check
from ._compile._compiler import CheckCompiler, CompiledRubric
from ._confidence import (
    PASS_THRESHOLD,
    is_unsure,
    yes_probability,
)
from ._evidence import last_assistant_text, message_text, render_evidence
from ._injection import both_must_pass, mask_evidence
from ._options import JudgeOptions, check_options
from ._retry import RetryPolicy, describe_error

__all__ = ["Judge", "check_judge_options", "judge_for"]

_GAP_MAX_TOKENS = 48
_TOOL_OUTPUT_CHARS = 4000
_REMOTE_EVIDENCE_CHARS = 60_000
_RUNNABLE_CACHE = 64  # structured-output runnables kept, one per distinct schema
_NO_GAP = "The judge found this criterion not met but gave no reason."
_REASONING_MODEL = re.compile(r"^(o\d|gpt-5)", re.IGNORECASE)
_UNVERIFIED_GAP = "The judge gave no valid verdict for this criterion ({problem}); failed closed."
# How OpenAI-compatible servers reject a `response_format` they do not take: 400 or 422 from most,
# 500 from llama-cpp-python's server (its request validation error, wrapped).
_REJECTED_FORMAT_STATUS = frozenset({400, 415, 422, 500})


class Judge:
    """Grades an output against a rubric with a chat model; code-checked criteria need no model.

    Args:
        model: `"local"` (the embedded model), `"llamacpp:/path.gguf"`, `"provider:model-id"`,
            or a LangChain chat model.
        **options: The judge's settings, each described in `JudgeOptions` (`mode`,
            `system_prompt`, `tools`, `max_tool_calls`, `retry`, `max_concurrency`,
            `max_evidence_chars`, `guard_injections`, `read_checks`, `compile_checks`,
            `explain_passes`); a name that is none of these raises `TypeError`.

    Example:
        ```python
        judge = Judge("local")
        evaluation = judge.evaluate("- Mentions Paris", output="The capital is Paris.")
        evaluation.result  # "satisfied"
        ```

    """

    def __init__(self, model: ModelLike = "local", **options: Unpack[JudgeOptions]) -> None:
        check_options(options, "Judge()")
        mode = options.get("mode")
        max_tool_calls = options.get("max_tool_calls", 8)
        max_concurrency = options.get("max_concurrency")
        if mode is not None and mode not in ("joint", "per_criterion"):
            raise ValueError(f"`mode` must be 'joint' or 'per_criterion', got {mode!r}")
        if isinstance(max_tool_calls, bool) or not isinstance(max_tool_calls, int):
            raise TypeError(f"`max_tool_calls` must be an int, got {max_tool_calls!r}")
        if max_tool_calls < 0:
            raise ValueError(f"`max_tool_calls` must be >= 0, got {max_tool_calls!r}")
        if max_concurrency is not None and max_concurrency < 1:
            raise ValueError(f"`max_concurrency` must be >= 1, got {max_concurrency!r}")
        self.model: BaseChatModel = resolve_chat_model(model)
        self.model_name = model_name(self.model)
        self.local = supports_grammar(self.model)
        self.mode: Mode = mode or ("per_criterion" if self.local else "joint")
        self.system_prompt = options.get("system_prompt") or prompts.GRADER_SYSTEM_PROMPT
        self.tools: tuple[BaseTool, ...] = tuple(
            t if isinstance(t, BaseTool) else as_tool(t) for t in (options.get("tools") or ())
        )
        self.max_tool_calls = max_tool_calls
        self.retry = options.get("retry") or RetryPolicy(timeout=None if self.local else 120.0)
        self.max_concurrency = 1 if self.local else (max_concurrency or 8)
        self.max_evidence_chars = (
            options.get("max_evidence_chars") or self._default_evidence_chars()
        )
        self.guard_injections = options.get("guard_injections", True)
        read_checks = options.get("read_checks")
        self.read_checks = self.local if read_checks is None else read_checks
        self.compile_checks = options.get("compile_checks", False)
        explain_passes = options.get("explain_passes")
        self.explain_passes = not self.local if explain_passes is None else explain_passes
        self._compiler: CheckCompiler | None = None
        self._calls = ModelCalls(self)

    @property
    def concurrent_items(self) -> bool:
        """Whether grading several items at once is faster than one after another.

        True for remote models, and for the embedded model in `per_criterion` mode, whose
        batched calls from concurrent evaluations run as one llama.cpp batch
        (`ChatLlamaCpp.complete_many`). Its other calls (joint mode, grader tools, compiling)
        share one context, where interleaved items would only evict each other's cache.
        """
        if not self.local:
            return True
        return self.mode == "per_criterion" and bool(getattr(self.model, "multi_sequence", False))

    def evaluate(
        self,
        rubric: RubricLike,
        *,
        output: str = "",
        task: str = "",
        messages: Sequence[BaseMessage | Mapping[str, Any]] = (),
    ) -> Evaluation:
        """Grade synchronously; see `aevaluate`."""
        return run_sync(self.aevaluate(rubric, output=output, task=task, messages=messages))

    async def aevaluate(
        self,
        rubric: RubricLike,
        *,
        output: str = "",
        task: str = "",
        messages: Sequence[BaseMessage | Mapping[str, Any]] = (),
    ) -> Evaluation:
        """Grade `output` (or the last assistant message of `messages`) against `rubric`.

        Never raises for a judge failure: that is an evaluation with result `grader_error`.
        A rubric that cannot be parsed raises `RubricError` before any model call.
        """
        started = time.perf_counter()
        parsed = Rubric.parse(rubric)
        if not parsed:
            return Evaluation(
                result="satisfied",
                explanation="The rubric has no criteria: nothing to grade, so nothing was called.",
                skipped=True,
            )
        evidence = _collect_evidence(output=output, task=task, messages=messages)
        meter = Meter()
        if self.compile_checks:
            parsed = (await self._compile(parsed, meter)).rubric
        elif self.read_checks:
            parsed = self._checker().read(parsed)
        verdicts: dict[str, CriterionVerdict] = {}
        for criterion in parsed:
            if criterion.check is not None:
                verdicts[criterion.id] = await run_check(criterion, evidence)
        judged = [c for c in parsed if c.check is None]
        if judged:
            try:
                verdicts.update(await self._grade(judged, evidence, meter))
                if self.guard_injections:
                    verdicts.update(await self._grade_masked(judged, evidence, verdicts, meter))
            except GraderError as exc:
                return Evaluation(
                    result="grader_error",
                    explanation=str(exc),
                    usage=meter.usage(),
                    latency_s=time.perf_counter() - started,
                    mode=self.mode,
                    model=self.model_name,
                )
        ordered = tuple(verdicts[c.id] for c in parsed)
        result, explanation = summarize(ordered)
        return Evaluation(
            result=result,
            explanation=explanation,
            criteria=ordered,
            usage=meter.usage(),
            latency_s=time.perf_counter() - started,
            mode=self.mode if judged else None,
            model=self.model_name if judged else None,
        )

    def compile(self, rubric: RubricLike) -> CompiledRubric:
        """Map the rubric's criteria to catalogue checks; see `acompile`."""
        return run_sync(self.acompile(rubric))

    async def acompile(self, rubric: RubricLike) -> CompiledRubric:
        """Map each criterion without a check to the catalogue check that decides it, or none.

        What `compile_checks=True` does before grading, exposed so the mapping can be shown and
        reviewed (`CompiledRubric.describe()`). Cached per criterion text: a second call, or a
        later evaluation with the same criteria, makes no model call.
        """
        meter = Meter()
        compiled = await self._compile(Rubric.parse(rubric), meter)
        return replace(compiled, usage=meter.usage())

    def _checker(self) -> CheckCompiler:
        if self._compiler is None:
            self._compiler = CheckCompiler()
        return self._compiler

    async def _compile(self, rubric: Rubric, meter: Meter) -> CompiledRubric:

        async def ask(messages: list[BaseMessage], schema: dict[str, Any]) -> Any:
            return await self._calls.structured(messages, schema, meter)

        return await self._checker().compile(rubric, ask, concurrency=self.max_concurrency)

    # -- grading -------------------------------------------------------------------------------

    async def _grade(
        self, criteria: list[Criterion], evidence: Evidence, meter: Meter
    ) -> dict[str, CriterionVerdict]:
        labels = {f"C{i}": c for i, c in enumerate(criteria, start=1)}
        rendered = render_evidence(evidence, max_chars=self.max_evidence_chars)
        base: list[BaseMessage] = [
            SystemMessage(self.system_prompt),
            HumanMessage(prompts.EVIDENCE_PREAMBLE.format(evidence=rendered.text)),
        ]
        if self.tools and self.max_tool_calls:
            # Catalogue check tools read the graded output from here when called without `text`,
            # so a small model never has to copy a long output into its tool call.
            with graded_output(evidence.output):
                base = await self._tool_phase(base, labels, meter)
        if self.mode == "joint":
            answers = await self._joint(base, labels, meter)
        else:
            answers = await self._per_criterion(base, labels, meter)
        return {c.id: _to_verdict(c, answers[label]) for label, c in labels.items()}

    async def _grade_masked(
        self,
        criteria: list[Criterion],
        evidence: Evidence,
        verdicts: Mapping[str, CriterionVerdict],
        meter: Meter,
    ) -> dict[str, CriterionVerdict]:
        """Grade again with the suspect passages masked; a criterion passes only if both pass.

        Only criteria that passed are asked again (a fail stays a fail), and only when a passage
        was found. A false alarm costs a second grading; it fails a criterion only when the
        masked text was what the criterion needed.
        """
        passed = [c for c in criteria if verdicts[c.id].passed]
        masked = mask_evidence(evidence) if passed else None
        if masked is None:
            return {}
        second = await self._grade(passed, masked.evidence, meter)
        return {c.id: both_must_pass(verdicts[c.id], second[c.id], masked) for c in passed}

    async def _joint(
        self, base: list[BaseMessage], labels: dict[str, Criterion], meter: Meter
    ) -> dict[str, Answer | str]:
        request = prompts.JOINT_REQUEST.format(
            criteria="\n".join(f"{label}: {c.description}" for label, c in labels.items()),
            unscorable="" if self.local else prompts.UNSCORABLE_OPTION,
            reason=prompts.PASS_REASON_OPTION if self.explain_passes else "",
        )
        schema = joint_schema(
            list(labels), allow_unscorable=not self.local, with_reason=self.explain_passes
        )
        messages = _with_tail(base, request)
        runnable = self._calls.structured_runnable(schema)
        raw, scores = await self._calls.scored_answer(runnable, messages, schema, meter)
        first = parse_joint(raw, list(labels))
        if not first.problems:
            return {label: _scored(a, scores, label) for label, a in first.answers.items()}
        retry_messages = [
            *messages,
            AIMessage(answer_text(raw)),
            HumanMessage(_correction(first.problems, list(labels))),
        ]
        raw_again, scores_again = await self._calls.scored_answer(
            self._calls.structured_runnable(schema), retry_messages, schema, meter
        )
        second = parse_joint(raw_again, list(labels))
        merged: dict[str, Answer | str] = {}
        for label in labels:
            if label in second.answers:
                merged[label] = _scored(second.answers[label], scores_again, label)
            elif label in first.answers:
                merged[label] = _scored(first.answers[label], scores, label)
            else:
                merged[label] = second.problems.get(label) or first.problems.get(
                    label, "no verdict"
                )
        return merged

    async def _per_criterion(
        self, base: list[BaseMessage], labels: dict[str, Criterion], meter: Meter
    ) -> dict[str, Answer | str]:
        if self.local:
            if await self._calls.batches():
                return await self._yes_no(base, labels, meter)
            # One criterion at a time: its gap follows its verdict while the KV cache holds it.
            answers: dict[str, Answer | str] = {}
            for label, criterion in labels.items():
                answers.update(await self._yes_no(base, {label: criterion}, meter))
            return answers
        schema = criterion_schema(allow_unscorable=True, with_reason=self.explain_passes)
        key = json.dumps(schema, sort_keys=True)  # once, not once a criterion
        grade_one: Callable[[list[BaseMessage], Criterion, Meter], Awaitable[Answer | str]]
        grade_one = functools.partial(self._structured_one, schema=schema, key=key)
        if self.max_concurrency == 1:
            return {label: await grade_one(base, c, meter) for label, c in labels.items()}
        pending = iter(labels.items())
        answers = {}

        async def worker() -> None:  # a few workers sharing one queue: no task per criterion
            for label, criterion in pending:
                answers[label] = await grade_one(base, criterion, meter)

        workers = min(self.max_concurrency, len(labels))
        tasks = [asyncio.ensure_future(worker()) for _ in range(workers)]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            # One criterion gave up (or we were cancelled): stop the others, so no call goes on
            # after the evaluation has returned, unseen by its usage.
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        return {label: answers[label] for label in labels}

    async def _yes_no(
        self, base: list[BaseMessage], labels: dict[str, Criterion], meter: Meter
    ) -> dict[str, Answer | str]:
        """Embedded model: a one-token verdict per criterion, then a one-line gap for each `no`.

        Each phase is one batched call (`ChatLlamaCpp.complete_many`): every criterion's question
        is its own sequence over the shared evidence, and the gaps are decoded side by side;
        output tokens are what cost time on a CPU, and a decode step costs little more for
        several sequences than for one.
        """
        if prompts.VERDICT_INSTRUCTION:
            base = _with_tail(base, prompts.VERDICT_INSTRUCTION)
        questions = {
            label: _with_tail(
                base, prompts.CRITERION_QUESTION.format(criterion=criterion.description)
            )
            for label, criterion in labels.items()
        }
        continues = await self._calls.continues()  # the gap as the verdict's continuation
        replies = await self._calls.invoke_many(
            list(questions.values()), meter, choices=("yes", "no")
        )
        answers: dict[str, Answer | str] = {}
        follow_ups: dict[str, tuple[list[BaseMessage], bool, float | None]] = {}
        for (label, messages), reply in zip(questions.items(), replies, strict=True):
            confidence = yes_probability(reply)
            said_yes = message_text(reply).strip().lower() == "yes"
            # At a threshold of 0.5 this is the greedy answer: P(yes) >= P(no).
            passed = said_yes if confidence is None else confidence >= PASS_THRESHOLD
            if passed and not self.explain_passes:
                answers[label] = Answer(verdict="pass", confidence=confidence)
                continue
            if continues:
                prefill = prompts.PASS_PREFILL if passed else prompts.GAP_PREFILL
                asked = [*messages, AIMessage(prefill)]
            else:
                request = prompts.PASS_REASON_REQUEST if passed else prompts.GAP_REQUEST
                asked = [
                    *messages,
                    AIMessage("yes" if passed else "no"),
                    HumanMessage(request.format(criterion=labels[label].description)),
                ]
            follow_ups[label] = (asked, passed, confidence)
        if follow_ups:
            said_all = await self._calls.invoke_many(
                [asked for asked, _, _ in follow_ups.values()],
                meter,
                stop=("\n",),  # one line; a grammar would cost ~2x per token in llama-cpp-python
                max_tokens=_GAP_MAX_TOKENS,
            )
            for (label, (_, passed, confidence)), reply in zip(
                follow_ups.items(), said_all, strict=True
            ):
                said = message_text(reply)
                if continues:
                    said = f"The output{said}" if said.strip() else ""
                said = _clean_gap(said)
                answers[label] = (
                    Answer(verdict="pass", reason=said, confidence=confidence)
                    if passed
                    else Answer(verdict="fail", gap=said or _NO_GAP, confidence=confidence)
                )
        return {label: answers[label] for label in labels}

    async def _structured_one(
        self,
        base: list[BaseMessage],
        criterion: Criterion,
        meter: Meter,
        *,
        schema: dict[str, Any],
        key: str,
    ) -> Answer | str:
        request = prompts.CRITERION_STRUCTURED.format(
            criterion=criterion.description,
            unscorable=prompts.UNSCORABLE_OPTION,
            reason=prompts.PASS_REASON_OPTION if self.explain_passes else "",
        )
        messages = _with_tail(base, request)
        raw, scores = await self._calls.scored_answer(
            self._calls.structured_runnable(schema, key), messages, schema, meter
        )
        answer, problem = parse_criterion(raw)
        if answer is not None:
            return _scored(answer, scores, None)
        retry_messages = [
            *messages,
            AIMessage(answer_text(raw)),
            HumanMessage(prompts.CORRECTION.format(problems=problem, labels="this criterion")),
        ]
        raw, scores = await self._calls.scored_answer(
            self._calls.structured_runnable(schema, key), retry_messages, schema, meter
        )
        answer, problem = parse_criterion(raw)
        return (
            _scored(answer, scores, None) if answer is not None else (problem or "invalid verdict")
        )

    async def _tool_phase(
        self, base: list[BaseMessage], labels: dict[str, Criterion], meter: Meter
    ) -> list[BaseMessage]:
        """Let the judge call its tools (bounded) before any verdict; returns the transcript."""
        bound = self.model.bind_tools(list(self.tools))
        by_name = {t.name: t for t in self.tools}
        request = prompts.TOOLS_REQUEST.format(
            criteria="\n".join(f"{label}: {c.description}" for label, c in labels.items()),
            max_calls=self.max_tool_calls,
        )
        messages = _with_tail(base, request)
        used = 0
        while used < self.max_tool_calls:
            reply = await self._calls.invoke(bound, messages, meter)
            messages.append(reply)
            calls = reply.tool_calls if isinstance(reply, AIMessage) else []
            if not calls:
                break
            for call in calls:
                if used >= self.max_tool_calls:
                    cap = self.max_tool_calls
                    content = f"Not run: the grader's budget of {cap} tool calls is used up."
                else:
                    used += 1
                    content = await _run_tool(by_name.get(call["name"]), call)
                messages.append(
                    ToolMessage(content, tool_call_id=call.get("id") or "", name=call["name"])
                )
        return messages

    # -- model calls ---------------------------------------------------------------------------

    def _default_evidence_chars(self) -> int:
        n_ctx = getattr(self.model, "n_ctx", None)
        if self.local and isinstance(n_ctx, int):
            # About 3 characters a token, leaving room for instructions, criteria and the answer.
            return max((n_ctx - 1500) * 3, 2000)
        return _REMOTE_EVIDENCE_CHARS


def check_judge_options(judge: Judge | ModelLike, options: JudgeOptions, where: str) -> None:
    """Raise `TypeError` for an unknown option, or for options beside a built `Judge`.

    A `Judge` has its settings already, so options given with one would be silently ignored.
    `where` names the caller in the message, such as `"refine()"`.
    """
    check_options(options, where)
    if isinstance(judge, Judge) and options:
        raise TypeError(
            f"{where}: judge options ({', '.join(options)}) apply only when `judge` names a "
            "model; this `judge` is a `Judge`, already built with its own settings"
        )


def judge_for(judge: Judge | ModelLike, options: JudgeOptions, where: str) -> Judge:
    """`judge` itself when it is a `Judge`, else a `Judge` on that model with `options`."""
    check_judge_options(judge, options, where)
    return judge if isinstance(judge, Judge) else Judge(judge, **options)


def summarize(verdicts: Sequence[CriterionVerdict]) -> tuple[EvaluationResult, str]:
    """The evaluation's result and explanation, from the configured `required` flags only."""
    required = [v for v in verdicts if v.required]
    unscorable = [v for v in required if v.unscorable]
    unmet = [v for v in required if not v.passed]
    optional_unmet = [v for v in verdicts if not v.required and not v.passed]
    if unscorable:
        listed = "; ".join(f"{v.name} ({v.gap})" for v in unscorable)
        return "failed", (
            f"{len(unscorable)} required criteria cannot be evaluated from the evidence: {listed}"
        )
    if not unmet:
        text = f"All {len(required)} required criteria are met."
        if optional_unmet:
            text += f" Optional criteria not met: {'; '.join(v.name for v in optional_unmet)}."
        return "satisfied", text
    listed = "; ".join(f"{v.name}: {v.gap}" for v in unmet)
    return (
        "needs_revision",
        f"{len(unmet)} of {len(required)} required criteria are not met. {listed}",
    )


def _collect_evidence(
    *, output: str, task: str, messages: Sequence[BaseMessage | Mapping[str, Any]]
) -> Evidence:
    """Fill a missing output from the last assistant message of the transcript."""
    if not isinstance(output, str):
        raise TypeError(f"`output` must be a string, got {type(output).__name__}")
    if not output and messages:
        output = last_assistant_text(messages)
    return Evidence(output=output, task=task, messages=tuple(messages))


def _scored(
    answer: Answer, scores: Sequence[tuple[str | None, float | None]], label: str | None
) -> Answer:
    """`answer` with the confidence read for its verdict (by label in a joint answer)."""
    if label is None:
        confidence = scores[0][1] if len(scores) == 1 else None
    else:
        matching = [p for named, p in scores if named == label]
        confidence = matching[0] if len(matching) == 1 else None
    return answer.model_copy(update={"confidence": confidence})


def _to_verdict(criterion: Criterion, answer: Answer | str) -> CriterionVerdict:
    if isinstance(answer, str):
        return CriterionVerdict(
            id=criterion.id,
            name=criterion.description,
            passed=False,
            gap=_UNVERIFIED_GAP.format(problem=answer),
            required=criterion.required,
            unverified=True,
        )
    unscorable = answer.verdict == "cannot_evaluate"
    return CriterionVerdict(
        id=criterion.id,
        name=criterion.description,
        passed=answer.passed,
        gap="" if answer.passed else (answer.gap or _NO_GAP),
        reason=answer.reason if answer.passed else "",
        required=criterion.required,
        unscorable=unscorable,
        confidence=answer.confidence,
        unsure=is_unsure(answer.confidence),
    )


def _with_tail(base: list[BaseMessage], tail: str) -> list[BaseMessage]:
    """Append the varying part to the shared prefix, inside the last user turn when there is one."""
    last = base[-1]
    if isinstance(last, HumanMessage) and isinstance(last.content, str):
        return [*base[:-1], HumanMessage(f"{last.content}\n\n{tail}")]
    return [*base, HumanMessage(tail)]


def _correction(problems: Mapping[str, str], labels: list[str]) -> str:
    listed = "; ".join(
        problem if label == "*" else f"{label}: {problem}" for label, problem in problems.items()
    )
    return prompts.CORRECTION.format(problems=listed, labels=", ".join(labels))


def _clean_gap(text: str) -> str:
    return " ".join(text.split()).strip().strip('"')


async def _run_tool(tool: BaseTool | None, call: Mapping[str, Any]) -> str:
    """Run one grader tool call; its failure is data for the judge, not a crash."""
    if tool is None:
        return f"Error: there is no tool named {call.get('name')!r}."
    try:
        result = await tool.ainvoke(call.get("args") or {})
    except GraphBubbleUp:
        raise  # an interrupt (human-in-the-loop) is control flow, not a tool failure
    except Exception as exc:
        return f"Error: the tool raised {describe_error(exc)}"
    text = result if isinstance(result, str) else json.dumps(result, default=str)
    if len(text) > _TOOL_OUTPUT_CHARS:
        text = (
            text[:_TOOL_OUTPUT_CHARS]
            + f"\n[... {len(text) - _TOOL_OUTPUT_CHARS:,} characters omitted]"
        )
    return text
