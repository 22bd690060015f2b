"""The site's two languages: the codes every stage uses, and their names."""

LANGUAGES = ("ko", "en")
LANGUAGE_NAMES = {"ko": "한국어", "en": "English"}  # each in its own language: the language switch
NAMES_IN_ENGLISH = {"ko": "Korean", "en": "English"}  # in the build's messages
