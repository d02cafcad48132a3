"""Build the small cased WordPiece vocabulary of the tiny seeded BERT models that stand in for
``bert-base-cased`` (the base model of SOME and IMPARA) in gecmetrics' tests.

The vocabulary is derived from the CoNLL-2014 test set text (``../shared/data/conll14``: the
source ``INPUT`` and the two references ``REF0`` ``REF1``), counted after BERT's basic
tokenization without lower-casing (split at white space, every punctuation character a token of
its own). Its tokens, in id order:

1. the special tokens ``[PAD] [UNK] [CLS] [SEP] [MASK]`` (ids 0-4);
2. every printable ASCII character and every other character of the text, alone;
3. ``##`` + each letter, digit and non-ASCII character (so any word of those is split into
   pieces rather than becoming ``[UNK]``);
4. the words seen at least ``MIN_WORD_COUNT`` times, most frequent first (ties in code-point
   order);
5. ``##`` + the ``SUFFIXES`` most frequent word endings of 2 to 4 characters among the rarer
   words (the pieces WordPiece then uses after a frequent prefix), most frequent first.

Nothing here is random, so a rebuild gives the same bytes:

    python tests/data/build_conll14_vocab.py           # writes gecmetrics/data/models/conll14_cased_vocab.txt
    python tests/data/build_conll14_vocab.py --check   # rebuilds in memory, compares with the shipped file
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import string
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONLL14 = ROOT.parent / "shared" / "data" / "conll14"
TEXTS = ("INPUT", "REF0", "REF1")
TARGET = ROOT / "gecmetrics" / "data" / "models" / "conll14_cased_vocab.txt"
SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
MIN_WORD_COUNT = 3
SUFFIXES = 300


def is_punctuation(char: str) -> bool:
    """BERT's punctuation test: ASCII non-alphanumeric symbols, or a Unicode P* category."""
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def basic_words(line: str) -> list[str]:
    """The words of a line as BERT's cased basic tokenizer makes them."""
    words = []
    for chunk in line.split():
        current = ""
        for char in chunk:
            if is_punctuation(char):
                if current:
                    words.append(current)
                    current = ""
                words.append(char)
            else:
                current += char
        if current:
            words.append(current)
    return words


def build_vocabulary(folder: Path) -> list[str]:
    """The vocabulary, in id order (see the module docstring)."""
    counts: collections.Counter[str] = collections.Counter()
    characters: set[str] = set()
    for name in TEXTS:
        text = (folder / name).read_text(encoding="utf-8")
        characters.update(char for char in text if not char.isspace())
        for line in text.splitlines():
            counts.update(basic_words(line))
    printable = [char for char in string.printable if not char.isspace()]
    others = sorted(char for char in characters if char not in printable)
    tokens = list(SPECIAL_TOKENS) + printable + others
    tokens += ["##" + char for char in printable + others if char.isalnum()]
    by_frequency = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    tokens += [word for word, count in by_frequency if count >= MIN_WORD_COUNT and len(word) > 1]
    endings: collections.Counter[str] = collections.Counter()
    for word, count in counts.items():
        if count < MIN_WORD_COUNT and word.isalpha():
            endings.update(word[-size:] for size in (2, 3, 4) if len(word) > size)
    tokens += ["##" + ending for ending, _ in sorted(endings.items(), key=lambda item: (-item[1], item[0]))[:SUFFIXES]]
    seen: set[str] = set()
    return [token for token in tokens if not (token in seen or seen.add(token))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=CONLL14, help="the CoNLL-2014 folder (INPUT, REF0, REF1)")
    parser.add_argument("--check", action="store_true", help="compare a rebuild with the shipped file")
    args = parser.parse_args(argv)
    text = "".join(token + "\n" for token in build_vocabulary(args.data))
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if args.check:
        same = TARGET.is_file() and TARGET.read_text(encoding="utf-8") == text
        print(f"{'same' if same else 'DIFFERENT'}: {TARGET} ({text.count(chr(10))} tokens, sha256 {digest})")
        return 0 if same else 1
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET} ({text.count(chr(10))} tokens, sha256 {digest})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
