"""The British English word list behind ERRANT's SPELL type.

ERRANT 3.0.2 reads ``errant/en/resources/en_GB-large.txt``: the word list of the Hunspell
dictionary ``en_GB-large`` of SCOWL release 2020.12.07 (170,565 words, -ise and -ize
spellings, accented and unaccented forms). gecmetrics ships the same list, rebuilt from the
SCOWL lists of Debian's ``scowl`` package by ``tests/data/build_errant_words.py``
(:func:`scowl_en_gb_large`), as ``gecmetrics/data/errant/en_GB-large.txt.gz`` with SCOWL's
copyright notice beside it. :func:`load_word_list` takes, in order:

1. a path given by the caller (``word_list=``, ``--word-list``): a file with one word per line
   (plain or ``.gz``, e.g. ERRANT's own ``en_GB-large.txt``) or a folder of SCOWL's final lists;
2. the same in ``$GECMETRICS_ERRANT_WORDS``;
3. the shipped file.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import re
import unicodedata
import zlib
from pathlib import Path
from typing import Any

from ....errors import InputError, shown

ENVIRONMENT_VARIABLE = "GECMETRICS_ERRANT_WORDS"
DEBIAN_SCOWL = Path("/usr/share/dict/scowl")
ERRANT_RESOURCE = Path("en") / "resources" / "en_GB-large.txt"
SHIPPED_WORDS = Path(__file__).resolve().parents[3] / "data" / "errant" / "en_GB-large.txt.gz"
SHIPPED_SHA256 = "1a5a94dd08ba57038a9f5aeede1c24fbc9c87959ce7fbaf4b340bfb81e5df6da"
"""SHA-256 of the shipped list's text (:func:`words_text`), as its README records it."""

# SCOWL's recipe for the en_GB-large speller list: British spellings with -ise and -ize,
# variant level 1, sizes up to 70, every category (words, upper, proper-names,
# abbreviations, contractions), plus two special lists.
SCOWL_SPELLINGS = ("english", "british", "british_z", "british_variant_1")
SCOWL_MAX_SIZE = 70
SCOWL_SPECIAL = ("special-hacker.50", "special-roman-numerals.35")
# Expanding the Hunspell dictionary's affixes produces two words that SCOWL's lists lack
# ("sang" and "my" carry a plural flag); ERRANT's list has them, so they are added.
HUNSPELL_EXTRA_WORDS = ("mys", "sangs")

MAX_WORD_CHARS = 1_000
"""Longest line of a word list file (ERRANT's longest word has 45 letters): a longer one is not
a word list (one 300 MB line in a 300 KB .gz file took 1.27 GB to read whole)."""
MAX_WORDS = 5_000_000
"""Most lines of a word list file (ERRANT's has 170,565)."""


def word_list_path(source: str | os.PathLike | None = None) -> Path:
    """Where :func:`load_word_list` reads from: ``source``, else ``$GECMETRICS_ERRANT_WORDS``,
    else the shipped file."""
    if source is None:
        source = os.environ.get(ENVIRONMENT_VARIABLE) or None
    return SHIPPED_WORDS if source is None else Path(source)


def load_word_list(source: str | os.PathLike | None = None, resources: Any = None) -> frozenset[str]:
    """The word set from :func:`word_list_path` (a file or a SCOWL folder); read once per path
    and version of the file, kept in ``resources`` (a run's store, else the process's)."""
    path = word_list_path(source)
    if not path.exists():
        if path == SHIPPED_WORDS:
            raise InputError("the word list shipped with gecmetrics is missing (reinstall gecmetrics)", str(path))
        raise InputError("word list not found (give a file with one word per line or a folder of SCOWL lists)",
                         str(path))
    from ...context import loaded

    key = ("word-list", str(path.resolve()), path.stat().st_mtime)
    return loaded(key, lambda: scowl_en_gb_large(path) if path.is_dir() else read_word_file(path), resources)


def read_word_file(path: str | os.PathLike) -> frozenset[str]:
    """One word per line (gzip-compressed when the name ends in .gz); surrounding whitespace
    (and a CRLF terminator) is dropped, as ERRANT does. Read a line at a time: a line over
    :data:`MAX_WORD_CHARS` characters or more than :data:`MAX_WORDS` lines is an InputError."""
    words: set[str] = set()
    number = 0  # lines taken so far
    pending = ""  # the unfinished last line of what was read
    try:
        with (gzip.open(path, "rt", encoding="utf-8") if str(path).endswith(".gz") else
              open(path, encoding="utf-8")) as handle:
            # newlines translated, as ERRANT reads it; a block at a time (170,000 readline calls
            # cost three times the whole set), the bounds checked on each line as it completes
            while True:
                block = handle.read(_READ_CHARS)
                text = pending + block
                _check_one_word_a_line(text, number, path)
                lines = text.split("\n")
                pending = lines.pop() if block else ""
                if not block and lines == [""]:
                    break
                _check_word_lines(lines, pending, number, path)
                number += len(lines)
                words.update(map(str.strip, lines))
                if not block:
                    break
    except UnicodeDecodeError:
        raise InputError("word list is not UTF-8 text", str(path)) from None
    except (OSError, EOFError, zlib.error) as err:
        raise InputError(f"cannot read word list: {getattr(err, 'strerror', None) or err}", str(path)) from None
    if len(words) == ("" in words):  # no word (blank lines at most): every word would be a SPELL error
        raise InputError("holds no words: not a word list (one word a line)", str(path))
    return frozenset(words)


_INNER_SPACE = re.compile(r"\S[^\S\n]+\S")
"""Whitespace between two words of one line."""


def _check_one_word_a_line(text: str, number: int, path: str | os.PathLike) -> None:
    """A line of ``text`` (which follows ``number`` lines of the file) holding more than one
    word is an InputError: a text given as a word list (each of its lines would be one "word",
    and every word of a sentence a SPELL error)."""
    found = _INNER_SPACE.search(text)
    if found is not None:
        start = text.rfind("\n", 0, found.start()) + 1
        end = text.find("\n", found.end())
        line = text[start:] if end < 0 else text[start:end]
        raise InputError(f"a line of several words ({shown(line.strip())}): not a word list (one word a line)",
                         str(path), number + text.count("\n", 0, found.start()) + 1)


_READ_CHARS = 1 << 16


def _check_word_lines(lines: list[str], pending: str, number: int, path: str | os.PathLike) -> None:
    """The bounds of :func:`read_word_file` on complete lines number+1...; ``pending``: the
    unfinished line after them (too long already when over the bound)."""
    if len(pending) <= MAX_WORD_CHARS and number + len(lines) <= MAX_WORDS and \
            (not lines or max(map(len, lines)) <= MAX_WORD_CHARS):
        return
    for offset, line in enumerate(lines + [pending]):  # which line is the first over a bound
        if len(line) > MAX_WORD_CHARS:
            raise InputError(f"a line longer than {MAX_WORD_CHARS:,} characters: not a word list (one word "
                             "a line; gecmetrics.core.lang.en.wordlist.MAX_WORD_CHARS)", str(path), number + offset + 1)
        if number + offset + 1 > MAX_WORDS and offset < len(lines):
            raise InputError(f"more than {MAX_WORDS:,} lines: not a word list "
                             "(gecmetrics.core.lang.en.wordlist.MAX_WORDS)", str(path), number + offset + 1)


def words_text(words: frozenset[str] | set[str]) -> str:
    """The list as the shipped file holds it: sorted, one word per line."""
    return "".join(word + "\n" for word in sorted(words))


def words_checksum(words: frozenset[str] | set[str]) -> str:
    """SHA-256 of :func:`words_text` (the shipped list's is :data:`SHIPPED_SHA256`)."""
    return hashlib.sha256(words_text(words).encode("utf-8")).hexdigest()


def scowl_en_gb_large(folder: str | os.PathLike) -> frozenset[str]:
    """Rebuild the en_GB-large word list from SCOWL's final lists (``NAME-CATEGORY.SIZE``)."""
    folder = Path(folder)
    words: set[str] = set()
    found = 0
    for path in sorted(folder.iterdir()):
        name, _, size = path.name.rpartition(".")
        spelling = name.split("-", 1)[0]
        wanted = (spelling in SCOWL_SPELLINGS and size.isdigit() and int(size) <= SCOWL_MAX_SIZE) or \
            path.name in SCOWL_SPECIAL
        if wanted and path.is_file():
            found += 1
            with open(path, encoding="utf-8") as handle:
                words.update(line.rstrip("\n") for line in handle)
    if not found:
        raise InputError("no SCOWL word lists (english-words.10 ...) in this folder", str(folder))
    words.discard("")
    words.update([strip_accents(word) for word in words])
    words.update(HUNSPELL_EXTRA_WORDS)
    return frozenset(words)


def strip_accents(word: str) -> str:
    """The word without combining marks (Bartók -> Bartok), as SCOWL's unaccented forms."""
    return "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))
