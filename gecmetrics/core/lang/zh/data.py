"""ChERRANT's data files: where they are, what they must hash to, how to read them.

ChERRANT (github HillZhang1999/MuCGEC, ``scorers/ChERRANT/data``, Apache-2.0) ships four files.
The character level reads two of them: ``cilin.txt`` (the Tongyici Cilin thesaurus, GBK: semantic
classes for the substitution cost) and ``confusion_dict.txt`` (a character confusion set, also in
the substitution cost). ``char_meta.txt`` (pronunciation and shape codes) is only used by the word
level's spelling-error type, and ``chinese_vocab.txt`` only by ChERRANT's ``--bpe`` option; both
are listed here so that a fetched copy is complete.

The files are never packaged with gecmetrics. The folder is, in order: the one the caller gives,
``$GECMETRICS_CHERRANT_DATA``, or the user data folder (``platformdirs.user_data_path
("gecmetrics") / "cherrant"`` when platformdirs is installed, else ``$XDG_DATA_HOME/gecmetrics/
cherrant``, by default ``~/.local/share/gecmetrics/cherrant``), which :func:`fetch_data` fills
once from the pinned ChERRANT commit, checking every file's SHA-256.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from ....errors import InputError, one_line
from ...backend import new_file_mode

ENVIRONMENT_VARIABLE = "GECMETRICS_CHERRANT_DATA"
CHERRANT_COMMIT = "39221934ee4ccf07801879136a75dd7e11319977"
"""The MuCGEC commit whose ``scorers/ChERRANT/data`` the checksums below describe."""

CILIN = "cilin.txt"
CONFUSION = "confusion_dict.txt"
CHAR_META = "char_meta.txt"
VOCABULARY = "chinese_vocab.txt"
LICENSE = "LICENSE"

CHECKSUMS: Mapping[str, str] = {
    CILIN: "d4c707f5d895e00f2223547582f1c2cd8f5888a7cc0d0f687fc28a510b77a6bb",
    CONFUSION: "aafa202dc451fb79a0a2cfc77b965009daa39d0cedd03e25074c1a35b7ac67b2",
    CHAR_META: "709279f8686286063d7e24d63bd8ae41cd509afea9832424229085b8a94a7701",
    VOCABULARY: "c77f4cf5141b1b224f7cbd9b4f152beed487a8846e0c7997d17effe44bdd177f",
    LICENSE: "1eb85fc97224598dad1852b5d6483bbcf0aa8608790dcc657a5a2a761ae9c8c6",
}
"""SHA-256 of each file at :data:`CHERRANT_COMMIT` (LICENSE: the repository's Apache-2.0 text)."""

CHAR_LEVEL_FILES = (CILIN, CONFUSION)
"""What the character level reads."""

_BASE_URL = f"https://raw.githubusercontent.com/HillZhang1999/MuCGEC/{CHERRANT_COMMIT}/"
SOURCE_URLS: Mapping[str, str] = {
    **{name: _BASE_URL + "scorers/ChERRANT/data/" + name for name in (CILIN, CONFUSION, CHAR_META, VOCABULARY)},
    LICENSE: _BASE_URL + "LICENSE",
}


def default_data_folder() -> Path:
    """The per-user folder :func:`fetch_data` writes to (see the module docstring)."""
    try:
        import platformdirs
    except ImportError:
        base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
        return Path(base) / "gecmetrics" / "cherrant"
    return Path(platformdirs.user_data_path("gecmetrics")) / "cherrant"


def data_folder(folder: str | os.PathLike | None = None) -> Path:
    """The folder to read: ``folder`` if given, else $GECMETRICS_CHERRANT_DATA, else the user
    data folder. It is not checked here (see :func:`locate_data`)."""
    if folder is not None:
        if not isinstance(folder, (str, os.PathLike)):
            raise InputError(f"the ChERRANT data folder must be a path, not {type(folder).__name__}")
        if not os.fspath(folder).strip():  # (Path("") is the current folder)
            raise InputError("--cherrant-data: an empty folder name ('') where the data folder belongs: give its path")
        return Path(folder)
    configured = os.environ.get(ENVIRONMENT_VARIABLE)
    return Path(configured) if configured else default_data_folder()


def char_level_paths(folder: str | os.PathLike | None = None) -> list[Path]:
    """The data folder (:func:`data_folder`) and where the character level's files are read in
    it, present or not: inputs no output may replace or be written into (``-o DATA/char_meta.txt``
    replaced a file ``data check`` then found changed)."""
    where = data_folder(folder)
    return [where, *(where / name for name in CHAR_LEVEL_FILES)]


def locate_data(folder: str | os.PathLike | None = None, files: tuple[str, ...] = CHAR_LEVEL_FILES) -> Path:
    """The data folder holding ``files``; an InputError says where it looked and how to get them."""
    where = data_folder(folder)
    missing = [name for name in files if not (where / name).is_file()]
    if missing:
        origin = ("given" if folder is not None else
                  f"${ENVIRONMENT_VARIABLE}" if os.environ.get(ENVIRONMENT_VARIABLE) else "the user data folder")
        raise InputError(f"ChERRANT's data files {', '.join(missing)} are not in {where} ({origin}): point "
                         f"--cherrant-data or ${ENVIRONMENT_VARIABLE} at a copy of ChERRANT's data/ folder, or run "
                         "'gecmetric data fetch cherrant' once")
    return where


def file_checksum(path: str | os.PathLike) -> str:
    """SHA-256 of a file, hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify_data(folder: str | os.PathLike | None = None, files: tuple[str, ...] | None = None) -> dict[str, str]:
    """Files of the folder whose SHA-256 differs from :data:`CHECKSUMS` (or that are missing):
    name -> what was found ('missing' or the checksum). Empty when all agree."""
    where = data_folder(folder)
    problems = {}
    for name in files if files is not None else tuple(CHECKSUMS):
        path = where / name
        if not path.is_file():
            problems[name] = "missing"
            continue
        found = file_checksum(path)
        if found != CHECKSUMS[name]:
            problems[name] = found
    return problems


def _download(url: str, timeout: float) -> bytes:
    import urllib.request

    with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 (fixed https URLs)
        return response.read()


def fetch_data(folder: str | os.PathLike | None = None, overwrite: bool = False, timeout: float = 60.0,
               download: Callable[[str, float], bytes] = _download) -> Path:
    """Download ChERRANT's data files and its licence from the pinned commit into ``folder``
    (default: :func:`data_folder`), each checked against :data:`CHECKSUMS` before it is moved into
    place; files already there with the right checksum are kept, and so is one with another
    checksum (an edited copy) unless ``overwrite``: that is an InputError. Returns the folder.
    ``download(url, timeout) -> bytes`` is replaceable (tests pass a fake; they never download).
    A fetch that fails leaves no folder it made itself (an empty one would read as a fetched copy
    with every file missing)."""
    if isinstance(folder, str) and not folder.strip():  # Path("") is the current folder
        raise InputError("the ChERRANT data folder: empty name")
    where = Path(os.path.abspath(data_folder(folder)))  # ('a/../b' made 'a', which a failed fetch left)
    made = []  # the folders this call makes, innermost first
    for ancestor in (where, *where.parents):
        if ancestor.exists() or ancestor.is_symlink():
            break
        made.append(ancestor)
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as err:  # ('File exists', 'Not a directory': of a file given as the folder or inside it)
        blocker = next((path for path in (where, *where.parents) if path.is_file()), None)
        why = f"{blocker} is a file, not a folder" if blocker is not None else err.strerror or err
        raise InputError(f"cannot make the data folder: {why}", str(where)) from None
    try:
        _fetch_into(where, overwrite, timeout, download)
    except BaseException:
        for created in made:
            try:
                created.rmdir()  # only while empty: a file already checked and written stays
            except OSError:
                break
        raise
    return where


def _fetch_into(where: Path, overwrite: bool, timeout: float, download: Callable[[str, float], bytes]) -> None:
    """:func:`fetch_data`'s downloads into the folder ``where``, which exists."""
    import http.client

    edited = [name for name in SOURCE_URLS if (where / name).is_file() and not overwrite
              and file_checksum(where / name) != CHECKSUMS[name]]
    if edited:  # before any download: nothing of the folder is replaced
        raise InputError(f"{', '.join(edited)} differ{'s' if len(edited) == 1 else ''} from ChERRANT's published "
                         "files (an edited copy?): kept; --force (overwrite=True) replaces them", str(where))
    for name, url in SOURCE_URLS.items():
        target = where / name
        if target.is_file() and not overwrite:
            continue
        try:
            data = download(url, timeout)
        except (OSError, http.client.HTTPException, ValueError) as err:
            # a dropped connection or a proxy's garbage is an HTTPException (IncompleteRead,
            # BadStatusLine), not an OSError; a bad URL or response a ValueError
            reason = str(err)
            if not isinstance(err, OSError) and not reason.startswith(type(err).__name__):
                reason = f"{type(err).__name__}: {reason}"
            raise InputError(f"cannot download {url}: {one_line(reason)}") from None
        found = hashlib.sha256(data).hexdigest()
        if found != CHECKSUMS[name]:
            raise InputError(f"{url} has SHA-256 {found}, expected {CHECKSUMS[name]}: not written")
        handle, temporary = tempfile.mkstemp(dir=where, prefix=f".{name}.")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.chmod(temporary, new_file_mode())  # (mkstemp's file is 0600: a data file is everyone's to read)
            os.replace(temporary, target)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise


def _universal_lines(data: bytes, encoding: str, path: Path) -> str:
    """The file's text as Python's text mode reads it: '\\r\\n' and '\\r' become '\\n'."""
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise InputError(f"not {encoding.upper()} text (byte 0x{data[err.start]:02x})", str(path), line) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_cilin(text: str) -> dict[str, str]:
    """Word -> its Cilin code (e.g. 'Aa01A01='), a later line winning, as ChERRANT reads it:
    the text is stripped, split on '\\n' and each line on single spaces (code first)."""
    semantic = {}
    for line in text.strip().split("\n"):
        code, *words = line.split(" ")
        for word in words:
            semantic[word] = code
    return semantic


class ConfusionSets(Mapping):
    """Character -> the frozenset of the strings of its confusion line, each set built on first
    use (the file has ~4,900 lines of ~200 characters; a corpus asks for a few thousand)."""

    def __init__(self, lines: dict[str, str | None]):
        self._lines = lines
        self._sets: dict[str, frozenset] = {}

    def __getitem__(self, key: str) -> frozenset:
        found = self._sets.get(key)
        if found is None:
            rest = self._lines[key]
            found = self._sets[key] = frozenset(rest.split(" ")) if rest is not None else frozenset()
        return found

    def __contains__(self, key: object) -> bool:
        return key in self._lines

    def __iter__(self):
        return iter(self._lines)

    def __len__(self) -> int:
        return len(self._lines)


def parse_confusion(text: str) -> ConfusionSets:
    """Character -> the set of strings of its line (split on single spaces; a later line with
    the same first field wins), as ChERRANT's read_confusion reads them."""
    lines: dict[str, str | None] = {}
    rows = text.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    for row in rows:
        key, separator, rest = row.partition(" ")
        lines[key] = rest if separator else None
    return ConfusionSets(lines)


@dataclass(frozen=True)
class CherrantData:
    """What ChERRANT's character level reads: Cilin codes and the confusion sets."""

    semantic_codes: Mapping[str, str]
    confusion: Mapping[str, frozenset]
    folder: Path | None = None
    checksums: Mapping[str, str] = field(default_factory=dict)

    @property
    def matches_published(self) -> bool:
        """Whether the files read are byte for byte ChERRANT's (their SHA-256 agree)."""
        return all(self.checksums.get(name) == CHECKSUMS[name] for name in CHAR_LEVEL_FILES)

    def fingerprint(self) -> str:
        """A short content address of the data read (for cache keys and signatures)."""
        return hashlib.sha256("".join(self.checksums.get(name, "?") for name in CHAR_LEVEL_FILES).encode()).hexdigest()[:16]


def load_data(folder: str | os.PathLike | None = None, resources: Any = None) -> CherrantData:
    """Read the character level's files from :func:`locate_data` (once per folder and file
    version in a process: kept in ``resources``, a run's store, else the process's)."""
    from ...context import loaded

    where = locate_data(folder)
    paths = [where / name for name in CHAR_LEVEL_FILES]
    key = ("cherrant-data", *((str(path.resolve()), path.stat().st_mtime_ns, path.stat().st_size) for path in paths))
    return loaded(key, lambda: _read_data(where, paths), resources)


def _read_data(where: Path, paths: list[Path]) -> CherrantData:
    raw = {name: path.read_bytes() for name, path in zip(CHAR_LEVEL_FILES, paths)}
    return CherrantData(parse_cilin(_universal_lines(raw[CILIN], "gbk", where / CILIN)),
                        parse_confusion(_universal_lines(raw[CONFUSION], "utf-8", where / CONFUSION)),
                        where, {name: hashlib.sha256(content).hexdigest() for name, content in raw.items()})
