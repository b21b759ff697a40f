"""The terminal front ends (rich): the table every game shares (``table.py``) and each game's screen.

``spots play`` starts a game's screen through its ``GameSpec.terminal`` ("module:function"),
so this package names no game: ``terminal.py`` and ``view.py`` are Spots' screen and board,
``double_spot_terminal.py`` and ``double_spot_view.py`` Double Spot's. The web app is ``spots.web``.
"""
