"""From what the user passes as `model` to a LangChain chat model.

- `"local"`: the embedded GGUF model, run in-process (no key, no network).
- `"llamacpp:/path/to/file.gguf"`: any GGUF file, run in-process.
- Any other id LangChain's `init_chat_model` knows, as deepagents' `resolve_model` passes it
  (without deepagents' provider profiles, so a model id means the same with or without it):
  `"provider:model-id"` for any provider it supports (`"openai:gpt-5-mini"`,
  `"google_genai:gemini-2.5-flash"`, `"ollama:qwen3"`) or a bare id it can place (`"gpt-5-mini"`,
  `"claude-haiku-4-5"`). `"provider/model-id"` is accepted too for a known provider (the
  reference scorer's spelling).
- A `BaseChatModel` instance: used as is.
"""

from __future__ import annotations

import os
from typing import TypeAlias

from langchain_core.language_models import BaseChatModel

from ._exceptions import ModelError
from ._redact import redact

__all__ = ["ModelLike", "model_name", "resolve_chat_model", "supports_grammar"]

ModelLike: TypeAlias = str | BaseChatModel
"""`"local"`, `"llamacpp:/path.gguf"`, `"provider:model-id"`, or a LangChain chat model."""

LOCAL = "local"

# Provider -> the environment variable with its key, for the hint when creating the model fails.
_KEY_VARIABLES: dict[str, str] = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "google_genai": "GOOGLE_API_KEY",
    "mistralai": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
}
_EXTRAS = frozenset({"openai", "anthropic", "ollama"})
"""Providers with a rubricate extra that installs their LangChain package."""


def resolve_chat_model(model: ModelLike) -> BaseChatModel:
    """Return a chat model for `model`; raise `ModelError` saying how to fix a bad value."""
    if isinstance(model, BaseChatModel):
        return model
    if not isinstance(model, str):
        raise ModelError(
            "`model` must be 'local', 'llamacpp:/path/to/file.gguf', 'provider:model-id' or a "
            f"LangChain chat model, got {type(model).__name__}"
        )
    spec = model.strip()
    if spec == LOCAL:
        from ._local import default_local_model

        return default_local_model()
    if spec.startswith("llamacpp:"):
        from ._local import ChatLlamaCpp

        path = os.path.expanduser(spec.removeprefix("llamacpp:"))
        if not path:
            raise ModelError(
                "`llamacpp:` needs a path to a GGUF file, e.g. 'llamacpp:/models/x.gguf'"
            )
        if not os.path.isfile(path):
            raise ModelError(f"GGUF file not found: {path} (from model={model!r})")
        return ChatLlamaCpp(model_path=path)
    if not spec:
        raise ModelError("`model` is empty: give 'local', 'provider:model-id' or a chat model")
    head, slash, tail = spec.partition("/")
    if ":" not in spec and slash and (head in _KEY_VARIABLES or head in _EXTRAS):
        spec = f"{head}:{tail}"  # the reference scorer's `provider/model-id` spelling
    provider, colon, name = spec.partition(":")
    if colon and (not provider or not name):
        raise ModelError(f"model {model!r} needs both a provider and a model id")
    if not colon:
        provider = ""
    from langchain.chat_models import init_chat_model

    try:
        return init_chat_model(spec)
    except ImportError as exc:
        package = f"langchain-{provider.replace('_', '-')}" if provider else "its LangChain package"
        install = f"pip install 'rubricate[{provider}]'" if provider in _EXTRAS else "install it"
        raise ModelError(f"model {model!r} needs {package} ({install}): {exc}") from exc
    except Exception as exc:
        key = _KEY_VARIABLES.get(provider)
        hint = f" Is {key} set?" if key and not os.environ.get(key) else ""
        if not provider and "infer" in str(exc):
            hint = " Write it as 'provider:model-id' (e.g. 'openai:gpt-5-mini'), or 'local'."
        raise ModelError(
            f"cannot create model {model!r}: {redact(f'{type(exc).__name__}: {exc}')}.{hint}"
        ) from exc


def supports_grammar(model: BaseChatModel) -> bool:
    """True for in-process models that take a GBNF `grammar` and run one call at a time.

    The embedded `ChatLlamaCpp` says so with a `supports_grammar` class attribute; any chat model
    that accepts `grammar=` / `max_tokens=` call arguments can opt in the same way.
    """
    return bool(getattr(model, "supports_grammar", False))


def model_name(model: BaseChatModel) -> str:
    """A readable name for reports, such as `openai:gpt-5-mini`, from LangChain's tracing params."""
    try:
        params = model._get_ls_params()
    except Exception:  # a third-party model with an unusual signature
        params = {}
    provider = params.get("ls_provider") or getattr(model, "_llm_type", "") or "model"
    name = params.get("ls_model_name") or next(
        (
            value
            for attr in ("model_name", "model", "model_id")
            if isinstance(value := getattr(model, attr, None), str) and value
        ),
        type(model).__name__,
    )
    return f"{provider}:{name}"
