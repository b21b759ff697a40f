"""Clocks: a table's pace and each player's time (``clock``), and timing a live table (``timing``).
"""
