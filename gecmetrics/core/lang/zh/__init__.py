"""Chinese at character level, edit-identical to ChERRANT's ``parallel_to_m2.py -g char`` (no torch,
no LTP); the language ``zh`` (:class:`.language.ChineseCharacters`)."""


def language_class() -> type:
    """The language of this folder (:func:`gecmetrics.core.lang.language_class` asks for it)."""
    from .language import ChineseCharacters

    return ChineseCharacters
