"""The response-language check, on `langdetect` (a pure-Python port of Google's detector).

`langdetect` samples at random; here it runs with its own detector factory seeded with 0, so the
same text always gets the same answer, and the process-wide `langdetect.detect` is left alone.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

from .._exceptions import RubricError
from ._check import TextTest
from ._registry import catalogue_check
from ._units import has_word

__all__ = ["LANGUAGES", "language"]

LANGUAGES: dict[str, str] = {
    "af": "Afrikaans", "ar": "Arabic", "bg": "Bulgarian", "bn": "Bengali", "ca": "Catalan",
    "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German", "el": "Greek",
    "en": "English", "es": "Spanish", "et": "Estonian", "fa": "Persian", "fi": "Finnish",
    "fr": "French", "gu": "Gujarati", "he": "Hebrew", "hi": "Hindi", "hr": "Croatian",
    "hu": "Hungarian", "id": "Indonesian", "it": "Italian", "ja": "Japanese", "kn": "Kannada",
    "ko": "Korean", "lt": "Lithuanian", "lv": "Latvian", "mk": "Macedonian",
    "ml": "Malayalam", "mr": "Marathi", "ne": "Nepali", "nl": "Dutch", "no": "Norwegian",
    "pa": "Punjabi", "pl": "Polish", "pt": "Portuguese", "ro": "Romanian", "ru": "Russian",
    "sk": "Slovak", "sl": "Slovenian", "so": "Somali", "sq": "Albanian", "sv": "Swedish",
    "sw": "Swahili", "ta": "Tamil", "te": "Telugu", "th": "Thai", "tl": "Tagalog",
    "tr": "Turkish", "uk": "Ukrainian", "ur": "Urdu", "vi": "Vietnamese",
    "zh-cn": "Chinese (simplified)", "zh-tw": "Chinese (traditional)", "zh": "Chinese",
}  # fmt: skip
"""The languages `langdetect` tells apart, by ISO 639-1 code (`zh` accepts either Chinese)."""

_INSTALL_HINT = (
    "the `language` check needs the `langdetect` package: pip install 'langdetect>=1.0.9'"
)


@catalogue_check
def language(code: str) -> TextTest:
    """The text is written in the given language, as `langdetect` judges it.

    The most probable language of the whole text must be `code` (`zh` accepts simplified and
    traditional Chinese). A text with no letter or digit fails: there is nothing to tell the
    language from. Short texts (a few words) are unreliable.

    Args:
        code: The ISO 639-1 code of the language, such as `en`, `de` or `zh-cn`.

    Example:
        ```python
        checks.language("en")
        ```

    """
    wanted = code.strip().lower().replace("_", "-")
    if wanted not in LANGUAGES:
        raise RubricError(
            f"language: unknown language code {code!r}; known codes: {', '.join(LANGUAGES)}",
            field="code",
        )
    name = f"{LANGUAGES[wanted]} ({wanted})"

    def test(text: str) -> tuple[bool, str]:
        if not has_word(text):
            return False, f"has no text to tell the language from, needs {name}"
        found = detect_language(text)
        if found is None:
            return False, f"has no text to tell the language from, needs {name}"
        passed = found == wanted or found.split("-")[0] == wanted
        if passed:
            return True, f"reads as {LANGUAGES.get(found, found)} ({found})"
        return False, f"reads as {LANGUAGES.get(found, found)} ({found}), needs {name}"

    return test


def detect_language(text: str) -> str | None:
    """The most probable `langdetect` code of `text`, or `None` when it has no features."""
    factory, error = _factory()
    detector = factory.create()
    detector.append(text)
    try:
        return str(detector.detect())
    except error:
        return None


@functools.cache
def _factory() -> tuple[Any, type[Exception]]:
    try:
        factory_module = importlib.import_module("langdetect.detector_factory")
        errors = importlib.import_module("langdetect.lang_detect_exception")
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(_INSTALL_HINT) from exc
    factory = factory_module.DetectorFactory()
    factory.load_profile(factory_module.PROFILES_DIRECTORY)
    factory.set_seed(0)
    return factory, errors.LangDetectException
