"""Sentence-level Scribendi scores from the ORIGINAL code (github gotutiyan/scribendi_score,
``scribendi.py``, unmodified), for tests/data/models_tiny_scribendi.tsv.

The original prints only a corpus score per system. This driver runs in the original's
virtualenv, imports its ``ScribendiScore`` and ``load_file``, and for each system:
calls ``score()`` (the corpus number, as the command line prints it); then takes the same
steps ``score()`` takes, with the original's own methods and the same batches
(``remove_eq_sents``, ``ppl`` of the changed sources, ``ppl`` of the changed hypotheses, then
per line ``ppl_src <= ppl_hyp`` -> -1, else ``max(token_sort_ratio, levenshtein_distance_ratio)
>= threshold`` -> +1 else -1), checks that the sentence values add up to ``score()``'s, and
prints one row per line: system, line (1-based), value, and for changed lines the two
perplexities and both ratios (computed for every changed line, for the record).

    python tests/data/oracle_scribendi_sentences.py ORIGINAL_DIR MODEL SOURCE SYSTEM... > rows.tsv
"""
import math
import sys


def main() -> None:
    original, model, source_path, *system_paths = sys.argv[1:]
    sys.path.insert(0, original)
    from scribendi import ScribendiScore, load_file  # the original, unmodified

    scorer = ScribendiScore(threshold=0.8, model_id=model, no_cuda=True)
    sources = load_file(source_path)
    print("system\tline\tscore\tppl_source\tppl_hypothesis\ttoken_sort_ratio\tlevenshtein_ratio")
    for path in system_paths:
        hypotheses = load_file(path)
        total = scorer.score(sources, hypotheses, batch_size=32)
        changed_sources, changed_hypotheses, _ = scorer.remove_eq_sents(sources, hypotheses)
        source_ppl = scorer.ppl(changed_sources, 32)
        hypothesis_ppl = scorer.ppl(changed_hypotheses, 32)
        index = 0
        values = []
        name = path.rstrip("/").split("/")[-1]
        for line, (source, hypothesis) in enumerate(zip(sources, hypotheses), 1):
            if source == hypothesis:
                values.append(0)
                print(f"{name}\t{line}\t0\t\t\t\t", file=sys.stdout)
                continue
            assert changed_sources[index] == source and changed_hypotheses[index] == hypothesis
            ppl_s, ppl_h = source_ppl[index], hypothesis_ppl[index]
            index += 1
            tsr = scorer.token_sort_ratio(source, hypothesis)
            ldr = scorer.levenshtein_distance_ratio(source, hypothesis)
            if ppl_s <= ppl_h:
                value = -1
            else:
                value = 1 if max(tsr, ldr) >= scorer.threshold else -1
            values.append(value)
            print(f"{name}\t{line}\t{value}\t{ppl_s!r}\t{ppl_h!r}\t{tsr!r}\t{ldr!r}")
        assert sum(values) == total, (name, sum(values), total)
        print(f"# {name}: score() = {total}, sentence values add up to it", file=sys.stderr)
        margins = [abs(math.log(s) - math.log(h)) for s, h in zip(source_ppl, hypothesis_ppl)
                   if not (math.isnan(s) or math.isnan(h))]
        if margins:
            print(f"# {name}: smallest |log ppl_src - log ppl_hyp| = {min(margins):.3g}", file=sys.stderr)


if __name__ == "__main__":
    main()
