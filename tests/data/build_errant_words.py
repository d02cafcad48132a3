"""Build the word list that gecmetrics ships for ERRANT's SPELL type, from Debian's scowl package.

ERRANT 3.0.2 reads the word list of SCOWL 2020.12.07's Hunspell dictionary en_GB-large
(170,565 words). Debian's ``scowl`` package (``apt-get install scowl``, version 2020.12.07)
holds SCOWL's final lists in /usr/share/dict/scowl; :func:`gecmetrics.core.lang.en.wordlist.scowl_en_gb_large`
rebuilds the same set from them (the recipe is documented there). This script writes it sorted,
one word per line, gzip-compressed with a fixed header (so a rebuild gives the same bytes), and
the README beside it with SCOWL's copyright notice taken verbatim from the package's README.

    python tests/data/build_errant_words.py            # writes gecmetrics/data/errant/
    python tests/data/build_errant_words.py --check    # rebuilds in memory, compares with the shipped file
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gecmetrics.core.lang.en.wordlist import (  # noqa: E402
    DEBIAN_SCOWL, SHIPPED_WORDS, scowl_en_gb_large, words_text)

SCOWL_README = Path("/usr/share/doc/scowl/README.gz")
NOTICE_START = "COPYRIGHT, SOURCES, and CREDITS:"
NOTICE_END = "FUTURE PLANS:"

README_HEAD = """# ERRANT's SPELL word list (`en_GB-large.txt.gz`)

The British English word list that ERRANT 3.0.2 uses for its SPELL type
(`errant/en/resources/en_GB-large.txt`): the words of the Hunspell dictionary en_GB-large of
SCOWL (Spell Checker Oriented Word Lists, by Kevin Atkinson, http://wordlist.aspell.net/),
release {version}. gecmetrics rebuilds it from the final lists of Debian's `scowl` package
(`tests/data/build_errant_words.py`, recipe in `gecmetrics/annotate/wordlist.py`): British spellings
with -ise and -ize, variant level 1, sizes up to 70, every category, the hacker and Roman-numeral
special lists, accented words also without accents, plus "mys" and "sangs" (produced by the
Hunspell affix expansion). It holds the same {count:,} words as ERRANT's file (checked by
`tests/test_annotate_peer.py`), sorted, one per line, UTF-8; SHA-256 of the uncompressed text:
`{sha256}`.
`python tests/data/build_errant_words.py --check` rebuilds it and compares.

SCOWL's copyright and licence notice follows, verbatim from the README of SCOWL {version}
(as Debian's `scowl` package installs it: `/usr/share/doc/scowl/README.gz`).

```
"""


def scowl_notice() -> tuple[str, str]:
    """SCOWL's version line and its COPYRIGHT section, verbatim."""
    text = gzip.decompress(SCOWL_README.read_bytes()).decode("utf-8")
    version = text.splitlines()[1].split()[-1]
    start, end = text.index(NOTICE_START), text.index(NOTICE_END)
    return version, text[start:end].rstrip() + "\n"


def build() -> tuple[bytes, str]:
    """The compressed list and its README text."""
    text = words_text(scowl_en_gb_large(DEBIAN_SCOWL))
    version, notice = scowl_notice()
    sha256 = hashlib.sha256(text.encode("utf-8")).hexdigest()
    readme = README_HEAD.format(version=version, count=text.count("\n"), sha256=sha256) + notice + "```\n"
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0), readme


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing")
    args = parser.parse_args(argv)
    if not DEBIAN_SCOWL.is_dir() or not SCOWL_README.is_file():
        print(f"Debian's scowl package is not installed ({DEBIAN_SCOWL}): apt-get install scowl", file=sys.stderr)
        return 2
    data, readme = build()
    if args.check:
        same = SHIPPED_WORDS.read_bytes() == data
        print("shipped word list: same as the rebuild" if same else "shipped word list DIFFERS from the rebuild")
        return 0 if same else 1
    SHIPPED_WORDS.parent.mkdir(parents=True, exist_ok=True)
    SHIPPED_WORDS.write_bytes(data)
    (SHIPPED_WORDS.parent / "README.md").write_text(readme, encoding="utf-8")
    print(f"wrote {SHIPPED_WORDS} ({len(data):,} bytes) and its README")
    return 0


if __name__ == "__main__":
    sys.exit(main())
