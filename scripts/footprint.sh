#!/usr/bin/env bash
# What libshmem adds to a program, read from link maps (ld -Map): every input section placed in the image is
# attributed to libshmem.a (the library, its port and its startup code), libgcc, the C library, or the program.
#
#   bash scripts/footprint.sh [--detail] [--base empty.elf.map] [--max program=bytes]... program.elf.map [more...]
#
# For each map: the totals by library and kind (text, rodata, data, bss), then the delta over a baseline map,
# which is what the program pulls in from libshmem + libgcc + libc beyond an empty program linked the same way.
# The baseline is --base, else fp_empty.elf.map next to the first map (bench/footprint/fp_empty.c: the startup
# code, trap report and exit that any program on the target has, since libshmem.a is the platform's crt0).
# --max fp_min=272: exit 1 when fp_min's delta of text is above 272 bytes (a guard; ctest runs it with the target's
# budget, cmake/targets/<target>.cmake). --detail lists the sections behind each delta, largest first (demangled when c++filt is there), and for the
# C and compiler runtime the reference that made the linker take them.
# Alignment padding (*fill*) is not counted anywhere: it is the layout's, not a section's.
set -euo pipefail
detail=0
base=""
maps=()
maxes=""
while [ $# -gt 0 ]; do
  case "$1" in
    --detail) detail=1 ;;
    --base) base="$2"; shift ;;
    --max) maxes="$maxes $2"; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) maps+=("$1") ;;
  esac
  shift
done
[ ${#maps[@]} -ge 1 ] || { echo "usage: $0 [--detail] [--base empty.elf.map] program.elf.map..." >&2; exit 2; }
if [ -z "$base" ]; then
  base="$(dirname "${maps[0]}")/fp_empty.elf.map"
fi
python3 - "$detail" "$base" "$maxes" "${maps[@]}" <<'PY'
import os, re, shutil, subprocess, sys

detail = sys.argv[1] == "1"
base_path = sys.argv[2]
maxes = dict((m.split("=")[0], int(m.split("=")[1])) for m in sys.argv[3].split())
paths = sys.argv[4:]
over = []
KINDS = ("text", "rodata", "data", "bss")
LIBS = ("libshmem", "libgcc", "libc", "program")


def parse(path):
    """[(section name, library, kind, size, object)] of the placed input sections of a link map."""
    lines = open(path, errors="replace").read().split("\n")
    # Only the "Linker script and memory map" part lists placed input sections.
    start = next(i for i, l in enumerate(lines) if l.startswith("Linker script and memory map"))
    out = []
    pending = None  # an input section name too long for its line: its address and size are on the next
    for l in lines[start:]:
        m = re.match(r"^ (\.[^\s]+|COMMON)\s*$", l)
        if m:
            pending = m.group(1)
            continue
        m = re.match(r"^ (\.[^\s]+|COMMON)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)", l)
        if m and (m.group(1) or pending):
            sec = m.group(1) or pending
            pending = None
            size = int(m.group(3), 16)
            src = m.group(4)
            if size == 0 or sec.startswith((".debug", ".comment", ".note", ".stab")):
                continue
            lib = ("libshmem" if "libshmem.a" in src else
                   "libc" if re.search(r"lib(c|m|g|nosys|epiphany)\.a", src) else
                   "libgcc" if "libgcc" in src else "program")
            kind = ("text" if sec.startswith((".text", ".shmem_ivt", ".dram.text")) else
                    "bss" if sec.startswith((".bss", ".sbss", "COMMON")) else
                    "rodata" if sec.startswith(".rodata") else "data")
            obj = re.sub(r"^.*/", "", src)
            out.append((sec, lib, kind, size, obj))
        else:
            pending = None if not l.startswith(" ") or l.strip() == "" else pending
    return out


def pulled_by(path):
    """{archive member: 'file (symbol)'}: who made the linker take each archive member (the map's first part)."""
    lines = open(path, errors="replace").read().split("\n")
    out, member = {}, None
    for l in lines:
        if l.startswith(("Discarded input sections", "Memory Configuration", "Linker script and memory map")):
            break
        if l and not l[0].isspace():
            member = re.sub(r"^.*/", "", l.strip())
        elif member and l.strip():
            out[member] = re.sub(r"^.*/", "", l.strip())
            member = None
    return out


def totals(secs, libs=LIBS):
    t = {}
    for sec, lib, kind, size, obj in secs:
        if lib in libs:
            t[(lib, kind)] = t.get((lib, kind), 0) + size
    return t


def name_of(p):
    return os.path.basename(p).replace(".elf.map", "")


# A section's identity across two programs: its name (the function or object it holds) and the library; the
# object file may differ (an inline function's copy is kept from whichever object the linker met first).
def key(s):
    sec, lib, kind, size, obj = s
    if sec.startswith((".text", ".rodata", ".data", ".bss", ".sbss", ".sdata")) and sec.count(".") >= 2 \
            and not sec.startswith((".rodata.str", ".rodata.cst")):
        return (lib, sec)
    return (lib, sec, obj)  # .text, .data, .rodata.str1.8 ...: one per object file


demangle_cache = {}


def pretty(sec):
    m = re.match(r"^(\.[a-z]+(?:\.startup|\.unlikely)?)\.(.*)$", sec)
    sym = m.group(2) if m else sec
    if sym.startswith("_Z") and shutil.which("c++filt"):
        if sym not in demangle_cache:
            demangle_cache[sym] = subprocess.run(["c++filt", sym], capture_output=True, text=True).stdout.strip()
        return demangle_cache[sym]
    return sym


def row(t, lib):
    return "  ".join(f"{k} {t.get((lib, k), 0):6} B" for k in KINDS)


base = parse(base_path) if os.path.exists(base_path) else None
if base is None:
    print(f"(no baseline {base_path}: build fp_empty for the delta)", file=sys.stderr)
deps = ("libshmem", "libgcc", "libc")

for path in paths:
    secs = parse(path)
    name = name_of(path)
    t = totals(secs)
    for lib in LIBS:
        if any(t.get((lib, k), 0) for k in KINDS):
            print(f"{name:10} {lib:9} {row(t, lib)}")
    if base is None or os.path.abspath(path) == os.path.abspath(base_path):
        print()
        continue
    bt = totals(base)
    for lib in deps:
        d = {k: t.get((lib, k), 0) - bt.get((lib, k), 0) for k in KINDS}
        if any(d.values()):
            print(f"{name:10} {'+' + lib:9} " + "  ".join(f"{k} {d[k]:+6d} B" for k in KINDS))
    delta = {k: sum(t.get((l, k), 0) - bt.get((l, k), 0) for l in deps) for k in KINDS}
    print(f"{name:10} {'delta':9} " + "  ".join(f"{k} {delta[k]:+6d} B" for k in KINDS)
          + f"   = what the program pulls in from libshmem, libgcc and libc beyond {name_of(base_path)}")
    if name in maxes:
        verdict = "within" if delta["text"] <= maxes[name] else "OVER"
        print(f"{name:10} budget    text {delta['text']:+6d} B: {verdict} its budget of {maxes[name]} B")
        if delta["text"] > maxes[name]:
            over.append(name)
    if detail:
        have = {}
        for s in base:
            if s[1] in deps:
                have[key(s)] = have.get(key(s), 0) + s[3]
        mine = {}
        info = {}
        for s in secs:
            if s[1] in deps:
                mine[key(s)] = mine.get(key(s), 0) + s[3]
                info[key(s)] = s
        why = pulled_by(path)
        rows = []
        for k in set(mine) | set(have):
            d = mine.get(k, 0) - have.get(k, 0)
            if d:
                sec, lib, kind, size, obj = info.get(k) or next(s for s in base if key(s) == k)
                what = pretty(sec)
                if lib in ("libgcc", "libc") and obj in why:  # the runtime: say who needed it
                    what += f"   <- {why[obj]}"
                rows.append((d, kind, lib, obj, what))
        for kind in KINDS:
            for d, knd, lib, obj, what in sorted((r for r in rows if r[1] == kind), key=lambda r: -r[0]):
                print(f"{'':10} {d:+6d} {knd:6} {lib:8} {obj:22} {what}")
    print()
missing = sorted(set(maxes) - set(name_of(p) for p in paths))
if missing:
    print(f"footprint: --max for {', '.join(missing)}, whose maps were not given", file=sys.stderr)
    sys.exit(2)
if over:
    print(f"footprint: over budget: {', '.join(over)}", file=sys.stderr)
    sys.exit(1)
PY
