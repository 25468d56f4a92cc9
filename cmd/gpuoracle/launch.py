#!/usr/bin/env python3
"""The GPU oracle's launcher: runs the cases gpuoracle exported on a real
GPU through the CUDA driver API (ctypes on libcuda, nothing else needed),
and assembles both versions of every file with ptxas.

  launch.py ptxas DIR OUT.json        ptxas -v of every original and
                                      optimized file: registers, spills
  launch.py run DIR FILE_INDEX        run the cases of one file (a child
                                      process: a kernel fault poisons its
                                      CUDA context), print JSON lines
  launch.py all DIR OUT.json          every file in a child with a timeout,
                                      results gathered into OUT.json
  launch.py summary OUT_DIR           summary.md from the two JSON files
  launch.py selftest DIR              the host side checked without a GPU
                                      (a fake driver; gpuoracle's test)

A case is run four times from the same initial memory: the original twice
(a kernel whose two runs differ is nondeterministic on the GPU, a race or
float atomics, and is not compared), then the optimized version; the
verdict compares every byte of every buffer and module .global variable
between the original's and the optimized version's runs. The original's
device result is also compared with the simulator's own final memory (a
check of the simulator; approximate math instructions may legitimately
differ there).
"""
import concurrent.futures
import ctypes
import json
import os
import re
import subprocess
import sys

# ---------------------------------------------------------------- CUDA


class CudaError(Exception):
    pass


class Cuda:
    """The few driver calls the launcher needs."""

    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        self.check(self.lib.cuInit(0), "cuInit")
        dev = ctypes.c_int()
        self.check(self.lib.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
        self.dev = dev
        ctx = ctypes.c_void_p()
        self.check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
        self.check(self.lib.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
        major, minor = ctypes.c_int(), ctypes.c_int()
        self.lib.cuDeviceGetAttribute(ctypes.byref(major), 75, dev)  # compute capability major
        self.lib.cuDeviceGetAttribute(ctypes.byref(minor), 76, dev)
        self.arch = major.value * 10 + minor.value

    def check(self, rc, what):
        if rc != 0:
            name = ctypes.c_char_p()
            self.lib.cuGetErrorName(rc, ctypes.byref(name))
            raise CudaError("%s: %s (%d)" % (what, (name.value or b"?").decode(), rc))

    def load(self, ptx):
        """Loads PTX text through the driver's JIT; returns the module."""
        mod = ctypes.c_void_p()
        log = ctypes.create_string_buffer(1 << 14)
        opts = (ctypes.c_int * 2)(5, 6)  # CU_JIT_ERROR_LOG_BUFFER, ..._SIZE_BYTES
        vals = (ctypes.c_void_p * 2)(ctypes.cast(log, ctypes.c_void_p), ctypes.c_void_p(len(log)))
        data = ctypes.create_string_buffer(ptx)
        rc = self.lib.cuModuleLoadDataEx(ctypes.byref(mod), data, 2, opts, vals)
        if rc != 0:
            try:
                self.check(rc, "cuModuleLoadDataEx")
            except CudaError as e:
                raise CudaError("%s: %s" % (e, log.value.decode(errors="replace").strip()[:400]))
        return mod

    def function(self, mod, name):
        fn = ctypes.c_void_p()
        self.check(self.lib.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), "cuModuleGetFunction " + name)
        return fn

    def global_(self, mod, name):
        """Address and size of a module variable, or None."""
        ptr, size = ctypes.c_uint64(), ctypes.c_size_t()
        if self.lib.cuModuleGetGlobal_v2(ctypes.byref(ptr), ctypes.byref(size), mod, name.encode()) != 0:
            return None
        return ptr.value, size.value

    def alloc(self, n):
        p = ctypes.c_uint64()
        self.check(self.lib.cuMemAlloc_v2(ctypes.byref(p), ctypes.c_size_t(max(n, 256))), "cuMemAlloc")
        return p.value

    def free(self, p):
        self.lib.cuMemFree_v2(ctypes.c_uint64(p))

    def put(self, dst, data):
        if data:
            buf = ctypes.create_string_buffer(bytes(data), len(data))
            self.check(self.lib.cuMemcpyHtoD_v2(ctypes.c_uint64(dst), buf, ctypes.c_size_t(len(data))), "cuMemcpyHtoD")

    def get(self, src, n):
        buf = ctypes.create_string_buffer(n)
        if n:
            self.check(self.lib.cuMemcpyDtoH_v2(buf, ctypes.c_uint64(src), ctypes.c_size_t(n)), "cuMemcpyDtoH")
        return buf.raw

    def launch(self, fn, grid, block, shared, params):
        if shared > 48 << 10:
            # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            self.check(self.lib.cuFuncSetAttribute(fn, 8, shared), "cuFuncSetAttribute")
        bufs = [ctypes.create_string_buffer(bytes(p), max(len(p), 1)) for p in params]
        ptrs = (ctypes.c_void_p * max(len(bufs), 1))(*[ctypes.cast(b, ctypes.c_void_p) for b in bufs])
        self.check(self.lib.cuLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                           shared, None, ptrs, None), "cuLaunchKernel")
        self.check(self.lib.cuCtxSynchronize(), "kernel")


# ---------------------------------------------------------------- cases


def u64(b, at):
    return int.from_bytes(b[at:at + 8], "little")


def put64(b, at, v):
    b[at:at + 8] = (v & (1 << 64) - 1).to_bytes(8, "little")


class Case:
    def __init__(self, d, name):
        with open(os.path.join(d, name + ".json")) as f:
            self.c = json.load(f)
        for key in ("params", "regions", "const", "globals"):
            self.c[key] = self.c.get(key) or []  # Go writes empty lists as null
        with open(os.path.join(d, name + ".bin"), "rb") as f:
            self.blob = f.read()

    def initial(self, addrs):
        """The initial bytes of every region, pointers set to addrs."""
        out = []
        for r in self.c["regions"]:
            b = bytearray(r["size"])
            for ch in r.get("chunks") or []:
                b[ch["off"]:ch["off"] + ch["len"]] = self.blob[ch["init"]:ch["init"] + ch["len"]]
            for rl in r.get("relocs") or []:
                put64(b, rl["at"], addrs[rl["region"]] + rl["off"])
            out.append(b)
        return out

    def params(self, addrs):
        out = []
        for p in self.c["params"]:
            b = bytearray.fromhex(p["hex"])
            for rl in p.get("relocs") or []:
                put64(b, rl["at"], addrs[rl["region"]] + rl["off"])
            out.append(b)
        return out

    def sim_final(self, addrs):
        """The simulator's final bytes of every region over its chunks, with
        its addresses translated to the device's: at the places the input
        held pointers (relocations), and in words the kernel changed to a
        value inside a region. (Not every word inside a region's address
        range is a pointer: a pair of small integers can look like one.)"""
        regions = self.c["regions"]
        out = []
        for r in regions:
            relocs = {rl["at"] for rl in r.get("relocs") or []}
            chunks = []
            for ch in r.get("chunks") or []:
                b = bytearray(self.blob[ch["final"]:ch["final"] + ch["len"]])
                init = self.blob[ch["init"]:ch["init"] + ch["len"]]
                for at in range(0, len(b) - 7, 8):
                    if b[at:at + 8] == init[at:at + 8] and ch["off"] + at not in relocs:
                        continue
                    v = u64(b, at)
                    for k, q in enumerate(regions):
                        if q["sim_base"] <= v < q["sim_base"] + q["sim_size"]:
                            put64(b, at, addrs[k] + v - q["sim_base"])
                            break
                chunks.append((ch["off"], bytes(b)))
            out.append(chunks)
        return out


def run_version(cu, mod, case, addrs, globals_init):
    """One launch from the case's initial state; returns the bytes of every
    region and global afterwards."""
    c = case.c
    for a, b in zip(addrs, case.initial(addrs)):
        cu.put(a, b)
    for name, (ptr, init) in globals_init.items():
        cu.put(ptr, init)
    for p in c.get("const") or []:
        g = cu.global_(mod, p["sym"])
        if g is None:
            raise CudaError("no .const variable " + p["sym"])
        cu.put(g[0] + p["off"], bytes.fromhex(p["hex"]))
    fn = cu.function(mod, c["kernel"])
    cu.launch(fn, c["grid"], c["block"], c["dyn_shared"], case.params(addrs))
    regs = [cu.get(a, r["size"]) for a, r in zip(addrs, c["regions"])]
    gl = {name: cu.get(ptr, len(init)) for name, (ptr, init) in globals_init.items()}
    return regs, gl


def globals_of(cu, mod, case):
    out = {}
    for g in case.c.get("globals") or []:
        at = cu.global_(mod, g["name"])
        if at is not None:
            out[g["name"]] = (at[0], cu.get(at[0], at[1]))
    return out


def first_diff(a, b):
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return i
    return -1 if len(a) == len(b) else min(len(a), len(b))


def compare(x, y):
    """The first difference between two results, or None."""
    (ra, ga), (rb, gb) = x, y
    for k, (a, b) in enumerate(zip(ra, rb)):
        if a != b:
            i = first_diff(a, b)
            return "buffer %d byte %d: %02x vs %02x" % (k, i, a[i], b[i])
    for name in ga:
        if ga[name] != gb.get(name):
            return "global %s differs" % name
    return None


def run_file(d, idx):
    with open(os.path.join(d, "manifest.json")) as f:
        man = json.load(f)
    rec = man["files"][idx]
    cases = [(k["name"], k["changed"], n) for k in rec.get("kernels") or [] for n in k.get("cases") or []]
    if not cases:
        return
    cu = Cuda()

    def out(**kw):
        kw.setdefault("file", rec["name"])
        print(json.dumps(kw), flush=True)

    mods = {}
    for v in ("orig", "opt"):
        try:
            with open(os.path.join(d, rec[v]), "rb") as f:
                mods[v] = cu.load(f.read())
        except (CudaError, OSError) as e:
            for kname, changed, n in cases:
                out(kernel=kname, case=n, changed=changed, status="load error (%s)" % v, detail=str(e))
            return
    for kname, changed, n in cases:
        case = Case(d, n)
        addrs = []
        try:
            addrs = [cu.alloc(r["size"]) for r in case.c["regions"]]
            g0 = globals_of(cu, mods["orig"], case)
            g1 = globals_of(cu, mods["opt"], case)
            a = run_version(cu, mods["orig"], case, addrs, g0)
            a2 = run_version(cu, mods["orig"], case, addrs, g0)
            b = run_version(cu, mods["opt"], case, addrs, g1)
        except CudaError as e:
            out(kernel=kname, case=n, changed=changed, status="launch error", detail=str(e))
            if "kernel" in str(e):
                return  # the context is lost after a fault
            continue
        finally:
            for p in addrs:
                cu.free(p)
        # the simulator's result against the device's
        sim, simdiff, simfirst = case.sim_final(addrs), 0, ""
        for k, chunks in enumerate(sim):
            for off, data in chunks:
                dev = a[0][k][off:off + len(data)]
                if dev != data:
                    simdiff += sum(1 for x, y in zip(data, dev) if x != y)
                    if not simfirst:
                        i = first_diff(data, dev)
                        simfirst = "buffer %d byte %d: simulator %s device %s" % (
                            k, off + i, data[i & ~7:(i & ~7) + 8].hex(), dev[i & ~7:(i & ~7) + 8].hex())
        nd = compare(a, a2)
        if nd is not None:
            out(kernel=kname, case=n, changed=changed, status="nondeterministic", detail=nd, sim_bytes_differ=simdiff, sim_first=simfirst)
            continue
        d2 = compare(a, b)
        out(kernel=kname, case=n, changed=changed, status="match" if d2 is None else "MISMATCH",
            detail=d2 or "", sim_bytes_differ=simdiff, sim_first=simfirst)


def jobs():
    """Children run at once: ORACLE_JOBS, else the machine's CPU count
    (each child has its own CUDA context; the GPU runs them side by side,
    and the driver's JIT of large files is CPU-bound)."""
    try:
        return max(1, int(os.environ.get("ORACLE_JOBS", "")))
    except ValueError:
        return max(1, os.cpu_count() or 1)


def run_one(d, idx, rec, timeout):
    try:
        p = subprocess.run([sys.executable, __file__, "run", d, str(idx)], capture_output=True, text=True, timeout=timeout)
        lines = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
        if p.returncode != 0:
            lines.append({"file": rec["name"], "status": "launcher failed", "detail": p.stderr.strip()[-400:]})
    except subprocess.TimeoutExpired:
        lines = [{"file": rec["name"], "status": "timeout", "detail": "more than %d s" % timeout}]
    return lines


def run_all(d, out_path, timeout=60):
    with open(os.path.join(d, "manifest.json")) as f:
        man = json.load(f)
    todo = [(idx, rec) for idx, rec in enumerate(man["files"])
            if any(k.get("cases") for k in rec.get("kernels") or [])]
    results = []
    with concurrent.futures.ThreadPoolExecutor(jobs()) as pool:
        # results in file order, whatever order the children end in
        for lines in pool.map(lambda t: run_one(d, t[0], t[1], timeout), todo):
            results.extend(lines)
            for x in lines:
                print("%-50s %-40s %s %s" % (x.get("file", "")[:50], x.get("kernel", "")[:40], x["status"], x.get("detail", "")[:80]), flush=True)
    with open(out_path, "w") as f:
        json.dump(results, f, indent=1)


# ---------------------------------------------------------------- ptxas

ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(\w+)'")
FUNC = re.compile(r"Function properties for (\S+)")
SPILL = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"Used (\d+) registers")


def parse_ptxas(text):
    """Per function: registers, stack frame and spill bytes from ptxas -v."""
    out, cur = {}, None
    for line in text.splitlines():
        m = ENTRY.search(line) or FUNC.search(line)
        if m:
            cur = m.group(1)
            out.setdefault(cur, {})
            continue
        if cur is None:
            continue
        m = SPILL.search(line)
        if m:
            out[cur].update(stack=int(m.group(1)), spill_st=int(m.group(2)), spill_ld=int(m.group(3)))
        m = USED.search(line)
        if m:
            out[cur]["regs"] = int(m.group(1))
    return out


def ptxas_arch(path, device_arch):
    """The device's architecture unless the file targets a newer one."""
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"\s*\.target\s+sm_(\d+)(\w?)", line)
            if m:
                n = int(m.group(1))
                if n > device_arch or m.group(2):
                    return "sm_%d%s" % (n, m.group(2))
                break
    return "sm_%d" % device_arch


def ptxas_file(d, rec, device_arch):
    row = {"file": rec["name"]}
    for v in ("orig", "opt"):
        path = os.path.join(d, rec[v])
        arch = ptxas_arch(path, device_arch)
        try:
            p = subprocess.run(["ptxas", "-arch=" + arch, "-v", "-o", os.devnull, path],
                               capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            row[v] = {"arch": arch, "rc": -1, "funcs": {}, "error": "ptxas ran more than 300 s"}
            continue
        row[v] = {"arch": arch, "rc": p.returncode, "funcs": parse_ptxas(p.stderr + p.stdout)}
        if p.returncode != 0:
            row[v]["error"] = (p.stderr.strip().splitlines() or ["?"])[-1][:300]
    return row


def ptxas_all(d, out_path, device_arch=90):
    with open(os.path.join(d, "manifest.json")) as f:
        man = json.load(f)
    recs = [rec for rec in man["files"] if rec.get("opt")]
    rows = []
    with concurrent.futures.ThreadPoolExecutor(jobs()) as pool:
        for row in pool.map(lambda rec: ptxas_file(d, rec, device_arch), recs):
            rows.append(row)
            o, n = row["orig"], row["opt"]
            print("%-55s orig rc %d opt rc %d %s" % (row["file"][:55], o["rc"], n["rc"], n.get("error", "")[:80]), flush=True)
    with open(out_path, "w") as f:
        json.dump(rows, f, indent=1)


# ---------------------------------------------------------------- self-test


class FakeCuda:
    """A stand-in for the driver with memory on the host, whose kernels
    write what the simulator's run left (translated to the fake device's
    addresses): run_file on it must find every case matching, and the
    device result equal to the simulator's. It checks this file's plumbing
    (initial bytes, relocations, parameters, comparisons) without a GPU."""

    def __init__(self):
        self.mem, self.next, self.arch, self.case, self.globals = {}, 1 << 40, 90, None, {}

    def load(self, ptx):
        return object()

    def function(self, mod, name):
        return name

    def global_(self, mod, name):
        # every module variable the case names exists, 64 KiB of zeros
        if name not in self.globals:
            self.globals[name] = (self.alloc(1 << 16), 1 << 16)
        return self.globals[name]

    def alloc(self, n):
        p = self.next
        self.next += (max(n, 256) + 4095) // 4096 * 4096 + 4096
        self.mem[p] = bytearray(max(n, 256))
        return p

    def free(self, p):
        pass

    def _at(self, addr):
        for b, m in self.mem.items():
            if b <= addr < b + len(m):
                return m, addr - b
        raise CudaError("fake: address %#x outside every allocation" % addr)

    def put(self, dst, data):
        m, off = self._at(dst)
        m[off:off + len(data)] = data

    def get(self, src, n):
        m, off = self._at(src)
        return bytes(m[off:off + n])

    def launch(self, fn, grid, block, shared, params):
        case, addrs = self.case
        for k, chunks in enumerate(case.sim_final(addrs)):
            for off, data in chunks:
                self.put(addrs[k] + off, data)


def selftest(d):
    """run_file over every file of d on FakeCuda; exit 1 on any case that
    does not match exactly."""
    global Cuda
    fake = FakeCuda()
    Cuda = lambda: fake
    initial = Case.initial

    def remember(self, addrs):
        fake.case = (self, addrs)
        return initial(self, addrs)
    Case.initial = remember
    import contextlib
    import io
    with open(os.path.join(d, "manifest.json")) as f:
        man = json.load(f)
    n, bad = 0, 0
    for idx in range(len(man["files"])):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            run_file(d, idx)
        for line in buf.getvalue().splitlines():
            x = json.loads(line)
            n += 1
            if x["status"] != "match" or x.get("sim_bytes_differ"):
                bad += 1
                print("selftest:", x)
    print("selftest: %d cases, %d wrong" % (n, bad))
    sys.exit(1 if bad or n == 0 else 0)


# ---------------------------------------------------------------- summary


def summary(out_dir):
    """summary.md from ptxas.json and gpu.json in out_dir."""
    lines = ["# GPU oracle", ""]
    gpu_txt = os.path.join(out_dir, "gpu.txt")
    if os.path.exists(gpu_txt):
        with open(gpu_txt) as f:
            lines += ["Device and tools: " + "; ".join(x.strip() for x in f if x.strip()), ""]
    px = os.path.join(out_dir, "ptxas.json")
    if os.path.exists(px):
        with open(px) as f:
            rows = json.load(f)
        both = [r for r in rows if r["orig"]["rc"] == 0 and r["opt"]["rc"] == 0]
        optfail = [r for r in rows if r["orig"]["rc"] == 0 and r["opt"]["rc"] != 0]
        origfail = [r for r in rows if r["orig"]["rc"] != 0]
        up = down = same = 0
        ra = rb = sa = sb = 0
        worse = []
        for r in both:
            fo, fn = r["orig"]["funcs"], r["opt"]["funcs"]
            for name, a in fo.items():
                b = fn.get(name)
                if b is None or "regs" not in a or "regs" not in b:
                    continue
                ra += a["regs"]
                rb += b["regs"]
                sa += a.get("spill_st", 0) + a.get("spill_ld", 0)
                sb += b.get("spill_st", 0) + b.get("spill_ld", 0)
                if b["regs"] > a["regs"]:
                    up += 1
                    worse.append((b["regs"] - a["regs"], r["file"], name, a["regs"], b["regs"]))
                elif b["regs"] < a["regs"]:
                    down += 1
                else:
                    same += 1
        lines += ["## ptxas -v, original against ptxopt's output", "",
                  "| | count |", "|---|---:|",
                  "| files assembled, both versions | %d |" % len(both),
                  "| files whose original ptxas rejects | %d |" % len(origfail),
                  "| files whose optimized version ptxas rejects (original accepted) | %d |" % len(optfail),
                  "| functions with fewer registers after | %d |" % down,
                  "| functions with the same registers | %d |" % same,
                  "| functions with more registers after | %d |" % up,
                  "| registers, summed over the functions | %d -> %d |" % (ra, rb),
                  "| spill bytes (stores + loads), summed | %d -> %d |" % (sa, sb), ""]
        for r in optfail:
            lines.append("- optimized version rejected: %s: %s" % (r["file"], r["opt"].get("error", "")))
        for r in origfail:
            lines.append("- original rejected: %s: %s" % (r["file"], r["orig"].get("error", "")))
        if worse:
            lines += ["", "Most registers added:", ""]
            for d, fi, name, a, b in sorted(worse, reverse=True)[:15]:
                lines.append("- %s %s: %d -> %d" % (fi, name, a, b))
        lines.append("")
    gj = os.path.join(out_dir, "gpu.json")
    if os.path.exists(gj):
        with open(gj) as f:
            res = json.load(f)
        from collections import Counter
        st = Counter(x["status"] for x in res)
        changed = Counter(x["status"] for x in res if x.get("changed"))
        simeq = sum(1 for x in res if x["status"] in ("match", "MISMATCH") and x.get("sim_bytes_differ") == 0)
        simrun = sum(1 for x in res if x["status"] in ("match", "MISMATCH"))
        lines += ["## Kernels on the GPU, original against optimized, from the simulator's inputs", "",
                  "| status | cases | of them changed by ptxopt |", "|---|---:|---:|"]
        for k, v in st.most_common():
            lines.append("| %s | %d | %d |" % (k, v, changed.get(k, 0)))
        lines += ["", "The device's result of the original equals the simulator's on %d of %d compared cases." % (simeq, simrun), ""]
        simne = [x for x in res if x["status"] in ("match", "MISMATCH") and x.get("sim_bytes_differ")]
        for x in simne[:40]:
            lines.append("- simulator differs: %s %s (%s): %d bytes, first %s" % (
                x.get("file"), x.get("kernel", ""), x.get("case", ""), x["sim_bytes_differ"], x.get("sim_first", "")))
        if simne:
            lines.append("")
        for x in res:
            if x["status"] not in ("match",):
                lines.append("- %s %s: %s %s" % (x.get("file"), x.get("kernel", ""), x["status"], x.get("detail", "")[:200]))
    with open(os.path.join(out_dir, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "run" and len(sys.argv) == 4:
        run_file(sys.argv[2], int(sys.argv[3]))
    elif cmd == "all" and len(sys.argv) == 4:
        run_all(sys.argv[2], sys.argv[3])
    elif cmd == "selftest" and len(sys.argv) == 3:
        selftest(sys.argv[2])
    elif cmd == "summary" and len(sys.argv) == 3:
        summary(sys.argv[2])
    elif cmd == "ptxas" and len(sys.argv) >= 4:
        ptxas_all(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 90)
    else:
        sys.exit(__doc__)
