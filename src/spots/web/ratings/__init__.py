"""Ratings per game from rated tables' places (``service``, OpenSkill) and the leaderboards' routes.
"""
