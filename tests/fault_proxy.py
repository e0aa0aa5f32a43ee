"""A proxy that breaks a real OpenAI-compatible server on purpose, for the remote-path tests.

The server is `rubricate.testing.LlamaServer` (the embedded GGUF on loopback).
`FaultProxy` is a small asyncio HTTP proxy in front of it: it forwards every request and records
it, except that the chat-completion requests it was told about get a fault instead: an HTTP 429
or 500 (never forwarded), a hang that never answers (never forwarded; it ends when the client
gives up), or a real answer cut in half (forwarded, then truncated).

The judge under test talks to the proxy through `langchain-openai`'s `ChatOpenAI`, exactly as it
would talk to a hosted provider.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections import deque
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Literal

import httpx

__all__ = ["FAULTS", "Fault", "FaultProxy", "ProxiedRequest"]

Fault = Literal["http_429", "http_500", "hang", "truncated"]
FAULTS: tuple[Fault, ...] = ("http_429", "http_500", "hang", "truncated")

_REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 422: "Unprocessable Entity"}
_REASONS |= {429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway"}


@dataclass
class ProxiedRequest:
    """One request the proxy received, and what became of it."""

    method: str
    path: str
    body: Any
    """The request's JSON body (`None` when it had none)."""
    fault: Fault | None
    status: int | None = None
    """The status sent back; `None` when the client left first (a hang, or a timeout)."""


class FaultProxy:
    """An HTTP proxy on loopback that injects the faults it is given on chat completions.

    `inject("http_429", "http_500")` makes the next two chat-completion requests fail that way;
    every other request is forwarded as is. Runs its own event loop in a daemon thread, so it
    serves sync and async clients alike; a context manager.
    """

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream.rstrip("/")
        self.requests: list[ProxiedRequest] = []
        self._faults: deque[Fault | None] = deque()
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None
        self._client: httpx.AsyncClient | None = None
        self.port = 0
        self.in_flight = 0
        self.max_in_flight = 0
        """The most chat-completion requests open at the proxy at once."""

    @property
    def base_url(self) -> str:
        """The OpenAI base URL to give the client instead of the server's."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FaultProxy:
        """Start serving on a free loopback port."""
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=30)
        return self

    async def _start(self) -> None:
        self._client = httpx.AsyncClient(timeout=None)
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def stop(self) -> None:
        """Stop serving, drop open connections, and end the loop's thread."""
        if not self._thread.is_alive():
            return
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(timeout=30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=30)
        self._loop.close()

    async def _stop(self) -> None:
        if self._server is not None:
            self._server.close()
        current = asyncio.current_task()
        pending = [task for task in asyncio.all_tasks() if task is not current]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()

    def inject(self, *faults: Fault | None) -> None:
        """Fail the next chat-completion requests, one fault each, in this order.

        `None` lets that request through untouched, to aim a fault at a later one.
        """
        unknown = [f for f in faults if f is not None and f not in FAULTS]
        if unknown:
            raise ValueError(f"unknown faults {unknown}; known: {', '.join(FAULTS)}")
        with self._lock:
            self._faults.extend(faults)

    @property
    def pending_faults(self) -> int:
        """Faults injected but not yet used."""
        with self._lock:
            return len(self._faults)

    def completions(self) -> list[ProxiedRequest]:
        """The chat-completion requests received so far."""
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def reset(self) -> None:
        """Forget the requests seen and any fault not yet used."""
        with self._lock:
            self._faults.clear()
            self.requests.clear()
            self.max_in_flight = self.in_flight

    def __enter__(self) -> FaultProxy:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- one connection ------------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            parsed = await _read_request(reader)
            if parsed is None:
                return
            method, path, headers, body = parsed
            fault = None
            if method == "POST" and path.endswith("/chat/completions"):
                with self._lock:
                    fault = self._faults.popleft() if self._faults else None
            record = ProxiedRequest(method, path, _json_or_none(body), fault)
            completion = path.endswith("/chat/completions")
            with self._lock:
                self.requests.append(record)
                if completion:
                    self.in_flight += 1
                    self.max_in_flight = max(self.max_in_flight, self.in_flight)
            try:
                await self._serve(reader, writer, record, method, path, headers, body)
            finally:
                if completion:
                    with self._lock:
                        self.in_flight -= 1
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _serve(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        record: ProxiedRequest,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes,
    ) -> None:
        """Answer one request: its fault, or the server's answer."""
        fault = record.fault
        if fault == "hang":
            await reader.read()  # returns when the client gives up and closes
            return
        if fault in ("http_429", "http_500"):
            status = 429 if fault == "http_429" else 500
            payload = _error_body(status, f"injected by the test proxy ({fault})")
            response_headers = {"content-type": "application/json"}
        else:
            forwarded = await self._forward_unless_client_leaves(
                reader, method, path, headers, body
            )
            if forwarded is None:  # the client gave up (its timeout): nothing to answer
                return
            status, response_headers, payload = forwarded
            if fault == "truncated" and status == 200:
                payload = _truncate_answer(payload)
        record.status = status
        writer.write(_response(status, response_headers, payload))
        await writer.drain()

    async def _forward_unless_client_leaves(
        self,
        reader: asyncio.StreamReader,
        method: str,
        path: str,
        headers: dict[str, str],
        body: bytes,
    ) -> tuple[int, dict[str, str], bytes] | None:
        """Forward upstream; cancel it (so the server stops queueing it) if the client leaves."""
        assert self._client is not None
        sent = {k: v for k, v in headers.items() if k in ("authorization", "content-type")}
        forward = asyncio.ensure_future(
            self._client.request(method, self.upstream + path, headers=sent, content=body)
        )
        left = asyncio.ensure_future(reader.read())
        try:
            await asyncio.wait({forward, left}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (forward, left):
                if not task.done():
                    task.cancel()
        if not forward.done() or forward.cancelled():
            return None
        response = forward.result()
        kept = {"content-type": response.headers.get("content-type", "application/json")}
        return response.status_code, kept, response.content


async def _read_request(
    reader: asyncio.StreamReader,
) -> tuple[str, str, dict[str, str], bytes] | None:
    """Method, path, lower-cased headers and body of one HTTP/1.1 request (`None` at EOF)."""
    line = await reader.readline()
    if not line:
        return None
    method, path, _version = line.decode("latin-1").split(" ", 2)
    headers: dict[str, str] = {}
    while (header := await reader.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = header.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length") or 0))
    return method, path, headers, body


def _response(status: int, headers: dict[str, str], payload: bytes) -> bytes:
    head = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}"]
    head += [f"{name}: {value}" for name, value in headers.items()]
    head += [f"content-length: {len(payload)}", "connection: close"]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + payload


def _error_body(status: int, message: str) -> bytes:
    kind = "rate_limit_exceeded" if status == 429 else "server_error"
    return json.dumps({"error": {"message": message, "type": kind, "code": status}}).encode()


def _json_or_none(body: bytes) -> Any:
    try:
        return json.loads(body) if body else None
    except ValueError:
        return None


def _truncate_answer(payload: bytes) -> bytes:
    """Cut the answer (its text, or each tool call's arguments) in half: no longer valid JSON."""
    data = json.loads(payload)
    message = data["choices"][0]["message"]
    if message.get("content"):
        message["content"] = message["content"][: len(message["content"]) // 2]
    for call in message.get("tool_calls") or ():
        arguments = call["function"]["arguments"]
        call["function"]["arguments"] = arguments[: len(arguments) // 2]
    return json.dumps(data).encode()
