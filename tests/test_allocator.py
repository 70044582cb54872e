"""The program keeps the memory the array step frees in the heap (glibc only)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from verifier.cli import allocator


@pytest.mark.skipif(
    not allocator._glibc(),
    reason="mallopt and these parameters exist only in glibc; elsewhere the program leaves "
    "the allocator alone, which the next test checks",
)
def test_glibc_takes_the_settings() -> None:
    # In a process of its own: the settings stay for the rest of the process.
    code = "from verifier.cli.allocator import reuse_freed_memory as r; print(r())"
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert ran.stdout.strip() == "True", ran.stderr


def test_another_c_library_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> str:
        raise ValueError(name)

    monkeypatch.setattr(os, "confstr", missing)
    assert allocator.reuse_freed_memory() is False
    monkeypatch.setattr(os, "confstr", lambda name: "musl")
    assert allocator.reuse_freed_memory() is False
    monkeypatch.setattr(sys, "platform", "darwin")
    assert allocator.reuse_freed_memory() is False
