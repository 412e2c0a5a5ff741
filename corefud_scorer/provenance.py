"""What reproduces a number apart from the code: versions, options, the
files' digests, and the one-line signature."""

from __future__ import annotations

import hashlib
import os

from . import __version__

from .formats.readers import DEFAULT_FORMAT, profile, profiles

TYPE_CHECKING = False  # True for type checkers; typing is not imported at run time
if TYPE_CHECKING:
    from .results import Options

# Bytes hashed at a time.
DIGEST_BLOCK = 1 << 16


def file_digest(path: str) -> str:
    """The file's SHA-256 in hex; empty where it cannot be read."""
    digest = hashlib.sha256()
    # Read into one buffer: a new block of bytes at every read costs more
    # than hashing it.
    buffer = bytearray(DIGEST_BLOCK)
    view = memoryview(buffer)
    try:
        with open(path, "rb", buffering=0) as handle:
            while True:
                size = handle.readinto(buffer)
                if not size:
                    break
                digest.update(view[:size])
    except OSError:
        return ""
    return digest.hexdigest()


def package_version(name: str) -> str | None:
    """An installed package's version: off the name of the metadata folder
    pip installs beside it (``NAME-VERSION.dist-info``), else from its
    package metadata (importing ``importlib.metadata`` costs a command
    more than a small file's scoring)."""
    from importlib.util import find_spec

    spec = find_spec(name)
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        parent = os.path.dirname(os.path.abspath(folder))
        found = [entry[len(name) + 1:-len(".dist-info")] for entry in os.listdir(parent)
                 if entry.startswith(name + "-") and entry.endswith(".dist-info")]
        if len(found) == 1:
            return found[0]
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def option_settings(options: Options, fmt: str | None = None) -> dict:
    """Versions and options. Udapi's version comes from its package metadata
    (the module has no ``__version__``), so formats that do not need Udapi
    never import it."""
    return {
        "scorer": "corefud_scorer",
        "version": __version__,
        "udapi_version": package_version("udapi"),
        "format": fmt or options.format,
        "metrics": list(options.metric_list),
        "keep_singletons": options.keep_singletons,
        "match": options.match,
        "zero_match_method": options.zero_match,
        "check_forms": options.check_forms,
        **measure_settings(options),
        "keep_zeros": options.keep_zeros,
        "keep_split_antecedents": options.keep_split_antecedents,
        "evaluate_discourse_deixis": options.discourse_deixis,
        "only_split_antecedent": options.only_split_antecedent,
        # Only when asked: the settings of other runs read as before.
        **({"np_only": True} if options.np_only else {}),
        **({"remove_nested_mentions": True} if options.remove_nested else {}),
    }


def measure_settings(options: Options) -> dict:
    """The synchronisation, and the mention set of the measures that need one."""
    from .measures.registry import MEASURES, ONE_MENTION_SET

    out: dict = {}
    if options.sync is not None:
        out["sync"] = options.sync
    if any(MEASURES[name].reads == ONE_MENTION_SET for name in options.metric_list):
        out["shared_mention_set"] = "union" if options.sync in (None, "all") else options.sync
    return out


def file_settings(key_name: str, key_path: str, response_name: str, response_path: str) -> dict:
    """The files as named by the caller, and the digests of the bytes read."""
    return {
        "key_file": key_name,
        "response_file": response_name,
        "key_sha256": file_digest(key_path),
        "response_sha256": file_digest(response_path),
    }


ZERO_METHOD_NAMES = {"dependent": "dep", "linear": "lin"}


def signature(options: Options, fmt: str | None, test: str | None = None, samples: int | None = None,
              confidence: int | None = None, level: float = 0.95, seed: int = 12345) -> str:
    """One line that names what a figure depends on, to quote beside it:
    version, format, matching, singletons, zero method, metrics, the test
    (``bs`` or ``ar``) and its samples, the confidence intervals' level and
    samples (when asked for), and the seed."""
    fields = [f"corefud-scorer {__version__}", f"fmt:{fmt or options.format or DEFAULT_FORMAT}",
              f"match:{options.match}", f"sing:{'yes' if options.keep_singletons else 'no'}",
              f"zero:{ZERO_METHOD_NAMES[options.zero_match]}", "m:" + ",".join(options.metric_list)]
    if options.sync is not None:
        # Synchronisation changes the figures; absent, the line reads as before.
        fields.append(f"sync:{options.sync}")
    # The options of split antecedents and zeros, where they are not the
    # format's defaults; absent, the line reads as before.
    rules = profile(fmt if fmt in profiles() else options.format)
    if options.keep_zeros != rules.defaults["keep_zeros"]:
        fields.append("zeros:" + ("kept" if options.keep_zeros else "left-out"))
    if options.discourse_deixis:
        fields.append("discourse-deixis")
    if options.only_split_antecedent:
        fields.append("split-antecedents-only")
    elif options.keep_split_antecedents:
        fields.append("split-antecedents")
    if options.np_only:
        fields.append("np-only")
    if options.remove_nested:
        fields.append("no-nested")
    fields.append(f"test:{test}-{samples}" if test else "test:none")
    if confidence:
        fields.append(f"ci:{level * 100:g}%-{confidence}")
    fields.append(f"seed:{seed}")
    return "|".join(fields)
