"""Align key and response: mention matching, the assignment solver, the contingency of
entities, and split antecedents."""
