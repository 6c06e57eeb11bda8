#!/usr/bin/env python3
"""mixed_report.py RECORDS PHASES STREAM_KIND MODE -- bench/mixed.sh's report (Markdown).

RECORDS: one row a job, tab-separated: phase label kind priority id t_submit t_done state
verdict timeline (client wall-clock seconds; the timeline is cuzkd's Chrome trace of the
daemon life that ran the job). PHASES: phase key_loads key_evictions device_busy timeline
devices. Prints, per kind, latency (submit -> proof as the client saw it) min / median /
max alone and under load, the stream's seconds a proof, key loads and evictions, device
busy, and the goal ratios of issue 31: WinningPoSt (CRITICAL) under load minus alone in P
(one stream partition's device time alone), WindowPoSt under load minus alone in seconds,
and the stream mixed against alone + the other jobs' device time in the stream's window.
Reports only; judges nothing (bench/mixed.sh checks the proofs).
"""
import json
import statistics
import sys

NAMES = {'porep': 'PoRep C2', 'winning': 'WinningPoSt', 'wpost': 'WindowPoSt',
         'snap': 'SnapDeals', 'synthetic': 'synthetic'}


def events(path, cache={}):
    """{job id: [(t0, t1) device spans, µs]}, {job id: (first event, last end)}"""
    if path in cache:
        return cache[path]
    dev, span = {}, {}
    try:
        f = open(path)
    except OSError:
        cache[path] = (dev, span)
        return cache[path]
    with f:
        for line in f:
            line = line.strip().rstrip(',')
            if not line.startswith('{'):
                continue
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            job = ev.get('args', {}).get('job')
            if ev.get('ph') != 'X' or not job:
                continue
            t0, t1 = ev['ts'], ev['ts'] + ev['dur']
            lo, hi = span.get(job, (t0, t1))
            span[job] = (min(lo, t0), max(hi, t1))
            if ev['name'] == 'device':
                dev.setdefault(job, []).append((t0, t1))
    cache[path] = (dev, span)
    return cache[path]


def fmt(x, nd=2):
    return 'NA' if x is None else ('%.*f' % (nd, x))


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    rec_path, ph_path, stream, mode = sys.argv[1:]
    rows = []
    for line in open(rec_path):
        c = line.rstrip('\n').split('\t')
        if len(c) < 10:
            continue
        r = dict(phase=c[0], label=c[1], kind=c[2], prio=c[3], id=c[4], state=c[7],
                 verdict=c[8], tl=c[9])
        try:
            r['t0'], r['t1'] = float(c[5]), float(c[6])
        except ValueError:
            r['t0'] = r['t1'] = None
        rows.append(r)
    phases = {}
    try:
        for line in open(ph_path):
            c = line.rstrip('\n').split('\t')
            if len(c) >= 6:
                phases[c[0]] = dict(loads=c[1], evictions=c[2], busy=c[3], tl=c[4], devices=c[5])
    except OSError:
        pass

    def dev_s(r):
        d, _ = events(r['tl'])
        return sum(b - a for a, b in d.get(r['id'], [])) / 1e6

    def lat(phase, kind, stream_too=False):
        return [r['t1'] - r['t0'] for r in rows if r['phase'] == phase and r['kind'] == kind
                and r['state'] == 'COMPLETED' and r['t0'] is not None and
                (stream_too or '-stream-' not in r['label'])]

    def stream_rows(phase):
        return sorted((r for r in rows if r['phase'] == phase and '-stream-' in r['label']
                       and r['state'] == 'COMPLETED'), key=lambda r: r['t0'])

    def stream_time(phase):
        s = stream_rows(phase)
        if not s:
            return None, None, 0
        total = max(r['t1'] for r in s) - min(r['t0'] for r in s)
        done = sorted(r['t1'] for r in s)
        steady = (done[-1] - done[0]) / (len(s) - 1) if len(s) > 1 else None
        return total, steady, len(s)

    # P: one stream partition's device time alone (median over the stream's partitions)
    parts = []
    for r in stream_rows('alone'):
        d, _ = events(r['tl'])
        parts += [(b - a) / 1e6 for a, b in d.get(r['id'], [])]
    P = statistics.median(parts) if parts else None

    dev = phases.get('mixed', phases.get('alone', {})).get('devices', '?')
    print('\n## mixed day (%s mode, devices %s)\n' % (mode, dev))
    print('| kind | priority | alone: n | alone s min / median / max | under load: n | '
          'under load s min / median / max | device s a job (median, alone) |')
    print('|---|---|---:|---|---:|---|---:|')
    kinds = [stream] + [k for k in ('winning', 'wpost', 'snap', 'porep', 'synthetic')
                        if k != stream and any(r['kind'] == k for r in rows)]
    med = {}
    for k in kinds:
        a = lat('alone', k, k == stream)
        m = lat('mixed', k, k == stream)
        med[k] = (statistics.median(a) if a else None, m)
        prio = next((r['prio'] for r in rows if r['kind'] == k and r['phase'] in ('alone', 'mixed')),
                    'default')
        ds = [dev_s(r) for r in rows if r['phase'] == 'alone' and r['kind'] == k and
              r['state'] == 'COMPLETED']

        def mmm(v):
            return ('%s / %s / %s' % (fmt(min(v)), fmt(statistics.median(v)), fmt(max(v)))
                    if v else '—')
        print('| %s%s | %s | %d | %s | %d | %s | %s |' % (
            NAMES.get(k, k), ' (stream)' if k == stream else '', prio, len(a), mmm(a), len(m),
            mmm(m), fmt(statistics.median(ds), 3) if ds else 'NA'))

    ta, sa, na = stream_time('alone')
    tm, sm, nm = stream_time('mixed')
    print('\n| | alone | mixed |')
    print('|---|---:|---:|')
    print('| stream: jobs | %d | %d |' % (na, nm))
    print('| stream: s a proof (first submit to last answer, over n) | %s | %s |' % (
        fmt(ta / na if na else None), fmt(tm / nm if nm else None)))
    print('| stream: steady s a proof (first to last answer, over n - 1) | %s | %s |' % (
        fmt(sa), fmt(sm)))
    for key, name in (('loads', 'key loads (cuzk_srs_loads_total)'),
                      ('evictions', 'key evictions (cuzk_srs_evictions_total)'),
                      ('busy', 'device busy over the phase (timeline_busy.py)')):
        print('| %s | %s | %s |' % (name, phases.get('alone', {}).get(key, 'NA'),
                                     phases.get('mixed', {}).get(key, 'NA')))

    # the other jobs' device time inside the mixed stream's window (timeline clock)
    other_dev = None
    s = stream_rows('mixed')
    if s:
        _, span = events(s[0]['tl'])
        w = [span[r['id']] for r in s if r['id'] in span]
        if w:
            lo, hi = min(a for a, _ in w), max(b for _, b in w)
            other_dev = 0.0
            for r in rows:
                if r['phase'] != 'mixed' or '-stream-' in r['label'] or r['state'] != 'COMPLETED':
                    continue
                d, _ = events(r['tl'])
                for a, b in d.get(r['id'], []):
                    other_dev += max(0.0, min(b, hi) - max(a, lo)) / 1e6

    # the longest bulk (NORMAL/LOW) partition on the device under load: what a CRITICAL
    # job may find holding the device when it arrives (on the H200 a SnapDeals partition is
    # ~P; on a CPU a 2 KiB SnapDeals partition is ~100 stream partitions)
    bulk, bulk_kind = None, None
    for r in rows:
        if r['phase'] != 'mixed' or r['prio'] not in ('low', 'normal') or r['state'] != 'COMPLETED':
            continue
        d, _ = events(r['tl'])
        for a, b in d.get(r['id'], []):
            if bulk is None or (b - a) / 1e6 > bulk:
                bulk, bulk_kind = (b - a) / 1e6, r['kind']

    print('\nGoal ratios (issue 31):')
    print('- P, one stream partition\'s device time alone (median of %d): %s s' % (
        len(parts), fmt(P, 3)))
    if bulk is not None:
        print('- P_max, the longest bulk (NORMAL/LOW) partition\'s device time under load: %s s '
              '(%s)' % (fmt(bulk, 3), NAMES.get(bulk_kind, bulk_kind)))
    wa, wm = med.get('winning', (None, []))
    if wa is not None and wm and P:
        print('- WinningPoSt (CRITICAL) under load: median %s s, max %s s; alone median %s s; '
              'excess over alone: median %s P, max %s P (goal: about 1 P)' % (
                  fmt(statistics.median(wm)), fmt(max(wm)), fmt(wa),
                  fmt((statistics.median(wm) - wa) / P), fmt((max(wm) - wa) / P)))
        if bulk:
            print('  in P_max: median %s, max %s' % (fmt((statistics.median(wm) - wa) / bulk),
                                                   fmt((max(wm) - wa) / bulk)))
    pa, pm = med.get('wpost', (None, []))
    if pa is not None and pm:
        print('- WindowPoSt (HIGH) under load minus alone: %s s (max %s; alone median %s s; '
              'goal <= 2 s on the H200)' % (fmt(statistics.median(pm) - pa),
                                             fmt(max(pm) - pa), fmt(pa)))
    sa_, sm_ = med.get('snap', (None, []))
    if sa_ is not None and sm_:
        print('- SnapDeals under load minus alone: %s s (alone %s s)' % (
            fmt(statistics.median(sm_) - sa_), fmt(sa_)))
    if ta and tm and na and nm and other_dev is not None:
        expect = ta / na * nm + other_dev
        print('- stream mixed %s s against alone %s s + the others\' device time in its '
              'window %s s = %s s: %+.1f %% (goal <= +5 %%)' % (
                  fmt(tm), fmt(ta / na * nm), fmt(other_dev), fmt(expect),
                  100 * (tm / expect - 1)))
    bad = [r for r in rows if r['state'] != 'COMPLETED' or r['verdict'].startswith('INVALID')]
    print('- proofs: %d jobs, %d verified outside cuzkd, %d self-checked by cuzkd, %d failed, '
          'lost or invalid' % (len(rows), sum(r['verdict'] == 'VERIFIED' for r in rows),
                               sum(r['verdict'] == 'SELF_CHECKED' for r in rows), len(bad)))


if __name__ == '__main__':
    main()
