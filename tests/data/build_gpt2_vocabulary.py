"""Build the byte-level BPE vocabulary of the tiny GPT-2 (gecmetrics/core/models/tiny_gpt2.py)
from the CoNLL-2014 test set text, once; the result is shipped in the package, so the model
builds the same on every machine without ../shared.

Training text: the 1312 lines of each of INPUT, REF0 and REF1 of ../shared/data/conll14 (the
learner sentences and the two annotators' corrections), in that order, empty lines skipped.
Trainer: the ``tokenizers`` library's BPE trainer with GPT-2's byte-level pre-tokenizer (no
prefix space), the 256 byte symbols as initial alphabet, ``<|endoftext|>`` as the only special
token (id 0), 2048 tokens in all, pairs seen at least twice. The vocabulary (``vocab.json``)
and merges (``merges.txt``) are written as GPT-2's tokenizer files are, in
gecmetrics/data/models/gpt2-conll14/.

    python tests/data/build_gpt2_vocabulary.py            # writes the files
    python tests/data/build_gpt2_vocabulary.py --check    # rebuilds in memory, compares with the shipped files
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONLL14 = ROOT.parent / "shared" / "data" / "conll14"
TARGET = ROOT / "gecmetrics" / "data" / "models" / "gpt2-conll14"
SOURCES = ("INPUT", "REF0", "REF1")
VOCABULARY_SIZE = 2048
END_OF_TEXT = "<|endoftext|>"

README = """# The tiny GPT-2's tokenizer (`vocab.json`, `merges.txt`)

A byte-level BPE vocabulary of {size} tokens (GPT-2's tokenizer format: `vocab.json` maps token to
id, `merges.txt` lists the {merges} merges in order) for the tiny seeded GPT-2 that gecmetrics
builds for its tests (`gecmetrics/core/models/tiny_gpt2.py`): small, so that the model is tiny,
and trained on grammatical-error-correction text, so that sentences are a few tokens per word.

Source: the CoNLL-2014 shared task test set (Ng et al., 2014, "The CoNLL-2014 Shared Task on
Grammatical Error Correction"; official test data release 3.2, NUS), its 1312 source sentences
and the two annotators' corrected sentences (the `S` lines of `official-2014.combined.m2` and the
sentences obtained by applying each annotator's edits), tokenized text. Only the derived
vocabulary is shipped, not the text.

How it was made: `python tests/data/build_gpt2_vocabulary.py` (the script documents the trainer and
its settings: `tokenizers` {tokenizers_version} BPE trainer, GPT-2 byte-level pre-tokenizer
without prefix space, the 256 byte symbols as initial alphabet, `{eot}` as id 0, pairs seen at
least twice). `--check` rebuilds it and compares with these files.

SHA-256: `vocab.json` {vocab_sha}, `merges.txt` {merges_sha}.
"""


def training_lines(folder: Path) -> list[str]:
    """The non-empty lines of INPUT, REF0 and REF1, in that order."""
    lines: list[str] = []
    for name in SOURCES:
        path = folder / name
        if not path.is_file():
            sys.exit(f"{path}: not found (the CoNLL-2014 files of ../shared/data/conll14 are needed)")
        lines += [line for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]
    return lines


def train(lines: list[str], size: int = VOCABULARY_SIZE) -> tuple[str, str]:
    """(vocab.json text, merges.txt text) of a byte-level BPE trained on the lines."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=size, min_frequency=2, special_tokens=[END_OF_TEXT],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tokenizer.train_from_iterator(lines, trainer)
    with tempfile.TemporaryDirectory() as folder:
        tokenizer.model.save(folder)
        vocab = json.loads(Path(folder, "vocab.json").read_text(encoding="utf-8"))
        merges = Path(folder, "merges.txt").read_text(encoding="utf-8")
    ordered = dict(sorted(vocab.items(), key=lambda item: item[1]))
    return json.dumps(ordered, ensure_ascii=False, indent=0) + "\n", merges


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare a rebuild with the shipped files")
    parser.add_argument("--conll14", type=Path, default=CONLL14, help="folder with INPUT, REF0, REF1")
    args = parser.parse_args()
    import tokenizers

    vocab, merges = train(training_lines(args.conll14))
    if args.check:
        same = all((TARGET / name).read_text(encoding="utf-8") == text
                   for name, text in (("vocab.json", vocab), ("merges.txt", merges)))
        print("same as the shipped files" if same else "DIFFERENT from the shipped files")
        sys.exit(0 if same else 1)
    TARGET.mkdir(parents=True, exist_ok=True)
    (TARGET / "vocab.json").write_text(vocab, encoding="utf-8")
    (TARGET / "merges.txt").write_text(merges, encoding="utf-8")
    merge_count = sum(1 for line in merges.splitlines() if line and not line.startswith("#"))
    (TARGET / "README.md").write_text(README.format(size=len(json.loads(vocab)), merges=merge_count,
                                                    tokenizers_version=tokenizers.__version__, eot=END_OF_TEXT,
                                                    vocab_sha=sha(vocab), merges_sha=sha(merges)), encoding="utf-8")
    print(f"wrote {TARGET}: {len(json.loads(vocab))} tokens, {merge_count} merges")


if __name__ == "__main__":
    main()
