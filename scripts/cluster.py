#!/usr/bin/env python3
"""Chariot's data generation and matches as Ray tasks, on one machine or a cluster.

    scripts/cluster.py --local 2 datagen --out DIR --shards K --positions N [datagen flags...]
    scripts/cluster.py --address HOST:6379 match --games N [match flags...]

`--local N` starts a Ray cluster of N CPUs on this machine; `--address ADDR` joins a running
one (`ray start --head`, `ray up`, KubeRay; `auto` finds the local one). Each task runs one
`chariot datagen` or one slice of a `chariot match`, on one CPU. The binary (`--chariot`) and
the files the flags name travel to the workers through Ray's object store, unless `--shared`
says the paths are valid on every worker. The manual: docs/cluster.md.

Flags this script does not know are `chariot datagen` / `chariot match` flags: they are
checked by `chariot ... --check` on this machine before any task starts.
"""

import argparse
import ctypes
import functools
import hashlib
import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import ray
    from tqdm import tqdm
except ImportError as e:
    sys.exit(f"cluster: {e.name} is not installed: pip install -r scripts/requirements-cluster.txt")

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CHARIOT = ROOT / "target" / "release" / "chariot"
RECORD_BYTES = 32  # a datagen record; the file's first 32 bytes are its header
RETRIES = 3  # a task whose chariot process dies is run again this many times


def fail(message, code=2):
    print(f"cluster: {message}", file=sys.stderr)
    sys.exit(code)


# ---------------------------------------------------------------------------------------------
# Files that travel to the workers.


class Shipped:
    """A file put in Ray's object store once, written once per worker machine (by content)."""

    def __init__(self, path, executable=False):
        data = Path(path).read_bytes()
        self.name = Path(path).name
        self.digest = hashlib.sha256(data).hexdigest()[:16]
        self.ref = ray.put(data)
        self.executable = executable


def local_copy(item):
    """On a worker: the path of a shipped file (written here the first time), or a plain path."""
    if isinstance(item, str):
        return item
    folder = Path(tempfile.gettempdir()) / "chariot-cluster" / item.digest
    path = folder / item.name
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{item.name}.{os.getpid()}"
        tmp.write_bytes(ray.get(item.ref))
        if item.executable:
            tmp.chmod(0o755)
        tmp.replace(path)
    return str(path)


def ship(path, shared, executable=False):
    """What a task gets for `path`: the path itself on shared storage, else the shipped file."""
    return str(path) if shared else Shipped(path, executable)


def rewrite_files(flags, names, shared):
    """Ships the files that `flags` name after one of `names` (e.g. --openings FILE)."""
    out, files = [], {}
    i = 0
    while i < len(flags):
        flag = flags[i]
        key, _, inline = flag.partition("=")
        if key in names and (inline or i + 1 < len(flags)):
            value = inline or flags[i + 1]
            if not Path(value).is_file():
                fail(f"{key}: no such file: {value}", 3)
            files[len(out)] = ship(value, shared)
            out.append(key)
            out.append(value)
            i += 1 if inline else 2
            continue
        out.append(flag)
        i += 1
    return out, files


def with_files(flags, files):
    """On a worker: `flags` with each shipped file's value replaced by its local path."""
    flags = list(flags)
    for at, item in files.items():
        flags[at + 1] = local_copy(item)
    return flags


def task(work):
    """`work(key, ..., progress)` as a Ray task of one CPU that Ray runs again when it fails,
    telling the progress actor when it starts and why it failed."""
    @functools.wraps(work)
    def reported(key, *args):
        progress = args[-1]
        progress.start.remote(key)
        try:
            return work(key, *args)
        except Exception as e:
            progress.failed.remote(key, last_line(e))
            raise

    return ray.remote(num_cpus=1, max_retries=RETRIES, retry_exceptions=True)(reported)


def die_with_parent():
    """In the child: SIGKILL when the task's worker process dies, so no chariot outlives it."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def start(binary, words, **kw):
    """Starts `binary words...` on this worker, or fails with one line saying why not."""
    try:
        return subprocess.Popen([binary, *words], preexec_fn=die_with_parent, **kw)
    except OSError as e:
        raise RuntimeError(f"worker {socket.gethostname()} cannot run chariot ({binary}): {e}")


# ---------------------------------------------------------------------------------------------
# Progress, summed over the tasks.


def progress_actor():
    @ray.remote(num_cpus=0)
    class Progress:
        """The latest count of each task (a retried task starts again from 0), and news of the
        tasks that failed and are run again."""

        def __init__(self):
            self.counts, self.attempts, self.news = {}, {}, []

        def start(self, key):
            self.attempts[key] = self.attempts.get(key, 0) + 1
            self.counts[key] = 0

        def set(self, key, value):
            self.counts[key] = value

        def failed(self, key, why):
            self.counts[key] = 0
            attempt = self.attempts.get(key, 1)
            again = "it is run again" if attempt <= RETRIES else "no retries left"
            self.news.append(f"{why} (attempt {attempt} of {RETRIES + 1}; {again})")

        def drop(self, key):
            self.counts.pop(key, None)

        def poll(self):
            """The sum of the counts, and the news since the last poll."""
            news, self.news = self.news, []
            return sum(self.counts.values()), news

    return Progress.remote()


def report(progress, progress_bar):
    """Prints the tasks' news above the bar; returns the running tasks' count."""
    running, news = ray.get(progress.poll.remote())
    for line in news:
        progress_bar.write(f"cluster: {line}", file=sys.stderr)
    return running


def bar(total, unit):
    # On a terminal the bar redraws in place; in a log, a line every half minute.
    every = 0.1 if sys.stderr.isatty() else 30
    return tqdm(total=total, unit=f" {unit}", dynamic_ncols=True, file=sys.stderr,
                smoothing=0.05, mininterval=every)


# ---------------------------------------------------------------------------------------------
# datagen


def shard_sizes(positions, shards):
    return [positions // shards + (1 if k < positions % shards else 0) for k in range(shards)]


def shard_name(k, shards):
    return f"shard-{k:04d}-of-{shards:04d}.bin"


def make_shard(k, seed, n, flags, files, binary, progress):
    """One shard: `chariot datagen` into a local file; returns the file's bytes when it is whole."""
    binary, flags = local_copy(binary), with_files(flags, files)
    with tempfile.TemporaryDirectory(prefix="chariot-shard-") as tmp:
        out = Path(tmp) / "shard.bin"
        words = ["datagen", *flags, "--output", str(out), "--positions", str(n),
                 "--seed", str(seed), "--threads", "1"]
        proc = start(binary, words, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        while proc.poll() is None:
            time.sleep(0.5)
            size = out.stat().st_size if out.exists() else 0
            progress.set.remote(k, max(0, size // RECORD_BYTES - 1))
        err = proc.stderr.read().strip().splitlines()
        if proc.returncode != 0:
            why = err[-1] if err else f"signal {-proc.returncode}" if proc.returncode < 0 else ""
            raise RuntimeError(f"shard {k}: chariot datagen exited {proc.returncode}: {why}")
        return out.read_bytes()


def write_whole(path, data):
    """Writes `path` whole or not at all: a temporary name, renamed when complete."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(path)


def manifest(out, settings):
    """The run's settings in DIR/cluster.json; a resumed run must have the same ones."""
    path = out / "cluster.json"
    if path.exists():
        old = json.loads(path.read_text())
        if old != settings:
            fail(f"{out} holds a run with other settings ({json.dumps(old)}): use another --out")
    else:
        write_whole(path, json.dumps(settings, indent=1).encode())


def refuse_runner_flags(flags, names, command):
    for flag in names:
        if any(f == flag or f.startswith(flag + "=") for f in flags):
            fail(f"{flag} is set by the runner (per task), not passed to chariot {command}")


def check_datagen(args, flags):
    """Refuses a bad run before anything starts; makes DIR and its manifest."""
    refuse_runner_flags(flags, ("--output", "-o", "--positions", "--seed", "--threads",
                                "--append", "--games", "--check"), "datagen")
    if args.shards < 1 or args.positions < args.shards:
        fail("--shards must be at least 1, and --positions at least --shards")
    out = Path(args.out)
    words = [str(args.chariot), "datagen", *flags, "--output", str(out / ".check"), "--check"]
    run = subprocess.run(words, capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"chariot datagen refuses the flags: {last_line(run.stderr)}", 2)
    out.mkdir(parents=True, exist_ok=True)
    settings = {"shards": args.shards, "positions": args.positions, "seed": args.seed,
                "flags": flags}
    manifest(out, settings)
    for stale in out.glob(".*.tmp"):
        stale.unlink()


def datagen(args, flags, cpus):
    out = Path(args.out)
    sizes = shard_sizes(args.positions, args.shards)
    whole = whole_shards(out, args.shards)
    before = sum(whole.values())
    todo = [k for k in range(args.shards) if k not in whole]
    print(f"cluster: {len(whole)} of {args.shards} shards already whole in {out}; "
          f"{len(todo)} to make on {cpus} CPUs", file=sys.stderr)

    flags, files = rewrite_files(flags, {"--openings", "--eval-file", "--pgn"}, args.shared)
    binary = ship(args.chariot, args.shared, executable=True)
    progress = progress_actor()
    shard = task(make_shard)
    pending = {shard.remote(k, args.seed + k, sizes[k], flags, files, binary, progress): k
               for k in todo}
    started, made, failed = time.time(), 0, []
    progress_bar = bar(args.positions, "positions")
    progress_bar.update(before)
    try:
        while pending:
            done, _ = ray.wait(list(pending), timeout=0.5)
            for ref in done:
                k = pending.pop(ref)
                try:
                    data = ray.get(ref)
                except Exception as e:  # the task failed RETRIES + 1 times
                    failed.append(f"shard {k}: {last_line(e)}")
                    continue
                write_whole(out / shard_name(k, args.shards), data)
                made += len(data) // RECORD_BYTES - 1
                progress.drop.remote(k)
            # Shards end on a whole game, so the count may pass the total; the bar stops there.
            running = report(progress, progress_bar)
            progress_bar.update(min(before + made + running, args.positions) - progress_bar.n)
    except KeyboardInterrupt:
        # No ray.cancel: cancelling tasks whose results are on their way can abort the driver
        # in ray.shutdown ("Tried to complete task that was not pending", Ray 2.60). Shutting
        # down ends this job's workers, and each chariot dies with its worker.
        for stale in out.glob(".*.tmp"):
            stale.unlink()
        progress_bar.close()
        kept = summary(out, args.shards, before, started, max(1, min(cpus, len(todo))))
        fail(f"interrupted: {kept} whole shards in {out}; run the same command again to "
             "make the rest", 130)
    progress_bar.close()
    summary(out, args.shards, before, started, max(1, min(cpus, len(todo))))
    for line in failed:
        print(f"cluster: {line}", file=sys.stderr)
    if failed:
        sys.exit(1)


def whole_shards(out, shards):
    """{k: positions} for each shard k whole in DIR (a shard is written whole or not at all)."""
    paths = {k: out / shard_name(k, shards) for k in range(shards)}
    return {k: p.stat().st_size // RECORD_BYTES - 1 for k, p in paths.items() if p.exists()}


def summary(out, shards, before, started, used):
    """Print what DIR holds and what this run made (the whole shards beyond the `before`
    positions it found) at its rate. A stopped run says the same, so each stretch of a long run
    reports its own throughput. Returns the number of whole shards."""
    secs = max(time.time() - started, 1e-9)
    whole = whole_shards(out, shards)
    total = sum(whole.values())
    made = total - before
    print(f"datagen: {total} positions in {len(whole)} of {shards} shards in {out}; "
          f"made {made} in {secs:.1f} s: {made / secs:.0f} positions/s in all, "
          f"{made / secs / used:.0f} per CPU ({used} CPUs)", flush=True)
    return len(whole)


def last_line(error):
    """The line that says what went wrong: chariot's `error: …` line, else the last one."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    said = [line for line in lines if line.startswith("error:")]
    return (said or lines or [type(error).__name__])[-1]


# ---------------------------------------------------------------------------------------------
# match

GAME_LINE = re.compile(r"^game \d+ \((\d+) of \d+\)")


def play_slice(key, first, games, flags, files, binary, progress):
    """Games first .. first + games − 1 of the match; returns (PGN text, the match's stdout)."""
    binary, flags = local_copy(binary), local_engines(with_files(flags, files))
    with tempfile.TemporaryDirectory(prefix="chariot-match-") as tmp:
        pgn = Path(tmp) / "games.pgn"
        words = ["match", *flags, "--first", str(first), "--games", str(games), "--pgn", str(pgn)]
        proc = start(binary, words, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        tail = []
        for line in proc.stderr:
            m = GAME_LINE.match(line)
            if m:
                progress.set.remote(key, int(m.group(1)))
            tail = (tail + [line.strip()])[-3:]
        stdout = proc.stdout.read()
        proc.wait()
        if proc.returncode != 0:
            raise RuntimeError(f"games {first + 1}-{first + games}: chariot match exited "
                               f"{proc.returncode}: {tail[-1] if tail else ''}")
        return pgn.read_text(), stdout


def local_engines(flags):
    """Engine commands as this worker runs them: shipped programs by their local paths."""
    return [shlex.join([local_copy(f[0]), *f[1]]) if isinstance(f, tuple) else f for f in flags]


def ship_engines(flags, shared):
    """Ships the programs that --engine1/--engine2 name (their first word, if it is a file)."""
    out = list(flags)
    for i, f in enumerate(out):
        if i > 0 and out[i - 1] in ("--engine1", "--engine2"):
            words = shlex.split(f)
            if words and Path(words[0]).is_file() and not shared:
                out[i] = (Shipped(words[0], executable=True), words[1:])
    return out


def tally(binary, pgn_texts, sprt):
    """`chariot tally` over the games so far: its lines and the SPRT's verdict, if decided."""
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
        f.write("".join(pgn_texts))
    try:
        words = [str(binary), "tally", f.name] + (["--sprt", sprt] if sprt else [])
        run = subprocess.run(words, capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if run.returncode != 0:
        fail(f"chariot tally: {run.stderr.strip()}", 1)
    decided = re.search(r" - (H[01] accepted)$", run.stdout, re.MULTILINE)
    return run.stdout, decided.group(1) if decided else None


def check_match(args, flags):
    """Refuses a bad match before anything starts."""
    refuse_runner_flags(flags, ("--first", "--concurrency", "--check", "--pgn", "--games"),
                        "match")
    if args.games < 1:
        fail("--games must be at least 1")
    words = [str(args.chariot), "match", *flags, "--check"]
    if args.sprt:
        words += ["--sprt", args.sprt]
    check = subprocess.run(words, capture_output=True, text=True)
    if check.returncode != 0:
        fail(f"chariot match refuses the flags: {last_line(check.stderr)}", 2)


def match(args, flags, cpus):
    sprt = args.sprt

    # Whole pairs (an opening with both colours); by default about four tasks a CPU.
    batch = args.batch or min(16, -(-args.games // (4 * cpus)))
    batch = max(2, batch + batch % 2)
    slices = [(f, min(batch, args.games - f)) for f in range(0, args.games, batch)]
    flags, files = rewrite_files(flags, {"--openings"}, args.shared)
    flags = ship_engines(flags, args.shared)
    binary = ship(args.chariot, args.shared, executable=True)
    progress = progress_actor()
    play = task(play_slice)
    pending = {play.remote(i, f, n, flags, files, binary, progress): (i, f, n)
               for i, (f, n) in enumerate(slices)}
    print(f"cluster: {args.games} games in {len(slices)} tasks of up to {batch} on {cpus} CPUs",
          file=sys.stderr)
    texts, played, verdict, failed = {}, 0, None, []
    progress_bar = bar(args.games, "games")
    try:
        while pending and not verdict:
            done, _ = ray.wait(list(pending), timeout=0.5)
            for ref in done:
                i, f, n = pending.pop(ref)
                try:
                    texts[f], _ = ray.get(ref)
                except Exception as e:
                    failed.append(f"games {f + 1}-{f + n}: {last_line(e)}")
                    continue
                played += n
                progress.drop.remote(i)
                if sprt:
                    _, verdict = tally(args.chariot, list(texts.values()), sprt)
            progress_bar.update(played + report(progress, progress_bar) - progress_bar.n)
    except KeyboardInterrupt:
        verdict = "interrupted"
    # The tasks still pending end with ray.shutdown, as in datagen (no ray.cancel).
    progress_bar.close()
    if pending:
        print(f"cluster: {verdict}: {len(pending)} tasks cancelled", file=sys.stderr)
    if not texts:
        fail("no game was played" + (f" ({failed[0]})" if failed else ""), 1)
    merged = "".join(texts[f] for f in sorted(texts))
    Path(args.pgn).write_text(merged)
    lines, _ = tally(args.chariot, [merged], sprt)
    print(lines, end="")
    print(f"cluster: every game in {args.pgn}", file=sys.stderr)
    for line in failed:
        print(f"cluster: {line}", file=sys.stderr)
    if failed:
        sys.exit(1)
    if verdict == "interrupted":
        sys.exit(130)


# ---------------------------------------------------------------------------------------------


def parse():
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Flags after the subcommand that this script does not know go to chariot's own "
        "subcommand. The manual: docs/cluster.md.",
    )
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--local", type=int, metavar="N", help="start a Ray cluster of N CPUs here")
    where.add_argument("--address", metavar="ADDR", help="join a running Ray cluster (or auto)")
    sub = p.add_subparsers(dest="command", required=True)

    def common(s):
        s.add_argument("--chariot", type=Path, default=DEFAULT_CHARIOT,
                       help="the chariot binary the tasks run (default: target/release/chariot)")
        s.add_argument("--shared", action="store_true",
                       help="the binary and files are at the same paths on every worker "
                       "(shared storage): do not ship them")

    d = sub.add_parser("datagen", help="chariot datagen in shards, one task each")
    common(d)
    d.add_argument("--out", required=True, help="the folder of the shards")
    d.add_argument("--shards", type=int, required=True, help="number of shards (tasks)")
    d.add_argument("--positions", type=int, required=True, help="positions in all")
    d.add_argument("--seed", type=int, default=1, help="shard k is chariot datagen --seed SEED+k")

    m = sub.add_parser("match", help="chariot match in slices of games, one task each")
    common(m)
    m.add_argument("--games", type=int, required=True, help="number of games")
    m.add_argument("--batch", type=int, help="games per task, rounded up to even (default: about "
                   "four tasks a CPU)")
    m.add_argument("--pgn", default="match.pgn", help="the PGN file of every game")
    m.add_argument("--sprt", help="SPRT: ELO0,ELO1[,ALPHA,BETA]; stops the run when it decides")
    args, rest = p.parse_known_args()
    if args.local is not None and args.local < 1:
        p.error("--local needs at least 1 CPU")
    args.chariot = args.chariot.resolve()
    if not args.chariot.is_file() or not os.access(args.chariot, os.X_OK):
        fail(f"--chariot {args.chariot}: not an executable file (cargo build --release?)", 3)
    return args, rest


def main():
    args, flags = parse()
    (check_datagen if args.command == "datagen" else check_match)(args, flags)
    if args.local is not None:
        ray.init(num_cpus=args.local, include_dashboard=False, logging_level="WARNING",
                 object_store_memory=512 * 1024 * 1024, log_to_driver=False)
    else:
        ray.init(address=args.address, logging_level="WARNING", log_to_driver=False)
    cpus = int(ray.cluster_resources().get("CPU", 1))
    # SIGTERM, and SIGINT even where a shell started the run in the background with SIGINT
    # ignored, stop the run as Ctrl-C does: tasks cancelled, whole shards kept.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        (datagen if args.command == "datagen" else match)(args, flags, cpus)
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
