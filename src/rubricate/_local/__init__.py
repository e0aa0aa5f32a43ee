"""The embedded judge: a GGUF model run in-process by llama.cpp, and its pinned weights."""

from rubricate._local._chat_model import ChatLlamaCpp, default_local_model
from rubricate._local._weights import DEFAULT_MODEL, ensure_default_model

__all__ = ["DEFAULT_MODEL", "ChatLlamaCpp", "default_local_model", "ensure_default_model"]
