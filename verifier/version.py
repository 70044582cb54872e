"""The package's version (the one in ``pyproject.toml``), importable from every layer."""

__all__ = ["__version__"]

__version__ = "0.1.0"
