"""The claim language: its grammar, syntax tree and parser."""
