"""Invitations by name: a human seat kept for another account (``service``) and its half of the store.
"""
