"""The embedded GGUF served over an OpenAI-compatible API on loopback: the remote path, offline.

`LlamaServer` runs `python -m llama_cpp.server` (llama-cpp-python's OpenAI-compatible server,
the `llama-cpp-python[server]` extra) on a GGUF file in a subprocess on a free loopback port,
waits until `/v1/models` answers, and stops it (terminate, then kill) afterwards. Requests need
its random API key, so a client's key is known to reach it. Point `ChatOpenAI(base_url=...)` at
it to run code written for a hosted judge with no key and no network.
"""

from __future__ import annotations

import ctypes
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from .._local._weights import ensure_default_model

__all__ = ["LlamaServer", "free_port"]

MODEL_ALIAS = "rubricate-judge"
"""The model id the server answers to (`ChatOpenAI(model=...)`)."""

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class LlamaServer:
    """`python -m llama_cpp.server` serving one GGUF file on loopback; a context manager.

    Example:
        ```python
        from langchain_openai import ChatOpenAI
        from rubricate import Judge
        from rubricate.testing import LlamaServer

        with LlamaServer(log_path=Path("server.log")) as server:
            model = ChatOpenAI(
                model=server.model, base_url=server.base_url, api_key=server.api_key
            )
            Judge(model).evaluate("- Names Paris", output="Paris.")
        ```

    """

    log_path: Path
    """Where the server's output goes; its end is quoted when it fails to start."""
    model_path: Path | None = None
    """The GGUF file to serve; by default the embedded model (assembled on first use)."""
    n_ctx: int = 4096
    n_threads: int = 2
    ready_timeout: float = 300.0
    """Seconds to wait for `/v1/models` before giving up (loading maps 1.1 GB)."""
    model: str = MODEL_ALIAS
    api_key: str = field(default_factory=lambda: f"sk-loopback-{secrets.token_hex(8)}")
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = field(default=None, init=False)

    @property
    def origin(self) -> str:
        """`http://127.0.0.1:PORT`, for `FaultProxy(upstream=...)`."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """The OpenAI base URL: `ChatOpenAI(base_url=...)`."""
        return f"{self.origin}/v1"

    def start(self) -> LlamaServer:
        """Start the server and return once it answers, or raise with the end of its log."""
        if self.model_path is None:
            self.model_path = ensure_default_model(progress=False)
        command = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(self.model_path),
            "--model_alias",
            self.model,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--api_key",
            self.api_key,
            "--n_ctx",
            str(self.n_ctx),
            "--n_threads",
            str(self.n_threads),
            "--n_threads_batch",
            str(self.n_threads),
            # The server's default, kept: without logits for every token it refuses (HTTP 500)
            # the `top_logprobs` the judge asks for to read its confidence.
            "--logits_all",
            "true",
            "--verbose",
            "false",
        ]
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                preexec_fn=_die_with_parent if sys.platform == "linux" else None,
            )
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ready(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + self.ready_timeout
        request = urllib.request.Request(
            f"{self.base_url}/models", headers={"Authorization": f"Bearer {self.api_key}"}
        )
        while True:
            if (code := self.process.poll()) is not None:
                raise RuntimeError(
                    f"llama_cpp.server exited with code {code} before it was ready; the end of "
                    f"its log ({self.log_path}):\n{self._log_tail()}"
                )
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    if response.status == 200:
                        return
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"llama_cpp.server did not answer {self.base_url}/models within "
                    f"{self.ready_timeout:.0f} s; the end of its log ({self.log_path}):\n"
                    f"{self._log_tail()}"
                )
            time.sleep(0.5)

    def _log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-chars:]
        except OSError as exc:
            return f"(unreadable: {exc})"

    def stop(self) -> None:
        """Terminate the server; kill it if it has not exited within 10 s."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def __enter__(self) -> LlamaServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def _die_with_parent() -> None:
    """In the child, before exec: get SIGTERM when the parent dies, even by SIGKILL.

    A 2 GB server orphaned by a killed test run or benchmark would hold memory and a port.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
