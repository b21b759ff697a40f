"""Fair play: what keeps rated play and shared deals honest (``advisor``: who may ask for a hint)."""
