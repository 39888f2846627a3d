"""The package version, in a module that imports nothing, for code that must not import the
package's ``__init__`` (the document cache keys its entries with it)."""

__version__ = "0.1.0"
