"""The terminal front ends (rich): the table every game shares (``table.py``) and each game's screen.

``spots play`` starts a game's screen through its ``GameSpec.cli.terminal`` (a function of the game),
so this package names no game: each game's folder has ``terminal.py`` (its screen, started by
``spots play``) and ``terminal_view.py`` (its board), built on ``table.py``. A game with no
screen of its own plays on ``generic.py``, from its spec alone.
The web app is ``spots.web``.
"""
