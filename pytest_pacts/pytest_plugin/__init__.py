"""The thin pytest adapter: options, collection, items and report hooks."""
