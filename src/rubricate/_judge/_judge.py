"""The judge: grades evidence against a rubric and returns an `Evaluation`.

One evaluation goes: code checks (no model) -> optional grader-tool phase (`_grader_tools`) ->
verdicts (on the embedded model, a criterion about the output itself sees the output alone,
`_context`), either `joint` (one call for every criterion, `_joint`) or `per_criterion` (one small
call each, `_per_criterion`: yes/no questions batched on the embedded model, concurrent JSON
verdicts on remote ones) -> when the evidence holds passages that address the grader, the
criteria that passed are graded again with them masked (`_injection`). How a question reaches
the model, and comes back parsed, is `_calls`; answers become verdicts in `_verdicts`.

Every model verdict carries the model's P(criterion met) when the model gives log-probabilities
(`rubricate._judge._confidence`): the embedded model always, OpenAI-style models when asked.

Verdicts are matched to configured criteria by label, never by what the judge echoes; anything
missing, unknown or contradictory is corrected once and then fails closed as `unverified`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Unpack

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.tools import BaseTool
from langchain_core.tools import tool as as_tool

from .._exceptions import GraderError
from .._models import ModelLike, model_name, resolve_chat_model, supports_grammar
from .._rubric._rubric import Criterion, Rubric, RubricLike
from .._sync import run_sync
from .._types import CriterionVerdict, Evaluation, Evidence, Mode
from ..checks import graded_output
from . import _prompts as prompts
from ._calls import Meter, ModelCalls
from ._code_checks import run_check
from ._compile._compiler import CheckCompiler, CompiledRubric
from ._confidence import FORM_PASS_THRESHOLD, TONE_PASS_THRESHOLD
from ._context import needs_context, output_only
from ._evidence import defuse, first_user_text, last_assistant_text, render_evidence
from ._grader_tools import run_tool_phase
from ._injection import both_must_pass, mask_evidence
from ._joint import ask_joint
from ._layout_facts import LAYOUT_FACTS_PREAMBLE, layout_facts
from ._likelihood import likelihood_conversations, tone_bar
from ._options import JudgeOptions, check_options
from ._per_criterion import ask_per_criterion
from ._retry import RetryPolicy
from ._tone import about_tone
from ._verdicts import summarize, to_verdict

__all__ = ["Judge", "check_judge_options", "judge_for"]

_REMOTE_EVIDENCE_CHARS = 60_000
_FORMAT_NOTE = (
    "A rule on the text's form that no check could read, decided by the model{bar}: check it."
)
_UNDECIDED_NOTE = "Its check could not decide this output ({why}), so the model did{bar}: check it."
_TONE_LIKELIHOOD_NOTE = (
    "A criterion about tone, which the embedded model reads poorly; decided from P(yes) and "
    "how much likelier the output is once that tone is asked for (here the bar was "
    "P(yes) >= {bar:.2f}): check it."
)
_TONE_NOTE = (
    "A criterion about tone, which the embedded model reads poorly; decided at the stricter bar "
    "P(yes) >= {bar:.2f}: check it."
)


class Judge:
    """Grades an output against a rubric with a chat model; code-checked criteria need no model.

    Args:
        model: `"local"` (the embedded model), `"llamacpp:/path.gguf"`, `"provider:model-id"`,
            or a LangChain chat model.
        **options: The judge's settings, each described in `JudgeOptions` (`mode`,
            `system_prompt`, `tools`, `max_tool_calls`, `retry`, `max_concurrency`,
            `max_evidence_chars`, `guard_injections`, `read_checks`, `compile_checks`,
            `explain_passes`, `show_context`, `careful`, `layout_facts`, `tone_likelihood`); a
            name that is none of these raises `TypeError`.

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
        show_context = options.get("show_context")
        if mode is not None and mode not in ("joint", "per_criterion"):
            raise ValueError(f"`mode` must be 'joint' or 'per_criterion', got {mode!r}")
        if show_context is not None and show_context not in ("when_referenced", "always"):
            raise ValueError(
                f"`show_context` must be 'when_referenced' or 'always', got {show_context!r}"
            )
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
        self.show_context = show_context or ("when_referenced" if self.local else "always")
        self.careful = options.get("careful", False)
        self.layout_facts = options.get("layout_facts", True)
        self.tone_likelihood = options.get("tone_likelihood", True)
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
        undecided: dict[str, str] = {}  # why a check decided nothing, by criterion id
        judged: list[Criterion] = []
        for criterion in parsed:
            if criterion.check is None:
                judged.append(criterion)
                continue
            outcome = await run_check(criterion, evidence)
            if isinstance(outcome, str):
                undecided[criterion.id] = outcome
                judged.append(replace(criterion, check=None))
            else:
                verdicts[criterion.id] = outcome
        if judged:
            try:
                tone_bars = await self._tone_bars(judged, evidence, meter)
                verdicts.update(await self._grade(judged, evidence, meter, tone_bars))
                if self.guard_injections:
                    verdicts.update(await self._grade_masked(judged, evidence, verdicts, meter))
                verdicts.update(
                    self._unsure_where_model_is_weak(judged, verdicts, tone_bars, undecided)
                )
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

    def _unsure_where_model_is_weak(
        self,
        judged: list[Criterion],
        verdicts: dict[str, CriterionVerdict],
        tone_bars: Mapping[str, float],
        undecided: Mapping[str, str],
    ) -> dict[str, CriterionVerdict]:
        """Model verdicts of kinds it decides poorly, marked `unsure` with a note that says why.

        Format rules no check could read (when checks are read or compiled), criteria whose
        check could not read this output (`undecided`: why, by criterion id), and on the
        embedded model, criteria about tone alone (`about_tone`), with the bar each met.
        """
        notes: dict[str, str] = {}
        bar = f" at the stricter bar P(yes) >= {FORM_PASS_THRESHOLD:.2f}" if self.local else ""
        form: set[str] = set()
        if self.compile_checks or self.read_checks:
            checker = self._checker()
            form = {c.id for c in judged if checker.format_unread(c)}
            notes.update(dict.fromkeys(form, _FORMAT_NOTE.format(bar=bar)))
        for id, why in undecided.items():
            shown = bar if id in form else ""
            notes[id] = _UNDECIDED_NOTE.format(why=why.rstrip("."), bar=shown)
        if self.local:
            for c in judged:
                if c.id in tone_bars:
                    notes[c.id] = _TONE_LIKELIHOOD_NOTE.format(bar=tone_bars[c.id])
                elif about_tone(c.description):
                    notes[c.id] = _TONE_NOTE.format(bar=TONE_PASS_THRESHOLD)
        return {
            id: replace(verdict, unsure=True, reason=f"{verdict.reason} {note}".strip())
            for id, note in notes.items()
            if (verdict := verdicts[id]).decided_by == "judge"
        }

    def _bars(
        self, labels: Mapping[str, Criterion], tone_bars: Mapping[str, float]
    ) -> dict[str, float]:
        """The labels whose embedded-model verdict needs another P(yes) than `PASS_THRESHOLD`.

        The small model's "yes" is worth less on two kinds of criteria than on anything else it
        grades: a rule on the text's form that no check could read (`FORM_PASS_THRESHOLD`), and
        a criterion about tone alone (its bar from the output's likelihood, `tone_bars` by
        criterion id, else `TONE_PASS_THRESHOLD`).
        """
        if not self.local:
            return {}
        bars = {
            label: tone_bars.get(criterion.id, TONE_PASS_THRESHOLD)
            for label, criterion in labels.items()
            if about_tone(criterion.description)
        }
        if self.read_checks or self.compile_checks:
            checker = self._checker()
            bars.update(
                {
                    label: FORM_PASS_THRESHOLD
                    for label, criterion in labels.items()
                    if checker.format_unread(criterion)
                }
            )
        return bars

    async def _tone_bars(
        self, judged: list[Criterion], evidence: Evidence, meter: Meter
    ) -> dict[str, float]:
        """Each tone criterion's bar from the output's likelihood under it (`_likelihood`).

        By criterion id; empty (the fixed `TONE_PASS_THRESHOLD` decides) when the option is
        off, off the embedded model's batched per-criterion path, or when the texts do not fit
        its context.
        """
        tone = [c for c in judged if about_tone(c.description)]
        score = getattr(self.model, "ascore_many", None)
        if not (tone and self.tone_likelihood and self.mode == "per_criterion" and score):
            return {}
        if not await self._calls.batches():
            return {}
        limit = self.max_evidence_chars // 2
        task = (evidence.task or first_user_text(evidence.messages))[:limit]
        conversations = likelihood_conversations(
            task, evidence.output[:limit], [c.description for c in tone]
        )
        try:
            alone, *asked = await score(conversations)
        except ValueError:  # longer than the context holds
            return {}
        meter.count_call(len(conversations))
        return {c.id: tone_bar(s - alone) for c, s in zip(tone, asked, strict=True)}

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
        self,
        criteria: list[Criterion],
        evidence: Evidence,
        meter: Meter,
        tone_bars: Mapping[str, float],
    ) -> dict[str, CriterionVerdict]:
        """Grade `criteria`, each on the evidence it may see, in as few views as it takes.

        A criterion about the output itself sees the output alone (`show_context`, `_context`);
        a rule on the text's form that no check could read also sees the output's measured
        layout (`layout_facts`). The views go out concurrently, so the embedded model's batches
        for all of them run as one. In `joint` mode there is one call, and so one view: it
        shows the layout when any of its criteria needs it.
        """
        split = (
            self.show_context == "when_referenced"
            and self.mode == "per_criterion"
            and not (self.tools and self.max_tool_calls)
            and bool(evidence.task.strip() or evidence.messages)
        )
        form = [c for c in criteria if self._with_layout_facts(c)]
        facts = layout_facts(evidence.output) if form else ""
        if self.mode == "joint":
            return await self._grade_on(criteria, evidence, meter, tone_bars, facts=facts)
        views = []
        for group, extra in (([c for c in criteria if c not in form], ""), (form, facts)):
            own = [c for c in group if split and not needs_context(c.description)]
            rest = [c for c in group if c not in own]
            if own:
                views.append(
                    self._grade_on(own, output_only(evidence), meter, tone_bars, facts=extra)
                )
            if rest:
                views.append(self._grade_on(rest, evidence, meter, tone_bars, facts=extra))
        verdicts: dict[str, CriterionVerdict] = {}
        for part in await asyncio.gather(*views):
            verdicts.update(part)
        return verdicts

    def _with_layout_facts(self, criterion: Criterion) -> bool:
        return (
            self.layout_facts
            and (self.read_checks or self.compile_checks)
            and self._checker().format_unread(criterion)
        )

    async def _grade_on(
        self,
        criteria: list[Criterion],
        evidence: Evidence,
        meter: Meter,
        tone_bars: Mapping[str, float],
        *,
        facts: str = "",
    ) -> dict[str, CriterionVerdict]:
        labels = {f"C{i}": c for i, c in enumerate(criteria, start=1)}
        # The facts take their room from the evidence budget, so the prompt still fits.
        budget = max(self.max_evidence_chars - len(facts), self.max_evidence_chars // 2)
        rendered = render_evidence(evidence, max_chars=budget)
        shown = prompts.EVIDENCE_PREAMBLE.format(evidence=rendered.text)
        if facts:
            # The facts quote the output (headings, bold): never with a delimiter of ours.
            shown = f"{shown}\n\n{LAYOUT_FACTS_PREAMBLE}\n{defuse(facts)}"
        base: list[BaseMessage] = [SystemMessage(self.system_prompt), HumanMessage(shown)]
        if self.tools and self.max_tool_calls:
            # Catalogue check tools read the graded output from here when called without `text`,
            # so a small model never has to copy a long output into its tool call.
            with graded_output(evidence.output):
                base = await run_tool_phase(
                    self._calls, self.model, self.tools, self.max_tool_calls, base, labels, meter
                )
        if self.mode == "joint":
            answers = await ask_joint(
                self._calls,
                base,
                labels,
                meter,
                local=self.local,
                explain_passes=self.explain_passes,
                careful=self.careful,
            )
        else:
            answers = await ask_per_criterion(
                self._calls,
                base,
                labels,
                meter,
                local=self.local,
                explain_passes=self.explain_passes,
                careful=self.careful,
                max_concurrency=self.max_concurrency,
                bars=self._bars(labels, tone_bars),
            )
        return {c.id: to_verdict(c, answers[label]) for label, c in labels.items()}

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
        masked text was what the criterion needed. A tone criterion's bar is read again from
        the masked output too: a passage telling the grader the reply is polite makes a reply
        likelier under "polite" by its words, not by its tone.
        """
        passed = [c for c in criteria if verdicts[c.id].passed]
        masked = mask_evidence(evidence) if passed else None
        if masked is None:
            return {}
        tone_bars = await self._tone_bars(passed, masked.evidence, meter)
        second = await self._grade(passed, masked.evidence, meter, tone_bars)
        return {c.id: both_must_pass(verdicts[c.id], second[c.id], masked) for c in passed}

    # -- defaults ------------------------------------------------------------------------------

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


def _collect_evidence(
    *, output: str, task: str, messages: Sequence[BaseMessage | Mapping[str, Any]]
) -> Evidence:
    """Fill a missing output from the last assistant message of the transcript."""
    if not isinstance(output, str):
        raise TypeError(f"`output` must be a string, got {type(output).__name__}")
    if not output and messages:
        output = last_assistant_text(messages)
    return Evidence(output=output, task=task, messages=tuple(messages))
