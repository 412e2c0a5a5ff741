"""Error analysis: the corrections that turn a response into its key.

After Kummerfeld & Klein (2013, "Error-driven analysis of challenges in
coreference resolution"). The response is transformed into the key step by
step, and each step is an error of one category, in this order:

1. **span error**: a response mention paired with a key mention whose words
   differ (the scoring alignment's non-identical pairs; then, among mentions
   left unpaired, equal spans once punctuation and articles at the edges are
   set aside, and a lone key and response mention sharing a head word);
2. **conflated entities**: a part of a response entity that belongs to
   another key entity than the entity's anchor part is split off;
3. **extra mention**: a response mention in no key entity is removed;
4. **extra entity**: a response entity with no non-pronoun key mention
   loses its two or more mentions outside the key at once;
5. **divided entity**: a part of a key entity found in another response
   entity than the key entity's anchor part is merged into it;
6. **missing mention**: a key mention the response lacks is added;
7. **missing entity**: a key entity of which the response found at most
   pronouns, with two or more mentions missing, is added at once.

A *part* is the set of mentions a response entity and a key entity share.
The *anchor* part of an entity stays put: the part holding the entity's
earliest non-pronoun mention (pronouns and zeros have no lexical content to
anchor an entity), else its earliest mention. Mentions that have to be
removed or added never anchor an entity, so a spurious or dropped mention is
charged as such wherever it stands (the original analyser lets a spurious
first mention anchor its entity and charges the rest as conflated).

Every response mention is charged to at most one of the response-side
categories (extra mention, extra entity, conflated entities) and every key
mention to at most one of the key-side ones (missing mention, missing entity,
divided entity); span errors pair mentions one to one. A part moved from one
entity into another is one split and one merge, as in the procedure.

"Pronoun" means a one-word mention headed by ``PRON`` or by ``DET`` with
``PronType`` in the dependency trees, not a word list; zeros (mentions headed
by empty nodes) are a kind of their own, treated like pronouns. A format
without trees uses the procedure's token rules and an English pronoun list:
its reader takes ``words`` in ``read_documents`` and fills ``Document.text``
with ``trees=False`` and its part-of-speech tags (Penn Treebank for
CoNLL-2012) as ``upos``; a reader that gives no words is analysed with
spans as they are and no pronoun known, and the report says so.

The cost of a category is the score after correcting it, alone and
cumulatively in the order above; correcting all seven gives the key.

The package's modules, in the order of the work: :mod:`.mentions` (what
a mention is: its kind, its core span), :mod:`.classify` (the errors of one
document, charged to the categories), :mod:`.corrections` (the response
after some categories' corrections), :mod:`.costs` (the corrected responses
rescored), :mod:`.walk` (the pairs of documents of files or of the model,
read and matched as the score reads and matches them) and :mod:`.report`
(the documents' errors and costs summed).
"""

from __future__ import annotations

from .classify import CATEGORIES, LABELS, REPORT_ORDER, DocumentErrors, Part, analyse
from .mentions import METHODS, core_span, mention_kind
from .report import DocumentOutcome, ErrorReport, report_of
from .walk import analyse_documents, analyse_files, refusal, refused

__all__ = ["CATEGORIES", "LABELS", "METHODS", "REPORT_ORDER", "DocumentErrors", "DocumentOutcome", "ErrorReport",
           "Part", "analyse", "analyse_documents", "analyse_files", "core_span", "mention_kind", "refusal",
           "refused", "report_of"]
