"""Live tables: every table of the server (``hub``), one table in memory (``rooms``), its sockets, undo,
rematch, bot workers, several processes on one database (``cluster``), the create-table form, the JSON API
and replays.
"""
