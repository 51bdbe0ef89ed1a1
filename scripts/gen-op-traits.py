#!/usr/bin/env python3
"""Regenerate src/isa/op_traits.def from src/isa/ops.def and every target's opcodes.def.

The traits the timing model and the emulator ask about an operation (implicit VCC/SCC/EXEC
use, memory kind and access, f64, transcendental and the VALU's other rate classes, control
flow) follow from the operation's
name and its encodings, which LLVM already fixed in ops.def/opcodes.def. Deriving them here,
once, keeps mnemonic string tests out of the simulator: C++ reads isa::traits(op).

Usage: scripts/gen-op-traits.py src/isa
Needs no LLVM (it only reads the two generated tables).
"""
import re
import sys
import os

TRANSCENDENTAL = ("v_exp_", "v_log_", "v_rcp_", "v_rsq_", "v_sqrt_", "v_sin_", "v_cos_")
# Rate classes of the VALU beside f64 and transcendental, after CLRX's measured GCN timings
# (docs/notes-preset-sources.md, M1): 16-cycle integer operations (32-bit multiplies, 64-bit
# products, the quad SADs); 64-bit integer shifts and compares, which run on the double-precision
# unit (DPFACTOR x 4 cycles); and the f32 fused multiply-adds (v_fma_f32 and the division steps
# built on it), 16 cycles on parts with 1/16-rate double precision and 4 on the others.
QUARTER_INT = {"v_mul_lo_u32", "v_mul_hi_u32", "v_mul_lo_i32", "v_mul_hi_i32", "v_mad_u64_u32", "v_mad_i64_i32",
               "v_qsad_pk_u16_u8", "v_mqsad_pk_u16_u8", "v_mqsad_u32_u8"}
INT64 = ("v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64", "v_lshl_b64", "v_lshr_b64", "v_ashr_i64")
FMA32 = {"v_fma_f32", "v_div_scale_f32", "v_div_fmas_f32", "v_div_fixup_f32"}
# Implicit VCC source of the VOP2 (e32) form; VOP3 names the mask in src2.
READS_VCC_E32 = {"v_cndmask_b32", "v_addc_u32", "v_subb_u32", "v_subbrev_u32"}
# VOP3-only operations that read VCC whatever the encoding.
READS_VCC_ALWAYS = {"v_div_fmas_f32", "v_div_fmas_f64", "s_cbranch_vccz", "s_cbranch_vccnz"}
# Carry-out of the VOP2 (e32) form; VOP3b names it in sdst.
WRITES_VCC_E32 = {"v_add_u32", "v_sub_u32", "v_subrev_u32", "v_addc_u32", "v_subb_u32", "v_subbrev_u32"}
READS_SCC = ("s_cbranch_scc0", "s_cbranch_scc1", "s_cselect_", "s_addc_", "s_subb_")
READS_EXEC = {"s_cbranch_execz", "s_cbranch_execnz"}
SOPP_CONTROL = {"s_waitcnt": "Waitcnt", "s_nop": "Nop", "s_sleep": "Sleep", "s_barrier": "Barrier",
                "s_endpgm": "Endpgm", "s_endpgm_saved": "Endpgm"}
MEM_KIND = {"SMEM": "Scalar", "DS": "Lds", "FLAT": "Flat", "GLOBAL": "Global", "SCRATCH": "Scratch", "MUBUF": "Buffer",
            "MTBUF": "Buffer", "MIMG": "Image"}


def access(m, kind):
    if kind == "None":
        return "None"
    if "atomic" in m:
        return "Atomic"
    if "store" in m:
        return "Store"
    if kind == "Lds":
        if m.startswith("ds_read") or m in ("ds_swizzle_b32", "ds_permute_b32", "ds_bpermute_b32"):
            return "Load"
        if m.startswith("ds_write_") or m.startswith("ds_write2"):
            return "Store"
        if m == "ds_nop" or m.startswith("ds_gws_"):
            return "None"
        return "Atomic"  # read-modify-write: add, min, cmpst, wrxchg, append, ordered_count...
    if "load" in m or m.startswith("image_sample") or m.startswith("image_gather4") or m.startswith("image_get_"):
        return "Load"
    return "None"  # cache control and timers: s_dcache_*, buffer_wbinvl1*, s_memtime, s_atc_probe


def control(m, encs):
    if "SOPP" in encs and m in SOPP_CONTROL:
        return SOPP_CONTROL[m]
    if m.startswith("s_branch") or m.startswith("s_cbranch"):
        return "Branch"
    if m == "s_swappc_b64":
        return "Call"
    if m in ("s_setpc_b64", "s_rfe_b64", "s_rfe_restore_b64"):
        return "Return"
    if "SOPP" in encs:
        return "Sequencer"
    return "None"


def flags(m, encs):
    f = []
    if m in READS_VCC_E32:
        f.append("kReadsVccE32")
    if m in READS_VCC_ALWAYS:
        f.append("kReadsVcc")
    if m in WRITES_VCC_E32 or "VOPC" in encs:
        f.append("kWritesVccE32")
    if m.startswith(READS_SCC):
        f.append("kReadsScc")
    if m in READS_EXEC:
        f.append("kReadsExec")
    if m.startswith("v_cmpx"):
        f.append("kWritesExec")
    if "f64" in m:
        f.append("kF64")
    if m.startswith(TRANSCENDENTAL):
        f.append("kTranscendental")
    if m in QUARTER_INT:
        f.append("kQuarterInt")
    if m in INT64 or (m.startswith("v_cmp") and m.endswith(("_i64", "_u64"))):
        f.append("kInt64")
    if m in FMA32:
        f.append("kFma32")
    if "EXP" in encs:
        f.append("kExport")
    if "VINTRP" in encs:
        f.append("kInterp")
    return "|".join(f) if f else "0"


def main(d):
    ops = re.findall(r'^STROBE_OP\((\w+), "([^"]*)"\)', open(os.path.join(d, "ops.def")).read(), re.M)
    encs = {}
    for table in ("opcodes.def", os.path.join("gfx942", "opcodes.def")):  # every target's
        for enc, op in re.findall(r'^STROBE_OPCODE\((\w+), \d+, "[^"]*", (\w+),', open(os.path.join(d, table)).read(), re.M):
            encs.setdefault(op, set()).add(enc)
    lines = ["// Generated by scripts/gen-op-traits.py from ops.def and opcodes.def. Do not edit.",
             "// STROBE_OP_TRAITS(OP, MEM_KIND, MEM_ACCESS, CONTROL, FLAGS): one row per ops.def row, same order."]
    for op, m in ops:
        e = encs.get(op, set())
        kind = next((MEM_KIND[x] for x in sorted(e) if x in MEM_KIND), "None")
        lines.append("STROBE_OP_TRAITS(%s, %s, %s, %s, %s)" % (op, kind, access(m, kind), control(m, e), flags(m, e)))
    open(os.path.join(d, "op_traits.def"), "w").write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "src/isa")
