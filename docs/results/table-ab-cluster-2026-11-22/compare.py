"""Two A/B runs of the same matrix, cell by cell: table/native and control/native (steady
medians) in each, and whether the table's side of native is the same in both runs.

    python3 compare.py ab-1 ab-2
"""
import glob
import json
import os
import sys


def ratios(folder):
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, '*.json'))):
        d = json.load(open(path))
        cfg = {c['name']: c for c in d['configurations']}
        nat = cfg['native']['steady_median']
        out[os.path.basename(path)] = (cfg['layer:table']['steady_median'] / nat,
                                       cfg['layer:native']['steady_median'] / nat,
                                       d['parameters']['bytes'])
    return out


one, two = ratios(sys.argv[1]), ratios(sys.argv[2])
print(f"{'cell':<24} {'table/nat 1':>11} {'table/nat 2':>11} {'ctl/nat 1':>9} {'ctl/nat 2':>9}  same side")
agree = {}
for cell in sorted(one.keys() & two.keys()):
    t1, c1, size = one[cell]
    t2, c2, _ = two[cell]
    same = (t1 < 1) == (t2 < 1)
    agree.setdefault(size, []).append(same)
    print(f"{cell:<24} {t1:11.3f} {t2:11.3f} {c1:9.3f} {c2:9.3f}  {'yes' if same else 'no'}")
for size in sorted(agree):
    print(f"{size} B: the table on the same side of native in both runs in "
          f"{sum(agree[size])} of {len(agree[size])} cells")
