"""A page still answering the run's last action: a route still loading, a view still drawn
from its sockets. Either keeps a missing element from being judged missing, for a bounded
time.

Both are the page's own activity after the later of its last ``load`` and the run's last
action on it (``EnvMonitor.began_at``), seen through Playwright's own events, with no round
trip:

- :func:`loading`: a script chunk or data the page's scripts asked for after the last
  action (a request of the readiness kinds answered once the document had loaded: a
  single-page app's route, which loads its code and then its data) is still on its way, or
  was answered less than :data:`ANSWER_QUIET_MS` ago. A script is fetched, then run
  (HTML's "execute the script block" comes after the fetch completes, in a task of its
  own), and what it renders
  from its data comes later still, with the DOM unchanged meanwhile: a page can look quiet
  (two animation frames with no DOM change, no request open) between an answer and what it
  draws from it. Verdaccio 6.8.0 draws its package list after its ``Front`` chunk and the
  list's data both arrive, about a second later under load (a probe: ``settled`` true for
  the whole gap), and on an idle machine its recorded links were judged missing in the gap
  (docs/real-apps.md, "Verdaccio on an idle machine"); doccano 1.8.4's sidebar the same way
  (REQ-DOCCANO-004). WebSockets and event streams are not requests of those kinds.
- :func:`drawing`: one of its WebSockets opened, received or sent a message less than the
  readiness cap ago while its DOM changed too (marimo draws a notebook's outputs from its
  kernel's messages; docs/engine.md).

Both are bounded by :data:`ANSWER_CAP_MS` from the later of the last load and the last
action: activity after that is the page's own life (a poller, a live feed such as
OctoPrint's status socket, which changes the DOM every second for as long as the page
lives), not its answer, and a step whose element is missing goes to healing then rather
than at its timeout (issue 40).
"""

from __future__ import annotations

import time

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Request

from pytest_pacts.engine.env import EnvMonitor

# How long after an answer the page is given to run it and draw what it brought: as long as
# discovery's wait on a page that changed (``finder.QUIET_MS``).
ANSWER_QUIET_MS = 1_000.0
# How long after the later of the page's last load and the run's last action its activity
# counts as its answer to them (twice the readiness cap, ``waiting.READY_CAP_MS``).
ANSWER_CAP_MS = 5_000.0
# Requests that are never a stream: a script chunk ends (a fetch or XHR may be a long-poll,
# and counts only while young, as ``EnvMonitor.busy`` counts it)
_ENDS: frozenset[str] = frozenset({"script"})


def _since_began_ms(monitor: EnvMonitor) -> float:
    return (time.monotonic() - monitor.began_at()) * 1000.0


def loading(monitor: EnvMonitor) -> bool:
    """The page is still loading what its scripts asked for after the run's last action,
    within :data:`ANSWER_CAP_MS` of the later of that and its last load: its document has
    loaded, and a script started since is still open (``load`` waits for every script the
    document asked for while it loaded: this one a script asked for), or a request of the
    readiness kinds started since was answered less than :data:`ANSWER_QUIET_MS` ago."""
    now = time.monotonic()
    if not monitor.has_loaded or (now - monitor.began_at()) * 1000.0 >= ANSWER_CAP_MS:
        return False
    acted = monitor.acted_mono()
    for request, started in monitor.open_requests().items():
        if started >= acted and _kind(request) in _ENDS:
            return True
    return monitor.answer_at >= acted and (now - monitor.answer_at) * 1000.0 < ANSWER_QUIET_MS


def _kind(request: Request) -> str:
    try:
        return request.resource_type
    except PlaywrightError:
        return ""


def drawing(monitor: EnvMonitor, patience_ms: float, quiet_ms: float | None) -> bool:
    """The page may still be drawing what its WebSockets bring: one of them opened,
    received or sent a message less than ``patience_ms`` ago, and the DOM changed less
    than that long ago too (``quiet_ms``: how long it has been unchanged; None, not
    known). A notebook served as an app (marimo) mounts its cells empty, goes quiet, and
    draws their outputs from the kernel's messages, with quiet gaps between them; no
    request is open meanwhile. The DOM's part bounds it as for requests
    (``gate.stalled``): a socket that streams while nothing is drawn holds nothing once the
    DOM has been unchanged for ``patience_ms``; and :data:`ANSWER_CAP_MS` bounds a feed
    that changes the DOM with every message, for as long as the page lives."""
    at = monitor.socket_at
    if not at or time.monotonic() - at > patience_ms / 1000.0:
        return False
    if _since_began_ms(monitor) >= ANSWER_CAP_MS:
        return False
    return quiet_ms is None or quiet_ms < patience_ms
