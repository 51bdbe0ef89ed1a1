// The host side of cfd: Rodinia euler3d's free-stream state and a float reference of its kernels.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "workloads/cfd/mesh.h"

namespace strobe::workloads::cfd {

inline constexpr int kNvar = 5;  ///< density, momentum x/y/z, density energy
inline constexpr int kRk = 3;    ///< Runge-Kutta stages per time step

/// The far-field block the flux kernel reads: the free stream's 5 conserved variables, then the
/// x, y, z flux contributions of momentum x, y, z and of density energy.
using FarField = std::array<float, kNvar + 12>;

/// Rodinia's free stream: density 1.4, pressure 1, Mach 1.2 along x (no angle of attack).
FarField far_field();

/// Advances `variables` (kNvar * nelr, variable-major) by `iterations` time steps on `mesh` with
/// the same float operations, in the same order, as the kernels.
void reference_solve(const Mesh& mesh, const FarField& ff, std::vector<float>& variables, uint32_t iterations);

}  // namespace strobe::workloads::cfd
