"""What a mention is to the error analysis: its kind (zero, pronoun, name or
nominal) and its core span, read off the dependency trees, or without trees
off the format's tokens and tags; ``METHODS`` says which rules a
report followed."""

from __future__ import annotations

from ...model import DocumentText, Mention

# Without trees: the forms the procedure's pronoun test accepts (English),
# and the Penn Treebank tags of pronouns and names.
ENGLISH_PRONOUNS = frozenset("""
i me my mine myself we us our ours ourselves you your yours yourself yourselves
he him his himself she her hers herself it its itself they them their theirs
themselves one oneself this that these those who whom whose which what
whoever whomever whatever whichever where when how
someone somebody something anyone anybody anything everyone everybody
everything noone nobody nothing none all some many most few several
""".split())
PTB_PRONOUN_TAGS = frozenset({"PRP", "PRP$", "WP", "WP$", "WDT", "WRB", "DT"})
PTB_NAME_TAGS = frozenset({"NNP", "NNPS"})
PRONOUN_LIKE = frozenset({"pronoun", "zero"})


# The rules each kind of text is read with, as a report states them.
METHODS = {
    "trees": {"heads": "dependency trees", "pronouns": "UPOS PRON, or DET with PronType",
              "span_rules": "punctuation at the edges, a leading article, a trailing possessive (UPOS, FEATS)"},
    "tokens": {"heads": "the format's head word (no trees)",
               "pronouns": "English pronoun list and Penn Treebank tags",
               "span_rules": "leading 'the', trailing \"'s\", one-character non-letter tokens at the edges"},
    # A reader that gives no words: no pronoun is known, spans are compared as they are.
    "none": {"heads": "the format's head word", "pronouns": "none known (the reader gives no words)",
             "span_rules": "none"},
}


def mention_kind(mention: Mention, text: DocumentText | None) -> str:
    """``zero``, ``pronoun``, ``name`` or ``nominal``."""
    if mention.is_zero:
        return "zero"
    head = text.words.get(mention.head) if text is not None else None
    if head is None:
        return "nominal"
    one_word = len(mention.words) == 1
    if text.trees:
        if one_word and (head.upos == "PRON" or (head.upos == "DET" and "PronType=" in (head.feats or ""))):
            return "pronoun"
        return "name" if head.upos == "PROPN" else "nominal"
    if one_word and (head.upos in PTB_PRONOUN_TAGS or head.form.lower() in ENGLISH_PRONOUNS):
        return "pronoun"
    return "name" if head.upos in PTB_NAME_TAGS else "nominal"


def _strippable(word, first: bool, trees: bool) -> bool:
    if word is None:
        return False
    if trees:
        if word.upos in ("PUNCT", "SYM"):
            return True
        feats = word.feats or ""
        if first:
            return word.upos == "DET" and "PronType=Art" in feats   # an article
        return word.upos == "PART" and "Poss=Yes" in feats          # a possessive marker
    form = word.form
    if len(form) == 1 and not form.isalpha():
        return True
    return form.lower() == ("the" if first else "'s")


def core_span(mention: Mention, text: DocumentText | None) -> tuple[int, ...]:
    """The mention's words without punctuation at either edge, a leading
    article or a trailing possessive marker (at least one word is kept)."""
    words = mention.words
    if text is None or mention.is_zero:
        return words
    start, end = 0, len(words)
    while end - start > 1 and _strippable(text.words.get(words[start]), True, text.trees):
        start += 1
    while end - start > 1 and _strippable(text.words.get(words[end - 1]), False, text.trees):
        end -= 1
    return words[start:end]

