"""Memory policies: the collector paused and restored as it was; Arrow's allocator chosen."""

from __future__ import annotations

import gc

import pyarrow as pa
import pytest

from recallscore_nb.execution.memory import (lean_arrow_memory, paused_collector,
                                             with_collector_paused)


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_then_left_as_it_was_after_an_error_too(enabled):
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        with paused_collector():
            assert not gc.isenabled()
        assert gc.isenabled() is enabled
        with pytest.raises(KeyboardInterrupt), paused_collector():
            raise KeyboardInterrupt
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_a_wrapped_function_runs_paused_and_keeps_its_name():
    def probe(x):
        """doc"""
        return x, gc.isenabled()

    wrapped = with_collector_paused(probe)
    assert (wrapped.__name__, wrapped.__doc__) == ("probe", "doc")
    assert wrapped(3) == (3, False) and gc.isenabled()


def test_arrow_allocates_through_jemalloc_when_it_has_it():
    before = pa.default_memory_pool()
    try:
        lean_arrow_memory()
        try:
            pa.jemalloc_memory_pool()
        except NotImplementedError:
            assert pa.default_memory_pool().backend_name == before.backend_name
        else:
            assert pa.default_memory_pool().backend_name == "jemalloc"
    finally:
        pa.set_memory_pool(before)


def test_malloc_is_told_its_mmap_threshold_where_it_is_glibc():
    import platform

    from recallscore_nb.execution.memory import lean_malloc

    assert lean_malloc() is (platform.libc_ver()[0] == "glibc")
