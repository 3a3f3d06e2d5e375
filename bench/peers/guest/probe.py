#!/usr/bin/python3
"""Guest side of bench/peers: read what a tool changed, time commands.

  probe.py snapshot DIR          tasks, IRQs, workqueue mask into DIR
  probe.py restore DIR           put back every task and IRQ affinity of DIR
  probe.py time LABEL N CMD...   run CMD N times, one line per run
  probe.py online CPU WANT SECS  online CPU, then poll until every rcuo*/CPU
                                 kthread is allowed exactly WANT

Times are CLOCK_MONOTONIC (time.monotonic_ns).  Python, not bash: the
timed span must not include a fork per /proc read, and the same harness
times both tools (its own fork and exec are in both figures).
"""
import os
import subprocess
import sys
import time

PF_KTHREAD = 0x00200000
PF_NO_SETAFFINITY = 0x04000000


def tasks():
    """(pid, comm, kind, allowed) of every task; kind: user, kthread or
    bound (a kthread the kernel forbids to move)."""
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            with open(f'/proc/{p}/stat') as f:
                st = f.read()
            with open(f'/proc/{p}/status') as f:
                allowed = next(l.split()[1] for l in f if l.startswith('Cpus_allowed_list:'))
        except (OSError, StopIteration):
            continue
        comm = st[st.index('(') + 1:st.rindex(')')]
        flags = int(st[st.rindex(')') + 2:].split()[6])
        kind = 'user'
        if flags & PF_KTHREAD:
            kind = 'bound' if flags & PF_NO_SETAFFINITY else 'kthread'
        yield int(p), comm, kind, allowed


def irqs():
    for i in sorted((d for d in os.listdir('/proc/irq') if d.isdigit()), key=int):
        try:
            with open(f'/proc/irq/{i}/smp_affinity_list') as f:
                aff = f.read().strip()
            with open(f'/proc/irq/{i}/effective_affinity_list') as f:
                eff = f.read().strip()
        except OSError:
            continue
        names = [n for n in os.listdir(f'/proc/irq/{i}') if os.path.isdir(f'/proc/irq/{i}/{n}')]
        yield int(i), ','.join(names) or '-', aff, eff


def read(path, default='-'):
    try:
        with open(path) as f:
            return f.read().strip() or default
    except OSError:
        return default


def snapshot(d):
    os.makedirs(d, exist_ok=True)
    with open(f'{d}/tasks', 'w') as f:
        for pid, comm, kind, allowed in sorted(tasks()):
            # comm may hold blanks: last on the line
            f.write(f'{pid}\t{kind}\t{allowed}\t{comm}\n')
    with open(f'{d}/irqs', 'w') as f:
        for i, names, aff, eff in irqs():
            f.write(f'{i}\t{aff}\t{eff}\t{names}\n')
    with open(f'{d}/sys', 'w') as f:
        f.write(f'online\t{read("/sys/devices/system/cpu/online")}\n')
        f.write(f'workqueue_cpumask\t{read("/sys/devices/virtual/workqueue/cpumask")}\n')
        f.write(f'default_smp_affinity\t{read("/proc/irq/default_smp_affinity")}\n')
        f.write(f'rcu_nocbs\t{read("/sys/devices/system/cpu/rcu_nocbs")}\n')
        f.write(f'cmdline\t{read("/proc/cmdline")}\n')


def restore(d):
    n = 0
    now = {pid: allowed for pid, _, kind, allowed in tasks() if kind != 'bound'}
    with open(f'{d}/tasks') as f:
        for line in f:
            pid, kind, allowed, comm = line.rstrip('\n').split('\t', 3)
            pid = int(pid)
            if kind == 'bound' or pid not in now or now[pid] == allowed:
                continue
            try:
                os.sched_setaffinity(pid, cpus(allowed))
                n += 1
            except OSError:
                pass
    with open(f'{d}/irqs') as f:
        for line in f:
            i, aff, _, _ = line.rstrip('\n').split('\t', 3)
            try:
                with open(f'/proc/irq/{i}/smp_affinity_list', 'w') as w:
                    w.write(aff)
            except OSError:
                pass
    sysv = dict(l.rstrip('\n').split('\t', 1) for l in open(f'{d}/sys'))
    for path, key in (('/sys/devices/virtual/workqueue/cpumask', 'workqueue_cpumask'),
                      ('/proc/irq/default_smp_affinity', 'default_smp_affinity')):
        try:
            with open(path, 'w') as w:
                w.write(sysv[key])
        except OSError:
            pass
    print(f'restore: {n} task affinities put back')


def cpus(lst):
    out = set()
    for part in lst.split(','):
        a, _, b = part.partition('-')
        out.update(range(int(a), int(b or a) + 1))
    return out


def time_cmd(label, n, cmd):
    for r in range(1, n + 1):
        t0 = time.monotonic_ns()
        rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        t1 = time.monotonic_ns()
        print(f'time {label} rep={r} rc={rc} s={(t1 - t0) / 1e9:.6f}', flush=True)


def online(cpu, want, secs):
    """Seconds from the online write's return to every rcuo*/CPU kthread
    allowed exactly WANT; 'never' after SECS."""
    suffix = f'/{cpu}'
    t0 = time.monotonic_ns()
    with open(f'/sys/devices/system/cpu/cpu{cpu}/online', 'w') as f:
        f.write('1')
    t1 = time.monotonic_ns()
    print(f'online cpu={cpu} write_s={(t1 - t0) / 1e9:.6f}', flush=True)
    end = t1 + int(secs * 1e9)
    seen, polls = {}, 0
    while True:
        polls += 1
        seen = {c: a for _, c, _, a in tasks() if c.startswith('rcuo') and c.endswith(suffix)}
        t = time.monotonic_ns()
        if seen and all(a == want for a in seen.values()):
            print(f'online cpu={cpu} pinned_s={(t - t1) / 1e9:.6f} polls={polls} '
                  + ' '.join(f'{c}={a}' for c, a in sorted(seen.items())), flush=True)
            return
        if t > end:
            break
        time.sleep(0.05)
    print(f'online cpu={cpu} pinned_s=never window_s={secs} polls={polls} '
          + ' '.join(f'{c}={a}' for c, a in sorted(seen.items())), flush=True)


def main():
    a = sys.argv[1:]
    if a[:1] == ['snapshot']:
        snapshot(a[1])
    elif a[:1] == ['restore']:
        restore(a[1])
    elif a[:1] == ['time']:
        time_cmd(a[1], int(a[2]), a[3:])
    elif a[:1] == ['online']:
        online(int(a[1]), a[2], float(a[3]))
    else:
        sys.exit(__doc__)


main()
