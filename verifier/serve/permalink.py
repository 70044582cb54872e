"""Permalinks: a scenario's text carried in a URL, compressed, so that a ruling question is one
link that reopens with the same answer.

A code is ``1`` (the format's version) and the text's UTF-8 bytes, raw-deflated and written
in URL-safe base64 without padding. Decoding is bounded: a link that would inflate past
:data:`MAX_TEXT` characters is refused before it is inflated further (a "zip bomb" costs
nothing), and so is one that is not a code at all, or cut short.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib

__all__ = ["MAX_CODE", "MAX_TEXT", "LinkError", "decode", "encode"]

MAX_TEXT = 64 * 1024
"""The longest scenario the page takes, in characters (a card pool that large belongs in a
card library, which a scenario names)."""
MAX_CODE = 48 * 1024
"""The longest code a link carries; a scenario whose code is longer is not given a link."""

_VERSION = "1"
_ALPHABET = re.compile(r"[A-Za-z0-9_-]*")  # URL-safe base64 without padding
_WBITS = -15  # raw deflate: no header or checksum to spend characters on


class LinkError(ValueError):
    """A link's code that does not decode to a scenario; the message says why."""


def encode(text: str) -> str:
    """The code of ``text`` for a link's ``s`` parameter."""
    packer = zlib.compressobj(9, zlib.DEFLATED, _WBITS)
    data = packer.compress(text.encode("utf-8")) + packer.flush()
    return _VERSION + base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def decode(code: str) -> str:
    """The text whose code is ``code``; :class:`LinkError` when it is none."""
    if len(code) > MAX_CODE:
        raise LinkError(f"the link's scenario is too long ({len(code):,} characters of code)")
    if not code.startswith(_VERSION):
        raise LinkError("the link does not carry a scenario this version can read")
    body = code[len(_VERSION) :]
    if not _ALPHABET.fullmatch(body):
        raise LinkError("the link's scenario is damaged (not base64)")
    try:
        data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError):
        raise LinkError("the link's scenario is damaged (not base64)") from None
    unpacker = zlib.decompressobj(_WBITS)
    limit = 4 * MAX_TEXT  # UTF-8 takes at most 4 bytes a character
    try:
        raw = unpacker.decompress(data, limit + 1)
    except zlib.error:
        raise LinkError("the link's scenario is damaged (not deflated text)") from None
    if len(raw) > limit or unpacker.unconsumed_tail:
        raise LinkError(f"the link's scenario is longer than {MAX_TEXT:,} characters")
    if not unpacker.eof:
        raise LinkError("the link's scenario is cut short (was the link copied whole?)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise LinkError("the link's scenario is damaged (not UTF-8 text)") from None
    if len(text) > MAX_TEXT:
        raise LinkError(f"the link's scenario is longer than {MAX_TEXT:,} characters")
    return text
