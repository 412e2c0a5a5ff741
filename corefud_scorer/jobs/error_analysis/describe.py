"""An error's occurrence as plain data, for the report and its JSON: the
document, the sentence, the mentions' tokens, words and kinds, the entity
ids."""

from __future__ import annotations

from ...model import ORD_SCALE, SENTENCE_STRIDE, Mention
from .mentions import mention_kind


class Describer:
    """Occurrences as plain data: document, sentence, words, entity ids."""

    def __init__(self, doc_id, text, key_mentions, response_mentions, kinds_key):
        self.doc_id = doc_id
        self.text = text
        self.mentions = {"key": key_mentions, "response": response_mentions}
        self.kinds = {"key": kinds_key}

    def sentence(self, pos: int):
        index = pos // SENTENCE_STRIDE
        if self.text is not None and index < len(self.text.sentence_ids) and self.text.sentence_ids[index]:
            return self.text.sentence_ids[index]
        return index + 1

    @staticmethod
    def _ord(pos: int) -> str:
        value = pos % SENTENCE_STRIDE
        return str(value // ORD_SCALE) if value % ORD_SCALE == 0 else f"{value / ORD_SCALE:g}"

    def words(self, mention: Mention) -> str:
        if self.text is None:
            return ""
        out, previous = [], None
        for pos in mention.words:
            if previous is not None and ORD_SCALE < pos - previous < SENTENCE_STRIDE // 2:
                out.append("…")  # a gap in a discontinuous mention
            word = self.text.words.get(pos)
            out.append(word.form if word is not None else "_")
            previous = pos
        return " ".join(out)

    def mention(self, side: str, index: int) -> dict:
        mention = self.mentions[side][index]
        kinds = self.kinds.get(side)
        kind = kinds[index] if kinds is not None else mention_kind(mention, self.text)
        first, last = self._ord(mention.words[0]), self._ord(mention.words[-1])
        return {"side": side, "sentence": self.sentence(mention.words[0]),
                "tokens": first if first == last else f"{first}-{last}",
                "words": self.words(mention), "kind": kind}

    def occurrence(self, category, mentions, key_entities, response_entities) -> dict:
        described = [self.mention(side, index) for side, index in mentions]
        return {"category": category, "document": self.doc_id,
                "sentence": described[0]["sentence"],
                "words": [m["words"] for m in described],
                "key_entities": key_entities, "response_entities": response_entities,
                "mentions": described}
