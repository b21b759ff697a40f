"""Puzzles: positions from real games where one choice is clearly best, with every choice's value and why."""
