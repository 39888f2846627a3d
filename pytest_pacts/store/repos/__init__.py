"""Repositories: the only code that writes SQL against the store's tables."""
