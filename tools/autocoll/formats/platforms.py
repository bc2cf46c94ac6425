"""The simulated platforms' XML files (platforms/, SimGrid's format): their hosts, their
per-message overheads and what they model. Reading only; run/simgrid.py runs programs on them."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path


class SimgridError(RuntimeError):
    pass


def expand_radical(radical):
    """'0-3,8' -> [0, 1, 2, 3, 8] (SimGrid's cluster radical)."""
    numbers = []
    for part in radical.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not m:
            raise SimgridError(f"cluster radical {radical!r}: cannot read {part!r}")
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) else first
        numbers.extend(range(first, last + 1))
    return numbers


def platform_hosts(path):
    """The platform's hosts in document order, as (name, cores): each <cluster> expanded
    (prefix + number + suffix for every number of its radical), each <host> as itself."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise SimgridError(f"{path}: {e}") from e
    hosts = []
    for el in root.iter():
        cores = int(el.get("core", "1"))
        if el.tag == "cluster":
            hosts += [(f"{el.get('prefix', '')}{n}{el.get('suffix', '')}", cores)
                      for n in expand_radical(el.get("radical", ""))]
        elif el.tag == "host":
            hosts.append((el.get("id"), cores))
    if not hosts:
        raise SimgridError(f"{path}: no hosts")
    return hosts


# Per-message host overheads: SMPI's settings in the platform's <config> block (between nodes)
# and the root zone's properties that platforms/node_overheads.cpp reads (inside a node).
OVERHEAD_SETTINGS = ("smpi/os", "smpi/ois", "smpi/or")
NODE_OVERHEAD_PROPERTIES = ("autocoll/shm-os", "autocoll/shm-ois", "autocoll/shm-or")


def platform_overheads(path):
    """{setting: value} of the platform file's per-message overheads: SMPI's smpi/os, smpi/ois
    and smpi/or (its <config> block) and the node's autocoll/shm-* (its root zone), as written
    ("size:seconds:seconds-per-byte;..."); a setting the file leaves out is absent."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise SimgridError(f"{path}: {e}") from e
    found = {}
    for config in root.findall("config"):
        for prop in config.findall("prop"):
            if prop.get("id") in OVERHEAD_SETTINGS:
                found[prop.get("id")] = prop.get("value")
    zone = root.find("zone")
    if zone is not None:
        for prop in zone.findall("prop"):
            if prop.get("id") in NODE_OVERHEAD_PROPERTIES:
                found[prop.get("id")] = prop.get("value")
    return found


def platform_summary(path):
    """The first line of the platform file's opening comment (what it models)."""
    text = Path(path).read_text()
    m = re.search(r"<!--\s*(.*?)\s*(?:\n|-->)", text)
    return m.group(1) if m else ""
