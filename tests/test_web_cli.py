"""``corefud-scorer serve``'s own flags, checked with or without the web extra."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import run_cli


def test_serve_without_the_web_extra_says_what_to_install():
    # The framework made unimportable, as in a core install.
    code = ("import sys; sys.modules['fastapi'] = None; sys.modules['uvicorn'] = None; "
            "from corefud_scorer.cli import main; sys.exit(main(['serve', '--port', '8']))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.strip().splitlines() == [
        "corefud-scorer: error: serve needs the web extra (uvicorn is missing): pip install fastapi uvicorn "
        "python-multipart (in a clone of the scorer: pip install '.[web]')"]


@pytest.mark.parametrize("flags, message", [
    (["--host", "192.168.1.5"], "--host 192.168.1.5: give 127.0.0.1 (this machine only) or 0.0.0.0"),
    (["--port", "0"], "--port 0: give a port from 1 to 65535"),
    (["--max-upload-mb", "0"], "--max-upload-mb must be above 0"),
])
def test_serve_refuses_bad_flags_before_starting(flags, message):
    run = run_cli("serve", *flags)
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines()[-1].startswith("corefud-scorer serve: error: ")
    assert message in run.err


def test_serve_on_a_port_in_use_says_so_in_one_line():
    pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        run = run_cli("serve", "--port", port)
    assert run.code == 2 and run.out == ""
    assert run.err.splitlines() == [f"corefud-scorer: error: port {port} on 127.0.0.1 is in use: give another with --port"]


def test_a_free_port_is_no_problem():
    import socket

    from corefud_scorer.cli.serve import port_problem

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert port_problem("127.0.0.1", port) is None
