#!/usr/bin/env python3
"""Regenerate a target's opcode tables from LLVM's own AMDGPU disassembler.

The opcode numbers of every encoding are facts of the hardware; LLVM's decoder is
the reference strobe must agree with, so the tables are derived from it rather
than typed by hand. For each encoding and opcode value the script tries a few
operand templates (LLVM rejects words whose unused fields are non-zero) and
records the first mnemonic LLVM accepts.

Usage: scripts/gen-opcode-table.py [--target gfx803|gfx942] src/isa
Writes the target's opcodes.def (one row per encoding and opcode number),
fixed_bits.def and operand_probes.def (gfx803 in src/isa, gfx942 in src/isa/gfx942),
then ops.def from every target's opcodes.def: one row per distinct operation,
i.e. base mnemonic without _e32/_e64/_sdwa/_dpp, named by what it does (ALIASES).
gfx803 needs llvm-mc and llvm-objdump of LLVM 14; gfx942 those of LLVM 19.
"""
import argparse
import re
import subprocess
import sys
import tempfile
import os

V0 = 0x100  # VGPR 0 in a 9-bit source field
NOP = 0xBF800000  # s_nop 0


def disassemble(seqs):
    """Disassemble a list of dword tuples laid out back to back; map address -> text."""
    with tempfile.TemporaryDirectory() as d:
        s = os.path.join(d, "t.s")
        o = os.path.join(d, "t.o")
        with open(s, "w") as f:
            f.write(".text\n")
            for ws in seqs:
                f.write(".long " + ",".join("0x%08x" % w for w in ws) + "\n")
        subprocess.run([T["mc"], "-arch=amdgcn", "-mcpu=" + T["mcpu"], "-filetype=obj", s, "-o", o], check=True)
        out = subprocess.run([T["objdump"], "-d", "--mcpu=" + T["mcpu"], o], capture_output=True, text=True).stdout
    res = {}
    for line in out.splitlines():
        m = re.match(r"\t(.*?)\s*// ([0-9A-F]{12}): (.*)$", line)
        if m:
            res[int(m.group(2), 16)] = m.group(1)
    return res


def vop3_templates(op):
    base = 0xD0000000 | op << 16
    return [(base, V0 | V0 << 9 | V0 << 18), (base, V0 | V0 << 9), (base, V0), (base, 0)]


ENCODINGS_GFX8 = [
    # name, opcode count, templates(op) -> list of candidate dword tuples
    ("SOP2", 0x60, lambda op: [(0x80000000 | op << 23,)]),
    ("SOPK", 0x1C, lambda op: [(0xB0000000 | op << 23,)]),
    ("SOP1", 256, lambda op: [(0xBE800000 | op << 8,)]),
    ("SOPC", 128, lambda op: [(0xBF000000 | op << 16,)]),
    ("SOPP", 128, lambda op: [(0xBF800000 | op << 16,)]),
    ("SMEM", 256, lambda op: [(0xC0000000 | op << 18 | 1 << 17, 0), (0xC0000000 | op << 18, 0)]),
    ("VOP2", 0x3E, lambda op: [(op << 25 | V0,), (op << 25 | V0, 0x3F800000)]),
    ("VOP1", 256, lambda op: [(0x7E000000 | op << 9 | V0,)]),
    ("VOPC", 256, lambda op: [(0x7C000000 | op << 17 | V0,)]),
    ("VOP3", 1024, vop3_templates),
    ("VINTRP", 4, lambda op: [(0xD4000000 | op << 16,)]),
    # ds_ordered_count and ds_gws_* exist only with the gds bit set.
    ("DS", 256, lambda op: [(0xD8000000 | op << 17, 0), (0xD8000000 | op << 17 | 1 << 16, 0)]),
    ("FLAT", 128, lambda op: [(0xDC000000 | op << 18, 0)]),
    # buffer_store_lds_dword (gfx9, still decoded on gfx803) exists only with its lds bit set.
    ("MUBUF", 128, lambda op: [(0xE0000000 | op << 18, 0), (0xE0000000 | op << 18 | 1 << 16, 0)]),
    ("MTBUF", 16, lambda op: [(0xE8000000 | op << 15, 0)]),
    # MIMG opcodes are 8 bits: bit 7 lives in bit 0 of the word (LLVM 14 still decodes the
    # gfx9 *_g16 samplers there on gfx803).
    ("MIMG", 256, lambda op: [(0xF0000000 | (op & 0x7F) << 18 | op >> 7 | 1 << 8, 0)]),
    ("EXP", 1, lambda op: [(0xC4000000, 0)]),
]


def vop3p_templates(op):
    """VOP3P words: packed math with op_sel_hi set (LLVM then prints no modifier), then the
    matrix-core (MAI) forms with AccVGPR or VGPR C/D operands."""
    base = 0xD3800000 | op << 16
    srcs = V0 | V0 << 9 | V0 << 18
    if op >= 0x3E:  # MAI: bits 14:11 are abid and 28:27 the sources' AccVGPR flags
        return [(base, srcs), (base, V0 | V0 << 9), (base, V0), (base, 0)]
    return [(base | 1 << 14, srcs | 3 << 27), (base | 1 << 14, V0 | V0 << 9 | 3 << 27), (base, srcs), (base, 0)]


def flat_templates(seg):
    """gfx9 FLAT words of one segment (0 flat, 1 scratch, 2 global): with a VGPR address and no
    SGPR base (saddr off), then with an SGPR base, then (scratch) with neither."""
    def templ(op):
        base = 0xDC000000 | op << 18 | seg << 14
        return [(base, 0x007F0000), (base, 0), (base | 1 << 13, 0x007F0000)]
    return templ


def gfx9_encodings():
    """gfx8's encodings with gfx9's changes: SOPK gains s_call_b64 (0x15, so 0x1D opcodes are
    probed), VOP3 stops at 0x380 where VOP3P's prefix starts, FLAT gains its segment field; VOP3P
    follows VOP3 and the SCRATCH and GLOBAL segments follow FLAT."""
    changed = {"SOPK": ("SOPK", 0x1D, lambda op: [(0xB0000000 | op << 23,)]),
               "VOP3": ("VOP3", 0x380, vop3_templates), "FLAT": ("FLAT", 128, flat_templates(0))}
    added = {"VOP3": [("VOP3P", 128, vop3p_templates)],
             "FLAT": [("SCRATCH", 128, flat_templates(1)), ("GLOBAL", 128, flat_templates(2))]}
    out = []
    for e in ENCODINGS_GFX8:
        out.append(changed.get(e[0], e))
        out += added.get(e[0], [])
    return out


ENCODINGS_GFX9 = gfx9_encodings()

# Bits of the first dword that select the encoding and the opcode; everything else is probed.
FIXED_FIELDS_GFX8 = {
    "SOP2": 0xFF800000, "SOPK": 0xFF800000, "SOP1": 0xFF80FF00, "SOPC": 0xFFFF0000,
    "SOPP": 0xFFFF0000, "SMEM": 0xFFFC0000, "VOP2": 0xFE000000, "VOP1": 0xFE01FE00,
    "VOPC": 0xFFFE0000, "VOP3": 0xFFFF0000, "VINTRP": 0xFC030000, "DS": 0xFDFE0000,
    "FLAT": 0xFDFC0000, "MUBUF": 0xFDFC0000, "MTBUF": 0xFC078000, "MIMG": 0xFDFC0001,
    "EXP": 0xFC000000,
}
# gfx9 adds the VOP3P encoding and the FLAT segment field (bits 15:14).
FIXED_FIELDS_GFX9 = dict(FIXED_FIELDS_GFX8, VOP3P=0xFFFF0000, FLAT=0xFDFCC000, SCRATCH=0xFDFCC000,
                         GLOBAL=0xFDFCC000)
SIXTY_FOUR = {"SMEM", "VOP3", "VOP3P", "DS", "FLAT", "SCRATCH", "GLOBAL", "MUBUF", "MTBUF", "MIMG", "EXP"}

# Operations gfx9 renamed or gave a name gfx8 used for another operation. An Op names what an
# instruction does, so gfx9's carry-out adds are gfx8's v_add_u32 and friends, and gfx9's
# v_add_u32 (no carry) is the operation later targets call v_add_nc_u32.
ALIASES_GFX9 = {
    "v_add_co_u32": "v_add_u32", "v_sub_co_u32": "v_sub_u32", "v_subrev_co_u32": "v_subrev_u32",
    "v_addc_co_u32": "v_addc_u32", "v_subb_co_u32": "v_subb_u32", "v_subbrev_co_u32": "v_subbrev_u32",
    "v_add_u32": "v_add_nc_u32", "v_sub_u32": "v_sub_nc_u32", "v_subrev_u32": "v_subrev_nc_u32",
}

# How LLVM prints an immediate in a source, told apart by six probes: inline 0.5, inline 1/(2*pi),
# and the literals 0x3f800000, 0x3c00, 0x12345678 and 0x3ff00000 (None where the encoding takes
# no literal, or where the types agree).
IMM_SIGNATURES = [
    ("F64", (None, "0.15915494309189532", None, None, None, "1.0")),
    ("B64", (None, "0.15915494309189532", None, None, None, None)),
    ("I16", ("0x3800", "0x3118", None, "0x3c00", "0x5678", None)),
    ("B32", ("0.5", "0.15915494", "1.0", "0x3c00", "0x12345678", None)),
    ("F16", ("0.5", "0.15915494", "0", "1.0", "0x5678", None)),
    ("V2F16", ("0.5", "0.15915494", "0x3f800000", "1.0", "0x12345678", None)),
]
IMM_PROBES = [(0xF0, None), (0xF8, None), (0xFF, 0x3F800000), (0xFF, 0x3C00), (0xFF, 0x12345678),
              (0xFF, 0x3FF00000)]


def operand_tokens(line):
    """The comma-separated operands of a printed instruction, each cut at its first space."""
    parts = line.split(None, 1)
    if len(parts) < 2:
        return []
    toks, depth, cur = [], 0, ""
    for ch in parts[1]:
        depth += ch in "([" and 1 or ch in ")]" and -1 or 0
        if ch == "," and depth == 0:
            toks.append(cur.strip())
            cur = ""
        else:
            cur += ch
    toks.append(cur.strip())
    return [t.split(" ")[0] for t in toks]


def imm_types(rows_with_base):
    """The immediate type of every source LLVM prints a constant in: {(enc, op, k): type}.
    A source whose probes match no known signature is reported and left to the default."""
    nop = 0xBF800000
    seqs, index = [], []
    rows_with_base = list(rows_with_base)
    if T["sdwa_scalar_src"]:
        # vsrc1 takes no constant in e32; gfx9's SDWA form does (S1 set), so probe it there.
        rows_with_base += [("SDWA_" + enc, op, (EXT_BASE[enc][0](op, 0xF9), 1 << 31))
                           for enc, op, _ in rows_with_base if enc in ("VOP2", "VOPC")]
    for enc, op, base in rows_with_base:
        words = tuple(base) + (nop,) * (2 - len(base))
        index.append((enc, op, None, None, 12 * len(seqs)))
        seqs.append(words + (nop,))
        for k, field in enumerate(SRC_FIELDS.get(enc, [])):
            for p, (code, lit) in enumerate(IMM_PROBES):
                t = with_field(words, field, code)
                if lit is not None and len(base) > 1:
                    continue  # gfx8/gfx9's 64-bit encodings take no literal
                if lit is not None:
                    t = (t[0], lit)
                index.append((enc, op, k, p, 12 * len(seqs)))
                seqs.append(t + (nop,))
    text = disassemble(seqs)
    base_toks, probes = {}, {}
    for enc, op, k, p, a in index:
        if k is None:
            base_toks[(enc, op)] = operand_tokens(text.get(a, ""))
            continue
        line = text.get(a, "")
        probes.setdefault((enc, op, k), [None] * len(IMM_PROBES))[p] = line
    res = {}
    for (enc, op, k), lines in probes.items():
        base = base_toks[(enc, op)]
        first = operand_tokens(lines[0])
        if not lines[0] or "nvalid" in lines[0] or len(first) != len(base):
            continue  # rejected, or a register-only source
        diff = [i for i in range(len(base)) if base[i] != first[i]]
        if len(diff) != 1:
            continue
        sig = []
        for line in lines:
            toks = operand_tokens(line) if line and not line.startswith(".long") and "nvalid" not in line else []
            sig.append(toks[diff[0]] if len(toks) == len(base) else None)
        if sig[0] is None or sig[1] is None:
            continue
        for name, want in IMM_SIGNATURES:
            # A probe the encoding cannot take (None) matches any signature.
            if all(w is None or g is None or w == g for w, g in zip(want, sig)):
                res[(enc, op, k)] = name
                break
        else:
            print("warning: %s %d source %d: unknown immediate printing %s" % (enc, op, k, sig), file=sys.stderr)
    for (enc, op, k), t in list(res.items()):
        if enc.startswith("SDWA_"):
            del res[(enc, op, k)]
            res.setdefault((enc[5:], op, 1), t)
    return res


# Modifier bits probed per form, in the order of the effect strings of modifiers.def:
# (dword, bit) pairs.
MOD_BITS = {
    "VOP3": [(0, 8), (0, 9), (0, 10), (1, 29), (1, 30), (1, 31), (0, 15), (1, 27), (1, 28)],
    "SDWA": [(1, 19), (1, 20), (1, 21), (1, 27), (1, 28), (1, 29), (1, 13)],
    "DPP": [(1, 20), (1, 21), (1, 22), (1, 23)],
    # gfx9's packed math: neg_lo0-2, neg_hi0-2, op_sel0-2, op_sel_hi0-2, clamp.
    "VOP3P": [(1, 29), (1, 30), (1, 31), (0, 8), (0, 9), (0, 10), (0, 11), (0, 12), (0, 13), (1, 27), (1, 28),
              (0, 14), (0, 15)],
}
# gfx9's SDWA adds output modifiers in bits 15:14 of the second dword (VOPC's SD and sdst bits).
# gfx9's VOP3 adds op_sel in bits 14:11 of the first dword (sources 0-2, then the destination).
MOD_BITS_GFX9 = dict(MOD_BITS, SDWA=MOD_BITS["SDWA"] + [(1, 14), (1, 15)],
                     VOP3=MOD_BITS["VOP3"] + [(0, 11), (0, 12), (0, 13), (0, 14)])

TARGETS = {
    "gfx803": {"mcpu": "gfx803", "mc": "llvm-mc", "objdump": "llvm-objdump", "llvm": "LLVM 14", "subdir": "",
               "encodings": ENCODINGS_GFX8, "fixed": FIXED_FIELDS_GFX8, "aliases": {},
               "mod_bits": MOD_BITS, "sdwa_scalar_src": False},
    "gfx942": {"mcpu": "gfx942", "mc": "llvm-mc-19", "objdump": "llvm-objdump-19", "llvm": "LLVM 19",
               "subdir": "gfx942", "encodings": ENCODINGS_GFX9, "fixed": FIXED_FIELDS_GFX9,
               "aliases": ALIASES_GFX9, "mod_bits": MOD_BITS_GFX9,
               "sdwa_scalar_src": True},
}
T = TARGETS["gfx803"]  # the target being generated (main() sets it)

SUFFIXES = ("_e32", "_e64", "_sdwa", "_dpp")


def base_name(mnemonic):
    for s in SUFFIXES:
        if mnemonic.endswith(s):
            return mnemonic[: -len(s)]
    return mnemonic


def probe_fixed_bits(enc, op, base):
    """Bits LLVM requires to be zero (or one) for this opcode: flip each free bit of a known-good
    instance and record the flips LLVM then rejects (or decodes as another mnemonic)."""
    words = list(base) + [0] * (2 - len(base)) if enc in SIXTY_FOUR else [base[0], 0]
    free = [(0, b) for b in range(32) if not (T["fixed"][enc] >> b) & 1]
    if enc in SIXTY_FOUR:
        free += [(1, b) for b in range(32)]
    seqs = [tuple(words)]
    for w, b in free:
        t = list(words)
        t[w] ^= 1 << b
        seqs.append(tuple(t))
    return words, free, seqs


def fixed_masks(rows_with_base):
    """Runs every probe in one llvm-mc batch; returns {(enc, op): [zero_lo, zero_hi, one_lo, one_hi]}:
    bits that must be zero, and bits of the sample instance that must stay one."""
    allseqs, index = [], []
    addr = 0
    for enc, op, base in rows_with_base:
        words, free, seqs = probe_fixed_bits(enc, op, base)
        for k, sq in enumerate(seqs):
            bit = None if k == 0 else free[k - 1]
            index.append((enc, op, bit, bool(bit) and bool(words[bit[0]] >> bit[1] & 1), addr))
            allseqs.append(sq)
            addr += 4 * len(sq)
    text = disassemble(allseqs)
    res, ref = {}, {}
    for enc, op, bit, was_one, a in index:
        line = text.get(a, ".long")
        mnem = line.split()[0]
        if bit is None:
            ref[(enc, op)] = mnem
            res[(enc, op)] = [0, 0, 0, 0]
            continue
        if a not in text:
            continue  # all-zero words: llvm-objdump elides them as "...", no verdict
        if line.startswith(".long") or mnem != ref[(enc, op)]:
            res[(enc, op)][bit[0] + (2 if was_one else 0)] |= 1 << bit[1]
    return res


# VOP1/VOP2/VOPC words with src0 = 0xF9 (SDWA) or 0xFA (DPP): fixed fields of the first dword
# (encoding, opcode, src0) and a neutral second dword (all selects BYTE_0 / quad_perm 0).
EXT_BASE = {
    "VOP1": (lambda op, s: 0x7E000000 | op << 9 | s, 0xFE01FFFF),
    "VOP2": (lambda op, s: op << 25 | s, 0xFE0001FF),
    "VOPC": (lambda op, s: 0x7C000000 | op << 17 | s, 0xFFFE01FF),
}


def ext_masks(rows):
    """Fixed bits of the SDWA and DPP forms of every VOP1/VOP2/VOPC opcode, or None where LLVM
    has no such form. A neutral second dword (selects BYTE_0) is tried first, then one with
    dst_sel DWORD, which gfx940's fp8 conversions require. Returns {(enc, ext, op):
    (mask_lo, mask_hi, ones_hi)}: must-be-zero bits, and the second dword's must-be-one bits."""
    res, todo = {}, [(enc, op) for enc, op in rows]
    for ones in (0, 0x600):
        allseqs, index = [], []
        addr = 0
        for enc, op in todo:
            make, fixed = EXT_BASE[enc]
            for ext, src0 in (("SDWA", 0xF9), ("DPP", 0xFA)):
                if (enc, ext, op) in res or (ext == "DPP" and ones):
                    continue
                base = (make(op, src0), ones)
                probes = [None] + [(0, b) for b in range(32) if not (fixed >> b) & 1] + [(1, b) for b in range(32)]
                for bit in probes:
                    t = list(base)
                    if bit:
                        t[bit[0]] |= 1 << bit[1]
                    index.append((enc, ext, op, bit, addr))
                    allseqs.append(tuple(t))
                    addr += 8
        text = disassemble(allseqs)
        found, ref = {}, {}
        for enc, ext, op, bit, a in index:
            line = text.get(a, ".long")
            mnem = line.split()[0]
            key = (enc, ext, op)
            if bit is None:
                ref[key] = None if line.startswith(".long") or (a + 4) in text else mnem
                found[key] = [0, 0, ones]
                continue
            if ref[key] is None:
                continue
            # A line at a+4 means LLVM fell back to the 4-byte e32 form (v_nop prints alike).
            if line.startswith(".long") or mnem != ref[key] or (a + 4) in text:
                found[key][bit[0]] |= 1 << bit[1]
        res.update({k: v for k, v in found.items() if ref[k] is not None})
    return res


# Source fields (dword, shift, width) of the encodings whose sources may hold inline constants.
SRC_FIELDS = {
    "SOP2": [(0, 0, 8), (0, 8, 8)], "SOP1": [(0, 0, 8)], "SOPC": [(0, 0, 8), (0, 8, 8)],
    "VOP1": [(0, 0, 9)], "VOP2": [(0, 0, 9)], "VOPC": [(0, 0, 9)],
    "VOP3": [(1, 0, 9), (1, 9, 9), (1, 18, 9)], "VOP3P": [(1, 0, 9), (1, 9, 9), (1, 18, 9)],
    "SDWA_VOP2": [(0, 9, 8)], "SDWA_VOPC": [(0, 9, 8)],  # vsrc1 of gfx9's SDWA with S1 set
}
INVALID = "/*invalid immediate*/"  # LLVM 19 capitalises it: compared case-insensitively


def with_field(words, field, value):
    w, shift, width = field
    t = list(words)
    t[w] = (t[w] & ~(((1 << width) - 1) << shift)) | value << shift
    return tuple(t)


def class_marks(rows_with_base):
    """Sources that LLVM 19 decodes a register into and then marks as outside their class
    ("s0/*Invalid register, operand has 'VGPR_32' register class*/", or a VGPR in a carry-in's
    'SReg_1_XEXEC'). Probes s0 and, in 9-bit fields, v0. Returns {(enc, op, k, kind): class
    name}, kind 's' or 'v'; LLVM 14 prints no such mark, so gfx803 has none."""
    seqs, index, addr = [], [], 0
    for enc, op, base in rows_with_base:
        words = tuple(base) + (0,) * (2 - len(base))
        for k, field in enumerate(SRC_FIELDS.get(enc, [])):
            for kind, code in (("s", 0), ("v", 0x100)):
                if code >> field[2]:
                    continue
                index.append((enc, op, k, kind, addr))
                seqs.append(with_field(words, field, code))  # s0/v0 (s[0:1]/v[0:1] where 64-bit)
                addr += 8
    text = disassemble(seqs)
    res = {}
    base_text = disassemble([tuple(base) + (0,) * (2 - len(base)) for _, _, base in rows_with_base])
    base_marks = {}
    addr = 0
    for enc, op, base in rows_with_base:
        base_marks[(enc, op)] = base_text.get(addr, "").count("register class")
        addr += 8
    for enc, op, k, kind, a in index:
        line = text.get(a, "")
        m = re.findall(r"operand has '(\w+)' register class", line)
        if len(m) > base_marks[(enc, op)]:  # the probe, not the sample, is out of class
            res[(enc, op, k, kind)] = m[-1]
    return res


def regonly_masks(rows_with_base):
    """Sources whose LLVM operand is register-only: an inline constant there prints as
    /*invalid immediate*/. Returns {(enc, op): mask (bit k = source k)}."""
    seqs, index, addr = [], [], 0
    for enc, op, base in rows_with_base:
        words = tuple(base) + (0,) * (2 - len(base))
        for k, field in enumerate(SRC_FIELDS.get(enc, [])):
            index.append((enc, op, k, addr))
            seqs.append(with_field(words, field, 0x80))  # integer 0
            addr += 8
    text = disassemble(seqs)
    res = {}
    for enc, op, k, a in index:
        if INVALID in text.get(a, "").lower():
            res[(enc, op)] = res.get((enc, op), 0) | 1 << k
    return res




def bracket(text, name):
    """The list after `name` in an instruction's text ("1,0,1"), or None where it is absent."""
    i = text.find(name)
    return None if i < 0 else text[i + len(name):text.index("]", i)]


def effect(base_text, text):
    """What one flipped modifier bit does to LLVM's text: '-' neg, '|' abs, 's' sext(),
    'c' clamp, 'm' omod, 'o' op_sel, 'h' op_sel_hi, 'n' neg_lo, 'N' neg_hi, '.' nothing,
    'x' rejected, '*' something else."""
    if text is None or text.startswith(".long") or text.split()[0] != base_text.split()[0]:
        return "x"
    if text == base_text:
        return "."
    # A bracketed list that appears or changes: VOP3P's op_sel, op_sel_hi, neg_lo and neg_hi.
    for name, code in ((" op_sel:[", "o"), (" op_sel_hi:[", "h"), (" neg_lo:[", "n"), (" neg_hi:[", "N")):
        if bracket(base_text, name) != bracket(text, name):
            return code
    for mark, code in ( ("sext(", "s"), ("|", "|"), ("-", "-"), (" clamp", "c"), (" mul:", "m"), (" div:", "m")):
        if text.count(mark) > base_text.count(mark):
            return code
    return "*"


def modifier_effects(forms):
    """forms: list of (enc, form, op, base words). Returns {(enc, form, op): effect string}."""
    seqs, index, addr = [], [], 0
    for enc, form, op, base in forms:
        words = tuple(base) + (0,) * (2 - len(base))
        for k in [None] + T["mod_bits"][form]:
            t = list(words)
            if k:
                t[k[0]] ^= 1 << k[1]
            index.append((enc, form, op, k, addr))
            seqs.append(tuple(t))
            addr += 8
    text = disassemble(seqs)
    res, ref = {}, {}
    for enc, form, op, k, a in index:
        key = (enc, form, op)
        if k is None:
            ref[key] = text.get(a)
            res[key] = ""
        elif ref[key] is not None and not ref[key].startswith(".long"):
            res[key] += effect(ref[key], text.get(a))
    return {k: v for k, v in res.items() if v}


def write_operand_probes(outdir, header, rows, bases, ext):
    regonly = regonly_masks([(enc, op, bases[(enc, op)]) for enc, op, _, _ in rows if enc in SRC_FIELDS])
    classes = class_marks([(enc, op, bases[(enc, op)]) for enc, op, _, _ in rows if enc in SRC_FIELDS])
    forms = [(enc, enc, op, bases[(enc, op)]) for enc, op, _, _ in rows if enc in ("VOP3", "VOP3P")]
    for enc, op, _, _ in rows:
        if enc in EXT_BASE:
            make, _ = EXT_BASE[enc]
            ones = ext.get((enc, "SDWA", op), (0, 0, 0))[2]
            forms.append((enc, "SDWA", op, (make(op, 0xF9), ones)))
            forms.append((enc, "DPP", op, (make(op, 0xFA), 0)))
    mods = modifier_effects(forms)
    imms = imm_types([(enc, op, bases[(enc, op)]) for enc, op, _, _ in rows if enc in SRC_FIELDS])
    with open(os.path.join(outdir, "operand_probes.def"), "w") as out:
        out.write(header)
        out.write("// STROBE_REGONLY(ENCODING, OPCODE_NUMBER, SOURCE_MASK): bit k set when source k is a\n")
        out.write("// register-only operand (LLVM prints an inline constant there as /*invalid immediate*/).\n")
        for (enc, op), m in sorted(regonly.items()):
            out.write("STROBE_REGONLY(%s, %d, 0x%X)\n" % (enc, op, m))
        out.write("// STROBE_CLASS_MARK(ENCODING, OPCODE_NUMBER, SOURCE, REGISTER_KIND, CLASS): a source LLVM\n")
        out.write("// decodes an SGPR ('s') or VGPR ('v') into and prints with \"/*Invalid register, operand has\n")
        out.write("// 'CLASS' register class*/\".\n")
        for (enc, op, k, kind), cls in sorted(classes.items()):
            out.write("STROBE_CLASS_MARK(%s, %d, %d, '%s', \"%s\")\n" % (enc, op, k, kind, cls))
        out.write("// STROBE_IMM(ENCODING, OPCODE_NUMBER, SOURCE, TYPE): how LLVM prints a constant in the source\n")
        out.write("// (ImmType), told from how it prints inline and literal probes.\n")
        for (enc, op, k), t in sorted(imms.items()):
            out.write("STROBE_IMM(%s, %d, %d, %s)\n" % (enc, op, k, t))
        out.write("// STROBE_MODS(ENCODING, FORM, OPCODE_NUMBER, EFFECTS): what LLVM does with each modifier bit\n")
        out.write("// of the form (bit order: VOP3 abs0-2 neg0-2 clamp omod0-1, gfx9 also op_sel0-3; SDWA sext0\n")
        out.write("// neg0 abs0 sext1 neg1 abs1 clamp, gfx9 also omod0-1; DPP neg0 abs0 neg1 abs1; VOP3P neg_lo0-2\n")
        out.write("// neg_hi0-2 op_sel0-2 op_sel_hi0-2 clamp): '-' neg, '|' abs, 's' sext(), 'c' clamp, 'm' omod,\n")
        out.write("// 'o' op_sel, 'h' op_sel_hi, 'n' neg_lo, 'N' neg_hi, '.' ignored, 'x' rejected, '*' other.\n")
        for (enc, form, op), e in sorted(mods.items()):
            out.write('STROBE_MODS(%s, %s, %d, "%s")\n' % (enc, form, op, e))


def op_name(mnem):
    """The Op enumerator of a printed mnemonic: its base name, through the target's aliases."""
    b = base_name(mnem)
    return T["aliases"].get(b, b).upper()


def write_ops(srcdir):
    """ops.def: every target's operations, gfx803's first in their order, then the others'."""
    seen = []
    for name in ("gfx803", "gfx942"):
        path = os.path.join(srcdir, TARGETS[name]["subdir"], "opcodes.def")
        if not os.path.exists(path):
            continue
        for op in re.findall(r'^STROBE_OPCODE\(\w+, \d+, "[^"]*", (\w+),', open(path).read(), re.M):
            if op not in seen:
                seen.append(op)
    text = "// Generated by scripts/gen-opcode-table.py from every target's opcodes.def. Do not edit.\n"
    text += "// STROBE_OP(OP, NAME): every distinct operation of every target, whatever its encoding.\n"
    text += "".join('STROBE_OP(%s, "%s")\n' % (op, op.lower()) for op in seen)
    path = os.path.join(srcdir, "ops.def")
    # Rewritten only when it changes: every object of the simulator depends on it.
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as out:
            out.write(text)


def main():
    global T
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", default="gfx803", choices=sorted(TARGETS))
    ap.add_argument("srcdir", nargs="?", default="src/isa")
    args = ap.parse_args()
    T = TARGETS[args.target]
    rows = []
    bases = {}
    for enc, count, templ in T["encodings"]:
        found, dirty = {}, {}
        depth = max(len(templ(0)) for _ in [0])
        for t in range(depth):
            seqs, where = [], []
            addr = 0
            for op in range(count):
                if op in found:
                    continue
                cands = templ(op)
                if t >= len(cands):
                    continue
                where.append((op, addr))
                # An s_nop after each candidate: one that takes a literal (s_setreg_imm32_b32)
                # must not swallow the next opcode's candidate.
                seqs.append(cands[t] + (NOP,))
                addr += 4 * len(cands[t]) + 4
            if not seqs:
                break
            text = disassemble(seqs)
            for op, a in where:
                line = text.get(a)
                if line and not line.startswith(".long"):
                    # LLVM 19 decodes some out-of-class operands and marks them: keep looking
                    # for a candidate it prints clean, and fall back to the marked one.
                    if "/*Invalid" in line:
                        dirty.setdefault(op, (line, templ(op)[t]))
                        continue
                    found[op] = line
                    bases[(enc, op)] = templ(op)[t]
        for op, (line, base) in dirty.items():
            if op not in found:
                found[op] = line
                bases[(enc, op)] = base
        for op in sorted(found):
            mnem = found[op].split()[0]
            rows.append((enc, op, mnem, found[op]))
    outdir = os.path.join(args.srcdir, T["subdir"])
    os.makedirs(outdir, exist_ok=True)
    header = "// Generated by scripts/gen-opcode-table.py from %s's %s disassembler. Do not edit.\n" % (
        T["llvm"], T["mcpu"])
    with open(os.path.join(outdir, "opcodes.def"), "w") as out:
        out.write(header)
        out.write("// STROBE_OPCODE(ENCODING, OPCODE_NUMBER, MNEMONIC_AS_PRINTED, OP, SAMPLE_TEXT)\n")
        for enc, op, mnem, sample in rows:
            out.write('STROBE_OPCODE(%s, %d, "%s", %s, "%s")\n' % (enc, op, mnem, op_name(mnem), sample))
    masks = fixed_masks([(enc, op, bases[(enc, op)]) for enc, op, _, _ in rows])
    ext = ext_masks([(enc, op) for enc, op, _, _ in rows if enc in EXT_BASE])
    with open(os.path.join(outdir, "fixed_bits.def"), "w") as out:
        out.write(header)
        out.write("// STROBE_FIXED(ENCODING, OPCODE_NUMBER, MUST_BE_ZERO_DWORD0, MUST_BE_ZERO_DWORD1,\n")
        out.write("//              MUST_BE_ONE_DWORD0, MUST_BE_ONE_DWORD1): operand bits LLVM requires to be\n")
        out.write("// zero or one (a flip from the sample instance is rejected).\n")
        for enc, op, mnem, sample in rows:
            m = masks[(enc, op)]
            out.write("STROBE_FIXED(%s, %d, 0x%08X, 0x%08X, 0x%08X, 0x%08X)\n" % (enc, op, m[0], m[1], m[2], m[3]))
        out.write("// STROBE_FIXED_EXT(ENCODING, SDWA|DPP, OPCODE_NUMBER, MUST_BE_ZERO_DWORD0, MUST_BE_ZERO_DWORD1,\n")
        out.write("// MUST_BE_ONE_DWORD1):\n")
        out.write("// the SDWA/DPP forms LLVM accepts (probed from all-zero selects, or dst_sel DWORD), with their fixed bits.\n")
        for (enc, kind, op), m in sorted(ext.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
            out.write("STROBE_FIXED_EXT(%s, %s, %d, 0x%08X, 0x%08X, 0x%08X)\n" % (enc, kind, op, m[0], m[1], m[2]))
    write_operand_probes(outdir, header, rows, bases, ext)
    write_ops(args.srcdir)


if __name__ == "__main__":
    main()
