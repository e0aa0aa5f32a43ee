"""Fake chat models for testing code that uses rubricate, without a model, a key or a network.

Import them from here, as `from rubricate.testing import ScriptedChatModel`; they are not in
`rubricate`'s own namespace because a grading run never needs them. Four kinds, each a LangChain
chat model the `Judge` takes like any other:

- `InstantJudgeModel` answers whatever the judge asks with a valid verdict, at once or after a
  set latency, with no script: for plumbing tests and for measuring rubricate's own cost.
  `InstantGrammarJudgeModel` takes the embedded model's path.
- `ScriptedChatModel` replays scripted replies (or functions of each call) and records the
  prompts; `joint_reply` / `criterion_reply` / `tool_reply` build the judge's answers.
  `GrammarScriptedChatModel` looks like the embedded model (grammar-constrained yes / no).
- `FaultyJudgeModel` (tool calls), `FaultyTextJudgeModel` (JSON in text) and
  `FaultyGrammarJudgeModel` (yes / no) grade `Mentions <word>` criteria honestly except on a
  seeded share of calls, where they fail the way providers do (`FaultRates`): timeouts, HTTP
  errors, garbage, truncated or contradictory answers. Their `Ledger` tells which verdicts were
  given validly, to check that nothing fails open.
- `LlamaServer` serves the embedded model over an OpenAI-compatible API on loopback, to run code
  written for a hosted judge (`ChatOpenAI(base_url=...)`) offline.
"""

from ._fault_plan import (
    EXCEPTION_FAULTS,
    APIConnectionError,
    FaultRates,
    Ledger,
    ProviderHTTPError,
    criterion_met,
)
from ._faulty import FaultyGrammarJudgeModel, FaultyJudgeModel, FaultyTextJudgeModel
from ._instant import InstantGrammarJudgeModel, InstantJudgeModel
from ._scripted import (
    GrammarScriptedChatModel,
    Reply,
    ScriptedChatModel,
    criterion_reply,
    joint_reply,
    tool_reply,
)
from ._server import LlamaServer, free_port

__all__ = [
    "EXCEPTION_FAULTS",
    "APIConnectionError",
    "FaultRates",
    "FaultyGrammarJudgeModel",
    "FaultyJudgeModel",
    "FaultyTextJudgeModel",
    "GrammarScriptedChatModel",
    "InstantGrammarJudgeModel",
    "InstantJudgeModel",
    "Ledger",
    "LlamaServer",
    "ProviderHTTPError",
    "Reply",
    "ScriptedChatModel",
    "criterion_met",
    "criterion_reply",
    "free_port",
    "joint_reply",
    "tool_reply",
]
