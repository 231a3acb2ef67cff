"""Entry points are kept in the cache, and a distribution installed or removed is seen by the next call."""

import sys
import time

from pbem.core.plugins import plugins


def _install(site, name: str, entries: str) -> None:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[pbem.test]\n{entries}\n", encoding="utf-8")


def _touch_later(path) -> None:
    """Folders' times have coarse steps on some file systems: wait until a change shows."""
    before = path.stat().st_mtime_ns
    while path.stat().st_mtime_ns == before:
        time.sleep(0.01)
        path.touch()


def test_entry_points_are_kept_and_a_new_distribution_is_found(tmp_path, monkeypatch):
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    _install(site, "first_game", "zeta = json:dumps\nalpha = json:loads")
    assert [p.name for p in plugins("pbem.test")] == ["alpha", "zeta"]
    assert plugins("pbem.test")[0].load() is __import__("json").loads
    assert (tmp_path / "cache" / "entry-points").is_dir()  # kept for the next process

    _install(site, "second_game", "beta = json:JSONDecoder")
    _touch_later(site)
    assert [p.name for p in plugins("pbem.test")] == ["alpha", "beta", "zeta"]
    assert plugins("pbem.test")[1].load() is __import__("json").JSONDecoder
