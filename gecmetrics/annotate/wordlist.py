"""The British English word list behind ERRANT's SPELL type.

ERRANT 3.0.2 reads ``errant/en/resources/en_GB-large.txt``: the word list of the Hunspell
dictionary ``en_GB-large`` of SCOWL release 2020.12.07 (170,565 words, -ise and -ize
spellings, accented and unaccented forms). gecmetrics does not ship it; it takes, in order:

1. a path given by the caller or in ``$GECMETRICS_ERRANT_WORDS``: a file with one word per
   line (e.g. that same ``en_GB-large.txt``), or a folder of SCOWL's final lists;
2. the SCOWL lists of Debian's ``scowl`` package (``apt-get install scowl``), version
   2020.12.07, in ``/usr/share/dict/scowl``, from which the same list is rebuilt
   (:func:`scowl_en_gb_large`: verified word for word against ERRANT's file);
3. the ``en_GB-large.txt`` of an installed ``errant`` package (found without importing it).

Without any of them, :func:`load_word_list` raises one InputError line saying what to install.
"""
from __future__ import annotations

import importlib.util
import os
import unicodedata
from pathlib import Path

from ..errors import InputError

ENVIRONMENT_VARIABLE = "GECMETRICS_ERRANT_WORDS"
DEBIAN_SCOWL = Path("/usr/share/dict/scowl")
ERRANT_RESOURCE = Path("en") / "resources" / "en_GB-large.txt"

# SCOWL's recipe for the en_GB-large speller list: British spellings with -ise and -ize,
# variant level 1, sizes up to 70, every category (words, upper, proper-names,
# abbreviations, contractions), plus two special lists.
SCOWL_SPELLINGS = ("english", "british", "british_z", "british_variant_1")
SCOWL_MAX_SIZE = 70
SCOWL_SPECIAL = ("special-hacker.50", "special-roman-numerals.35")
# Expanding the Hunspell dictionary's affixes produces two words that SCOWL's lists lack
# ("sang" and "my" carry a plural flag); ERRANT's list has them, so they are added.
HUNSPELL_EXTRA_WORDS = ("mys", "sangs")


def load_word_list(source: str | os.PathLike | None = None) -> frozenset[str]:
    """The word set: from ``source`` (file or SCOWL folder), else the first available default."""
    if source is None:
        source = os.environ.get(ENVIRONMENT_VARIABLE) or None
    if source is not None:
        path = Path(source)
        if path.is_dir():
            return scowl_en_gb_large(path)
        if path.is_file():
            return read_word_file(path)
        raise InputError("word list not found (give a file with one word per line or a folder of SCOWL lists)",
                         str(source))
    if DEBIAN_SCOWL.is_dir():
        return scowl_en_gb_large(DEBIAN_SCOWL)
    installed = installed_errant_word_list()
    if installed is not None:
        return read_word_file(installed)
    raise InputError("ERRANT's SPELL rule needs its British English word list: install Debian's scowl package "
                     "(apt-get install scowl), or give the path of ERRANT's en_GB-large.txt (word_list= or "
                     f"${ENVIRONMENT_VARIABLE})")


def read_word_file(path: str | os.PathLike) -> frozenset[str]:
    """One word per line; surrounding whitespace (and a CRLF terminator) is dropped, as ERRANT does."""
    try:
        with open(path, encoding="utf-8") as handle:
            return frozenset(line.strip() for line in handle)
    except UnicodeDecodeError:
        raise InputError("word list is not UTF-8 text", str(path)) from None
    except OSError as err:
        raise InputError(f"cannot read word list: {err.strerror}", str(path)) from None


def installed_errant_word_list() -> Path | None:
    """ERRANT's en_GB-large.txt if an ``errant`` package is installed (not imported)."""
    try:
        spec = importlib.util.find_spec("errant")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / ERRANT_RESOURCE
        if candidate.is_file():
            return candidate
    return None


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
