"""RubricMiddleware in a LangChain agent, all on the embedded model: no key, no network.

python examples/revise_with_middleware.py
"""

from __future__ import annotations

from langchain.agents import create_agent

from rubricate import Criterion, RubricMiddleware, resolve_chat_model

worker = resolve_chat_model("local")  # any LangChain chat model works here
rubric = [
    Criterion(
        description="The answer ends with the word 'Done.'",
        check=lambda ev: (ev.output.rstrip().endswith("Done."), "End with the word 'Done.'"),
    ),
    "The answer lists three fruits",
]
agent = create_agent(
    worker,
    middleware=[
        RubricMiddleware(
            model="local",
            criteria=rubric,
            max_iterations=3,
            on_evaluation=lambda e: print(f"pass {e['iteration']}: {e['result']}"),
        )
    ],
)
state = agent.invoke({"messages": [("user", "Name three fruits.")]})
print(state["messages"][-1].content)
