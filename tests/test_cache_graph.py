"""The import scans kept in the results cache's directory (`spmdfix.cache_graph.ScanFile`), from which a
partial run's import graph is built: a module edited since is read again and its kept scan replaced, the
others are not read; a damaged, foreign or forged scans file is no scan (the modules are read again), never
an error; and a cached partial run through the command line reports what a run without the cache does."""

from __future__ import annotations

import os
import pickle
import time
from pathlib import Path

import pytest

from spmdfix import import_scan, project_graph, word_scan
from spmdfix import stamps as stamps_module
from spmdfix.cache_file import FORMAT, load_plain
from spmdfix.analysis.project_answers import HOLDING_KEY, IMPORTERS_OF_KEY, holding_digest, importers_digest
from spmdfix.cache_graph import AnswerFile, ListingFile, ScanFile, WordFile
from test_partial_runs import OTHER, TRAIN, spmdfix_process, standard


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The standard layout (config, model, train under src/pkg); a file just written is settled at once."""
    monkeypatch.setattr(stamps_module, "RACY_NS", 0)
    return standard(tmp_path / "project").resolve()


class Reads:
    """The modules the scan read from disk (not served by a kept scan) since the last `take`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.paths: list[str] = []
        original = import_scan.read_bytes

        def reading(path, *args, **kwargs):
            self.paths.append(os.fspath(path))
            return original(path, *args, **kwargs)

        monkeypatch.setattr(import_scan, "read_bytes", reading)

    def take(self) -> list[str]:
        taken, self.paths = sorted(self.paths), []
        return taken


def graph(root: Path, cache: Path) -> project_graph.ProjectGraph:
    """The import graph of `root` as a new process with the results cache in `cache` builds it."""
    import_scan._SCANNED.clear()
    project_graph.forget_graphs()
    import_scan.keep_scans_in(ScanFile(cache))
    try:
        return project_graph.graph_of(root)
    finally:
        import_scan.keep_scans_in(None)


def module(root: Path, name: str) -> str:
    return str(root / "src" / "pkg" / f"{name}.py")


def test_an_edited_module_is_read_again_and_its_kept_scan_replaced(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = project.parent / "cache"
    reads = Reads(monkeypatch)
    model, train = module(project, "model"), module(project, "train")
    assert set(graph(project, cache).importers_of(model)) == {train}
    assert train in reads.take()  # (the first build reads every module)
    kept = load_plain(ScanFile(cache).file)
    assert (0, "pkg.model", ("forward",)) in kept[train][2]
    assert set(graph(project, cache).importers_of(model)) == {train}
    assert reads.take() == []  # every module served by its kept scan
    Path(train).write_text("import jax\n")  # train.py no longer imports model.py
    assert graph(project, cache).importers_of(model) == {}
    assert reads.take() == [train]
    assert load_plain(ScanFile(cache).file)[train][2] == ((0, "jax", ()),)
    Path(train).write_text(TRAIN)
    assert set(graph(project, cache).importers_of(model)) == {train}
    assert reads.take() == [train]


def test_a_deleted_module_loses_its_scan(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = project.parent / "cache"
    other = module(project, "other")
    Path(other).write_text(OTHER)
    assert other in graph(project, cache).importers_of(module(project, "model"))
    Path(other).unlink()
    Path(module(project, "new")).write_text("import jax\n")  # (a scan to write: the file is written again)
    assert other not in graph(project, cache).importers_of(module(project, "model"))
    assert other not in load_plain(ScanFile(cache).file)


@pytest.mark.parametrize(
    "planted",
    [
        b"not a pickle at all",
        pickle.dumps((FORMAT + 1, {}), protocol=pickle.HIGHEST_PROTOCOL),  # another format
        pickle.dumps(("scans", [1, 2]), protocol=pickle.HIGHEST_PROTOCOL),
        pickle.dumps((FORMAT, {"x": object()})),  # a class: the loader refuses it
        "forged",  # entries with the modules' true stat keys and values of the wrong types
    ],
)
def test_a_damaged_foreign_or_forged_scans_file_is_no_scan(
    project: Path, monkeypatch: pytest.MonkeyPatch, planted: bytes | str
) -> None:
    cache = project.parent / "cache"
    cache.mkdir()
    file = ScanFile(cache).file
    model, train = module(project, "model"), module(project, "train")
    if planted == "forged":
        def now(path: str) -> tuple:
            return stamps_module.stat_key(os.stat(path))

        forged = {
            train: (now(train), 2**62, ((0, "pkg.model"),), True),  # an import of two fields
            model: (now(model), 2**62, (("1", "pkg", ()),), True),  # a level that is a string
            module(project, "config"): (now(module(project, "config")), 2**62, (), "yes"),
        }
        planted = pickle.dumps((FORMAT, forged), protocol=pickle.HIGHEST_PROTOCOL)
    file.write_bytes(planted)
    reads = Reads(monkeypatch)
    built = graph(project, cache)
    assert set(built.importers_of(model)) == {train}
    assert {train, model} <= set(reads.take())  # read again, not taken from the file
    assert load_plain(file)[train][2] == tuple((i.level, i.module, i.names) for i in import_scan.imports_of_file(train)[0])


def test_a_scan_taken_in_the_tick_of_the_last_change_is_not_served(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kept scan whose stat was taken within `RACY_NS` of the file's last change is not trusted (the same
    tick may hold another write that keeps the stat): the module is read again."""
    cache = project.parent / "cache"
    graph(project, cache)
    train = module(project, "train")
    kept = load_plain(ScanFile(cache).file)
    key = kept[train][0]
    kept[train] = (key, max(key[1], key[2]), *kept[train][2:])  # taken at the very time of the change
    ScanFile(cache).file.write_bytes(pickle.dumps((FORMAT, kept)))
    reads = Reads(monkeypatch)
    graph(project, cache)
    assert reads.take() == [train]


@pytest.mark.e2e
def test_a_cached_partial_run_follows_every_edit_of_the_project(tmp_path: Path) -> None:
    """Through the command line (a new process each run, the scans kept in the cache directory): the
    importer's vmap changed, a new importer, the importer's import removed; each cached run of model.py alone
    reports what a run without the cache reports, and the scans file is there."""
    root = standard(tmp_path)
    pkg = root / "src" / "pkg"
    time.sleep(stamps_module.RACY_NS / 1e9 + 0.2)  # every module settled: its scan may be kept

    def both() -> str:
        cached = spmdfix_process(root, "check", "-j", "1", "--output-format", "concise", "src/pkg/model.py")
        cold = spmdfix_process(root, "check", "-j", "1", "--no-cache", "--output-format", "concise", "src/pkg/model.py")
        assert cached.stdout == cold.stdout
        return cold.stdout

    assert "SPMD001" in both() and "SPMD001" in both()
    assert list((root / ".cache-test").glob("scans-*.pickle"))
    (pkg / "train.py").write_text(TRAIN.replace("from pkg.model import forward", "forward = None"))
    assert "SPMD001" not in both()
    (pkg / "other.py").write_text(OTHER)
    assert "SPMD001" in both()
    (pkg / "other.py").write_text(OTHER.replace('"data"', '"model"'))
    assert "SPMD001" not in both()


@pytest.mark.parametrize(
    "edits",
    [
        {"train": "import jax\n"},  # an importer that no longer imports
        {"config": "from pkg.model import forward\nimport importlib\n"},  # a new importer, importlib
        {"model": "from . import config\n", "train": TRAIN.replace("pkg.model", "pkg.config")},
        {"new": "from pkg.model import forward\n"},  # not a file of the project: left out, as a new graph does
    ],
)
def test_a_graph_with_unsaved_texts_is_what_a_new_graph_of_them_is(project: Path, edits: dict[str, str]) -> None:
    """`ProjectGraph.overlaid` (a language server's unsaved buffers over the kept graph, changing only their
    modules' edges) gives what a graph built from scratch with the same overlay gives, and leaves the kept
    graph as it was."""
    root = str(project)
    files, complete = project_graph.project_files(root)
    base = project_graph.ProjectGraph(root, files, complete)
    before = {p: base.importers_of(p) for p in files}, set(base.candidates), set(base.dynamic)
    overlay = {module(project, name): text for name, text in edits.items()}
    derived = base.overlaid(overlay)
    fresh = project_graph.ProjectGraph(root, files, complete, overlay)
    for path in files:
        assert derived.importers_of(path) == fresh.importers_of(path)
        assert derived.importers_with_dynamic(path) == fresh.importers_with_dynamic(path)
        assert derived.state(path) == fresh.state(path)
    assert derived.imports == fresh.imports and derived.candidates == fresh.candidates
    assert ({p: base.importers_of(p) for p in files}, set(base.candidates), set(base.dynamic)) == before


def test_a_refreshed_graph_is_built_again_only_when_a_file_changed(project: Path) -> None:
    """`graph_of(refresh=True)` (the language server's, at each edit) keeps its graph while the project's
    files and their stats are unchanged, and builds it again for a new, changed or deleted module."""
    project_graph.forget_graphs()
    import_scan._SCANNED.clear()
    first = project_graph.graph_of(project, refresh=True)
    assert project_graph.graph_of(project, refresh=True) is first
    other = module(project, "other")
    Path(other).write_text(OTHER)
    second = project_graph.graph_of(project, refresh=True)
    assert second is not first and other in second.importers_of(module(project, "model"))
    Path(other).write_text("import jax\n")
    third = project_graph.graph_of(project, refresh=True)
    assert third is not second and other not in third.importers_of(module(project, "model"))
    Path(other).unlink()
    assert other not in project_graph.graph_of(project, refresh=True).files


def test_a_listed_once_scope_lists_each_project_once(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Within `listed_once` (a language server's analysis of one edit) a second `graph_of(refresh=True)` of the
    same listing takes the graph the first gave, without listing the project again: a module added meanwhile
    is seen by the next scope, as one added just after it. Each listing (the partial run's, the judgement's)
    is listed once; outside a scope every refresh lists."""
    project_graph.forget_graphs()
    listings: list[bool] = []
    for name in ("_project_files", "_judged_files"):  # (what `graph_of` lists with: the files and why not whole)
        original = getattr(project_graph, name)
        monkeypatch.setattr(
            project_graph, name, lambda root, _o=original, _n=name: (listings.append(_n), _o(root))[1]
        )
    with project_graph.listed_once():
        first = project_graph.graph_of(project, refresh=True)
        judged = project_graph.graph_of(project, refresh=True, judged=True)
        other = module(project, "other")
        Path(other).write_text(OTHER)
        assert project_graph.graph_of(project, refresh=True) is first
        assert project_graph.graph_of(project, refresh=True, judged=True) is judged
        with project_graph.listed_once():  # (nested: one scope)
            assert project_graph.graph_of(project, refresh=True) is first
    assert listings == ["_project_files", "_judged_files"]
    with project_graph.listed_once():
        assert other in project_graph.graph_of(project, refresh=True).importers_of(module(project, "model"))
        assert other in project_graph.graph_of(project, refresh=True, judged=True).importers_of(module(project, "model"))
    assert listings == ["_project_files", "_judged_files"] * 2
    project_graph.graph_of(project, refresh=True)
    project_graph.graph_of(project, refresh=True)
    assert listings == ["_project_files", "_judged_files"] * 2 + ["_project_files"] * 2


def test_an_unsaved_buffer_of_a_new_file_is_a_module_of_the_overlaid_graph(project: Path) -> None:
    """`graph_of(overlay=...)` with the buffer of a module not on disk (an editor's new file): it imports and
    is imported as a module of the project (a file on disk importing it resolves to it), as a graph built over
    the listed files and it gives, `__import__` of a name not written as a literal makes it dynamic, and the kept
    graph stays as it was."""
    project_graph.forget_graphs()
    kept = project_graph.graph_of(project, refresh=True)
    new, model = module(project, "new"), module(project, "model")
    Path(module(project, "user")).write_text("from pkg.new import helper\n")
    kept = project_graph.graph_of(project, refresh=True)
    overlay = {new: "from pkg.model import forward\n\n\ndef helper(name):\n    return __import__(name)\n"}
    graph = project_graph.graph_of(project, overlay=overlay)
    assert new in graph.importers_of(model) and new in graph.dynamic
    assert graph.importers_of(new) == {module(project, "user"): frozenset({"helper"})}
    fresh = project_graph.ProjectGraph(str(project), sorted([*kept.files, new]), kept.complete, overlay)
    for path in fresh.files:
        assert graph.importers_with_dynamic(path) == fresh.importers_with_dynamic(path)
        assert graph.state(path) == fresh.state(path)
    assert new not in kept.files and new not in kept.importers_of(model)
    assert project_graph.graph_of(project, refresh=True) is kept


def test_the_word_listing_answers_as_the_graph_does(tmp_path) -> None:
    """`project_graph.WordListing` (a cold run's `holding`, with no import scan) gives the graph's answers:
    the same files, in path order, with the same digests; a file too large for the scan is left out by both."""
    from spmdfix import import_scan, project_graph, word_scan

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "probe"\n')
    (tmp_path / "a.py").write_text("class A:\n    def sum(self):\n        return 1\n")
    (tmp_path / "b.py").write_text("import a\nx = a.A().sum()\n")
    (tmp_path / "c.py").write_text("y = 2\n")
    (tmp_path / "big.py").write_text("# sum\n" + "z = 1\n" * (import_scan.SCAN_MAX_BYTES // 6 + 1))
    (tmp_path / "n.ipynb").write_text('{"cells": [{"cell_type": "code", "source": ["total = sum([1])"]}]}')
    root = str(tmp_path.resolve())
    project_graph.forget_graphs()
    listing = project_graph._word_listing(root)
    graph = project_graph.graph_of(root, judged=True)
    for word in ("sum", "setattr", "y = 2", "absent"):
        assert listing.holding(word) == graph.holding(word), word
    assert [p.rsplit("/", 1)[-1] for p, _ in listing.holding("sum")] == ["a.py", "b.py", "n.ipynb"]
    project_graph.forget_graphs()



class WordReads:
    """The files the project's word search read from disk (not served by a kept reading) since the last
    `take`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.paths: list[str] = []
        original = project_graph.read_bytes

        def reading(path, *args, **kwargs):
            self.paths.append(os.fspath(path))
            return original(path, *args, **kwargs)

        monkeypatch.setattr(project_graph, "read_bytes", reading)

    def take(self) -> list[str]:
        taken, self.paths = sorted(self.paths), []
        return taken


def words(root: Path, cache: Path, *asked: str) -> list:
    """The answers of `holding` for each word of `asked`, as a new process with the results cache in `cache`
    gives them (`project_graph.WordListing`, the store `cache_graph.WordFile`), its readings written after."""
    project_graph.forget_graphs()
    word_scan.keep_words_in(WordFile(cache))
    try:
        listing = project_graph._word_listing(str(root))
        return [listing.holding(word) for word in asked]
    finally:
        word_scan.flush_words()
        word_scan.keep_words_in(None)


def test_a_warm_word_search_reads_only_the_files_changed_since(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Which modules hold a word (hazard H2's method search) is kept by each file's stat key: a new process
    reads no file that did not change, answers as a fresh search does, and reads an edited file again."""
    cache = project.parent / "cache"
    reads = WordReads(monkeypatch)
    model, train = module(project, "model"), module(project, "train")
    first = words(project, cache, "shard_map", "__getattribute__")
    assert model in reads.take() and [p for p, _ in first[0]] == [model] and first[1] == ()
    assert words(project, cache, "shard_map", "__getattribute__") == first
    assert reads.take() == []  # every file served by its kept reading
    assert words(project, cache, "vmap")[0] == project_graph.WordListing(project_graph._judged_files(str(project))[0], True).holding("vmap")
    reads.take()
    Path(train).write_text(Path(train).read_text() + "\nclass Late:\n    def __getattribute__(self, name):\n        return 1\n")
    again = words(project, cache, "shard_map", "__getattribute__")
    assert reads.take() == [train]
    assert again[0] == first[0] and [p for p, _ in again[1]] == [train]
    word_scan.forget_words()
    project_graph.forget_graphs()
    assert again == [project_graph._word_listing(str(project)).holding(w) for w in ("shard_map", "__getattribute__")]


@pytest.mark.parametrize(
    "planted",
    [
        b"not a pickle at all",
        pickle.dumps((FORMAT + 1, {}), protocol=pickle.HIGHEST_PROTOCOL),  # another format
        pickle.dumps((FORMAT, {"x": object()})),  # a class: the loader refuses it
        "forged",  # entries with the modules' true stat keys and values of the wrong types, or false words
    ],
)
def test_a_damaged_or_forged_words_file_is_no_reading(project: Path, monkeypatch: pytest.MonkeyPatch, planted: bytes | str) -> None:
    cache = project.parent / "cache"
    cache.mkdir()
    file = WordFile(cache).file
    model, train = module(project, "model"), module(project, "train")
    if planted == "forged":
        def now(path: str) -> tuple:
            return stamps_module.stat_key(os.stat(path))

        forged = {
            model: (now(model), "", {"shard_map": 1}),  # a word's answer that is not a bool
            train: (now(train), 7, {"shard_map": False}),  # a digest that is not a string
            module(project, "config"): (now(module(project, "config")), "", ["shard_map"]),
        }
        planted = pickle.dumps((FORMAT, forged), protocol=pickle.HIGHEST_PROTOCOL)
    file.write_bytes(planted)
    reads = WordReads(monkeypatch)
    assert [p for p, _ in words(project, cache, "shard_map")[0]] == [model]
    assert {model, train} <= set(reads.take())  # read again, not taken from the file
    assert load_plain(file)[model][2] == {"shard_map": True}


def test_an_unsettled_file_s_reading_is_not_kept(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file changed within `RACY_NS` of its stat (the same clock tick may hold another write that keeps the
    stat) is read again by every process, never served from the store."""
    monkeypatch.setattr(stamps_module, "RACY_NS", 10**18)
    cache = project.parent / "cache"
    reads = WordReads(monkeypatch)
    words(project, cache, "shard_map")
    first = reads.take()
    assert module(project, "model") in first
    words(project, cache, "shard_map")
    assert reads.take() == first
    assert load_plain(WordFile(cache).file) == {}



def test_the_judgement_s_listing_of_a_new_process_lists_only_the_directories_changed_since(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The judgement's listing (`project_graph.judged_files`, which a warm run's word search makes again)
    starts from the directory records of earlier runs (`cache_graph.ListingFile`): an unchanged directory is
    not listed again, a directory that gained a module is, and the files are the same as a fresh walk's."""
    from spmdfix import discovery

    cache = project.parent / "cache"
    listed: list[str] = []
    scandir = os.scandir

    def listing(path):
        listed.append(os.fspath(path))
        return scandir(path)

    monkeypatch.setattr(discovery.os, "scandir", listing)

    def files() -> list[str]:
        project_graph.forget_graphs()
        project_graph.keep_listings_in(ListingFile(cache))
        try:
            return project_graph.judged_files(str(project))[0]
        finally:
            project_graph.flush_listings()
            project_graph.keep_listings_in(None)

    first = files()
    assert str(project / "src" / "pkg") in listed
    listed.clear()
    assert files() == first and listed == []
    new = project / "src" / "pkg" / "late.py"
    new.write_text("import jax\n")
    again = files()
    assert listed == [str(project / "src" / "pkg")]
    assert again == sorted([*first, str(new)])
    project_graph.forget_graphs()
    assert project_graph.judged_files(str(project))[0] == again


def answers(root: Path, cache: Path | None) -> tuple[dict[str, str], list[str]]:
    """Who imports model.py and which modules hold `shard_map`, as a new process with the results cache in
    `cache` answers them (`project_graph.answered`, the store `cache_graph.AnswerFile`; None: no store), and
    the questions it had to ask (not served from the store), its answers written after."""
    project_graph.forget_graphs()
    project_graph.keep_answers_in(AnswerFile(cache) if cache is not None else None)
    asked: list[str] = []
    key = str(root)
    model = module(root, "model")

    def importers() -> str:
        asked.append(IMPORTERS_OF_KEY)
        return importers_digest(project_graph.graph_of(key, judged=True).importers_with_dynamic(model))

    def holding() -> str:
        asked.append(HOLDING_KEY)
        return holding_digest(project_graph.holding_source(key)("shard_map"))

    try:
        got = {
            IMPORTERS_OF_KEY: project_graph.answered(key, IMPORTERS_OF_KEY + model, importers),
            HOLDING_KEY: project_graph.answered(key, HOLDING_KEY + "shard_map", holding),
        }
        return got, asked
    finally:
        project_graph.flush_answers()
        project_graph.keep_answers_in(None)


def test_a_warm_process_serves_the_project_s_answers_while_its_files_are_as_they_were(project: Path) -> None:
    """Who imports a module and who holds a word (what a cached result rests on, checked again by every warm
    run) are kept by the state of the project they were given for: a new process asks neither while no file
    is changed, added or removed and no package above the root appears, and asks both again after any of
    these, answering as a process without the store does."""
    cache = project.parent / "cache"
    first, asked = answers(project, cache)
    assert asked == [IMPORTERS_OF_KEY, HOLDING_KEY]
    assert answers(project, cache) == (first, [])
    train = Path(module(project, "train"))
    train.write_text("import jax\n")  # no longer imports model.py
    edited, asked = answers(project, cache)
    assert asked == [IMPORTERS_OF_KEY, HOLDING_KEY] and edited[IMPORTERS_OF_KEY] != first[IMPORTERS_OF_KEY]
    assert edited == answers(project, None)[0]
    assert answers(project, cache) == (edited, [])
    late = project / "src" / "pkg" / "late.py"
    late.write_text("from pkg import model\n")
    added, asked = answers(project, cache)
    assert asked == [IMPORTERS_OF_KEY, HOLDING_KEY] and added[IMPORTERS_OF_KEY] != edited[IMPORTERS_OF_KEY]
    late.unlink()
    assert answers(project, cache) == (edited, [IMPORTERS_OF_KEY, HOLDING_KEY])
    (project.parent / "__init__.py").write_text("")  # the root is now a package of the directory above
    assert answers(project, cache)[1] == [IMPORTERS_OF_KEY, HOLDING_KEY]


def test_answers_about_a_project_with_an_unsettled_file_are_not_kept(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file changed within `RACY_NS` of its stat may change again without its stat key showing it: each
    process asks again, and nothing is written for the project."""
    monkeypatch.setattr(stamps_module, "RACY_NS", 10**18)
    cache = project.parent / "cache"
    first, asked = answers(project, cache)
    assert asked == [IMPORTERS_OF_KEY, HOLDING_KEY]
    assert answers(project, cache) == (first, asked)
    assert load_plain(AnswerFile(cache).file) == {}


@pytest.mark.parametrize("planted", [b"not a pickle at all", "another state", "forged"])
def test_a_damaged_or_forged_answers_file_is_no_answer(project: Path, planted: bytes | str) -> None:
    """Answers kept for another state of the project, or not of the kept types, are asked again."""
    cache = project.parent / "cache"
    cache.mkdir()
    file = AnswerFile(cache).file
    state = project_graph.judged_state(str(project))
    assert state is not None
    questions = [IMPORTERS_OF_KEY + module(project, "model"), HOLDING_KEY + "shard_map"]
    if planted == "another state":
        planted = pickle.dumps((FORMAT, {str(project): ("0" * 32, dict.fromkeys(questions, "x"))}))
    elif planted == "forged":
        planted = pickle.dumps((FORMAT, {str(project): (state, dict.fromkeys(questions, 7))}))
    file.write_bytes(planted)
    got, asked = answers(project, cache)
    assert asked == [IMPORTERS_OF_KEY, HOLDING_KEY] and got == answers(project, None)[0]
    assert load_plain(file)[str(project)] == (state, {questions[0]: got[IMPORTERS_OF_KEY], questions[1]: got[HOLDING_KEY]})


H2_MAIN = """\
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))


def body(b, s):
    return s.sum(b)


def run(xs, s):
    f = jax.shard_map(lambda b: body(b, s), mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    return jax.vmap(f, spmd_axis_name="x")(xs)
"""


@pytest.mark.e2e
def test_a_cached_check_follows_the_module_giving_a_method_hazard_h2_asks_about(tmp_path: Path) -> None:
    """Hazard H2 keys `s.sum(b)` as `Array.sum` only when no class of the project defines `sum`
    (`importers.method_definer`); the answer rests on the module found defining it (recorded alone) or, none
    found, on every module holding the word. A cached run sees each edit: a definer added, changed, removed."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "probe"\n')
    (tmp_path / "main.py").write_text(H2_MAIN)
    (tmp_path / "other.py").write_text("TOTAL = sum([1, 2])\n")
    time.sleep(stamps_module.RACY_NS / 1e9 + 0.2)

    def both() -> str:
        args = ("check", "-j", "1", "--show-fixes", "--output-format", "full", "main.py")
        cached = spmdfix_process(tmp_path, *args)
        cold = spmdfix_process(tmp_path, *args[:3], "--no-cache", *args[3:])
        assert cached.stdout == cold.stdout
        return cold.stdout

    safe = "fix [safe] add-axis"
    assert safe in both() and safe in both()
    (tmp_path / "other.py").write_text("class Summer:\n    def sum(self, b):\n        return b\n")
    assert safe not in both() and safe not in both()
    (tmp_path / "other.py").write_text("class Summer:\n    def total(self, b):\n        return b\n")
    assert safe in both()


def test_an_answer_from_a_graph_listed_before_the_state_was_taken_is_not_kept(project: Path) -> None:
    """A run that built the judged graph (a cache miss's analysis) before its first `answered` takes the
    project's state: a module added in between, settled by then, is in the state but not in the graph's
    answer. Kept under that state, the stale answer was served to every later process while no file changed
    (a cached result resting on it trusted again); it is answered, not kept (breaker21)."""
    cache = project.parent / "cache"
    key, model = str(project), module(project, "model")
    project_graph.forget_graphs()
    project_graph.keep_answers_in(AnswerFile(cache))
    try:
        project_graph.graph_of(key, judged=True)  # (the miss's analysis, early in the run)
        (project / "src" / "pkg" / "late.py").write_text("from pkg import model\n")  # (edited during the run)

        def importers() -> str:  # (as `cache_keys.importers_of_state` asks it)
            return importers_digest(project_graph.graph_of(key, judged=True).importers_with_dynamic(model))

        project_graph.answered(key, IMPORTERS_OF_KEY + model, importers)
    finally:
        project_graph.flush_answers()
        project_graph.keep_answers_in(None)
    later, _ = answers(project, cache)
    assert later[IMPORTERS_OF_KEY] == answers(project, None)[0][IMPORTERS_OF_KEY]
