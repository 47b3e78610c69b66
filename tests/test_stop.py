"""A stop whose exception Python dropped (raised in a weakref callback or `__del__`) is raised again
at the next piece of work: a Ctrl-C is never lost."""
from __future__ import annotations

import os
import signal

import pytest

from koloda.sim.stop import Terminated, sigterm_stops, stop_if_asked


def test_a_ctrl_c_that_was_dropped_is_raised_at_the_next_check():
    with sigterm_stops() as seen:
        stop_if_asked()                              # nothing came: nothing raised
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
        assert seen.interrupted
        with pytest.raises(KeyboardInterrupt):      # as if the first had been dropped
            stop_if_asked()
    stop_if_asked()                                  # outside a run nothing is asked


def test_a_dropped_sigterm_is_raised_as_terminated():
    with sigterm_stops() as seen:
        seen.terminated = True
        with pytest.raises(Terminated):
            stop_if_asked()
