#!/usr/bin/env python3
# variants.py ROUNDS OUT.tsv NAME=ENV;CMD ...: interleaved runs of each command
# (stdin the input, stdout /dev/null) pinned to CPUs 0,1; wall time from fork
# to exit, CPU time (user+sys) from wait4's rusage. Prints medians.
import os, sys, time, statistics, shlex
rounds, out = int(sys.argv[1]), sys.argv[2]
inp = os.environ.get("INPUT", "/tmp/ra-xfs/mnt/input.txt")
cmds = []
for a in sys.argv[3:]:
    name, rest = a.split("=", 1)
    env, cmd = rest.split(";", 1)
    e = dict(os.environ)
    for kv in env.split():
        k, v = kv.split("=", 1); e[k] = v
    cmds.append((name, e, shlex.split(cmd)))
os.sched_setaffinity(0, {0, 1})
res = {n: [] for n, _, _ in cmds}
# warm the cache
with open(inp, "rb") as f:
    while f.read(1 << 20): pass
with open(out, "w") as tsv:
    tsv.write("round\tcommand\twall_ns\tcpu_ns\n")
    for r in range(rounds):
        for k in range(len(cmds)):
            name, env, argv = cmds[(k + r) % len(cmds)]
            fin = os.open(inp, os.O_RDONLY); fout = os.open("/dev/null", os.O_WRONLY)
            t0 = time.perf_counter_ns()
            pid = os.fork()
            if pid == 0:
                os.dup2(fin, 0); os.dup2(fout, 1)
                os.execve(argv[0], argv, env)
            _, status, ru = os.wait4(pid, 0)
            t1 = time.perf_counter_ns()
            os.close(fin); os.close(fout)
            if status != 0: sys.exit(f"{name} failed: {status}")
            cpu = int((ru.ru_utime + ru.ru_stime) * 1e9)
            res[name].append((t1 - t0, cpu))
            tsv.write(f"{r}\t{name}\t{t1-t0}\t{cpu}\n")
ref = cmds[0][0]
base = cmds[1][0] if len(cmds) > 1 else ref
rw = statistics.median(w for w, _ in res[ref]); rc = statistics.median(c for _, c in res[ref])
print(f"{'command':20} {'wall ms':>8} {'cpu ms':>8} {'wall/'+ref:>12} {'cpu/'+ref:>12} {'paired cpu/'+base:>16} {'paired wall/'+ref:>18}")
for n, _, _ in cmds:
    w = statistics.median(x for x, _ in res[n]); c = statistics.median(y for _, y in res[n])
    pc = statistics.median(a[1] / b[1] for a, b in zip(res[n], res[base]))
    pw = statistics.median(a[0] / b[0] for a, b in zip(res[n], res[ref]))
    print(f"{n:20} {w/1e6:8.1f} {c/1e6:8.1f} {w/rw:12.2f} {c/rc:12.2f} {pc:16.2f} {pw:18.2f}")
