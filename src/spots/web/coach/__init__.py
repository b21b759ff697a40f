"""The coach on the web: "How did it go?" worked out away from the server (``service``), its words and its
half of the store.
"""
