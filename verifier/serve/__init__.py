"""The web page: ``verifier serve``."""
