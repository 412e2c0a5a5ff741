"""The page in a real browser: Debian's chromium driven by Playwright.

Skipped where Playwright or chromium is absent; ``.ci/run`` installs both and sets
``COREFUD_REQUIRE_BROWSER`` so that there their absence fails.
``COREFUD_SCREENSHOTS=DIR`` keeps the screenshots (``docs/``, which docs/web.md shows).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, run_cli
from webserver import leftovers, running_server

if os.environ.get("COREFUD_REQUIRE_BROWSER"):
    # CI installs both: there a missing one is a failure, not a skip.
    import fastapi, playwright.sync_api as sync_api, uvicorn  # noqa: E401, F401
    CHROMIUM = shutil.which("chromium")
    assert CHROMIUM, "COREFUD_REQUIRE_BROWSER is set but chromium is not installed"
else:
    pytest.importorskip("fastapi")
    pytest.importorskip("uvicorn")
    sync_api = pytest.importorskip("playwright.sync_api")
    CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine (apt-get install chromium)", allow_module_level=True)

EXAMPLE = FIXTURES / "example"
SEED = FIXTURES / "seed"
ANAPHORA = FIXTURES / "anaphora"
# Chromium's own calls home are refused on these machines; keep it quiet.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    temp = tmp_path_factory.mktemp("browser-server")
    with running_server(temp) as port:
        yield {"url": f"http://127.0.0.1:{port}/", "temp": temp}


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


def _shot(page, name):
    folder = os.environ.get("COREFUD_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def test_score_the_example_then_a_broken_file(server, browser, tmp_path):
    page = browser.new_page(viewport={"width": 1150, "height": 900})
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(server["url"])
    assert "only this machine can reach it" in page.locator("#where").inner_text()
    # The seed has a default; the resampling counts are off unless given.
    assert page.get_attribute("#opt-seed", "placeholder") == "default: 12345"
    assert page.get_attribute("#opt-confidence", "placeholder") == "off (true: 1000)"
    assert page.request.get(server["url"] + "favicon.ico").status == 200
    # The basic settings are in sight, the rest folded.
    assert page.locator("#opt-match").is_visible() and not page.locator("#opt-sync").is_visible()
    page.set_input_files("#key", str(EXAMPLE / "key.conllu"))
    page.set_input_files("#responses", str(EXAMPLE / "response.conllu"))
    page.check("#opt-keep_singletons")
    page.click("#score")
    page.wait_for_selector("#results:not([hidden])")

    expected = run_cli(EXAMPLE / "key.conllu", EXAMPLE / "response.conllu", "-s", "--per-doc", "--output", "json").json
    conll = page.locator("#score-table tr[data-metric=conll] td.f1").inner_text()
    assert conll == f"{100 * expected['metrics']['conll']['f1']:.2f}"
    # 1.2's text for this call prints MUC F1 61.53.
    assert page.locator("#score-table tr[data-metric=muc] td.f1").inner_text() == "61.54"

    walk = [row for row in expected["per_document"] if row["document"] == "walk"][0]
    muc_f1 = walk["muc_f1"] if "muc_f1" in walk else walk["metrics"]["muc"]["f1"]
    row = page.locator("#doc-table tr[data-document=walk]")
    assert f"{100 * muc_f1:.2f}" in row.inner_text()
    assert page.locator("#chart svg rect").count() >= 8
    _shot(page, "web-scores.png")
    # Sorting by a column puts the lower CoNLL F1 first and then last.
    header = page.locator("#doc-table th", has_text="conll f1")
    header.click()
    order = page.locator("#doc-table tbody tr").evaluate_all("rows => rows.map(r => r.dataset.document)")
    header.click()
    assert page.locator("#doc-table tbody tr").evaluate_all("rows => rows.map(r => r.dataset.document)") == order[::-1]
    with page.expect_download() as download:
        page.click("#download-json")
    saved = tmp_path / "scores.json"
    download.value.save_as(saved)
    assert saved.read_text().startswith("{")

    broken = tmp_path / "broken.conllu"
    broken.write_text((EXAMPLE / "response.conllu").read_text().replace("Entity=r3)", "_", 1))
    page.set_input_files("#responses", str(broken))
    page.click("#score")
    error = page.locator("#responses-error")
    error.wait_for(state="visible")
    assert error.inner_text().startswith("broken.conllu:11: malformed Entity annotation: Mention r3 opened")
    assert page.locator("#key-error").inner_text() == ""
    _shot(page, "web-error.png")

    if page.locator("#responses").evaluate("input => input.multiple") and page.locator("#opt-paired_bs").count():
        # Several systems side by side, with the paired bootstrap against the first.
        page.set_input_files("#key", str(EXAMPLE / "key.conllu"))
        page.set_input_files("#responses", [str(EXAMPLE / "response.conllu"), str(EXAMPLE / "key.conllu")])
        page.click("details[data-section=systems] summary")
        page.fill("#opt-paired_bs", "200")
        page.fill("#opt-confidence", "200")
        page.click("#score")
        page.wait_for_selector("#tests-box:not([hidden])")
        assert page.locator("#score-table thead tr").first.locator("th").all_inner_texts()[1:] == \
            ["response.conllu", "key.conllu"]
        perfect = page.locator("#score-table tr[data-metric=conll] td.f1").nth(1).inner_text()
        assert perfect.startswith("100.00")
        assert page.locator("#tests-table tr").count() > 1
        # Two documents: the page shows the command line's warning about them.
        assert "rest on 2 documents, fewer than 30" in page.locator("#warnings").inner_text()
        _shot(page, "web-systems.png")

    page.goto(server["url"] + "docs")
    page.wait_for_selector("h2")
    headings = page.locator("h2").all_inner_texts()
    assert "POST /api/score" in headings and "GET /api/health" in headings
    assert page.locator("td", has_text="keep_singletons").count() == 1
    # Nothing fetched from elsewhere, by the page or by the API's documentation.
    assert requested and all(url.startswith(server["url"]) or url.startswith("blob:") for url in requested), requested
    page.close()
    assert leftovers(server["temp"]) == []


def test_options_follow_the_files_format(server, browser):
    """A CoNLL-2012 key greys out what its profile refuses, with the reason;
    UA files take split antecedents, which set singletons as the command
    line does, and score as it scores them."""
    page = browser.new_page(viewport={"width": 1150, "height": 900})
    page.goto(server["url"])
    page.set_input_files("#key", str(SEED / "pradhan2014.key.conll"))
    page.wait_for_function("document.querySelector('#format-note').textContent.includes('CoNLL-2012')")
    page.click("details[data-section=mentions] summary")
    split = page.locator("#opt-keep_split_antecedents")
    assert split.is_disabled()
    note = page.locator(".option[data-field=keep_split_antecedents] .why").inner_text()
    assert note == "CoNLL-2012 files: the CoNLL-2012 format has no split antecedents"
    match_note = page.locator(".option[data-field=match] .why").inner_text()
    assert match_note.startswith("partial, partial-corefud, head: not for CoNLL-2012 files: needs mention heads")
    assert page.locator("#opt-match option[value=head]").evaluate("o => o.disabled")
    assert page.locator("#opt-np_only").is_enabled()
    assert page.locator("#opt-shared_task").is_disabled()

    page.set_input_files("#key", str(ANAPHORA / "station.key.ua.conllu"))
    page.wait_for_function("document.querySelector('#format-note').textContent.includes('Universal Anaphora')")
    page.set_input_files("#responses", str(ANAPHORA / "station.response.ua.conllu"))
    assert split.is_enabled() and page.locator("#opt-np_only").is_disabled()
    split.check()
    assert page.locator("#opt-keep_singletons").is_checked()
    page.click("#score")
    page.wait_for_selector("#results:not([hidden])")
    expected = run_cli(ANAPHORA / "station.key.ua.conllu", ANAPHORA / "station.response.ua.conllu", "-l", "-s",
                       "--output", "json").json
    shown = page.locator("#score-table tr[data-metric=muc] td.f1").inner_text()
    assert shown == f"{100 * expected['metrics']['muc']['f1']:.2f}" == "85.71"
    page.close()
