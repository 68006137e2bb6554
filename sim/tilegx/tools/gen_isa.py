#!/usr/bin/env python3
"""Derive the TILE-Gx instruction table of sim/tilegx (isa_table.inc) by probing the project's own assembler.

Development-time tool; its output is committed. Nothing of binutils' sources is copied: the list of mnemonics and
one operand form of each come from binutils' assembler test list (gas/testsuite/gas/tilegx/t_insns.s in Debian's
binutils-source, read at run time), and every encoding fact is measured by assembling bundles with the project's
own tilegx-linux-gnu-as (scripts/tile-toolchain.sh):

  * which pipes take an instruction: it is bundled with fillers that each fit one pipe only (a bundle assembles
    iff the instruction fits the pipe the fillers leave free);
  * where each operand lives: the operand is varied over single bits (r1, r2, r4 ... r32; 1, 2, 4 ... 2^15;
    .+8, .+16 ...) and the bits that change are snapped to one of the fields of isa.hpp (`Field`);
  * whether an immediate is signed: whether -1 assembles;
  * the opcode: the pipe's bits that are no operand's field form the mask, their values with every operand at
    zero the match; bits objdump ignores (a flipped one disassembles the same) leave the mask.
SPR names come from objdump's disassembly of mfspr over every SPR number.

usage: gen_isa.py BINUTILS TOOLCHAIN_BIN_DIR OUT.inc
  BINUTILS: Debian's /usr/src/binutils/binutils-2.40.tar.xz, or that tarball unpacked
  e.g. gen_isa.py /usr/src/binutils/binutils-2.40.tar.xz ~/.cache/libshmem/toolchains/tilegx-linux-gnu-gcc12/bin \
                  sim/tilegx/isa_table.inc
"""
import os
import re
import subprocess
import sys
import tempfile

# Bit sets of the five pipes (facts: the field layout of the TILE-Gx bundle). X mode: bits 62-63 are 0.
MODE = 0b11 << 62
def bits(lo, hi):
    return ((1 << (hi - lo + 1)) - 1) << lo
PIPE_BITS = {
    'X0': bits(0, 30) | MODE,
    'X1': bits(31, 61) | MODE,
    'Y0': bits(0, 19) | bits(27, 30),
    'Y1': bits(31, 50) | bits(58, 61),
    'Y2': bits(20, 26) | bits(51, 57) | MODE,
}
# Operand fields, by name as in isa.hpp's enum Field: list of (shift, width) pieces, lowest piece first.
FIELDS = {
    'Dest_X0': [(0, 6)], 'SrcA_X0': [(6, 6)], 'SrcB_X0': [(12, 6)], 'Imm8_X0': [(12, 8)],
    'Imm16_X0': [(12, 16)], 'ShAmt_X0': [(12, 6)], 'BFEnd_X0': [(12, 6)], 'BFStart_X0': [(18, 6)],
    'Dest_X1': [(31, 6)], 'SrcA_X1': [(37, 6)], 'SrcB_X1': [(43, 6)], 'Imm8_X1': [(43, 8)],
    'Imm16_X1': [(43, 16)], 'ShAmt_X1': [(43, 6)], 'MF_Imm14_X1': [(37, 14)],
    'MT_Imm14_X1': [(31, 6), (43, 8)], 'Dest_Imm8_X1': [(31, 6), (49, 2)],
    'BrOff_X1': [(31, 6), (43, 11)], 'JumpOff_X1': [(31, 27)],
    'Dest_Y0': [(0, 6)], 'SrcA_Y0': [(6, 6)], 'SrcB_Y0': [(12, 6)], 'Imm8_Y0': [(12, 8)], 'ShAmt_Y0': [(12, 6)],
    'Dest_Y1': [(31, 6)], 'SrcA_Y1': [(37, 6)], 'SrcB_Y1': [(43, 6)], 'Imm8_Y1': [(43, 8)], 'ShAmt_Y1': [(43, 6)],
    'SrcA_Y2': [(20, 6)], 'SrcBDest_Y2': [(51, 6)],
}
def field_mask(name):
    m = 0
    for s, w in FIELDS[name]:
        m |= bits(s, s + w - 1)
    return m
FIELD_ORDER = list(FIELDS)

REGS = ['r%d' % i for i in range(53)] + ['tp', 'sp', 'lr', 'sn', 'idn0', 'idn1', 'udn0', 'udn1', 'udn2', 'udn3',
                                          'zero']
REG_RE = re.compile(r'^(r\d+|tp|sp|lr|sn|idn[01]|udn[0-3]|zero)$')

# One filler per pipe that fits that pipe only among its mode's pipes, with registers no probe uses.
FILL = {'X0': 'bfextu r44, r45, 1, 2', 'X1': 'mfspr r48, 0', 'Y0': 'mul_hs_hs r44, r45, r46',
        'Y1': 'jr r47', 'Y2': 'ld r48, r49'}
def bundle(pipe, insn):
    if pipe == 'X0':
        return '{ %s ; %s }' % (insn, FILL['X1'])
    if pipe == 'X1':
        return '{ %s ; %s }' % (insn, FILL['X0'])
    others = [p for p in ('Y0', 'Y1', 'Y2') if p != pipe]
    return '{ %s ; %s ; %s }' % (insn, FILL[others[0]], FILL[others[1]])
# Instructions that cannot be bundled: alone, they are padded with nops (the pipe is found from the bits).
EXTRA_FORMS = ['bpt', 'drain', 'nap', 'swint0', 'swint1', 'swint2', 'swint3']


def forms_from_tests(t_insns):
    forms = {}
    for line in open(t_insns):
        line = line.strip()
        if not line or line.endswith(':'):
            continue
        for insn in line.strip('{}').split(';'):
            insn = insn.strip()
            if not insn:
                continue
            m = insn.split(None, 1)
            mnem = m[0]
            ops = [o.strip() for o in m[1].split(',')] if len(m) > 1 else []
            forms.setdefault(mnem, ops)
    for e in EXTRA_FORMS:
        forms.setdefault(e, [])
    return forms


class Asm:
    def __init__(self, bindir):
        self.asm = os.path.join(bindir, 'tilegx-linux-gnu-as')
        self.objcopy = os.path.join(bindir, 'tilegx-linux-gnu-objcopy')
        self.objdump = os.path.join(bindir, 'tilegx-linux-gnu-objdump')
        self.tmp = tempfile.mkdtemp(prefix='gen_isa.')
        import atexit, shutil
        atexit.register(shutil.rmtree, self.tmp, True)

    def run(self, lines):
        """Assemble one bundle per line; returns a list of 64-bit words, None where the line does not assemble."""
        bad = set()
        while True:
            src = os.path.join(self.tmp, 'p.s')
            with open(src, 'w') as f:
                for i, l in enumerate(lines):
                    f.write('\t%s\n' % ('{ nop ; nop }' if i in bad else l))
            r = subprocess.run([self.asm, src, '-o', src + '.o'], capture_output=True, text=True)
            if r.returncode == 0:
                break
            new = {int(m.group(1)) - 1 for m in re.finditer(r'p\.s:(\d+): Error', r.stderr)}
            if not new - bad:
                sys.exit('assembler failed without a line to drop:\n' + r.stderr)
            bad |= new
        subprocess.run([self.objcopy, '-O', 'binary', '-j', '.text', src + '.o', src + '.bin'], check=True)
        data = open(src + '.bin', 'rb').read()
        words = [int.from_bytes(data[8 * i:8 * i + 8], 'little') for i in range(len(data) // 8)]
        assert len(words) == len(lines), (len(words), len(lines))
        return [None if i in bad else w for i, w in enumerate(words)]

    def disasm(self, words):
        path = os.path.join(self.tmp, 'd.bin')
        with open(path, 'wb') as f:
            for w in words:
                f.write(w.to_bytes(8, 'little'))
        out = subprocess.run([self.objdump, '-D', '-b', 'binary', '-m', 'tilegx', path], capture_output=True,
                             text=True, check=True).stdout
        res = []
        for l in out.splitlines():
            m = re.match(r'\s*[0-9a-f]+:\s+[0-9a-f]{16}\s+(.*)$', l)
            if m:
                res.append(m.group(1).strip())
        assert len(res) == len(words)
        return res


def kind_of(mnem, idx, op):
    if REG_RE.match(op):
        return 'reg'
    if op == 'target':
        return 'addr'
    if mnem in ('mfspr', 'mtspr') and ((mnem == 'mfspr' and idx == 1) or (mnem == 'mtspr' and idx == 0)):
        return 'spr'
    return 'imm'


def variants(kind, mnem):
    """(base operand text, [variant texts]) for one operand."""
    if kind == 'reg':
        return 'r0', ['r%d' % (1 << k) for k in range(6)]
    if kind == 'addr':
        n = 27 if mnem in ('j', 'jal') else 17
        return '.', ['.+%d' % (8 << k) for k in range(n - 1)] + ['.-8']
    if kind == 'spr':
        return '0', [str(1 << k) for k in range(14)]
    return '0', [str(1 << k) for k in range(16)] + ['-1']


def snap(pipe, changed):
    """The smallest field of `pipe` that holds all of `changed`."""
    best = None
    for name in FIELD_ORDER:
        if not name.endswith('_' + pipe):
            continue
        fm = field_mask(name)
        if changed & ~fm == 0 and (best is None or bin(fm).count('1') < bin(field_mask(best)).count('1')):
            best = name
    if best is None:
        raise SystemExit('no %s field holds bits %#x' % (pipe, changed))
    return best


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    bu, bindir, out = sys.argv[1:]
    asm = Asm(bindir)
    t_insns = 'gas/testsuite/gas/tilegx/t_insns.s'
    if os.path.isfile(bu):
        import tarfile
        with tarfile.open(bu) as tar:
            member = [m for m in tar.getnames() if m.endswith('/' + t_insns)][0]
            with open(os.path.join(asm.tmp, 't_insns.s'), 'wb') as f:
                f.write(tar.extractfile(member).read())
        forms = forms_from_tests(os.path.join(asm.tmp, 't_insns.s'))
    else:
        forms = forms_from_tests(os.path.join(bu, t_insns))

    # 1. Pipes: the base form of every instruction in every pipe.
    jobs = []
    for mnem, ops in sorted(forms.items()):
        base_ops = [variants(kind_of(mnem, i, o), mnem)[0] for i, o in enumerate(ops)]
        text = mnem + (' ' + ', '.join(base_ops) if base_ops else '')
        for pipe in PIPE_BITS:
            jobs.append((mnem, pipe, text))
        jobs.append((mnem, None, text))  # alone: found by its bits (instructions that cannot be bundled)
    words = asm.run([bundle(p, t) if p else '{ %s }' % t for _, p, t in jobs])
    pipes = {}
    for (mnem, pipe, _), w in zip(jobs, words):
        if w is None or pipe is None:
            continue
        pipes.setdefault(mnem, {})[pipe] = w
    alone = set()
    for (mnem, pipe, _), w in zip(jobs, words):
        if pipe is None and w is not None and mnem not in pipes:
            # Alone in an X bundle beside a nop: the pipe whose bits differ from nop's padding.
            assert w & MODE == 0, mnem
            nx0 = pipes['nop']['X0'] & PIPE_BITS['X0']
            nx1 = pipes['nop']['X1'] & PIPE_BITS['X1']
            alone.add(mnem)
            if w & PIPE_BITS['X0'] == nx0:
                pipes.setdefault(mnem, {})['X1'] = w
            elif w & PIPE_BITS['X1'] == nx1:
                pipes.setdefault(mnem, {})['X0'] = w
            else:
                sys.exit('cannot place %s' % mnem)
    missing = sorted(set(forms) - set(pipes))
    if missing:
        sys.exit('no pipe takes: %s' % missing)

    # 2. Operand fields, per instruction and pipe.
    jobs = []
    for mnem, ps in sorted(pipes.items()):
        ops = forms[mnem]
        kinds = [kind_of(mnem, i, o) for i, o in enumerate(ops)]
        base_ops = [variants(k, mnem)[0] for k in kinds]
        for pipe in ps:
            for i, k in enumerate(kinds):
                for v in variants(k, mnem)[1]:
                    o = list(base_ops)
                    o[i] = v
                    text = mnem + ' ' + ', '.join(o)
                    jobs.append((mnem, pipe, i, v, '{ %s }' % text if mnem in alone else bundle(pipe, text)))
    words = asm.run([j[4] for j in jobs])
    changed = {}
    signed = {}
    for (mnem, pipe, i, v, _), w in zip(jobs, words):
        if w is None:
            continue
        d = (w ^ pipes[mnem][pipe]) & PIPE_BITS[pipe]
        key = (mnem, pipe, i)
        if v in ('-1', '.-8'):
            signed[key] = True
            continue
        changed[key] = changed.get(key, 0) | d

    entries = []
    for mnem, ps in sorted(pipes.items()):
        kinds = [kind_of(mnem, i, o) for i, o in enumerate(forms[mnem])]
        for pipe, w in ps.items():
            fields = []
            mask = PIPE_BITS[pipe]
            for i, k in enumerate(kinds):
                c = changed.get((mnem, pipe, i), 0)
                if c == 0:
                    sys.exit('operand %d of %s in %s changes nothing' % (i, mnem, pipe))
                f = snap(pipe, c)
                mask &= ~field_mask(f)
                typ = {'reg': 'Reg', 'addr': 'Addr', 'spr': 'Spr'}.get(k)
                if typ is None:
                    typ = 'Simm' if signed.get((mnem, pipe, i)) else 'Uimm'
                fields.append((f, typ))
            entries.append([mnem, pipe, mask, w & mask, fields, w])

    # 3. Aliases the assembler takes but the disassembler never prints (same encoding as another entry): dropped.
    keep = []
    by_enc = {}
    for e in entries:
        by_enc.setdefault((e[1], e[2], e[3]), []).append(e[0])
    for e in entries:
        same = by_enc[(e[1], e[2], e[3])]
        if len(same) > 1:
            printed = [n for n in same if n in disasm_names(asm, e)]
            if e[0] not in printed:
                continue
        keep.append(e)

    # 3b. Bits the disassembler ignores (unused operand fields): a bundle with one of them flipped prints the same.
    probes = []
    for e in keep:
        for b in range(64):
            if e[2] >> b & 1 and not MODE >> b & 1:
                probes.append((e, b))
    texts = asm.disasm([e[5] for e in keep] + [e[5] ^ (1 << b) for e, b in probes])
    base = {id(e): t for e, t in zip(keep, texts)}
    for (e, b), t in zip(probes, texts[len(keep):]):
        if t == base[id(e)]:
            e[2] &= ~(1 << b)
            e[3] &= ~(1 << b)

    # 4. SPR names: objdump's name for every SPR number (mfspr r0, N in X1).
    mf = [e for e in keep if e[0] == 'mfspr'][0]
    fm = field_mask(mf[4][1][0])
    spr_words = []
    for n in range(1 << 14):
        spr_words.append(pipes['nop']['X0'] & PIPE_BITS['X0'] | mf[3] | insert(mf[4][1][0], n))
    sprs = []
    for n, t in enumerate(asm.disasm(spr_words)):
        m = re.search(r'mfspr r0, ([A-Za-z_][A-Za-z0-9_]*)', t)
        if m:
            sprs.append((n, m.group(1)))

    with open(out, 'w') as f:
        f.write('// Generated by sim/tilegx/tools/gen_isa.py from probes of tilegx-linux-gnu-as 2.40: do not edit.\n')
        f.write('// TILEGX_MNEMONIC(name, solo): solo = cannot share a bundle (the assembler pads it with nops).\n')
        f.write('// TILEGX_INSN(mnemonic, pipe, mask, match, operands...): operands are {Field, Kind} pairs.\n')
        f.write('// TILEGX_SPR(number, name): the names objdump prints.\n')
        f.write('#ifdef TILEGX_MNEMONIC\n')
        for mnem in sorted({e[0] for e in keep}):
            f.write('TILEGX_MNEMONIC(%s, %d)\n' % (mnem, 1 if mnem in alone else 0))
        f.write('#endif\n#ifdef TILEGX_INSN\n')
        for mnem, pipe, mask, match, fields, _ in sorted(keep, key=lambda e: (e[0], e[1])):
            ops = ''.join(', {F_%s, K_%s}' % (fl, t) for fl, t in fields)
            f.write('TILEGX_INSN(%s, %s, 0x%016xull, 0x%016xull%s)\n' % (mnem, pipe, mask, match, ops))
        f.write('#endif\n#ifdef TILEGX_SPR\n')
        for n, name in sprs:
            f.write('TILEGX_SPR(%d, %s)\n' % (n, name))
        f.write('#endif\n')
    print('%d entries, %d mnemonics, %d SPR names' % (len(keep), len({e[0] for e in keep}), len(sprs)))


def insert(field, value):
    w = 0
    for s, width in FIELDS[field]:
        w |= (value & ((1 << width) - 1)) << s
        value >>= width
    return w


_dis_cache = {}
def disasm_names(asm, e):
    key = (e[1], e[2], e[3])
    if key not in _dis_cache:
        _dis_cache[key] = asm.disasm([e[5]])[0]
    return re.findall(r'[a-z0-9_]+', _dis_cache[key])


if __name__ == '__main__':
    main()
