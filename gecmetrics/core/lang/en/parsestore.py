"""spaCy parses in the persistent cache (:mod:`gecmetrics.core.cache`): what identifies a model
without loading it, and the per-token fields packed as compact bytes.

A parse depends on the line (and whether spaCy tokenises it), on spaCy and the libraries that
compute its network (thinc, cython-blis), and on the model: its name, version and weights. All
of them are in the namespace or the key, so a stored parse is never used for another producer:

* the namespace: ``spacy-parse/<format>/spacy-<v>/thinc-<v>/blis-<v>/<lang>_<name>-<version>/
  <fingerprint>``; the versions come from the installed packages' metadata (no import);
* the fingerprint (:func:`model_identity`): SHA-256 over the model folder's files, read where
  spaCy reads them (an installed package, else a folder), without loading spaCy: the contents of
  the small files (``meta.json``, ``config.cfg``, the components' ``cfg`` and ``moves``, the
  attribute-ruler patterns, the tokenizer rules: everything up to 256 KB) and, for the large
  weight and table files, their path, size and modification time (hashing hundreds of MB of
  weights on every run would cost more than it saves). A new model version changes
  ``meta.json``; retrained or replaced weights change their size or time; a reinstall of the
  same version changes the times (a harmless miss). Computed once per process and model;
* the key: :data:`PARSE_FORMAT`, the tokenisation (``given``: whitespace-split; ``spacy``) and
  the line as parsed (whitespace-split tokens joined by one space, or the text given).

Values (:func:`pack_parse`) are UTF-8 text, no pickle: a format byte, then seven fields (words,
lower case, lemma, coarse POS, tag, dependency, head offset) each of tokens joined by U+001F,
fields joined by U+001E, then the spacing flags as ``0``/``1``. A lower case equal to the word's
``str.lower()`` and a lemma equal to the lower case are written as U+001D (most tokens), so a
CoNLL-2014 line takes about 300 bytes before the store's compression. A token holding one of
those control characters makes the parse unstorable (it is parsed every time).
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from .parse import EMPTY_SENTENCE, ParsedSentence

PARSE_FORMAT = 1
"""Bump when the packed layout or what a stored parse means changes."""
SMALL_FILE = 256 * 1024
"""Files up to this size are hashed whole; larger ones by path, size and modification time."""
_FIELD, _TOKEN, _SAME = "\x1e", "\x1f", "\x1d"
_RESERVED = re.compile("[\x1d\x1e\x1f]")
_FORMAT_BYTE = bytes([PARSE_FORMAT])


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


_IDENTITIES: dict[tuple[str, str], ModelIdentity | None] = {}
_LOCK = threading.Lock()


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
    key = (model, os.getcwd())
    with _LOCK:
        if key in _IDENTITIES:
            return _IDENTITIES[key]
    identity = _identity(model)
    with _LOCK:
        _IDENTITIES[key] = identity
    return identity


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
    """Every file under the model folder but Python's byte code."""
    found = []
    for root, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if name != "__pycache__")
        found += [Path(root) / name for name in files if not name.endswith((".pyc", ".pyo"))]
    return found


def package_version(name: str) -> str:
    """The installed version of a package, from its metadata ('none' when not installed)."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "none"


def parse_namespace(identity: ModelIdentity) -> str:
    """The cache namespace of parses by this model with the installed spaCy (see the module doc)."""
    versions = "/".join(f"{name}-{package_version(name)}" for name in ("spacy", "thinc", "blis"))
    return f"spacy-parse/{PARSE_FORMAT}/{versions}/{identity.label}/{identity.fingerprint[:24]}"


def parse_key(text: str, tokenise: bool) -> bytes:
    """The cache key of a line as the parser sees it (see :func:`parsed_text`)."""
    from ...cache import cache_key

    return cache_key(PARSE_FORMAT, "spacy" if tokenise else "given", parsed_text(text, tokenise))


def parsed_text(text: str, tokenise: bool) -> str:
    """What the parser reads of a line: the text itself for spaCy's tokenisation, else its
    whitespace-split tokens (joined by one space)."""
    return text if tokenise else " ".join(text.split())


# ----------------------------------------------------------------------------- values


def pack_parse(sentence: ParsedSentence) -> bytes | None:
    """A parse as compact bytes (see the module docstring); None when a token holds one of the
    separator characters (such a parse is not stored)."""
    words, lower, lemma = sentence.words, sentence.lower, sentence.lemma
    if not words:
        return None
    strings = (*words, *lower, *lemma, *sentence.pos, *sentence.tag, *sentence.dep)
    if _RESERVED.search("".join(strings)):
        return None
    lower_field = [_SAME if low == word.lower() else low for word, low in zip(words, lower)]
    lemma_field = [_SAME if lem == low else lem for low, lem in zip(lower, lemma)]
    heads = [str(head - index) for index, head in enumerate(sentence.head)]
    fields = [words, lower_field, lemma_field, sentence.pos, sentence.tag, sentence.dep, heads]
    text = _FIELD.join(_TOKEN.join(field) for field in fields) + _FIELD + \
        "".join("1" if space else "0" for space in sentence.space)
    return _FORMAT_BYTE + text.encode("utf-8", "surrogatepass")


def unpack_parse(data: bytes) -> ParsedSentence:
    """The parse :func:`pack_parse` stored; ValueError when ``data`` is not such a value."""
    if data[:1] != _FORMAT_BYTE:
        raise ValueError("not a stored parse of this format")
    try:
        fields = data[1:].decode("utf-8", "surrogatepass").split(_FIELD)
    except UnicodeDecodeError:
        raise ValueError("not UTF-8") from None
    if len(fields) != 8:
        raise ValueError(f"{len(fields)} fields")
    words, lowers, lemmas, pos, tag, dep, offsets = [field.split(_TOKEN) for field in fields[:7]]
    space, n = fields[7], len(words)
    if not len(lowers) == len(lemmas) == len(pos) == len(tag) == len(dep) == len(offsets) == len(space) == n \
            or space.strip("01"):
        raise ValueError("fields of different lengths")
    lower = tuple([word.lower() if low == _SAME else low for word, low in zip(words, lowers)])
    lemma = tuple([low if lem == _SAME else lem for low, lem in zip(lower, lemmas)])
    heads = tuple([index + int(offset) for index, offset in enumerate(offsets)])
    if min(heads) < 0 or max(heads) >= n:
        raise ValueError("head outside the sentence")
    return ParsedSentence(tuple(words), lower, lemma, tuple(pos), tuple(tag), tuple(dep), heads,
                          tuple([flag == "1" for flag in space]))


def stored_parses(cache, namespace: str, texts: Sequence[str], tokenise: bool) -> dict[str, ParsedSentence]:
    """The stored parses of those ``texts`` that are in the cache (one lookup for all; a value
    that cannot be read is a miss and will be overwritten)."""
    keys = {parse_key(text, tokenise): text for text in texts if text.strip()}
    found = {}
    for key, value in cache.iter_many(namespace, list(keys)):
        try:
            found[keys[key]] = unpack_parse(value)
        except ValueError:
            continue
    return found


def store_parses(cache, namespace: str, parses: Sequence[tuple[str, ParsedSentence]], tokenise: bool) -> None:
    """Store new parses (empty ones and unstorable ones are left out)."""
    items = {}
    for text, sentence in parses:
        if sentence is EMPTY_SENTENCE or not sentence.words:
            continue
        packed = pack_parse(sentence)
        if packed is not None:
            items[parse_key(text, tokenise)] = packed
    if items:
        cache.put_many(namespace, items)
