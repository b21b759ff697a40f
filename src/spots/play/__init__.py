"""Ways to play Spots: the terminal front end (the web app lives in ``spots.web``)."""
