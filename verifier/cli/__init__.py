"""The ``verifier`` command.

Exit status: 0 every claim as expected (no finding, no difference); 1 a decided verdict differs
from its expectation, the engines disagree, or lint/diff/orders found something; 2 bad input
(a file that does not load, a bad option, an output that would be overwritten); 3 a verdict is
unknown or an exploration was stopped by a limit; 4 an internal error (a bug).

When a run has several outcomes, the exit status is the first that applies, in the order
4 (internal error) > 2 (bad input) > 1 (differs) > 3 (unknown) > 0: a bug is never hidden by
bad input, and a wrong verdict is never hidden by an undecided one. An ``unknown`` verdict
with an ``expect`` is undecided (3), not a mismatch.
"""

from __future__ import annotations

from verifier.cli import bundled, deciding, designing, serving  # the commands, registered on import
from verifier.cli.common import cli, progress
from verifier.cli.main import main

__all__ = ["bundled", "cli", "deciding", "designing", "main", "progress", "serving"]
