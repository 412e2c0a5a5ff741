"""The Udapi floor: what any scorer built on Udapi pays for a key/response pair.

Imports udapi, numpy and scipy, loads both files with Udapi and materialises
their coreference entities (with the mentions' words), nothing more.
"""

import sys

import numpy  # noqa: F401
import scipy.optimize  # noqa: F401
from udapi.block.read.conllu import Conllu
from udapi.core.document import Document


def load(path):
    doc = Document()
    Conllu(files=[path]).apply_on_document(doc)
    mentions = 0
    for entity in doc.coref_entities:
        for mention in entity.mentions:
            mentions += len(mention.words)
    return mentions


if __name__ == "__main__":
    print(sum(load(path) for path in sys.argv[1:3]))
