"""The reference scorer ``scorer.pl`` v8.01's reading of CoNLL-2012 files: chains, its mention
filters, its text and the ``conll-scorer`` drop-in."""
