"""The bot API: bot accounts, their tokens, and the one connection a bot's program plays through (docs/bot-api.md)."""
