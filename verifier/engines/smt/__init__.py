"""The symbolic engine: the one semantics encoded as z3 constraints, unrolled and solved."""
