"""One store per pytest process, opened lazily from ``pacts_store`` / ``PACTS_STORE``."""

from __future__ import annotations

import pytest

from pytest_pacts import application
from pytest_pacts.pytest_plugin import options
from pytest_pacts.store import Store, StoreError, open_store

_STORE_KEY = pytest.StashKey[Store]()


def store_target(config: pytest.Config) -> str:
    return application.store_target(options.settings(config), config.rootpath)


def get_store(config: pytest.Config) -> Store:
    """The process's store; a store that cannot be opened is a usage error, said once."""
    if _STORE_KEY in config.stash:
        return config.stash[_STORE_KEY]
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
