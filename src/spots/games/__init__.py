"""The games of the package, side by side as peers: ``spots`` (Spots) and ``double_spot`` (Double Spot).

Each game is one package with the same module names where they hold the same
thing (``rules``, ``state``, ``record``, ``words``, ``advice``, ``expectimax``,
``spec``, ``terminal``, ``terminal_view``, ``web_view``, ...). What the games share lives in
``spots.core``; front ends reach a game through the registry (``spots.core.games``), never by
importing it by name. Standard library only, like ``spots.core``, but for each game's terminal
screen (``terminal.py``, ``terminal_view.py``: rich, the play extra), which its spec imports only
when ``spots play`` starts it.
"""
