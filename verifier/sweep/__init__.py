"""Sweeps: one scenario template decided for every choice of cards from a library, under
several rule systems, on a process pool or a Dask cluster (``verifier sweep``)."""
