"""The games the verifier knows, each one package behind one seam.

A :class:`Game` holds what is particular to a card game and not a parameter of a rule system:
its vocabulary (card types, zones, phases), the optional state fields its cards need, how a
trace words what happens (a Yu-Gi-Oh! Chain Link "resolves"; a CMC spell "is cast" from the
resolve stack), the sentences of its rulebook, and the checks its formats add. The rules
themselves are selected by a rule system's parameters and never ask which game is played.

A rule system names its game (``game: yugioh``); the name must be registered. The bundled
games register themselves when this package is imported; another one registers with
:func:`register` (the tests define a third this way).
"""

from __future__ import annotations

from verifier.games.base import (
    Drafting,
    Game,
    Wording,
    game,
    game_named,
    games,
    register,
    unregister,
)

__all__ = [
    "Drafting",
    "Game",
    "Wording",
    "game",
    "game_named",
    "games",
    "register",
    "unregister",
]


def _bundled() -> None:
    from verifier.games import cmc, mtg, yugioh

    for bundled in (yugioh.GAME, cmc.GAME, mtg.GAME):
        if game_named(bundled.name) is None:
            register(bundled)


_bundled()
