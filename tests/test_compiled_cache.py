"""The cache of what a process would rather not make again (pbem.core.cache): compiled templates and
parsed data files give the same results cold or warm, a changed template is compiled again, a bad entry
is never trusted, and entries unread for long go."""

from __future__ import annotations

import datetime
import os
import shutil
import sys
import time
from pathlib import Path

import jinja2
import pytest
import yaml

from pbem.core import yamlio
from pbem.core.cache import UNUSED_DAYS, cache_dir, cache_key, read_cached, write_cached
from pbem.core.errors import InputError
from pbem.core.yamlio import load_packaged
from pbem.render import templates
from pbem.render.templates import template
from pbem.rulesets.qmg import content as qmg_content
from pbem.rulesets.undaunted import content as undaunted_content


@pytest.fixture
def game(tmp_path, monkeypatch):
    """A game package of this test's own, with one template, and a cache folder of its own."""
    package = tmp_path / "code" / "cachedgame"
    (package / "templates").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "code"))
    monkeypatch.delitem(sys.modules, "cachedgame", raising=False)  # another test's package of that name
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path / "cache"))
    templates.template_environment.cache_clear()  # as a new process: nothing compiled in memory
    yield package / "templates"
    templates.template_environment.cache_clear()


def fresh_render(name: str, **values) -> str:
    templates.template_environment.cache_clear()
    return template("cachedgame", name).render(**values)


def compiles(monkeypatch) -> list[str]:
    """The names of the templates jinja compiles from here on."""
    compiled: list[str] = []
    original = jinja2.Environment.compile

    def counting(self, source, name=None, *args, **kwargs):
        compiled.append(name)
        return original(self, source, name, *args, **kwargs)
    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return compiled


def test_a_warm_cache_gives_the_bytes_of_a_cold_one_without_compiling(game, monkeypatch):
    (game / "r.html.j2").write_text("{{ who | html }} <b>{{ n }}</b>\n", encoding="utf-8")
    compiled = compiles(monkeypatch)
    cold = fresh_render("r.html.j2", who="<Ann>", n=3)
    assert compiled == ["r.html.j2"] and cold == "&lt;Ann&gt; <b>3</b>\n"
    assert fresh_render("r.html.j2", who="<Ann>", n=3) == cold
    assert compiled == ["r.html.j2"]  # the second process read it from the cache


def test_a_changed_template_is_compiled_again(game, monkeypatch):
    (game / "r.md.j2").write_text("old {{ n }}\n", encoding="utf-8")
    assert fresh_render("r.md.j2", n=1) == "old 1\n"
    (game / "r.md.j2").write_text("new {{ n }}\n", encoding="utf-8")
    compiled = compiles(monkeypatch)
    assert fresh_render("r.md.j2", n=1) == "new 1\n" and compiled == ["r.md.j2"]


def test_escaping_and_plain_text_never_share_an_entry(game):
    (game / "r.html.j2").write_text("{{ t }}\n", encoding="utf-8")
    (game / "r.md.j2").write_text("{{ t }}\n", encoding="utf-8")
    assert fresh_render("r.md.j2", t="<i>") == "<i>\n"
    assert fresh_render("r.html.j2", t="<i>") == "&lt;i&gt;\n"
    assert fresh_render("r.md.j2", t="<i>") == "<i>\n"


def test_a_corrupt_entry_is_made_again(game, monkeypatch):
    (game / "r.md.j2").write_text("x{{ n }}\n", encoding="utf-8")
    fresh_render("r.md.j2", n=1)
    [entry] = (cache_dir() / "templates").iterdir()
    entry.write_bytes(entry.read_bytes()[:-7] + b"garbage")
    compiled = compiles(monkeypatch)
    assert fresh_render("r.md.j2", n=2) == "x2\n" and compiled == ["r.md.j2"]


def test_an_entry_reads_back_only_whole(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path))
    key = cache_key("a", "b")
    assert key != cache_key("a\0b") and read_cached("kind", key) is None
    write_cached("kind", key, b"body")
    assert read_cached("kind", key) == b"body"
    path = tmp_path / "kind" / key
    path.write_bytes(path.read_bytes()[:-1])
    assert read_cached("kind", key) is None
    assert [p.name for p in (tmp_path / "kind").iterdir()] == [key]  # nothing left beside it


def test_an_unwritable_cache_costs_only_time(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path / "file"))  # a folder can't be made there
    write_cached("kind", "k", b"body")
    assert read_cached("kind", "k") is None


def test_entries_unread_for_a_while_go_when_one_of_their_kind_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path))
    long_ago = time.time() - (UNUSED_DAYS + 1) * 86400
    for kind, key in (("kind", "unused"), ("kind", "read"), ("other", "unused")):
        write_cached(kind, key, b"body")
        os.utime(tmp_path / kind / key, (long_ago, long_ago))
    assert read_cached("kind", "read") == b"body"  # read again: used
    write_cached("kind", "new", b"body")
    assert sorted(entry.name for entry in (tmp_path / "kind").iterdir()) == ["new", "read"]
    assert (tmp_path / "other" / "unused").exists()  # until one of its own kind is written


def test_a_data_file_parsed_once_reads_back_the_same(tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path))
    editions = Path(yamlio.__file__).parents[1] / "rulesets" / "axis_allies" / "editions"
    texts = [path.read_text(encoding="utf-8") for path in sorted(editions.glob("*/*.yaml"))]
    parsed = [yaml.safe_load(text) for text in texts]
    assert [load_packaged(text) for text in texts] == parsed  # parsed, and kept
    with monkeypatch.context() as patched:
        patched.setattr(yamlio.yaml, "load", None)  # read back without parsing
        assert [load_packaged(text) for text in texts] == parsed
    for entry in (tmp_path / "packaged-yaml").iterdir():
        write_cached("packaged-yaml", entry.name, b"not marshal data")
    assert [load_packaged(text) for text in texts] == parsed  # parsed again
    assert load_packaged("day: 2026-11-27") == load_packaged("day: 2026-11-27") == {"day": datetime.date(2026, 11, 27)}


@pytest.mark.parametrize("content, making, edited, old, new, said", [
    (undaunted_content, "_checked", "units.yaml", ", defence: 2,", ", defense: 2,", ["units.yaml", "defence"]),
    (qmg_content, "load_document", "cards.yaml", "\nbasic:", "\nbasics:",
     ["cards.yaml: (document): does not follow its format: KeyError 'basic'"]),
])
def test_a_content_pack_made_once_is_made_again_when_a_file_changes(tmp_path, monkeypatch, content, making, edited,
                                                                     old, new, said):
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path / "cache"))
    pack = tmp_path / "pack"
    shutil.copytree(Path(content.__file__).with_name("content"), pack)
    first = content.load_pack(pack)
    with monkeypatch.context() as patched:
        patched.setattr(content, making, None)  # kept: neither parsed nor checked again
        assert content.load_pack(pack) == first
    changed = pack / edited
    changed.write_text(changed.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    with pytest.raises(InputError) as error:
        content.load_pack(pack)
    assert all(words in str(error.value) for words in said), error.value
