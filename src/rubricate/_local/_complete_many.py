"""The parts of `ChatLlamaCpp.complete_many`: many conversations answered in one batched call.

`ChatLlamaCpp` chooses the path (side by side in one batch, one after another on the model's own
context, or through `_generate` when the GGUF has no chat template); these build each path's
prompts and replies, and report every conversation to LangChain's callbacks as a run of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langchain_core.callbacks import CallbackManager
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult, LLMResult

from rubricate._local._batching import BatchQueue, ChatPrompter
from rubricate._local._loading import LoadedModel
from rubricate._local._messages import to_chat_messages
from rubricate._local._replies import completion_reply, reply
from rubricate._local._sequences import Prompt
from rubricate._local._tool_calls import gbnf_literal

__all__ = ["logprobs", "replies", "traced"]


def traced(
    model: BaseChatModel,
    conversations: Sequence[Sequence[BaseMessage]],
    answer: Callable[[], list[AIMessage]],
    *,
    params: Mapping[str, Any],
    llm_output: dict[str, Any],
) -> list[AIMessage]:
    """`answer()`, with LangChain callbacks (tracing, usage meters) told of one run a conversation.

    `complete_many` bypasses `invoke`, which is what usually tells them.
    """
    manager = CallbackManager.configure(
        None, model.callbacks, model.verbose, None, model.tags, None, model.metadata
    )
    runs = manager.on_chat_model_start(
        model._serialized,
        [list(c) for c in conversations],
        invocation_params=dict(params),
        batch_size=len(conversations),
    )
    try:
        replies = answer()
    except BaseException as exc:
        for run in runs:
            run.on_llm_error(exc)
        raise
    for run, message in zip(runs, replies, strict=True):
        run.on_llm_end(
            LLMResult(generations=[[ChatGeneration(message=message)]], llm_output=llm_output)
        )
    return replies


def replies(
    loaded: LoadedModel,
    conversations: Sequence[Sequence[BaseMessage]],
    *,
    choices: Sequence[str],
    max_tokens: int,
    stop: Sequence[str],
    model_stop: Sequence[str],
    batch: bool,
    model_name: str,
    generate: Callable[..., ChatResult],
) -> list[AIMessage]:
    """Answer `conversations` by the best path the model allows.

    Side by side in one batch (`batch` and a chat template); without `batch`, one after another
    on the model's own context; through `generate` (the model's `_generate`) when the GGUF has
    no chat template to build prompt tokens from, so no AI message can be continued. `stop` is
    the call's, `model_stop` the model's own (`generate` adds those itself).
    """
    prompter = loaded.chat_prompter()
    if prompter is None:
        return [_generated_reply(generate, c, choices, max_tokens, stop) for c in conversations]
    stops = (*model_stop, *stop)
    queue = loaded.batch_queue() if batch else None
    if queue is not None:
        return _batched_replies(
            queue,
            prompter,
            conversations,
            choices=choices,
            max_tokens=max_tokens,
            stop=stops,
            model_name=model_name,
        )
    if choices:
        return [_generated_reply(generate, c, choices, max_tokens, stop) for c in conversations]
    return [
        _continued_reply(
            loaded, prompter, c, max_tokens=max_tokens, stop=stops, model_name=model_name
        )
        for c in conversations
    ]


def _batched_replies(
    queue: BatchQueue,
    prompter: ChatPrompter,
    conversations: Sequence[Sequence[BaseMessage]],
    *,
    choices: Sequence[str],
    max_tokens: int,
    stop: Sequence[str],
    model_name: str,
) -> list[AIMessage]:
    """Every conversation as a sequence of one batch; a choice is read from the logits."""
    choice_ids = tuple(_choice_token(prompter, word) for word in choices)
    prompts = [
        Prompt(
            tokens=prompter.tokens(to_chat_messages(list(c))),
            max_tokens=0 if choice_ids else max_tokens,  # a choice is read, not generated
            stop=tuple(stop),
            choices=choice_ids,
        )
        for c in conversations
    ]
    words = dict(zip(choice_ids, choices, strict=True))
    return [completion_reply(c, words, model_name) for c in queue.run(prompts)]


def logprobs(
    queue: BatchQueue, prompter: ChatPrompter, conversations: Sequence[Sequence[BaseMessage]]
) -> list[float]:
    """Log P(last AI message | the messages before it) for each conversation, in one batch."""
    prompts = []
    for where, conversation in enumerate(conversations):
        if not conversation or not isinstance(conversation[-1], AIMessage):
            raise ValueError(
                f"conversation {where} must end with the AI message to score, not with "
                f"{type(conversation[-1]).__name__ if conversation else 'nothing'}"
            )
        messages = to_chat_messages(list(conversation))
        tokens = prompter.tokens(messages)
        before = prompter.tokens([*messages[:-1], {"role": "assistant", "content": ""}])
        start = next(
            (i for i, (a, b) in enumerate(zip(before, tokens, strict=False)) if a != b),
            min(len(before), len(tokens)),
        )
        prompts.append(Prompt(tokens=tokens, score_from=max(start, 1)))
    return [c.logprob or 0.0 for c in queue.run(prompts)]


def _continued_reply(
    loaded: LoadedModel,
    prompter: ChatPrompter,
    conversation: Sequence[BaseMessage],
    *,
    max_tokens: int,
    stop: Sequence[str],
    model_name: str,
) -> AIMessage:
    """One free-text conversation on the model's own context: `complete_many` without batching.

    From the same tokens the batched path builds (a trailing AI message is a prefill).
    """
    tokens = list(prompter.tokens(to_chat_messages(list(conversation))))
    response, cached = loaded.complete_tokens(tokens, max_tokens=max_tokens, stop=list(stop))
    choice = response["choices"][0]
    return reply(
        choice.get("text") or "",
        model_name=model_name,
        usage=response.get("usage") or {},
        cached=cached,
        finish_reason=choice.get("finish_reason"),
    )


def _generated_reply(
    generate: Callable[..., ChatResult],
    conversation: Sequence[BaseMessage],
    choices: Sequence[str],
    max_tokens: int,
    stop: Sequence[str],
) -> AIMessage:
    """One conversation through the model's `_generate`: a choice as a grammar of its words."""
    if isinstance(conversation[-1], AIMessage) and not choices:
        raise ValueError(
            "this model's chat format cannot continue an AI message (no chat template in "
            "the GGUF, or a custom `chat_format`); end the conversation with a user turn"
        )
    if not choices:
        result = generate(
            list(conversation), stop=list(stop) or None, max_tokens=max_tokens, temperature=0
        )
    else:
        result = generate(
            list(conversation),
            grammar="root ::= " + " | ".join(gbnf_literal(c) for c in choices),
            max_tokens=max(len(c) for c in choices),
            temperature=0,
            logprobs=True,
            top_logprobs=0,
            logprob_tokens=list(choices),
        )
    message = result.generations[0].message
    assert isinstance(message, AIMessage)
    return message


def _choice_token(prompter: ChatPrompter, word: str) -> int:
    token = prompter.single_token(word)
    if token is None:
        raise ValueError(f"choice {word!r} is not one token of the model's vocabulary")
    return token
