"""ERRANT 3.0.2's English rules: spaCy parses, alignment costs, merging and classification; the
language ``en`` (:class:`.annotator.English`, annotated by ERRANT's :class:`.annotator.Annotator`)."""


def language_class() -> type:
    """The language of this folder (:func:`gecmetrics.core.lang.language_class` asks for it)."""
    from .annotator import English

    return English
