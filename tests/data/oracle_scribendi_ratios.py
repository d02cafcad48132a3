"""The Scribendi Score's two string ratios from the ORIGINAL libraries on seeded random string pairs,
for tests/data/scribendi_ratios.tsv.

Run in a virtualenv holding the original's code and fuzzywuzzy 0.18.0:

    python tests/data/oracle_scribendi_ratios.py pairs > pairs.jsonl            # the seeded pairs (any Python)
    python tests/data/oracle_scribendi_ratios.py original ORIGINAL_DIR < pairs.jsonl > a.tsv
        # fuzzywuzzy WITHOUT python-Levenshtein (difflib, as the original's requirements) and
        # scribendi.py's own ScribendiScore.levenshtein_distance_ratio
    python tests/data/oracle_scribendi_ratios.py fuzz < pairs.jsonl > b.tsv
        # fuzzywuzzy's token_sort_ratio WITH python-Levenshtein installed (gec-metrics' environment)

The pairs mix ASCII words, punctuation, digits, underscores, whitespace (tabs, several spaces),
Latin-1 letters (which fuzzywuzzy drops), other Unicode letters (Greek, CJK, dotted capital I,
whose lower case is longer), permutations and small edits of one sentence, and long texts
(over 200 characters, where difflib's junk heuristic starts).
"""
import json
import random
import sys

WORDS = ("the of and to a in is it that for you was with on as have be at by not this are but from or had his "
         "they an which she he one all we there their been has more if when will would who so no what up out can "
         "genetic testing people society technology privacy elderly surveillance media information").split()
PUNCT = list(".,;:!?\"'()-[]/&%$#@*+=<>~^`{}|\\")
OTHER = list("éçüßÉÇ©±·¿ÿ") + list("αβγΔΩ") + list("中文字") + ["İ", "ǅ", "ﬁ", "\u00a0", "\u3000", "_", "٣", "²"]


def token(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.55:
        word = rng.choice(WORDS)
        return word.capitalize() if rng.random() < 0.2 else word.upper() if rng.random() < 0.05 else word
    if roll < 0.75:
        return rng.choice(PUNCT)
    if roll < 0.85:
        return str(rng.randrange(0, 2000))
    return "".join(rng.choice(OTHER + list("abcxyz")) for _ in range(rng.randrange(1, 5)))


def sentence(rng: random.Random, words: int) -> str:
    separators = [" "] * 12 + ["  ", "\t", " \n "]
    parts = [token(rng) for _ in range(words)]
    return "".join(part + rng.choice(separators) for part in parts).strip(" ") if rng.random() < 0.2 \
        else " ".join(parts)


def edited(rng: random.Random, text: str) -> str:
    tokens = text.split(" ")
    for _ in range(rng.randrange(0, 4)):
        kind = rng.random()
        position = rng.randrange(0, len(tokens) + 1)
        if kind < 0.3:
            tokens.insert(position, token(rng))
        elif kind < 0.6 and tokens:
            del tokens[min(position, len(tokens) - 1)]
        elif kind < 0.8 and tokens:
            tokens[min(position, len(tokens) - 1)] = token(rng)
        elif len(tokens) > 1:
            i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
    if rng.random() < 0.15:
        rng.shuffle(tokens)
    return " ".join(tokens)


def pairs(count: int = 800, seed: int = 2021) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    result = [("", ""), ("", "a"), ("a", ""), (".", ","), ("é", "ç"), ("A b", "b a"), ("a_b", "a b"), ("İ", "i"),
              ("We can not let it go .", "We cannot let it go .")]
    while len(result) < count:
        length = rng.choice([1, 2, 3, 5, 8, 12, 20, 30, 45, 70])
        first = sentence(rng, length)
        second = edited(rng, first) if rng.random() < 0.7 else sentence(rng, rng.choice([1, 3, 8, 20, 45]))
        result.append((first, second))
    return result


def main() -> None:
    mode = sys.argv[1]
    if mode == "pairs":
        for a, b in pairs():
            print(json.dumps([a, b], ensure_ascii=False))
        return
    from fuzzywuzzy.fuzz import token_sort_ratio

    if mode == "original":
        sys.path.insert(0, sys.argv[2])
        from scribendi import ScribendiScore  # the original, unmodified

        print("a\tb\ttoken_sort_ratio\tlevenshtein_ratio")
    else:
        import Levenshtein  # noqa: F401  (fuzzywuzzy then uses python-Levenshtein's ratio)

        print("a\tb\ttoken_sort_ratio_levenshtein")
    for line in sys.stdin:
        a, b = json.loads(line)
        ts = ScribendiScore.token_sort_ratio(a, b) if mode == "original" else token_sort_ratio(a, b) / 100
        fields = [json.dumps(a, ensure_ascii=False), json.dumps(b, ensure_ascii=False), repr(ts)]
        if mode == "original":
            fields.append(repr(ScribendiScore.levenshtein_distance_ratio(a, b)) if a or b else "")
        print("\t".join(fields))


if __name__ == "__main__":
    main()
