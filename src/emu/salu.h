// Internal split of the scalar-ALU registration across its per-encoding files.
#pragma once

#include "emu/semantics.h"

namespace strobe::emu {

/// SOP2 handlers (salu_sop2.cpp).
void register_salu_sop2(HandlerTable& t);
/// SOP1 handlers (salu_sop1.cpp).
void register_salu_sop1(HandlerTable& t);
/// SOPK and SOPC handlers, including s_getreg/s_setreg (salu_sopk_sopc.cpp).
void register_salu_sopk_sopc(HandlerTable& t);

}  // namespace strobe::emu
