"""Notices away from the table: your-turn e-mail and Web Push (``service``), confirmed e-mail addresses
(``addresses``) and the push subscriptions' half of the store.
"""
