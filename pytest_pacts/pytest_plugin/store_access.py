"""One store per pytest process, opened lazily from ``pacts_store`` / ``PACTS_STORE``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from pytest_pacts.pytest_plugin import options

if TYPE_CHECKING:
    from pytest_pacts.store import Store

# The store (and the application layer) are imported when first asked for: collection
# never opens the store.
_STORE_KEY = pytest.StashKey["Store"]()


def store_target(config: pytest.Config) -> str:
    from pytest_pacts import application

    return application.store_target(options.settings(config), config.rootpath)


def get_store(config: pytest.Config) -> Store:
    """The process's store; a store that cannot be opened is a usage error, said once."""
    if _STORE_KEY in config.stash:
        return config.stash[_STORE_KEY]
    from pytest_pacts.store import StoreError, open_store

    target = store_target(config)
    try:
        store = open_store(target)
    except StoreError as exc:
        raise pytest.UsageError(f"pacts: cannot open the store ({exc})") from None
    config.stash[_STORE_KEY] = store
    return store


def close_store(config: pytest.Config) -> None:
    store = config.stash.get(_STORE_KEY, None)
    if store is not None:
        store.close()
        del config.stash[_STORE_KEY]
