"""A judge model that answers every request at once with a valid verdict: rubricate's own cost.

Like pydantic-ai's `TestModel`, it needs no script: it reads what the judge asks for from the
call (the structured-output schema LangChain passes as a tool, or a grammar on the embedded path)
and answers in that shape, so everything around the model runs for real: parsing the rubric,
rendering the evidence, LangChain's structured-output plumbing, validation, summarising, batch
grading's streaming and results file. A latency makes it stand in for a remote provider.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any, ClassVar

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import PrivateAttr

from .._judge._answers import JOINT_TITLE

__all__ = ["InstantGrammarJudgeModel", "InstantJudgeModel"]


class InstantJudgeModel(BaseChatModel):
    """Answers every structured-output request with a valid verdict, instantly or after a delay.

    A joint answer has one verdict per criterion label the schema allows; every third criterion
    fails with a gap, so summaries have something to say. Asked without tools (a grammar on the
    embedded path) it answers `yes`. Each answer reports 900 input and 60 output tokens.

    Example:
        ```python
        from rubricate import Judge, grade_file
        from rubricate.testing import InstantJudgeModel

        judge = Judge(InstantJudgeModel(latency_s=0.1), mode="joint")
        grade_file("items.jsonl", "results.jsonl", judge=judge, rubric="- Is polite", concurrency=8)
        ```

    """

    latency_s: float = 0.0
    """Seconds each async call waits before answering (sync calls answer at once)."""
    jitter_s: float = 0.0
    """Each call's latency is drawn uniformly from `latency_s ± jitter_s`."""
    seed: int = 0
    """Seeds the jitter."""
    model_name: str = "fake-judge"
    supports_grammar: ClassVar[bool] = False
    _rng: random.Random = PrivateAttr()

    def model_post_init(self, context: Any) -> None:
        """Seed the jitter."""
        self._rng = random.Random(self.seed)

    @property
    def _llm_type(self) -> str:
        return "fake-judge"

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any) -> Any:
        """Bind tools as call arguments, so LangChain's `with_structured_output` works."""
        return self.bind(tools=list(tools), tool_choice=tool_choice, **kwargs)

    def reply(self, kwargs: dict[str, Any]) -> AIMessage:
        """The answer to one call, built fresh (LangChain may annotate the message it gets)."""
        usage = {"input_tokens": 900, "output_tokens": 60, "total_tokens": 960}
        tools = kwargs.get("tools") or []
        if not tools:
            return AIMessage("yes", usage_metadata=usage)
        schema = tools[0]
        name = schema.get("title", "answer")
        if name == JOINT_TITLE:
            item = schema["properties"]["verdicts"]["items"]
            labels = item["properties"]["criterion"]["enum"]
            args: dict[str, Any] = {
                "verdicts": [
                    {"criterion": label, "verdict": "pass", "gap": ""}
                    if i % 3
                    else {"criterion": label, "verdict": "fail", "gap": "It omits the fares."}
                    for i, label in enumerate(labels, start=1)
                ]
            }
        else:
            args = {"verdict": "pass", "gap": ""}
        call = {"name": name, "args": args, "id": "call_0", "type": "tool_call"}
        return AIMessage("", tool_calls=[call], usage_metadata=usage)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self.reply(kwargs))])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.latency_s > 0:
            jitter = self._rng.uniform(-self.jitter_s, self.jitter_s) if self.jitter_s else 0.0
            await asyncio.sleep(self.latency_s + jitter)
        return ChatResult(generations=[ChatGeneration(message=self.reply(kwargs))])


class InstantGrammarJudgeModel(InstantJudgeModel):
    """Looks like the embedded model to the judge: grammar-constrained `yes` / `no` calls."""

    supports_grammar: ClassVar[bool] = True
    n_ctx: int = 8192
