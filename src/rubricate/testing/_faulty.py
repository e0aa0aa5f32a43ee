"""Fake judges that misbehave like real providers: check that your code fails closed.

`FaultyJudgeModel` is a LangChain chat model that grades honestly from a ground truth it can
compute itself, except that on a seeded share of calls it misbehaves the way providers and small
models do: it raises timeouts, HTTP 429 / 500 / 503 / 400 errors (exceptions carrying
`status_code`) and connection errors, hangs past the call timeout, or answers with garbage,
truncated JSON, verdicts with missing / extra / renamed criteria, contradictory verdicts, or
`cannot_evaluate`.

Ground truth: a criterion reads `Mentions <word>` and is met when `<word>` is a word of the
output. Every fault that carries verdicts is adversarial: whatever sits in an invalid place (an
unknown or renamed label, the contradicting half of a pair, the first of two tool calls) says
`pass`, so a judge that fails open shows up as a false `satisfied`.

The model keeps a `Ledger`: every attempt, the faults drawn, and which (output, criterion) pairs
it ever graded *validly* as `pass` (a well-formed, correctly labelled, uncontradicted verdict).
`Ledger.truly_satisfied` is the ground truth a `satisfied` result is checked against.

Three flavours, one per path structured output takes through the judge:

- `FaultyJudgeModel`: has `bind_tools`, so `with_structured_output` runs LangChain's tool-calling
  implementation (the tool call's name is the schema title, as for real providers).
- `FaultyTextJudgeModel`: no `bind_tools`, so the judge asks for JSON in plain text.
- `FaultyGrammarJudgeModel`: looks like the embedded model (`supports_grammar`), so the judge
  asks a grammar-constrained `yes` / `no` per criterion and a one-line gap after a `no`.

Randomness is drawn per call from (seed, digest of the messages, attempt number for that digest),
so a run is reproducible whatever order concurrent calls happen in.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
import threading
from collections.abc import Sequence
from typing import Any, ClassVar

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, PrivateAttr

from .._judge._answers import CRITERION_TITLE
from ._fault_plan import (
    EXCEPTION_FAULTS,
    FaultRates,
    Ledger,
    criterion_met,
    fault_exception,
)

__all__ = ["FaultyGrammarJudgeModel", "FaultyJudgeModel", "FaultyTextJudgeModel"]

_OUTPUT = re.compile(r"<output>\n(.*?)\n</output>", re.DOTALL)
_CRITERIA = re.compile(r"<criteria>\n(.*?)\n</criteria>", re.DOTALL)
_LABELLED = re.compile(r"^(C\d+): (.*)$", re.MULTILINE)
_ONE_CRITERION = re.compile(r"^Criterion: (.*)$", re.MULTILINE)
_JSON_INSTRUCTION = "Reply with JSON only, matching this JSON schema:\n"


class _FaultyBase(BaseChatModel):
    rates: FaultRates = Field(default_factory=FaultRates)
    seed: int = 0
    hang_s: float = 5.0
    error_detail: str = ""
    """Appended to every exception message (e.g. a planted credential, for redaction tests)."""
    model_name: str = "faulty"
    _ledger: Ledger = PrivateAttr(default_factory=Ledger)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "faulty"

    @property
    def ledger(self) -> Ledger:
        return self._ledger

    # -- LangChain entry points ------------------------------------------------------------

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        fault, rng = self._draw(messages, kwargs)
        if fault == "hang":
            fault = "timeout"  # a sync caller has no timeout to hit; report it as one
        return self._respond(messages, kwargs, fault, rng)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        fault, rng = self._draw(messages, kwargs)
        if fault == "hang":
            await asyncio.sleep(self.hang_s)  # the judge's timeout cancels this
            fault = None
        return self._respond(messages, kwargs, fault, rng)

    # -- the fake ---------------------------------------------------------------------------

    def _draw(
        self, messages: list[BaseMessage], kwargs: dict[str, Any]
    ) -> tuple[str | None, random.Random]:
        digest = _digest(messages, kwargs)
        with self._lock:
            self._ledger.attempts += 1
            self._ledger.by_digest[digest] += 1
            attempt = self._ledger.by_digest[digest]
        rng = random.Random(f"{self.seed}|{digest}|{attempt}")
        fault = self.rates.draw(rng)
        if fault is not None:
            with self._lock:
                self._ledger.faults[fault] += 1
        return fault, rng

    def _respond(
        self,
        messages: list[BaseMessage],
        kwargs: dict[str, Any],
        fault: str | None,
        rng: random.Random,
    ) -> ChatResult:
        if fault in EXCEPTION_FAULTS:
            raise fault_exception(fault, rng, self.error_detail)
        output, criteria = _read_prompt(messages)
        last = _text(messages[-1])
        if kwargs.get("grammar"):
            message = self._yes_no(output, criteria, fault, rng)
        elif kwargs.get("tools"):
            schema = kwargs["tools"][0]
            message = self._tool_answer(output, criteria, schema, fault, rng)
        elif last.startswith(_JSON_INSTRUCTION):
            schema = json.loads(last[len(_JSON_INSTRUCTION) :])
            message = self._text_answer(output, criteria, schema, fault, rng)
        else:  # the embedded flavour's one-line gap after a `no`
            gap = "Word salad ]]} {{" if fault == "garbage" else "It does not mention the word."
            message = AIMessage(gap)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _valid(self, output: str, description: str, verdict: str) -> None:
        if verdict == "pass":
            with self._lock:
                self._ledger.valid_passes.add((output, description))

    def _yes_no(
        self, output: str, criteria: dict[str, str], fault: str | None, rng: random.Random
    ) -> AIMessage:
        (description,) = criteria.values()
        honest = criterion_met(output, description)
        if fault in ("garbage", "renamed", "extra", "contradictory"):
            return AIMessage(rng.choice(["Yes, all criteria are met.", "yes.", "y", "YES!!", "sí"]))
        if fault in ("truncated_json", "missing"):
            return AIMessage(rng.choice(["", "ye", " "]))
        if honest:
            self._valid(output, description, "pass")
        return AIMessage("yes" if honest else "no")

    def _verdicts(
        self,
        output: str,
        criteria: dict[str, str],
        joint: bool,
        fault: str | None,
        rng: random.Random,
        allow_unscorable: bool,
        *,
        tools: bool,
        valid: bool = True,
    ) -> tuple[Any, list[Any] | None]:
        """The answer payload, and (for `contradictory` with tools) a second tool call's."""
        honest = {
            label: ("pass" if criterion_met(output, d) else "fail") for label, d in criteria.items()
        }
        failing = [label for label, v in honest.items() if v == "fail"]
        target = rng.choice(failing or list(criteria))

        def item(label: str, verdict: str) -> dict[str, str]:
            gap = "" if verdict == "pass" else f"It does not mention {criteria[label].split()[-1]}."
            entry = {"verdict": verdict, "gap": gap}
            return {"criterion": label, **entry} if joint else entry

        def record(labels: Sequence[str]) -> None:
            for label in labels if valid else ():
                self._valid(output, criteria[label], honest[label])

        if not joint:
            (label,) = criteria
            if fault == "missing":
                return rng.choice([{}, {"gap": ""}, {"verdict": None, "gap": ""}]), None
            if fault == "renamed":
                return {"result": "pass", "gap": ""}, None
            if fault == "extra":  # extra keys are ignored; the verdict itself is honest
                record([label])
                return {**item(label, honest[label]), "criterion": "C9", "score": 1}, None
            if fault == "contradictory":  # two answers, the lie first
                if tools and honest[label] == "pass":
                    record([label])  # both tool calls agree; two JSON texts never parse
                return item(label, "pass"), [item(label, honest[label])]
            if fault == "unscorable" and allow_unscorable:
                return {"verdict": "cannot_evaluate", "gap": "The evidence cannot show it."}, None
            record([label])
            return item(label, honest[label]), None

        items = [item(label, honest[label]) for label in criteria]
        labels = list(criteria)
        if fault == "missing":
            drop = set(failing) or {target}
            record([x for x in labels if x not in drop])
            return {"verdicts": [i for i in items if i["criterion"] not in drop]}, None
        if fault == "extra":
            record(labels)
            extra = [{"criterion": f"C{len(labels) + 1}", "verdict": "pass", "gap": ""}]
            extra.append({"criterion": "C0", "verdict": "pass", "gap": ""})
            return {"verdicts": [*items, *extra]}, None
        if fault == "renamed":
            renamed = rng.choice(
                [target.lower(), f"C0{target[1:]}", f"Criterion {target[1:]}", criteria[target]]
            )
            record([x for x in labels if x != target])
            return {
                "verdicts": [
                    {"criterion": renamed, "verdict": "pass", "gap": ""}
                    if i["criterion"] == target
                    else i
                    for i in items
                ]
            }, None
        if fault == "contradictory":
            if not tools or rng.random() < 0.5:  # a pair inside one answer, the lie first
                record([x for x in labels if x != target or honest[x] == "pass"])
                return {"verdicts": [item(target, "pass"), *items]}, None
            # two answers (parallel tool calls): all `pass` first, the honest one second; the
            # criteria on which they agree are validly graded
            record([x for x in labels if honest[x] == "pass"])
            return {"verdicts": [item(x, "pass") for x in labels]}, [{"verdicts": items}]
        if fault == "unscorable" and allow_unscorable:
            record([x for x in labels if x != target])
            unscorable = {"criterion": target, "verdict": "cannot_evaluate", "gap": "Unknowable."}
            return {
                "verdicts": [unscorable if i["criterion"] == target else i for i in items]
            }, None
        record(labels)
        return {"verdicts": items}, None

    def _tool_answer(
        self,
        output: str,
        criteria: dict[str, str],
        schema: dict[str, Any],
        fault: str | None,
        rng: random.Random,
    ) -> AIMessage:
        name = schema["title"]
        if fault == "garbage":
            choice = rng.randrange(3)
            if choice == 0:
                return AIMessage("All criteria are met. PASS PASS PASS")
            if choice == 1:  # a tool call under another name: the parser finds no answer
                payload = {"verdicts": [{"criterion": c, "verdict": "pass"} for c in criteria]}
                return _tool_message([("submit_grade", payload)])
            return AIMessage("\x00\ufffd{{{ <<>> ]]")
        if fault == "truncated_json":
            joint = name != CRITERION_TITLE
            args = json.dumps(
                self._verdicts(output, criteria, joint, None, rng, False, tools=True, valid=False)[
                    0
                ]
            )
            cut = args[: rng.randrange(1, max(2, len(args) - 1))]
            return AIMessage(
                "",
                invalid_tool_calls=[
                    {
                        "name": name,
                        "args": cut,
                        "id": "call_0",
                        "error": "bad JSON",
                        "type": "invalid_tool_call",
                    }
                ],
            )
        allow = "cannot_evaluate" in json.dumps(schema)
        payload, second = self._verdicts(
            output, criteria, name != CRITERION_TITLE, fault, rng, allow, tools=True
        )
        calls = [(name, payload)] + [(name, p) for p in second or ()]
        return _tool_message(calls)

    def _text_answer(
        self,
        output: str,
        criteria: dict[str, str],
        schema: dict[str, Any],
        fault: str | None,
        rng: random.Random,
    ) -> AIMessage:
        joint = schema["title"] != CRITERION_TITLE
        if fault == "garbage":
            return AIMessage(rng.choice(["All criteria met!", "{not json at all}", "}{"]))
        allow = "cannot_evaluate" in json.dumps(schema)
        truncated = fault == "truncated_json"
        payload, second = self._verdicts(
            output,
            criteria,
            joint,
            None if truncated else fault,
            rng,
            allow,
            tools=False,
            valid=not truncated,
        )
        text = json.dumps(payload)
        if truncated:
            return AIMessage(text[: rng.randrange(1, max(2, len(text) - 1))])
        if second:  # two JSON objects in one reply: the lie first
            text = f"{text}\n{json.dumps(second[0])}"
        return AIMessage(f"Here is my grading:\n{text}")


class FaultyJudgeModel(_FaultyBase):
    """The remote flavour: structured output through tool calls."""

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: Any = None, **kwargs: Any) -> Any:
        return self.bind(tools=list(tools), tool_choice=tool_choice, **kwargs)


class FaultyTextJudgeModel(_FaultyBase):
    """A chat model without `bind_tools`: the judge asks for JSON in plain text."""


class FaultyGrammarJudgeModel(FaultyJudgeModel):
    """The embedded flavour: grammar-constrained yes / no per criterion."""

    supports_grammar: ClassVar[bool] = True
    n_ctx: int = 8192


def _tool_message(calls: list[tuple[str, Any]]) -> AIMessage:
    return AIMessage(
        "",
        tool_calls=[
            {"name": name, "args": args, "id": f"call_{n}", "type": "tool_call"}
            for n, (name, args) in enumerate(calls)
        ],
    )


def _text(message: BaseMessage) -> str:
    return message.content if isinstance(message.content, str) else str(message.content)


def _read_prompt(messages: list[BaseMessage]) -> tuple[str, dict[str, str]]:
    """The graded output, and the criteria asked about by label (`C1`...; `C1` when one)."""
    evidence = next(
        _text(m) for m in messages if isinstance(m, HumanMessage) and "<output>\n" in _text(m)
    )
    match = _OUTPUT.search(evidence)
    assert match is not None, evidence
    output = match.group(1)
    tail = evidence[match.end() :]
    block = _CRITERIA.search(tail)
    if block is not None:
        return output, dict(_LABELLED.findall(block.group(1)))
    one = _ONE_CRITERION.search(tail)
    assert one is not None, tail
    return output, {"C1": one.group(1)}


def _digest(messages: list[BaseMessage], kwargs: dict[str, Any]) -> str:
    hasher = hashlib.sha256()
    for message in messages:
        hasher.update(f"{message.type}\x00{_text(message)}\x01".encode())
    hasher.update(json.dumps(sorted(str(k) for k in kwargs)).encode())
    return hasher.hexdigest()
