"""Summary of an A/B folder: table steady/native and control steady/native per cell."""
import json, glob, statistics, math, sys
folder = sys.argv[1]
t, ctl, tbest, wins = [], [], [], 0
per = []
for f in sorted(glob.glob(folder + '/*.json')):
    d = json.load(open(f))
    cfg = {c['name']: c for c in d['configurations']}
    nat = cfg['native']['steady_median']
    tab = cfg['layer:table']['steady_median']
    con = cfg['layer:native']['steady_median']
    best = min(c['steady_median'] for c in d['configurations'] if c['kind'] in ('fixed', 'native'))
    t.append(tab / nat); ctl.append(con / nat); tbest.append(tab / best)
    wins += tab < con
    per.append((f.split('/')[-1], tab / nat, con / nat))
def s(v):
    return (f"median {statistics.median(v):.3f}, geomean {math.exp(sum(map(math.log, v))/len(v)):.3f}, "
            f"range {min(v):.3f}-{max(v):.3f}")
print(f"cells: {len(t)}")
print("table steady / native:  ", s(t))
print("control (layer native) steady / native:", s(ctl))
print("table steady / best fixed or native of the run:", s(tbest))
print(f"cells where table steady < control steady: {wins} of {len(t)}")
tune = json.load(open(sys.argv[2])) if len(sys.argv) > 2 else None
orc = {}
for f in sorted(glob.glob(folder + '/*.json')):
    d = json.load(open(f))
    p = d['parameters']
    orc[(p.get('collective'), p.get('bytes'), d['machine'].get('ranks') or d['machine'].get('size'))] = d['oracle']['name']
mesh = sorted(k for k, v in orc.items() if v.startswith('orthogonal'))
print(f"cells whose best of the A/B run (oracle) is a mesh: {len(mesh)} of {len(orc)}")
for k in mesh: print("  ", k, orc[k])
if tune:
    same = 0
    for c in tune['cells']:
        k = (c['collective'], c['bytes'], c['ranks'])
        same += orc.get(k) == c['winner']
    print(f"cells whose tune winner is also the A/B oracle: {same} of {len(tune['cells'])}")
