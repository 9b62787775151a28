"""The Numba cache refresher deletes cached kernels when a source changes, else nothing."""

import os

from tavli.engine.numba_cache import refresh, sources_stamp


def test_refresh_deletes_cached_kernels_after_a_source_edit(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "__pycache__").mkdir(parents=True)
    src = pkg / "kernels.py"
    src.write_text("import numba\nfrom . import helper\n")
    (pkg / "helper.py").write_text("K = 1\n")
    (pkg / "ui.py").write_text("print(1)\n")
    cached = [pkg / "__pycache__" / "kernels.f-1.py311.nbi",
              pkg / "__pycache__" / "kernels.f-1.py311.1.nbc"]
    for c in cached:
        c.write_bytes(b"old")
    assert refresh(pkg) is True            # first call: no stamp yet, caches go
    assert not any(c.exists() for c in cached)
    for c in cached:
        c.write_bytes(b"new")
    assert refresh(pkg) is False           # nothing changed: caches stay
    assert all(c.exists() for c in cached)
    before = sources_stamp(pkg)
    src.write_text("import numba\nfrom . import helper  # edited\n")
    os.utime(src, ns=(src.stat().st_atime_ns, src.stat().st_mtime_ns + 10**9))
    assert sources_stamp(pkg) != before
    assert refresh(pkg) is True            # a kernel module edited: caches go
    assert not any(c.exists() for c in cached)
    for c in cached:
        c.write_bytes(b"new")
    (pkg / "helper.py").write_text("K = 2  # a constant a kernel reads\n")
    assert refresh(pkg) is True            # a module a kernel imports: caches go
    assert not any(c.exists() for c in cached)
    for c in cached:
        c.write_bytes(b"new")
    (pkg / "ui.py").write_text("print(2)  # no kernel imports this\n")
    assert refresh(pkg) is False           # a module no kernel reaches: caches stay
    assert all(c.exists() for c in cached)
    other = pkg / "other.txt"
    other.write_text("not a source")
    assert refresh(pkg) is False           # only .py files count
