"""Puzzles on the web: the puzzle page, its answers and ratings (``docs/puzzles.md``)."""
