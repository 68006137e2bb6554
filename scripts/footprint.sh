#!/usr/bin/env bash
# What libshmem adds to a program: the bytes of every input section the link map attributes to libshmem.a
# (the library, its port and its startup code), by kind, plus what the C and compiler runtime add.
#   bash scripts/footprint.sh build-dir/bench/footprint/fp_min.elf.map [more maps...]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 program.elf.map..." >&2; exit 2; }
for map in "$@"; do
  python3 - "$map" <<'PY'
import re, sys
path = sys.argv[1]
lines = open(path, errors="replace").read().split("\n")
# Only the "Linker script and memory map" part lists placed input sections.
start = next(i for i, l in enumerate(lines) if l.startswith("Linker script and memory map"))
sizes = {}
pending = None
for l in lines[start:]:
    m = re.match(r"^ (\.[^\s]+)\s*$", l)
    if m:
        pending = m.group(1)
        continue
    m = re.match(r"^ (\.[^\s]+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+)", l)
    if m and (m.group(1) or pending):
        sec = m.group(1) or pending
        pending = None
        size = int(m.group(3), 16)
        src = m.group(4)
        if size == 0 or sec.startswith((".debug", ".comment", ".note", ".stab")):
            continue
        lib = ("libshmem" if "libshmem.a" in src else "libc" if re.search(r"lib(c|m|g|nosys|epiphany)\.a", src)
               else "libgcc" if "libgcc" in src else "program")
        kind = ("text" if sec.startswith((".text", ".shmem_ivt", ".dram.text")) else
                "bss" if sec.startswith((".bss", ".sbss", "COMMON")) else
                "rodata" if sec.startswith(".rodata") else "data")
        sizes[(lib, kind)] = sizes.get((lib, kind), 0) + size
    else:
        pending = None if not l.startswith(" ") or l.strip() == "" else pending
name = path.rsplit("/", 1)[-1].replace(".elf.map", "")
for lib in ("libshmem", "libgcc", "libc", "program"):
    row = {k: sizes.get((lib, k), 0) for k in ("text", "rodata", "data", "bss")}
    if any(row.values()):
        print(f"{name:12} {lib:9} text {row['text']:6} B  rodata {row['rodata']:5} B  data {row['data']:5} B  bss {row['bss']:5} B")
PY
done
