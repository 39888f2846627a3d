"""Sheets written by doing (``pacts record``) and from other tools' recordings (``pacts
import``); docs/user-guide.md, "Record a sheet".

``Recorder().start(page)`` ... ``recorder.stop()`` records what is done on ``page`` (a test
drives it with Playwright clicks and typing); :func:`write_recording` writes the result as
``.req.yaml``, ``.req.json`` or ``.xlsx``.
"""

from pytest_pacts.recording.model import RecordedStep, Recording
from pytest_pacts.recording.recorder import Recorder
from pytest_pacts.recording.writers import write_recording

__all__ = ["RecordedStep", "Recorder", "Recording", "write_recording"]
