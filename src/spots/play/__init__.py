"""The terminal front ends (rich): the table every game shares (``table.py``) and each game's screen.

``spots play`` starts a game's screen through its ``GameSpec.terminal`` (a function of the game),
so this package names no game: each game has ``<game>_terminal.py`` (its screen, started by
``spots play``) and ``<game>_view.py`` (its board): ``spots_*`` and ``double_spot_*``. A game with no
screen of its own plays on ``generic.py``, from its spec alone.
The web app is ``spots.web``.
"""
