"""`refine` around a plain Python agent, graded on the embedded model: no key, no network.

python examples/refine_any_agent.py
"""

from __future__ import annotations

from rubricate import Criterion, refine, resolve_chat_model

model = resolve_chat_model("local")


def agent(task: str, feedback: str | None) -> str:
    prompt = task if feedback is None else f"{task}\n\n{feedback}"
    return str(model.invoke(prompt, max_tokens=80).content)


rubric = [
    "The answer names the capital of France",
    Criterion(
        description="At most 12 words",
        check=lambda ev: (len(ev.output.split()) <= 12, f"It has {len(ev.output.split())} words."),
    ),
]
result = refine(agent, "What is the capital of France? Explain.", rubric, judge="local")
print(result.status, "after", result.iterations, "grading passes")
print(result.output)
