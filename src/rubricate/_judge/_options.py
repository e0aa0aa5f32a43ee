"""`JudgeOptions`: every setting of the judge, declared once.

`Judge`, `create_rubric_scorer`, `RubricMiddleware`, `refine`, the batch functions and the CLI all
take these same keywords (`**options: Unpack[JudgeOptions]`) and hand them to `Judge` unchanged,
so a setting added here reaches every entry point, and a misspelt one fails everywhere the same.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypedDict

from langchain_core.tools import BaseTool

from .._types import ContextPolicy, Mode
from ._retry import RetryPolicy

__all__ = ["JudgeOptions", "check_options"]


class JudgeOptions(TypedDict, total=False):
    """The judge's settings; every key is optional, and `None` means the default.

    Defaults depend on the kind of model: the embedded model (`"local"`, `"llamacpp:..."`) is a
    small model on a CPU, where output tokens cost time and yes/no verdicts on format rules are
    near chance; remote models are large, and cost tokens rather than time.

    Keys:
        mode: `"joint"` (one call grades every criterion) or `"per_criterion"` (one small call
            each). Default: `per_criterion` on the embedded model, whose batched yes/no calls
            share the evidence in its KV cache; `joint` on remote models, one call instead of n.
        system_prompt: Grading instructions replacing the built-in `GRADER_SYSTEM_PROMPT`.
            The rule that the evidence is untrusted data stays in force whatever they say.
        tools: Tools the judge may call before its verdicts (LangChain tools or plain
            functions), such as `rubricate.checks.as_tools()`. Default: none. Not accepted by
            the Ray engine, which pickles options to its actors: build the `Judge` in a
            function instead.
        max_tool_calls: Cap on tool calls per evaluation (>= 0). Default 8.
        retry: Retries, backoff and per-call timeout for transient errors (`RetryPolicy`).
            Default: no timeout on the embedded model, whose calls only wait for the CPU;
            120 s per call on remote models.
        max_concurrency: Parallel calls in `per_criterion` mode on remote models (>= 1).
            Default 8; always 1 on the embedded model, which batches instead.
        max_evidence_chars: Evidence budget; longer evidence is trimmed with an explicit note.
            Default: what the embedded model's context holds beside the prompt (about 3
            characters a token), 60,000 on remote models.
        guard_injections: When the output (or an AI or tool message) holds passages that may
            address the grader (verdict words, forged verdict JSON or markup, claims about an
            earlier grading or about what the answer contains, words to an AI or evaluator,
            fake end-of-output markers), grade the criteria that passed again with those
            passages masked; a criterion passes only if both gradings pass it. The user's own
            request is never scanned. Default `True` on every model.
        read_checks: Decide in code, with no model call, the criteria whose every word a
            phrase grammar accounts for ("no bullet points" -> `bullet_count(exactly=0)`,
            "keep each paragraph under 80 words", "ends with a question"): a small model says
            yes to nearly every such rule, code does not. Anything the grammar cannot read
            whole stays with the judge. Default: on for the embedded model, off for remote
            models.
        compile_checks: Before grading, ask the model once per criterion which catalogue check
            (`rubricate.checks`) decides it exactly, such as "at most 300 words" ->
            `word_count(at_most=300)`; those criteria are then decided in code
            (`decided_by="check"`). Mappings are validated, cached, and shown by
            `Judge.compile`. Default `False`: it costs a call per new criterion.
        explain_passes: Also say why each passed criterion is met (`CriterionVerdict.reason`,
            shown in the scorer's reason). Default: on for remote models, where it costs only
            tokens; off on the embedded model, where it costs one more call per pass.
        show_context: When the judge sees the task and the transcript. `"always"`: for every
            criterion. `"when_referenced"`: only for criteria that refer to the request or to
            what happened before the output ("answers the user's question", "stays on topic",
            "uses only the provided article"); the others ("the poem is about spring", "is in
            Spanish") are graded on the output alone, because a small judge answers them from
            the request. Applies in `per_criterion` mode without grader tools. Default:
            `"when_referenced"` on the embedded model, `"always"` on remote models.
        careful: Write a one-sentence reason before each verdict, and decide after it: on the
            embedded model a reason is decoded, then the yes / no read; on remote models the
            verdict's JSON gets a `reasoning` field before `verdict`. It costs decode steps
            (tokens on remote models). On the embedded model it was measured slower (4.1x)
            and less accurate on summary facts than the default (docs/benchmarks.md), so it is
            meant for remote models. Default `False`.
        layout_facts: When a rule on the text's form is left to the model (no check could read
            it; needs `read_checks` or `compile_checks`), show the model the output's layout as
            code measured it: its pieces top to bottom (headings, lists with the words of each
            item, paragraphs with their sentences and words, code blocks, tables) and its bold,
            italics, emojis and links (in `joint` mode the one call shows them when any
            criterion needs them). A small model counts badly but compares well: on the
            embedded model it made those verdicts clearly better (docs/benchmarks.md, "Layout
            facts"). Default `True`.
        tone_likelihood: On the embedded model, decide a criterion about tone alone ("The
            reply is polite") from P(yes) together with how much likelier the model finds the
            output once that tone is asked for, read from its logits (one pass per tone
            criterion and one per output, no decoding; about 2.5x a tone criterion's time).
            The small model perceives tone poorly when asked, better as a writer: on the dev
            files this raised balanced accuracy on tone criteria from 0.70 to 0.74 out of fold;
            on the test files it helped the trivial set and hurt the format one
            (docs/benchmarks.md). Off, such criteria pass at the fixed stricter bar
            `TONE_PASS_THRESHOLD`. Default `True`; no effect on remote models.

    Example:
        ```python
        options: JudgeOptions = {"mode": "joint", "explain_passes": True}
        judge = Judge("openai:gpt-5-mini", **options)
        scorer = create_rubric_scorer("openai:gpt-5-mini", "- Cites a source", **options)
        ```

    """

    mode: Mode | None
    system_prompt: str | None
    tools: Sequence[BaseTool | Callable[..., Any]] | None
    max_tool_calls: int
    retry: RetryPolicy | None
    max_concurrency: int | None
    max_evidence_chars: int | None
    guard_injections: bool
    read_checks: bool | None
    compile_checks: bool
    explain_passes: bool | None
    show_context: ContextPolicy | None
    careful: bool
    layout_facts: bool
    tone_likelihood: bool


_NAMES = tuple(JudgeOptions.__annotations__)


def check_options(options: Mapping[str, Any], where: str) -> None:
    """Raise `TypeError` naming any key of `options` that is not a judge option.

    `**options` would otherwise take a misspelt keyword (`explain_pass=True`) without a word.
    `where` names the call in the message, such as `"Judge()"`.
    """
    unknown = [name for name in options if name not in _NAMES]
    if unknown:
        listed = ", ".join(repr(name) for name in unknown)
        raise TypeError(
            f"{where} got unknown option(s) {listed}; the judge options are: "
            f"{', '.join(_NAMES)} (see `rubricate.JudgeOptions`)"
        )
