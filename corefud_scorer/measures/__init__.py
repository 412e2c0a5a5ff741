"""The measures as pure functions of one document's contingency: the statistics types, the
classic and further measures, empty nodes, the registry, one document's statistics and totals."""
