"""Proves or refutes rulings about card-game chains with two independent engines."""

__all__ = ["__version__"]

__version__ = "0.1.0"
