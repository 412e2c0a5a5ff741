"""A module imported at the first use of one of its names: the modules that
make arrays name numpy as ``np = lazy("numpy")``, so that a command making
none (``--help``, a check, a conversion) does not pay for importing it."""

from __future__ import annotations

from importlib import import_module


class lazy:  # noqa: N801  (stands where ``import numpy as np`` stood)
    """Stands for a module until one of its names is asked for; the module
    is then imported (under the import lock, so from any thread) and its
    names copied here, so that later uses cost what the module's would."""

    def __init__(self, name: str):
        self._lazy_name = name

    def __getattr__(self, attribute: str):
        module = import_module(self._lazy_name)
        self.__dict__.update(vars(module))
        return getattr(module, attribute)

    def __repr__(self) -> str:
        return f"<{self._lazy_name}, imported at its first use>"


class later:  # noqa: N801  (stands where the function stood)
    """Stands for a function or class of a :class:`lazy` module until it is
    called: the module is imported then, so that a table naming functions of
    many modules (the measures' registry) imports only those it calls."""

    def __init__(self, module: lazy, name: str):
        self._module, self._name = module, name

    def __call__(self, *args, **kwargs):
        return getattr(self._module, self._name)(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<{self._name} of {self._module!r}>"
