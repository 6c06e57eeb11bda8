#!/usr/bin/env python3
"""timeline_busy.py TIMELINE JOB_ID... -- GPU busy ratio over the window of the given jobs.

Reads a cuzkd timeline (Chrome trace-event JSON, possibly unterminated: one event a line)
and prints the fraction of the window [first event of the jobs, last event end] covered by
the union of "device" events (the device-held spans of every partition, on the device
tracks). Used by bench/e2e.sh for the warm proofs; prints only the number, e.g. 0.973.
"""
import json
import sys


def events(path):
    with open(path) as f:
        for line in f:
            line = line.strip().rstrip(',')
            if not line.startswith('{'):
                continue
            try:
                yield json.loads(line)
            except ValueError:
                continue  # a line cut by a crash or rotation


def main():
    if len(sys.argv) < 3:
        sys.exit('usage: timeline_busy.py TIMELINE JOB_ID...')
    jobs = set(sys.argv[2:])
    lo, hi, dev = None, None, []
    for ev in events(sys.argv[1]):
        if ev.get('ph') != 'X' or ev.get('args', {}).get('job') not in jobs:
            continue
        t0, t1 = ev['ts'], ev['ts'] + ev['dur']
        lo = t0 if lo is None else min(lo, t0)
        hi = t1 if hi is None else max(hi, t1)
        if ev['name'] == 'device':
            dev.append((t0, t1))
    if lo is None or hi <= lo:
        sys.exit('no events of those jobs')
    dev.sort()
    covered, end = 0.0, None
    for t0, t1 in dev:
        if end is None or t0 > end:
            covered += t1 - t0
            end = t1
        elif t1 > end:
            covered += t1 - end
            end = t1
    print('%.3f' % (covered / (hi - lo)))


if __name__ == '__main__':
    main()
