"""Tournaments on the web: events (``store``, ``settings``), the director that runs them (``director``), and their
pages and API (``routes``, ``view``). The formats' rules are ``spots.tournaments``."""
