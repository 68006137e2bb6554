#!/usr/bin/env python3
"""GCC's c-torture execute tests on a libshmem target, judged against a reviewed list.

The tests are gcc/testsuite/gcc.c-torture/execute/*.c and ieee/*.c of the GCC source tarball that matches the
target's compiler (Debian's gcc-12-source). Each is compiled with the target's C compiler and the project's link
recipe (the startup code, the linker script and libshmem.a: what add_shmem_executable links; then -lm, as GCC's
harness links every test, and the config's stack and malloc heap sizes), at each optimisation level of the config,
and run through oshrun at one PE. Its outcome is one of

  pass                  the run exits 0
  fail-compile          the compiler fails
  fail-link             the link fails
  fail-run(N)           the run exits N (134: abort(), 139: a fault, 124: the time limit)
  fail-isa(MNEMONICS)   the image holds instructions that oshrun's simulator does not execute (its warning)
  skipped               the test's directives rule it out for this target (the reason is printed)

expected.txt lists the tests that do not pass, each with its outcome and the reason. A shard fails on a test that
does not pass and is not listed with that outcome, and on a listed test that passes or is skipped, so that the
list stays true. What the GCC harness does that this one does too (gcc-dg.exp, c-torture.exp):
  - execute/: the dg- directives in the file: dg-options, dg-additional-options, dg-add-options,
    dg-require-effective-target, dg-skip-if, dg-xfail-if (a match skips), dg-do, each with its target selector;
    dg-require-stack-size and dg-add-options stack_size as for a target that declares no small stack (the images
    have the config's); every compile has -w.
  - ieee/: c-torture-execute with -fno-inline (and -DSIGNAL_SUPPRESS where the target has no signals), and the
    companion .x file (its additional_flags, its return 1 = skip), read by the small reader below.
  - builtins/ is left out: those tests link a -lib.c of their own and a main of the harness's.

Usage:
  run_ctorture.py --config ctorture.json extract          extract the tests (the ctest fixture does it once)
  run_ctorture.py --config ctorture.json --shard K/N      run shard K of N (the ctest tests)
  run_ctorture.py --config ctorture.json --only NAME ...  run these tests only (e.g. pr12345, ieee/fp-cmp-1)
"""

import argparse
import fnmatch
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

# ---- what the target is, for the directives' selectors ------------------------------------------------------------

# The triplet that target selectors (istarget) are matched against (the config's): the compiler is a *-linux-gnu
# one, but the programs are bare metal with newlib, as on a *-elf board.
TRIPLET = None

# Effective-target keywords the directives of these tests ask about, and what the target is: TILE-Gx with GCC 12
# and newlib (the one target whose preset runs these tests). An unknown keyword is an error, not a guess.
EFFECTIVE_TARGETS = {
    # true of TILE-Gx with GCC 12 and newlib
    "alias": True, "weak": True,            # ELF
    "alloca": True, "label_values": True, "indirect_jumps": True, "untyped_assembly": True,
    "return_address": True,
    "trampolines": True,    # written on the stack, then __clear_cache (mf, icoh); all memory executes
    "int32": True, "int32plus": True, "longlong64": True, "int128": True, "lp64": True, "double64plus": True,
    "stdint_types": True,
    "unwrapped": True,                     # no wrapper around main or exit
    "newlib_nano_io": True,                # newlib is built with nano formatted I/O: -Wl,-u,_printf_float for %f
    "fpic": True,
    # false
    "c99_runtime": False,   # GCC's rule (gcc.dg/builtins-config.h): not with newlib (no "l" math functions)
    "fileio": False,        # no file system: the startup code gives newlib no open()
    "mmap": False,          # no mmap on bare metal
    "signal": False,        # no signal delivery on bare metal: a trap ends the run (GCC's gcc,signal_suppress)
    "dfp": False,           # GCC's tilegx port has no decimal floating point
    "freestanding": False,  # newlib is a hosted C library (stdio, stdlib)
    "ia32": False, "vxworks_kernel": False,
}

# ---- a reader of Tcl words, for the directives and the .x files -----------------------------------------------------


def past_closing(text, i, opening, closing):
    """The index just past the bracket that closes the one at text[i] (nested pairs counted, a backslash escaping
    the next character), or an index at or past the end of text if none does."""
    depth, j, n = 1, i + 1, len(text)
    while j < n and depth:
        if text[j] == "\\":
            j += 2
            continue
        depth += {opening: 1, closing: -1}.get(text[j], 0)
        j += 1
    return j


def tcl_words(text):
    """Splits text into Tcl words: "quoted", {braced} (kept as the text inside) or bare; [cmd] stays one word."""
    words, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if c == "{":
            j = past_closing(text, i, "{", "}")
            words.append(("brace", text[i + 1:j - 1]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            words.append(("quote", text[i + 1:j]))
            i = j + 1
        elif c == "[":
            j = past_closing(text, i, "[", "]")
            words.append(("cmd", text[i:j]))  # with its brackets: a condition of its own
            i = j
        else:
            j = i
            while j < n and not text[j].isspace():
                j += 1
            words.append(("bare", text[i:j]))
            i = j
    return words


class Unknown(Exception):
    """A directive or .x construct this reader does not know: the test is reported, not guessed at."""


def effective(keyword):
    if keyword not in EFFECTIVE_TARGETS:
        raise Unknown("effective target '%s' is not in run_ctorture.py's EFFECTIVE_TARGETS" % keyword)
    return EFFECTIVE_TARGETS[keyword]


def istarget(pattern):
    return fnmatch.fnmatchcase(TRIPLET, pattern)


def looks_like_triplet(word):
    return word.count("-") >= 2 or "*" in word


def selector_true(text):
    """A dg target selector: a list of triplet patterns (any matches), or an expression of effective-target keywords
    and triplets with !, && and ||; "target" or "xfail" in front is dropped."""
    words = tcl_words(text)
    if words and words[0][1] in ("target", "xfail") and words[0][0] == "bare":
        words = words[1:]
        if len(words) == 1 and words[0][0] == "brace":
            return selector_true(words[0][1])
    if any(w[1] in ("!", "&&", "||") and w[0] == "bare" for w in words):
        return expression(words)
    if len(words) == 1 and words[0][0] == "brace":
        return selector_true(words[0][1])
    # A list: each a triplet pattern, or (one word that is no triplet) an effective-target keyword.
    for kind, w in words:
        if kind == "brace":
            if selector_true(w):
                return True
        elif looks_like_triplet(w):
            if istarget(w):
                return True
        elif effective(w):
            return True
    return False


def expression(words):
    """!, && and || over operands (a braced sub-selector, a triplet or a keyword), && binding tighter."""
    pos = 0

    def operand():
        nonlocal pos
        kind, w = words[pos]
        pos += 1
        if kind == "bare" and w == "!":
            return not operand()
        if kind == "brace":
            return selector_true(w)
        return istarget(w) if looks_like_triplet(w) else effective(w)

    def conjunction():
        nonlocal pos
        value = operand()
        while pos < len(words) and words[pos][1] == "&&":
            pos += 1
            value = operand() and value
        return value

    value = conjunction()
    while pos < len(words) and words[pos][1] == "||":
        pos += 1
        value = conjunction() or value
    if pos != len(words):
        raise Unknown("selector not understood: %s" % " ".join(w for _, w in words))
    return value


def option_words(text):
    """The options of a dg-options argument or an include/exclude list: the words of the (quoted or braced) text."""
    out = []
    for kind, w in tcl_words(text):
        out.extend(shlex.split(w) if kind in ("quote", "brace") else [w])
    return out


def flags_match(include, exclude, flags):
    """GCC's check-flags: some include option (or "*") is among the flags, and no exclude option is."""
    def present(opt):
        return opt == "*" or opt in flags
    inc = [o for o in include if o != ""] or ["*"]
    return any(present(o) for o in inc) and not any(present(o) for o in exclude if o != "")


# ---- one test: its directives, its flags ----------------------------------------------------------------------------


def directives(source):
    """The dg- directives of a file, as (name, [args]) in order: every "{ dg-name ... }" with balanced braces."""
    out = []
    for m in re.finditer(r"\{\s*(dg-[a-z-]+)", source):
        depth, j = 1, m.start() + 1
        while j < len(source) and depth:
            if source[j] == "\\":
                j += 2
                continue
            depth += {"{": 1, "}": -1}.get(source[j], 0)
            j += 1
        body = source[m.end():j - 1]
        out.append((m.group(1), tcl_words(body)))
    return out


def plan_dg(source, opt):
    """(flags, skip reason or None) for an execute/ test from its dg- directives."""
    flags = []
    for name, args in directives(source):
        def sel(i):  # the optional target selector at args[i]
            return i >= len(args) or selector_true(args[i][1])
        if name in ("dg-options", "dg-additional-options"):
            if sel(1):
                flags += option_words(args[0][1])
        elif name == "dg-add-options":
            what = args[0][1]
            if what not in ("stack_size", "ieee"):
                raise Unknown("dg-add-options %s" % what)
            # stack_size: -DSTACK_SIZE only for a board that declares a small stack (gcc,stack_size); these images
            # have the config's stack_size (CMakeLists.txt). ieee: options for alpha, sh and a few others only.
        elif name == "dg-require-effective-target":
            if sel(1) and not effective(args[0][1]):
                return flags, "needs effective target %s" % args[0][1]
        elif name == "dg-require-stack-size":
            pass  # checked only against a board's declared stack (gcc,stack_size), as dg-add-options stack_size
        elif name in ("dg-skip-if", "dg-xfail-if", "dg-xfail-run-if"):
            if selector_true(args[1][1]):
                include = option_words(args[2][1]) if len(args) > 2 else ["*"]
                exclude = option_words(args[3][1]) if len(args) > 3 else []
                if flags_match(include, exclude, [opt] + flags):
                    why = args[0][1] or "dg-skip-if { %s }" % args[1][1].strip()
                    if name != "dg-skip-if":
                        why = "GCC expects it to fail here (%s): %s" % (name, why)
                    return flags, why
        elif name == "dg-do":
            if args[0][1] != "run":
                return flags, "dg-do %s: not an execute test" % args[0][1]
        elif name in ("dg-require-alias", "dg-require-weak"):
            pass  # ELF has both
        elif name in ("dg-prune-output", "dg-final", "dg-warning", "dg-message", "dg-bogus", "dg-error"):
            pass  # about the compiler's messages, which -w and this driver do not judge
        else:
            raise Unknown("directive %s" % name)
    return flags, None


def plan_x(xfile):
    """(flags, skip reason or None) from a companion .x file of ieee/: Tcl of a few forms, read literally."""
    flags = []
    text = re.sub(r"(?m)^\s*#.*$", "", open(xfile).read())
    result = run_tcl(text, flags)
    if result == 1:
        return flags, "%s returns 1 for this target" % os.path.basename(xfile)
    return flags, None


def run_tcl(text, flags):
    """Runs the commands of a .x file that apply here (if, return, lappend additional_flags, global); returns 0, 1
    or None (no return). Commands in the branches of other targets are never run, so never judged."""
    # Commands are separated by newlines or semicolons outside braces.
    commands, cur, depth, quote = [], "", 0, False
    for c in text:
        if c == '"' and depth == 0:
            quote = not quote
        if not quote:
            depth += {"{": 1, "}": -1, "[": 1, "]": -1}.get(c, 0)
        if c in "\n;" and depth == 0 and not quote:
            commands.append(cur)
            cur = ""
        else:
            cur += c
    commands.append(cur)
    for command in commands:
        words = tcl_words(command)
        if not words:
            continue
        head = words[0][1]
        if head == "return":
            return int(words[1][1])
        if head == "lappend" and words[1][1] == "additional_flags":
            flags.extend(w for _, w in words[2:])
        elif head == "global":
            pass
        elif head == "set":  # an xfail marker or a torture hook for this target: not modelled here
            raise Unknown(".x file sets %s for this target" % words[1][1])
        elif head == "if":
            words = [w for w in words if w != ("bare", "then")]
            i = 1
            while i < len(words):
                cond, body = words[i][1], words[i + 1][1]
                if tcl_condition(cond):
                    r = run_tcl(body, flags)
                    if r is not None:
                        return r
                    break
                i += 2
                if i < len(words) and words[i][1] == "elseif":
                    i += 1
                elif i < len(words) and words[i][1] == "else":
                    r = run_tcl(words[i + 1][1], flags)
                    if r is not None:
                        return r
                    break
        else:
            raise Unknown(".x command not understood: %s" % command.strip())
    return None


def tcl_condition(text):
    """[istarget "pattern"], [check_effective_target_K], !, &&, || and parentheses, as Tcl's expr has them: && and
    || short-circuit (a keyword of another target's is never asked for)."""
    calls = []

    def call(m):
        calls.append(tcl_words(m.group(1)))
        return " c(%d) " % (len(calls) - 1)

    def c(k):
        words = calls[k]
        if words[0][1] == "istarget":
            return istarget(re.sub(r"\\(.)", r"\1", words[1][1]))  # Tcl's backslash escapes
        m = re.fullmatch(r"check_effective_target_(\w+)", words[0][1])
        if m:
            return effective(m.group(1))
        if words[0][1] == "string-match":
            return False  # matches a board's CFLAGS, which no board here sets
        raise Unknown(".x condition not understood: [%s]" % " ".join(w for _, w in words))
    py = re.sub(r"\[((?:[^\[\]\\]|\\.)*)\]", call, text)
    py = py.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    if set(re.findall(r"[A-Za-z_]+", py)) - {"c", "and", "or", "not"} or re.search(r"[^\sA-Za-z_()0-9]", py):
        raise Unknown(".x condition not understood: %s" % text)
    return eval(py, {"__builtins__": {}, "c": c})


# ---- the runs -------------------------------------------------------------------------------------------------------


def sh(cmd):
    return " ".join(shlex.quote(c) for c in cmd)


def run_one(cfg, name, opt, workdir):
    """Builds and runs one test at one level: (outcome, detail, commands)."""
    src = os.path.join(cfg["src_dir"], name + ".c")
    source = open(src, errors="replace").read()
    if name.startswith("ieee/"):
        base = ["-fno-inline"] + ([] if EFFECTIVE_TARGETS["signal"] else ["-DSIGNAL_SUPPRESS"])
        x = os.path.join(cfg["src_dir"], name + ".x")
        extra, skip = plan_x(x) if os.path.exists(x) else ([], None)
        flags = base + extra
    else:
        flags, skip = plan_dg(source, opt)
    if skip:
        return "skipped", skip, []
    stem = os.path.join(workdir, name.replace("/", "_"))
    obj, img = stem + ".o", stem + ".img"
    common = [cfg["cc"]] + cfg["cflags"] + [opt, "-w"] + flags
    compile_cmd = common + ["-c", src, "-o", obj]
    # -lm last: GCC's harness links every test with it (the project's link options name it before the objects).
    link_cmd = common + [obj] + cfg["ldflags"] + ["-Wl,--defsym=__stack_size=%d" % cfg["stack_size"],
                                                  "-Wl,--defsym=__private_heap_size=%d" % cfg["heap_size"],
                                                  cfg["libshmem"], "-lm", "-o", img]
    run_cmd = [cfg["oshrun"], "--target", cfg["target"], "--timeout", str(cfg["timeout"]), "-np", "1", img]
    commands = [compile_cmd, link_cmd, run_cmd]
    r = subprocess.run(compile_cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=workdir)
    if r.returncode != 0:
        return "fail-compile", r.stdout.decode(errors="replace"), commands
    r = subprocess.run(link_cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=workdir)
    if r.returncode != 0:
        return "fail-link", r.stdout.decode(errors="replace"), commands
    r = subprocess.run(run_cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=workdir,
                       stdin=subprocess.DEVNULL)
    out = r.stdout.decode(errors="replace")
    # oshrun's warning of instructions its simulator does not execute (a scan of the image's code sections). An
    # "<invalid>" there is a word of data in .text, which no run executes (GCC's TILE-Gx trampoline template ends with
    # two zero words, the slots that each trampoline's copy fills with addresses); every mnemonic is a gap.
    lacking = re.search(r"does not execute: (.*?); a run faults", out)
    if lacking:
        gaps = [g for g in lacking.group(1).split("), ") if not g.startswith("<invalid>")]
        if gaps:
            return "fail-isa(%s)" % ", ".join(g.split(" (")[0] for g in gaps), out, commands
    if r.returncode != 0:
        return "fail-run(%d)" % r.returncode, out, commands
    return "pass", out, commands


def remove_outputs(commands):
    """Removes what the commands built (the object, the image), where they built it."""
    for f in (commands[0][-1], commands[1][-1]):
        if os.path.exists(f):
            os.remove(f)


def load_expected(path):
    """{(name, level or None): (outcome, reason)} from expected.txt: "name[@-Olevel]  outcome  reason"."""
    out = {}
    for lineno, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 3:
            sys.exit("%s:%d: expected 'name outcome reason'" % (path, lineno))
        name, outcome, reason = parts
        level = None
        if "@" in name:
            name, level = name.split("@", 1)
        if (name, level) in out:
            sys.exit("%s:%d: %s is listed twice" % (path, lineno, name))
        out[(name, level)] = (outcome, reason)
    return out


def all_tests(src_dir):
    names = []
    for sub in ("", "ieee/"):
        d = os.path.join(src_dir, sub)
        names += sorted(sub + f[:-2] for f in os.listdir(d) if f.endswith(".c"))
    return names


def extract(cfg):
    """The execute/ tests of the tarball into src_dir (once per tarball: a stamp names it)."""
    src_dir, tarball = cfg["src_dir"], cfg["tarball"]
    stamp = os.path.join(src_dir, ".extracted-from")
    want = "%s %d\n" % (tarball, os.stat(tarball).st_mtime)
    if os.path.exists(stamp) and open(stamp).read() == want:
        print("ctorture: the tests of %s are in %s" % (tarball, src_dir))
        return 0
    tmp = src_dir + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(src_dir, ignore_errors=True)
    os.makedirs(tmp)
    member = cfg["tarball_member"]  # gcc-X.Y.Z/gcc/testsuite/gcc.c-torture/execute
    t0 = time.time()
    subprocess.run([cfg["tar"], "-xJf", tarball, "-C", tmp, "--strip-components=%d" % member.count("/"),
                    "--wildcards", "--no-wildcards-match-slash", member + "/*.c", member + "/*.h",
                    member + "/ieee/*"], check=True)
    os.rename(os.path.join(tmp, "execute"), src_dir)
    shutil.rmtree(tmp)
    open(stamp, "w").write(want)
    print("ctorture: %d tests extracted from %s in %.0f s" % (len(all_tests(src_dir)), tarball, time.time() - t0))
    return 0


def main():
    global TRIPLET
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", required=True, help="the JSON file that the build tree writes (ctorture.json)")
    ap.add_argument("--shard", default="1/1", help="K/N: the K-th of N interleaved parts of the tests")
    ap.add_argument("--only", nargs="*", help="these tests only (names as in expected.txt)")
    ap.add_argument("--opt", action="append", help="an optimisation level instead of the config's (--opt=-O1; "
                                                   "repeatable)")
    ap.add_argument("action", nargs="?", default="run", choices=("run", "extract"))
    a = ap.parse_args()
    cfg = json.load(open(a.config))
    cfg["ldflags"] = cfg["ldflags"].split(";")  # a CMake list: its items have commas
    TRIPLET = cfg["triplet"]
    if a.action == "extract":
        return extract(cfg)
    if not os.path.exists(os.path.join(cfg["src_dir"], ".extracted-from")):
        sys.exit("ctorture: no tests in %s: run %s --config %s extract" % (cfg["src_dir"], sys.argv[0], a.config))
    k, n = (int(v) for v in a.shard.split("/"))
    levels = a.opt or cfg["levels"]
    expected = load_expected(cfg["expected"])
    tests = all_tests(cfg["src_dir"])
    if a.only:
        unknown = [t for t in a.only if t not in tests]
        if unknown:
            sys.exit("ctorture: no such test: %s" % " ".join(unknown))
        tests = a.only
    mine = [(t, lvl) for t in tests for lvl in levels][k - 1::n]
    problems = []  # (test@level, what, commands)
    if k == 1 and not a.only:  # every entry names a test and a level that run (shard 1 checks, once)
        for (name, level) in expected:
            if name not in tests or (level and level not in cfg["levels"]):
                problems.append(("%s@%s" % (name, level or "*"), "listed in %s, but no such test or level runs"
                                 % cfg["expected"], []))
    counts = {"compiled": 0, "passed": 0, "expected": 0, "skipped": 0}
    skipped_why, times = {}, []
    t0 = time.time()
    for name, level in mine:
        test = "%s@%s" % (name, level)
        # A directory of this process's own (two runs of one tree may overlap); a pass leaves nothing in it.
        workdir = os.path.join(cfg["work_dir"], "%s.%d" % (level.lstrip("-"), os.getpid()))
        os.makedirs(workdir, exist_ok=True)
        t1 = time.time()
        try:
            outcome, detail, commands = run_one(cfg, name, level, workdir)
        except Unknown as e:
            problems.append((test, "not run: %s" % e, []))
            continue
        times.append((time.time() - t1, test))
        listed = expected.get((name, level)) or expected.get((name, None))
        if outcome not in ("skipped", "fail-compile"):
            counts["compiled"] += 1
        if outcome == "skipped":
            counts["skipped"] += 1
            skipped_why[detail] = skipped_why.get(detail, 0) + 1
            if listed:
                problems.append((test, "listed as %s, but skipped: %s" % (listed[0], detail), []))
        elif outcome == "pass":
            counts["passed"] += 1
            remove_outputs(commands)
            if listed:
                problems.append((test, "passes, but is listed as %s (%s): take it off the list" % listed, commands))
        elif listed and listed[0] == outcome:
            counts["expected"] += 1
            remove_outputs(commands)
        else:  # its files stay, for the commands printed
            tail = "\n".join(detail.strip().splitlines()[-8:])
            problems.append((test, "%s%s\n    %s" % (outcome, ", listed as " + listed[0] if listed else "",
                                                   tail.replace("\n", "\n    ")), commands))
    for test, what, commands in problems:
        name, level = test.split("@")
        print("UNEXPECTED %s: %s" % (test, what))
        if commands:
            print("  to reproduce:")
            for c in commands:
                print("    " + sh(c))
        if name not in tests:
            continue
        print("  or: %s %s --config %s --only %s%s" % (sys.executable, os.path.abspath(__file__),
                                                      os.path.abspath(a.config), name,
                                                      " --opt=" + level if level != "*" else ""))
    for level in levels:
        try:
            os.rmdir(os.path.join(cfg["work_dir"], "%s.%d" % (level.lstrip("-"), os.getpid())))
        except OSError:
            pass  # kept: the failures' objects and images, for the commands above
    for why, count in sorted(skipped_why.items()):
        print("skipped %d: %s" % (count, why))
    slowest = ", ".join("%s %.1f s" % (t, s) for s, t in sorted(times, reverse=True)[:3])
    print("ctorture shard %d/%d at %s: %d runs, %d compiled, %d passed, %d expected failures, %d skipped, "
          "%d unexpected; %.0f s (slowest: %s)" % (k, n, " ".join(levels), len(mine), counts["compiled"],
                                                   counts["passed"], counts["expected"], counts["skipped"],
                                                   len(problems), time.time() - t0, slowest))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
