"""The tools' versioned JSON files: an object with "schema" (its kind) and "version"."""

import json
from pathlib import Path


def read(path):
    """The JSON value in `path`; OSError or ValueError when it cannot be read or parsed."""
    return json.loads(Path(path).read_text())


def versions(version):
    """A version or a tuple of versions, as a tuple."""
    return version if isinstance(version, tuple) else (version,)


def is_version(data, schema, version):
    """True when `data` is an object of that schema and version (or one of a tuple of them)."""
    return (isinstance(data, dict) and data.get("schema") == schema
            and data.get("version") in versions(version))


def load(path, schema, error, version):
    """The object of `schema` and `version` (or one of a tuple of versions) in `path`; raises
    `error` (an exception class) with the path and the reason when the file cannot be read or
    holds something else."""
    try:
        data = read(path)
    except (OSError, ValueError) as e:
        raise error(f"{path}: cannot read: {e}") from e
    if not is_version(data, schema, version):
        raise error(f"{path}: not an {schema} file of version "
                    f"{' or '.join(map(str, versions(version)))}")
    return data


def schema_of(path):
    """(schema, version) of the file at `path`; (None, None) when it is unreadable or holds no
    object."""
    try:
        data = read(path)
    except (OSError, ValueError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    return data.get("schema"), data.get("version")
