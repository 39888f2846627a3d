"""The healing ladder (docs/healing.md): evidence-based, and it abstains.

Public surface:

- :class:`HealingLadder`: the :class:`~pytest_pacts.engine.contracts.Healer` the executor
  calls, one round per ``heal(ctx)``, then ``confirm`` / ``reject`` after the retry;
- the rungs, each a :class:`~pytest_pacts.engine.contracts.Rung` in its own module:
  :class:`AlternateRung`, :class:`RepairRung`, :class:`RediscoveryRung`,
  :class:`MemoryRung`, :class:`SimilarityRung`, :class:`ExtensionRung`, :class:`HumanRung`;
- :func:`judge`, the abstain rule; :data:`WEIGHTS`, the similarity weights;
- rung 6 calls extensions: the pytest layer feeds it the ``pytest_pacts_heal_candidates`` hook
  (``pytest_pacts/pytest_plugin/hookspecs.py``).

See ``docs/healing.md``. Never imports pytest.
"""

from __future__ import annotations

from pytest_pacts.engine.healing.abstain import Verdict, judge
from pytest_pacts.engine.healing.alternate import AlternateRung
from pytest_pacts.engine.healing.extension import ExtensionRung
from pytest_pacts.engine.healing.human import HumanRung
from pytest_pacts.engine.healing.ladder import HealingLadder, default_rungs
from pytest_pacts.engine.healing.memory import MemoryRung
from pytest_pacts.engine.healing.rediscovery import RediscoveryRung
from pytest_pacts.engine.healing.repair import RepairRung
from pytest_pacts.engine.healing.scoring import WEIGHTS, Ranking, Scored, rank_page, settle
from pytest_pacts.engine.healing.similarity import SimilarityRung

__all__ = [
    "WEIGHTS",
    "AlternateRung",
    "ExtensionRung",
    "HealingLadder",
    "HumanRung",
    "MemoryRung",
    "Ranking",
    "RediscoveryRung",
    "RepairRung",
    "Scored",
    "SimilarityRung",
    "Verdict",
    "default_rungs",
    "judge",
    "rank_page",
    "settle",
]
