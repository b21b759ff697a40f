"""Accounts: names with passwords (argon2id) or passkeys, sessions and devices, look-alike names, the
host's ``spots users``, and the sign-up, sign-in and profile pages.
"""
