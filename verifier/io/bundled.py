"""What the package carries besides code: the rule systems, the examples and card libraries.

The project's top-level ``models/`` and ``examples/`` are mapped into the package as
``verifier.models`` and ``verifier.examples`` by ``pyproject.toml``, so a wheel or a plain
``pip install .`` has them too; they are found through their module specs
(:mod:`importlib.util`). A source tree used without installing it (``python -m verifier``
in a checkout) falls back to the folders next to the package.

A card library is named by its file's stem without ``.cards``: ``yugioh`` is
``examples/yugioh/yugioh.cards.yaml``. A scenario may name one (``library: yugioh``)
from any folder, as it names a bundled rule system (``rules: yugioh``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

__all__ = [
    "LIBRARY_SUFFIX",
    "bundled_examples",
    "bundled_libraries",
    "bundled_models",
    "is_name",
]

LIBRARY_SUFFIX = ".cards.yaml"


def _package_folder(package: str, source: str) -> Path | None:
    """The folder of a data package. ``verifier.examples`` has no ``__init__.py`` (it is the
    project's ``examples/``), so it is a namespace package: where an installation can see
    more than one folder of that name, the first on the path is the one imported."""
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        spec = None
    if spec is None:
        path = Path(__file__).resolve().parents[2] / source
        return path if path.is_dir() else None
    for location in spec.submodule_search_locations or ():
        folder = Path(location)
        if folder.is_dir():
            return folder
    return None


def bundled_models() -> Path | None:
    """The folder of the rule systems shipped with the package (``models/``)."""
    return _package_folder("verifier.models", "models")


def bundled_examples() -> Path | None:
    """The folder of the examples shipped with the package (``examples/``)."""
    return _package_folder("verifier.examples", "examples")


def bundled_libraries() -> dict[str, Path]:
    """The card libraries among the bundled examples, by name (``yugioh``)."""
    folder = bundled_examples()
    if folder is None:
        return {}
    found: dict[str, Path] = {}
    for path in sorted(folder.glob(f"*/*{LIBRARY_SUFFIX}")):
        found.setdefault(path.name[: -len(LIBRARY_SUFFIX)], path)
    return found


def is_name(reference: str) -> bool:
    """Whether a ``rules:`` or ``library:`` value names something bundled rather than a
    file: no folder in it and no YAML suffix (``yugioh``, not ``yugioh.cards.yaml``)."""
    return not reference.endswith((".yaml", ".yml")) and "/" not in reference
