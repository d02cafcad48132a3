"""A spaCy model as found on disk, without loading spaCy: where ``spacy.load`` reads it, its
``meta.json`` fields and a fingerprint of its files (for the persistent cache of parses, see
:mod:`gecmetrics.core.lang.en.parsestore`, and for the signature's versions).

The fingerprint is a SHA-256 over every file under the model folder (Python byte code aside;
links to files and folders followed, as the loader follows them, and where they point hashed):
files up to 256 KB (``meta.json``, ``config.cfg``, the components' ``cfg`` and ``moves``, the
attribute-ruler patterns, the tokenizer rules) by content, larger ones (weights, lookup tables,
the string store) by path, size and modification time: hashing hundreds of MB of weights on
every run would cost more than it saves. A new model version changes ``meta.json``; retrained or
replaced weights change their size or time; a reinstall of the same version changes the times
(a harmless miss). It is computed once per process and model.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import os
from dataclasses import dataclass
from pathlib import Path

SMALL_FILE = 256 * 1024
"""Files up to this size are hashed whole; larger ones by path, size and modification time."""


@dataclass(frozen=True)
class ModelIdentity:
    """A spaCy model as found on disk: its folder, meta.json fields and fingerprint."""

    path: str
    lang: str
    name: str
    version: str
    pipeline: tuple[str, ...]
    fingerprint: str

    @property
    def label(self) -> str:
        """``lang_name-version``, as the signature shows the model."""
        return f"{self.lang}_{self.name}-{self.version}"


def model_folder(model: str) -> Path | None:
    """Where ``spacy.load(model)`` reads the model, found as spaCy finds it but without importing
    anything: an installed package of that name (its folder), else an existing folder; None
    when neither holds a ``meta.json`` (spaCy's own loading then says what is wrong)."""
    folder = None
    try:
        importlib.metadata.distribution(model)
        spec = importlib.util.find_spec(model) if model.isidentifier() else None
        if spec is not None and spec.origin:
            folder = Path(spec.origin).parent
    except (importlib.metadata.PackageNotFoundError, ImportError, ValueError):
        pass
    if folder is None and os.path.isdir(model):
        folder = Path(model)
    if folder is None or not (folder / "meta.json").is_file():
        return None
    return folder


def model_identity(model: str) -> ModelIdentity | None:
    """The identity of the model ``spacy.load(model)`` would load, computed once per process
    (and working folder: a relative path may name another folder elsewhere); None when it is
    not found or its meta.json is unreadable (nothing is then cached)."""
    return _identity_seen_from(model, os.getcwd())


@functools.lru_cache(maxsize=64)
def _identity_seen_from(model: str, working_folder: str) -> ModelIdentity | None:
    """:func:`_identity` of ``model`` once per working folder (a relative path names another
    model elsewhere)."""
    return _identity(model)


def _identity(model: str) -> ModelIdentity | None:
    folder = model_folder(model)
    if folder is None:
        return None
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        digest = hashlib.sha256(b"gecmetrics-spacy-model\x00")
        for path in sorted(_model_files(folder)):
            relative = path.relative_to(folder).as_posix().encode("utf-8", "surrogatepass")
            stat = path.stat()
            digest.update(len(relative).to_bytes(4, "little") + relative + stat.st_size.to_bytes(8, "little"))
            digest.update(_link_target(folder, path, relative))
            if stat.st_size <= SMALL_FILE:
                digest.update(path.read_bytes())
            else:
                digest.update(stat.st_mtime_ns.to_bytes(16, "little", signed=True))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict):
        return None
    pipeline = meta.get("pipeline", [])
    return ModelIdentity(str(folder), str(meta.get("lang", "")), str(meta.get("name", "")),
                         str(meta.get("version", "")), tuple(map(str, pipeline if isinstance(pipeline, list) else [])),
                         digest.hexdigest())


def _model_files(folder: Path) -> list[Path]:
    """Every file under the model folder but Python's byte code, links to folders followed as
    spaCy's loader follows them (each real folder once: a link to an ancestor is no loop)."""
    found = []
    seen = set()
    for root, folders, files in os.walk(folder, followlinks=True):
        real = os.path.realpath(root)
        if real in seen:
            folders[:] = []
            continue
        seen.add(real)
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        found += [Path(root) / name for name in files if not name.endswith((".pyc", ".pyo"))]
    return found


def _link_target(folder: Path, path: Path, relative: bytes) -> bytes:
    """Where a file reached through a link really is (b"" when no link is on its way): a link
    pointed elsewhere changes the fingerprint even when size and time agree."""
    real = os.path.realpath(path)
    if real == os.path.join(os.path.realpath(folder), relative.decode("utf-8", "surrogatepass")):
        return b""
    return b"->" + real.encode("utf-8", "surrogatepass")


@functools.lru_cache(maxsize=None)
def package_version(name: str) -> str:
    """The installed version of a package, from its metadata ('none' when not installed); looked
    up once per process."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "none"
