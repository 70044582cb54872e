"""The bundled rule systems: this folder ships inside the package as ``verifier.models``."""
