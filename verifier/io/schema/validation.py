"""Validation: a file's data against its format, the first problem placed at its key or value."""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel, ValidationError

from verifier.errors import VerifierError
from verifier.io.schema.base import M, Strict, alias
from verifier.io.schema.scenario import ScenarioFile
from verifier.io.source import Document


def validate(
    model: type[M], doc: Document, error: type[VerifierError], base: tuple[Any, ...] = ()
) -> M:
    """Validate ``doc.data`` (or the part at ``base``) against ``model``.

    The first problem becomes ``error`` with the span of the offending key or value.
    """
    data = doc.data
    for key in base:
        data = data[key]
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise _first_error(exc, doc, error, base, model) from None


def _union_tag(key: Any) -> bool:
    """Whether a pydantic location part names a member of a union, not a key of the data:
    a model (``ClaimFile``), a scalar type (``str``), or a composite (``list[...]``,
    ``literal['half']``, ``function-after[...]``)."""
    if not isinstance(key, str):
        return False
    return (
        "[" in key
        or key in {"str", "int", "bool", "float"}
        or key.startswith("constrained-")
        or key in _model_names()
    )


def _model_names() -> frozenset[str]:
    names: set[str] = set()
    pending: list[type] = [Strict]
    while pending:
        cls = pending.pop()
        names.add(cls.__name__)
        pending.extend(cls.__subclasses__())
    return frozenset(names)


def _data_path(data: Any, loc: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Split a pydantic location into the part that indexes the data and the rest.

    Union members' names in the location (``claims.0.ClaimFile.expect``) are skipped, so the
    data path reaches the offending value (``claims.0.expect``).
    """
    path: list[Any] = []
    node = data
    rest = list(loc)
    while rest:
        key = rest[0]
        in_map = isinstance(node, dict) and key in node
        in_list = isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node)
        if in_map or in_list:
            node = node[key]
        elif _union_tag(key):
            rest.pop(0)
            continue
        else:
            break
        path.append(key)
        rest.pop(0)
    return tuple(path), tuple(rest)


def _first_error(
    exc: ValidationError,
    doc: Document,
    error: type[VerifierError],
    base: tuple[Any, ...],
    model: type[BaseModel],
) -> VerifierError:
    data = doc.data
    for key in base:
        data = data[key]
    errors = exc.errors()

    def depth(err: Any) -> int:
        return len(_data_path(data, err["loc"])[0])

    # Prefer the deepest located problem: it is the one the user has to fix.
    err = max(errors, key=depth)
    path, rest = _data_path(data, err["loc"])
    full = base + path
    kind = err["type"]
    value = err.get("input")
    field = path[-1] if path else None
    if kind == "extra_forbidden":
        allowed = _allowed_keys(model, path[:-1], data)
        if model is ScenarioFile and path[:-1] == ("limits",):
            msg = f"unknown limit '{field}' (limits: {', '.join(allowed)})"
            return error(msg, doc.key_span(full))
        hint = _suggest(str(field), allowed)
        msg = f"unknown key '{field}'{hint}"
        return error(msg, doc.key_span(full))
    if kind == "missing":
        missing = rest[0] if rest else field
        return error(f"missing key '{missing}'", doc.key_span(full) if path else doc.span(full))
    where = f" for '{field}'" if isinstance(field, str) else ""
    if isinstance(field, int) and len(path) >= 2 and isinstance(path[-2], str):
        where = f" for '{path[-2]}' item {field + 1}"
    # Every alternative the value could have taken here (a union's members fail together).
    here = [e for e in errors if _data_path(data, e["loc"]) == (path, ())]
    literals = [e for e in here if e["type"] == "literal_error"]
    words = [_expected_word(e) for e in here]
    if kind != "value_error" and (literals or len(here) > 1) and all(words):
        expected = " or ".join(dict.fromkeys(w for w in words if w))
        if literals and not isinstance(value, dict | list):
            return error(
                f"unknown value {_show(value)}{where} (expected {expected})", doc.span(full)
            )
        return error(f"wrong type{where}: expected {expected}, got {_show(value)}", doc.span(full))
    if kind == "value_error":
        return error(str(err["ctx"]["error"]), doc.span(full))
    if kind in _BOUNDS:
        bound = _BOUNDS[kind].format(**err.get("ctx", {}))
        name = f"'{field}'" if isinstance(field, str) else "the value"
        return error(f"{name} must be {bound}, got {_show(value)}", doc.span(full))
    word = _expected_word(err)
    if kind in _MAPPING_TYPES and word:
        return error(f"wrong type{where}: expected {word}, got {_show(value)}", doc.span(full))
    return error(f"wrong type{where}: {_lower(err['msg'])}, got {_show(value)}", doc.span(full))


_BOUNDS = {
    "greater_than_equal": "at least {ge}",
    "greater_than": "greater than {gt}",
    "less_than_equal": "at most {le}",
    "less_than": "less than {lt}",
}
_MAPPING_TYPES = {"model_type", "dict_type", "model_attributes_type"}
_TYPE_WORDS = {
    "string_type": "a string",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    **{name: "a mapping" for name in _MAPPING_TYPES},
}


def _expected_word(err: Any) -> str | None:
    """What one alternative of a union expected, in words: ``'holds' or 'fails'``, ``a list``."""
    if err["type"] == "literal_error":
        return str(err["ctx"]["expected"])
    return _TYPE_WORDS.get(err["type"])


def _allowed_keys(model: type[BaseModel], path: tuple[Any, ...], data: Any) -> list[str]:
    current: Any = model
    skip = False
    for key in path:
        if isinstance(key, int) or skip:
            skip = False
            continue
        fields = getattr(current, "model_fields", None)
        if fields is None:
            return []
        match = next(
            (f for name, f in fields.items() if (f.alias or alias(name)) == key or name == key),
            None,
        )
        if match is None:
            return []
        skip = "dict[" in str(match.annotation)
        current = _model_in(match.annotation)
        if current is None:
            return []
    fields = getattr(current, "model_fields", {})
    return [f.alias or alias(name) for name, f in fields.items()]


def _model_in(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    if close:
        return f"; did you mean '{close[0]}'?"
    if choices:
        return f" (expected one of: {', '.join(choices)})"
    return ""


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return repr(value)


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]
