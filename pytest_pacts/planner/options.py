"""How requirement files are read and planned (:class:`LoaderOptions`), in a module of its
own that imports neither the loader nor the models: the pytest layer builds it at every
collection, also when every plan comes from the plan cache (``plan_cache.py``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_pacts.planner.readers.limits import MIB, ReadLimits
from pytest_pacts.settings import PactsSettings

if TYPE_CHECKING:
    from pytest_pacts.planner.blocks import BlockDefinition

DEFAULT_MAX_FILE_BYTES = int(PactsSettings.max_file_mb * MIB)


@dataclass(frozen=True)
class LoaderOptions:
    """What planning needs from configuration (the pytest layer fills it from ini/CLI)."""

    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    secret_vars: frozenset[str] = frozenset()
    # a mapping read only when a file is planned: the pytest layer's reads the blocks files
    # on first use, so a collection served by the plan cache never parses them
    shared_blocks: Mapping[str, BlockDefinition] = field(default_factory=dict)
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    limits: ReadLimits = field(default_factory=ReadLimits)
    check_env: bool = True
    # Where documents read before are kept (readers/cache.py); None reads every file afresh.
    # The pytest layer passes <rootdir>/.pacts/cache/documents.
    cache_dir: Path | None = None
