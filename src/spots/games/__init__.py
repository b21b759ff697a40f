"""The games of the package, side by side as peers: ``spots`` (Spots) and ``double_spot`` (Double Spot).

Each game is one package with the same module names where they hold the same
thing (``rules``, ``state``, ``record``, ``words``, ``advice``, ``expectimax``,
``spec``, ...). What the games share lives in ``spots.core``; front ends reach a
game through the registry (``spots.core.games``), never by importing it by name.
Standard library only, like ``spots.core``.
"""
