"""An evaluation page and HTTP API over the command line (``corefud-scorer serve``).

Needs the ``web`` extra (``pip install '.[web]'`` in a clone); importing
:mod:`corefud_scorer` alone never imports it.
"""
