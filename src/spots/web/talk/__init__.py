"""Table talk: chat among players and among spectators (``service``), its writer (``chatlog``) and its half
of the store.
"""
