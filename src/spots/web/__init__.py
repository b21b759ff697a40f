"""Spots in the browser: ``create_app(db_path)`` builds the app, ``server.main(argv)`` runs it."""

from .app import create_app

__all__ = ["create_app"]
